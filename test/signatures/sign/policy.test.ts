/**
 * The signing fetch given the seller's capabilities (security.mdx, "Signed Requests"): it signs
 * the operations and JSON-RPC methods the seller lists (required; supported when asked), read
 * from the body as the seller's verifier reads it, never across namespaces; it covers
 * content-digest unless the seller forbids it (and refuses a 3.2 signer that would have to sign
 * unbound); it never re-sends a signed request to a redirect's target; each refusal says why
 * (`requestCode`) and whose fault it is. The request profile's verifier refuses with `request_*` codes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DecodeError } from '../../../src/errors/errors.js';
import { SIGNATURE_CHALLENGE, WEBHOOK_HTTP_STATUS, WebhookError, type WebhookErrorCode } from '../../../src/errors/webhook-error.js';
import { REQUEST_PROFILES, UNDIGESTED_REQUEST_PROFILE } from '../../../src/signatures/http/profile.js';
import { createMemoryReplayStore } from '../../../src/signatures/replay/replay.js';
import {
  createRequestSigner,
  type RequestSigningCapability,
  RequestSigningError,
  type SigningPolicyOptions,
  withRequestSigning,
} from '../../../src/signatures/sign/index.js';
import { RequestSignatureError, requestRefusal } from '../../../src/signatures/verify/request-refusals.js';
import { verifyProfileSignature } from '../../../src/signatures/verify/verify.js';
import { ed25519 } from '../../webhooks/fixtures.js';
import { capturingFetch, privateJwk, received, resolverOf } from './helpers.js';

const SELLER = 'https://seller.example.com/adcp/mcp';
const signer = createRequestSigner({ key: privateJwk(ed25519), keyid: ed25519.kid, alg: 'ed25519' });
const JSON_HEADERS = { 'content-type': 'application/json' };

const mcpCall = (name: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } });
const a2aSend = (skill: string, method = 'SendMessage') =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method,
    params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ data: { skill, input: {} } }] } },
  });
const rpc = (method: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { id: 't1' } });

/** Sends one POST through the signing fetch; what was sent, and whether it carried a signature. */
async function send(options: SigningPolicyOptions | undefined, body: string, s = signer) {
  const { fetch, sent } = capturingFetch();
  await withRequestSigning(fetch, s, options)(SELLER, { method: 'POST', headers: JSON_HEADERS, body });
  const request = sent[0] as Request;
  return { request, signed: request.headers.has('signature-input'), bytes: new TextDecoder().decode(await request.clone().arrayBuffer()) };
}

const capability = (extra: Partial<RequestSigningCapability>): RequestSigningCapability => ({ supported: true, ...extra });

