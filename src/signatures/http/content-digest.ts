/**
 * RFC 9530 `Content-Digest` as the AdCP profiles cover it: the digest algorithms a verifier
 * recomputes, and the field a signer sends, computed over the exact body bytes that go on the
 * wire (security.mdx: serialize once, digest those bytes).
 */
import { base64Encode } from './base64.js';

/** RFC 9530 algorithm names a verifier recomputes, and their WebCrypto names. */
export const DIGEST_ALGORITHMS: Readonly<Record<string, string>> = { 'sha-256': 'SHA-256', 'sha-512': 'SHA-512' };

/**
 * The `Content-Digest` field of a body: `sha-256` as an RFC 8941 byte sequence (padded Base64,
 * the vectors' and RFC 9530's form, which every profile's verifier reads).
 *
 * @param body - The body bytes as sent.
 * @param subtle - WebCrypto's digest (default `crypto.subtle`).
 * @returns The field value, e.g. `sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:`.
 * @throws Never, beyond what `subtle.digest` throws.
 * @example
 * await contentDigest(new Uint8Array()); // 'sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:'
 */
export async function contentDigest(body: Uint8Array, subtle: Pick<typeof crypto.subtle, 'digest'> = crypto.subtle): Promise<string> {
  const digest = new Uint8Array(await subtle.digest('SHA-256', body as Uint8Array<ArrayBuffer>));
  return `sha-256=:${base64Encode(digest)}:`;
}
