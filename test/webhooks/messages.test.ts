/**
 * Seller text in webhook refusals goes through shownText (src/errors/format.ts), the project's one
 * escaping function: C0/C1 controls, bidi overrides and isolates, zero-width characters and line
 * separators come out as `\uXXXX`, and each quoted piece is bounded.
 */
import { describe, expect, test } from 'vitest';
import { createJwksResolver, createWebhookReceiver, decodeWebhook, type ResolvedKey } from '../../src/webhooks/index.js';
import { BUYER_ORIGIN, completedBody, ed25519, HOOK_URL, publicJwks, SELLER } from './fixtures.js';
import { signWebhook } from './signer.js';

// Everything shownText must escape, between visible text.
const HOSTILE = 'ok\u0085\u009b2J\u202eevil\u2066\u200b\u2028\ufeff';
const RAW = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/u;

async function refusal(run: () => Promise<unknown>): Promise<string> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return (error as Error).message;
}

function expectEscaped(message: string): void {
  expect(message).not.toMatch(RAW);
  expect(message).toContain('ok\\u0085\\u009b2J\\u202eevil\\u2066');
  expect(message.length).toBeLessThan(400);
}

describe('seller text in webhook refusals is escaped by shownText', () => {
  test('a Content-Type header', async () => {
    const receiver = createWebhookReceiver({ endpoint: BUYER_ORIGIN, keys: () => undefined });
    const message = await refusal(() =>
      receiver.receive({ method: 'POST', url: HOOK_URL, headers: { 'content-type': HOSTILE }, body: '{}' }),
    );
    expect(message).toMatch(/^webhook_content_type_invalid/);
    expectEscaped(message);
  });
  test("a JWK's adcp_use", async () => {
    const jwk = { ...(publicJwks.find((k) => k.kid === ed25519.kid) as object), adcp_use: HOSTILE };
    const receiver = createWebhookReceiver({ endpoint: BUYER_ORIGIN, keys: (): ResolvedKey => ({ jwk, agent: SELLER }) });
    const signed = await signWebhook({ key: ed25519, url: HOOK_URL, body: completedBody(), created: Math.floor(Date.now() / 1000) });
    const message = await refusal(() => receiver.receive({ method: 'POST', url: HOOK_URL, headers: signed.headers, body: signed.body }));
    expect(message).toMatch(/^webhook_signature_key_purpose_invalid/);
    expectEscaped(message);
  });
  test("an envelope's task_type", async () => {
    const message = await refusal(async () => decodeWebhook(completedBody({ task_type: HOSTILE })));
    expectEscaped(message);
  });
  test('a long value is cut, its escapes whole', async () => {
    const receiver = createWebhookReceiver({ endpoint: BUYER_ORIGIN, keys: () => undefined });
    const message = await refusal(() =>
      receiver.receive({ method: 'POST', url: HOOK_URL, headers: { 'content-type': '\u202e'.repeat(500) }, body: '{}' }),
    );
    expect(message).not.toMatch(RAW);
    expect(message).toMatch(/(\\u202e)+…"$/);
    expect(message.length).toBeLessThan(200);
  });
  test('a kid a JWKS repeats', async () => {
    const body = JSON.stringify({ keys: [{ kid: HOSTILE }, { kid: HOSTILE }] });
    const keys = createJwksResolver({ url: 'https://seller.example.com/jwks', agent: SELLER, fetch: async () => new Response(body) });
    const message = await refusal(async () => keys(HOSTILE));
    expect(message).toMatch(/^JWKS repeats kid/);
    expectEscaped(message);
  });
});
