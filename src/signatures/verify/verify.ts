/**
 * The webhook verifier checklist (security.mdx, "Webhook callbacks", steps 1-13) over a request
 * whose body has already passed the size and content-type gates. Each refusal is a WebhookError
 * with the taxonomy's code; the cheap checks (revocation, per-keyid cap) run before WebCrypto.
 * Everything before the key lookup is linear in the (bounded) signature headers. A fault of the
 * receiver's own parts (a key resolver, revocation check or replay store that throws or answers
 * out of contract) is never reported as the sender's.
 */

import { shownText } from '../../errors/format.js';
import { knownOptions } from '../../errors/option-rules.js';
import { WebhookError, type WebhookErrorCode } from '../../errors/webhook-error.js';
import { base64UrlDecode } from '../http/base64.js';
import { DIGEST_ALGORITHMS } from '../http/content-digest.js';
import { SIGNATURE_PARAMS, type SignatureProfile, WEBHOOK_PROFILE } from '../http/profile.js';
import { SignatureBaseError, signatureBase } from '../http/signature-base.js';
import type { RegisteredEndpoint } from '../http/target-uri.js';
import {
  type CanonicalTarget,
  canonicalHostHeader,
  canonicalTarget,
  pinnedTarget,
  registeredEndpoint,
  TargetUriError,
} from '../http/target-uri.js';
import { lastAcceptedAt, PROFILE_WINDOW, replayTtlSeconds, type SignatureTimes, windowRefusal } from '../http/window.js';
import type { ReplayClaim, ReplayStore } from '../replay/replay.js';
import type { WebhookCrypto } from '../types.js';
import { checkKeyPurpose, type KeyResolver, type ResolvedKey, verifySignature, WEBHOOK_ALGS, type WebhookAlg } from './keys.js';
import { requestRefusal } from './request-refusals.js';
import {
  checkHeaderSize,
  DEFAULT_MAX_SIGNATURE_HEADER_BYTES,
  type ParsedSignature,
  parseContentDigest,
  parseSignatureHeaders,
} from './signature-headers.js';

/** Signature parameters every webhook signature must carry (step 2). */
const REQUIRED_PARAMS = SIGNATURE_PARAMS;

/** A revocation verdict for a `keyid` (step 9). */
export type RevocationStatus = 'valid' | 'revoked' | 'stale';

/**
 * The revocation list check: `revoked` when the `keyid` is in `revoked_kids`, `stale` when the
 * list has not been refreshed within `next_update` + grace.
 */
export type RevocationCheck = (keyid: string) => RevocationStatus | Promise<RevocationStatus>;

/** A request as the verifier reads it. */
export interface VerifiableRequest {
  readonly method: string;
  /** The URL as received: absolute, or (with `endpoint`) a path such as Node's `req.url`. */
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
  /**
   * The URL (or origin) the buyer registered with the seller: `@target-uri` and `@authority` are
   * built from it, never from the request's `Host` (which a client or a proxy sets). Without it,
   * the request's own URL is used and its `Host` must match it (the spec's gate, which a
   * TLS-terminating proxy breaks); the receiver requires it.
   */
  readonly endpoint?: string | URL | RegisteredEndpoint | undefined;
  /** Longest `Signature-Input`, `Signature` and `Content-Digest` read, each. Default 8192. */
  readonly maxSignatureHeaderBytes?: number | undefined;
  /** The clock in milliseconds. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /** Default `crypto.subtle`. */
  readonly subtle?: WebhookCrypto | undefined;
  /**
   * What a nonce is unique within: `'keyid'` (default) keys the replay cache by `(keyid, nonce)`, `'destination'` by
   * `(keyid, canonical @target-uri, nonce)`. When each is sound: docs/webhooks.md, "Keys, replay and revocation".
   */
  readonly replayScope?: ReplayScope | undefined;
}

/** Every option verifyWebhookSignature takes, by name (a type test holds it to `keyof VerifySignatureOptions`). */
export const VERIFY_SIGNATURE_OPTION_KEYS = [
  'keys',
  'replayStore',
  'revocation',
  'endpoint',
  'maxSignatureHeaderBytes',
  'now',
  'subtle',
  'replayScope',
] as const satisfies readonly (keyof VerifySignatureOptions)[];

/** The replay key's scope: see {@link VerifySignatureOptions.replayScope}. */
export type ReplayScope = 'keyid' | 'destination';

