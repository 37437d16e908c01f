/**
 * One typed call, whatever the client: encode the arguments (typed, checked, stamped, frozen),
 * send them through the caller's SDK client inside the call's bounds, and decode the answer as
 * the answer to that request. The transports (mcp/, a2a/) supply only the send: callTaskOver and
 * safeCallTaskOver build their exported functions from it.
 */

import { DEFAULT_TIMEOUT_MS, timedOut } from '../bounds/fetch-bounds.js';
import { decodeResolved, type Outcome } from '../decode/decode.js';
import type { TaskName } from '../decode/types.js';
import { attempt as encodeAttempt } from '../encode/encode.js';
import type { EncodedRequest } from '../encode/request.js';
import { DecodeError, describeThrown } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { deadlineMs, optionError, unreadableOption } from '../errors/option-rules.js';
import type { AdcpEventListener } from '../events/events.js';
import { readListener } from '../events/tell.js';
import { type ResponseHead, withObservedFetchBounds } from '../fetch/bounded-fetch.js';
import { isObject, own } from '../json/own.js';
import { DECODE_OPTION_KEYS, type DecodeOptionKey, type Resolved, resolveOptions } from '../options/resolve-options.js';
import { readRequest } from '../options/sent-request.js';
import type { Version } from '../schema/versions.js';
import { CallEvents } from './call-events.js';
import { classify } from './classify.js';
import { decodePoll, isPollMethod } from './poll-method.js';
import { type Retry, readRetry, retryDelayMs } from './retry.js';
import type { CallOptions, CallTask, SafeCallTask } from './types.js';

/** What a transport does with the encoded request: send it, and hand back the client's answer. */
export type Send = (request: EncodedRequest, signal: AbortSignal, timeoutMs: number) => Promise<unknown>;

/** How one call ended: the decoded answer, or the DecodeError that ends it; with the request sent, if any. */
type Ended =
  | { readonly ok: true; readonly outcome: Outcome<TaskName>; readonly request: EncodedRequest }
  | { readonly ok: false; readonly error: DecodeError; readonly request: EncodedRequest | undefined };

/** The call's deadline: when it started and how long it may take, retries and waits included. */
export interface Clock {
  readonly started: number;
  readonly timeoutMs: number;
}

/** What a call was given: a task and its arguments, or what encode() returned; and the options. */
interface Given {
  readonly what: { readonly task: unknown; readonly args: unknown; readonly encoded?: EncodedRequest };
  readonly options: CallOptions | undefined;
}

/** The two forms of a call: `(task, args, options?)` and `(request, options?)`. */
function given(first: unknown, second: unknown, third: unknown): Given {
  if (typeof first === 'string') return { what: { task: first, args: second }, options: third as CallOptions | undefined };
  return { what: { task: undefined, args: undefined, encoded: first as EncodedRequest }, options: second as CallOptions | undefined };
}

/** The options callTask takes of its own; decode's (but `transport` and `request`, the call's to set) are read by resolveOptions. */
const CALL_OWN_KEYS = ['timeoutMs', 'signal', 'retry', 'onEvent', 'agent'] as const satisfies readonly (keyof CallOptions)[];

/** Every option callTask takes, by name: a type test holds it to `keyof CallOptions`, so a decode option cannot be dropped on the way. */
export const CALL_OPTION_KEYS = [
  ...DECODE_OPTION_KEYS.filter((key): key is Exclude<DecodeOptionKey, 'transport' | 'request'> => key !== 'transport' && key !== 'request'),
  ...CALL_OWN_KEYS,
] as const;

/**
 * A transport's callTask: encode, send, decode; the decoded data, or the DecodeError thrown.
 *
 * @param sendOver - The transport's send over the caller's client.
 * @param who - The entry's name, for its errors (`callTask`, `streamTask`).
 * @returns callTask for that transport's client.
 * @throws Never (the call throws its own errors).
 * @example
 * export const callTask: CallTask<McpClient> = callTaskOver(sendOver);
 */
