/**
 * What the async paths share (webhooks/ and polling): the task types an envelope names, the
 * decode task whose schema judges each task type's result, and decodeEnclosed, which decodes a
 * payload found inside an envelope (a webhook's `result`, a polled task's `result`) the way
 * decode() decodes a located payload.
 */
import { DecodeError } from '../errors/errors.js';
import { checkAdcpError } from '../extract/errors.js';
import { taskTypesByVersion } from '../generated/envelope.js';
import type { ResultsByVersion, TaskTypesByVersion } from '../generated/index.js';
import type { BundledVersion } from '../generated/versions.js';
import { hasOwn, own } from '../json/own.js';
import type { Resolved } from '../options/resolve-options.js';
import { releaseFor } from '../schema/releases.js';
import { isFailedStatus } from '../schema/statuses.js';
import type { Version } from '../schema/versions.js';
import { decodeFound, type ResponseIn } from './decode.js';
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
 * What a terminal result of task type `K` is in version(s) `V` (default: any known): its task's
 * response, or what the release's results name (`ResultsByVersion`: 3.1's and 3.2's
 * `media_buy_delivery`, a delivery report of its own schema).
 */
export type ResultData<K extends string, V extends Version = Version> = V extends Version
  ? K extends keyof ResultsByVersion[V]
    ? ResultsByVersion[V][K]
    : ResponseIn<K, V>
  : never;

/**
 * What judges a terminal result of a task type in a release, as the release's tables say
 * (`AdcpRelease.results`: 3.2's `task_result_resolution`, 3.1's result exception):
 * a validator of its own; else the task type's own task.
 *
 * @param taskType A task type.
 * @param version The release.
 * @returns The task (or result validator key) to decode the result as.
 * @throws {DecodeError} `UNSUPPORTED_VERSION` for a version neither bundled nor defined.
 * @example
 * resultTask('media_buy_delivery', '3.1.19'); // 'result-media_buy_delivery'
 */
export function resultTask(taskType: string, version: Version): string {
  const { results } = releaseFor(version);
  return Object.hasOwn(results, taskType) ? (results[taskType]?.validators ?? taskType) : taskType;
}

/**
 * Whether a status ends a task with its answer in a release: `completed`, or a terminal status its
 * release reads as an answer, not a failure (3.2's `rejected`: "a structured AdCP task outcome").
 *
 * @param status A task status.
 * @param version The release that judges it.
 * @returns True where the task's result is its data.
 * @throws {DecodeError} `UNSUPPORTED_VERSION` for a version neither bundled nor defined.
 * @example
 * endsWithAnswer('rejected', '3.1.19'); // false: the task failed
 */
export function endsWithAnswer(status: unknown, version: string): boolean {
  return status === 'completed' || releaseFor(version).envelope.outcomeStatuses.some((s) => s === status);
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
 * TaskFailedError (the payload's `adcp_error`, else its `errors[0]`), unless the release reads it
 * as the task's answer ({@link endsWithAnswer}).
 *
 * @param taskType - The envelope's task type: the task whose schema judges the payload, or the result validator its release names ({@link resultTask}).
 * @param payload - Part of the caller's bounded copy of the envelope (a snapshot, or a parse
 *   within the bounds), which is not walked again; `undefined` when the envelope carried none.
 * @param how - The envelope's status and how to name the payload.
 * @param resolved - The options, resolved by the public edge that took them; `transport` is ignored.
 * @returns The payload typed as the task's response, and the version that judged it.
 * @throws {DecodeError} As decode() does; `NO_PAYLOAD` for a missing payload under a status that
 *   needs one; `MALFORMED_ENVELOPE` when the payload's status contradicts the envelope's.
 * @example
 * decodeEnclosed('create_media_buy', copy.result, { status: copy.status, what: 'webhook result' }, { ...resolved, version });
 */
export function decodeEnclosed(
  taskType: string,
  payload: Record<string, unknown> | undefined,
  how: EnclosedPayload,
  resolved: Resolved & { readonly version: Version },
): { data: unknown; version: Version; patch?: string } {
  const task = taskType;
  try {
    const validators = resultTask(taskType, resolved.version);
    const ctx: Context = { task, ...(validators === task ? {} : { validators }), options: resolved, version: resolved.version };
    const state: StatedStatus = { status: how.status, layer: 'envelope' };
    if (isFailedStatus(how.status) && !endsWithAnswer(how.status, resolved.version)) failedTask(ctx, payload, how, state);
    if (payload === undefined) {
      throw new DecodeError(
        'NO_PAYLOAD',
        `expected the ${task} payload in the ${how.what} for status ${JSON.stringify(how.status.slice(0, 40))}; found none`,
        { task, version: ctx.version },
      );
    }
    const found = { payload, inProcess: false, bounded: true, what: how.what, state } as const;
    return decodeFound(ctx, found);
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
