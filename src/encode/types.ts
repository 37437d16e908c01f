/**
 * The public types of the root encode(), safeEncode() and of the decoders' encode: their options,
 * the version they speak, the request they take for a task and what they return.
 */
import type { DecodeError } from '../errors/errors.js';
import type { Version } from '../generated/index.js';
import type { DefaultRequestVersion, RequestsByVersion } from '../generated/requests.js';
import type { Merged, Pinning, ReleaseOf, VersionNamed, VersionOption } from '../options/version-option.js';
import type { EncodeBounds, EncodedRequest, Frozen } from './request.js';

/** Options of {@link encode} and {@link safeEncode}: the version to speak (`V`, inferred) and the bounds. */
export interface EncodeOptions<V extends VersionOption | undefined = VersionOption | undefined> extends EncodeBounds {
  /**
   * The version the request is encoded in: a bundled version (`'3.1.19'`) or release (`'3.1'`);
   * `'auto'` or none: the default version. A decoder's `version` binds its encode too.
   */
  readonly version?: V | undefined;
}

/** The bundled version a `version` option encodes in: the one it names, else the default. */
export type EncodeVersionFor<O> = VersionNamed<O, DefaultRequestVersion>;

/** A task name of version `V`. */
export type RequestTask<V extends Version> = keyof RequestsByVersion[V] & string;

/** What `encode(task, ...)` takes in version `V`: the task's request type. */
export type RequestIn<T extends string, V extends Version> = V extends Version
  ? T extends keyof RequestsByVersion[V]
    ? RequestsByVersion[V][T]
    : never
  : never;

/** What `encode(task, args, options)` returns: the frozen request, typed in the version the options speak. */
export type Encoded<T extends string, O = EncodeOptions> = EncodedIn<T, EncodeVersionFor<O>>;

type EncodedIn<T extends string, V extends Version> = V extends Version
  ? EncodedRequest<T, V, Frozen<RequestIn<T, V>>, ReleaseOf<V>>
  : never;

/** What `safeEncode` returns. */
export type SafeEncodeResult<T extends string, O = EncodeOptions> =
  | { readonly success: true; readonly data: Encoded<T, O> }
  | { readonly success: false; readonly error: DecodeError };

/** encode and safeEncode with default options bound (a decoder's); per-call options win. */
export interface Encoder<B extends EncodeOptions> {
  /**
   * Checks `args` against the task's request schema, stamps the version fields it defines, and
   * returns the frozen request to send; or throws.
   *
   * @throws {RequestError} `INVALID_REQUEST` for arguments the caller must fix.
   * @example
   * const request = seller.encode('get_products', { buying_mode: 'brief', brief: 'CTV in Q3' });
   */
  encode<T extends RequestTask<EncodeVersionFor<Merged<B, Pinning<W>>>>, const W extends VersionOption | undefined = undefined>(
    task: T,
    args: RequestIn<T, EncodeVersionFor<Merged<B, Pinning<W>>>>,
    options?: EncodeOptions<W>,
  ): Encoded<T, Merged<B, Pinning<W>>>;
  /**
   * Like encode, but returns `{ success: true, data }` or `{ success: false, error }`.
   *
   * @example
   * const r = seller.safeEncode('get_products', args);
   */
  safeEncode<T extends RequestTask<EncodeVersionFor<Merged<B, Pinning<W>>>>, const W extends VersionOption | undefined = undefined>(
    task: T,
    args: RequestIn<T, EncodeVersionFor<Merged<B, Pinning<W>>>>,
    options?: EncodeOptions<W>,
  ): SafeEncodeResult<T, Merged<B, Pinning<W>>>;
}
