/**
 * decodeTaskStatus: 3.1 get_task_status and 3.0 tasks/get, with result decoded by task_type and
 * status as a webhook's is, and failures raised as TaskFailedError with the manifest's recovery.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isTaskType } from '../../src/decode/enclosed.js';
import { DecodeError, decodeTaskStatus, SchemaMismatchError, TaskFailedError } from '../../src/index.js';
import { fixtures } from '../fixtures/payloads.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { caughtAs } from '../helpers.js';

const status = {
  task_id: 'task_cmb_4821',
  task_type: 'create_media_buy',
  protocol: 'media-buy',
  created_at: '2026-04-18T09:55:00Z',
  updated_at: '2026-04-18T09:59:58Z',
};
const result = {
  media_buy_id: 'mb_4821',
  media_buy_status: 'active',
  confirmed_at: '2026-04-18T09:59:50Z',
  revision: 1,
  packages: [{ package_id: 'pkg_ctv_sports', status: 'active' }],
};
const mcp = (payload: unknown) => ({ content: [{ type: 'text', text: JSON.stringify(payload) }], structuredContent: payload });

describe('3.1 get_task_status', () => {
  test('completed with include_result: typed create_media_buy data', () => {
    const task = decodeTaskStatus(mcp({ ...status, status: 'completed', completed_at: '2026-04-18T09:59:58Z', result }));
    expect(task).toMatchObject({ taskId: 'task_cmb_4821', taskType: 'create_media_buy', status: 'completed', version: V3_1 });
    if (task.taskType !== 'create_media_buy' || task.data === null || !('media_buy_id' in task.data))
      throw new Error('expected typed data');
    expect(task.data.media_buy_id).toBe('mb_4821');
  });
  test('working without a result: data null, progress in the response', () => {
    const task = decodeTaskStatus(mcp({ ...status, status: 'working', progress: { percentage: 30 } }));
    expect(task.data).toBeNull();
    expect(task.response.progress).toEqual({ percentage: 30 });
  });
  test('failed with error: TaskFailedError classified by the manifest', () => {
    const error = caughtAs(Error, () =>
      decodeTaskStatus(mcp({ ...status, status: 'failed', error: { code: 'BUDGET_TOO_LOW', message: 'below floor' } })),
    );
    expect(error).toBeInstanceOf(TaskFailedError);
    expect((error as TaskFailedError).adcpError?.code).toBe('BUDGET_TOO_LOW');
    expect((error as TaskFailedError).recovery.recovery).toBe('correctable');
  });
  test('a result that does not match create_media_buy: SCHEMA_MISMATCH', () => {
    // The status response's own schema accepts any async-response-data member; the task's schema does not.
    const error = caughtAs(Error, () => decodeTaskStatus(mcp({ ...status, status: 'completed', result: { ...result, revision: 'one' } })));
    expect(error).toBeInstanceOf(SchemaMismatchError);
  });
  test('the status response itself is checked first', () => {
    expect(caughtAs(Error, () => decodeTaskStatus(mcp({ ...status, status: 'completed', created_at: 42 })))).toBeInstanceOf(
      SchemaMismatchError,
    );
  });
});

describe('3.0 tasks/get', () => {
  test('a JSON-RPC success around the response, failed with error', () => {
    const error = caughtAs(Error, () =>
      decodeTaskStatus(
        { jsonrpc: '2.0', id: 1, result: { ...status, status: 'failed', error: { code: 'RATE_LIMITED', message: 'slow down' } } },
        { version: '3.0' },
      ),
    );
    expect(error).toBeInstanceOf(TaskFailedError);
    expect((error as TaskFailedError).recovery.recovery).toBe('transient');
  });
  test('submitted: no data', () => {
    expect(decodeTaskStatus({ ...status, status: 'submitted' }, { version: V3_0 })).toMatchObject({
      status: 'submitted',
      data: null,
      version: V3_0,
    });
  });
  test('a result that is not an object: MALFORMED_ENVELOPE at /result, not a SCHEMA_MISMATCH without issues', () => {
    for (const value of ['done', 5, [result], null]) {
      const error = caughtAs(DecodeError, () => decodeTaskStatus({ ...status, status: 'completed', result: value }, { version: V3_0 }));
      expect(error).not.toBeInstanceOf(SchemaMismatchError);
      expect(error).toMatchObject({ code: 'MALFORMED_ENVELOPE', path: '/result', task: 'tasks/get', version: V3_0 });
      expect(error.message).toMatch(/^expected the tasks\/get result to be the task's response object; got /);
    }
  });
  test('missing required fields: MALFORMED_ENVELOPE with the path', () => {
    expect(
      caughtAs(Error, () => decodeTaskStatus({ ...status, created_at: undefined, status: 'working' }, { version: '3.0' })),
    ).toMatchObject({
      code: 'MALFORMED_ENVELOPE',
      path: '/created_at',
    });
  });
});

describe("a poll without the task's status is the seller's fault (fuzz finding, webhook lane)", () => {
  // decode() judges an answer without `status` with a stand-in; a poll's status is the task's own.
  const enclosable = fixtures.filter(
    (f) => f.valid && f.version === V3_1 && isTaskType(f.task === 'get_media_buy_delivery' ? 'media_buy_delivery' : f.task, f.version),
  );
  test('every 3.1 status response without status, bare or in an MCP result: MALFORMED_ENVELOPE at /status, never INTERNAL', () => {
    fc.assert(
      fc.property(fc.constantFrom(...enclosable), fc.boolean(), fc.boolean(), (f, bare, withResult) => {
        const taskType = f.task === 'get_media_buy_delivery' ? 'media_buy_delivery' : f.task;
        const response = { ...status, task_type: taskType, ...(withResult ? { result: f.payload } : {}) };
        const error = caughtAs(Error, () =>
          bare ? decodeTaskStatus(response, { transport: 'payload' }) : decodeTaskStatus(mcp(response)),
        );
        expect(error).toBeInstanceOf(DecodeError);
        expect(error).toMatchObject({ code: 'MALFORMED_ENVELOPE', path: '/status' });
      }),
      { numRuns: 100 },
    );
    expect(enclosable.length).toBeGreaterThan(5);
  });
});
