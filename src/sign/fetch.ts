/**
 * A fetch that signs every request it sends with a {@link RequestSigner}: the body is read once,
 * and the bytes digested and signed are the bytes sent (security.mdx: serialize once, digest
 * those bytes), in a new Request that carries `Signature-Input`, `Signature` and, with a body,
 * `Content-Digest` (each replacing any the caller set: a re-signer replaces, never appends).
 */
import { DecodeError, describeValue } from '../errors/errors.js';
import type { RequestSigner } from './signer.js';

/** A function with the signature of `fetch` (assignable to `typeof fetch` and the MCP SDK's `FetchLike`). */
export type SigningFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Wraps a fetch so that every request it sends is signed.
 *
 * @param fetch - The fetch to send with (`globalThis.fetch`, or a boundedFetch()).
 * @param signer - From createRequestSigner().
 * @returns The signing fetch.
 * @throws {DecodeError} `INVALID_OPTION` when `fetch` is not a function or `signer` not a signer;
 *   the returned fetch rejects with `UNSIGNABLE_REQUEST` for a request the profile cannot sign.
 * @example
 * const transport = new StreamableHTTPClientTransport(new URL(agentUrl), { fetch: withRequestSigning(fetch, signer) });
 */
export function withRequestSigning(fetch: SigningFetch, signer: RequestSigner): SigningFetch {
  if (typeof fetch !== 'function')
    throw new DecodeError('INVALID_OPTION', `withRequestSigning: fetch must be a function; got ${describeValue(fetch)}`);
  if (typeof signer !== 'object' || signer === null || typeof signer.sign !== 'function')
    throw new DecodeError(
      'INVALID_OPTION',
      `withRequestSigning: signer must come from createRequestSigner(); got ${describeValue(signer)}`,
    );
  return async function signedFetch(input, init) {
    const request = new Request(input, init);
    const body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
    const signed = await signer.sign({ method: request.method, url: request.url, headers: request.headers, body });
    const headers = new Headers(request.headers);
    for (const [name, value] of Object.entries(signed)) headers.set(name, value);
    return fetch(new Request(request, body === undefined ? { headers } : { headers, body }));
  };
}
