/**
 * waitForTask over MCP: the handle's task polled through the caller's MCP client (the tool
 * `get_task_status`, or `tasks_get` for 3.0) until it is final (src/call/wait.ts).
 */
import { type WaitForTask, waitOver } from '../call/wait.js';
import { type McpClient, sendOver } from './call-task.js';

/**
 * Waits for a task to end: polls it over MCP (3.1 `get_task_status` with its result, 3.0
 * `tasks_get`) on error-handling.mdx's backoff, its webhooks first when given, and returns its
 * final result typed by the handle's task and version.
 *
 * @param client - A connected MCP client (`@modelcontextprotocol/sdk` `Client`).
 * @param handle - The task's handle (taskHandle(), or its stored fields).
 * @param options - `intervalMs` (2 s), `maxIntervalMs` (60 s), `timeoutMs` (1 h), `pollTimeoutMs`,
 *   `maxFailures` (5), `signal`, `onStatus`, `webhooks`, `method`, `clock`, decode's bounds.
 * @returns The task's final (completed) result.
 * @throws {TaskFailedError} The task failed, was rejected or canceled.
 * @throws {TaskMismatchError} `TASK_MISMATCH`: a poll or a webhook answered for another task.
 * @throws {LimitError} `TIMEOUT` at `timeoutMs`.
 * @throws {DecodeError} What decodeTaskStatus throws for a poll (`SCHEMA_MISMATCH`, ...); `INVALID_OPTION`.
 *   Your abort is rethrown as is; after `maxFailures` transient failures in a row, the last as it was thrown.
 * @example
 * const handle = taskHandle('create_media_buy', answer);
 * const buy = await waitForTask(client, handle, { onStatus: (p) => log(p.status) });
 */
export const waitForTask: WaitForTask<McpClient> = (client, handle, options) => waitOver(sendOver(client), handle, options);
