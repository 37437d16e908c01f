/**
 * The AdCP webhook-signing conformance vectors (8 positive, 21 negative) through
 * verifyWebhookSignature, with the clock at each vector's reference_now, the JWKS filtered to its
 * jwks_ref (with 020's override), and the harness state 016-019 declare installed; plus the
 * request-signing @target-uri canonicalization cases and the signature bases the vectors give.
 */
import { describe, expect, test } from 'vitest';
import { WebhookError } from '../../src/errors/webhook-error.js';
import { signatureBase } from '../../src/signatures/http/signature-base.js';
import { canonicalTarget, TargetUriError } from '../../src/signatures/http/target-uri.js';
import { createMemoryReplayStore, type ReplayStore } from '../../src/signatures/replay/replay.js';
import type { ResolvedKey, WebhookJwk } from '../../src/signatures/verify/keys.js';
import { parseSignatureHeaders } from '../../src/signatures/verify/signature-headers.js';
import { type RevocationCheck, type VerifiableRequest, verifyWebhookSignature } from '../../src/signatures/verify/verify.js';
import { canonicalizationCases, readVector, readVectorDir } from '../fixtures/vectors.js';

interface SigningVector {
  name: string;
  reference_now: number;
  request: { method: string; url: string; headers: Record<string, string>; body: string };
  jwks_ref: string[];
  jwks_override?: Record<string, WebhookJwk>;
  expected_signature_base?: string;
  expected_outcome: { success: boolean; error_code?: string };
  test_harness_state?: {
    replay_cache_entries?: Array<{ keyid: string; nonce: string }>;
    revoked_kids?: string[];
    per_keyid_cap_filled_for?: string;
    revocation_list_stale_seconds?: number;
  };
}

const keys = readVector<{ keys: WebhookJwk[] }>('webhook-signing/keys.json').keys;
const positive = readVectorDir<SigningVector>('webhook-signing/positive');
const negative = readVectorDir<SigningVector>('webhook-signing/negative');

/** The agent every vector key is published under (the vectors do not name one). */
const AGENT = 'https://seller.example.com/adcp';

function requestOf(v: SigningVector): VerifiableRequest {
  const headers = new Map(Object.entries(v.request.headers).map(([k, value]) => [k.toLowerCase(), value]));
  return { method: v.request.method, url: v.request.url, headers, body: new TextEncoder().encode(v.request.body) };
}

/** Builds the verifier's state for a vector: its JWKS subset, replay store and revocation list. */
async function setup(
  v: SigningVector,
): Promise<{ resolver: (kid: string) => ResolvedKey | undefined; store: ReplayStore; revocation: RevocationCheck }> {
  const jwks = new Map<string, WebhookJwk>();
  for (const kid of v.jwks_ref) {
    const key = v.jwks_override?.[kid] ?? keys.find((k) => k.kid === kid);
    if (key !== undefined) {
      // The private member never reaches the verifier.
      const { _private_d_for_test_only: _d, ...publicKey } = key;
      jwks.set(kid, publicKey);
    }
  }
  const state = v.test_harness_state ?? {};
  const now = () => v.reference_now * 1000;
  const cap = state.per_keyid_cap_filled_for === undefined ? undefined : 3;
  const store = createMemoryReplayStore({ now, ...(cap === undefined ? {} : { perKeyidCap: cap }) });
  for (const entry of state.replay_cache_entries ?? []) expect(await store.claim(entry.keyid, entry.nonce, 360)).toBe('claimed');
  if (state.per_keyid_cap_filled_for !== undefined) {
    for (let i = 0; i < (cap ?? 0); i++)
      expect(await store.claim(state.per_keyid_cap_filled_for, `prefill-nonce-${i}-aaaaaaaaaaaa`, 360)).toBe('claimed');
  }
  const revoked = new Set(state.revoked_kids ?? []);
  const stale = state.revocation_list_stale_seconds !== undefined;
  const revocation: RevocationCheck = (kid) => (stale ? 'stale' : revoked.has(kid) ? 'revoked' : 'valid');
  return { resolver: (kid) => (jwks.has(kid) ? { jwk: jwks.get(kid) as WebhookJwk, agent: AGENT } : undefined), store, revocation };
}

