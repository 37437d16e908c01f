/**
 * taskHandle(): the root's typed way to a task handle from what decode() returned (the pinned
 * imports bind their own, typed by their version); the handles themselves live in task-handle.ts.
 */
import type { Version } from '../schema/versions.js';
import { mintHandle, type TaskHandle } from './task-handle.js';
import type { Decoded, TaskName } from './types.js';

/**
 * The handle of a `submitted` or `working` answer: the task, the seller's `task_id`, the version
 * that judged it, and (when decode() was given the request) the `operation_id` it registered.
 * Keep it (it is plain data: store `JSON.stringify(handle)`, pass the parsed fields back) to
 * correlate the task's polls (`decodeTaskStatus(poll, { handle })`) and webhooks (the receiver's
 * `handles`).
 *
 * @param task - The task the answer was decoded for.
 * @param answer - What decode() returned (or safeDecode's `data`), not a copy.
 * @returns The handle; `undefined` for a final or `input-required` answer, or one without a `task_id`.
 * @throws {DecodeError} `INVALID_INPUT` for an answer decoded for another task, or a
 *   `submitted`/`working` object decode() did not return.
 * @example
 * const answer = decode('create_media_buy', result, { request });
 * const handle = taskHandle('create_media_buy', answer);
 * if (handle) await db.put(handle.taskId, JSON.stringify(handle));
 */
export function taskHandle<T extends TaskName>(task: T, answer: Decoded<T>): TaskHandle<T, Version> | undefined {
  // mintHandle checked that the handle's task is `task`.
  return mintHandle(task, answer) as TaskHandle<T, Version> | undefined;
}
