/**
 * The webhook verifier checklist (security.mdx, "Webhook callbacks", steps 1-13) over a request
 * whose body has already passed the size and content-type gates. Each refusal is a WebhookError
 * with the taxonomy's code; the cheap checks (revocation, per-keyid cap) run before WebCrypto.
 */
import { WebhookError } from '../errors.js';
import {
  checkKeyPurpose,
  verifySignature,
  type Subtle,
  WEBHOOK_ALGS,
  type KeyResolver,
  type ResolvedKey,
  type WebhookAlg,
} from './keys.js';
import type { ReplayStore } from '../replay/replay.js';
import { signatureBase } from './signature-base.js';
import { parseContentDigest, parseSignatureHeaders } from './signature-headers.js';
import { canonicalHostHeader, canonicalTarget } from './target-uri.js';
import { base64UrlDecode } from './base64.js';
import { shownText } from '../../errors/format.js';

/** The `tag` of the webhook profile. */
export const WEBHOOK_TAG = 'adcp/webhook-signing/v1';

/** Components every webhook signature must cover (step 6). */
export const REQUIRED_COMPONENTS = ['@method', '@target-uri', '@authority', 'content-type', 'content-digest'] as const;

/** Signature parameters every webhook signature must carry (step 2). */
export const REQUIRED_PARAMS = ['created', 'expires', 'nonce', 'keyid', 'alg', 'tag'] as const;

/** Longest validity (`expires − created`) and clock skew tolerated, in seconds (step 5). */
export const MAX_VALIDITY_SECONDS = 300;
export const SKEW_SECONDS = 60;

/** A revocation verdict for a `keyid` (step 9). */
export type RevocationStatus = 'valid' | 'revoked' | 'stale';

/**
 * The revocation list check: `revoked` when the `keyid` is in `revoked_kids`, `stale` when the
 * list has not been refreshed within `next_update` + grace.
 */
export type RevocationCheck = (keyid: string) => RevocationStatus | Promise<RevocationStatus>;

/** The WebCrypto operations the verifier uses; injectable so tests can count them. */
export type WebhookCrypto = Pick<Subtle, 'digest' | 'verify' | 'importKey' | 'sign'>;

/** A request as the verifier reads it. */
export interface VerifiableRequest {
  readonly method: string;
  /** The absolute URL as received. */
  readonly url: string;
  /** Header values by lowercase name. */
  readonly headers: ReadonlyMap<string, string>;
  readonly body: Uint8Array;
}

/** Options of {@link verifyWebhookSignature}. */
export interface VerifySignatureOptions {
  readonly keys: KeyResolver;
  readonly replayStore: ReplayStore;
  readonly revocation?: RevocationCheck | undefined;
  /** The clock in milliseconds. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /** Default `crypto.subtle`. */
  readonly subtle?: WebhookCrypto | undefined;
  /**
   * What a nonce is unique within (security.mdx, "Cross-endpoint scoping"): `'keyid'` (default)
   * keys the replay cache by `(keyid, nonce)`, right for one endpoint or a store shared by every
   * endpoint; `'destination'` by `(keyid, canonical @target-uri, nonce)`, the spec's weaker option
   * for endpoints that keep separate stores, sound only when the signer signs each delivery for one
   * endpoint URL.
   */
  readonly replayScope?: ReplayScope | undefined;
}

/** The replay key's scope: see {@link VerifySignatureOptions.replayScope}. */
export type ReplayScope = 'keyid' | 'destination';

/** Who signed a verified webhook. */
export interface WebhookSigner {
  readonly keyid: string;
  readonly alg: WebhookAlg;
  /** The signing agent's URL, from key resolution (never from the payload). */
  readonly agent: string;
}

const encoder = new TextEncoder();

function fail(code: ConstructorParameters<typeof WebhookError>[0], message: string): WebhookError {
  return new WebhookError(code, message);
}

async function guarded<T>(
  work: () => T | Promise<T>,
  code: 'webhook_signature_jwks_unavailable' | 'webhook_replay_store_unavailable',
  what: string,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof WebhookError) throw error;
    throw new WebhookError(
      code,
      `${what} failed (${error instanceof Error ? error.name : typeof error}); this is the receiver's fault, the sender may retry`,
      { cause: error },
    );
  }
}

