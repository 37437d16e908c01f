/**
 * Task handles (issue 21, item 5): a submitted or working answer yields a handle; a poll given the
 * handle is judged by its version and refused when it names another task_type or task_id
 * (TASK_MISMATCH, before its result is read); a stored handle (its JSON) is a handle again.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { TASK_TYPES } from '../../src/decode/enclosed.js';
import { TaskHandle as HandleClass } from '../../src/decode/task-handle.js';
import * as v30 from '../../src/generated/v3_0/pinned.js';
import * as v31 from '../../src/generated/v3_1/pinned.js';
import {
  DecodeError,
  decode,
  decodeTaskStatus,
  safeDecode,
  type TaskHandle,
  type TaskHandleFields,
  TaskMismatchError,
  taskHandle,
} from '../../src/index.js';
import { mcp } from '../fixtures/envelopes.js';
import { fixtures } from '../fixtures/payloads.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { caughtAs } from '../helpers.js';

const submitted31 = fixtures.find((f) => f.id === '3.1/create_media_buy.submitted')!;
const submitted30 = fixtures.find((f) => f.id === '3.0/create_media_buy.submitted')!;

/** The handle of our own 3.1 submitted create_media_buy answer. */
function handle31(): TaskHandle<'create_media_buy'> {
  const handle = taskHandle('create_media_buy', decode('create_media_buy', mcp.structured(submitted31.payload)));
  if (handle === undefined) throw new Error('expected a handle');
  return handle;
}

const completedResult = {
  media_buy_id: 'mb_88d1e0',
  media_buy_status: 'active',
  confirmed_at: '2026-04-18T09:59:50Z',
  revision: 1,
  packages: [{ package_id: 'pkg_ctv_sports', status: 'active' }],
};

/** A 3.1 get_task_status answer for a task; a member given `undefined` is left out. */
function poll(extra: Record<string, unknown> = {}) {
  return mcp.structured(
    JSON.parse(
      JSON.stringify({
        task_id: 'task_cmb_88d1e0',
        task_type: 'create_media_buy',
        protocol: 'media-buy',
        status: 'completed',
        created_at: '2026-04-18T09:55:00Z',
        updated_at: '2026-04-18T09:59:58Z',
        completed_at: '2026-04-18T09:59:58Z',
        result: completedResult,
        ...extra,
      }),
    ) as Record<string, unknown>,
  );
}

