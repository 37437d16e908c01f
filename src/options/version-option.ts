/**
 * The options of the unpinned decode() and encode(): the common ones and the version. Apart from
 * options.ts because `Version` reaches every bundled release's types, which a pinned import's
 * declarations must not load.
 */
import type { NewerRelease, Version } from '../schema/versions.js';
import type { CommonDecodeOptions } from './options.js';

/** Options of {@link decode}, {@link safeDecode} and {@link createDecoder}. */
export interface DecodeOptions extends CommonDecodeOptions {
  /**
   * `'auto'` (default): the payload's `adcp_version` (`"3.0"`, `"3.1"`) picks the schemas, else
   * the default version; or a bundled version (`'3.1.19'`) or release (`'3.1'`), which wins.
   */
  readonly version?: 'auto' | Version | ReleaseOf<Version> | undefined;
  /**
   * With `version: 'auto'`, a payload announcing a newer release of a bundled major (`"3.2"`):
   * `'newest'` (default) judges it with the newest bundled release of that major (releases are
   * additive) and says so (`standInFor`); `'refuse'` fails with `UNSUPPORTED_VERSION`.
   */
  readonly newerRelease?: NewerRelease | undefined;
}

/** `'3.1'` for `'3.1.19'`. */
export type ReleaseOf<V extends string> = V extends `${infer Major}.${infer Minor}.${string}` ? `${Major}.${Minor}` : never;

/**
 * The bundled version(s) a `version` option names: a bundled version itself, a release's bundled
 * version; with `'auto'` or none, `Otherwise` (decode: any version, VersionFor; encode: the default
 * version, EncodeVersionFor).
 */
export type VersionNamed<O, Otherwise> = O extends { readonly version: infer R }
  ? R extends Version
    ? R
    : R extends ReleaseOf<Version>
      ? { [V in Version]: ReleaseOf<V> extends R ? V : never }[Version]
      : Otherwise
  : Otherwise;

/** Per-call options over a decoder's defaults. */
export type Merged<B, O> = Omit<B, keyof O> & O;
