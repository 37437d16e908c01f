/**
 * Signed requests round-trip through the project's own verifier checklist (steps 1-13) under the
 * request profile: both algorithms, both `Signature` encodings, with and without a body, for any
 * body, path, query and method; a tampered body, target or method is refused; a request signature
 * is not a webhook signature (the tag separates the profiles), nor the reverse alphabet.
 */
import { createServer, type IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { WebhookError } from '../../../src/errors/webhook-error.js';
import { REQUEST_PROFILES } from '../../../src/signatures/http/profile.js';
import { createMemoryReplayStore } from '../../../src/signatures/replay/replay.js';
import { createRequestSigner, withRequestSigning } from '../../../src/signatures/sign/index.js';
import { RequestSignatureError } from '../../../src/signatures/verify/request-refusals.js';
import { type VerifiableRequest, verifyProfileSignature, verifyWebhookSignature } from '../../../src/signatures/verify/verify.js';
import { ed25519 } from '../../webhooks/fixtures.js';
import { BUYER_AGENT, capturingFetch, KEYS, privateJwk, received, resolverOf } from './helpers.js';

const SELLER_MCP = 'https://seller.example.com/adcp/mcp';
const NOW = 1_776_520_800_000;
const body = JSON.stringify({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'create_media_buy', arguments: { idempotency_key: 'c0ffee00-1234-4abc-8def-0123456789ab' } },
});

function verifierOptions() {
  return { keys: resolverOf(...KEYS.map((k) => k.key)), replayStore: createMemoryReplayStore({ now: () => NOW }), now: () => NOW };
}

async function signAndSend(signer: ReturnType<typeof createRequestSigner>, url: string, init: RequestInit): Promise<VerifiableRequest> {
  const { fetch, sent } = capturingFetch();
  await withRequestSigning(fetch, signer)(url, init);
  expect(sent).toHaveLength(1);
  return received(sent[0] as Request);
}

async function refusal(work: Promise<unknown>): Promise<string | undefined> {
  try {
    await work;
    return undefined;
  } catch (error) {
    if (error instanceof RequestSignatureError) return error.code;
    if (error instanceof WebhookError) return error.webhookCode;
    throw error;
  }
}

