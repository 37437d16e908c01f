/**
 * waitForTask, whatever the transport: the handle's task polled (3.1 `get_task_status`, 3.0
 * `tasks/get`) until it is final, on error-handling.mdx's backoff, within a deadline, with a
 * bounded number of transient poll failures and, when given, its webhooks racing the polls. The
 * transports (mcp/, a2a/) supply only the send, as for callTask.
 */
import { endsWithAnswer } from '../decode/enclosed.js';
import type { Final } from '../decode/final.js';
import { type PolledTask, type PolledTaskFor, pollResolved } from '../decode/polling.js';
import { readHandle, type TaskHandle, type TaskHandleFields } from '../decode/task-handle.js';
import { attempt as encodeAttempt } from '../encode/encode.js';
import { newIdempotencyKey } from '../encode/idempotency.js';
import type { EncodedRequest } from '../encode/request.js';
import { DecodeError, LimitError, TaskFailedError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { optionError } from '../errors/option-rules.js';
import type { Resolved } from '../options/resolve-options.js';
import { releaseFor } from '../schema/releases.js';
import type { Version } from '../schema/versions.js';
import { type Send, sendOnce } from './run.js';
import { TransportError } from './transport-error.js';
import { type WaitEnd, WaitEvents } from './wait-events.js';
import { nextDelay, readWaitOptions, type WaitOptions, type WaitSettings } from './wait-options.js';
import { raceWebhooks, type Settled, type WebhookRace } from './wait-webhooks.js';

/** What waitForTask resolves to for a handle of type `H`: the task's final result (its final arms only), typed by its task and version. */
export type WaitResult<H> = Final<NonNullable<PolledTaskFor<H>['data']>>;

/** waitForTask over a transport's client `C`. */
export type WaitForTask<C> = <const H extends TaskHandleFields>(client: C, handle: H, options?: WaitOptions) => Promise<WaitResult<H>>;

/** One poll's end: the polled task, a transient failure (the thrown value, the seller's `retry_after`), or the wait ended meanwhile. */
type Polled =
  | { readonly polled: PolledTask }
  | { readonly failure: unknown; readonly retryAfterSeconds: number | undefined }
  | { readonly ended: Settled };

/** One wait: the handle, its poll request's task and the settings, the deadline, and the signal that stops a sleep or a poll. */
interface Wait {
  readonly handle: TaskHandle;
  readonly method: string;
  readonly settings: WaitSettings;
  readonly deadline: number;
  readonly startedAt: number;
  readonly race: WebhookRace;
  /** The poll request, when every poll sends the same one (its schema defines no key); else one is encoded per poll. */
  readonly request: EncodedRequest | undefined;
  /** Aborted to cut a sleep short (a webhook came); renewed after. */
  wake: AbortController;
  /** Aborted when the webhooks settle the wait: it cuts a poll short too. */
  readonly done: AbortController;
  /** What a poll runs under (the caller's signal and `done`), made once per wait. */
  readonly pollSignal: AbortSignal;
  /** What a sleep runs under (the poll's and `wake`), made again only when a webhook wakes the wait. */
  sleepSignal: AbortSignal;
  /** The events told, when the wait has a listener. */
  readonly events: WaitEvents | undefined;
  /** What ended the wait, for its last event: a poll unless a webhook, the caller's abort or the deadline did. */
  by: WaitEnd;
}

/** Whether the poll of a release carries an `idempotency_key` (none of the bundled poll schemas defines one today). */
function keyedPoll(version: Version): boolean {
  const { envelope, requests: table } = releaseFor(version);
  const { method } = envelope.taskStatusPoll;
  return Object.hasOwn(table, method) && table[method]?.idempotencyKey !== undefined;
}

/**
 * The poll request of a handle's task: its release's poll (`get_task_status` with its result,
 * or `tasks/get`), checked by encode, with a fresh `idempotency_key` where the schema defines one
 * (security.mdx, "Polling / state re-read": a poll is a re-read, never a replay).
 */
function pollRequest(handle: TaskHandle, name: string | undefined, bounds: Resolved): EncodedRequest {
  const version = handle.version as Version;
  const { method } = releaseFor(version).envelope.taskStatusPoll;
  const args = {
    task_id: handle.taskId,
    ...(method === 'get_task_status' ? { include_result: true } : {}),
    ...(keyedPoll(version) ? { idempotency_key: newIdempotencyKey() } : {}),
  };
  const request = encodeAttempt(() => ({ ...bounds, version }), method, args);
  if (request instanceof DecodeError) throw request;
  return name === undefined ? request : Object.freeze({ ...request, task: name });
}

/** One signal of the caller's (when given) and the wait's own. */
function anyOf(caller: AbortSignal | undefined, own: readonly AbortSignal[]): AbortSignal {
  if (caller === undefined && own.length === 1) return own[0] as AbortSignal;
  return AbortSignal.any(caller === undefined ? [...own] : [caller, ...own]);
}

/** A wait past its deadline: TIMEOUT, saying how long it ran and where the task was. */
function timeout(wait: Wait, polls: number, last: PolledTask | undefined): LimitError {
  const { handle, settings } = wait;
  return new LimitError(
    'TIMEOUT',
    `expected ${handle.task} task "${shownText(handle.taskId, 64)}" to end within ${settings.timeoutMs} ms; it was still ${last?.status ?? 'unanswered'} after ${polls} poll${polls === 1 ? '' : 's'}`,
    { unit: 'ms', limit: settings.timeoutMs, actual: Math.ceil(settings.clock.now() - wait.startedAt) },
    { task: handle.task, version: handle.version },
  );
}

/** What ends the wait now: the caller's abort, or what the webhooks settled (and which, in `wait.by`). */
function stopped(wait: Wait): Settled | undefined {
  const { signal } = wait.settings;
  if (signal?.aborted === true) {
    wait.by = 'abort';
    return { ok: false, error: signal.reason };
  }
  const settled = wait.race.settled();
  if (settled !== undefined) wait.by = 'webhook';
  return settled;
}

/**
 * A poll's failure that is transient (error-handling.mdx): the connection or a 5xx (a transient
 * TransportError), the poll's deadline, the poll's own `transient` error; with the seller's `retry_after`.
 */
function transient(wait: Wait, thrown: unknown): Polled | undefined {
  if (thrown instanceof LimitError) return thrown.code === 'TIMEOUT' ? { failure: thrown, retryAfterSeconds: undefined } : undefined;
  if (thrown instanceof TransportError || thrown instanceof TaskFailedError) {
    // A TaskFailedError is the poll's own failure only when its task is the poll's, never the polled task's.
    if (thrown instanceof TaskFailedError && thrown.task !== wait.method) return undefined;
    if (thrown.recovery.recovery !== 'transient') return undefined;
    return { failure: thrown, retryAfterSeconds: thrown.recovery.retryAfterSeconds };
  }
  return undefined;
}

/** A poll that ended without an answer: the wait's end meanwhile, a transient failure, or the error thrown. */
function failed(wait: Wait, error: unknown): Polled {
  const ended = stopped(wait);
  if (ended !== undefined) return { ended };
  const failure = transient(wait, error);
  if (failure === undefined) throw error;
  return failure;
}

/** One poll: sent within its deadline and the wait's, what the client threw classed as callTask classes it, its answer decoded for the handle. */
async function pollOnce(wait: Wait, send: Send): Promise<Polled> {
  const { handle, settings } = wait;
  const request = wait.request ?? pollRequest(handle, settings.method, settings.bounds);
  const timeoutMs = Math.max(1, Math.min(settings.pollTimeoutMs, wait.deadline - settings.clock.now()));
  let sent: Awaited<ReturnType<typeof sendOnce>>;
  try {
    sent = await sendOnce(request, send, { started: performance.now(), timeoutMs }, wait.pollSignal);
  } catch (thrown) {
    // The caller's abort, the webhooks' end, or what no one can class.
    const ended = stopped(wait);
    if (ended !== undefined) return { ended };
    throw thrown;
  }
  if ('error' in sent) return failed(wait, sent.error);
  try {
    return { polled: pollResolved(sent.answer, settings.bounds, handle) };
  } catch (error) {
    return failed(wait, error);
  }
}

/** The final result of a completed poll; a completed task without its result is the seller's fault (3.1's `include_result` was asked). */
function resultOf(wait: Wait, polled: PolledTask): unknown {
  if (polled.data !== null) return polled.data;
  throw new DecodeError(
    'NO_PAYLOAD',
    `expected the result of completed ${wait.handle.task} task "${shownText(wait.handle.taskId, 64)}" in the ${wait.method} response; it carried none`,
    { task: wait.method, version: wait.handle.version, path: '/result' },
  );
}

/** Sleeps until the next poll, or to the deadline (then TIMEOUT); a webhook cuts it short. */
async function pause(wait: Wait, delay: number, polls: number, last: PolledTask | undefined): Promise<void> {
  const { clock } = wait.settings;
  const left = wait.deadline - clock.now();
  try {
    await clock.sleep(Math.min(delay, Math.max(left, 0)), wait.sleepSignal);
  } catch (reason) {
    if (!wait.wake.signal.aborted && !wait.done.signal.aborted) {
      wait.by = 'abort';
      throw reason;
    }
    wait.wake = new AbortController();
    wait.sleepSignal = anyOf(wait.pollSignal, [wait.wake.signal]);
    return;
  }
  if (delay >= left) {
    wait.by = 'deadline';
    throw timeout(wait, polls, last);
  }
}

/**
 * Polls a handle's task until it is final, and its result.
 *
 * @param send - The transport's send over the caller's client.
 * @param handleValue - The task's handle (taskHandle(), or its stored fields).
 * @param options - See {@link WaitOptions}.
 * @returns The task's final result, as decodeTaskStatus types it.
 * @throws {TaskFailedError} The task failed, was rejected or canceled (from a poll or a webhook).
 * @throws {TaskMismatchError} `TASK_MISMATCH`: a poll or webhook answered for another task.
 * @throws {LimitError} `TIMEOUT` at `timeoutMs`.
 * @throws The caller's abort reason, as is; after `maxFailures` transient failures in a row, the last.
 * @example
 * export const waitForTask: WaitForTask<McpClient> = (client, handle, options) => waitOver(sendOver(client), handle, options);
 */
export async function waitOver(send: Send, handleValue: unknown, options: WaitOptions | undefined): Promise<never> {
  const settings = readWaitOptions(options);
  const handle = readHandle(handleValue, 'handle', { who: 'waitForTask', context: { task: 'waitForTask' } });
  // Without the agent no delivery can be tied to the task: every one would be passed over, silently.
  if (settings.webhooks !== undefined && handle.agent === undefined)
    throw optionError(
      'waitForTask',
      'handle.agent',
      "the seller agent's URL when webhooks is given (taskHandle(task, answer, { agent })), so that only its deliveries are this task's",
      undefined,
      { task: 'waitForTask' },
    );
  settings.signal?.throwIfAborted();
  const startedAt = settings.clock.now();
  const done = new AbortController();
  const wake = new AbortController();
  const pollSignal = anyOf(settings.signal, [done.signal]);
  const version = handle.version as Version;
  // Encoded before the webhooks are raced: a refused request leaves nothing open.
  const request = keyedPoll(version) ? undefined : pollRequest(handle, settings.method, settings.bounds);
  const { method } = releaseFor(version).envelope.taskStatusPoll;
  const events =
    settings.onEvent === undefined
      ? undefined
      : new WaitEvents(settings.onEvent, handle, settings.method ?? method, settings.webhooks !== undefined);
  const wait: Wait = {
    handle,
    method,
    settings,
    deadline: startedAt + settings.timeoutMs,
    startedAt,
    race: raceWebhooks(settings.webhooks, handle, (final) => (final ? done.abort() : wait.wake.abort())),
    request,
    wake,
    done,
    pollSignal,
    sleepSignal: anyOf(pollSignal, [wake.signal]),
    events,
    by: 'poll',
  };
  if (events === undefined)
    try {
      return (await loop(wait, send)) as never;
    } finally {
      wait.race.close();
    }
  const polls = { made: 0 };
  try {
    const data = await loop(wait, send, polls);
    events.ended(wait.by, polls.made, { data });
    return data as never;
  } catch (thrown) {
    events.ended(wait.by, polls.made, { thrown });
    throw thrown;
  } finally {
    wait.race.close();
  }
}

/**
 * Polls until the task is final, a webhook settles the wait, or it fails; with events, each poll is
 * told (`polls.made` counts them for the wait's last event).
 */
async function loop(wait: Wait, send: Send, polls = { made: 0 }): Promise<unknown> {
  const { events, settings } = wait;
  let failures = 0;
  let last: PolledTask | undefined;
  for (;;) {
    events?.pollStarted();
    const outcome = events === undefined ? await pollOnce(wait, send) : await toldOnFailure(wait, send, polls.made + 1, failures);
    polls.made += 1;
    if ('ended' in outcome) return settle(outcome.ended);
    const end = stopped(wait);
    if (end !== undefined) return settle(end);
    let retryAfter: number | undefined;
    if ('polled' in outcome) {
      failures = 0;
      last = outcome.polled;
      if (endsWithAnswer(last.status, last.version)) {
        events?.polled(polls.made, outcome, failures, settings.maxFailures, undefined);
        return resultOf(wait, last);
      }
      settings.onStatus?.(last);
    } else {
      failures += 1;
      if (failures >= settings.maxFailures) {
        events?.polled(polls.made, outcome, failures, settings.maxFailures, undefined);
        throw outcome.failure;
      }
      retryAfter = outcome.retryAfterSeconds;
    }
    const delay = nextDelay(settings, polls.made, retryAfter);
    events?.polled(polls.made, outcome, failures, settings.maxFailures, delay);
    await pause(wait, delay, polls.made, last);
    const woken = stopped(wait);
    if (woken !== undefined) return settle(woken);
  }
}

/** One poll whose failure, when it ends the wait (not transient), is told before it is thrown. */
async function toldOnFailure(wait: Wait, send: Send, poll: number, failures: number): Promise<Polled> {
  try {
    return await pollOnce(wait, send);
  } catch (failure) {
    if (wait.by === 'poll') wait.events?.polled(poll, { failure }, failures, wait.settings.maxFailures, undefined);
    throw failure;
  }
}

function settle(end: Settled): unknown {
  if (end.ok) return end.data;
  throw end.error;
}
