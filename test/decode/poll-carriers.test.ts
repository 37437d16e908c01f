/**
 * Issue 27, items 1 and 2: a poll arrives in every carrier a seller answers in. Over A2A the
 * `get_task_status` invocation completes (A2A `completed`) while the polled task is still
 * `working` or `input-required`: the A2A state is the transport's layer, not an alias of the
 * payload's `status` (a2a-response-format.mdx), so the poll decodes. 3.0's `tasks/get` answer (the
 * tool `tasks_get`) is read in an MCP CallToolResult, an A2A task and an @a2a-js/sdk object, as
 * 3.1's `get_task_status` is; a carrier's own failure is the poll's TaskFailedError.
 */
import { describe, expect, test } from 'vitest';
import { decode, decodeTaskStatus, encode, TaskFailedError } from '../../src/index.js';
import { a2a03, a2a10, mcp } from '../fixtures/envelopes.js';
import { pollResponse } from '../fixtures/poll-sellers.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { caughtAs } from '../helpers.js';

type Json = Record<string, unknown>;

const polled = (status: string, extra: Json = {}): Json => pollResponse(status, extra);
const handle31 = { task: 'create_media_buy', taskId: 'task_cmb_4821', version: V3_1 } as const;
const handle30 = { task: 'create_media_buy', taskId: 'task_cmb_4821', version: V3_0 } as const;

/** A completed A2A Task as the @a2a-js/sdk 1.x client returns it: numeric state, `$case` parts. */
function sdkTask(data: Json, state = 3): Json {
  return {
    id: 'a2a-task-poll-1',
    contextId: 'ctx-poll-1',
    status: { state },
    artifacts: [{ artifactId: 'adcp-result', parts: [{ content: { $case: 'data', value: data } }] }],
  };
}

describe('A2A: a completed get_task_status invocation reports a task still under way', () => {
  test.each(['working', 'input-required', 'submitted'])('polled task %s in a completed A2A task (1.0, v0.3, SDK object)', (status) => {
    const answers = [
      a2a10.taskEnvelope('TASK_STATE_COMPLETED', polled(status)),
      a2a03.task('completed', polled(status)),
      sdkTask(polled(status)),
    ];
    for (const answer of answers) {
      expect(decode('get_task_status', answer)).toMatchObject({ task_id: 'task_cmb_4821', status });
      expect(decodeTaskStatus(answer, { handle: handle31 })).toMatchObject({ status, data: null, version: V3_1 });
    }
  });

  test('a create_media_buy answer whose A2A task completed while the buy is working: decoded as working', () => {
    const working = { status: 'working', task_id: 'task_cmb_4821', percentage: 40 };
    expect(decode('create_media_buy', a2a10.taskEnvelope('TASK_STATE_COMPLETED', working))).toMatchObject(working);
  });

  test('a failed A2A invocation is the poll failing, whatever its DataPart says of itself', () => {
    const error = caughtAs(TaskFailedError, () => decodeTaskStatus(a2a10.taskEnvelope('TASK_STATE_FAILED', polled('working'))));
    expect(error).toMatchObject({ code: 'TASK_FAILED', task: 'get_task_status' });
  });

  test('an AdCP envelope still may not contradict its result: a working poll around a completed result', () => {
    const result = { status: 'working', task_id: 'task_cmb_4821' };
    const answer = a2a10.taskEnvelope('TASK_STATE_COMPLETED', polled('completed', { completed_at: '2026-04-18T09:59:58Z', result }));
    expect(() => decodeTaskStatus(answer, { handle: handle31 })).toThrow(
      expect.objectContaining({
        code: 'MALFORMED_ENVELOPE',
        path: '/status',
        message: expect.stringMatching(/envelope status "completed"/),
      }),
    );
  });
});

describe('3.0 tasks/get in every carrier', () => {
  const result = { media_buy_id: 'mb_4821', buyer_ref: 'br_4821', packages: [] };
  test.each([
    ['an MCP CallToolResult (structuredContent)', mcp.structured(polled('working'))],
    ['an MCP CallToolResult (text only)', mcp.text(polled('working'))],
    ['an A2A 1.0 task', a2a10.taskEnvelope('TASK_STATE_COMPLETED', polled('working'))],
    ['an A2A v0.3 task', a2a03.task('completed', polled('working'))],
    ['an @a2a-js/sdk Task object', sdkTask(polled('working'))],
    ['a JSON-RPC success around an MCP result', { jsonrpc: '2.0', id: 4, result: mcp.structured(polled('working')) }],
    ['the bare response', polled('working')],
  ])('%s: working, correlated to the handle', (_, answer) => {
    expect(decodeTaskStatus(answer, { handle: handle30 })).toMatchObject({ status: 'working', data: null, version: V3_0 });
  });

  test('completed with its result, in a CallToolResult: typed by the handle', () => {
    const answer = mcp.structured(polled('completed', { completed_at: '2026-04-18T09:59:58Z', result }));
    const task = decodeTaskStatus(answer, { handle: handle30 });
    expect(task.status).toBe('completed');
    expect(task.data).toMatchObject({ media_buy_id: 'mb_4821' });
  });

  test("the carrier's own failure (isError with an adcp_error) is the poll's TaskFailedError, not MALFORMED_ENVELOPE", () => {
    const error = caughtAs(TaskFailedError, () =>
      decodeTaskStatus(mcp.error({ code: 'REFERENCE_NOT_FOUND', message: 'no such task' }), { version: '3.0' }),
    );
    expect(error).toMatchObject({ task: 'tasks/get', version: V3_0 });
    expect(error.adcpError?.code).toBe('REFERENCE_NOT_FOUND');
  });

  test('another task in a CallToolResult: TASK_MISMATCH before its result is read', () => {
    const answer = mcp.structured({ ...polled('working'), task_id: 'task_other_1' });
    expect(() => decodeTaskStatus(answer, { handle: handle30 })).toThrow(
      expect.objectContaining({ code: 'TASK_MISMATCH', path: '/task_id' }),
    );
  });

  test('a CallToolResult whose response its schema refuses: MALFORMED_ENVELOPE at the path, judged as the response', () => {
    const { created_at: _, ...missing } = polled('working');
    expect(() => decodeTaskStatus(mcp.structured(missing), { version: '3.0' })).toThrow(
      expect.objectContaining({ code: 'MALFORMED_ENVELOPE', path: '/created_at' }),
    );
  });
});

describe("3.0's poll request: encode('tasks/get')", () => {
  test('checked by core/tasks-get-request.json and stamped with the major version it defines', () => {
    const request = encode('tasks/get', { task_id: 'task_cmb_4821' }, { version: '3.0' });
    expect(request).toEqual({
      task: 'tasks/get',
      version: V3_0,
      release: '3.0',
      args: { task_id: 'task_cmb_4821', adcp_major_version: 3 },
    });
    expect(Object.isFrozen(request.args)).toBe(true);
  });
  test('arguments its schema refuses: INVALID_REQUEST at the path, nothing to send', () => {
    // @ts-expect-error task_id is a string
    expect(() => encode('tasks/get', { task_id: 42 }, { version: '3.0' })).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST', issues: [expect.objectContaining({ path: '/task_id' })] }),
    );
  });
  test('3.1 polls with get_task_status: tasks/get is no 3.1 request', () => {
    // @ts-expect-error not a 3.1 task
    expect(() => encode('tasks/get', { task_id: 't' }, { version: '3.1' })).toThrow(expect.objectContaining({ code: 'UNKNOWN_TASK' }));
  });
});
