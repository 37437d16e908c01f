/**
 * createWebhookReceiver end to end in-process: the spec's order (405/413/415 before any digest,
 * the verifier checklist, duplicate keys, envelope, result), HMAC only on opt-in with every HMAC
 * vector, mode mismatch both ways, WHATWG Request bodies, and the JWKS resolver's bounds and cache.
 * The test signer's bases are checked against the signing vectors first.
 */
import { describe, expect, test } from 'vitest';
import { SchemaMismatchError } from '../../src/errors/errors.js';
import { checkHmacSecret, hmacSignature } from '../../src/signatures/verify/hmac.js';
import {
  createJwksResolver,
  createWebhookReceiver,
  verifyLegacyHmac,
  WebhookError,
  WebhookTaskFailedError,
  webhookResponse,
} from '../../src/webhooks/index.js';
import { readVector, readVectorDir } from '../fixtures/vectors.js';
import { countingSubtle } from './counting-subtle.js';
import {
  BUYER_ORIGIN,
  completedBody,
  completedResult,
  ed25519,
  es256,
  failedBody,
  HOOK_URL,
  publicJwks,
  requestKey,
  resolver,
  SELLER,
  workingBody,
} from './fixtures.js';
import { signWebhook } from './signer.js';

const NOW = 1_776_520_800;
const now = () => NOW * 1000;

async function refused(promise: Promise<unknown>): Promise<WebhookError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookError);
  return error as WebhookError;
}

describe('the test signer is independent and agrees with the vectors', () => {
  for (const { file, vector } of readVectorDir<{
    request: { url: string; headers: Record<string, string>; body: string };
    jwks_ref: string[];
    expected_signature_base: string;
  }>('webhook-signing/positive')) {
    if (!['001', '002', '007', '008'].some((p) => file.startsWith(p))) continue;
    test(`${file}: same signature base${file.startsWith('002') ? '' : ' and the same Ed25519 signature'}`, async () => {
      const key = [ed25519, es256, requestKey].find((k) => k.kid === vector.jwks_ref[0])!;
      const params = /created=(\d+);expires=(\d+);nonce="([^"]+)"/.exec(vector.request.headers['Signature-Input']!)!;
      const signed = await signWebhook({
        key,
        url: vector.request.url,
        body: vector.request.body,
        created: Number(params[1]),
        expires: Number(params[2]),
        nonce: params[3]!,
      });
      expect(signed.base).toBe(vector.expected_signature_base);
      expect(signed.headers['content-digest']).toBe(vector.request.headers['Content-Digest']);
      if (!file.startsWith('002')) expect(signed.headers.signature).toBe(vector.request.headers.Signature);
    });
  }
});

async function signedRequest(body: string, extra: Partial<Parameters<typeof signWebhook>[0]> = {}) {
  const signed = await signWebhook({ key: ed25519, url: HOOK_URL, body, created: NOW - 5, ...extra });
  return { method: 'POST', url: HOOK_URL, headers: { host: 'buyer.example.com', ...signed.headers }, body: signed.body };
}

