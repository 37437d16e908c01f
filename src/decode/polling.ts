/**
 * Typed polling: a `get_task_status` answer (3.1; the protocol-namespace alias of `tasks/get`)
 * or a 3.0 `tasks/get` response, with its `result` decoded by `task_type` and `status` exactly
 * as an enclosed result is (enclosed.ts), and a failed task's `error` raised as TaskFailedError.
 * Given the task's handle, a response naming another task is refused (TASK_MISMATCH) before its
 * result is read, the handle's release judges it, and the result is typed by the handle's task.
 */
import { snapshot } from '../bounds/snapshot.js';
import { DecodeError, describeValue } from '../errors/errors.js';
import { type OptionOwner, optionError, unreadableOption } from '../errors/option-rules.js';
import { fromA2aSdk } from '../extract/a2a-sdk.js';
import { detectTransport } from '../extract/detect.js';
import { unwrapJsonRpcResult } from '../extract/json-rpc.js';
import { hasOwn, isObject, own } from '../json/own.js';
import { DECODE_OPTION_KEYS, type Resolved, resolveOptions } from '../options/resolve-options.js';
import type { TaskStatusPoll } from '../schema/release.js';
import { releaseFor } from '../schema/releases.js';
import { isFailedStatus, isTaskStatus, type TaskStatus } from '../schema/statuses.js';
import { type Version, versionOrDefault } from '../schema/versions.js';
import { checked, type DecodeOptions, decodeResolved, type TaskName } from './decode.js';
import { decodeEnclosed, isTaskType, type ResultData, type TaskType } from './enclosed.js';
import { envelopeFault } from './envelope-check.js';
import { type Context, guard } from './failures.js';
import { correlate, readHandle, type TaskHandle, type TaskHandleFields } from './task-handle.js';
import { locatePayload } from './transports.js';

/** A polled task of one task type, judged by version(s) `V`. */
export interface PolledTaskOf<K extends TaskType, V extends Version = Version> {
  readonly taskId: string;
  readonly taskType: K;
  readonly status: TaskStatus;
  /** The result typed by task type; `null` when the response carried none (not final, or `include_result` false). */
  readonly data: ResultData<K, V> | null;
  /** The status response itself (progress, timestamps, history): the plain copy that was validated. */
  readonly response: Readonly<Record<string, unknown>>;
  readonly version: V;
}

/** A polled task: a union discriminated by `taskType`, so narrowing it types `data`. */
export type PolledTask = { [K in TaskType]: PolledTaskOf<K> }[TaskType];

/** Options of {@link decodeTaskStatus}: decode's, and the handle of the task polled. */
export interface TaskStatusOptions extends DecodeOptions {
  /**
   * The handle of the task polled (taskHandle(), or its stored fields): a response naming another
   * `task_type` or `task_id` is refused (TASK_MISMATCH), and the handle's version judges it.
   */
  readonly handle?: TaskHandleFields | undefined;
}

/** The bundled version a handle's `version` names (any, for a version typed `string`). */
type HandleVersion<V> = V extends Version ? V : Version;

/** What decodeTaskStatus returns given a handle of type `H`: the polled task typed by the handle's task and version. */
export type PolledTaskFor<H> = H extends { readonly task: infer K; readonly version: infer V }
  ? { [P in K & TaskType]: PolledTaskOf<P, HandleVersion<V>> }[K & TaskType]
  : PolledTask;

/** The call a poll is before its method is known: what its option errors (and guard's) name as the task. */
export const STATUS_CALL = Object.freeze({ task: 'task status' });