describe('taskHandle', () => {
  test('a submitted answer: the task, its task_id, the version and release that judged it', () => {
    expect(handle31()).toMatchObject({
      task: 'create_media_buy',
      taskId: 'task_cmb_88d1e0',
      version: V3_1,
      release: '3.1',
      operationId: undefined,
    });
    const r = safeDecode('create_media_buy', mcp.structured(submitted30.payload), { version: '3.0' });
    if (!r.success) throw r.error;
    expect(taskHandle('create_media_buy', r.data)).toMatchObject({ taskId: 'task_metro_77f0', version: V3_0, release: '3.0' });
  });

  test("a pre-release's handle names its wire pin, kept whole", () => {
    // A generated module's version: the handle's release is read from the version alone.
    expect(new HandleClass('buy_products', 'task_bp_1', '3.2.0-beta.6', undefined).release).toBe('3.2-beta.6');
  });
  test('every submitted or working fixture with a task_id yields its handle; the others none', () => {
    const ongoing = fixtures.filter((f) => f.valid && (f.variant === 'submitted' || f.variant === 'working'));
    expect(ongoing.length).toBeGreaterThan(5);
    for (const f of ongoing) {
      const answer = decode(f.task, mcp.structured(f.payload), { version: f.version });
      const taskId = f.payload.task_id;
      expect(taskHandle(f.task, answer), f.id).toEqual(
        typeof taskId === 'string' ? expect.objectContaining({ task: f.task, taskId, version: f.version }) : undefined,
      );
    }
  });
  test('a final answer has none', () => {
    const f = fixtures.find((x) => x.id === '3.1/create_media_buy.valid')!;
    expect(taskHandle('create_media_buy', decode('create_media_buy', mcp.structured(f.payload)))).toBeUndefined();
  });
  test("the request's push_notification_config.operation_id is the handle's", () => {
    const request = {
      task: 'create_media_buy',
      args: { push_notification_config: { url: 'https://buyer.example.com/hooks', operation_id: 'op_9f2c' } },
    };
    const answer = decode('create_media_buy', mcp.structured(submitted31.payload), { request });
    expect(taskHandle('create_media_buy', answer)?.operationId).toBe('op_9f2c');
  });
  test('a copy, or an answer of another task, is the caller’s INVALID_INPUT', () => {
    const answer = decode('create_media_buy', mcp.structured(submitted31.payload));
    expect(caughtAs(DecodeError, () => taskHandle('create_media_buy', { ...answer }))).toMatchObject({ code: 'INVALID_INPUT' });
    expect(caughtAs(DecodeError, () => taskHandle('update_media_buy', answer as never))).toMatchObject({ code: 'INVALID_INPUT' });
  });
  test('the handle is frozen, and its JSON is a handle again', () => {
    const handle = handle31();
    expect(Object.isFrozen(handle)).toBe(true);
    const stored = JSON.parse(JSON.stringify(handle)) as TaskHandleFields;
    expect(decodeTaskStatus(poll(), { handle: stored })).toMatchObject({ taskId: 'task_cmb_88d1e0', version: V3_1 });
  });
  test('a pinned import mints handles of its own version only', () => {
    const answer = v31.decode('create_media_buy', mcp.structured(submitted31.payload));
    expect(v31.taskHandle('create_media_buy', answer)?.version).toBe(V3_1);
    expect(caughtAs(DecodeError, () => v30.taskHandle('create_media_buy', answer as never))).toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('decodeTaskStatus with a handle', () => {
  test("the handle's task polled: typed by its task", () => {
    const task = decodeTaskStatus(poll(), { handle: handle31() });
    expect(task.taskType).toBe('create_media_buy');
    if (task.data === null || !('media_buy_id' in task.data)) throw new Error('expected the result');
    expect(task.data.media_buy_id).toBe('mb_88d1e0');
  });
  test("a 3.0 handle polls by tasks/get without a version option: the handle's version judges it", () => {
    const handle = taskHandle('create_media_buy', decode('create_media_buy', mcp.structured(submitted30.payload), { version: '3.0' }));
    const response = {
      task_id: 'task_metro_77f0',
      task_type: 'create_media_buy',
      protocol: 'media-buy',
      status: 'working',
      created_at: '2026-04-18T09:55:00Z',
      updated_at: '2026-04-18T09:59:58Z',
    };
    expect(decodeTaskStatus(response, { handle: handle! })).toMatchObject({ version: V3_0, data: null });
    expect(caughtAs(DecodeError, () => decodeTaskStatus(response, { handle: handle!, version: '3.1' }))).toMatchObject({
      code: 'INVALID_OPTION',
    });
  });
  test('another task_id, whatever it is: TASK_MISMATCH at /task_id, both values shown escaped, before the result is read', () => {
    const handle = handle31();
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 300 }).filter((id) => id !== handle.taskId),
        fc.boolean(),
        (taskId, badResult) => {
          const result = badResult ? { ...completedResult, revision: 'one' } : completedResult;
          const error = caughtAs(TaskMismatchError, () => decodeTaskStatus(poll({ task_id: taskId, result }), { handle }));
          expect(error).toMatchObject({ code: 'TASK_MISMATCH', path: '/task_id', expected: 'task_cmb_88d1e0', task: 'create_media_buy' });
          expect(error.received.length).toBeLessThanOrEqual(128);
          expect(error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
          if (taskId.length <= 100 && /^[\x20-\x7e]*$/.test(taskId)) expect(error.received).toBe(taskId);
        },
      ),
      { numRuns: 200 },
    );
  });
  test('another task_type of the release: TASK_MISMATCH at /task_type, checked before task_id', () => {
    const handle = handle31();
    const others = TASK_TYPES[V3_1].filter((t) => t !== 'create_media_buy');
    fc.assert(
      fc.property(fc.constantFrom(...others), fc.boolean(), (taskType, otherId) => {
        const error = caughtAs(TaskMismatchError, () =>
          decodeTaskStatus(poll({ task_type: taskType, status: 'working', result: undefined, ...(otherId ? { task_id: 'x' } : {}) }), {
            handle,
          }),
        );
        expect(error).toMatchObject({ path: '/task_type', expected: 'create_media_buy', received: taskType });
      }),
    );
  });
  test('a stored handle that is none: INVALID_OPTION (or UNSUPPORTED_VERSION for a release not bundled)', () => {
    const good = { task: 'create_media_buy', taskId: 'task_cmb_88d1e0', version: V3_1 };
    const bad: ReadonlyArray<readonly [unknown, string]> = [
      [null, 'INVALID_OPTION'],
      [{ ...good, task: 'no_such_task' }, 'INVALID_OPTION'],
      [{ ...good, taskId: '' }, 'INVALID_OPTION'],
      [{ ...good, taskId: 7 }, 'INVALID_OPTION'],
      [{ ...good, operationId: 7 }, 'INVALID_OPTION'],
      [{ ...good, version: 3.1 }, 'INVALID_OPTION'],
      [{ ...good, version: '2.5.0' }, 'UNSUPPORTED_VERSION'],
      [
        Object.defineProperty({ ...good }, 'taskId', {
          get() {
            throw new Error('boom');
          },
        }),
        'INVALID_OPTION',
      ],
    ];
    for (const [handle, code] of bad)
      expect(caughtAs(DecodeError, () => decodeTaskStatus(poll(), { handle: handle as TaskHandleFields }))).toMatchObject({ code });
    // A later patch of a bundled release is that release: a handle outlives an upgrade.
    expect(decodeTaskStatus(poll(), { handle: { ...good, version: '3.1.7' } }).version).toBe(V3_1);
  });
  test('a pinned decodeTaskStatus takes the handle too', () => {
    const handle = v31.taskHandle('create_media_buy', v31.decode('create_media_buy', mcp.structured(submitted31.payload)))!;
    expect(v31.decodeTaskStatus(poll(), { handle }).taskId).toBe('task_cmb_88d1e0');
    expect(caughtAs(TaskMismatchError, () => v31.decodeTaskStatus(poll({ task_id: 'task_other' }), { handle }))).toMatchObject({
      path: '/task_id',
    });
  });
});
