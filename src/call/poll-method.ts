/**
 * 3.0's task-status poll, `tasks/get`, through the call layer: the one place its JSON-RPC method
 * name meets a transport's name for it (the official SDK's 3.0 sellers serve it as the MCP tool
 * and A2A skill `tasks_get`), and where its answer is decoded as a poll, not as a task's response.
 */
import type { Outcome } from '../decode/decode.js';
import { type PolledTask, pollResolved } from '../decode/polling.js';
import type { TaskName } from '../decode/types.js';
import { DecodeError } from '../errors/errors.js';
import type { taskStatusPollByVersion } from '../generated/envelope.js';
import type { Resolved } from '../options/resolve-options.js';
import { knownReleases } from '../schema/releases.js';

/** The poll methods that are no task of their version (3.0's `tasks/get`), from the generated poll table. */
export type PollMethod = Extract<(typeof taskStatusPollByVersion)[keyof typeof taskStatusPollByVersion], { module: string }>['method'];

/** The poll methods of the releases this process speaks that are no task of theirs (read each time: a generated module may have defined more). */
function pollMethods(): readonly string[] {
  return knownReleases().flatMap(({ envelope: { taskStatusPoll: poll } }) => ('module' in poll ? [poll.method] : []));
}

/**
 * The tool (MCP) or skill (A2A) name a task is invoked by: its own, but for a JSON-RPC method
 * (`tasks/get`), whose `/` no tool name has: the official SDK names it `tasks_get`.
 *
 * @param task - The task or poll method encode() checked.
 * @returns The name to invoke.
 * @example
 * wireName('tasks/get'); // 'tasks_get'
 */
export function wireName(task: string): string {
  return pollMethods().includes(task) ? task.replaceAll('/', '_') : task;
}

/**
 * Whether a call's task is a poll method that is no task (3.0's `tasks/get`).
 *
 * @param task - The task the caller named.
 * @returns True for a poll method.
 * @example
 * isPollMethod('tasks/get'); // true
 */
export function isPollMethod(task: string): boolean {
  return pollMethods().includes(task);
}

/**
 * Decodes the answer to a poll method as decodeTaskStatus decodes a poll: the polled task, its
 * result typed by its task type (callTask's data for `tasks/get`).
 *
 * @param answer - The client's answer (or the JSON-RPC error it threw).
 * @param options - decode's options, resolved; their request is left out (a poll is no answer to a task's request).
 * @returns The polled task and the version that judged it, or the DecodeError that ends it.
 * @throws Never.
 * @example
 * const outcome = decodePoll(answer, resolved);
 */
export function decodePoll(answer: unknown, options: Resolved): Outcome<TaskName> | DecodeError {
  // A bound the call tripped (LimitError) is the call's end, as decode() returns it.
  if (answer instanceof DecodeError) return answer;
  try {
    const polled: PolledTask = pollResolved(answer, { ...options, request: undefined }, undefined);
    // callTask's data for a poll method is the polled task (types.ts, Called).
    return { data: polled as never, version: polled.version };
  } catch (error) {
    return error instanceof DecodeError
      ? error
      : new DecodeError('INTERNAL', 'decodeTaskStatus threw what is no DecodeError: a defect in adcp-decode', { cause: error });
  }
}
