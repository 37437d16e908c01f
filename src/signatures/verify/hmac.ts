/**
 * The legacy HMAC-SHA256 webhook scheme (deprecated, removed in AdCP 4.0; security.mdx "Legacy
 * HMAC-SHA256 fallback"): `X-ADCP-Signature: sha256=<hex>` over `{timestamp}.{raw body}` with
 * `X-ADCP-Timestamp`, a 300 s window, constant-time comparison, current and previous secret.
 * Used only when the receiver was configured with a secret.
 */
import { knownOptions } from '../../errors/option-rules.js';
import { WebhookError } from '../../errors/webhook-error.js';
import type { Subtle } from './keys.js';

/** Smallest secret accepted, in bytes. */
const MIN_HMAC_SECRET_BYTES = 32;

/** The legacy replay window, in seconds. */
const HMAC_WINDOW_SECONDS = 300;

const encoder = new TextEncoder();
const SIGNATURE = /^sha256=([0-9a-f]{64})$/;
const TIMESTAMP = /^[0-9]{1,15}$/;

/**
 * Checks a configured secret: at least 32 bytes, and not one repeated character (all zeros,
 * all `a`), which the vectors' secret_rejection_vectors refuse.
 *
 * @param secret - The shared secret.
 * @throws {TypeError} For a short or degenerate secret (a configuration error, raised at setup).
 * @example
 * checkHmacSecret(process.env.ADCP_WEBHOOK_SECRET ?? '');
 */
export function checkHmacSecret(secret: string): void {
  if (typeof secret !== 'string' || encoder.encode(secret).byteLength < MIN_HMAC_SECRET_BYTES) {
    throw new TypeError(`legacy HMAC secret must be at least ${MIN_HMAC_SECRET_BYTES} bytes`);
  }
  if ([...secret].every((c) => c === secret[0])) throw new TypeError('legacy HMAC secret must not be one repeated character');
}

/**
 * Computes `sha256=<hex>` over `{timestamp}.{body}` (the scheme's signer side; tests and senders).
 *
 * @param secret - The shared secret.
 * @param timestamp - The exact `X-ADCP-Timestamp` text.
 * @param body - The raw body bytes.
 * @param subtle - WebCrypto (default `crypto.subtle`).
 * @returns The header value.
 * @throws Never for valid input.
 * @example
 * await hmacSignature(secret, '1700000000', new TextEncoder().encode('{}')); // 'sha256=...'
 */
export async function hmacSignature(
  secret: string,
  timestamp: string,
  body: Uint8Array,
  subtle: Pick<Subtle, 'importKey' | 'sign'> = crypto.subtle,
): Promise<string> {
  const key = await subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const prefix = encoder.encode(`${timestamp}.`);
  const message = new Uint8Array(prefix.byteLength + body.byteLength);
  message.set(prefix);
  message.set(body, prefix.byteLength);
  const mac = new Uint8Array(await subtle.sign('HMAC', key, message));
  let hex = '';
  for (const byte of mac) hex += byte.toString(16).padStart(2, '0');
  return `sha256=${hex}`;
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Options of {@link verifyLegacyHmac}. */
export interface LegacyHmacOptions {
  /** The current secret, then (during a rotation) the previous one. */
  readonly secrets: readonly string[];
  readonly now?: (() => number) | undefined;
  readonly subtle?: Pick<Subtle, 'importKey' | 'sign'> | undefined;
}

/** Every option verifyLegacyHmac takes, by name (a type test holds it to `keyof LegacyHmacOptions`). */
export const LEGACY_HMAC_OPTION_KEYS = ['secrets', 'now', 'subtle'] as const satisfies readonly (keyof LegacyHmacOptions)[];

/**
 * Verifies the legacy scheme in the spec's order: headers present, timestamp numeric, inside
 * the window, then the HMAC (computed only after the cheap checks).
 *
 * @param headers - Request headers (lowercase names).
 * @param body - The raw body bytes.
 * @param options - Secrets, clock, WebCrypto.
 * @returns Which secret matched (`0` current, `1` previous).
 * @throws {WebhookError} `webhook_signature_header_malformed`, `webhook_signature_window_invalid`, `webhook_signature_invalid`.
 * @throws {DecodeError} `INVALID_OPTION` for a name that is not an option (before any header is read).
 * @example
 * await verifyLegacyHmac(headers, body, { secrets: [secret] });
 */
export async function verifyLegacyHmac(
  headers: ReadonlyMap<string, string>,
  body: Uint8Array,
  options: LegacyHmacOptions,
): Promise<number> {
  knownOptions('verifyLegacyHmac', options, LEGACY_HMAC_OPTION_KEYS);
  const signature = headers.get('x-adcp-signature');
  const timestamp = headers.get('x-adcp-timestamp');
  if (signature === undefined || timestamp === undefined || signature === '') {
    throw new WebhookError('webhook_signature_header_malformed', 'the legacy HMAC scheme needs X-ADCP-Signature and X-ADCP-Timestamp');
  }
  if (!TIMESTAMP.test(timestamp)) throw new WebhookError('webhook_signature_header_malformed', 'X-ADCP-Timestamp must be Unix seconds');
  const now = Math.floor((options.now ?? Date.now)() / 1000);
  if (Math.abs(now - Number(timestamp)) > HMAC_WINDOW_SECONDS) {
    throw new WebhookError(
      'webhook_signature_window_invalid',
      `X-ADCP-Timestamp ${timestamp} is more than ${HMAC_WINDOW_SECONDS} s from now (${now})`,
    );
  }
  if (!SIGNATURE.test(signature))
    throw new WebhookError('webhook_signature_header_malformed', 'X-ADCP-Signature must be sha256= and 64 lowercase hex digits');
  for (let i = 0; i < options.secrets.length; i++) {
    const expected = await hmacSignature(options.secrets[i] as string, timestamp, body, options.subtle);
    if (constantTimeEqual(expected, signature)) return i;
  }
  throw new WebhookError('webhook_signature_invalid', 'X-ADCP-Signature does not match the HMAC of the body');
}
