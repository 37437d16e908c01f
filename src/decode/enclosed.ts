/**
 * What the async paths share (webhooks/ and polling): the task types an envelope names, the
 * decode task whose schema judges each task type's result, and decodeEnclosed, which decodes a
 * payload found inside an envelope (a webhook's `result`, a polled task's `result`) the way
 * decode() decodes a located payload.
 */
import { DecodeError } from '../errors/errors.js';
import { checkAdcpError } from '../extract/errors.js';
import { taskTypesByVersion } from '../generated/envelope.js';
import type { TaskTypesByVersion } from '../generated/index.js';
import type { BundledVersion } from '../generated/versions.js';
import { hasOwn, own } from '../json/own.js';
import type { Resolved } from '../options/resolve-options.js';
import { releaseFor } from '../schema/releases.js';
import { isFailedStatus } from '../schema/statuses.js';
import type { Version } from '../schema/versions.js';
import { type Decoded, decodeFound, type ResponseIn, type TaskName } from './decode.js';
import { type Context, failed, guard, payloadError } from './failures.js';
import { refuseContradiction, type StatedStatus } from './status-layers.js';

/** `enums/task-type.json` per bundled version: the values an envelope's `task_type` may take. */
export const TASK_TYPES = taskTypesByVersion satisfies Record<BundledVersion, readonly string[]>;

/** A `task_type` of any bundled version. */
export type TaskType = TaskTypesByVersion[Version];

/** The task types of version `V`. */
export type TaskTypeIn<V extends Version> = TaskTypesByVersion[V];

/**
 * Whether a value is a task type of a version.
 *
 * @param value Anything.
 * @param version The bundled version.
 * @returns True for one of its task types.
 * @example
 * isTaskType('media_buy_delivery', '3.0.26'); // false
 */
export function isTaskType(value: unknown, version: Version): value is TaskType {
  return (releaseFor(version).envelope.taskTypes as readonly unknown[]).includes(value);
}

/**
 * The decode task whose response schema judges a result of task type `K`: the same name, except
 * `media_buy_delivery` (reporting webhooks), whose result is `get_media_buy_delivery`'s response
 * without the API-only `aggregated_totals`. The one task type that is no task (test/decode/enclosed.test.ts).
 */
export type ResultTask<K extends string> = K extends 'media_buy_delivery' ? 'get_media_buy_delivery' : K;

/** What a result of task type `K` is in version(s) `V` (default: any bundled). */
export type ResultData<K extends TaskType, V extends Version = Version> = ResponseIn<ResultTask<K>, V>;

/**
 * What judges a terminal result of a task type in a release, as the release's tables say
 * (`AdcpRelease.results`: 3.2's `task_result_resolution`, 3.0's and 3.1's `media_buy_delivery`):
 * a task whose response schema judges it, or a validator of its own; else the task type's own task.
 *
 * @param taskType A task type.
 * @param version The release.
 * @returns The task (or result validator key) to decode the result as.
 * @throws {DecodeError} `UNSUPPORTED_VERSION` for a version neither bundled nor defined.
 * @example
 * resultTask('media_buy_delivery', '3.1.19'); // 'get_media_buy_delivery'
 */
export function resultTask<K extends TaskType>(taskType: K, version: Version): ResultTask<K> & TaskName {
  const { results } = releaseFor(version);
  // The table's word for the result: typed as the task whose response the bundled releases judge it by.
  return (Object.hasOwn(results, taskType) ? results[taskType] : taskType) as ResultTask<K> & TaskName;
}

/** How {@link decodeEnclosed}'s payload was enclosed. */
export interface EnclosedPayload {
  /** The envelope's task status (a webhook's `status`, a polled task's `status`). */
  readonly status: string;
  /** Names the payload in messages, e.g. `webhook result`. */
  readonly what: string;
}

/**
 * Decodes a payload that arrived inside an envelope the way decode() decodes a payload: the
 * payload's own status picks its schema, the envelope's stands in where it has none, and one that
 * contradicts the envelope's is refused; a failed, rejected or canceled status ends as
 * TaskFailedError (the payload's `adcp_error`, else its `errors[0]`).
 *
 * @param task - The task whose schema judges the payload (see {@link resultTask}).
 * @param payload - Part of the caller's bounded copy of the envelope (a snapshot, or a parse
 *   within the bounds), which is not walked again; `undefined` when the envelope carried none.
 * @param how - The envelope's status and how to name the payload.
 * @param resolved - The options, resolved by the public edge that took them; `transport` is ignored.
 * @returns The payload typed as the task's response, and the version that judged it.
 * @throws {DecodeError} As decode() does; `NO_PAYLOAD` for a missing payload under a status that
 *   needs one; `MALFORMED_ENVELOPE` when the payload's status contradicts the envelope's.
 * @example
 * decodeEnclosed('create_media_buy', copy.result, { status: copy.status, what: 'webhook result' }, resolved);
 */
export function decodeEnclosed<T extends TaskName>(
  task: T,
  payload: Record<string, unknown> | undefined,
  how: EnclosedPayload,
  resolved: Resolved,
): { data: Decoded<T>; version: Version; patch?: string } {
  try {
    const ctx: Context = { task, options: resolved, version: resolved.version === 'auto' ? undefined : resolved.version };
    const state: StatedStatus = { status: how.status, layer: 'envelope' };
    if (isFailedStatus(how.status)) failedTask(ctx, payload, how, state);
    if (payload === undefined) {
      throw new DecodeError(
        'NO_PAYLOAD',
        `expected the ${task} payload in the ${how.what} for status ${JSON.stringify(how.status.slice(0, 40))}; found none`,
        { task, version: ctx.version },
      );
    }
    const found = { payload, inProcess: false, bounded: true, what: how.what, state } as const;
    return decodeFound(ctx, found) as { data: Decoded<T>; version: Version; patch?: string };
  } catch (error) {
    throw guard(error, task, payload);
  }
}

/** A task that ended without its result: the failure its payload reports (`adcp_error`, else `errors[0]`). */
function failedTask(ctx: Context, payload: Record<string, unknown> | undefined, how: EnclosedPayload, state: StatedStatus): never {
  if (payload !== undefined) refuseContradiction(state, own(payload, 'status'), how.what, ctx);
  const valid = payload !== undefined && hasOwn(payload, 'adcp_error') ? checkAdcpError(payload.adcp_error, '', ctx) : undefined;
  if (valid?.ok === true) throw failed(ctx, valid.error, `the ${how.what} carries an adcp_error`);
  const fallback = payloadError(payload, ctx);
  throw failed(ctx, fallback, `the task ended in status ${how.status}`, {
    fromPayload: fallback !== undefined,
    unusable: valid?.ok === false ? valid.reason : undefined,
    state: isFailedStatus(how.status) ? how.status : undefined,
  });
}
