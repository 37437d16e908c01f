/**
 * Issue 19 item 9: a failing JWKS endpoint is not fetched on every request. After an HTTP error,
 * a network error, or a failed refresh of an expired cache, requests the cache cannot answer are
 * refused as unavailable (503, ours) without a fetch until the negative-cache period (default 30 s,
 * at most the spec's 60 s) has passed; for any arrival pattern, the fetches are bounded by the
 * elapsed time over that period, never by the number of requests.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { JwksError } from '../../../src/signatures/verify/jwks.js';
import { createJwksResolver, createWebhookReceiver, WebhookError } from '../../../src/webhooks/index.js';
import { BUYER_ORIGIN, completedBody, ed25519, HOOK_URL, publicJwks, SELLER } from '../../webhooks/fixtures.js';
import { signWebhook } from '../../webhooks/signer.js';

const JWKS = JSON.stringify({ keys: publicJwks });
type Outcome = 'ok' | '503' | 'network';

/** A fetch that answers each call with the next outcome (the last one repeats), counting calls. */
function endpoint(outcomes: Outcome[]) {
  let calls = 0;
  const fetch = async (): Promise<Response> => {
    const outcome = outcomes[Math.min(calls, outcomes.length - 1)];
    calls++;
    if (outcome === 'network') throw new TypeError('fetch failed');
    return outcome === 'ok' ? new Response(JWKS) : new Response('down', { status: 503 });
  };
  return { fetch, calls: () => calls };
}

async function settle(answer: unknown): Promise<string> {
  return Promise.resolve(answer).then(
    (r) => (r === undefined ? 'unknown' : 'key'),
    (e: unknown) => (e instanceof JwksError ? 'unavailable' : String(e)),
  );
}

describe('createJwksResolver after a failure', () => {
  test.each([
    ['an HTTP 503', ['503'] as Outcome[]],
    ['a network error', ['network'] as Outcome[]],
  ])('%s: one fetch, then no fetch for 30 s however many requests, then one', async (_name, outcomes) => {
    let t = 0;
    const server = endpoint(outcomes);
    const keys = createJwksResolver({ url: 'https://seller.example.com/jwks', agent: SELLER, fetch: server.fetch, now: () => t });
    for (let i = 0; i < 100; i++) {
      t = i * 299;
      expect(await settle(keys(i % 2 === 0 ? ed25519.kid : `kid-${i}`))).toBe('unavailable');
    }
    expect(server.calls()).toBe(1);
    t = 30_000;
    await settle(keys(ed25519.kid));
    expect(server.calls()).toBe(2);
  });
  test('an expired cache whose refresh fails: no refetch per request; a recovered endpoint is read after the period', async () => {
    let t = 0;
    const server = endpoint(['ok', '503', 'ok']);
    const keys = createJwksResolver({ url: 'https://seller.example.com/jwks', agent: SELLER, fetch: server.fetch, now: () => t });
    expect(await settle(keys(ed25519.kid))).toBe('key');
    t = 5 * 60_000;
    for (let i = 0; i < 50; i++) expect(await settle(keys(ed25519.kid))).toBe('unavailable');
    expect(server.calls()).toBe(2);
    t += 30_000;
    expect(await settle(keys(ed25519.kid))).toBe('key');
    expect(server.calls()).toBe(3);
  });
  test('a period over the spec’s 60 s, a TTL over 30 min: INVALID_OPTION at creation, never clamped in silence', () => {
    const base = { url: 'https://seller.example.com/jwks', agent: SELLER };
    expect(() => createJwksResolver({ ...base, negativeCacheMs: 3_600_000 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    expect(() => createJwksResolver({ ...base, cacheTtlMs: 30 * 60_000 + 1 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    expect(() => createJwksResolver({ ...base, negativeCacheMs: 60_000, cacheTtlMs: 30 * 60_000 })).not.toThrow();
  });
  test.each(['cacheTtlMs', 'refetchCooldownMs', 'negativeCacheMs'])(
    '%s that is NaN, negative, zero, fractional or a string: INVALID_OPTION at creation, alone and through the receiver (issue 28, item 7)',
    (name) => {
      for (const value of [Number.NaN, -1, 0, 1.5, '30000', null, Number.POSITIVE_INFINITY]) {
        const options = { url: 'https://seller.example.com/jwks', agent: SELLER, [name]: value } as never;
        expect(() => createJwksResolver(options)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
        expect(() => createWebhookReceiver({ endpoint: BUYER_ORIGIN, jwks: options })).toThrow(
          expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining(`option ${name}`) }),
        );
      }
    },
  );
  test('with the defaults, 30 unauthenticated requests for unknown kids fetch once (the cooldown holds)', async () => {
    const server = endpoint(['ok']);
    const keys = createJwksResolver({ url: 'https://seller.example.com/jwks', agent: SELLER, fetch: server.fetch, now: () => 0 });
    for (let i = 0; i < 30; i++) await settle(keys(`forged-${i}`));
    expect(server.calls()).toBe(1);
  });
  test('for any arrival times and outcomes, fetches ≤ 1 + elapsed ÷ the shorter of cooldown and negative period', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<Outcome>('ok', '503', 'network'), { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 20_000 }), fc.boolean()), { minLength: 1, maxLength: 200 }),
        async (outcomes, arrivals) => {
          let t = 0;
          const server = endpoint(outcomes);
          const keys = createJwksResolver({ url: 'https://seller.example.com/jwks', agent: SELLER, fetch: server.fetch, now: () => t });
          for (const [gap, known] of arrivals) {
            t += gap;
            await settle(keys(known ? ed25519.kid : `rotated-${t}`));
          }
          // A fetch happens only at the first request, after a success's cache TTL or cooldown, or after a failure's period.
          expect(server.calls()).toBeLessThanOrEqual(1 + Math.floor(t / 30_000));
        },
      ),
      { numRuns: 200 },
    );
  });
  test('through the receiver: 503 webhook_signature_jwks_unavailable (ours), one fetch for many deliveries', async () => {
    const server = endpoint(['503']);
    const receiver = createWebhookReceiver({
      endpoint: BUYER_ORIGIN,
      jwks: { url: 'https://seller.example.com/jwks', agent: SELLER, fetch: server.fetch },
    });
    const signed = await signWebhook({ key: ed25519, url: HOOK_URL, body: completedBody(), created: Math.floor(Date.now() / 1000) });
    for (let i = 0; i < 20; i++) {
      const error = await receiver
        .receive({ method: 'POST', url: HOOK_URL, headers: signed.headers, body: signed.body })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookError);
      expect(error).toMatchObject({ webhookCode: 'webhook_signature_jwks_unavailable', httpStatus: 503 });
    }
    expect(server.calls()).toBe(1);
  });
});

describe('a JWKS that repeats a member in one object', () => {
  test.each([
    ['a key repeating x', JWKS.replace('"x":', '"x":"AAAA","x":'), /JWKS repeats "x" in one object \(at \/keys\/0\/x\)/],
    ['the set repeating keys', `{"keys":[],${JWKS.slice(1)}`, /JWKS repeats "keys" in one object \(at \/keys\)/],
  ])('%s: unavailable, never read as its last value', async (_name, body, message) => {
    const keys = createJwksResolver({ url: 'https://seller.example.com/jwks', agent: SELLER, fetch: async () => new Response(body) });
    await expect(Promise.resolve(keys(ed25519.kid))).rejects.toThrow(message);
  });
});
