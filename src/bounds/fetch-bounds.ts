/**
 * The limits of a bounded fetch: their types and defaults, where a caller sets them, how they are
 * checked, and the LimitError a response that breaks one fails with.
 */
import { limitOption } from './bounds.js';
import { LimitError } from '../errors/errors.js';
import { optionError } from '../errors/option-error.js';

/** Default cap on a response body, in bytes: the spec's recommended client safety limit for one MCP message, 4 MiB (decode's own text limit is its `maxBytes` option). */
export const DEFAULT_MAX_BYTES = 4_194_304;

/**
 * The default deadline for a whole response, in ms: 60 s, the same as the MCP SDK's default request
 * timeout, so a call the SDK would still wait for is not cut short. Raise it per call for long tools.
 */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Largest delay `setTimeout` honours; longer deadlines are re-armed in steps. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Limits for a bounded fetch. Absent fields fall back (per call → scope → instance → default). */
export interface FetchBounds {
  /**
   * Bytes: the whole body of a non-SSE response, one SSE event, and the cumulative bytes of one
   * request's SSE stream(s). Raw and decoded bytes are the same bytes (requests ask for identity encoding).
   * A positive safe integer, or `Infinity` to lift the cap.
   */
  readonly maxBytes?: number | undefined;
  /** Deadline for the whole response (headers + body), in ms. A positive number up to 2^31 - 1. */
  readonly timeoutMs?: number | undefined;
}

/**
 * Key of the per-call bounds in a request's `init`, for direct callers:
 * `fetch(url, { method: 'POST', [FETCH_BOUNDS]: { maxBytes: 16_000_000 } })`. It is removed before the
 * underlying fetch sees the init. (The MCP SDK builds its own init per request, so with the SDK use
 * {@link withFetchBounds} instead.)
 */
export const FETCH_BOUNDS: unique symbol = Symbol.for('adcp-decode.fetch-bounds');

/** A `RequestInit` that may carry per-call bounds under {@link FETCH_BOUNDS}. */
export type BoundedRequestInit = RequestInit & { readonly [FETCH_BOUNDS]?: FetchBounds | undefined };
/**
 * Checks limits given by a caller.
 *
 * @param bounds - The limits, any field absent.
 * @param where - Who was given them, for the message: `boundedFetch`.
 * @returns The two limits, nothing else of the object.
 * @throws {DecodeError} `INVALID_OPTION` when a limit is not positive (maxBytes a safe integer or Infinity, timeoutMs a number up to 2^31 - 1).
 * @example
 * checkBounds({ maxBytes: 1024 }, 'boundedFetch'); // { maxBytes: 1024, timeoutMs: undefined }
 */
export function checkBounds(bounds: FetchBounds, where: string): FetchBounds {
  const maxBytes = limitOption('maxBytes', bounds.maxBytes, { zero: false, of: where });
  return { maxBytes, timeoutMs: timeoutOption(bounds.timeoutMs, where) };
}

/**
 * The one rule for a deadline a caller sets on a whole response (the bounded fetch's, callTask's):
 * a positive number of ms that a timer can hold.
 *
 * @param value - What the caller passed; `undefined` is "not set".
 * @param where - Whose option it is, for the message (`boundedFetch`); `undefined` for a call's own.
 * @returns The deadline, or `undefined` when not set.
 * @throws {DecodeError} `INVALID_OPTION` for anything else.
 * @example
 * timeoutOption(0, 'boundedFetch'); // throws INVALID_OPTION: option timeoutMs of boundedFetch must be a positive number of ms up to 2147483647; got 0
 */
export function timeoutOption(value: unknown, where: string | undefined): number | undefined {
  if (value === undefined || (typeof value === 'number' && value > 0 && value <= MAX_TIMER_MS)) return value;
  const whose = where === undefined ? '' : ` of ${where}`;
  throw optionError(undefined, `timeoutMs${whose}`, `a positive number of ms up to ${MAX_TIMER_MS}`, value);
}
/** The TOO_LARGE of a body, an event or a stream that passed its byte limit while arriving. */
export function tooLarge(what: string, limit: number, actual: number): LimitError {
  return new LimitError(
    'TOO_LARGE',
    `expected ${what} of at most ${limit} bytes, but ${actual} bytes arrived; the response was aborted, not truncated`,
    { unit: 'bytes', limit, actual },
  );
}
/** The TIMEOUT of a response or an event still incomplete at its deadline. */
export function timedOut(what: string, limit: number, startedAt: number): LimitError {
  const actual = Math.floor(performance.now() - startedAt);
  return new LimitError('TIMEOUT', `expected ${what} within ${limit} ms, but it was still incomplete after ${actual} ms; aborted`, {
    unit: 'ms',
    limit,
    actual,
  });
}