describe('what is signed: what the seller lists, in its namespace', () => {
  const OPERATIONS = ['create_media_buy', 'update_media_buy', 'get_products', 'sync_creatives'];
  const METHODS = ['tasks/get', 'tasks/cancel', 'GetTask'];
  const invocation = fc.oneof(
    fc.constantFrom(...OPERATIONS).map((name) => ({ kind: 'operation' as const, name, body: mcpCall(name) })),
    fc.constantFrom(...OPERATIONS).map((name) => ({ kind: 'operation' as const, name, body: a2aSend(name) })),
    fc.constantFrom(...OPERATIONS).map((name) => ({ kind: 'operation' as const, name, body: a2aSend(name, 'message/send') })),
    fc.constantFrom(...METHODS).map((name) => ({ kind: 'method' as const, name, body: rpc(name) })),
  );
  // Lists drawn from both namespaces' names, so that a name in the wrong list is tried too.
  const list = fc.subarray([...OPERATIONS, ...METHODS]);

  test('signed iff its operation (tools/call name, A2A skill) or JSON-RPC method is in a list the mode reads', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          required_for: list,
          supported_for: list,
          warn_for: list,
          protocol_methods_required_for: list,
          protocol_methods_supported_for: list,
        }),
        fc.constantFrom('required' as const, 'supported' as const),
        fc.boolean(),
        invocation,
        async (lists, sign, whole, call) => {
          const cap = capability(lists);
          const { signed, bytes } = await send({ capabilities: whole ? { request_signing: cap } : cap, sign }, call.body);
          const read =
            call.kind === 'operation'
              ? [cap.required_for, ...(sign === 'supported' ? [cap.supported_for, cap.warn_for] : [])]
              : [cap.protocol_methods_required_for, ...(sign === 'supported' ? [cap.protocol_methods_supported_for] : [])];
          expect(signed).toBe(read.some((l) => l?.includes(call.name)));
          expect(bytes).toBe(call.body); // signed or not, the bytes go as given
        },
      ),
      { numRuns: 150 },
    );
  });

  test('a seller that does not verify signatures (supported false, or no request_signing) gets none', async () => {
    for (const capabilities of [
      capability({ supported: false, required_for: ['create_media_buy'] }),
      { adcp: { major_versions: [3] }, request_signing: undefined },
    ])
      expect((await send({ capabilities }, mcpCall('create_media_buy'))).signed).toBe(false);
    expect((await send(undefined, mcpCall('get_products'))).signed).toBe(true); // without capabilities: every request, as before
  });

  test('a body that is no JSON-RPC call (an SSE GET, text) is not signed under capabilities', async () => {
    const cap = { capabilities: capability({ required_for: ['create_media_buy'], protocol_methods_required_for: ['tasks/get'] }) };
    expect((await send(cap, 'not json')).signed).toBe(false);
    const { fetch, sent } = capturingFetch();
    await withRequestSigning(fetch, signer, cap)(SELLER, { method: 'GET', headers: { accept: 'text/event-stream' } });
    expect(sent[0]?.headers.has('signature-input')).toBe(false);
  });

  test('capabilities that are no request_signing: INVALID_OPTION at once', () => {
    const bad: unknown[] = [
      null,
      'yes',
      { request_signing: { supported: 'yes' } },
      capability({ required_for: 'create_media_buy' as never }),
    ];
    for (const capabilities of bad)
      expect(() => withRequestSigning(fetch, signer, { capabilities: capabilities as never })).toThrow(
        expect.objectContaining({ code: 'INVALID_OPTION' }),
      );
    expect(() => withRequestSigning(fetch, signer, { capabilities: capability({}), sign: 'all' as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION' }),
    );
    const digest = capability({ covers_content_digest: 'sometimes' as never, required_for: ['create_media_buy'] });
    expect(() => withRequestSigning(fetch, signer, { capabilities: digest })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });
});

describe('content-digest as the seller states it', () => {
  const verifier = () => ({ keys: resolverOf(ed25519), replayStore: createMemoryReplayStore() });

  test.each(['required', 'either', undefined] as const)('%s: covered, and the request verifies under the profile', async (rule) => {
    const { request } = await send(
      { capabilities: capability({ required_for: ['create_media_buy'], covers_content_digest: rule }) },
      mcpCall('create_media_buy'),
    );
    expect(request.headers.get('signature-input')).toContain('"content-type" "content-digest")');
    await expect(verifyProfileSignature(await received(request), verifier(), REQUEST_PROFILES.base64url)).resolves.toMatchObject({
      keyid: ed25519.kid,
    });
  });

  test('forbidden: not covered and not sent (a caller’s own Content-Digest dropped), verifying under the legacy profile', async () => {
    const { fetch, sent } = capturingFetch();
    const caps = { capabilities: capability({ required_for: ['create_media_buy'], covers_content_digest: 'forbidden' }) };
    await withRequestSigning(
      fetch,
      signer,
      caps,
    )(SELLER, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'content-digest': 'sha-256=:AAAA:' },
      body: mcpCall('create_media_buy'),
    });
    const request = sent[0] as Request;
    expect(request.headers.get('signature-input')).toMatch(/^sig1=\("@method" "@target-uri" "@authority" "content-type"\);/);
    expect(request.headers.has('content-digest')).toBe(false);
    await expect(verifyProfileSignature(await received(request), verifier(), UNDIGESTED_REQUEST_PROFILE)).resolves.toMatchObject({
      keyid: ed25519.kid,
    });
  });

  test('forbidden, with a 3.2 signer: request_digest_forbidden, the configuration’s, and nothing is sent', async () => {
    const signer32 = createRequestSigner({ key: privateJwk(ed25519), keyid: ed25519.kid, alg: 'ed25519', signatureEncoding: 'base64' });
    const { fetch, sent } = capturingFetch();
    const caps = { capabilities: capability({ required_for: ['create_media_buy'], covers_content_digest: 'forbidden' }) };
    const error = await withRequestSigning(
      fetch,
      signer32,
      caps,
    )(SELLER, { method: 'POST', headers: JSON_HEADERS, body: mcpCall('create_media_buy') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestSigningError);
    expect(error).toMatchObject({ code: 'UNSIGNABLE_REQUEST', requestCode: 'request_digest_forbidden', blame: 'configuration' });
    expect(sent).toHaveLength(0);
    // A request the seller does not list is sent unsigned: no conflict to refuse.
    await withRequestSigning(fetch, signer32, caps)(SELLER, { method: 'POST', headers: JSON_HEADERS, body: mcpCall('get_products') });
    expect(sent).toHaveLength(1);
  });
});

