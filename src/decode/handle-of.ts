/**
 * taskHandle(): the root's typed way to a task handle from what decode() returned (the pinned
 * imports bind their own, typed by their version); the handles themselves live in task-handle.ts.
 */
import type { Version } from '../schema/versions.js';
import { mintHandle, type TaskHandle, type TaskHandleOptions } from './task-handle.js';
import type { Decoded, TaskName } from './types.js';

/**
 * The handle of a `submitted` or `working` answer: the task, the seller's `task_id`, the version
 * that judged it, (when decode() was given the request) the `operation_id` it registered, and
 * (option `agent`) the seller agent the call went to, which a webhook receiver's `handles` requires:
 * the answer does not say which seller sent it, the caller does.
 * Keep it (it is plain data: store `JSON.stringify(handle)`, pass the parsed fields back) to
 * correlate the task's polls (`decodeTaskStatus(poll, { handle })`) and webhooks (the receiver's
 * `handles`).
 *
 * @param task - The task the answer was decoded for.
 * @param answer - What decode() returned (or safeDecode's `data`, or callTask's answer), not a copy.
 * @param options - `agent`: the seller agent's URL the call went to, as the receiver names the signer.
 * @returns The handle; `undefined` for a final or `input-required` answer, or one without a `task_id`.
 * @throws {DecodeError} `INVALID_INPUT` for an answer decoded for another task, or a
 *   `submitted`/`working` object decode() did not return; `INVALID_OPTION` for an `agent` that is
 *   not a non-empty string.
 * @example
 * const answer = decode('create_media_buy', result, { request });
 * const handle = taskHandle('create_media_buy', answer, { agent: 'https://seller.example/mcp' });
 * if (handle) await db.put(handle.taskId, JSON.stringify(handle));
 */
export function taskHandle<T extends TaskName>(
  task: T,
  answer: Decoded<T>,
  options?: TaskHandleOptions,
): TaskHandle<T, Version> | undefined {
  // mintHandle checked that the handle's task is `task`.
  return mintHandle(task, answer, options) as TaskHandle<T, Version> | undefined;
}
