/**
 * The binary encodings of the AdCP RFC 9421 profiles: `nonce` always, and `Signature` in webhook v1
 * and 3.0/3.1 request signing, in unpadded Base64URL (the legacy encoding); `Signature` in 3.2
 * request signing and `Content-Digest` as RFC 8941 sf-binary (padded Base64), never a mix of the
 * two alphabets.
 */

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Whether the last character of a group of `tail` characters (2 or 3; 0 is a whole group) leaves
 * its unused low bits zero: the one encoding of the bytes, checked without encoding them again.
 */
function unusedBitsZero(text: string, last: number, tail: number, alphabet: string): boolean {
  if (tail === 0) return true;
  const value = alphabet.indexOf(text.charAt(last));
  return (value & (tail === 2 ? 0x0f : 0x03)) === 0;
}

/** The bytes `atob` reads from standard Base64 text the patterns passed, or undefined should it refuse it all the same. */
function bytesOf(text: string): Uint8Array | undefined {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Decodes strict unpadded Base64URL: no `+`, `/` or `=`, a length that is not 1 mod 4, and
 * zero unused bits in the last character (so each byte string has exactly one encoding).
 *
 * @param text - The encoded text.
 * @returns The bytes, or `undefined` when the text is not strict unpadded Base64URL.
 * @throws Never.
 * @example
 * base64UrlDecode('AQID'); // Uint8Array [1, 2, 3]
 */
export function base64UrlDecode(text: string): Uint8Array | undefined {
  const tail = text.length % 4;
  if (!BASE64URL.test(text) || tail === 1 || !unusedBitsZero(text, text.length - 1, tail, URL_ALPHABET)) return undefined;
  return bytesOf(text.replace(/-/g, '+').replace(/_/g, '/'));
}

/**
 * Decodes standard padded Base64 (RFC 4648 §4), as RFC 8941 sf-binary carries it, refusing
 * non-zero unused bits (a second encoding of the same bytes).
 *
 * @param text - The encoded text.
 * @returns The bytes, or `undefined` when the text is not padded standard Base64.
 * @throws Never.
 * @example
 * base64Decode('AQID'); // Uint8Array [1, 2, 3]
 */
export function base64Decode(text: string): Uint8Array | undefined {
  if (!BASE64.test(text) || text.length % 4 !== 0) return undefined;
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  if (pad > 0 && !unusedBitsZero(text, text.length - 1 - pad, 4 - pad, ALPHABET)) return undefined;
  return bytesOf(text);
}

/**
 * Encodes bytes as unpadded Base64URL (the webhook-v1 `Signature` form).
 *
 * @param bytes - The bytes.
 * @returns The text.
 * @throws Never.
 * @example
 * base64UrlEncode(new Uint8Array([1, 2, 3])); // 'AQID'
 */
export function base64UrlEncode(bytes: Uint8Array): string {
  const padded = base64Encode(bytes);
  // At most two '=' end a Base64 text; cut them by index (a regex anchored at $ rescans from each '=').
  let end = padded.length;
  while (end > 0 && padded.charCodeAt(end - 1) === 0x3d) end--;
  return padded.slice(0, end).replace(/\+/g, '-').replace(/\//g, '_');
}

/**
 * Encodes bytes as padded standard Base64.
 *
 * @param bytes - The bytes.
 * @returns The text.
 * @throws Never.
 * @example
 * base64Encode(new Uint8Array([1, 2, 3])); // 'AQID'
 */
export function base64Encode(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i] as number);
  return btoa(binary);
}
