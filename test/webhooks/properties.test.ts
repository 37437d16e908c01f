/**
 * Property: changing any single byte of a signed webhook's body, or of any covered header value
 * (or the method or target URI), makes the receiver refuse it. Each case gets a fresh replay
 * store, so a refusal is the change's doing, and the untouched request is accepted first.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DecodeError } from '../../src/errors/errors.js';
import { createMemoryReplayStore, createWebhookReceiver } from '../../src/webhooks/index.js';
import { BUYER_ORIGIN, completedBody, ed25519, HOOK_URL, resolver } from './fixtures.js';
import { signWebhook } from './signer.js';

const NOW = 1_776_520_800;
const signed = await signWebhook({
  key: ed25519,
  url: HOOK_URL,
  body: completedBody(),
  created: NOW - 5,
  nonce: 'cHJvcGVydHktdGVzdC1ub25jZQ',
});
const headers: Record<string, string> = { host: 'buyer.example.com', ...signed.headers };
const request = { method: 'POST', url: HOOK_URL, headers, body: signed.body };

function receiver() {
  return createWebhookReceiver({
    endpoint: BUYER_ORIGIN,
    keys: resolver,
    replayStore: createMemoryReplayStore({ now: () => NOW * 1000 }),
    now: () => NOW * 1000,
  });
}

async function refusedWith(candidate: typeof request): Promise<boolean> {
  try {
    await receiver().receive(candidate);
    return false;
  } catch (error) {
    return error instanceof DecodeError;
  }
}

/** A different byte at one position of a byte string. */
const change = (length: number) => fc.tuple(fc.nat({ max: length - 1 }), fc.integer({ min: 1, max: 255 }));

describe('any single-byte change of a signed request fails', () => {
  test('the untouched request is accepted', async () => {
    expect((await receiver().receive(request)).status).toBe('completed');
  });
  test('body bytes', async () => {
    await fc.assert(
      fc.asyncProperty(change(signed.body.length), async ([at, delta]) => {
        const body = signed.body.slice();
        body[at] = ((body[at] as number) + delta) % 256;
        return refusedWith({ ...request, body });
      }),
      { numRuns: 300 },
    );
  });
  // The URL's scheme and host are canonicalized (case), so a byte change there can be no change at
  // all; its path and query are signed byte for byte, as is every covered header.
  const covered = ['content-type', 'content-digest', 'signature-input', 'signature'] as const;
  const origin = new URL(HOOK_URL).origin;
  test(`covered header values (${covered.join(', ')}), method and URL path`, async () => {
    const fields = [...covered, ':method', ':url'] as const;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fields), fc.nat(), fc.integer({ min: 1, max: 94 }), async (field, position, delta) => {
        const original = field === ':method' ? request.method : field === ':url' ? request.url : (request.headers[field] as string);
        const from = field === ':url' ? origin.length + 1 : 0;
        const at = from + (position % (original.length - from));
        // Printable ASCII stays printable, so the change reaches the verifier rather than the HTTP layer.
        const code = original.charCodeAt(at);
        const replaced = 33 + ((code - 33 + delta) % 94);
        if (replaced === code) return true;
        const value = original.slice(0, at) + String.fromCharCode(replaced) + original.slice(at + 1);
        const candidate =
          field === ':method'
            ? { ...request, method: value }
            : field === ':url'
              ? { ...request, url: value }
              : { ...request, headers: { ...request.headers, [field]: value } };
        return refusedWith(candidate);
      }),
      { numRuns: 600 },
    );
  });
});
