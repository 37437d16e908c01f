/**
 * Type tests for task handles: taskHandle types the handle by its task; decodeTaskStatus and
 * decodeWebhook given a handle type `data` by the handle's task (and a pinned import by its
 * version) without a cast; a stored handle's plain fields are accepted where a handle is.
 */
import { expectTypeOf } from 'vitest';
import type { HandleRelease } from '../../src/decode/task-handle.js';
import type { ResponsesByVersion } from '../../src/generated/index.js';
import * as v31 from '../../src/generated/v3_1/pinned.js';
import {
  decode,
  decodeTaskStatus,
  type PolledTask,
  type TaskHandle,
  type TaskHandleFields,
  taskHandle,
  type Version,
} from '../../src/index.js';
import { decodeWebhook } from '../../src/webhooks/index.js';
import type { V3_0, V3_1 } from '../fixtures/versions.js';

declare const result: unknown;
declare const polled: unknown;

// --- taskHandle: typed by its task ----------------------------------------------------------

const handle = taskHandle('create_media_buy', decode('create_media_buy', result));
expectTypeOf(handle).toEqualTypeOf<TaskHandle<'create_media_buy', Version> | undefined>();
if (handle !== undefined) {
  expectTypeOf(handle.task).toEqualTypeOf<'create_media_buy'>();
  expectTypeOf(handle.taskId).toEqualTypeOf<string>();
  expectTypeOf(handle.release).toEqualTypeOf<'3.1' | '3.0'>();
  // A pre-release's pin is kept whole, as a generated module's handle names it.
  expectTypeOf<HandleRelease<'3.2.0-beta.6'>>().toEqualTypeOf<'3.2-beta.6'>();
  // @ts-expect-error a handle is read-only
  handle.taskId = 'other';

  // --- decodeTaskStatus narrows data to the handle's task ----------------------------------
  const task = decodeTaskStatus(polled, { handle });
  expectTypeOf(task.taskType).toEqualTypeOf<'create_media_buy'>();
  expectTypeOf(task.data).toEqualTypeOf<
    ResponsesByVersion[V3_1]['create_media_buy'] | ResponsesByVersion[V3_0]['create_media_buy'] | null
  >();

  // --- decodeWebhook likewise ----------------------------------------------------------------
  const hook = decodeWebhook('{}', { handle });
  expectTypeOf(hook.taskType).toEqualTypeOf<'create_media_buy'>();
}

// The answer must be the task's: another task's answer does not compile.
// @ts-expect-error a get_products answer is not a create_media_buy answer
taskHandle('create_media_buy', decode('get_products', result));

// A handle of one version types by that version alone.
declare const handle31: TaskHandle<'update_media_buy', V3_1>;
expectTypeOf(decodeTaskStatus(polled, { handle: handle31 }).data).toEqualTypeOf<ResponsesByVersion[V3_1]['update_media_buy'] | null>();

// A stored handle read as loose fields: accepted, and the result is the union of every task.
declare const stored: TaskHandleFields;
expectTypeOf(decodeTaskStatus(polled, { handle: stored })).toEqualTypeOf<PolledTask>();

// Without a handle: the union, as before.
expectTypeOf(decodeTaskStatus(polled)).toEqualTypeOf<PolledTask>();

// --- a pinned import: typed by its version ------------------------------------------------

const pinnedHandle = v31.taskHandle('create_media_buy', v31.decode('create_media_buy', result));
expectTypeOf(pinnedHandle).toEqualTypeOf<TaskHandle<'create_media_buy', V3_1> | undefined>();
if (pinnedHandle !== undefined) {
  const task = v31.decodeTaskStatus(polled, { handle: pinnedHandle });
  expectTypeOf(task.taskType).toEqualTypeOf<'create_media_buy'>();
  expectTypeOf(task.data).toEqualTypeOf<v31.Responses['create_media_buy'] | null>();
}
declare const handle30: TaskHandle<'create_media_buy', V3_0>;
// A 3.0 handle is not a 3.1 pinned import's: it falls back to the untyped overload's union.
expectTypeOf(v31.decodeTaskStatus(polled, { handle: handle30 })).toEqualTypeOf<v31.PolledTask>();
