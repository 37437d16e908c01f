/**
 * A fetch that signs the requests it sends with a {@link RequestSigner}: every request, or (given
 * the seller's capabilities) the ones the seller lists, read from the JSON-RPC body as the
 * seller's verifier reads it. The body is read once, and the bytes digested and signed are the
 * bytes sent (security.mdx: serialize once, digest those bytes), in a new Request that carries
 * `Signature-Input`, `Signature` and, when covered, `Content-Digest` (each replacing any the
 * caller set: a re-signer replaces, never appends). A signed request is never re-sent to a
 * redirect's target: it is refused (RequestSigningError `request_redirect_refused`).
 */
import { DecodeError, describeValue } from '../../errors/errors.js';
import { shownText } from '../../errors/format.js';
import { RequestSigningError } from './errors.js';
import { invocationsOf } from './invocation.js';
import { type SigningDecision, type SigningPolicyOptions, signingPolicy } from './policy.js';
import type { RequestSigner } from './signer.js';

/** A function with the signature of `fetch` (assignable to `typeof fetch` and the MCP SDK's `FetchLike`). */
export type SigningFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Without capabilities: sign every request, its body bound. */
const ALWAYS: SigningDecision = { sign: true, coverContentDigest: true };

/** A redirect answer: a 3xx with a target (Node), or the browser's opaque redirect. */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400 && response.headers.has('location'));
}

/**
 * Wraps a fetch so that the requests it sends are signed.
 *
 * @param fetch - The fetch to send with (`globalThis.fetch`, or a boundedFetch()).
 * @param signer - From createRequestSigner().
 * @param options - The seller's capabilities (its get_adcp_capabilities answer): only what it
 *   lists is signed (`sign: 'required'`, the default, or `'supported'`), and `content-digest` is
 *   covered unless it forbids it. Without them, every request is signed.
 * @returns The signing fetch.
 * @throws {DecodeError} `INVALID_OPTION` when `fetch` is not a function, `signer` not a signer, or
 *   the capabilities not a `request_signing`; the returned fetch rejects with a
 *   {@link RequestSigningError} (`UNSIGNABLE_REQUEST`, its `requestCode` and `blame`) for a request
 *   the profile cannot sign, and for a signed request the seller redirects (nothing re-sent).
 * @example
 * const capabilities = await callTask(plainClient, 'get_adcp_capabilities', {});
 * const transport = new StreamableHTTPClientTransport(new URL(agentUrl), { fetch: withRequestSigning(fetch, signer, { capabilities }) });
 */
export function withRequestSigning(fetch: SigningFetch, signer: RequestSigner, options?: SigningPolicyOptions): SigningFetch {
  if (typeof fetch !== 'function')
    throw new DecodeError('INVALID_OPTION', `withRequestSigning: fetch must be a function; got ${describeValue(fetch)}`);
  if (typeof signer !== 'object' || signer === null || typeof signer.sign !== 'function')
    throw new DecodeError(
      'INVALID_OPTION',
      `withRequestSigning: signer must come from createRequestSigner(); got ${describeValue(signer)}`,
    );
  const policy = options === undefined ? undefined : signingPolicy(options);
  return async function signedFetch(input, init) {
    const request = new Request(input, init);
    const body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
    const decision = policy === undefined ? ALWAYS : policy.decide(invocationsOf(body));
    // A Blob, so that the fetch can send the body again when it follows a 307 or 308 (a byte array's buffer is detached on the first send).
    if (!decision.sign) return fetch(new Request(request, body === undefined ? {} : { body: new Blob([body]) }));
    const { method, url } = request;
    const signed = await signer.sign({ method, url, headers: request.headers, body, coverContentDigest: decision.coverContentDigest });
    const headers = new Headers(request.headers);
    headers.delete('content-digest'); // the signer's, when it covers one; a caller's would bind nothing
    for (const [name, value] of Object.entries(signed)) headers.set(name, value);
    const response = await fetch(new Request(request, { headers, redirect: 'manual', ...(body === undefined ? {} : { body }) }));
    if (!isRedirect(response)) return response;
    await response.body?.cancel();
    const target = response.headers.get('location');
    throw new RequestSigningError(
      'request_redirect_refused',
      `the seller answered ${response.status === 0 ? 'a redirect' : response.status} to this signed ${method} ${target === null ? '' : `(to "${shownText(target, 96)}") `}for "${shownText(url, 96)}": a signed request is not re-sent to another target; configure the URL the seller redirects to`,
    );
  };
}
