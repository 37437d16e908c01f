/**
 * Issue 19 item 6: the endpoint the seller signed for is pinned. The receiver builds `@target-uri`
 * and `@authority` from the URL (or origin) the buyer registered, never from the request's `Host`;
 * a delivery signed for any other authority or path is refused as the delivery's fault, naming
 * which of the two differed; behind a TLS-terminating proxy (another scheme, host and port on the
 * request) a genuine delivery verifies; a receiver without an endpoint is refused at creation.
 * Also: a receiver part answering out of contract is the operator's fault (500), not the sender's.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { KeyResolver } from '../../../src/signatures/verify/keys.js';
import {
  createMemoryReplayStore,
  createWebhookReceiver,
  type ReplayStore,
  verifyWebhookSignature,
  WebhookError,
  webhookResponse,
} from '../../../src/webhooks/index.js';
import { BUYER_ORIGIN, completedBody, ed25519, HOOK_URL, resolver } from '../../webhooks/fixtures.js';
import { signWebhook } from '../../webhooks/signer.js';

const NOW = 1_776_520_800;
const now = () => NOW * 1000;
const PATH = new URL(HOOK_URL).pathname;

async function signedFor(url: string) {
  return signWebhook({ key: ed25519, url, body: completedBody(), created: NOW - 5 });
}

function receiver(endpoint: string = BUYER_ORIGIN) {
  return createWebhookReceiver({ endpoint, keys: resolver, now });
}

async function outcome(promise: Promise<unknown>): Promise<WebhookError | 'accepted'> {
  return promise.then(
    () => 'accepted' as const,
    (e: unknown) => {
      expect(e).toBeInstanceOf(WebhookError);
      return e as WebhookError;
    },
  );
}

describe('the registered endpoint, not the request, is what the signature is checked against', () => {
  test('a WHATWG Request whose Host is another authority, signed for it, is refused for @authority (any authority)', async () => {
    const authority = fc
      .tuple(fc.domain(), fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: undefined }))
      .map(([host, port]) => (port === undefined ? host : `${host}:${port}`));
    await fc.assert(
      fc.asyncProperty(authority, async (other) => {
        const url = `https://${other}${PATH}`;
        const canonical = new URL(url);
        fc.pre(canonical.host !== 'buyer.example.com' && /^[a-z0-9.-]+(:\d+)?$/.test(canonical.host));
        const signed = await signedFor(canonical.href);
        const request = new Request(canonical.href, {
          method: 'POST',
          headers: signed.headers,
          body: signed.body as Uint8Array<ArrayBuffer>,
        });
        const result = await outcome(receiver().receive(request));
        expect(result).not.toBe('accepted');
        expect(result).toMatchObject({ webhookCode: 'webhook_target_uri_malformed', httpStatus: 401 });
        expect((result as WebhookError).message).toContain(`@authority "${canonical.host}" (registered "buyer.example.com")`);
        expect(webhookResponse(result).headers).toEqual({ 'www-authenticate': 'Signature error="webhook_target_uri_malformed"' });
      }),
      { numRuns: 40 },
    );
  });
  test('a delivery signed for another path of the registered origin is refused for @target-uri', async () => {
    const signed = await signedFor(`${BUYER_ORIGIN}/adcp/webhook/other`);
    const result = await outcome(
      receiver(HOOK_URL).receive({ method: 'POST', url: '/adcp/webhook/other', headers: signed.headers, body: signed.body }),
    );
    expect(result).toMatchObject({ webhookCode: 'webhook_target_uri_malformed' });
    expect((result as WebhookError).message).toMatch(
      /signed for @target-uri "https:\/\/buyer.example.com\/adcp\/webhook\/other" \(registered/,
    );
  });
  test('a signature that verifies for neither is webhook_signature_invalid', async () => {
    const signed = await signedFor(HOOK_URL);
    const headers = { ...signed.headers, signature: `sig1=:${Buffer.alloc(64).toString('base64url')}:` };
    const result = await outcome(receiver().receive({ method: 'POST', url: 'https://evil.example/x', headers, body: signed.body }));
    expect(result).toMatchObject({ webhookCode: 'webhook_signature_invalid' });
  });
});

describe('behind a TLS-terminating proxy, a genuine delivery verifies', () => {
  test('WHATWG Request as a Node adapter builds it: http, the internal host and port, Host rewritten', async () => {
    const signed = await signedFor(HOOK_URL);
    const request = new Request(`http://10.0.0.7:3000${PATH}`, {
      method: 'POST',
      headers: { ...signed.headers, host: '10.0.0.7:3000', 'x-forwarded-proto': 'https' },
      body: signed.body as Uint8Array<ArrayBuffer>,
    });
    expect((await receiver().receive(request)).status).toBe('completed');
  });
  test("Node's IncomingMessage shape: req.url is a path, Host is the proxy's", async () => {
    const signed = await signedFor(HOOK_URL);
    const hook = await receiver().receive({
      method: 'POST',
      url: PATH,
      headers: { ...signed.headers, host: 'localhost:8080' },
      body: signed.body,
    });
    expect(hook.status).toBe('completed');
  });
  test('the endpoint as a full registered URL is the target whatever path the proxy forwards to', async () => {
    const signed = await signedFor(HOOK_URL);
    const hook = await receiver(HOOK_URL).receive({ method: 'POST', url: '/internal/hook', headers: signed.headers, body: signed.body });
    expect(hook.status).toBe('completed');
  });
  test('an endpoint given with a default port, upper case or a trailing dot is canonicalized', async () => {
    const signed = await signedFor(HOOK_URL);
    const hook = await receiver('HTTPS://Buyer.Example.com.:443').receive({
      method: 'POST',
      url: PATH,
      headers: signed.headers,
      body: signed.body,
    });
    expect(hook.status).toBe('completed');
  });
});

describe('the endpoint option', () => {
  test('required with keys or jwks: INVALID_OPTION at creation that says what to pass', () => {
    expect(() => createWebhookReceiver({ keys: resolver })).toThrow(/endpoint is required with keys or jwks/);
    expect(() => createWebhookReceiver({ jwks: { url: 'https://seller.example.com/jwks', agent: 'https://seller.example.com' } })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION' }),
    );
  });
  test.each(['buyer.example.com', 'ftp://buyer.example.com/', '/hook', 'https://[::1', 'https://exa mple.com/'])(
    '%j is refused at creation',
    (endpoint) => {
      expect(() => createWebhookReceiver({ endpoint, keys: resolver })).toThrow(/endpoint must be an absolute http\(s\) URL/);
    },
  );
  test('not needed by a legacy HMAC receiver (HMAC signs no URL)', () => {
    expect(() => createWebhookReceiver({ hmac: { secret: 's3cr3t-'.repeat(6), agent: 'https://seller.example.com' } })).not.toThrow();
  });
  test('verifyWebhookSignature without one keeps the spec’s gate: the request Host must match its URL', async () => {
    const signed = await signedFor(HOOK_URL);
    const headers = new Map(Object.entries({ ...signed.headers, host: 'other.example' }));
    const result = await outcome(
      verifyWebhookSignature(
        { method: 'POST', url: HOOK_URL, headers, body: signed.body },
        { keys: resolver, replayStore: createMemoryReplayStore(), now },
      ),
    );
    expect(result).toMatchObject({ webhookCode: 'webhook_target_uri_malformed' });
  });
});

describe("a receiver part out of contract is the operator's fault: webhook_receiver_misconfigured, 500, no challenge", () => {
  const memory = createMemoryReplayStore({ now });
  const cases: Array<[string, { keys?: KeyResolver; revocation?: () => never; replayStore?: ReplayStore; endpoint?: string }]> = [
    ['a key resolver answering a string', { keys: (() => 'test-ed25519-webhook-2026') as unknown as KeyResolver }],
    ['a key resolver answering { jwk: null }', { keys: (() => ({ jwk: null, agent: 'a' })) as unknown as KeyResolver }],
    ['a key resolver answering no agent', { keys: (() => ({ jwk: {} })) as unknown as KeyResolver }],
    ['a revocation check answering "ok"', { revocation: (() => 'ok') as unknown as () => never }],
    ['a replay store whose capReached answers "no"', { replayStore: { ...memory, capReached: () => 'no' } as unknown as ReplayStore }],
    ['a replay store whose claim answers nothing', { replayStore: { ...memory, claim: () => undefined } as unknown as ReplayStore }],
    ['an endpoint that is no URL', { endpoint: 'buyer' }],
  ];
  test.each(cases)('%s', async (_name, parts) => {
    const signed = await signedFor(HOOK_URL);
    const result = await outcome(
      verifyWebhookSignature(
        { method: 'POST', url: PATH, headers: new Map(Object.entries(signed.headers)), body: signed.body },
        { keys: resolver, replayStore: createMemoryReplayStore({ now }), endpoint: BUYER_ORIGIN, now, ...parts },
      ),
    );
    expect(result).toMatchObject({ webhookCode: 'webhook_receiver_misconfigured', httpStatus: 500 });
    expect((result as WebhookError).message).toMatch(/a fault of the receiver's configuration, not of the delivery/);
    expect(webhookResponse(result)).toEqual({ status: 500, headers: {}, blame: 'configuration' });
  });
});
