/**
 * waitForTask over A2A: the handle's task polled through the caller's @a2a-js/sdk client with a
 * new `get_task_status` invocation each time (a2a-response-format.mdx; `tasks_get` for 3.0), not
 * by polling the completed A2A task, until it is final (src/call/wait.ts).
 */
import { type WaitForTask, waitOver } from '../call/wait.js';
import { type A2aClient, sendOver } from './call-task.js';

/**
 * Waits for a task to end: polls it over A2A (the `get_task_status` skill, 3.0 `tasks_get`) on
 * error-handling.mdx's backoff, its webhooks first when given, and returns its final result
 * typed by the handle's task and version.
 *
 * @param client - An @a2a-js/sdk 1.x `Client`.
 * @param handle - The task's handle (taskHandle(), or its stored fields).
 * @param options - As for the MCP waitForTask.
 * @returns The task's final (completed) result.
 * @throws {TaskFailedError} The task failed, was rejected or canceled.
 * @throws {TaskMismatchError} `TASK_MISMATCH`: a poll or a webhook answered for another task.
 * @throws {LimitError} `TIMEOUT` at `timeoutMs`.
 * @throws {DecodeError} What decodeTaskStatus throws for a poll; `INVALID_OPTION`. Your abort is
 *   rethrown as is; after `maxFailures` transient failures in a row, the last as it was thrown.
 * @example
 * const buy = await waitForTask(agent, handle, { timeoutMs: 600_000 });
 */
export const waitForTask: WaitForTask<A2aClient> = (client, handle, options) => waitOver(sendOver(client), handle, options);