describe('round trip through the verifier under the request profile', () => {
  for (const { key, alg } of KEYS) {
    for (const encoding of ['base64url', 'base64'] as const) {
      test(`${alg}, Signature in ${encoding}: a POST with a body and a GET without`, async () => {
        const signer = createRequestSigner({ key: privateJwk(key), keyid: key.kid, alg, signatureEncoding: encoding, now: () => NOW });
        const post = await signAndSend(signer, SELLER_MCP, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        expect(post.headers.get('signature-input')).toContain('("@method" "@target-uri" "@authority" "content-type" "content-digest")');
        expect(post.headers.get('signature-input')).toContain(`;tag="adcp/request-signing/v1"`);
        const options = verifierOptions();
        await expect(verifyProfileSignature(post, options, REQUEST_PROFILES[encoding])).resolves.toEqual({
          keyid: key.kid,
          alg,
          agent: BUYER_AGENT,
        });
        const get = await signAndSend(signer, `${SELLER_MCP}?session=1`, { method: 'GET' });
        expect(get.headers.get('signature-input')).toMatch(/^sig1=\("@method" "@target-uri" "@authority"\);created=/);
        expect(get.headers.has('content-digest')).toBe(false);
        await expect(verifyProfileSignature(get, options, REQUEST_PROFILES[encoding])).resolves.toMatchObject({ keyid: key.kid });
        // The other alphabet's reader refuses the Signature bytes (no silent fallback between profiles).
        const other = REQUEST_PROFILES[encoding === 'base64' ? 'base64url' : 'base64'];
        const fresh = await signAndSend(signer, SELLER_MCP, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        expect(await refusal(verifyProfileSignature(fresh, verifierOptions(), other))).toBe('request_signature_header_malformed');
      });
    }
  }

  test('for any body, path, query and method, the signature verifies; a replay of it does not', async () => {
    const signer = createRequestSigner({ key: privateJwk(ed25519), keyid: ed25519.kid, alg: 'ed25519', now: () => NOW });
    const segment = fc.stringMatching(/^[A-Za-z0-9._~%-]{0,12}$/).filter((s) => !/%(?![0-9A-Fa-f]{2})/.test(s));
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.array(segment, { maxLength: 4 }),
        fc.option(fc.stringMatching(/^[a-z0-9=&]{0,20}$/), { nil: undefined }),
        fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE'),
        async (text, segments, query, method) => {
          const url = `https://Seller.Example.com:443/${segments.join('/')}${query === undefined ? '' : `?${query}`}`;
          const request = await signAndSend(signer, url, { method, headers: { 'content-type': 'application/json' }, body: text });
          const options = verifierOptions();
          await expect(verifyProfileSignature(request, options, REQUEST_PROFILES.base64url)).resolves.toMatchObject({ keyid: ed25519.kid });
          expect(await refusal(verifyProfileSignature(request, options, REQUEST_PROFILES.base64url))).toBe('request_signature_replayed');
        },
      ),
      { numRuns: 60 },
    );
  });

  test('a tampered body, target or method is refused', async () => {
    const signer = createRequestSigner({ key: privateJwk(ed25519), keyid: ed25519.kid, alg: 'ed25519', now: () => NOW });
    const send = () => signAndSend(signer, SELLER_MCP, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const profile = REQUEST_PROFILES.base64url;
    const tamperedBody = { ...(await send()), body: new TextEncoder().encode(body.replace('create_media_buy', 'update_media_buy')) };
    expect(await refusal(verifyProfileSignature(tamperedBody, verifierOptions(), profile))).toBe('request_signature_digest_mismatch');
    const otherTarget = { ...(await send()), url: 'https://seller.example.com/adcp/a2a' };
    expect(await refusal(verifyProfileSignature(otherTarget, verifierOptions(), profile))).toBe('request_signature_invalid');
    const otherMethod = { ...(await send()), method: 'PUT' };
    expect(await refusal(verifyProfileSignature(otherMethod, verifierOptions(), profile))).toBe('request_signature_invalid');
    const noBody = { ...(await send()), body: new Uint8Array() };
    expect(await refusal(verifyProfileSignature(noBody, verifierOptions(), profile))).toBe('request_signature_digest_mismatch');
  });

  test('a request signature is no webhook signature: the webhook verifier refuses its tag', async () => {
    const signer = createRequestSigner({ key: privateJwk(ed25519), keyid: ed25519.kid, alg: 'ed25519', now: () => NOW });
    const request = await signAndSend(signer, SELLER_MCP, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(await refusal(verifyWebhookSignature(request, verifierOptions()))).toBe('webhook_signature_tag_invalid');
  });

  test('the window is the clock floored to seconds plus validitySeconds; each signature has its own 16-byte nonce', async () => {
    const signer = createRequestSigner({
      key: privateJwk(ed25519),
      keyid: ed25519.kid,
      alg: 'ed25519',
      validitySeconds: 60,
      now: () => NOW + 999,
    });
    const nonces = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const headers = await signer.sign({ method: 'GET', url: SELLER_MCP });
      const input = headers['signature-input'];
      expect(input).toContain(`;created=${NOW / 1000};expires=${NOW / 1000 + 60};`);
      const nonce = /;nonce="([^"]+)"/.exec(input)?.[1] as string;
      expect(Buffer.from(nonce, 'base64url')).toHaveLength(16);
      expect(nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(20);
  });
});

describe('over loopback: what a seller receives from the real fetch verifies, its Host header included', () => {
  test('POST through globalThis.fetch to a node:http server', async () => {
    const arrived: Array<{ req: IncomingMessage; body: Buffer }> = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        arrived.push({ req, body: Buffer.concat(chunks) });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const signer = createRequestSigner({ key: privateJwk(ed25519), keyid: ed25519.kid, alg: 'ed25519' });
      const response = await withRequestSigning(fetch, signer)(`http://127.0.0.1:${port}/adcp/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(response.status).toBe(200);
      const [{ req, body: bytes }] = arrived as [(typeof arrived)[0]];
      const headers = new Map(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
      expect(headers.get('host')).toBe(`127.0.0.1:${port}`);
      const request = {
        method: req.method as string,
        url: `http://${headers.get('host')}${req.url}`,
        headers,
        body: new Uint8Array(bytes),
      };
      const options = { keys: resolverOf(ed25519), replayStore: createMemoryReplayStore() };
      await expect(verifyProfileSignature(request, options, REQUEST_PROFILES.base64url)).resolves.toMatchObject({ keyid: ed25519.kid });
    } finally {
      server.close();
    }
  });
});