describe('createWebhookReceiver (RFC 9421)', () => {
  const receiver = () => createWebhookReceiver({ endpoint: BUYER_ORIGIN, keys: resolver, now });

  test('a signed completed create_media_buy: typed data, envelope fields and signer', async () => {
    const hook = await receiver().receive(await signedRequest(completedBody()));
    expect(hook.signer).toEqual({ keyid: 'test-ed25519-webhook-2026', alg: 'ed25519', agent: SELLER });
    expect(hook).toMatchObject({
      kind: 'delivered',
      taskType: 'create_media_buy',
      taskId: 'task_cmb_4821',
      operationId: 'op_7d1e',
      idempotencyKey: 'whk_01J9Z6Q2V8W4X7Y3B5C1D9E2F0',
      status: 'completed',
    });
    if (hook.kind === 'delivered' && hook.taskType === 'create_media_buy' && hook.data !== null && 'media_buy_id' in hook.data)
      expect(hook.data.media_buy_id).toBe('mb_4821');
    else throw new Error('expected typed create_media_buy data');
  });
  test('ES256 and a request-signing key verify too', async () => {
    for (const key of [es256, requestKey]) {
      const hook = await receiver().receive(await signedRequest(completedBody(), { key }));
      expect(hook.signer.keyid).toBe(key.kid);
    }
  });
  test('failed with adcp_error: resolved as a task-failed outcome carrying its error, the envelope and signer, answered 200', async () => {
    const outcome = await receiver().receive(await signedRequest(failedBody()));
    if (outcome.kind !== 'task-failed') throw new Error(`expected a task-failed outcome, got ${outcome.kind}`);
    expect(outcome).toMatchObject({
      taskType: 'create_media_buy',
      taskId: 'task_cmb_4821',
      idempotencyKey: 'whk_01J9Z6Q2V8W4X7Y3B5C1D9E2F1',
      status: 'failed',
      signer: { agent: SELLER },
      dedup: undefined,
    });
    const failure = outcome.error;
    expect(failure).toBeInstanceOf(WebhookTaskFailedError);
    expect(failure.adcpError?.code).toBe('BUDGET_TOO_LOW');
    expect(failure.recovery.recovery).toBe('correctable');
    expect(failure.webhook).toMatchObject({
      taskId: 'task_cmb_4821',
      idempotencyKey: 'whk_01J9Z6Q2V8W4X7Y3B5C1D9E2F1',
      status: 'failed',
      signer: { agent: SELLER },
    });
    expect(webhookResponse(outcome)).toEqual({ status: 200, headers: {}, blame: 'none' });
  });
  test('a refusal still throws, typed, with its code: only what is no delivery leaves receive() as a throw', async () => {
    const r = await signedRequest(completedBody());
    const forged = { ...r, body: new TextEncoder().encode(completedBody({ message: 'forged' })) };
    const error = await receiver()
      .receive(forged)
      .then(
        (outcome) => outcome.kind,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(WebhookError);
    expect(error).toMatchObject({ webhookCode: 'webhook_signature_digest_mismatch', httpStatus: 401, blame: 'delivery' });
  });
  test('webhookResponse answers every outcome 200, and an Error that carries a kind is no outcome', async () => {
    const delivered = await receiver().receive(await signedRequest(completedBody()));
    expect(webhookResponse(delivered)).toEqual({ status: 200, headers: {}, blame: 'none' });
    const impostor = Object.assign(new Error('not an outcome'), { kind: 'delivered' });
    expect(webhookResponse(impostor)).toEqual({ status: 500, headers: {}, blame: 'internal' });
    expect(webhookResponse({ kind: 'something-else' })).toEqual({ status: 500, headers: {}, blame: 'internal' });
  });
  test('working: the progress result', async () => {
    const hook = await receiver().receive(await signedRequest(workingBody()));
    expect(hook).toMatchObject({ kind: 'delivered', status: 'working', data: { percentage: 60, current_step: 'trafficking' } });
  });
  test('a WHATWG Request is read from its stream', async () => {
    const r = await signedRequest(completedBody());
    const request = new Request(HOOK_URL, { method: 'POST', headers: r.headers, body: r.body });
    expect((await receiver().receive(request)).status).toBe('completed');
  });
  test('405 for GET, 415 for text/plain, 413 for an oversized body: no digest, no verify, nothing parsed', async () => {
    const { subtle, calls } = countingSubtle();
    const rx = createWebhookReceiver({ endpoint: BUYER_ORIGIN, keys: resolver, now, subtle, maxBodyBytes: 4096 });
    const r = await signedRequest(completedBody());
    expect((await refused(rx.receive({ ...r, method: 'GET' }))).httpStatus).toBe(405);
    expect(await refused(rx.receive({ ...r, headers: { ...r.headers, 'content-type': 'text/plain' } }))).toMatchObject({
      webhookCode: 'webhook_content_type_invalid',
      httpStatus: 415,
    });
    const big = await signedRequest(completedBody({ message: 'x'.repeat(5000) }));
    expect(await refused(rx.receive(big))).toMatchObject({ webhookCode: 'webhook_body_too_large', httpStatus: 413 });
    expect(await refused(rx.receive({ ...big, body: new TextDecoder().decode(big.body) }))).toMatchObject({ httpStatus: 413 });
    const streamed = new Request(HOOK_URL, {
      method: 'POST',
      headers: big.headers,
      body: new Blob([big.body as Uint8Array<ArrayBuffer>]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(await refused(rx.receive(streamed))).toMatchObject({ httpStatus: 413 });
    expect(calls).toEqual({ digest: 0, verify: 0, importKey: 0, sign: 0 });
  });
  test('a signed body with duplicate keys: webhook_body_malformed after the signature verified, nonce burned', async () => {
    const body = completedBody().replace('"status":"completed"', '"status":"completed","status":"failed"');
    const r = await signedRequest(body);
    const rx = receiver();
    expect(await refused(rx.receive(r))).toMatchObject({
      webhookCode: 'webhook_body_malformed',
      duplicateKeys: ['status'],
      httpStatus: 401,
    });
    expect((await refused(rx.receive(r))).webhookCode).toBe('webhook_signature_replayed');
  });
  test('a valid signature over a result that does not match the schema: SCHEMA_MISMATCH (400)', async () => {
    const error = await receiver()
      .receive(await signedRequest(completedBody({ result: { ...completedResult, revision: 'one' } })))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaMismatchError);
    expect(webhookResponse(error).status).toBe(400);
  });
  test("the request's own Host is not what is checked: the registered endpoint is (a proxy may rewrite Host)", async () => {
    const r = await signedRequest(completedBody());
    const hook = await receiver().receive({ ...r, headers: { ...r.headers, host: 'internal-lb:8080' } });
    expect(hook.status).toBe('completed');
  });
  test('a delivery signed for another host: webhook_target_uri_malformed naming @authority', async () => {
    const evil = 'https://evil.example/adcp/webhook/create_media_buy/agent_123/op_7d1e';
    const r = await signedRequest(completedBody(), { url: evil });
    const error = await refused(receiver().receive({ ...r, url: evil, headers: { ...r.headers, host: 'evil.example' } }));
    expect(error.webhookCode).toBe('webhook_target_uri_malformed');
    expect(error.message).toMatch(/@authority "evil.example" \(registered "buyer.example.com"\)/);
  });
  test('unsigned: webhook_signature_required with a WWW-Authenticate challenge', async () => {
    const error = await refused(
      receiver().receive({ method: 'POST', url: HOOK_URL, headers: { 'content-type': 'application/json' }, body: completedBody() }),
    );
    expect(webhookResponse(error)).toEqual({
      status: 401,
      headers: { 'www-authenticate': 'Signature error="webhook_signature_required"' },
      blame: 'delivery',
    });
  });
  test('HMAC headers on a 9421 registration: webhook_mode_mismatch', async () => {
    const headers = { 'content-type': 'application/json', 'x-adcp-signature': `sha256=${'0'.repeat(64)}`, 'x-adcp-timestamp': String(NOW) };
    expect((await refused(receiver().receive({ method: 'POST', url: HOOK_URL, headers, body: completedBody() }))).webhookCode).toBe(
      'webhook_mode_mismatch',
    );
  });
  test('a key resolver that throws is our fault: 503 webhook_signature_jwks_unavailable', async () => {
    const rx = createWebhookReceiver({ endpoint: BUYER_ORIGIN, keys: () => Promise.reject(new Error('dns')), now });
    expect(await refused(rx.receive(await signedRequest(completedBody())))).toMatchObject({
      webhookCode: 'webhook_signature_jwks_unavailable',
      httpStatus: 503,
    });
  });
  test('configuration errors are caught at setup, typed INVALID_OPTION', () => {
    const invalid = expect.objectContaining({ code: 'INVALID_OPTION' });
    expect(() => createWebhookReceiver({})).toThrow(invalid);
    expect(() => createWebhookReceiver({ keys: resolver, hmac: { secret: 'k'.repeat(31) + 'x', agent: SELLER } })).toThrow(invalid);
    expect(() => createWebhookReceiver({ keys: resolver, maxBodyBytes: 0 })).toThrow(invalid);
  });
});

interface HmacVectors {
  secret: string;
  vectors: Array<{
    id: string;
    timestamp: number;
    raw_body: string;
    expected_signature: string;
    expected_verifier_action?: string;
    rfc9421_error_code?: string;
  }>;
  rejection_vectors: Array<{ id: string; timestamp: number | string; raw_body: string; signature: string | null; current_time?: number }>;
  secret_rejection_vectors: Array<{ secret: string }>;
}

describe('legacy HMAC-SHA256 (webhook-hmac-sha256.json), only on opt-in', () => {
  const hv = readVector<HmacVectors>('webhook-hmac-sha256.json');
  const enc = new TextEncoder();
  for (const v of hv.vectors) {
    test(`${v.id}: signature computed and verified`, async () => {
      const body = enc.encode(v.raw_body);
      expect(await hmacSignature(hv.secret, String(v.timestamp), body)).toBe(v.expected_signature);
      const headers = new Map([
        ['x-adcp-signature', v.expected_signature],
        ['x-adcp-timestamp', String(v.timestamp)],
      ]);
      expect(await verifyLegacyHmac(headers, body, { secrets: [hv.secret], now: () => v.timestamp * 1000 })).toBe(0);
    });
  }
  test('duplicate-keys-conflicting-values: HMAC verifies, then the receiver refuses the body as malformed', async () => {
    const v = hv.vectors.find((x) => x.id === 'duplicate-keys-conflicting-values')!;
    const rx = createWebhookReceiver({ hmac: { secret: hv.secret, agent: SELLER }, now: () => v.timestamp * 1000 });
    const headers = {
      'content-type': 'application/json',
      'x-adcp-signature': v.expected_signature,
      'x-adcp-timestamp': String(v.timestamp),
    };
    expect(await refused(rx.receive({ method: 'POST', url: HOOK_URL, headers, body: v.raw_body }))).toMatchObject({
      webhookCode: 'webhook_body_malformed',
      duplicateKeys: ['status'],
    });
  });
  for (const v of hv.rejection_vectors) {
    test(`rejection ${v.id}`, async () => {
      const headers = new Map<string, string>([['x-adcp-timestamp', String(v.timestamp)]]);
      if (v.signature !== null) headers.set('x-adcp-signature', v.signature);
      const error = await verifyLegacyHmac(headers, enc.encode(v.raw_body), {
        secrets: [hv.secret],
        now: () => (v.current_time ?? 1_700_000_000) * 1000,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookError);
      expect((error as WebhookError).httpStatus).toBe(401);
    });
  }
  for (const v of hv.secret_rejection_vectors) {
    test(`secret refused at configuration: ${JSON.stringify(v.secret.slice(0, 8))}…`, () =>
      expect(() => checkHmacSecret(v.secret)).toThrow(TypeError));
  }
  test('a previous secret still verifies during a rotation', async () => {
    const body = enc.encode('{}');
    const sig = await hmacSignature(hv.secret, '1700000000', body);
    const headers = new Map([
      ['x-adcp-signature', sig],
      ['x-adcp-timestamp', '1700000000'],
    ]);
    expect(await verifyLegacyHmac(headers, body, { secrets: ['n'.repeat(31) + 'm', hv.secret], now: () => 1_700_000_000_000 })).toBe(1);
  });
  test('an RFC 9421 signature on an HMAC registration: webhook_mode_mismatch', async () => {
    const rx = createWebhookReceiver({ hmac: { secret: hv.secret, agent: SELLER }, now });
    expect((await refused(rx.receive(await signedRequest(completedBody())))).webhookCode).toBe('webhook_mode_mismatch');
  });
  test('a genuine HMAC webhook through the receiver: typed data and the HMAC signer', async () => {
    const body = completedBody();
    const sig = await hmacSignature(hv.secret, String(NOW), enc.encode(body));
    const rx = createWebhookReceiver({ hmac: { secret: hv.secret, agent: SELLER }, now });
    const hook = await rx.receive({
      method: 'POST',
      url: HOOK_URL,
      headers: { 'content-type': 'application/json', 'x-adcp-signature': sig, 'x-adcp-timestamp': String(NOW) },
      body,
    });
    expect(hook.signer).toEqual({ keyid: 'hmac-current', alg: 'hmac-sha256', agent: SELLER });
  });
});

describe('createJwksResolver', () => {
  const jwksBody = JSON.stringify({ keys: publicJwks });
  function fakeFetch(responses: Array<() => Response>) {
    const calls: string[] = [];
    const fn = async (url: string) => {
      calls.push(url);
      const next = responses.shift();
      if (next === undefined) throw new Error('no more responses');
      return next();
    };
    return { fn, calls };
  }
  test('fetches once, caches, and refetches for an unknown kid only after the cooldown', async () => {
    let t = 0;
    const { fn, calls } = fakeFetch([() => new Response(jwksBody), () => new Response(jwksBody)]);
    const keys = createJwksResolver({ url: 'https://seller.example.com/.well-known/jwks.json', agent: SELLER, fetch: fn, now: () => t });
    expect(await keys('test-ed25519-webhook-2026')).toMatchObject({ agent: SELLER, jwk: { kid: 'test-ed25519-webhook-2026' } });
    expect(await keys('test-es256-webhook-2026')).toBeDefined();
    expect(await keys('rotated-kid')).toBeUndefined();
    expect(calls).toHaveLength(1);
    t = 31_000;
    expect(await keys('rotated-kid')).toBeUndefined();
    expect(calls).toHaveLength(2);
  });
  test('a JWKS over 256 KiB, a non-200, or a repeated kid is refused (the receiver answers 503)', async () => {
    const huge = JSON.stringify({ keys: publicJwks, pad: 'x'.repeat(300 * 1024) });
    for (const response of [
      () => new Response(huge),
      () => new Response('nope', { status: 500 }),
      () => new Response(JSON.stringify({ keys: [publicJwks[0], publicJwks[0]] })),
    ]) {
      const { fn } = fakeFetch([response]);
      const rx = createWebhookReceiver({
        endpoint: BUYER_ORIGIN,
        jwks: { url: 'https://seller.example.com/jwks', agent: SELLER, fetch: fn },
        now,
      });
      expect(await refused(rx.receive(await signedRequest(completedBody())))).toMatchObject({
        webhookCode: 'webhook_signature_jwks_unavailable',
        httpStatus: 503,
      });
    }
  });
});