function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

const DIGESTS: Readonly<Record<string, string>> = { 'sha-256': 'SHA-256', 'sha-512': 'SHA-512' };

/**
 * Runs steps 1-13 of the webhook verifier checklist in the spec's order.
 *
 * @param request - Method, absolute URL, headers (lowercase names) and raw body bytes.
 * @param options - Key resolution, replay store, revocation check, clock, WebCrypto.
 * @returns The signer (`keyid`, `alg`, `agent`), once the nonce is claimed.
 * @throws {WebhookError} With the taxonomy's `webhook_*` code at the first failing step.
 * @example
 * const signer = await verifyWebhookSignature({ method, url, headers, body }, { keys, replayStore });
 */
export async function verifyWebhookSignature(request: VerifiableRequest, options: VerifySignatureOptions): Promise<WebhookSigner> {
  const subtle = options.subtle ?? crypto.subtle;
  const now = Math.floor((options.now ?? Date.now)() / 1000);
  const input = request.headers.get('signature-input');
  const value = request.headers.get('signature');
  if (input === undefined && value === undefined)
    throw fail('webhook_signature_required', 'expected Signature-Input and Signature headers (RFC 9421 webhook profile); got neither');
  if (input === undefined || value === undefined) {
    throw fail(
      'webhook_signature_header_malformed',
      `Signature-Input and Signature are a bound pair; got ${input === undefined ? 'Signature' : 'Signature-Input'} alone`,
    );
  }
  // Step 1.
  const parsed = parseSignatureHeaders(input, value);
  // Step 2.
  const missing = REQUIRED_PARAMS.filter((name) => !parsed.params.has(name));
  if (missing.length > 0)
    throw fail('webhook_signature_params_incomplete', `expected ${REQUIRED_PARAMS.join(', ')}; missing ${missing.join(', ')}`);
  const { created, expires, nonce, keyid, alg, tag } = Object.fromEntries(parsed.params) as Record<
    (typeof REQUIRED_PARAMS)[number],
    unknown
  >;
  if (!Number.isInteger(created) || !Number.isInteger(expires))
    throw fail('webhook_signature_header_malformed', 'created and expires must be integers (Unix seconds)');
  if (typeof nonce !== 'string' || typeof keyid !== 'string' || typeof alg !== 'string' || typeof tag !== 'string') {
    throw fail('webhook_signature_header_malformed', 'nonce, keyid, alg and tag must be strings');
  }
  const nonceBytes = base64UrlDecode(nonce);
  if (nonceBytes === undefined || nonceBytes.length < 16)
    throw fail('webhook_signature_header_malformed', 'nonce must be unpadded Base64URL of at least 16 bytes');
  // Step 3.
  if (tag !== WEBHOOK_TAG) throw fail('webhook_signature_tag_invalid', `expected tag "${WEBHOOK_TAG}"; got "${shownText(tag, 64)}"`);
  // Step 4.
  if (!(WEBHOOK_ALGS as readonly string[]).includes(alg))
    throw fail('webhook_signature_alg_not_allowed', `expected alg ${WEBHOOK_ALGS.join(' or ')}; got "${shownText(alg, 40)}"`);
  const algorithm = alg as WebhookAlg;
  // Step 5.
  const c = created as number;
  const e = expires as number;
  if (e <= c || c > now + SKEW_SECONDS || e < now - SKEW_SECONDS || e - c > MAX_VALIDITY_SECONDS) {
    const why =
      e <= c
        ? 'expires is not after created'
        : c > now + SKEW_SECONDS
          ? 'created is in the future'
          : e < now - SKEW_SECONDS
            ? 'the signature has expired'
            : `the validity exceeds ${MAX_VALIDITY_SECONDS} s`;
    throw fail('webhook_signature_window_invalid', `${why} (created ${c}, expires ${e}, now ${now})`);
  }
  // Step 6.
  const uncovered = REQUIRED_COMPONENTS.filter((component) => !parsed.components.includes(component));
  if (uncovered.length > 0)
    throw fail(
      'webhook_signature_components_incomplete',
      `the signature must cover ${REQUIRED_COMPONENTS.join(', ')}; it leaves out ${uncovered.join(', ')}`,
    );
  // Step 7.
  const resolved: ResolvedKey | undefined = await guarded(
    () => options.keys(keyid),
    'webhook_signature_jwks_unavailable',
    'key resolution',
  );
  if (resolved === undefined) throw fail('webhook_signature_key_unknown', `keyid "${shownText(keyid, 64)}" is not in the signer's JWKS`);
  // Step 8.
  checkKeyPurpose(resolved.jwk, algorithm);
  // Step 9.
  if (options.revocation !== undefined) {
    const status = await guarded(
      () => (options.revocation as RevocationCheck)(keyid),
      'webhook_signature_jwks_unavailable',
      'the revocation check',
    );
    if (status === 'revoked') throw fail('webhook_signature_key_revoked', `keyid "${shownText(keyid, 64)}" is revoked`);
    if (status === 'stale')
      throw fail('webhook_signature_revocation_stale', 'the revocation list has not been refreshed within its grace period');
  }
  // Step 9a.
  if (await guarded(() => options.replayStore.capReached(keyid), 'webhook_replay_store_unavailable', 'the replay store')) {
    throw fail('webhook_signature_rate_abuse', `keyid "${shownText(keyid, 64)}" has filled its replay-cache cap`);
  }
  // Step 10: canonical target, the authority gate, then the signature.
  const target = canonicalTarget(request.url);
  const scheme = target.targetUri.slice(0, target.targetUri.indexOf(':'));
  const host = request.headers.get('host');
  const pseudo = request.headers.get(':authority');
  const hostAuthority = host === undefined ? undefined : canonicalHostHeader(host, scheme);
  const pseudoAuthority = pseudo === undefined ? undefined : canonicalHostHeader(pseudo, scheme);
  if (hostAuthority !== undefined && pseudoAuthority !== undefined && hostAuthority !== pseudoAuthority) {
    throw fail('webhook_target_uri_malformed', ':authority and Host differ');
  }
  const received = pseudoAuthority ?? hostAuthority;
  if (received !== undefined && received !== target.authority) {
    throw fail(
      'webhook_target_uri_malformed',
      `the request's authority "${shownText(received, 64)}" does not match the target URI's "${shownText(target.authority, 64)}"`,
    );
  }
  const base = signatureBase(parsed, { method: request.method, target, headers: request.headers });
  if (!(await verifySignature(resolved.jwk, algorithm, parsed.signature, encoder.encode(base), subtle))) {
    throw fail('webhook_signature_invalid', `the ${algorithm} signature does not verify against keyid "${shownText(keyid, 64)}"`);
  }
  // Step 11.
  const entries = parseContentDigest(request.headers.get('content-digest') as string);
  const known = entries.filter((entry) => DIGESTS[entry.algorithm] !== undefined);
  if (known.length === 0) throw fail('webhook_signature_digest_mismatch', 'Content-Digest has no sha-256 or sha-512 digest');
  for (const entry of known) {
    const digest = new Uint8Array(await subtle.digest(DIGESTS[entry.algorithm] as string, request.body as Uint8Array<ArrayBuffer>));
    if (!timingSafeEqual(digest, entry.digest))
      throw fail('webhook_signature_digest_mismatch', `the body's ${entry.algorithm} digest does not match Content-Digest`);
  }
  // Steps 12-13: one atomic claim, TTL (expires − now) + 60 s.
  const ttl = Math.max(1, e - now + SKEW_SECONDS);
  const store = options.replayStore;
  const claim = await guarded(
    () => (options.replayScope === 'destination' ? store.claim(keyid, nonce, ttl, target.targetUri) : store.claim(keyid, nonce, ttl)),
    'webhook_replay_store_unavailable',
    'the replay store',
  );
  if (claim === 'replayed') throw fail('webhook_signature_replayed', `nonce already seen for keyid "${shownText(keyid, 64)}"`);
  if (claim === 'rate_abuse') throw fail('webhook_signature_rate_abuse', `keyid "${shownText(keyid, 64)}" has filled its replay-cache cap`);
  return { keyid, alg: algorithm, agent: resolved.agent };
}
