/**
 * Helpers the generated task → response map is written with. The AdCP async-response schemas do
 * not declare `status`; decode() picks the schema by `status`, so the types add it back as the
 * discriminant that narrows a decoded value.
 */

import type { AsyncStatus, TaskStatus } from './statuses.js';

export type { AsyncStatus, TaskStatus } from './statuses.js';

/**
 * The `status` one arm of a response schema admits: its own declaration (e.g. 3.0's
 * `media-buy-status` or `check_governance`'s verdict), or the envelope's {@link TaskStatus}
 * where the arm leaves it open.
 */
type ArmStatus<T> = T extends { status?: infer S }
  ? unknown extends S
    ? TaskStatus
    : string extends S
      ? TaskStatus
      : Exclude<S, undefined>
  : TaskStatus;

/**
 * One arm of the sync variant, its `status` replaced by `S`: a key-remapping mapped type, not `Omit`, so the schemas'
 * index signatures keep the known keys.
 */
type SyncArm<T, S> = { [K in keyof T as K extends 'status' ? never : K]: T[K] } & { status?: S };

/**
 * An arm whose schema forbids `status` (`status?: never`) keeps it forbidden; an arm whose every
 * status selects an async schema cannot occur and is dropped.
 */
type SyncArmOf<T, A extends AsyncStatus> = [ArmStatus<T>] extends [never]
  ? SyncArm<T, never>
  : [Exclude<ArmStatus<T>, A>] extends [never]
    ? never
    : SyncArm<T, Exclude<ArmStatus<T>, A>>;

/**
 * The task's final response as sent, one union member per schema arm, whose optional `status` is never one of the task's
 * async statuses `A` (those select an {@link AsyncVariant}, so comparing `status` with one of them narrows to it).
 * Why `status` may be absent: docs/decode.md, "decode(task, input, options?)".
 *
 * @example
 * type Final = SyncVariant<BuildCreativeResponse, 'submitted' | 'working' | 'input-required'>;
 */
export type SyncVariant<T, A extends AsyncStatus = never> = T extends unknown ? SyncArmOf<T, A> : never;

/**
 * An async progress payload, selected because its `status` is `S`.
 * The exception the type cannot show (over A2A, `status` may be absent): docs/decode.md, "decode(task, input, options?)".
 *
 * @example
 * type Working = AsyncVariant<BuildCreativeWorking, 'working'>;
 */
export type AsyncVariant<T, S extends AsyncStatus> = T & { status: S };