/** Who signed a verified webhook. */
export interface WebhookSigner {
  readonly keyid: string;
  readonly alg: WebhookAlg;
  /** The signing agent's URL, from key resolution (never from the payload). */
  readonly agent: string;
}

/** The parameters steps 2-5 checked. */
interface CheckedParams extends SignatureTimes {
  readonly nonce: string;
  readonly keyid: string;
  readonly alg: WebhookAlg;
}

const encoder = new TextEncoder();
const fail = (code: WebhookErrorCode, message: string): WebhookError => new WebhookError(code, message);

/** A receiver part answered out of contract: the operator's fault, never the sender's. */
function misconfigured(what: string, got: unknown): WebhookError {
  const shape = got === null ? 'null' : Array.isArray(got) ? 'an array' : typeof got === 'string' ? `"${shownText(got, 32)}"` : typeof got;
  return fail('webhook_receiver_misconfigured', `${what}; got ${shape} (a fault of the receiver's configuration, not of the delivery)`);
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

/** Presence, size bound and step 1. */
function readSignature(headers: ReadonlyMap<string, string>, maxBytes: number, profile: SignatureProfile): ParsedSignature {
  const input = headers.get('signature-input');
  const value = headers.get('signature');
  if (input === undefined && value === undefined)
    throw fail('webhook_signature_required', 'expected Signature-Input and Signature headers (RFC 9421 webhook profile); got neither');
  if (input === undefined || value === undefined) {
    throw fail(
      'webhook_signature_header_malformed',
      `Signature-Input and Signature are a bound pair; got ${input === undefined ? 'Signature' : 'Signature-Input'} alone`,
    );
  }
  checkHeaderSize('Signature-Input', input, maxBytes);
  checkHeaderSize('Signature', value, maxBytes);
  const digest = headers.get('content-digest');
  if (digest !== undefined) checkHeaderSize('Content-Digest', digest, maxBytes);
  return parseSignatureHeaders(input, value, profile.signatureAlphabet);
}

/** Steps 2-4, with the types the profile gives each parameter (integers, strings, a long nonce). */
function checkParams(parsed: ParsedSignature, profile: SignatureProfile): CheckedParams {
  const missing = REQUIRED_PARAMS.filter((name) => !parsed.params.has(name));
  if (missing.length > 0)
    throw fail('webhook_signature_params_incomplete', `expected ${REQUIRED_PARAMS.join(', ')}; missing ${missing.join(', ')}`);
  const item = (name: (typeof REQUIRED_PARAMS)[number]) => parsed.params.get(name) as NonNullable<ReturnType<typeof parsed.params.get>>;
  const created = item('created');
  const expires = item('expires');
  if (created.type !== 'integer' || expires.type !== 'integer') {
    const got = created.type === 'integer' ? expires.type : created.type;
    throw fail('webhook_signature_header_malformed', `created and expires must be sf-integers (Unix seconds); got an sf-${got}`);
  }
  const strings = (['nonce', 'keyid', 'alg', 'tag'] as const).map((name) => item(name));
  const [nonce, keyid, alg, tag] = strings.map((s) => (s.type === 'string' ? s.value : undefined));
  if (nonce === undefined || keyid === undefined || alg === undefined || tag === undefined)
    throw fail('webhook_signature_header_malformed', 'nonce, keyid, alg and tag must be sf-strings');
  const nonceBytes = base64UrlDecode(nonce);
  if (nonceBytes === undefined || nonceBytes.length < 16)
    throw fail('webhook_signature_header_malformed', 'nonce must be unpadded Base64URL of at least 16 bytes');
  // Step 3.
  if (tag !== profile.tag) throw fail('webhook_signature_tag_invalid', `expected tag "${profile.tag}"; got "${shownText(tag, 64)}"`);
  // Step 4.
  if (!(WEBHOOK_ALGS as readonly string[]).includes(alg))
    throw fail('webhook_signature_alg_not_allowed', `expected alg ${WEBHOOK_ALGS.join(' or ')}; got "${shownText(alg, 40)}"`);
  return { created: created.value, expires: expires.value, nonce, keyid, alg: alg as WebhookAlg };
}

/** Step 5 at `nowMs`. */
function checkWindow(times: SignatureTimes, nowMs: number): void {
  const why = windowRefusal(times, nowMs, PROFILE_WINDOW);
  if (why !== undefined)
    throw fail(
      'webhook_signature_window_invalid',
      `${why} (created ${times.created}, expires ${times.expires}, now ${Math.floor(nowMs / 1000)})`,
    );
}

/** Step 6. */
function checkComponents(parsed: ParsedSignature, required: readonly string[]): void {
  const covered = new Set(parsed.components);
  const uncovered = required.filter((component) => !covered.has(component));
  if (uncovered.length > 0)
    throw fail(
      'webhook_signature_components_incomplete',
      `the signature must cover ${required.join(', ')}; it leaves out ${uncovered.join(', ')}`,
    );
}

/** Step 7, with the resolver's answer checked against its contract. */
async function resolveKey(keys: KeyResolver, keyid: string): Promise<ResolvedKey> {
  const resolved: unknown = await guarded(() => keys(keyid), 'webhook_signature_jwks_unavailable', 'key resolution');
  if (resolved === undefined) throw fail('webhook_signature_key_unknown', `keyid "${shownText(keyid, 64)}" is not in the signer's JWKS`);
  const { jwk, agent } = (typeof resolved === 'object' && resolved !== null ? resolved : {}) as Partial<Record<keyof ResolvedKey, unknown>>;
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk) || typeof agent !== 'string')
    throw misconfigured('the key resolver must answer undefined or { jwk: object, agent: string }', resolved);
  return resolved as ResolvedKey;
}

