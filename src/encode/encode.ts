/**
 * encode(): the one call between a buyer's arguments and what it sends. It reads them once into
 * a bounded copy, stamps the release it speaks (`adcp_version`, `adcp_major_version`, where the
 * task's request schema defines them), checks the copy against the task's request schema with
 * the ahead-of-time compiled validator, and returns it frozen: the request to send, and to resend
 * as is on a network retry. A refusal is a RequestError (`INVALID_REQUEST`): the caller's to fix.
 */
import { DecodeError, describeThrown } from '../errors/errors.js';
import { type Resolved, resolveOptions } from '../options/resolve-options.js';
import type { Pinning, VersionOption } from '../options/version-option.js';
import { defaultVersion, type Version } from '../schema/versions.js';
import { checkedRequest } from './checked-request.js';
import type { EncodedRequest } from './request.js';
import type { Encoded, EncodeOptions, Encoder, EncodeVersionFor, RequestIn, RequestTask, SafeEncodeResult } from './types.js';

/**
 * Checks a buyer's arguments for `task` against its request schema, stamps the version fields the
 * release defines, and returns the frozen request to send; or throws.
 *
 * @param task An AdCP task name, e.g. `'create_media_buy'`.
 * @param args The arguments, typed by the task's request schema; read once, never kept or changed.
 * @param options `version` (default: the default version) and the bounds (`maxBytes`, `maxDepth`, `maxNodes`).
 * @returns `{ task, version, release, args }`, deeply frozen: `args` is what to send, and what a
 *   network retry resends unchanged (same bytes, same `idempotency_key`).
 * @throws {RequestError} `INVALID_REQUEST`: the schema refuses `args` (`issues`; a missing or
 *   malformed `idempotency_key` is named first), a version field contradicts the pin, a bound is
 *   passed, or `args` is not JSON data.
 * @throws {DecodeError} `UNKNOWN_TASK`, `INVALID_OPTION`, `UNSUPPORTED_VERSION`; `INTERNAL` for a defect or a validator not preloaded.
 * @example
 * const request = encode('create_media_buy', { ...plan, idempotency_key: newIdempotencyKey() });
 * const result = await client.callTool({ name: request.task, arguments: request.args });
 */
export function encode<T extends RequestTask<EncodeVersionFor<Pinning<V>>>, const V extends VersionOption | undefined = undefined>(
  task: T,
  args: RequestIn<T, EncodeVersionFor<Pinning<V>>>,
  options?: EncodeOptions<V>,
): Encoded<T, Pinning<V>> {
  return orThrow(attempt(() => resolveOptions(options, { who: 'encode' }, { known: ENCODE_OPTION_KEYS }), task, args)) as Encoded<
    T,
    Pinning<V>
  >;
}

/**
 * Like {@link encode}, but never throws: returns `{ success: true, data }` or `{ success: false, error }`.
 *
 * @example
 * const r = safeEncode('get_products', { buying_mode: 'brief', brief });
 * if (r.success) send(r.data); else log(formatIssues(r.error));
 */
export function safeEncode<T extends RequestTask<EncodeVersionFor<Pinning<V>>>, const V extends VersionOption | undefined = undefined>(
  task: T,
  args: RequestIn<T, EncodeVersionFor<Pinning<V>>>,
  options?: EncodeOptions<V>,
): SafeEncodeResult<T, Pinning<V>> {
  return asResult(
    attempt(() => resolveOptions(options, { who: 'safeEncode' }, { known: ENCODE_OPTION_KEYS }), task, args),
  ) as SafeEncodeResult<T, Pinning<V>>;
}

/** The options encode takes, by name (decode's bounds and version; a decoder's other options stay with its decode). */
export const ENCODE_OPTION_KEYS = ['version', 'maxBytes', 'maxDepth', 'maxNodes'] as const satisfies readonly (keyof EncodeOptions)[];

