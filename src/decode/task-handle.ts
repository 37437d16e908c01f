/**
 * Task handles: what ties a task's later answers (a poll, a webhook) to the call that started it.
 * decode() records every `submitted` or `working` answer it returns; one carrying a `task_id`
 * yields a handle (the task, the `task_id`, the release that judged it, and the `operation_id` the
 * request registered for webhooks). Given a handle, a later answer naming another `task_type`,
 * `task_id` or `operation_id` is refused (TASK_MISMATCH): it cannot be this task's answer.
 * This module names no version's response map, so a pinned import's declarations stay its own.
 */
import { DecodeError, describeValue, TaskMismatchError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { knownOptions, type OptionOwner, optionError, unreadableOption } from '../errors/option-rules.js';
import { hasOwn, isObject, own } from '../json/own.js';
import { pinOf } from '../schema/release.js';
import { ONGOING_STATUSES } from '../schema/statuses.js';
import { isVersion, resolveVersion, tablesFor, type Version } from '../schema/versions.js';
import { decodedRecord } from './decoded.js';

/**
 * The wire pin of `V`: `'3.1'` for `'3.1.19'`, `'3.2-beta.6'` for `'3.2.0-beta.6'` (a pre-release kept whole);
 * `string` for a version not known at compile time (covariant in `V`, so a handle of one version is a handle of any).
 */
export type HandleRelease<V extends string> = V extends `${infer Major}.${infer Minor}.${infer Patch}`
  ? Patch extends `${string}-${infer Pre}`
    ? `${Major}.${Minor}-${Pre}`
    : `${Major}.${Minor}`
  : string;

/**
 * A task handle as stored: what {@link TaskHandle} holds, as plain data. A handle written to a
 * database (`JSON.stringify(handle)`) and read back is one; `version` may be any patch of a
 * bundled release (`'3.1.7'` is read as the bundled 3.1).
 */
export interface TaskHandleFields<T extends string = string, V extends string = string> {
  /** The task the handle's call invoked, e.g. `'create_media_buy'`: the `task_type` its answers name. */
  readonly task: T;
  /** The seller's `task_id` for it. */
  readonly taskId: string;
  /** The bundled AdCP version that judged the answer, e.g. `'3.1.19'`: its later answers are judged by it too. */
  readonly version: V;
  /** The `push_notification_config.operation_id` the request registered, when decode() was given it (option `request`). */
  readonly operationId?: string | undefined;
  /**
   * The seller agent the task was sent to: its agent URL, the identity a webhook receiver's key
   * resolution establishes (`jwks.agent`, your `keys` answer's `agent`, `hmac.agent`). Required by
   * the receiver's `handles`: a delivery signed by another agent is not this task's.
   */
  readonly agent?: string | undefined;
}

/** Options of taskHandle(): what the answer alone does not say. */
export interface TaskHandleOptions {
  /** The seller agent's URL the call went to (see {@link TaskHandleFields.agent}). */
  readonly agent?: string | undefined;
}

/** The options taskHandle takes, by name. */
const TASK_HANDLE_OPTION_KEYS = ['agent'] as const satisfies readonly (keyof TaskHandleOptions)[];

/**
 * A handle on a seller's task: from taskHandle() (a `submitted` or `working` answer that carried a
 * `task_id`), or read from its stored fields. Frozen; its class tells a handle adcp-decode checked
 * from a caller's object.
 */
export class TaskHandle<T extends string = string, V extends string = string> implements TaskHandleFields<T, V> {
  /** The wire pin of `version`, e.g. `'3.1'`, `'3.2-beta.6'`. */
  readonly release: HandleRelease<V>;

  constructor(
    readonly task: T,
    readonly taskId: string,
    readonly version: V,
    readonly operationId: string | undefined,
    readonly agent: string | undefined = undefined,
  ) {
    this.release = pinOf(version) as HandleRelease<V>;
    Object.freeze(this);
  }
}

/** A handle's agent, when given: a non-empty string (the seller agent's URL). */
function agentOf(value: unknown, name: string, owner: OptionOwner): string | undefined {
  if (value === undefined || (typeof value === 'string' && value.length > 0)) return value;
  throw optionError(owner.who, name, "the seller agent's URL (a non-empty string) when present", value, owner.context);
}

/**
 * Whether two agent URLs name the same agent: equal, or equal once parsed (`HTTPS://Seller.example`
 * is `https://seller.example/`); both are the buyer's own configuration, never a payload's.
 *
 * @param a - One agent URL.
 * @param b - The other.
 * @returns Whether they are the same agent.
 * @throws Never.
 * @example
 * sameAgent('https://seller.example', 'https://SELLER.example/'); // true
 */
function sameAgent(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

/** The statuses of an answer whose task goes on (webhooks.mdx: only these may later emit task webhooks). */
const ONGOING: readonly unknown[] = ONGOING_STATUSES;

/**
 * The handle of an answer decode() is about to return: for a `submitted` or `working` status, its
 * handle (`null` without a `task_id`); `undefined` for any other status.
 *
 * @param payload - The object decode() returns.
 * @param answer - The task, the version that judged it, its status, and the operation id the request registered.
 * @returns The handle, `null` or `undefined`, for decode()'s record of the payload.
 * @throws Never.
 * @example
 * answerHandle(found.payload, { task: 'create_media_buy', version: '3.1.19', status: 'submitted', operationId: undefined });
 */
export function answerHandle(
  payload: Record<string, unknown>,
  answer: { task: string; version: string; status: unknown; operationId: string | undefined },
): TaskHandle | null | undefined {
  if (!ONGOING.includes(answer.status)) return undefined;
  const taskId = own(payload, 'task_id');
  return typeof taskId === 'string' ? new TaskHandle<string, string>(answer.task, taskId, answer.version, answer.operationId) : null;
}

function invalidInput(message: string, task?: string): DecodeError {
  return new DecodeError('INVALID_INPUT', message, { task });
}

/**
 * The handle of an answer decode() returned.
 *
 * @param task - The task the answer was decoded for.
 * @param answer - What decode() (or safeDecode's `data`) returned, not a copy.
 * @param options - The seller agent the call went to (`agent`), recorded in the handle.
 * @returns The handle of a `submitted` or `working` answer carrying a `task_id`; `undefined` for
 *   any other answer (a final one, `input-required`, one without a `task_id`).
 * @throws {DecodeError} `INVALID_INPUT` for an answer decoded for another task, or a
 *   `submitted`/`working` object decode() did not return (a copy: the version that judged it is unknown);
 *   `INVALID_OPTION` for an `agent` that is not a non-empty string.
 * @example
 * mintHandle('create_media_buy', decode('create_media_buy', result), { agent: 'https://seller.example/mcp' });
 */
export function mintHandle(task: unknown, answer: unknown, options?: TaskHandleOptions): TaskHandle | undefined {
  if (typeof task !== 'string') throw invalidInput(`taskHandle expects a task name string; got ${describeValue(task)}`);
  const owner = { who: 'taskHandle', context: { task } };
  knownOptions(owner.who, options, TASK_HANDLE_OPTION_KEYS, owner.context);
  let agentValue: unknown;
  try {
    agentValue = options?.agent;
  } catch (cause) {
    throw unreadableOption(owner.who, 'agent', cause, owner.context);
  }
  const agent = agentOf(agentValue, 'agent', owner);
  if (!isObject(answer)) throw invalidInput(`taskHandle expects the answer decode() returned; got ${describeValue(answer)}`, task);
  const handle = decodedRecord(answer)?.handle;
  if (handle === undefined) {
    let status: unknown;
    try {
      const d = Object.getOwnPropertyDescriptor(answer, 'status');
      status = d !== undefined && 'value' in d ? d.value : undefined;
    } catch {
      status = undefined; // a Proxy's trap: not an answer decode() returned, and no ongoing status read
    }
    if (!ONGOING.includes(status)) return undefined;
    throw invalidInput(
      `taskHandle expects the ${task} answer decode() returned; this ${String(status)} answer is not one (a copy?), so the version that judged it is unknown`,
      task,
    );
  }
  if (handle === null) return undefined;
  if (handle.task !== task)
    throw invalidInput(`taskHandle was asked for a ${shownText(task, 64)} handle; the answer was decoded for ${handle.task}`, task);
  return agent === undefined
    ? handle
    : new TaskHandle<string, string>(handle.task, handle.taskId, handle.version, handle.operationId, agent);
}

/** A stored version: a bundled one, else the bundled version of its release (a handle outlives a patch upgrade). */
function storedVersion(value: unknown, name: string, owner: OptionOwner): Version {
  if (typeof value !== 'string') throw optionError(owner.who, `${name}.version`, 'a bundled AdCP version', value, owner.context);
  // A later patch of a known release reads as that release (a handle outlives a patch upgrade).
  const bundled = isVersion(value) ? value : pinOf(value);
  return resolveVersion(bundled, owner.context);
}

/**
 * Reads a handle once: a TaskHandle as it is, or stored fields checked into one.
 *
 * @param value - The option's value.
 * @param name - The option's name, for messages (`handle`).
 * @param owner - The edge it was given to (decodeTaskStatus), and its call, for the errors.
 * @returns The handle.
 * @throws {DecodeError} `INVALID_OPTION` for anything but a handle's fields (a task of its
 *   version, a non-empty `taskId`, a string `operationId` and a non-empty `agent` when present); `UNSUPPORTED_VERSION`
 *   for a release not bundled.
 * @example
 * readHandle({ task: 'create_media_buy', taskId: 'task_9', version: '3.1.19' }, 'handle', { who: 'waitForTask' });
 */
export function readHandle(value: unknown, name: string, owner: OptionOwner): TaskHandle {
  if (value instanceof TaskHandle) return value;
  const { who, context } = owner;
  try {
    if (!isObject(value)) throw optionError(who, name, 'a task handle (taskHandle(), or its stored fields)', value, context);
    const { task, taskId, version, operationId, agent } = value;
    const bundled = storedVersion(version, name, owner);
    if (typeof task !== 'string' || !hasOwn(tablesFor(bundled).schemaIds, task))
      throw optionError(who, `${name}.task`, `an AdCP ${bundled} task name`, task, context);
    if (typeof taskId !== 'string' || taskId.length === 0)
      throw optionError(who, `${name}.taskId`, "the seller's task_id", taskId, context);
    if (operationId !== undefined && typeof operationId !== 'string')
      throw optionError(who, `${name}.operationId`, 'a string when present', operationId, context);
    return new TaskHandle<string, string>(task, taskId, bundled, operationId, agentOf(agent, `${name}.agent`, owner));
  } catch (cause) {
    if (cause instanceof DecodeError) throw cause;
    throw unreadableOption(who, name, cause, context);
  }
}

/** What a verified delivery says of itself: who signed it (the receiver's key resolution) and the task it names. */
export interface SignedDelivery extends NamedTask {
  /** The verified signer's agent (`outcome.signer.agent`), never a payload's word. */
  readonly agent: string;
}

/**
 * How a delivery stands to a handle: `tied` (its verified sender is the handle's agent and it names
 * the handle's `task_id`, or its `operation_id`), `other-sender`, `untied` (it names neither), or
 * `no-agent` (the handle records no agent, so no delivery can be tied to it).
 */
export type Tie = 'tied' | 'other-sender' | 'untied' | 'no-agent';

/**
 * Whether a delivery is the handle's task's: the one rule the webhook receiver (`handles`) and
 * waitForTask (`webhooks`) both apply; what is tied is then {@link correlate}d field by field.
 *
 * @param handle - The task's handle.
 * @param delivery - The verified sender and what the delivery names.
 * @returns How it stands to the handle.
 * @throws Never.
 * @example
 * tieOf(handle, { agent: outcome.signer.agent, taskType: outcome.taskType, taskId: outcome.taskId }); // 'tied'
 */
export function tieOf(handle: TaskHandle, delivery: SignedDelivery): Tie {
  if (handle.agent === undefined) return 'no-agent';
  if (!sameAgent(handle.agent, delivery.agent)) return 'other-sender';
  if (delivery.taskId === handle.taskId) return 'tied';
  return handle.operationId !== undefined && delivery.operationId === handle.operationId ? 'tied' : 'untied';
}

/** A received delivery's fields that name its task (a webhook receiver's outcome). */
export interface DeliveryNames {
  readonly format: 'mcp' | 'a2a';
  readonly taskType: string;
  readonly taskId: string | undefined;
  readonly operationId: string | undefined;
  readonly data?: unknown;
}

/**
 * What a delivery names of its task: the envelope's ids; over A2A its result's own `task_id`,
 * since the A2A task id is the transport's (a2a-response-format.mdx), and a failure's none.
 *
 * @param delivery - The outcome's envelope fields (and `data`, for A2A).
 * @returns The task it names.
 * @throws Never.
 * @example
 * namedBy({ format: 'mcp', taskType: 'create_media_buy', taskId: 'task_1', operationId: undefined });
 */
export function namedBy(delivery: DeliveryNames): NamedTask {
  const { format, taskType, taskId, operationId, data } = delivery;
  return { taskType, taskId: format === 'a2a' ? (isObject(data) ? own(data, 'task_id') : undefined) : taskId, operationId };
}

/** What an answer says of the task it belongs to; `undefined` for a field it does not carry. */
export interface NamedTask {
  readonly taskType: unknown;
  readonly taskId: unknown;
  readonly operationId?: unknown;
}

/** A value as shown in a TASK_MISMATCH: a string escaped and bounded, anything else described. */
function shownValue(value: unknown): string {
  return typeof value === 'string' ? `"${shownText(value, 128)}"` : describeValue(value);
}

/**
 * Refuses an answer that names another task than the handle: `task_type` first, then `task_id`,
 * then `operation_id` (only where both the handle and the answer carry one).
 *
 * @param handle - The handle the answer is correlated to.
 * @param named - What the answer names.
 * @param what - The answer, for the message: `get_task_status response`, `webhook`.
 * @throws {TaskMismatchError} `TASK_MISMATCH`, `path` `/task_type`, `/task_id` or `/operation_id`.
 * @example
 * correlate(handle, { taskType: response.task_type, taskId: response.task_id }, 'get_task_status response');
 */
export function correlate(handle: TaskHandle, named: NamedTask, what: string): void {
  const fields = [
    ['/task_type', 'task_type', handle.task, named.taskType],
    ['/task_id', 'task_id', handle.taskId, named.taskId],
    ['/operation_id', 'operation_id', handle.operationId, named.operationId],
  ] as const;
  for (const [path, field, expected, received] of fields) {
    if (expected === undefined || received === undefined || received === expected) continue;
    const shownExpected = shownText(expected, 128);
    const shownReceived = typeof received === 'string' ? shownText(received, 128) : describeValue(received);
    throw new TaskMismatchError(
      `expected the ${what}'s ${field} to be "${shownExpected}", as the handle of ${handle.task} task "${shownText(handle.taskId, 64)}" says; it is ${shownValue(received)}, so it is not this task's answer (a correlation failure)`,
      { expected: shownExpected, received: shownReceived },
      { task: handle.task, version: handle.version, path },
    );
  }
}