/** Steps 9 and 9a: the cheap refusals before any WebCrypto work. */
async function checkRevocationAndCap(options: VerifySignatureOptions, keyid: string): Promise<void> {
  const { revocation, replayStore } = options;
  if (revocation !== undefined) {
    const status: unknown = await guarded(() => revocation(keyid), 'webhook_signature_jwks_unavailable', 'the revocation check');
    if (status === 'revoked') throw fail('webhook_signature_key_revoked', `keyid "${shownText(keyid, 64)}" is revoked`);
    if (status === 'stale')
      throw fail('webhook_signature_revocation_stale', 'the revocation list has not been refreshed within its grace period');
    if (status !== 'valid') throw misconfigured("the revocation check must answer 'valid', 'revoked' or 'stale'", status);
  }
  const full: unknown = await guarded(() => replayStore.capReached(keyid), 'webhook_replay_store_unavailable', 'the replay store');
  if (typeof full !== 'boolean') throw misconfigured("the replay store's capReached must answer a boolean", full);
  if (full) throw fail('webhook_signature_rate_abuse', `keyid "${shownText(keyid, 64)}" has filled its replay-cache cap`);
}

function endpointOf(endpoint: VerifySignatureOptions['endpoint']): RegisteredEndpoint | undefined {
  if (endpoint === undefined || (typeof endpoint === 'object' && 'origin' in endpoint && 'pathAndQuery' in endpoint)) return endpoint;
  try {
    return registeredEndpoint(String(endpoint));
  } catch {
    throw misconfigured('endpoint must be the absolute http(s) URL (or origin) registered with the seller', String(endpoint));
  }
}

/** Runs profile-neutral work (target canonicalization, the signature base), its refusals under the webhook codes. */
function webhookCoded<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof TargetUriError) throw fail('webhook_target_uri_malformed', error.message);
    if (error instanceof SignatureBaseError)
      throw fail(
        error.reason === 'header-absent' ? 'webhook_signature_components_incomplete' : 'webhook_signature_header_malformed',
        error.message,
      );
    throw error;
  }
}

/** The request's target as received: its own URL, gated by its `:authority` / `Host` (step 10's rule). */
function receivedTarget(request: VerifiableRequest, endpoint: RegisteredEndpoint | undefined): CanonicalTarget {
  const host = request.headers.get('host');
  const pseudo = request.headers.get(':authority');
  const target = request.url.startsWith('/')
    ? canonicalTarget(
        `${endpoint?.origin.slice(0, endpoint.origin.indexOf(':')) ?? 'https'}://${pseudo ?? host ?? endpoint?.authority ?? ''}${request.url}`,
      )
    : canonicalTarget(request.url);
  const urlScheme = target.targetUri.slice(0, target.targetUri.indexOf(':'));
  const hostAuthority = host === undefined ? undefined : canonicalHostHeader(host, urlScheme);
  const pseudoAuthority = pseudo === undefined ? undefined : canonicalHostHeader(pseudo, urlScheme);
  if (hostAuthority !== undefined && pseudoAuthority !== undefined && hostAuthority !== pseudoAuthority)
    throw fail('webhook_target_uri_malformed', ':authority and Host differ');
  const received = pseudoAuthority ?? hostAuthority;
  if (received !== undefined && received !== target.authority) {
    throw fail(
      'webhook_target_uri_malformed',
      `the request's authority "${shownText(received, 64)}" does not match the target URI's "${shownText(target.authority, 64)}"`,
    );
  }
  return target;
}

