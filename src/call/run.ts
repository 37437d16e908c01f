/**
 * One typed call, whatever the client: encode the arguments (typed, checked, stamped, frozen),
 * send them through the caller's SDK client inside the call's bounds, and decode the answer as
 * the answer to that request. The transports (mcp/, a2a/) supply only the send: callTaskOver and
 * safeCallTaskOver build their exported functions from it.
 */
import { attempt as decodeAttempt, type Outcome } from '../decode/decode.js';
import type { TaskName } from '../decode/types.js';
import { attempt as encodeAttempt } from '../encode/encode.js';
import type { EncodedRequest } from '../encode/request.js';
import { resolveOptions } from '../encode/resolve-options.js';
import { DecodeError, describeThrown, describeValue } from '../errors/errors.js';
import { DEFAULT_TIMEOUT_MS, timedOut, timeoutOption } from '../bounds/fetch-bounds.js';
import { withFetchBounds } from '../fetch/bounded-fetch.js';
import { decodePoll, isPollMethod } from './poll-method.js';
import type { CallOptions, CallTask, SafeCallTask } from './types.js';

/** What a transport does with the encoded request: send it, and hand back the client's answer. */
export type Send = (request: EncodedRequest, signal: AbortSignal, timeoutMs: number) => Promise<unknown>;

/**
 * Whether an error the client threw is the seller's answer: a JSON-RPC error the SDK (MCP's or
 * A2A's) built from the response, or the MCP SDK's own request timeout, which decode() tells
 * apart; an Error with an integer `code`. Anything else (a refused connection, the caller's
 * abort) is no answer to decode.
 * @internal Shared with waitForTask's polls (wait.ts).
 */
export function isJsonRpcError(thrown: unknown): boolean {
  return thrown instanceof Error && Number.isInteger((thrown as { code?: unknown }).code);
}

/** The outcome of one call: the decoded answer and the request sent, or the DecodeError that ends it. */
type CallOutcome = (Outcome<TaskName> & { readonly request: EncodedRequest }) | DecodeError;

/**
 * A transport's callTask: encode, send, decode; the decoded data, or the DecodeError thrown.
 *
 * @param sendOver - The transport's send over the caller's client.
 * @returns callTask for that transport's client.
 * @throws Never (the call throws its own errors).
 * @example
 * export const callTask: CallTask<McpClient> = callTaskOver(sendOver);
 */
export function callTaskOver<C>(sendOver: (client: C) => Send): CallTask<C> {
  const call = async (client: C, task: string, args: unknown, options?: CallOptions): Promise<unknown> => {
    const outcome = await runCall(task, args, options, sendOver(client));
    if (outcome instanceof DecodeError) throw outcome;
    return outcome.data;
  };
  // runCall decodes the answer as `task`'s response in the version `options` speak: the type CallTask states.
  return call as CallTask<C>;
}

/**
 * A transport's safeCallTask: as {@link callTaskOver}, resolving to `{ success: true, data,
 * version, request }` or `{ success: false, error }`.
 *
 * @param sendOver - The transport's send over the caller's client, chosen by the call's options.
 * @returns safeCallTask for that transport's client.
 * @throws Never (the call rejects only with what is no answer).
 * @example
 * export const safeCallTask: SafeCallTask<McpClient> = safeCallTaskOver(sendOver);
 */
// biome-ignore lint/complexity/noBannedTypes: `{}`: no options of the transport's own
export function safeCallTaskOver<C, X = {}>(sendOver: (client: C, options: X | undefined) => Send): SafeCallTask<C, X> {
  const call = async (client: C, task: string, args: unknown, options?: CallOptions & X): Promise<unknown> => {
    const outcome = await runCall(task, args, options, sendOver(client, options));
    return outcome instanceof DecodeError ? { success: false, error: outcome } : { success: true, ...outcome };
  };
  // As above: the data is `task`'s response, the request what encode() returned for `args`.
  return call as SafeCallTask<C, X>;
}

/**
 * Encodes, sends and decodes one call. Throws only what is no answer (the caller's abort, a
 * failure of the connection, as the client threw it); every other end is returned.
 */
async function runCall(task: string, args: unknown, options: CallOptions | undefined, send: Send): Promise<CallOutcome> {
  const read = readCallOptions(options);
  if (read instanceof DecodeError) return read;
  const { timeoutMs, signal, ...codec } = read;
  const request = encodeAttempt(() => resolveOptions(undefined, codec), task, args);
  if (request instanceof DecodeError) return request;
  let answer: unknown;
  try {
    answer = await bounded((s) => send(request, s, timeoutMs), timeoutMs, signal, task);
  } catch (thrown) {
    if (!(thrown instanceof DecodeError) && !isJsonRpcError(thrown)) throw thrown;
    answer = thrown; // decode() returns a DecodeError as it is, and reads the seller's JSON-RPC error
  }
  const outcome = isPollMethod(task)
    ? decodePoll(answer, codec)
    : decodeAttempt(undefined, task as TaskName, answer, { ...codec, request });
  return outcome instanceof DecodeError ? outcome : { ...outcome, request };
}

/** The options read once, split into the codec's (passed on to encode and decode) and the call's own. */
function readCallOptions(options: CallOptions | undefined): (CallOptions & { timeoutMs: number }) | DecodeError {
  if (options === undefined) return { timeoutMs: DEFAULT_TIMEOUT_MS };
  try {
    const { version, newerRelease, maxBytes, maxDepth, maxNodes, unknownRecovery, timeoutMs, signal } = options;
    const deadline = timeoutOption(timeoutMs, undefined) ?? DEFAULT_TIMEOUT_MS;
    if (signal !== undefined && !(signal instanceof AbortSignal))
      return new DecodeError('INVALID_OPTION', `option signal must be an AbortSignal; got ${describeValue(signal)}`);
    return { version, newerRelease, maxBytes, maxDepth, maxNodes, unknownRecovery, timeoutMs: deadline, signal };
  } catch (cause) {
    if (cause instanceof DecodeError) return cause;
    return new DecodeError('INVALID_OPTION', `the options could not be read: ${describeThrown(cause)} thrown`, { cause });
  }
}

/**
 * Runs the send inside the call's bounds: every bounded fetch it makes is held to `timeoutMs` and
 * fails the call the moment a bound trips (withFetchBounds), and the call as a whole ends at
 * `timeoutMs` with a TIMEOUT even when the client's fetch is not a bounded one.
 * @internal Shared with waitForTask's polls (wait.ts).
 */
export async function bounded<T>(
  send: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  task: string,
): Promise<T> {
  signal?.throwIfAborted();
  const started = performance.now();
  const deadline = new AbortController();
  let expire: (reason: unknown) => void = () => undefined;
  const expired = new Promise<never>((_, reject) => {
    expire = reject;
  });
  expired.catch(() => undefined);
  const timer = setTimeout(() => {
    const error = timedOut(`the ${task} answer`, timeoutMs, started);
    expire(error);
    deadline.abort(error);
  }, timeoutMs);
  // The caller's abort rejects with its reason (a client may not heed the signal); the listener goes
  // with the call, since the caller's signal may outlive many calls and each would leave one behind.
  const onAbort = () => expire(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await withFetchBounds({ timeoutMs }, (fetchSignal) => {
      const signals = signal === undefined ? [fetchSignal, deadline.signal] : [fetchSignal, deadline.signal, signal];
      return Promise.race([send(AbortSignal.any(signals)), expired]);
    });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