/**
 * Decodes a task-status poll and its result.
 *
 * @param input - What the poll returned: for 3.1 `get_task_status`'s answer, for 3.0 `tasks/get`'s
 *   (the tool `tasks_get`): an MCP result, an A2A task (the @a2a-js/sdk object too), a JSON-RPC
 *   success, or the bare response.
 * @param options - decode's options; `version` picks 3.1 (`get_task_status`) or 3.0 (`tasks/get`);
 *   `handle`, the polled task's handle, fixes the version and types `data` by its task.
 * @returns The task's id, type, status and typed result; narrow on `taskType` to type `data`.
 * @throws {TaskMismatchError} With `handle`: `TASK_MISMATCH` for a response naming another
 *   `task_type` or `task_id` (`path`), before its result is read.
 * @throws {TaskFailedError} For a failed, rejected or canceled task (its `error`, or the result's `adcp_error`).
 * @throws {DecodeError} As decode() throws for the status response and for the result;
 *   `MALFORMED_ENVELOPE` for a 3.0 response its schema rejects, with the path of the first issue;
 *   `INVALID_OPTION` for a `handle` that is none, or a `version` other than the handle's.
 * @example
 * const task = decodeTaskStatus(await client.callTool({ name: 'get_task_status', arguments: { task_id } }), { handle });
 * if (task.status === 'completed') use(task.data); // typed by the handle's task
 */
export function decodeTaskStatus<const H extends TaskHandleFields>(
  input: unknown,
  options: TaskStatusOptions & { readonly handle: H },
): PolledTaskFor<H>;
export function decodeTaskStatus(input: unknown, options?: TaskStatusOptions): PolledTask;
export function decodeTaskStatus(input: unknown, options?: TaskStatusOptions): PolledTask {
  const owner = { who: 'decodeTaskStatus', context: STATUS_CALL };
  let resolved: Resolved;
  let handle: TaskHandle | undefined;
  try {
    resolved = resolveOptions(options, owner, { known: TASK_STATUS_OPTION_KEYS });
    handle = handleOption(options, owner);
  } catch (error) {
    throw guard(error, STATUS_CALL.task, input);
  }
  return pollResolved(input, resolved, handle);
}

/** The options decodeTaskStatus takes, by name: decode's, and the handle. */
export const TASK_STATUS_OPTION_KEYS = [...DECODE_OPTION_KEYS, 'handle'] as const satisfies readonly (keyof TaskStatusOptions)[];

/**
 * Decodes a task-status poll under options already resolved (by the public edge that took them).
 * @internal Shared with waitForTask's polls (call/wait.ts) and the pinned decoders.
 */
export function pollResolved(input: unknown, resolved: Resolved, handle: TaskHandle | undefined): PolledTask {
  let what: string = STATUS_CALL.task;
  try {
    const version = pollVersion(resolved, handle);
    const poll = releaseFor(version).envelope.taskStatusPoll;
    what = poll.method;
    const response =
      'task' in poll ? pollAnswer(poll.task as TaskName, input, { ...resolved, version }) : tasksGet(input, poll, resolved, version);
    return polled(response, what, { options: resolved, version, handle });
  } catch (error) {
    throw guard(error, what, input);
  }
}

/** The `get_task_status` answer, decoded as decode() decodes a task's answer. */
function pollAnswer(task: TaskName, input: unknown, resolved: Resolved): Record<string, unknown> {
  const outcome = decodeResolved(task, input, resolved);
  if (outcome instanceof DecodeError) throw outcome;
  return outcome.data as Record<string, unknown>;
}

/**
 * Option `handle`, read once.
 * @param options - The call's options.
 * @param owner - The edge that took them, and its call, for the errors.
 * @internal Shared with the pinned decoders, whose options are resolved before the call.
 */
export function handleOption(options: TaskStatusOptions | undefined, owner: OptionOwner): TaskHandle | undefined {
  let value: unknown;
  try {
    value = options?.handle;
  } catch (cause) {
    throw unreadableOption(owner.who, 'handle', cause, owner.context);
  }
  return value === undefined ? undefined : readHandle(value, 'handle', owner);
}

/** The version a poll is judged by: the handle's (a `version` option must agree), else the option's, else the default. */
function pollVersion(resolved: Resolved, handle: TaskHandle | undefined): Version {
  if (handle === undefined) return versionOrDefault(resolved.version);
  const version = handle.version as Version;
  if (resolved.version !== 'auto' && resolved.version !== version)
    throw optionError(
      'decodeTaskStatus',
      'version',
      `left out or the handle's ${version} (the handle fixes it)`,
      resolved.version,
      STATUS_CALL,
    );
  return version;
}

