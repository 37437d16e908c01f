/**
 * Option `retry` of callTask: which ends of an attempt the spec calls retryable, and how long to
 * wait before resending the same request (error-handling.mdx, "Retry Logic"; security.mdx, "Buyer
 * obligations"): a dropped connection or a timeout, a 5xx, `IDEMPOTENCY_IN_FLIGHT`, a `transient`
 * error; the seller's `retry_after` when it gave one (already rounded up and clamped to [1, 3600]
 * s), else exponential backoff from 2 s, doubling, ±25% jitter, at most 60 s. Never a
 * `correctable` or `terminal` error, never the caller's own (a refused request, an option).
 */
import { type DecodeError, LimitError, TaskFailedError } from '../errors/errors.js';
import { knownOptions, optionalFunction, optionError } from '../errors/option-rules.js';
import { backoffMs, abortableSleep as sleep } from './backoff.js';
import { TransportError } from './transport-error.js';
import type { RetryOptions } from './types.js';

/** Most attempts a call may make (the spec's example ceiling is 3; 10 leaves room, never an unbounded loop). */
const MAX_ATTEMPTS = 10;

/** The backoff's first delay and its cap (error-handling.mdx's "safe default"). */
const BACKOFF_BASE_MS = 2000;
const BACKOFF_CAP_MS = 60_000;

/** The retry policy of one call. */
export interface Retry {
  readonly attempts: number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** No retry: one attempt. */
const ONCE: Retry = { attempts: 1, sleep };

/** The names option `retry` takes (a type test holds it to `keyof RetryOptions`). */
export const RETRY_OPTION_KEYS = ['attempts', 'sleep'] as const satisfies readonly (keyof RetryOptions)[];

/**
 * Option `retry` read and checked.
 *
 * @param value - The option as given.
 * @param who - The entry given it (`callTask`, `safeCallTask`), named in the error.
 * @returns The policy.
 * @throws {DecodeError} `INVALID_OPTION` for anything but `{ attempts: 1..10, sleep?: function }`, a name besides them included.
 * @example
 * readRetry({ attempts: 3 }, 'callTask'); // { attempts: 3, sleep }
 */
export function readRetry(value: RetryOptions | undefined, who: string): Retry {
  if (value === undefined) return ONCE;
  knownOptions(who, value, RETRY_OPTION_KEYS, undefined, 'retry');
  const { attempts, sleep: given } = value;
  if (!Number.isInteger(attempts) || attempts < 1 || attempts > MAX_ATTEMPTS)
    throw optionError(who, 'retry.attempts', `an integer from 1 to ${MAX_ATTEMPTS}`, attempts);
  optionalFunction(who, 'retry.sleep', given);
  return { attempts, sleep: given ?? sleep };
}

/**
 * The seconds the seller asked to wait before a retry (`null`: retryable, no delay asked), or
 * `undefined` for an end that is not retried.
 */
function retryableAfter(error: DecodeError): number | null | undefined {
  if (error instanceof TransportError || error instanceof TaskFailedError) {
    if (error instanceof TaskFailedError && error.known?.code === 'IDEMPOTENCY_IN_FLIGHT') return error.known.retryAfterSeconds ?? null;
    return error.recovery.recovery === 'transient' ? (error.recovery.retryAfterSeconds ?? null) : undefined;
  }
  // A timeout: the call's own deadline is checked by the caller of this; a shorter one (the SDK's) leaves time.
  return error instanceof LimitError && error.code === 'TIMEOUT' ? null : undefined;
}

/**
 * How long to wait before retry number `retry`, or `undefined` when `error` is not retried.
 *
 * @param error - How the last attempt ended.
 * @param retry - Which retry this would be: 1 for the first.
 * @param random - A number in [0, 1) for the jitter.
 * @returns The delay in ms, or `undefined`.
 * @throws Never.
 * @example
 * retryDelayMs(rateLimited, 1, Math.random); // 5000 for retry_after: 5
 */
export function retryDelayMs(error: DecodeError, retry: number, random: () => number = Math.random): number | undefined {
  const after = retryableAfter(error);
  if (after === undefined) return undefined;
  if (after !== null) return after * 1000;
  return backoffMs(BACKOFF_BASE_MS, BACKOFF_CAP_MS, retry, random);
}
