/**
 * Option `request`: the request an answer answers, as decode() reads it. The type is structural
 * so that what `encode` returns (a frozen request: task, release, args as sent) satisfies it, as
 * does a hand-built `{ task, args }`. It is read once per call, and only what the checks need is
 * kept: the task, the `context` as the JSON that was sent, the version stamps, and the
 * `push_notification_config.operation_id` a task handle carries.
 */
import { DecodeError, describeThrown, describeValue } from '../errors/errors.js';
import { type OptionOwner, unreadableOption } from '../errors/option-rules.js';
import { hasOwn, isObject } from '../json/own.js';
import { isVersion, type Version } from '../schema/versions.js';

/** A request as sent to a seller: the task it calls and the arguments it sent. */
export interface SentRequest {
  /** The task called, e.g. `'create_media_buy'`. */
  readonly task: string;
  /** The arguments as sent: `context`, `adcp_version`, `adcp_major_version` are read from here. */
  readonly args: Readonly<Record<string, unknown>>;
}

/** What decode() keeps of a request: the task, the context as sent (a JSON copy), the stamps as sent. */
export interface CheckedRequest extends SentRequest {
  readonly args: {
    /** The `context` the request sent, as its JSON (absent when the request sent none). */
    readonly context?: unknown;
    readonly adcp_version?: unknown;
    readonly adcp_major_version?: unknown;
  };
  /** The `push_notification_config.operation_id` the request registered (a string), which its webhooks echo. */
  readonly operationId?: string | undefined;
  /** The bundled version the request was encoded in (what encode() returned says it), which judges an answer announcing none. */
  readonly version?: Version | undefined;
}

/** A request as read: its class tells a decoder's merged options, read again, from a caller's object. */
class Checked implements CheckedRequest {
  constructor(
    readonly task: string,
    readonly args: CheckedRequest['args'],
    readonly operationId: string | undefined,
    readonly version: Version | undefined,
  ) {}
}

function requestError(expected: string, got: unknown, owner: OptionOwner): DecodeError {
  return new DecodeError('INVALID_OPTION', `${owner.who}: option request must be ${expected}; got ${describeValue(got)}`, owner.context);
}

/** `value` as the JSON text that was sent made it: undefined members dropped, toJSON applied. */
function asSent(value: unknown, owner: OptionOwner): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (cause) {
    throw new DecodeError(
      'INVALID_OPTION',
      `${owner.who}: option request.args.context must be JSON data; serializing it threw ${describeThrown(cause)}`,
      { ...owner.context, cause },
    );
  }
  return text === undefined ? undefined : JSON.parse(text);
}

function readStamps(args: Readonly<Record<string, unknown>>, into: Record<string, unknown>): void {
  for (const key of ['adcp_version', 'adcp_major_version'] as const) {
    if (hasOwn(args, key) && args[key] !== undefined) into[key] = args[key];
  }
}

/**
 * Reads option `request` once: `{ task, args }` with a string task and an object of arguments.
 *
 * @param value - The option's value.
 * @param owner - The edge it was given to, and its call (decode's task), for the error.
 * @returns The request as checked, or `undefined` when none was given.
 * @throws {DecodeError} `INVALID_OPTION` for anything else, or a `context` that is not JSON data.
 * @example
 * readRequest({ task: 'get_products', args: { brief: 'CTV', context: { trace_id: 't-1' } } });
 */
export function readRequest(value: unknown, owner: OptionOwner): CheckedRequest | undefined {
  if (value === undefined) return undefined;
  if (value instanceof Checked) return value;
  try {
    if (!isObject(value)) throw requestError('an object { task, args }', value, owner);
    const task = value.task;
    if (typeof task !== 'string') throw requestError('an object whose task is a task name', task, owner);
    const args = value.args;
    if (!isObject(args)) throw requestError('an object whose args is the arguments object sent', args, owner);
    const kept: Record<string, unknown> = {};
    if (hasOwn(args, 'context')) {
      const context = asSent(args.context, owner);
      if (context !== undefined) kept.context = context;
    }
    readStamps(args, kept);
    const push = hasOwn(args, 'push_notification_config') ? args.push_notification_config : undefined;
    const operationId = isObject(push) && hasOwn(push, 'operation_id') ? push.operation_id : undefined;
    // What encode() returned names the bundled version it was checked in; a hand-built request names none.
    const version = hasOwn(value, 'version') && isVersion(value.version) ? value.version : undefined;
    return new Checked(task, kept, typeof operationId === 'string' ? operationId : undefined, version);
  } catch (cause) {
    if (cause instanceof DecodeError) throw cause;
    throw unreadableOption(owner.who, 'request', cause, owner.context);
  }
}