describe('the signer’s refusals say why, and blame the caller', () => {
  test.each([
    ['https://[fe80::1%25eth0]/mcp', JSON_HEADERS, 'request_target_uri_malformed'],
    [SELLER, { 'x-other': '1' }, 'request_content_type_missing'],
  ] as const)('%s: %s', async (url, headers, requestCode) => {
    const error = await signer.sign({ method: 'POST', url, headers, body: '{}' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestSigningError);
    expect(error).toBeInstanceOf(DecodeError);
    expect(error).toMatchObject({ code: 'UNSIGNABLE_REQUEST', requestCode, blame: 'caller' });
  });
});

describe('a signed request is never re-sent to a redirect’s target', () => {
  async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; origin: string }> {
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }

  test.each([301, 302, 303, 307, 308])('%i to another origin: request_redirect_refused; the target receives nothing', async (status) => {
    let reached = 0;
    const elsewhere = await listen((_req, res) => {
      reached++;
      res.writeHead(200).end('{}');
    });
    const seller = await listen((_req, res) => res.writeHead(status, { location: `${elsewhere.origin}/mcp` }).end());
    try {
      const signing = withRequestSigning(fetch, signer, { capabilities: capability({ required_for: ['create_media_buy'] }) });
      const error = await signing(`${seller.origin}/mcp`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: mcpCall('create_media_buy'),
      }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'UNSIGNABLE_REQUEST', requestCode: 'request_redirect_refused', blame: 'configuration' });
      expect((error as Error).message).toContain(`${elsewhere.origin}/mcp`);
      expect(reached).toBe(0);
      // An unsigned request (not listed) goes as the wrapped fetch sends it: redirects followed.
      const plain = await signing(`${seller.origin}/mcp`, { method: 'POST', headers: JSON_HEADERS, body: mcpCall('get_products') });
      expect(plain.status).toBe(200);
    } finally {
      seller.server.close();
      elsewhere.server.close();
    }
  });
});

describe('the request profile’s verifier refuses with request_* codes; the webhook one keeps its own', () => {
  test('every code of the taxonomy: the checklist’s refusals are re-coded request_*, the rest of its name kept; others pass', () => {
    // The checklist refuses with the codes a sender reads from WWW-Authenticate, but for the
    // receiver's own mode check; its dependency and configuration faults are the verifier's too.
    const verifierFaults = [
      'webhook_signature_jwks_unavailable',
      'webhook_replay_store_unavailable',
      'webhook_receiver_misconfigured',
    ] as const;
    const recoded = new Set([...SIGNATURE_CHALLENGE, ...verifierFaults]);
    recoded.delete('webhook_mode_mismatch');
    for (const code of Object.keys(WEBHOOK_HTTP_STATUS) as WebhookErrorCode[]) {
      const refusal = new WebhookError(code, 'why');
      if (!recoded.has(code)) {
        expect(requestRefusal(refusal)).toBe(refusal);
        continue;
      }
      const requestCode =
        code === 'webhook_receiver_misconfigured' ? 'request_verifier_misconfigured' : code.replace(/^webhook_/, 'request_');
      const error = requestRefusal(refusal);
      expect(error).toBeInstanceOf(RequestSignatureError);
      expect(error).toMatchObject({ code: requestCode, message: `${requestCode}: why`, cause: refusal });
    }
    const other = new Error('not a refusal');
    expect(requestRefusal(other)).toBe(other);
  });

  test('an unsigned request, a wrong tag: request_signature_required, request_signature_tag_invalid', async () => {
    const options = { keys: resolverOf(ed25519), replayStore: createMemoryReplayStore() };
    const unsigned = {
      method: 'POST',
      url: SELLER,
      headers: new Map([['content-type', 'application/json']]),
      body: new Uint8Array([123, 125]),
    };
    await expect(verifyProfileSignature(unsigned, options, REQUEST_PROFILES.base64url)).rejects.toMatchObject({
      code: 'request_signature_required',
    });
    const { request } = await send(undefined, mcpCall('create_media_buy'));
    const retagged = await received(request);
    const headers = new Map(retagged.headers);
    headers.set(
      'signature-input',
      (headers.get('signature-input') as string).replace('adcp/request-signing/v1', 'adcp/request-signing/v2'),
    );
    await expect(verifyProfileSignature({ ...retagged, headers }, options, REQUEST_PROFILES.base64url)).rejects.toMatchObject({
      code: 'request_signature_tag_invalid',
    });
  });
});