export function callTaskOver<C>(sendOver: (client: C) => Send, who = 'callTask'): CallTask<C> {
  const call = async (client: C, first: unknown, second?: unknown, third?: unknown): Promise<unknown> => {
    const { what, options } = given(first, second, third);
    const ended = await runCall(what, options, sendOver(client), CALL_OPTION_KEYS, who);
    if (!ended.ok) throw ended.error;
    return ended.outcome.data;
  };
  // runCall decodes the answer as the task's response in the version the options (or the request) speak: the type CallTask states.
  return call as CallTask<C>;
}

/**
 * A transport's safeCallTask: as {@link callTaskOver}, resolving to `{ success: true, data,
 * version, request }` or `{ success: false, error, request }`.
 *
 * @param sendOver - The transport's send over the caller's client, chosen by the call's options.
 * @param ownKeys - The names of the transport's own options (`X`: A2A's `stream`).
 * @returns safeCallTask for that transport's client.
 * @throws Never (the call rejects only with the caller's abort and what it cannot class).
 * @example
 * export const safeCallTask: SafeCallTask<McpClient> = safeCallTaskOver(sendOver);
 */
// biome-ignore lint/complexity/noBannedTypes: `{}`: no options of the transport's own
export function safeCallTaskOver<C, X = {}>(
  sendOver: (client: C, options: X | undefined) => Send,
  ownKeys: readonly (keyof X & string)[] = [],
): SafeCallTask<C, X> {
  const known = [...CALL_OPTION_KEYS, ...ownKeys];
  const call = async (client: C, first: unknown, second?: unknown, third?: unknown): Promise<unknown> => {
    const { what, options } = given(first, second, third);
    const ended = await runCall(what, options, sendOver(client, options as X | undefined), known, 'safeCallTask');
    return ended.ok
      ? { success: true, ...ended.outcome, request: ended.request }
      : { success: false, error: ended.error, request: ended.request };
  };
  // As above: the data is the task's response, the request what encode() returned for it.
  return call as SafeCallTask<C, X>;
}

/**
 * Encodes once, then sends and decodes, again on a retryable end while `retry` and the deadline
 * allow: every attempt sends the same request. Throws only the caller's abort (its reason, as is)
 * and what it cannot class; every other end is returned. With a listener, each step is told
 * (call-events.ts); without one, nothing of it runs.
 */
function runCall(
  what: Given['what'],
  options: CallOptions | undefined,
  send: Send,
  known: readonly string[],
  who = 'callTask',
): Promise<Ended> {
  const read = readCallOptions(options, known, who);
  if (read instanceof DecodeError) {
    // Options refused are an end too: told to the listener, when one can be read from them.
    const on = listenerIn(options);
    if (on !== undefined) new CallEvents(on, what, undefined, 1).ended({ ok: false, error: read, request: undefined });
    return Promise.resolve({ ok: false, error: read, request: undefined });
  }
  // Not async itself, so that a call without a listener awaits one function, as it did before events.
  if (read.onEvent === undefined) return attempts(what, read, send, who, undefined);
  return observedCall(what, read, send, who, read.onEvent);
}

/** A call told to its listener: started, each attempt (attempts), ended, with what it throws too. */
async function observedCall(what: Given['what'], read: CallSettings, send: Send, who: string, on: AdcpEventListener): Promise<Ended> {
  const events = new CallEvents(on, what, read.agent, read.retry.attempts);
  try {
    const ended = await attempts(what, read, send, who, events);
    events.ended(ended);
    return ended;
  } catch (thrown) {
    events.ended({ thrown });
    throw thrown;
  }
}

