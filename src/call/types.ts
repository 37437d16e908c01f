/**
 * The public types of callTask (adcp-decode/mcp, adcp-decode/a2a): its options, the task and
 * arguments it takes in the version it speaks, and what it returns, typed by the task's response.
 */

import type { PolledTask } from '../decode/polling.js';
import type { DecodeOptions, Pinning, ResponseIn, VersionFor, VersionOption } from '../decode/types.js';
import type { EncodedRequest, Frozen } from '../encode/request.js';
import type { Encoded, EncodeVersionFor, RequestIn, RequestTask } from '../encode/types.js';
import type { DecodeError } from '../errors/errors.js';
import type { AdcpEventListener } from '../events/events.js';
import type { Version } from '../schema/versions.js';
import type { PollMethod } from './poll-method.js';

/**
 * Option `retry`: resend the same request (same bytes, same `idempotency_key`) on what the spec
 * calls retryable, within `attempts` and the call's `timeoutMs`. docs/calling.md, "Retrying a call".
 */
export interface RetryOptions {
  /** How many attempts in all, the first included: an integer from 1 (no retry) to 10. */
  readonly attempts: number;
  /**
   * The wait before a retry (default: a timer): resolve after `ms`, or reject with the signal's
   * reason when it aborts. For tests, or to run the waits on a scheduler of your own.
   */
  readonly sleep?: ((ms: number, signal: AbortSignal) => Promise<void>) | undefined;
}

/**
 * Options of callTask: the version to speak and judge by, decode's bounds (which bound encode's
 * request too), and the call's deadline. The request the answer answers is the one callTask sent.
 */
export interface CallOptions<V extends VersionOption | undefined = VersionOption | undefined>
  extends Omit<DecodeOptions<V>, 'transport' | 'request'> {
  /**
   * Deadline for the whole call, retries and their waits included, in ms (default 60,000, the MCP
   * SDK's own): the SDK's request `timeout` and the deadline of every bounded fetch the call makes
   * (adcp-decode/fetch) get what remains of it. Past it the call fails with a `LimitError`
   * `TIMEOUT`, never the seller's failure, even when an answer arrives late.
   */
  readonly timeoutMs?: number | undefined;
  /** Your own abort: the call stops and rejects with the signal's reason, as is. */
  readonly signal?: AbortSignal | undefined;
  /** Resend the same request on what is retryable: see {@link RetryOptions}. Default: one attempt. */
  readonly retry?: RetryOptions | undefined;
  /**
   * Told each step of the call as it happens: started, each attempt started and ended (with its
   * refusal), each retry, ended. What it throws never changes the call. docs/observability.md.
   */
  readonly onEvent?: AdcpEventListener | undefined;
  /** The seller agent's URL, as the events name the seller (the call takes a client, which does not say it). */
  readonly agent?: string | undefined;
}

/** A task callTask can call in the version the options speak. */
export type CallTaskName<O> = RequestTask<EncodeVersionFor<O>>;

/**
 * What callTask takes for task `T`: the task's request type, in the version the options speak;
 * read-only members accepted, so a frozen request's `args` (what encode() returned) passes as is.
 */
export type CallArgs<T extends string, O> = Frozen<RequestIn<T, EncodeVersionFor<O>>>;

/** The options of a call given an encoded request of version `V`: its version is the request's. */
export type RequestOptions<O, V extends Version> = Omit<O, 'version'> & { readonly version: V };

/**
 * What callTask resolves to: the task's response (sync, or an async variant narrowable on
 * `status`); for 3.0's poll `tasks/get`, the polled task as decodeTaskStatus returns it.
 */
export type Called<T extends string, O> = T extends PollMethod ? PolledTask : ResponseIn<T, VersionFor<O>>;

/**
 * What safeCallTask resolves to: the response and the version that judged it, with the request
 * that was sent (resend it as is on a network retry; it ties a later poll or webhook to this call).
 * A `submitted` / `working` answer gives a typed task handle (`taskHandle`).
 */
export type SafeCallResult<T extends string, O> =
  | {
      readonly success: true;
      readonly data: Called<T, O>;
      readonly version: VersionFor<O>;
      readonly request: Encoded<T, O>;
      /** The seller answered from its idempotency cache: the data is a historical snapshot. */
      readonly replayed?: true;
      /** The newer release the answer announced, judged by `version` in its place. */
      readonly standInFor?: string;
    }
  | {
      readonly success: false;
      /** A `TransportError` for an HTTP refusal or a failed connection; a `TaskFailedError` for the seller's own failure; ... */
      readonly error: DecodeError;
      /** The request sent (what a retry resends), whatever the end; `undefined` only when nothing was sent (arguments or options refused). */
      readonly request: Encoded<T, O> | undefined;
    };

/**
 * The one signature of every callTask variant, over the transport's client `C` and options of its
 * own `X`: `args` typed by the task's request schema in the version the options speak, the answer
 * by the task's response; `Safe` resolves to a {@link SafeCallResult} instead of throwing. No
 * options speak the default version and decode as 'auto' does, as `CallOptions` with none set.
 */
interface CallSignature<C, X, Safe extends boolean> {
  <T extends CallTaskName<Pinning<W>>, const W extends VersionOption | undefined = undefined>(
    client: C,
    task: T,
    args: CallArgs<T, Pinning<W>>,
    options?: CallOptions<W> & X,
  ): Promise<Safe extends true ? SafeCallResult<T, Pinning<W>> : Called<T, Pinning<W>>>;
  /** What encode() returned, sent as is (checked again): the version is the request's; `options.version`, when given, must agree. */
  <T extends string, V extends Version>(
    client: C,
    request: EncodedRequest<T, V, Frozen<RequestIn<T, V>>>,
    options?: CallOptions & X,
  ): Promise<Safe extends true ? SafeCallResult<T, Pinning<V>> : Called<T, Pinning<V>>>;
}

/** callTask (and A2A's streamTask) over client `C`: resolves to the task's response, or throws. */
// biome-ignore lint/complexity/noBannedTypes: `{}`: no options of the transport's own
export type CallTask<C> = CallSignature<C, {}, false>;

/** safeCallTask over client `C`, with the transport's own options `X` (A2A's `stream`). */
// biome-ignore lint/complexity/noBannedTypes: as above
export type SafeCallTask<C, X = {}> = CallSignature<C, X, true>;
