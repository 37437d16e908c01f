/**
 * The runtime behind the pinned imports (`adcp-decode/3.1`, `adcp-decode/3.0`): decode,
 * safeDecode and createDecoder bound to one bundled version, typed with that version's responses
 * only. The entry modules themselves (the named types they re-export) are generated.
 *
 * A pinned decoder judges every payload by its own version's schemas, whatever `adcp_version` the
 * payload announces: the buyer's code reads that version's fields, and only that schema's check,
 * not a label, proves a value has them. A payload announcing another release therefore decodes
 * when it is valid under the pinned schemas and fails with SCHEMA_MISMATCH (naming the pinned
 * version) when it is not; its `adcp_version` stays in the data for a buyer that wants to refuse it.
 */
import { decode as decodeAny, safeDecode as safeDecodeAny } from './decode.js';
import { resolveOptions } from './resolve-options.js';
import type { DecodeOptions } from './types.js';
import { DecodeError } from '../errors/errors.js';
import type { CommonDecodeOptions } from './options.js';
import { resolveVersion, type Version } from '../schema/versions.js';

// The exported types below name only the pinned version's response map `R` (never the map of
// every version), so a consumer of one pinned import type-checks one version's declarations.

/** Options of a pinned decoder: those of decode() but `version`, which the import fixes. */
export type PinnedOptions = CommonDecodeOptions & { readonly version?: never };

/** A task name of the response map `R`. */
export type PinnedTask<R> = keyof R & string;

/** What a pinned `safeDecode(task, ...)` returns: the data typed in version `V` (`replayed: true` for an idempotency replay), or the error. */
export type PinnedResult<V extends string, R, T extends keyof R> =
  | { readonly success: true; readonly data: R[T]; readonly version: V; readonly replayed?: true }
  | { readonly success: false; readonly error: DecodeError };

/** decode and safeDecode, bound to version `V`, whose responses by task are `R`. */
export interface PinnedDecoder<V extends string, R> {
  /**
   * Decodes a seller's answer to `task` as version `V` requires, or throws a DecodeError.
   *
   * @example
   * const response = decode('get_products', result);
   */
  decode<T extends PinnedTask<R>>(task: T, input: unknown, options?: PinnedOptions): R[T];
  /**
   * Like decode, but returns `{ success: true, data, version }` or `{ success: false, error }`.
   *
   * @example
   * const r = safeDecode('get_media_buys', result);
   */
  safeDecode<T extends PinnedTask<R>>(task: T, input: unknown, options?: PinnedOptions): PinnedResult<V, R, T>;
}

/** A pinned import's decoder, plus createDecoder for default options (per seller agent, say). */
export interface Pinned<V extends string, R> extends PinnedDecoder<V, R> {
  /**
   * Binds default options; per-call options win, `undefined` leaves a default in place.
   *
   * @example
   * const seller = createDecoder({ maxBytes: 1024 * 1024 });
   */
  createDecoder(options: PinnedOptions): PinnedDecoder<V, R>;
}

/**
 * The options of one call: the decoder's and the call's merged and checked as decode() does, with
 * the version held to `version` (a JavaScript caller can pass what the types forbid).
 */
function pinnedOptions(version: Version, base: DecodeOptions, call: unknown): DecodeOptions {
  const resolved = resolveOptions(base, call as DecodeOptions | undefined);
  if (resolved.version !== version && (resolved.version === 'auto' || resolveVersion(resolved.version) !== version)) {
    throw new DecodeError(
      'INVALID_OPTION',
      `option version must be left out: this decoder decodes AdCP ${version} only; got ${JSON.stringify(resolved.version.slice(0, 40))}`,
    );
  }
  return { ...resolved, version };
}

function bind<V extends string, R>(version: Version, base: DecodeOptions): PinnedDecoder<V, R> {
  // The common call passes no options: merge and check the decoder's own once, not on every call.
  let defaults: DecodeOptions | undefined;
  const optionsOf = (call: unknown): DecodeOptions => {
    if (call !== undefined) return pinnedOptions(version, base, call);
    defaults ??= pinnedOptions(version, base, undefined);
    return defaults;
  };
  return {
    decode: (task, input, call) => decodeAny(task as never, input, optionsOf(call)) as never,
    safeDecode: (task, input, call) => {
      let options: DecodeOptions;
      try {
        options = optionsOf(call);
      } catch (error) {
        if (error instanceof DecodeError) return { success: false, error };
        throw error;
      }
      return safeDecodeAny(task as never, input, options) as never;
    },
  };
}

/**
 * Binds decode, safeDecode and createDecoder to one bundled version, typed by its response map.
 *
 * @param version A bundled version, e.g. `'3.1.19'`.
 * @returns The pinned decoder.
 * @throws {DecodeError} `UNSUPPORTED_VERSION` for a version not bundled.
 * @example
 * const pinned = pin<'3.1.19', Responses>('3.1.19');
 */
export function pin<V extends string, R>(version: V): Pinned<V, R> {
  const bundled = resolveVersion(version);
  if (bundled !== version)
    throw new DecodeError('UNSUPPORTED_VERSION', `pin() takes a bundled version; got ${JSON.stringify(version.slice(0, 40))}`);
  const base: DecodeOptions = { version: bundled };
  return {
    ...bind<V, R>(bundled, base),
    createDecoder: (options) => {
      // Read and checked once, as decode() would; the snapshot is the decoder's defaults.
      const defaults = pinnedOptions(bundled, base, options);
      return bind<V, R>(bundled, defaults);
    },
  };
}
