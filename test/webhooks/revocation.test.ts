/**
 * createRevocationList against a list served by a local HTTP server on 127.0.0.1, signed here
 * as a JWS by an independent signer: revoked kids refused at step 9, polling on `next_update`
 * within the floor and ceiling, fail-closed staleness after next_update + 4 × the interval, the
 * JWKS bounds (size, deadline, no redirects), and lists that must not be believed (bad signature,
 * wrong typ, issuer, key, an older list, one past its next_update).
 */

import { webcrypto } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RevocationListError } from '../../src/signatures/verify/revocation.js';
import { createRevocationList, createWebhookReceiver, WebhookError } from '../../src/webhooks/index.js';
import { BUYER_ORIGIN, completedBody, ed25519, es256, HOOK_URL, resolver, testKeys } from './fixtures.js';
import { signWebhook, type TestKey } from './signer.js';

const ISSUER = 'https://seller.example.com';
const revokedKey = testKeys.find((k) => k.kid === 'test-revoked-webhook-2026') as TestKey;
const b64url = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64url');

/** Signs a list as a JWS (flattened JSON unless `form` says otherwise). */
async function signedList(
  list: Record<string, unknown>,
  {
    key = ed25519,
    typ = 'adcp-gov-revocation+jws',
    form = 'flattened',
    extra = {},
    text = JSON.stringify(list),
  }: { key?: TestKey; typ?: string; form?: 'flattened' | 'general' | 'compact'; extra?: Record<string, unknown>; text?: string } = {},
): Promise<string> {
  const alg = key.kty === 'OKP' ? 'EdDSA' : 'ES256';
  const header = b64url(JSON.stringify({ alg, kid: key.kid, typ, ...extra }));
  const payload = b64url(text);
  const jwk = { kty: key.kty, crv: key.crv, x: key.x, ...(key.y === undefined ? {} : { y: key.y }), d: key._private_d_for_test_only };
  const privateKey = await webcrypto.subtle.importKey(
    'jwk',
    jwk,
    alg === 'EdDSA' ? { name: 'Ed25519' } : { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['sign'],
  );
  const signature = b64url(
    new Uint8Array(
      await webcrypto.subtle.sign(
        alg === 'EdDSA' ? { name: 'Ed25519' } : { name: 'ECDSA', hash: 'SHA-256' },
        privateKey,
        new TextEncoder().encode(`${header}.${payload}`),
      ),
    ),
  );
  if (form === 'compact') return `${header}.${payload}.${signature}`;
  if (form === 'general') return JSON.stringify({ payload, signatures: [{ protected: header, signature }] });
  return JSON.stringify({ payload, protected: header, signature });
}

const T0 = Date.parse('2026-04-18T14:00:00Z');
const iso = (t: number): string => new Date(t).toISOString();
const list = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  version: 1,
  issuer: ISSUER,
  updated: iso(T0),
  next_update: iso(T0 + 15 * 60_000),
  revoked_jtis: [],
  revoked_kids: [revokedKey.kid],
  ...over,
});

// The server answers with whatever `respond` says; `hits` counts requests.
let server: Server;
let base = '';
let hits = 0;
let respond: { status: number; body: string; headers?: Record<string, string>; hang?: boolean } = { status: 200, body: '' };

beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++;
    if (respond.hang === true) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      return;
    }
    res.writeHead(respond.status, { 'content-type': 'application/jose+json', ...respond.headers }).end(respond.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function serve(body: string | Promise<string>, status = 200): Promise<void> {
  respond = { status, body: await body };
  hits = 0;
}

function clock(): { now: () => number; set: (t: number) => void } {
  let t = T0;
  return { now: () => t, set: (v) => (t = v) };
}

describe('createRevocationList: reading a signed list', () => {
  test.each(['flattened', 'general', 'compact'] as const)('a %s JWS: revoked kids are revoked, others valid', async (form) => {
    await serve(signedList(list(), { form }));
    const revocations = createRevocationList({ url: `${base}/revocations.json`, issuer: ISSUER, keys: resolver, now: clock().now });
    expect(await revocations.check(revokedKey.kid)).toBe('revoked');
    expect(await revocations.check(ed25519.kid)).toBe('valid');
    expect(hits).toBe(1);
  });
  test('an ES256-signed list verifies too', async () => {
    await serve(signedList(list(), { key: es256 }));
    const revocations = createRevocationList({ url: `${base}/r`, issuer: ISSUER, keys: resolver, now: clock().now });
    expect(await revocations.check(revokedKey.kid)).toBe('revoked');
  });
  test('the receiver refuses a webhook signed by a revoked key (401 webhook_signature_key_revoked) and accepts others', async () => {
    await serve(signedList(list()));
    const receiver = createWebhookReceiver({
      endpoint: BUYER_ORIGIN,
      keys: resolver,
      revocationList: { url: `${base}/r`, issuer: ISSUER },
    });
    const created = Math.floor(Date.now() / 1000);
    // The server's list must be current by the real clock the receiver uses here.
    await serve(signedList(list({ updated: iso(Date.now()), next_update: iso(Date.now() + 15 * 60_000) })));
    const bad = await signWebhook({ key: revokedKey, url: HOOK_URL, body: completedBody(), created });
    const error = await receiver.receive({ method: 'POST', url: HOOK_URL, headers: bad.headers, body: bad.body }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookError);
    expect((error as WebhookError).webhookCode).toBe('webhook_signature_key_revoked');
    expect((error as WebhookError).httpStatus).toBe(401);
    const good = await signWebhook({ key: ed25519, url: HOOK_URL, body: completedBody(), created });
    expect((await receiver.receive({ method: 'POST', url: HOOK_URL, headers: good.headers, body: good.body })).status).toBe('completed');
    expect(hits).toBe(1);
  });
  test.each([
    [
      'a signature by another key',
      async () =>
        JSON.stringify({
          ...JSON.parse(await signedList(list())),
          signature: JSON.parse(await signedList(list(), { key: revokedKey })).signature,
        }),
      /does not verify/,
    ],
    ['the wrong typ', () => signedList(list(), { typ: 'JWT' }), /expected typ/],
    ['another issuer', () => signedList(list({ issuer: 'https://cdn.example.net' })), /issuer is not https:\/\/seller.example.com/],
    ['a next_update already past', () => signedList(list({ next_update: iso(T0 - 1) })), /next_update has already passed/],
    ['version 2', () => signedList(list({ version: 2 })), /version 1/],
    ['revoked_kids not strings', () => signedList(list({ revoked_kids: [1] })), /revoked_kids/],
    ['a key outside the JWKS', () => signedList(list(), { key: { ...ed25519, kid: 'stranger\u202e' } }), /kid "stranger\\u202e"/],
    [
      'a key of another purpose',
      () => signedList(list(), { key: testKeys.find((k) => k.kid === 'test-response-purpose-2026') as TestKey }),
      /not a EdDSA signing key/,
    ],
    ['two signatures', async () => JSON.stringify({ payload: 'e30', signatures: [{}, {}] }), /exactly one signature/],
    [
      'a signed payload repeating revoked_kids (read as its last here, maybe its first elsewhere)',
      () => {
        const text = JSON.stringify(list({ revoked_kids: [ed25519.kid] }));
        return signedList(list(), { text: text.replace('{', '{"revoked_kids":[],') });
      },
      /the list payload repeats "revoked_kids" in one object \(at \/revoked_kids\)/,
    ],
    [
      'a JWS JSON repeating its payload',
      async () => {
        const jws = await signedList(list());
        return jws.replace('{', `{"payload":${JSON.stringify(b64url(JSON.stringify(list({ revoked_kids: [] }))))},`);
      },
      /the list repeats "payload" in one object/,
    ],
    ['plain JSON, unsigned', async () => JSON.stringify(list()), /string payload, protected and signature/],
    ['not JSON at all', async () => '<html>', /neither JWS JSON nor JWS compact/],
    [
      'an unprotected header (jose would read kid and typ from it)',
      async () => JSON.stringify({ ...JSON.parse(await signedList(list())), header: { note: 'x' } }),
      /unprotected header/,
    ],
    ['a crit extension', () => signedList(list(), { extra: { crit: ['exp'], exp: 1 } }), /not a valid JWS \(ERR_JOSE_NOT_SUPPORTED\)/],
    ['alg HS256 (not in the allowlist)', () => signedList(list(), { extra: { alg: 'HS256' } }), /ERR_JOSE_ALG_NOT_ALLOWED/],
    [
      'an unencoded payload (b64: false)',
      () => signedList(list(), { extra: { b64: false, crit: ['b64'] } }),
      /crit extensions|not a valid JWS/,
    ],
    [
      'a compact JWS with a tampered payload',
      async () => {
        const [h, , sig] = (await signedList(list(), { form: 'compact' })).split('.');
        return `${h}.${b64url(JSON.stringify(list({ revoked_kids: [] })))}.${sig}`;
      },
      /does not verify/,
    ],
  ])('refuses %s; with no list held every keyid is stale', async (_name, body, message) => {
    await serve(body());
    const revocations = createRevocationList({ url: `${base}/r`, issuer: ISSUER, keys: resolver, now: clock().now });
    await expect(revocations.refresh()).rejects.toThrow(message);
    expect(revocations.lastError).toBeInstanceOf(RevocationListError);
    expect(await revocations.check(ed25519.kid)).toBe('stale');
  });
  test('an older list than the one held is refused; the held list stays', async () => {
    const c = clock();
    await serve(signedList(list()));
    const revocations = createRevocationList({ url: `${base}/r`, issuer: ISSUER, keys: resolver, now: c.now });
    await revocations.refresh();
    await serve(signedList(list({ updated: iso(T0 - 60_000), revoked_kids: [] })));
    await expect(revocations.refresh()).rejects.toThrow(/older than the one held/);
    expect(await revocations.check(revokedKey.kid)).toBe('revoked');
  });
});

describe('createRevocationList: polling and failing closed', () => {
  test('polls on next_update: no fetch before it, one at it, with the new list', async () => {
    const c = clock();
    await serve(signedList(list()));
    const revocations = createRevocationList({ url: `${base}/r`, issuer: ISSUER, keys: resolver, now: c.now });
    expect(await revocations.check(ed25519.kid)).toBe('valid');
    c.set(T0 + 15 * 60_000 - 1);
    expect(await revocations.check(ed25519.kid)).toBe('valid');
    expect(hits).toBe(1);
    await serve(signedList(list({ updated: iso(T0 + 15 * 60_000), next_update: iso(T0 + 30 * 60_000), revoked_kids: [ed25519.kid] })));
    c.set(T0 + 15 * 60_000);
    expect(await revocations.check(ed25519.kid)).toBe('revoked');
    expect(hits).toBe(1);
  });
  test.each([
    ['below the 1 min floor', 10_000, 60_000],
    ['above the 30 min ceiling', 2 * 3_600_000, 30 * 60_000],
  ])('a next_update %s polls at the bound', async (_name, declared, expected) => {
    const c = clock();
    await serve(signedList(list({ next_update: iso(T0 + declared) })));
    const revocations = createRevocationList({ url: `${base}/r`, issuer: ISSUER, keys: resolver, now: c.now });
    await revocations.check(ed25519.kid);
    c.set(T0 + expected - 1);
    await revocations.check(ed25519.kid);
    expect(hits).toBe(1);
    c.set(T0 + expected);
    await revocations.check(ed25519.kid);
    expect(hits).toBe(2);
  });
  test('an endpoint down: the held list serves through the grace (4 × interval), then every keyid is stale; retries wait 30 s', async () => {
    const c = clock();
    await serve(signedList(list()));
    const revocations = createRevocationList({ url: `${base}/r`, issuer: ISSUER, keys: resolver, now: c.now });
    await revocations.check(ed25519.kid);
    await serve('down', 503);
    const interval = 15 * 60_000;
    c.set(T0 + interval);
    expect(await revocations.check(ed25519.kid)).toBe('valid');
    expect(revocations.lastError?.message).toMatch(/HTTP 503/);
    c.set(T0 + interval + 29_999);
    expect(await revocations.check(ed25519.kid)).toBe('valid');
    expect(hits).toBe(1);
    c.set(T0 + interval + 30_000);
    await revocations.check(ed25519.kid);
    expect(hits).toBe(2);
    c.set(T0 + interval + 4 * interval);
    expect(await revocations.check(ed25519.kid)).toBe('valid');
    c.set(T0 + interval + 4 * interval + 1);
    expect(await revocations.check(ed25519.kid)).toBe('stale');
    // Refreshed again: fresh.
    await serve(signedList(list({ updated: iso(c.now()), next_update: iso(c.now() + interval) })));
    c.set(c.now() + 30_000);
    expect(await revocations.check(ed25519.kid)).toBe('valid');
  });
  test('a stale list makes the receiver answer 401 webhook_signature_revocation_stale', async () => {
    await serve('down', 500);
    const receiver = createWebhookReceiver({
      endpoint: BUYER_ORIGIN,
      keys: resolver,
      revocationList: { url: `${base}/r`, issuer: ISSUER },
    });
    const signed = await signWebhook({ key: ed25519, url: HOOK_URL, body: completedBody(), created: Math.floor(Date.now() / 1000) });
    const error = await receiver
      .receive({ method: 'POST', url: HOOK_URL, headers: signed.headers, body: signed.body })
      .catch((e: unknown) => e);
    expect((error as WebhookError).webhookCode).toBe('webhook_signature_revocation_stale');
    expect((error as WebhookError).httpStatus).toBe(401);
  });
});

describe('createRevocationList: the JWKS fetch bounds', () => {
  test('a body over maxBytes is refused (declared or streamed)', async () => {
    await serve(signedList(list({ revoked_kids: Array.from({ length: 200 }, (_, i) => `kid-${i}`) })));
    const revocations = createRevocationList({ url: `${base}/r`, issuer: ISSUER, keys: resolver, maxBytes: 1_000, now: clock().now });
    await expect(revocations.refresh()).rejects.toThrow(/exceeds 1000 bytes/);
  });
  test('a server that never finishes the body passes the deadline', async () => {
    respond = { status: 200, body: '', hang: true };
    const revocations = createRevocationList({ url: `${base}/r`, issuer: ISSUER, keys: resolver, timeoutMs: 200, now: clock().now });
    await expect(revocations.refresh()).rejects.toThrow(/deadline/);
  });
  test('redirects are not followed', async () => {
    respond = { status: 302, body: '', headers: { location: `${base}/elsewhere` } };
    const revocations = createRevocationList({ url: `${base}/r`, issuer: ISSUER, keys: resolver, now: clock().now });
    await expect(revocations.refresh()).rejects.toThrow(RevocationListError);
  });
  test('invalid options are refused', () => {
    expect(() => createRevocationList({ url: 'file:///etc/passwd', issuer: ISSUER, keys: resolver })).toThrow(TypeError);
    expect(() => createRevocationList({ url: `${base}/r`, issuer: 'seller', keys: resolver })).toThrow(/issuer/);
    expect(() =>
      createWebhookReceiver({
        endpoint: BUYER_ORIGIN,
        keys: resolver,
        revocation: () => 'valid',
        revocationList: { url: `${base}/r`, issuer: ISSUER },
      }),
    ).toThrow(/not both/);
  });
});