/** Which of `@authority` and `@target-uri` a delivery signed for `signed` has that `pinned` has not. */
function differences(pinned: CanonicalTarget, signed: CanonicalTarget): string {
  const parts: string[] = [];
  if (signed.authority !== pinned.authority)
    parts.push(`@authority "${shownText(signed.authority, 64)}" (registered "${shownText(pinned.authority, 64)}")`);
  if (
    signed.targetUri.slice(signed.targetUri.indexOf('://') + 3 + signed.authority.length) !==
    pinned.targetUri.slice(pinned.targetUri.indexOf('://') + 3 + pinned.authority.length)
  )
    parts.push(`@target-uri "${shownText(signed.targetUri, 96)}" (registered "${shownText(pinned.targetUri, 96)}")`);
  if (parts.length === 0) parts.push(`@target-uri scheme (registered "${shownText(pinned.targetUri, 96)}")`);
  return parts.join(' and ');
}

/** Step 10: the base over the pinned (or received) target, and the signature over it. */
async function verifyBase(
  request: VerifiableRequest,
  parsed: ParsedSignature,
  key: { resolved: ResolvedKey; alg: WebhookAlg; keyid: string },
  options: VerifySignatureOptions,
): Promise<CanonicalTarget> {
  const subtle = options.subtle ?? crypto.subtle;
  const endpoint = endpointOf(options.endpoint);
  const target = webhookCoded(() => (endpoint === undefined ? receivedTarget(request, undefined) : pinnedTarget(endpoint, request.url)));
  const verifies = async (t: CanonicalTarget) =>
    verifySignature(
      key.resolved.jwk,
      key.alg,
      parsed.signature,
      encoder.encode(webhookCoded(() => signatureBase(parsed, { method: request.method, target: t, headers: request.headers }))),
      subtle,
    );
  if (await verifies(target)) return target;
  // A delivery signed for another endpoint is told so, rather than as a bad signature.
  if (endpoint !== undefined) {
    const received = (() => {
      try {
        return receivedTarget(request, endpoint);
      } catch {
        return undefined;
      }
    })();
    if (received !== undefined && received.targetUri !== target.targetUri && (await verifies(received)))
      throw fail('webhook_target_uri_malformed', `the delivery was signed for ${differences(target, received)}`);
  }
  throw fail('webhook_signature_invalid', `the ${key.alg} signature does not verify against keyid "${shownText(key.keyid, 64)}"`);
}

/** Step 11. */
async function checkDigest(request: VerifiableRequest, subtle: WebhookCrypto): Promise<void> {
  const known = parseContentDigest(request.headers.get('content-digest') as string).filter(
    (entry) => DIGEST_ALGORITHMS[entry.algorithm] !== undefined,
  );
  if (known.length === 0) throw fail('webhook_signature_digest_mismatch', 'Content-Digest has no sha-256 or sha-512 digest');
  for (const entry of known) {
    const digest = new Uint8Array(
      await subtle.digest(DIGEST_ALGORITHMS[entry.algorithm] as string, request.body as Uint8Array<ArrayBuffer>),
    );
    if (!timingSafeEqual(digest, entry.digest))
      throw fail('webhook_signature_digest_mismatch', `the body's ${entry.algorithm} digest does not match Content-Digest`);
  }
}

/**
 * Steps 12-13: one atomic claim whose entry outlives the last instant the signature is accepted
 * (window.ts), and the window checked again once the claim is back, so a replay that passed step 5
 * but reached the store after the first claim's entry expired is refused all the same.
 */
