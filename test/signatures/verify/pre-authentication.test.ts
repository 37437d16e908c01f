/**
 * Issue 19 item 8: everything the verifier does before the signature is checked is bounded and
 * linear in the signature headers. The header bound is the library's own (a typed refusal of the
 * delivery), and the work (string and array primitives, counted by the characters and elements
 * they touch, not timed) done on a header twice as large is at most about twice the work, for
 * every shape a hostile header can take: many covered components (once checked with `includes`,
 * quadratic), many parameters, long strings and tokens holding `:`, long byte sequences, many labels.
 * WebCrypto is stubbed to answer at once, so nothing but the verifier runs while the work is counted.
 */
import { describe, expect, test } from 'vitest';
import { DEFAULT_MAX_SIGNATURE_HEADER_BYTES } from '../../../src/signatures/verify/signature-headers.js';
import { createMemoryReplayStore, verifyWebhookSignature, type WebhookCrypto, WebhookError } from '../../../src/webhooks/index.js';
import { BUYER_ORIGIN, completedBody, ed25519, HOOK_URL, resolver } from '../../webhooks/fixtures.js';
import { signWebhook } from '../../webhooks/signer.js';

const NOW = 1_776_520_800;
const signed = await signWebhook({ key: ed25519, url: HOOK_URL, body: completedBody(), created: NOW - 5 });
const PARAMS = (signed.headers['signature-input'] as string).slice((signed.headers['signature-input'] as string).indexOf(';'));
const REQUIRED = '"@method" "@target-uri" "@authority" "content-type" "content-digest"';

/** WebCrypto that answers without a macrotask: the signature is "invalid", so every pre-authentication step runs. */
const instant: WebhookCrypto = {
  importKey: (() => Promise.resolve({})) as unknown as WebhookCrypto['importKey'],
  verify: () => Promise.resolve(false),
  digest: () => Promise.resolve(new ArrayBuffer(32)),
  sign: () => Promise.resolve(new ArrayBuffer(64)),
};

type Patchable = Record<string, (...args: unknown[]) => unknown>;
/** Primitives whose work grows with what they touch: the size of that, per call. */
const SCANS: Array<[Patchable, string, (self: unknown, args: unknown[], result: unknown) => number]> = [
  [String.prototype as unknown as Patchable, 'charCodeAt', () => 1],
  [String.prototype as unknown as Patchable, 'slice', (_s, _a, r) => 1 + (r as string).length],
  [String.prototype as unknown as Patchable, 'indexOf', (s) => 1 + (s as string).length],
  [String.prototype as unknown as Patchable, 'lastIndexOf', (s) => 1 + (s as string).length],
  [String.prototype as unknown as Patchable, 'includes', (s) => 1 + (s as string).length],
  [String.prototype as unknown as Patchable, 'startsWith', () => 1],
  [String.prototype as unknown as Patchable, 'replace', (s) => 1 + (s as string).length],
  [String.prototype as unknown as Patchable, 'split', (s) => 1 + (s as string).length],
  [Array.prototype as unknown as Patchable, 'includes', (s) => 1 + (s as unknown[]).length],
  [Array.prototype as unknown as Patchable, 'indexOf', (s) => 1 + (s as unknown[]).length],
  [Array.prototype as unknown as Patchable, 'join', (_s, _a, r) => 1 + (r as string).length],
  [RegExp.prototype as unknown as Patchable, 'test', (_s, a) => 1 + String(a[0]).length],
  [RegExp.prototype as unknown as Patchable, 'exec', (_s, a) => 1 + String(a[0]).length],
];

/** Runs `work` with every primitive above counting; returns the total and what `work` settled to. */
async function counted(work: () => Promise<unknown>): Promise<{ units: number; result: unknown }> {
  let units = 0;
  const originals = SCANS.map(([proto, name]) => proto[name] as (...args: unknown[]) => unknown);
  SCANS.forEach(([proto, name, cost], i) => {
    const original = originals[i] as (...args: unknown[]) => unknown;
    proto[name] = function (this: unknown, ...args: unknown[]) {
      const result = original.apply(this, args);
      units += cost(this, args, result);
      return result;
    };
  });
  let result: unknown;
  try {
    result = await work().then(
      () => 'accepted',
      (e: unknown) => e,
    );
  } finally {
    SCANS.forEach(([proto, name], i) => {
      proto[name] = originals[i] as (...args: unknown[]) => unknown;
    });
  }
  return { units, result };
}

/**
 * The fixture's keys as fresh copies: the verifier remembers what `importKey` gave for each key
 * object, and the stub's `{}` must not reach another file that verifies with the same objects for real.
 */
function stubbedKeys(kid: string): ReturnType<typeof resolver> {
  const found = resolver(kid);
  return found === undefined ? undefined : { ...found, jwk: { ...found.jwk } };
}

/** The verifier over headers that replace the signed ones, up to the (stubbed) signature check. */
function verify(headers: Record<string, string>, maxSignatureHeaderBytes: number) {
  const all = new Map(Object.entries({ ...signed.headers, ...headers }));
  return verifyWebhookSignature(
    { method: 'POST', url: new URL(HOOK_URL).pathname, headers: all, body: signed.body },
    {
      keys: stubbedKeys,
      replayStore: createMemoryReplayStore({ now: () => NOW * 1000 }),
      endpoint: BUYER_ORIGIN,
      now: () => NOW * 1000,
      subtle: instant,
      maxSignatureHeaderBytes,
    },
  );
}