/** The call's attempts, from the encode to the last end (runCall). */
async function attempts(what: Given['what'], read: CallSettings, send: Send, who: string, events: CallEvents | undefined): Promise<Ended> {
  const { timeoutMs, signal, retry, codec } = read;
  signal?.throwIfAborted();
  const request = encodeOnce(what, codec, who);
  if (request instanceof DecodeError) return { ok: false, error: request, request: undefined };
  // The answer is judged as the answer to this request: by the release it was encoded for, unless it announces another.
  const answered: Resolved = { ...codec, request: readRequest(request, { who }) };
  const clock: Clock = { started: performance.now(), timeoutMs };
  for (let attempt = 1; ; attempt++) {
    const ended = await (events === undefined
      ? attemptOnce(request, answered, send, clock, signal)
      : observed(events, request, attempt, () => attemptOnce(request, answered, send, clock, signal)));
    if (ended.ok) return ended;
    const wait = attempt < retry.attempts ? retryDelayMs(ended.error, attempt) : undefined;
    // A wait that would end past the deadline is not started: the last end is the call's.
    if (wait === undefined || performance.now() + wait >= clock.started + clock.timeoutMs) return ended;
    events?.retry(ended.error, attempt + 1, wait);
    await retry.sleep(wait, signal ?? NEVER);
    signal?.throwIfAborted();
  }
}

/** One attempt, told as it starts and as it ends (what it throws too). */
async function observed(events: CallEvents, request: EncodedRequest, attempt: number, run: () => Promise<Ended>): Promise<Ended> {
  events.attemptStarted(request, attempt);
  try {
    const ended = await run();
    events.attemptEnded(request, ended);
    return ended;
  } catch (thrown) {
    events.attemptEnded(request, { thrown });
    throw thrown;
  }
}

/** The listener in options that were refused, if one can be read from them without throwing. */
function listenerIn(options: unknown): AdcpEventListener | undefined {
  try {
    const on = isObject(options) ? own(options, 'onEvent') : undefined;
    return typeof on === 'function' ? (on as AdcpEventListener) : undefined;
  } catch {
    return undefined;
  }
}

/** A signal that never aborts, for the waits of a call without one. */
const NEVER = new AbortController().signal;

/**
 * The request to send: `args` encoded, or an encoded request checked again (a hand-built one is
 * checked as encode would), in its own version; a `version` option naming another is the caller's contradiction.
 */
function encodeOnce(what: Given['what'], codec: Resolved, who: string): EncodedRequest | DecodeError {
  let { task, args } = what;
  let resolved = codec;
  if (what.encoded !== undefined) {
    let version: unknown;
    try {
      ({ task, args, version } = what.encoded);
    } catch (cause) {
      return new DecodeError('INVALID_INPUT', `expected what encode() returned; reading the request threw ${describeThrown(cause)}`, {
        cause,
      });
    }
    if (typeof version === 'string' && version !== codec.version) {
      if (codec.version !== 'auto')
        return optionError(who, 'version', `left out or the request's ${shownText(version, 32)}`, codec.version, { task: String(task) });
      resolved = { ...codec, version: version as Version };
    }
  }
  return encodeAttempt(() => resolved, task, args);
}

/**
 * One send within what remains of the clock: what the client threw classed (an answer to decode,
 * or the attempt's end), and the deadline and the caller's signal checked once it resolved.
 * Throws only the caller's abort and what cannot be classed.
 * @internal Shared with waitForTask's polls (wait.ts).
 */
export async function sendOnce(
  request: EncodedRequest,
  send: Send,
  clock: Clock,
  signal: AbortSignal | undefined,
): Promise<{ readonly answer: unknown } | { readonly error: DecodeError }> {
  const task = request.task;
  let head: ResponseHead | undefined;
  let answer: unknown;
  try {
    answer = await bounded(
      (s, ms) => send(request, s, ms),
      clock,
      signal,
      task,
      (seen) => {
        head = seen;
      },
    );
  } catch (thrown) {
    if (signal?.aborted === true) throw signal.reason;
    const classed = classify(thrown, head, { task, version: request.version });
    if (classed.kind === 'rethrow') throw thrown;
    if (classed.kind === 'error') return { error: classed.error };
    answer = classed.answer;
  }
  const early = late(clock, signal, task);
  return early === undefined ? { answer } : { error: early };
}

/**
 * One attempt: the send (sendOnce); the decode, a poll method's as a poll; and the deadline and
 * the caller's signal checked after it, so that a late answer is a TIMEOUT.
 */
