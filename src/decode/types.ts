/**
 * The public types of decode(), safeDecode() and createDecoder(): their options, what they return
 * for a task in the version(s) the options allow, and the decoder createDecoder() binds.
 */

import type { Encoder } from '../encode/types.js';
import type { DecodeError } from '../errors/errors.js';
import type { ResponsesByVersion } from '../generated/index.js';
import type { DecodeOptions, Merged, Pinning, VersionNamed, VersionOption } from '../options/version-option.js';
import type { Version } from '../schema/versions.js';

export type { DecodeOptions, Merged, Pinning, ReleaseOf, VersionOption } from '../options/version-option.js';

/** The bundled version(s) a `version` option can resolve to: with `'auto'` or none, any. */
export type VersionFor<O> = VersionNamed<O, Version>;

/** Every task name of every bundled version. */
export type TaskName = { [V in Version]: keyof ResponsesByVersion[V] & string }[Version];

/** The task names of the version(s) options allow: a pinned call names a task of its version, or fails to compile. */
export type TaskNameFor<O> = { [V in VersionFor<O>]: keyof ResponsesByVersion[V] & string }[VersionFor<O>];

/** What `decode(task, ...)` returns for one version. */
export type ResponseIn<T extends string, V extends Version> = V extends Version
  ? T extends keyof ResponsesByVersion[V]
    ? ResponsesByVersion[V][T]
    : never
  : never;

/** What `decode(task, input, options)` returns: the task's response in the version(s) the options allow. */
export type Decoded<T extends string, O extends DecodeOptions = DecodeOptions> = ResponseIn<T, VersionFor<O>>;

/**
 * What `safeDecode` returns on success: the data and the version that judged it, paired;
 * `standInFor` is the newer release the payload announced when `version` judged it in its place;
 * `replayed: true` when the seller answered from its idempotency cache (the envelope's
 * `replayed`): the data is a historical snapshot, so re-read the resource before acting on its state.
 */
export type DecodeSuccess<T extends string, O extends DecodeOptions = DecodeOptions> = {
  [V in VersionFor<O>]: {
    readonly success: true;
    readonly data: ResponseIn<T, V>;
    readonly version: V;
    readonly standInFor?: string;
    /**
     * The earlier GA patch of the release (e.g. `'3.0.11'`, the newest with that schema) whose
     * schema accepted the payload where the bundled patch (`version`) refused it; absent when the
     * bundled patch accepted it. The data is typed by `version` all the same.
     */
    readonly patch?: string;
    readonly replayed?: true;
  };
}[VersionFor<O>];

/** What `safeDecode` returns. */
export type SafeDecodeResult<T extends string, O extends DecodeOptions = DecodeOptions> =
  | DecodeSuccess<T, O>
  | { readonly success: false; readonly error: DecodeError };

/** A decoder with default options bound, for both directions (decode, and encode); per-call options win. */
export interface Decoder<B extends DecodeOptions> extends Encoder<B> {
  decode<T extends TaskNameFor<Merged<B, Pinning<W>>>, const W extends VersionOption | undefined = undefined>(
    task: T,
    input: unknown,
    options?: DecodeOptions<W>,
  ): Decoded<T, Merged<B, Pinning<W>>>;
  safeDecode<T extends TaskNameFor<Merged<B, Pinning<W>>>, const W extends VersionOption | undefined = undefined>(
    task: T,
    input: unknown,
    options?: DecodeOptions<W>,
  ): SafeDecodeResult<T, Merged<B, Pinning<W>>>;
}