/**
 * A `tasks/get` response, found where 3.1's `get_task_status` answer is (an MCP CallToolResult of
 * the tool `tasks_get`, an A2A task or the @a2a-js/sdk object, located as decode() locates an
 * answer), else bare or in a JSON-RPC success; copied, bounded and judged by its envelope module.
 */
function tasksGet(
  input: unknown,
  poll: Extract<TaskStatusPoll, { module: string }>,
  bounds: Resolved,
  version: Version,
): Record<string, unknown> {
  const context = { task: poll.method, version };
  const ctx: Context = { task: poll.method, options: bounds, version };
  const transport = bounds.transport === 'auto' ? detectTransport(fromA2aSdk(unwrapJsonRpcResult(input), context)) : bounds.transport;
  let response: unknown;
  if (transport === 'mcp' || transport === 'a2a') {
    // The carrier's own failure (isError, a JSON-RPC error, a failed A2A task) is the poll's, as for get_task_status.
    response = checked(ctx, locatePayload({ ...ctx, options: { ...bounds, transport } }, input)).payload;
  } else {
    // One read of the caller's value: everything after reads the plain copy.
    const copy = snapshot(input, bounds, { what: `${poll.method} response`, ...context });
    response = isObject(copy) && own(copy, 'jsonrpc') === '2.0' && hasOwn(copy, 'result') ? copy.result : copy;
  }
  if (!isObject(response)) {
    throw new DecodeError('MALFORMED_ENVELOPE', `expected a ${poll.method} response object; got ${describeValue(response)}`, context);
  }
  const fault = envelopeFault(version, poll.module, response);
  if (fault !== undefined) {
    throw new DecodeError('MALFORMED_ENVELOPE', `expected a ${poll.method} response of AdCP ${version}; ${fault.reason}`, {
      ...context,
      path: fault.path,
    });
  }
  return response;
}

/** How a poll is read: the options, the version that judges it, the handle of the task polled. */
interface PollCall {
  readonly options: Resolved;
  readonly version: Version;
  readonly handle: TaskHandle | undefined;
}

/** A validated status response (our own copy), correlated to the handle, and its result decoded by task type and status. */
function polled(response: Record<string, unknown>, what: string, call: PollCall): PolledTask {
  const { options, version, handle } = call;
  const { task_id: taskId, task_type: taskType, status } = response;
  // decode() judges a response without `status` with a stand-in (as it does every task's answer);
  // a poll's `status` is the polled task's own, so its absence is the seller's fault.
  if (status === undefined)
    throw new DecodeError('MALFORMED_ENVELOPE', `expected a ${what} response with the task's status; got none`, {
      task: what,
      version,
      path: '/status',
    });
  // The schema that judged the response requires these; a failing check is a defect of ours.
  if (typeof taskId !== 'string' || !isTaskType(taskType, version) || !isTaskStatus(status)) {
    throw new DecodeError('INTERNAL', `adcp-decode accepted a ${what} response its schema rejects: a defect in adcp-decode`, {
      task: what,
      version,
    });
  }
  if (handle !== undefined) correlate(handle, { taskType, taskId }, `${what} response`);
  const result = own(response, 'result');
  // 3.0's tasks/get schema leaves `result` open; the protocol makes it the task's response, an
  // object. Not a schema's verdict (no issues to list), so the envelope's fault, as tasks/get's others.
  if (result !== undefined && !isObject(result))
    throw new DecodeError(
      'MALFORMED_ENVELOPE',
      `expected the ${what} result to be the task's response object; got ${describeValue(result)}`,
      {
        task: what,
        version,
        path: '/result',
      },
    );
  // A failed task's status response describes the failure in `error` (the spec: "for failed tasks,
  // use the error field"); it is classified as decode() classifies an adcp_error.
  const error = own(response, 'error');
  const enclosed = result === undefined && isFailedStatus(status) && error !== undefined ? { adcp_error: error } : result;
  let data: unknown = null;
  if (enclosed !== undefined || isFailedStatus(status)) {
    data = decodeEnclosed(taskType, enclosed, { status, what: `${what} result` }, { ...options, version }).data;
  }
  return { taskId, taskType, status, data, response, version } as PolledTask;
}