async function run(v: SigningVector) {
  const { resolver, store, revocation } = await setup(v);
  return verifyWebhookSignature(requestOf(v), { keys: resolver, replayStore: store, revocation, now: () => v.reference_now * 1000 });
}

describe('webhook-signing positive vectors', () => {
  test('all 8 are present', () => expect(positive).toHaveLength(8));
  for (const { file, vector } of positive) {
    test(`${file}: verifies, and our signature base is byte-identical to the vector's`, async () => {
      const signer = await run(vector);
      const kid = vector.jwks_ref[0] as string;
      expect(signer).toEqual({
        keyid: kid,
        alg: keys.find((k) => k.kid === kid)?.alg === 'ES256' ? 'ecdsa-p256-sha256' : 'ed25519',
        agent: AGENT,
      });
      const request = requestOf(vector);
      const parsed = parseSignatureHeaders(request.headers.get('signature-input') as string, request.headers.get('signature') as string);
      expect(signatureBase(parsed, { method: request.method, target: canonicalTarget(request.url), headers: request.headers })).toBe(
        vector.expected_signature_base,
      );
    });
  }
  test('016 black-box: the same signed request delivered twice is accepted once, then replayed', async () => {
    const v = negative.find((n) => n.file.startsWith('016'))!.vector;
    const { test_harness_state: _, ...fresh } = v;
    const { resolver, store, revocation } = await setup(fresh as SigningVector);
    const options = { keys: resolver, replayStore: store, revocation, now: () => v.reference_now * 1000 };
    await expect(verifyWebhookSignature(requestOf(v), options)).resolves.toMatchObject({ keyid: 'test-ed25519-webhook-2026' });
    await expect(verifyWebhookSignature(requestOf(v), options)).rejects.toMatchObject({ webhookCode: 'webhook_signature_replayed' });
  });
});

describe('webhook-signing negative vectors', () => {
  test('all 21 are present', () => expect(negative).toHaveLength(21));
  for (const { file, vector } of negative) {
    test(`${file}: ${vector.expected_outcome.error_code}`, async () => {
      const error = await run(vector).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(WebhookError);
      expect((error as WebhookError).webhookCode).toBe(vector.expected_outcome.error_code);
      expect((error as WebhookError).httpStatus).toBe(401);
    });
  }
  test('018: the full per-keyid cap refuses before any signature is verified', async () => {
    const v = negative.find((n) => n.file.startsWith('018'))!.vector;
    const { resolver, store, revocation } = await setup(v);
    let verifies = 0;
    const subtle = new Proxy(crypto.subtle, {
      get(target, prop) {
        const value = Reflect.get(target, prop) as unknown;
        if (prop === 'verify') return (...args: Parameters<typeof crypto.subtle.verify>) => (verifies++, target.verify(...args));
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await expect(
      verifyWebhookSignature(requestOf(v), { keys: resolver, replayStore: store, revocation, subtle, now: () => v.reference_now * 1000 }),
    ).rejects.toMatchObject({
      webhookCode: 'webhook_signature_rate_abuse',
    });
    expect(verifies).toBe(0);
  });
});

describe('request-signing/canonicalization.json (@target-uri rules shared by webhooks)', () => {
  const cases = canonicalizationCases();
  for (const c of cases) {
    test(c.name, () => {
      if (c.reject === true) {
        let error: unknown;
        try {
          canonicalTarget(c.input_url);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(TargetUriError);
      } else {
        expect(canonicalTarget(c.input_url)).toEqual({ targetUri: c.expected_target_uri, authority: c.expected_authority });
      }
    });
  }
});
