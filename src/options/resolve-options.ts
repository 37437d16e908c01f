/**
 * The options of one decode, resolved once at the public edge that took them (decode, a decoder's
 * call, encode, callTask, waitForTask, decodeTaskStatus, decodeWebhook, the webhook receiver): read
 * once each, checked, merged over a decoder's resolved defaults, and passed down as `Resolved`.
 */
import { type Bounds, DEFAULT_BOUNDS } from '../bounds/bounds.js';
import type { Recovery } from '../errors/errors.js';
import { byteLimit, countLimit, knownOptions, type OptionOwner, optionError, unreadableOption } from '../errors/option-rules.js';
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

/** The name of every decode option, once: what each edge that takes them forwards (a type test holds callTask's and waitForTask's to it). */
export const DECODE_OPTION_KEYS = [
  'version',
  'newerRelease',
  'transport',
  'maxBytes',
  'maxDepth',
  'maxNodes',
  'unknownRecovery',
  'request',
] as const satisfies readonly (keyof DecodeOptions)[];

/** A decode option's name. */
export type DecodeOptionKey = (typeof DECODE_OPTION_KEYS)[number];

/** The resolved defaults: no option set anywhere. */
export const DEFAULT_OPTIONS: Resolved = Object.freeze({
  version: 'auto',
  newerRelease: 'refuse',
  transport: 'auto',
  unknownRecovery: 'manifest',
  ...DEFAULT_BOUNDS,
  request: undefined,
});

/** How a call's options are resolved: over which defaults, and which option names the edge takes. */
export interface ResolveHow {
  /** A decoder's resolved defaults (createDecoder): what a call leaves unset keeps; default: none set. */
  readonly over?: Resolved | undefined;
  /** Every option name the edge takes (its own and decode's); default: decode's. */
  readonly known?: readonly string[] | undefined;
}

/** One option's value, read once. */
function readOption(options: object, key: DecodeOptionKey, owner: OptionOwner): unknown {
  try {
    return (options as Record<string, unknown>)[key];
  } catch (cause) {
    throw unreadableOption(owner.who, key, cause, owner.context);
  }
}

/**
 * Resolves a call's options: each checked and read once, an unset one (absent or `undefined`)
 * keeping the decoder's default, never `request` (a decoder serves many calls). `null` is not
 * "unset": it is an invalid value, like any other of the wrong type.
 *
 * @param options - The call's options, as given.
 * @param owner - The edge that took them (`decode`, `callTask`), and its call, for the errors.
 * @param how - The decoder's defaults, and the option names the edge takes.
 * @returns Every option, checked, with its default where neither gave one.
 * @throws {DecodeError} `INVALID_OPTION` (an unknown option name among them); `UNSUPPORTED_VERSION` for a version not bundled.
 * @example
 * resolveOptions({ maxBytes: undefined }, { who: 'decode' }, { over: decoderDefaults }).maxBytes; // the decoder's
 */
export function resolveOptions(options: unknown, owner: OptionOwner, how: ResolveHow = {}): Resolved {
  const over = how.over ?? DEFAULT_OPTIONS;
  if (options === undefined) return over.request === undefined ? over : { ...over, request: undefined };
  knownOptions(owner.who, options, how.known ?? DECODE_OPTION_KEYS, owner.context);
  const o = {} as Record<DecodeOptionKey, unknown>;
  for (const key of DECODE_OPTION_KEYS) o[key] = readOption(options as object, key, owner);
  const { who, context } = owner;
  const transport = o.transport === undefined ? over.transport : o.transport;
  if (transport !== 'auto' && transport !== 'mcp' && transport !== 'a2a' && transport !== 'payload')
    throw optionError(who, 'transport', "'auto', 'mcp', 'a2a' or 'payload'", transport, context);
  const unknownRecovery = o.unknownRecovery === undefined ? over.unknownRecovery : o.unknownRecovery;
  if (
    unknownRecovery !== 'manifest' &&
    unknownRecovery !== 'transient' &&
    unknownRecovery !== 'correctable' &&
    unknownRecovery !== 'terminal'
  )
    throw optionError(who, 'unknownRecovery', "'manifest', 'transient', 'correctable' or 'terminal'", unknownRecovery, context);
  const newerRelease = o.newerRelease === undefined ? over.newerRelease : o.newerRelease;
  if (newerRelease !== 'newest' && newerRelease !== 'refuse')
    throw optionError(who, 'newerRelease', "'newest' or 'refuse'", newerRelease, context);
  return {
    // Resolved here, not at run time, so that createDecoder refuses an unbundled version at creation.
    version: o.version === undefined ? over.version : versionOption(o.version, owner),
    newerRelease,
    transport,
    unknownRecovery,
    maxBytes: byteLimit('maxBytes', o.maxBytes, owner) ?? over.maxBytes,
    maxDepth: countLimit('maxDepth', o.maxDepth, owner) ?? over.maxDepth,
    maxNodes: countLimit('maxNodes', o.maxNodes, owner) ?? over.maxNodes,
    request: readRequest(o.request, owner),
  };
}

/** Option `version`: `'auto'`, a bundled version or a release. */
function versionOption(value: unknown, owner: OptionOwner): 'auto' | Version {
  if (typeof value !== 'string') throw optionError(owner.who, 'version', "'auto', a bundled version or a release", value, owner.context);
  return value === 'auto' ? 'auto' : resolveVersion(value, owner.context);
}

/**
 * A decoder's defaults: resolved as a call's are, with `request` refused (it is per call).
 *
 * @param options - The decoder's options.
 * @param owner - The edge (`createDecoder`, `decoderFor`).
 * @param known - Every option name the edge takes.
 * @returns The resolved defaults.
 * @throws {DecodeError} `INVALID_OPTION`, `UNSUPPORTED_VERSION`.
 * @example
 * const defaults = resolveDefaults({ version: '3.1' }, { who: 'createDecoder' });
 */
export function resolveDefaults(options: unknown, owner: OptionOwner, known?: readonly string[]): Resolved {
  const resolved = resolveOptions(options, owner, { known });
  if (resolved.request !== undefined)
    throw optionError(owner.who, 'request', 'given per call (decode, safeDecode), not to a decoder', resolved.request, owner.context);
  return resolved;
}