async function attemptOnce(
  request: EncodedRequest,
  answered: Resolved,
  send: Send,
  clock: Clock,
  signal: AbortSignal | undefined,
): Promise<Ended> {
  const sent = await sendOnce(request, send, clock, signal);
  if ('error' in sent) return { ok: false, error: sent.error, request };
  const task = request.task;
  const outcome = isPollMethod(task) ? decodePoll(sent.answer, answered) : decodeResolved(task as TaskName, sent.answer, answered);
  const after = late(clock, signal, task);
  if (after !== undefined) return { ok: false, error: after, request };
  return outcome instanceof DecodeError ? { ok: false, error: outcome, request } : { ok: true, outcome, request };
}

/** The caller's abort, thrown; or the TIMEOUT of a call past its deadline (work that ran on past it, a fold or a decode, included). */
function late(clock: Clock, signal: AbortSignal | undefined, task: string): DecodeError | undefined {
  signal?.throwIfAborted();
  if (performance.now() - clock.started <= clock.timeoutMs) return undefined;
  return timedOut(`the ${task} answer`, clock.timeoutMs, clock.started);
}

/** The call's options, read once: decode's resolved (the codec, passed on to encode and decode) and the call's own. */
interface CallSettings {
  readonly codec: Resolved;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly retry: Retry;
  readonly onEvent: AdcpEventListener | undefined;
  readonly agent: string | undefined;
}

function readCallOptions(options: CallOptions | undefined, known: readonly string[], who: string): CallSettings | DecodeError {
  const owner = { who };
  try {
    const codec = resolveOptions(options, owner, { known });
    if (options === undefined)
      return {
        codec,
        timeoutMs: DEFAULT_TIMEOUT_MS,
        signal: undefined,
        retry: readRetry(undefined, who),
        onEvent: undefined,
        agent: undefined,
      };
    const { timeoutMs, signal, retry, onEvent, agent } = options;
    if (signal !== undefined && !(signal instanceof AbortSignal)) return optionError(who, 'signal', 'an AbortSignal', signal);
    if (agent !== undefined && (typeof agent !== 'string' || agent.length === 0))
      return optionError(who, 'agent', "the seller agent's URL", agent);
    return {
      codec,
      timeoutMs: deadlineMs('timeoutMs', timeoutMs, owner) ?? DEFAULT_TIMEOUT_MS,
      signal,
      retry: readRetry(retry, who),
      onEvent: readListener(who, onEvent),
      agent,
    };
  } catch (cause) {
    if (cause instanceof DecodeError) return cause;
    return unreadableOption(who, 'options', cause);
  }
}

/**
 * Runs the send inside what remains of the call's deadline: every bounded fetch it makes is held
 * to it and fails the attempt the moment a bound trips (withFetchBounds), the attempt as a whole
 * ends with a TIMEOUT even when the client's fetch is not a bounded one, and the head of every
 * refusal a bounded fetch receives is told to `onRefusal`. The deadline and the caller's abort end
 * the scope itself: one signal per attempt, none combined.
 */
async function bounded<T>(
  send: (signal: AbortSignal, timeoutMs: number) => Promise<T>,
  clock: Clock,
  signal: AbortSignal | undefined,
  task: string,
  onRefusal: (head: ResponseHead) => void,
): Promise<T> {
  signal?.throwIfAborted();
  const remaining = Math.ceil(clock.started + clock.timeoutMs - performance.now());
  if (remaining <= 0) throw timedOut(`the ${task} answer`, clock.timeoutMs, clock.started);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await withObservedFetchBounds(
      { timeoutMs: remaining },
      (scoped, end) => {
        timer = setTimeout(() => end(timedOut(`the ${task} answer`, clock.timeoutMs, clock.started)), remaining);
        // The caller's abort rejects with its reason (a client may not heed the signal); the listener goes
        // with the call, since the caller's signal may outlive many calls and each would leave one behind.
        onAbort = () => end(signal?.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
        return send(scoped, remaining);
      },
      onRefusal,
    );
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  }
}
