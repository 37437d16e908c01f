/**
 * The webhook side of a wait (error-handling.mdx, "polling for webhooks"): the receiver's outcomes
 * read as they come. Only a delivery tied to the handle (its verified sender is the handle's agent,
 * and it names the handle's `task_id` or `operation_id`) is this task's: the first final one settles
 * the wait (its result, or the task's failure), one that says `completed` without a result wakes the
 * next poll; every other outcome (another sender's, another task's, a duplicate) is passed over.
 */
import { endsWithAnswer } from '../decode/enclosed.js';
import { correlate, namedBy, type TaskHandle, tieOf } from '../decode/task-handle.js';
import { DecodeError, describeValue, TaskFailedError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { isObject, own } from '../json/own.js';
import { isTaskStatus } from '../schema/statuses.js';
import type { WebhookDelivery } from './wait-options.js';

/** How the webhook side ended the wait: the final result, or what to throw. */
export type Settled = { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly error: unknown };

/** The webhook side of one wait. */
export interface WebhookRace {
  /** What ended the wait, once something did. */
  settled(): Settled | undefined;
  /** Stops reading (the iterator's `return()`). */
  close(): void;
}

/** The outcome kinds a receiver resolves (webhooks/ is not imported). */
const KINDS: ReadonlySet<unknown> = new Set(['delivered', 'task-failed', 'duplicate']);

/** The outcome as a wait reads it, or undefined for what no receiver resolves. */
function outcomeOf(value: unknown): WebhookDelivery | undefined {
  if (!isObject(value) || value instanceof Error || !KINDS.has(own(value, 'kind'))) return undefined;
  const kind = own(value, 'kind');
  if (kind === 'duplicate') return { kind };
  const signer = own(value, 'signer');
  if (typeof own(value, 'taskType') !== 'string' || !isObject(signer) || typeof own(signer, 'agent') !== 'string') return undefined;
  if (kind === 'task-failed') return own(value, 'error') instanceof TaskFailedError ? (value as unknown as WebhookDelivery) : undefined;
  return typeof own(value, 'status') === 'string' ? (value as unknown as WebhookDelivery) : undefined;
}

/**
 * One outcome read: a failure of this task ends the wait with it, a final result with it;
 * `'wake'` for `completed` without a result (the poll fetches it), `undefined` for the rest,
 * and for anything not tied to the handle (tieOf: the sender, then the task_id or operation_id).
 *
 * @throws {TaskMismatchError} `TASK_MISMATCH` for a tied delivery naming another task type or operation.
 * @throws {DecodeError} `INVALID_INPUT` for what is no outcome, or one judged by another version than the handle's.
 */
function readDelivery(handle: TaskHandle, value: unknown): Settled | 'wake' | undefined {
  const hook = outcomeOf(value);
  if (hook === undefined)
    throw new DecodeError(
      'INVALID_INPUT',
      `waitForTask's webhooks yielded ${describeValue(value)}; expected an outcome the webhook receiver resolved ({ kind: 'delivered' | 'task-failed' | 'duplicate', signer, ... })`,
      { task: handle.task, version: handle.version },
    );
  // Its first delivery was read already; a duplicate says nothing new.
  if (hook.kind === 'duplicate') return undefined;
  const named = namedBy(hook);
  if (tieOf(handle, { agent: hook.signer.agent, ...named }) !== 'tied') return undefined;
  correlate(handle, named, 'webhook');
  if (hook.kind === 'task-failed') return { ok: false, error: hook.error };
  if (hook.version !== handle.version)
    throw new DecodeError(
      'INVALID_INPUT',
      `a webhook of task "${shownText(handle.taskId, 64)}" was judged by AdCP ${shownText(String(hook.version), 32)}, its handle by ${handle.version}: give the receiver the handle (option handles) or its version`,
      { task: handle.task, version: handle.version },
    );
  // Over A2A the delivery's own status is the AdCP one (the A2A state is the transport's).
  const ownStatus = isObject(hook.data) ? own(hook.data, 'status') : undefined;
  const status = hook.format === 'a2a' && isTaskStatus(ownStatus) ? ownStatus : hook.status;
  if (!endsWithAnswer(status, hook.version)) return undefined;
  return hook.data === null || hook.data === undefined ? 'wake' : { ok: true, data: hook.data };
}

/** Ends reading: the source's own failure to close (a throw, a rejection) is the source's, never thrown over the wait's result. */
function closeQuietly(iterator: AsyncIterator<unknown> | undefined): void {
  try {
    const closing = iterator?.return?.();
    if (closing !== undefined) Promise.resolve(closing).catch(() => undefined);
  } catch {
    // The result stands.
  }
}

/**
 * Starts reading a wait's webhooks.
 *
 * @param source - The deliveries, or undefined (no webhook side).
 * @param handle - The task's handle.
 * @param wake - Called with false when the wait must poll now, with true once the race settled it.
 * @returns The race.
 * @throws Never (what the source throws settles the wait with it).
 * @example
 * const race = raceWebhooks(settings.webhooks, handle, (final) => (final ? done : wake).abort());
 */
export function raceWebhooks(source: AsyncIterable<unknown> | undefined, handle: TaskHandle, wake: (final: boolean) => void): WebhookRace {
  let settled: Settled | undefined;
  if (source === undefined) return { settled: () => undefined, close: () => undefined };
  let iterator: AsyncIterator<unknown> | undefined;
  const read = async (): Promise<void> => {
    iterator = source[Symbol.asyncIterator]();
    for (;;) {
      const next = await iterator.next();
      if (next.done === true || settled !== undefined) return;
      const end = readDelivery(handle, next.value);
      if (end === 'wake') wake(false);
      else if (end !== undefined) {
        settled = end;
        wake(true);
        return;
      }
    }
  };
  read().catch((error: unknown) => {
    settled ??= { ok: false, error };
    wake(true);
  });
  return {
    settled: () => settled,
    close: () => {
      settled ??= { ok: false, error: undefined };
      closeQuietly(iterator);
    },
  };
}
