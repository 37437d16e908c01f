/**
 * What encode() returns, the encoded request, and the types of a pinned encoder. They name no
 * version's request map, so a pinned import's declarations reach only its own version's types
 * (the root's typed API is in types.ts).
 */
import type { DecodeError } from '../errors/errors.js';
import type { TreeBounds } from '../options/options.js';

/**
 * A value as encode() returns it: deeply read-only, as the value itself is deeply frozen.
 * Arrays and tuples stay arrays and tuples (read-only ones).
 */
export type Frozen<T> = T extends object ? { readonly [K in keyof T]: Frozen<T[K]> } : T;

/** `'3.1'` for `'3.1.19'`; `string` for a version not known at compile time. */
export type ReleaseFor<V extends string> = string extends V
  ? string
  : V extends `${infer Major}.${infer Minor}.${string}`
    ? `${Major}.${Minor}`
    : never;

/**
 * A request encode() checked and stamped, as it is to be sent: deeply frozen, so the value sent
 * first is the value a network retry resends (same bytes, same `idempotency_key`). A re-plan or a
 * re-read is a new request: encode it again, with a new key.
 *
 * @example
 * const request = encode('create_media_buy', { idempotency_key: newIdempotencyKey(), ...plan });
 * await client.callTool({ name: request.task, arguments: request.args }); // and again, as is, on a network retry
 */
export interface EncodedRequest<
  T extends string = string,
  V extends string = string,
  A = { readonly [key: string]: unknown },
  R extends string = string,
> {
  /** The task, e.g. `'create_media_buy'`. */
  readonly task: T;
  /** The bundled AdCP version whose request schema checked `args`, e.g. `'3.1.19'`. */
  readonly version: V;
  /** Its release, as the request's `adcp_version` states it where the schema defines that field, e.g. `'3.1'`. */
  readonly release: R;
  /** The arguments as sent: the caller's, read once, stamped with the release's version fields, checked, frozen. */
  readonly args: A;
}

/** The bounds of encode(): the same limits, with the same defaults, that decode() puts on a seller's answer. */
export interface EncodeBounds extends TreeBounds {
  /** Largest request, in UTF-8 bytes of its compact JSON. Default 4 MiB. */
  readonly maxBytes?: number | undefined;
}

/** Per-call options of a pinned encoder: the bounds; `version` is fixed by the import. */
export type PinnedEncodeOptions = EncodeBounds & { readonly version?: never };

/** A pinned encoder's request for task `T` of the request map `Q` in version `V`. */
export type PinnedEncoded<V extends string, Q, T extends keyof Q & string> = EncodedRequest<T, V, Frozen<Q[T]>, ReleaseFor<V>>;

/** What a pinned `safeEncode(task, ...)` returns: the encoded request, or the error. */
export type PinnedEncodeResult<V extends string, Q, T extends keyof Q & string> =
  | { readonly success: true; readonly data: PinnedEncoded<V, Q, T> }
  | { readonly success: false; readonly error: DecodeError };

/** encode and safeEncode, bound to version `V`, whose requests by task are `Q`. */
export interface PinnedEncoder<V extends string, Q> {
  /**
   * Checks `args` against the task's request schema of version `V`, stamps the version fields
   * that schema defines, and returns the frozen request to send; or throws.
   *
   * @throws {RequestError} `INVALID_REQUEST` for arguments the caller must fix.
   * @example
   * const request = encode('get_products', { buying_mode: 'brief', brief: 'CTV in Q3' });
   */
  encode<T extends keyof Q & string>(task: T, args: Q[T], options?: PinnedEncodeOptions): PinnedEncoded<V, Q, T>;
  /**
   * Like encode, but returns `{ success: true, data }` or `{ success: false, error }`.
   *
   * @example
   * const r = safeEncode('get_products', args);
   */
  safeEncode<T extends keyof Q & string>(task: T, args: Q[T], options?: PinnedEncodeOptions): PinnedEncodeResult<V, Q, T>;
}