/**
 * encode and safeEncode with a decoder's resolved defaults bound (createDecoder: one object per
 * seller agent holds the pin and the bounds for both directions); a call's options resolve over them.
 *
 * @param defaults The decoder's options, resolved.
 * @returns The encoder half of the decoder.
 * @throws Never (the calls return or throw their errors).
 * @example
 * return { decode, safeDecode, ...encoderOver(defaults) };
 */
export function encoderOver<B extends EncodeOptions>(defaults: Resolved): Encoder<B> {
  return encodersWith(
    (call, who) => () => (call === undefined ? defaults : resolveOptions(call, { who }, { over: defaults, known: ENCODE_OPTION_KEYS })),
  );
}

/**
 * encode and safeEncode over the options each call resolves to: the encoder half of a decoder
 * (encoderOver) and of a pinned decoder (pinnedEncoder), typed by the interface it is returned as.
 *
 * @param resolved The call's options, resolved (over the encoder's, checked) when the attempt runs.
 * @returns The two functions.
 * @throws Never (encode throws its errors, safeEncode returns them).
 * @example
 * return encodersWith((call, who) => () => resolveOptions(call, { who }, { over: defaults }));
 */
export function encodersWith(resolved: (call: unknown, who: 'encode' | 'safeEncode') => () => Resolved) {
  // `never`: the request is the one encode() checked for `task` in the version `call` speaks, as
  // Encoder and PinnedEncoder type it per task, which these untyped arrows cannot name.
  return {
    encode: (task: string, args: unknown, call?: EncodeOptions): never => orThrow(attempt(resolved(call, 'encode'), task, args)) as never,
    safeEncode: (task: string, args: unknown, call?: EncodeOptions): never =>
      asResult(attempt(resolved(call, 'safeEncode'), task, args)) as never,
  };
}

/** encode()'s end of an attempt: the request, or the error thrown. */
function orThrow(outcome: EncodedRequest | DecodeError): EncodedRequest {
  if (outcome instanceof DecodeError) throw outcome;
  return outcome;
}

/** safeEncode()'s end of an attempt: `{ success: true, data }` or `{ success: false, error }`. */
function asResult(
  outcome: EncodedRequest | DecodeError,
): { readonly success: true; readonly data: EncodedRequest } | { readonly success: false; readonly error: DecodeError } {
  return outcome instanceof DecodeError ? { success: false, error: outcome } : { success: true, data: outcome };
}

/** The version encode() speaks under resolved options: `'auto'` speaks the default version. */
function spoken(options: Resolved): Version {
  return options.version === 'auto' ? defaultVersion : options.version;
}

/**
 * One encode as a result: the request, or the DecodeError that ends it (only the public wrappers
 * throw). The options are resolved inside, so that an invalid option is returned too.
 *
 * @param options Resolves the call's options (merged with an encoder's), or throws INVALID_OPTION.
 * @param task The task the caller named.
 * @param args The caller's arguments.
 * @returns The encoded request, or the error.
 * @throws Never.
 * @example
 * const outcome = attempt(() => resolveOptions(options, { who: 'encode' }), task, args);
 */
export function attempt(options: () => Resolved, task: unknown, args: unknown): EncodedRequest | DecodeError {
  try {
    const resolved = options();
    return checkedRequest(spoken(resolved), task, args, resolved);
  } catch (error) {
    return lastGuard(error, task);
  }
}

/**
 * The last line: every error encode() returns is a DecodeError. A caller's getter or Proxy is read
 * inside the snapshot, which reports it as the caller's; anything else is a defect of ours.
 */
function lastGuard(error: unknown, task: unknown): DecodeError {
  if (error instanceof DecodeError) return error;
  const name = typeof task === 'string' ? task : undefined;
  return new DecodeError(
    'INTERNAL',
    `adcp-decode failed on its own: ${describeThrown(error)} thrown while encoding ${name === undefined ? 'a request' : shown(name)}; a defect in adcp-decode, not the caller's (please report it)`,
    { task: name, cause: error },
  );
}

function shown(task: string): string {
  return task.length > 64 ? `${task.slice(0, 64)}…` : task;
}
