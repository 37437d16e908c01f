/**
 * The encoder half of a pinned import's decoders (`adcp-decode/3.1`, `adcp-decode/3.0`): encode
 * and safeEncode in the import's version, with the options of the decoder they belong to.
 */
import type { Resolved } from '../options/resolve-options.js';
import { encodersWith } from './encode.js';
import type { PinnedEncoder } from './request.js';

/**
 * encode and safeEncode of a pinned decoder, typed by its version's request map `Q`.
 *
 * @param optionsOf The pinned decoder's options of one call, resolved over its defaults, the
 *   version held to the import's (it throws INVALID_OPTION otherwise).
 * @returns The encoder.
 * @throws Never (the calls return or throw their errors).
 * @example
 * return { decode, safeDecode, ...pinnedEncoder<V, Q>(optionsOf) };
 */
export function pinnedEncoder<V extends string, Q>(optionsOf: (call: unknown, who: string) => Resolved): PinnedEncoder<V, Q> {
  return encodersWith((call, who) => () => optionsOf(call, who));
}
