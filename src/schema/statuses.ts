/**
 * The task statuses, generated from `enums/task-status.json` (the same in every bundled version),
 * and the classes of them that decode(), polling and webhooks branch on: the async statuses (those
 * with their own response schemas, generated from the manifests) and the statuses of a task that
 * ended without its result. The one home of these lists.
 */
import { asyncStatuses, taskStatuses } from '../generated/envelope.js';

/** The task statuses, in `enums/task-status.json`'s order. */
export const TASK_STATUSES = taskStatuses;

/**
 * The protocol envelope's task status (`enums/task-status.json`). Where a response schema leaves
 * `status` open, decode() holds a present `status` to this enum, as the envelope does.
 */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** The statuses that select an async-response schema instead of the task's response. */
export const ASYNC_STATUSES = asyncStatuses;

/** The `status` values that select an async-response schema instead of the task's response. */
export type AsyncStatus = (typeof ASYNC_STATUSES)[number];

/** A task the seller accepted and is running (task-status.json: submitted, working): the answers that yield a task handle. */
export const ONGOING_STATUSES = ['submitted', 'working'] as const satisfies readonly AsyncStatus[];

/** A task that ended without its result (task-status.json: canceled, failed, rejected): its failure is reported instead. */
export const FAILED_STATUSES = ['canceled', 'failed', 'rejected'] as const satisfies readonly TaskStatus[];

/** A status of {@link FAILED_STATUSES}. */
export type FailedStatus = (typeof FAILED_STATUSES)[number];

/**
 * Whether a value is a task status.
 *
 * @param value Anything.
 * @returns True for a {@link TaskStatus}.
 * @example
 * isTaskStatus('working'); // true
 */
export function isTaskStatus(value: unknown): value is TaskStatus {
  return (TASK_STATUSES as readonly unknown[]).includes(value);
}

/**
 * Whether a value is an async status (one with its own response schemas).
 *
 * @param value Anything.
 * @returns True for an {@link AsyncStatus}.
 * @example
 * isAsyncStatus('input-required'); // true
 */
export function isAsyncStatus(value: unknown): value is AsyncStatus {
  return (ASYNC_STATUSES as readonly unknown[]).includes(value);
}

/**
 * Whether a value is the status of a task that ended without its result.
 *
 * @param value Anything.
 * @returns True for a {@link FailedStatus}.
 * @example
 * isFailedStatus('rejected'); // true
 */
export function isFailedStatus(value: unknown): value is FailedStatus {
  return (FAILED_STATUSES as readonly unknown[]).includes(value);
}