/** Hostile shapes of `n` units each: the headers to send. */
const SHAPES: Record<string, (n: number) => Record<string, string>> = {
  'many covered components (headers the request carries)': (n) => ({
    'signature-input': `sig1=(${REQUIRED} ${Array.from({ length: n }, (_, i) => `"x-h${i}"`).join(' ')})${PARAMS}`,
    ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-h${i}`, 'v'])),
  }),
  'many parameters': (n) => ({
    'signature-input': `sig1=(${REQUIRED})${PARAMS}${Array.from({ length: n }, (_, i) => `;p${i}=${i}`).join('')}`,
  }),
  'a long string holding ":"': (n) => ({ 'signature-input': `sig1=(${REQUIRED})${PARAMS};x="${'a:'.repeat(n * 4)}"` }),
  'a long token holding ":"': (n) => ({ 'signature-input': `sig1=(${REQUIRED})${PARAMS};x=t${':b'.repeat(n * 4)}` }),
  'many labels of byte sequences': (n) => ({
    'signature-input': `${Array.from({ length: n }, (_, i) => `l${i}=:AAAA:`).join(', ')}, sig1=(${REQUIRED})${PARAMS}`,
    signature: `${Array.from({ length: n }, (_, i) => `l${i}=:AAAA:`).join(', ')}, ${signed.headers.signature}`,
  }),
  'a long byte sequence': (n) => ({ signature: `sig1=:${'A'.repeat(n * 8)}:` }),
  'a long Content-Digest': (n) => ({ 'content-digest': `${Array.from({ length: n }, (_, i) => `a${i}=:AAAA:`).join(', ')}` }),
};

describe('pre-authentication work is linear in the header size', () => {
  for (const [shape, headers] of Object.entries(SHAPES)) {
    test(`${shape}: twice the header, at most about twice the work`, async () => {
      const size = (h: Record<string, string>) => Object.values(h).reduce((a, v) => a + v.length, 0);
      const [once, twice] = [await counted(() => verify(headers(4_000), 1 << 20)), await counted(() => verify(headers(8_000), 1 << 20))];
      // Each reached the signature check (or a refusal the shape provokes), never accepted.
      expect(once.result).toBeInstanceOf(WebhookError);
      expect((once.result as WebhookError).webhookCode).toBe((twice.result as WebhookError).webhookCode);
      expect(size(headers(8_000)) / size(headers(4_000))).toBeGreaterThan(1.9);
      expect(twice.units / once.units, `${once.units} → ${twice.units}`).toBeLessThan(2.2);
      expect(once.units / size(headers(4_000))).toBeLessThan(40);
    });
  }
  test('the covered-component check of the old code (Array#includes per item) was quadratic: the counter sees it', async () => {
    const quadratic = (n: number) =>
      counted(async () => {
        const list: string[] = [];
        for (let i = 0; i < n; i++) if (!list.includes(`c${i}`)) list.push(`c${i}`);
      });
    const [once, twice] = [await quadratic(2_000), await quadratic(4_000)];
    expect(twice.units / once.units).toBeGreaterThan(3.5);
  });
});

describe('the header bound is the library’s own', () => {
  test.each(['signature-input', 'signature', 'content-digest'])(
    '%s one byte over the default bound: webhook_signature_header_malformed before any key is looked up',
    async (name) => {
      let lookups = 0;
      const value = name === 'signature-input' ? signed.headers['signature-input'] : signed.headers[name];
      const padded = `${value}${name === 'signature-input' ? ';x="' : ', x="'}${'a'.repeat(DEFAULT_MAX_SIGNATURE_HEADER_BYTES)}"`.slice(
        0,
        DEFAULT_MAX_SIGNATURE_HEADER_BYTES + 1,
      );
      const error = await verifyWebhookSignature(
        { method: 'POST', url: HOOK_URL, headers: new Map(Object.entries({ ...signed.headers, [name]: padded })), body: signed.body },
        {
          keys: (kid) => (lookups++, resolver(kid)),
          replayStore: createMemoryReplayStore(),
          endpoint: BUYER_ORIGIN,
          now: () => NOW * 1000,
        },
      ).catch((e: unknown) => e);
      expect(error).toMatchObject({ webhookCode: 'webhook_signature_header_malformed', httpStatus: 401 });
      expect((error as Error).message).toMatch(
        new RegExp(`is ${DEFAULT_MAX_SIGNATURE_HEADER_BYTES + 1} bytes; this receiver reads at most ${DEFAULT_MAX_SIGNATURE_HEADER_BYTES}`),
      );
      expect(lookups).toBe(0);
    },
  );
  test('configurable, and a header at the bound is read', async () => {
    const error = await verify({ 'signature-input': `${signed.headers['signature-input']};x="${'a'.repeat(100)}"` }, 200).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(/reads at most 200/);
    const input = `${signed.headers['signature-input']};x="`;
    const atBound = `${input}${'a'.repeat(DEFAULT_MAX_SIGNATURE_HEADER_BYTES - input.length - 1)}"`;
    expect(atBound.length).toBe(DEFAULT_MAX_SIGNATURE_HEADER_BYTES);
    // The signature no longer covers these parameters: it reaches the check, and fails there.
    await expect(verify({ 'signature-input': atBound }, DEFAULT_MAX_SIGNATURE_HEADER_BYTES)).rejects.toMatchObject({
      webhookCode: 'webhook_signature_invalid',
    });
  });
});
