/**
 * The limits of a bounded fetch: their types and defaults, where a caller sets them, how they are
 * checked, and the LimitError a response that breaks one fails with.
 */

import { LimitError } from '../errors/errors.js';
import { byteLimit, deadlineMs, knownOptions } from '../errors/option-rules.js';
import { DEFAULT_BOUNDS } from './bounds.js';

/** Default cap on a response body, in bytes: the spec's recommended client safety limit for one MCP message, 4 MiB (decode's own text limit is its `maxBytes` option). */
export const DEFAULT_MAX_BYTES = DEFAULT_BOUNDS.maxBytes;

/**
 * The default deadline for a whole response, in ms: 60 s, the same as the MCP SDK's default request
 * timeout, so a call the SDK would still wait for is not cut short. Raise it per call for long tools.
 */
export const DEFAULT_TIMEOUT_MS = 60_000;

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

/** The bounds' names: what withFetchBounds and a call's {@link FETCH_BOUNDS} take (a type test holds it to `keyof FetchBounds`). */
export const FETCH_BOUNDS_KEYS = ['maxBytes', 'timeoutMs'] as const satisfies readonly (keyof FetchBounds)[];

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
 * Checks limits given by a caller, and that they name no option the caller does not take.
 *
 * @param bounds - The limits, any field absent.
 * @param where - Who was given them, for the message: `boundedFetch`.
 * @param known - Every option name the caller takes (default the bounds' own, {@link FETCH_BOUNDS_KEYS}).
 * @returns The two limits, nothing else of the object.
 * @throws {DecodeError} `INVALID_OPTION` when a limit breaks its rule (errors/option-rules.ts: byteLimit, deadlineMs), or a name is not in `known`.
 * @example
 * checkBounds({ maxBytes: 1024 }, 'boundedFetch'); // { maxBytes: 1024, timeoutMs: undefined }
 */
export function checkBounds(bounds: FetchBounds, where: string, known: readonly string[] = FETCH_BOUNDS_KEYS): FetchBounds {
  knownOptions(where, bounds, known);
  return {
    maxBytes: byteLimit('maxBytes', bounds.maxBytes, { who: where }),
    timeoutMs: deadlineMs('timeoutMs', bounds.timeoutMs, { who: where }),
  };
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
