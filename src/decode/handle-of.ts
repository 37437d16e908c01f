/**
 * taskHandle(): the root's typed way to a task handle from what decode() returned (the pinned
 * imports bind their own, typed by their version); the handles themselves live in task-handle.ts.
 */
import type { Version } from '../schema/versions.js';
import { mintHandle, type TaskHandle, type TaskHandleOptions } from './task-handle.js';
import type { Decoded, TaskName } from './types.js';

/**
 * The handle of a `submitted` or `working` answer, plain data to store and pass back to correlate the task's polls and webhooks.
 * What it holds, and why the seller agent is the caller's to give:
 * docs/calling.md, "Task handles: correlating polls and webhooks to the task".
 *
 * @param task - The task the answer was decoded for.
 * @param answer - What decode() returned (or safeDecode's `data`, or callTask's answer), not a copy.
 * @param options - `agent`: the seller agent's URL the call went to, as the receiver names the signer (its `handles` requires it).
 * @returns The handle (the task, the `task_id`, the version that judged the answer, the `operation_id` the request
 *   registered when decode() was given it, the agent); `undefined` for a final or `input-required` answer, or one without a `task_id`.
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
