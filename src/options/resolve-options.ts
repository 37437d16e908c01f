/**
 * The options of one decode: the decoder's (createDecoder) and the call's merged, read once each,
 * checked, and resolved to the values decode() runs with.
 */
import { type Bounds, DEFAULT_BOUNDS } from '../bounds/bounds.js';
import { DecodeError, describeThrown, type ErrorContext, NO_CONTEXT, type Recovery } from '../errors/errors.js';
import { optionError } from '../errors/option-error.js';
import { byteLimit, countLimit } from '../errors/option-rules.js';
import { type NewerRelease, resolveVersion, type Version } from '../schema/versions.js';
import type { Transport } from './options.js';
import { type CheckedRequest, readRequest } from './sent-request.js';
import type { DecodeOptions } from './version-option.js';

/** The options a decode runs with: every one present, checked, the version resolved. */
export interface Resolved extends Bounds {
  readonly version: 'auto' | Version;
  readonly newerRelease: NewerRelease;
  readonly transport: Transport;
  readonly unknownRecovery: 'manifest' | Recovery;
  /** The request answered (option `request`), as read once. */
  readonly request: CheckedRequest | undefined;
}

/** The options decode() reads, each once per call. */
const OPTION_KEYS = ['version', 'newerRelease', 'transport', 'maxBytes', 'maxDepth', 'maxNodes', 'unknownRecovery', 'request'] as const;

/** One option's value, read once: the call's, else (but for `request`, never a default) the decoder's. */
function readOption(key: (typeof OPTION_KEYS)[number], base: unknown, call: unknown, context: ErrorContext): unknown {
  let value: unknown;
  let bound: unknown;
  try {
    value = call === undefined ? undefined : (call as Record<string, unknown>)[key];
    if (base !== undefined && (value === undefined || key === 'request')) bound = (base as Record<string, unknown>)[key];
  } catch (cause) {
    throw new DecodeError('INVALID_OPTION', `option ${key} could not be read: ${describeThrown(cause)} thrown`, { ...context, cause });
  }
  // A decoder serves many calls; the request one answer answers is never a default.
  if (key === 'request' && bound !== undefined)
    throw optionError(undefined, 'request', 'given per call (decode, safeDecode), not to createDecoder', bound, context);
  return value === undefined ? bound : value;
}

/** Reads the known options once each; a per-call `undefined` leaves the decoder's value in place. */
function mergeOptions(base: unknown, call: unknown, context: ErrorContext): Record<(typeof OPTION_KEYS)[number], unknown> {
  for (const [what, value] of [
    ['options', call],
    ['createDecoder options', base],
  ] as const) {
    let array: boolean;
    try {
      array = Array.isArray(value); // throws on a revoked Proxy
    } catch (cause) {
      throw new DecodeError('INVALID_OPTION', `${what} could not be read: ${describeThrown(cause)} thrown`, { ...context, cause });
    }
    if (value !== undefined && (typeof value !== 'object' || value === null || array))
      throw optionError(undefined, what, 'an object', value, context);
  }
  const merged = {} as Record<(typeof OPTION_KEYS)[number], unknown>;
  for (const key of OPTION_KEYS) merged[key] = readOption(key, base, call, context);
  return merged;
}

/**
 * Merges and checks options; per-call options win over the decoder's, except where a call passes
 * `undefined` (a per-call `{ maxBytes: undefined }` must not lift a decoder's bound). `null` is
 * not "unset": it is an invalid value, like any other of the wrong type.
 *
 * @param base - The decoder's options (createDecoder), if any.
 * @param call - The call's options, if any.
 * @param context - The call they were given to (decode's task), for the errors.
 * @returns Every option, checked, with its default where neither gave one.
 * @throws {DecodeError} `INVALID_OPTION`; `UNSUPPORTED_VERSION` for a version not bundled.
 * @example
 * resolveOptions({ maxBytes: 1024 }, { maxBytes: undefined }).maxBytes; // 1024
 */
export function resolveOptions(
  base: DecodeOptions | undefined,
  call: DecodeOptions | undefined,
  context: ErrorContext = NO_CONTEXT,
): Resolved {
  // The common call (no options anywhere) reuses one frozen result instead of merging again.
  if (base === undefined && call === undefined) {
    defaults ??= Object.freeze(resolve(undefined, undefined, NO_CONTEXT));
    return defaults;
  }
  return resolve(base, call, context);
}

let defaults: Resolved | undefined;

function resolve(base: DecodeOptions | undefined, call: DecodeOptions | undefined, context: ErrorContext): Resolved {
  const o = mergeOptions(base, call, context);
  const transport = o.transport === undefined ? 'auto' : o.transport;
  if (transport !== 'auto' && transport !== 'mcp' && transport !== 'a2a' && transport !== 'payload') {
    throw optionError(undefined, 'transport', "'auto', 'mcp', 'a2a' or 'payload'", transport, context);
  }
  const unknownRecovery = o.unknownRecovery === undefined ? 'manifest' : o.unknownRecovery;
  if (
    unknownRecovery !== 'manifest' &&
    unknownRecovery !== 'transient' &&
    unknownRecovery !== 'correctable' &&
    unknownRecovery !== 'terminal'
  ) {
    throw optionError(undefined, 'unknownRecovery', "'manifest', 'transient', 'correctable' or 'terminal'", unknownRecovery, context);
  }
  const requested = o.version === undefined ? 'auto' : o.version;
  if (typeof requested !== 'string') throw optionError(undefined, 'version', "'auto', a bundled version or a release", requested, context);
  // Resolved here, not at run time, so that createDecoder refuses an unbundled version at creation.
  const version = requested === 'auto' ? 'auto' : resolveVersion(requested, context);
  const newerRelease = o.newerRelease === undefined ? 'newest' : o.newerRelease;
  if (newerRelease !== 'newest' && newerRelease !== 'refuse')
    throw optionError(undefined, 'newerRelease', "'newest' or 'refuse'", newerRelease, context);
  return {
    version,
    newerRelease,
    transport,
    unknownRecovery,
    maxBytes: byteLimit('maxBytes', o.maxBytes, { context }) ?? DEFAULT_BOUNDS.maxBytes,
    maxDepth: countLimit('maxDepth', o.maxDepth, { context }) ?? DEFAULT_BOUNDS.maxDepth,
    maxNodes: countLimit('maxNodes', o.maxNodes, { context }) ?? DEFAULT_BOUNDS.maxNodes,
    request: readRequest(o.request, context),
  };
}