async function claimNonce(
  params: CheckedParams,
  target: CanonicalTarget,
  options: VerifySignatureOptions,
  clock: () => number,
): Promise<void> {
  const { keyid, nonce } = params;
  const store = options.replayStore;
  const ttl = replayTtlSeconds(params, clock(), PROFILE_WINDOW);
  const claim: unknown = await guarded<ReplayClaim>(
    () => (options.replayScope === 'destination' ? store.claim(keyid, nonce, ttl, target.targetUri) : store.claim(keyid, nonce, ttl)),
    'webhook_replay_store_unavailable',
    'the replay store',
  );
  if (claim === 'replayed') throw fail('webhook_signature_replayed', `nonce already seen for keyid "${shownText(keyid, 64)}"`);
  if (claim === 'rate_abuse') throw fail('webhook_signature_rate_abuse', `keyid "${shownText(keyid, 64)}" has filled its replay-cache cap`);
  if (claim !== 'claimed') throw misconfigured("the replay store's claim must answer 'claimed', 'replayed' or 'rate_abuse'", claim);
  const now = clock();
  if (now > lastAcceptedAt(params, PROFILE_WINDOW))
    throw fail(
      'webhook_signature_window_invalid',
      `the signature expired while it was verified (expires ${params.expires}, now ${Math.floor(now / 1000)})`,
    );
}

/**
 * Runs steps 1-13 of the webhook verifier checklist in the spec's order.
 *
 * @param request - Method, URL, headers (lowercase names) and raw body bytes.
 * @param options - Key resolution, replay store, revocation check, registered endpoint, bounds, clock, WebCrypto.
 * @returns The signer (`keyid`, `alg`, `agent`), once the nonce is claimed.
 * @throws {WebhookError} With the taxonomy's `webhook_*` code at the first failing step;
 *   `webhook_receiver_misconfigured` when one of the options answers out of contract.
 * @throws {DecodeError} `INVALID_OPTION` for a name that is not an option (before any header is read or key resolved).
 * @example
 * const signer = await verifyWebhookSignature({ method, url, headers, body }, { keys, replayStore, endpoint: 'https://buyer.example' });
 */
export async function verifyWebhookSignature(request: VerifiableRequest, options: VerifySignatureOptions): Promise<WebhookSigner> {
  knownOptions('verifyWebhookSignature', options, VERIFY_SIGNATURE_OPTION_KEYS);
  return verifyProfileSignature(request, options, WEBHOOK_PROFILE);
}

/**
 * The same checklist under another AdCP RFC 9421 profile (its tag, components, `Signature`
 * alphabet and key purposes); the request profile's checklist is the webhook one with those
 * swapped, and its refusals carry the request taxonomy's `request_*` codes.
 *
 * @param request - Method, URL, headers (lowercase names) and raw body bytes.
 * @param options - As {@link verifyWebhookSignature}'s.
 * @param profile - The profile the signature must follow.
 * @returns The signer, once the nonce is claimed.
 * @throws {WebhookError} As {@link verifyWebhookSignature}, under the webhook profile.
 * @throws {RequestSignatureError} Under a request profile: the same step's `request_*` code.
 * @example
 * await verifyProfileSignature(request, { keys, replayStore }, REQUEST_PROFILES.base64url);
 */
export async function verifyProfileSignature(
  request: VerifiableRequest,
  options: VerifySignatureOptions,
  profile: SignatureProfile,
): Promise<WebhookSigner> {
  if (profile.refusals === 'webhook') return checklist(request, options, profile);
  try {
    return await checklist(request, options, profile);
  } catch (error) {
    throw requestRefusal(error);
  }
}

/** Steps 1-13 under `profile`, refusing with the webhook taxonomy's codes. */
async function checklist(request: VerifiableRequest, options: VerifySignatureOptions, profile: SignatureProfile): Promise<WebhookSigner> {
  const clock = options.now ?? Date.now;
  const maxBytes = options.maxSignatureHeaderBytes ?? DEFAULT_MAX_SIGNATURE_HEADER_BYTES;
  const parsed = readSignature(request.headers, maxBytes, profile);
  const params = checkParams(parsed, profile);
  checkWindow(params, clock());
  checkComponents(parsed, profile.requiredComponents(request.body.length > 0));
  const resolved = await resolveKey(options.keys, params.keyid);
  checkKeyPurpose(resolved.jwk, params.alg, profile.keyPurposes);
  await checkRevocationAndCap(options, params.keyid);
  const target = await verifyBase(request, parsed, { resolved, alg: params.alg, keyid: params.keyid }, options);
  if (parsed.components.includes('content-digest')) await checkDigest(request, options.subtle ?? crypto.subtle);
  await claimNonce(params, target, options, clock);
  return { keyid: params.keyid, alg: params.alg, agent: resolved.agent };
}
