/**
 * waitForTask's options, read once and checked (a wrong one is `INVALID_OPTION` before anything is
 * sent), and its schedule: error-handling.mdx's backoff (the first interval, doubling, ±25% jitter,
 * capped), a seller's `retry_after` in its place, the clock and sleep injectable.
 */
import type { PolledTask } from '../decode/polling.js';
import type { DecodeOptions } from '../decode/types.js';
import { DecodeError, type TaskFailedError } from '../errors/errors.js';
import { deadlineMs, optionalFunction, optionError, unreadableOption } from '../errors/option-rules.js';
import type { AdcpEventListener } from '../events/events.js';
import { readListener } from '../events/tell.js';
import { DECODE_OPTION_KEYS, type DecodeOptionKey, type Resolved, resolveOptions } from '../options/resolve-options.js';
import { abortableSleep, backoffMs } from './backoff.js';

/** The decode options a wait does not take: the handle fixes the version, and a poll's transport and request are its own. */
type NotForPolls = 'version' | 'newerRelease' | 'transport' | 'request';

/** decode's options that judge each poll: its bounds and recovery table option, and any decode option added later. */
type PollBounds = Omit<DecodeOptions, NotForPolls>;

/** The clock and the sleep a wait runs on (tests give a virtual one). */
export interface WaitClock {
  /** Milliseconds, monotonic. */
  now(): number;
  /** Resolves after `ms`, or rejects with `signal.reason` once `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** What a wait ties a delivery by: its verified sender and the envelope fields naming its task. */
interface DeliveryIds {
  /** Who signed it, as the receiver verified (`signer.agent`): a delivery of another agent is never this task's. */
  readonly signer: { readonly agent: string };
  readonly format: 'mcp' | 'a2a';
  readonly taskType: string;
  readonly taskId: string | undefined;
  readonly operationId: string | undefined;
}

/**
 * A webhook outcome, as createWebhookReceiver's `receive()` resolves it (a `WebhookOutcome`): the
 * members a wait reads. Of the outcomes tied to the handle (signed by its agent, naming its
 * `task_id` or `operation_id`), a `delivered` final result ends the wait with it, a `task-failed`
 * one with its `error`; every other outcome is passed over.
 */
export type WebhookDelivery =
  | (DeliveryIds & { readonly kind: 'delivered'; readonly status: string; readonly data: unknown; readonly version: string })
  | (DeliveryIds & { readonly kind: 'task-failed'; readonly error: TaskFailedError })
  | { readonly kind: 'duplicate' };

/** Options of waitForTask. */
export interface WaitOptions extends PollBounds {
  /** The first interval between polls, in ms (default 2,000); it doubles, with ±25% jitter. */
  readonly intervalMs?: number | undefined;
  /** The longest interval, in ms (default 60,000). */
  readonly maxIntervalMs?: number | undefined;
  /** The whole wait's deadline, in ms (default 3,600,000): past it a `LimitError` `TIMEOUT`. */
  readonly timeoutMs?: number | undefined;
  /** Each poll's deadline, in ms (default 60,000, callTask's), within the wait's. */
  readonly pollTimeoutMs?: number | undefined;
  /** Transient poll failures in a row (a dropped connection, a poll timed out, a `transient` error) before the last is thrown; default 5. */
  readonly maxFailures?: number | undefined;
  /** Your own abort: the wait stops and rejects with the signal's reason, as is. */
  readonly signal?: AbortSignal | undefined;
  /** Called with each interim poll (`working` with its progress, `input-required`, `submitted`, ...). */
  readonly onStatus?: ((polled: PolledTask) => void) | undefined;
  /**
   * Told each step of the wait as it happens: started, each poll (its status, or the failure, a
   * transient one swallowed included), ended. What it throws never changes the wait. docs/observability.md.
   */
  readonly onEvent?: AdcpEventListener | undefined;
  /**
   * The MCP tool or A2A skill the poll is invoked by; default the handle's release's:
   * `get_task_status` (3.1), `tasks_get` (3.0, as the official SDK's sellers name `tasks/get`).
   */
  readonly method?: string | undefined;
  /**
   * Webhook outcomes as the receiver resolves them (`receiver.deliveries(handle)`, or your own
   * feed), in order: of those tied to the handle (which must record its `agent`), the first final
   * one ends the wait; the rest are passed over; polls go on as the fallback. Its iterator is
   * `return()`ed when the wait ends.
   */
  readonly webhooks?: AsyncIterable<WebhookDelivery> | undefined;
  /** The clock and sleep (default: `performance.now` and `setTimeout`). */
  readonly clock?: WaitClock | undefined;
  /** A number in [0, 1) for the jitter (default `Math.random`). */
  readonly random?: (() => number) | undefined;
}

/** The options a wait fills in with its defaults when the caller leaves them out. */
type Defaulted = 'intervalMs' | 'maxIntervalMs' | 'timeoutMs' | 'pollTimeoutMs' | 'maxFailures' | 'clock' | 'random';

/** The options a wait runs with as given, absent ones undefined. */
type AsGiven = Exclude<keyof WaitOptions, Defaulted | keyof PollBounds>;

/** The options as the wait runs with them: read from WaitOptions, so that a new option has one declaration; decode's resolved once for every poll. */
export type WaitSettings = { readonly [K in Defaulted]: Exclude<WaitOptions[K], undefined> } & {
  readonly [K in AsGiven]: WaitOptions[K];
} & { readonly bounds: Resolved };

/** Every option waitForTask takes, by name: its own and decode's it forwards to each poll (a type test holds it to `keyof WaitOptions`). */
export const WAIT_OPTION_KEYS = [
  'intervalMs',
  'maxIntervalMs',
  'timeoutMs',
  'pollTimeoutMs',
  'maxFailures',
  'signal',
  'onStatus',
  'onEvent',
  'method',
  'webhooks',
  'clock',
  'random',
  ...DECODE_OPTION_KEYS.filter(
    (key): key is Exclude<DecodeOptionKey, NotForPolls> =>
      key !== 'version' && key !== 'newerRelease' && key !== 'transport' && key !== 'request',
  ),
] as const satisfies readonly (keyof WaitOptions)[];

const WHO = 'waitForTask';

/** The default clock: real time. */
const REAL_CLOCK: WaitClock = {
  now: () => performance.now(),
  sleep: abortableSleep,
};

/** A wait's interval or deadline: the shared deadline rule (at least 1 ms: 0 would be a tight loop on a seller that answers `working` forever). */
function duration(name: string, value: unknown, fallback: number): number {
  return deadlineMs(name, value, { who: WHO }) ?? fallback;
}

function callback<F>(name: string, value: unknown): F | undefined {
  optionalFunction(WHO, name, value);
  return value as F | undefined;
}

/**
 * Reads waitForTask's options once.
 *
 * @param options - The caller's options.
 * @returns The settings.
 * @throws {DecodeError} `INVALID_OPTION` for an option that is wrong, or options that cannot be read.
 * @example
 * const settings = readWaitOptions({ intervalMs: 500 });
 */
export function readWaitOptions(options: WaitOptions | undefined): WaitSettings {
  try {
    const o = options ?? {};
    const intervalMs = duration('intervalMs', o.intervalMs, 2_000);
    const maxIntervalMs = duration('maxIntervalMs', o.maxIntervalMs, Math.max(60_000, intervalMs));
    if (maxIntervalMs < intervalMs) throw optionError(WHO, 'maxIntervalMs', `at least intervalMs (${intervalMs})`, maxIntervalMs);
    // Unknown names refused and decode's options resolved first: nothing after reads a name the wait ignores.
    const bounds = resolveOptions(options, { who: WHO, context: { task: WHO } }, { known: WAIT_OPTION_KEYS });
    const { maxFailures = 5, signal, method, webhooks, clock = REAL_CLOCK } = o;
    if (!Number.isInteger(maxFailures) || maxFailures < 1) throw optionError(WHO, 'maxFailures', 'a positive integer', maxFailures);
    if (signal !== undefined && !(signal instanceof AbortSignal)) throw optionError(WHO, 'signal', 'an AbortSignal', signal);
    if (method !== undefined && (typeof method !== 'string' || method.length === 0))
      throw optionError(WHO, 'method', 'a tool or skill name', method);
    if (webhooks !== undefined && typeof (webhooks as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] !== 'function')
      throw optionError(WHO, 'webhooks', 'an AsyncIterable of deliveries', webhooks);
    if (typeof clock?.now !== 'function' || typeof clock.sleep !== 'function')
      throw optionError(WHO, 'clock', '{ now(), sleep(ms, signal) }', clock);
    return {
      intervalMs,
      maxIntervalMs,
      timeoutMs: duration('timeoutMs', o.timeoutMs, 3_600_000),
      pollTimeoutMs: duration('pollTimeoutMs', o.pollTimeoutMs, 60_000),
      maxFailures,
      signal,
      onStatus: callback('onStatus', o.onStatus),
      onEvent: readListener(WHO, o.onEvent),
      method,
      webhooks,
      clock,
      random: callback<() => number>('random', o.random) ?? Math.random,
      bounds,
    };
  } catch (cause) {
    if (cause instanceof DecodeError) throw cause;
    throw unreadableOption(WHO, 'options', cause);
  }
}

/**
 * The wait before the next poll: the seller's `retry_after` when it gave one (already whole
 * seconds in [1, 3600]), else the first interval doubled per poll so far, ±25%, capped.
 *
 * @param settings - The wait's settings.
 * @param polls - Polls sent so far (at least 1).
 * @param retryAfterSeconds - The seller's `retry_after`, classified.
 * @returns Milliseconds.
 * @example
 * nextDelay(settings, 1, undefined); // about 2,000
 */
export function nextDelay(settings: WaitSettings, polls: number, retryAfterSeconds: number | undefined): number {
  if (retryAfterSeconds !== undefined) return retryAfterSeconds * 1000;
  return backoffMs(settings.intervalMs, settings.maxIntervalMs, polls, settings.random);
}
