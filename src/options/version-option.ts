/**
 * The options of the unpinned decode() and encode(): the common ones and the version. Apart from
 * options.ts because `Version` reaches every bundled release's types, which a pinned import's
 * declarations must not load.
 */
import type { KnownReleases } from '../generated/versions.js';
import type { NewerRelease, Version } from '../schema/versions.js';
import type { CommonDecodeOptions } from './options.js';

/** What option `version` may be: `'auto'`, a bundled version or a release. */
export type VersionOption = 'auto' | Version | ReleaseOf<Version>;

/**
 * Options of {@link decode}, {@link safeDecode} and {@link createDecoder}; `V` is the value of
 * `version` (the calls infer it, so an options literal is held to these names, a misspelt one a compile error).
 */
export interface DecodeOptions<V extends VersionOption | undefined = VersionOption | undefined> extends CommonDecodeOptions {
  /**
   * `'auto'` (default): the payload's `adcp_version` (`"3.0"`, `"3.1"`) picks the schemas, else
   * the default version; or a bundled version (`'3.1.19'`) or release (`'3.1'`), which wins.
   */
  readonly version?: V | undefined;
  /**
   * With `version: 'auto'`, an answer announcing a release this buyer has not loaded (`"3.2"` with
   * no 3.2 module): `'refuse'` (default) fails with `RELEASE_NOT_LOADED`, blamed on the
   * configuration; `'newest'` judges a newer release of a known major by the newest known release
   * of that major and says so (`standInFor`).
   */
  readonly newerRelease?: NewerRelease | undefined;
}

/** The wire pin of version `V`, as its release names it: `'3.1'` for `'3.1.19'`, `'3.2-beta.6'` for `'3.2.0-beta.6'`. */
export type ReleaseOf<V extends Version> = V extends Version ? KnownReleases[V] : never;

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

/** What the types read of options whose `version` is `V`: the version alone (`undefined`: none given). */
// biome-ignore lint/complexity/noBannedTypes: `{}` is "no version given"
export type Pinning<V> = [V] extends [undefined] ? {} : { readonly version: V };
