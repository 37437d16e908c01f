/**
 * The encoder half of a pinned import's decoders (`adcp-decode/3.1`, `adcp-decode/3.0`): encode
 * and safeEncode in the import's version, with the options of the decoder they belong to.
 */
import { type Resolved, resolveOptions } from '../options/resolve-options.js';
import type { DecodeOptions } from '../options/version-option.js';
import { encoderOver } from './encode.js';
import type { PinnedEncoder } from './request.js';

/**
 * encode and safeEncode of a pinned decoder, typed by its version's request map `Q`.
 *
 * @param optionsOf The pinned decoder's options of one call: merged with its defaults, checked,
 *   the version held to the import's (it throws INVALID_OPTION otherwise).
 * @returns The encoder.
 * @throws Never (the calls return or throw their errors).
 * @example
 * return { decode, safeDecode, ...pinnedEncoder<V, Q>(optionsOf) };
 */
export function pinnedEncoder<V extends string, Q>(optionsOf: (call: unknown) => DecodeOptions): PinnedEncoder<V, Q> {
  // A pinned decoder hands back the same options object for calls without options: resolve it once.
  let last: DecodeOptions | undefined;
  let lastResolved: Resolved | undefined;
  const resolved = (call: unknown) => (): Resolved => {
    const options = optionsOf(call);
    if (options !== last || lastResolved === undefined) {
      lastResolved = resolveOptions(undefined, options);
      last = options;
    }
    return lastResolved;
  };
  return encoderOver(resolved);
}
