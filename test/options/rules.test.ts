/**
 * One rule per kind of option, in every entry that takes one (docs/decode.md, "Option rules, one per kind"): each byte bound
 * and each deadline, given the same value, is accepted or refused alike, and a refusal is the same
 * INVALID_OPTION wording, whoever took it.
 */
import { describe, expect, test } from 'vitest';
import { readWaitOptions } from '../../src/call/wait-options.js';
import { DecodeError } from '../../src/errors/errors.js';
import { MAX_TIMER_MS } from '../../src/errors/option-rules.js';
import { extractMcpResponse } from '../../src/extract/mcp.js';
import { boundedFetch } from '../../src/fetch/index.js';
import { decode } from '../../src/index.js';
import { createJwksResolver, createRevocationList, createWebhookReceiver } from '../../src/webhooks/index.js';
import { BUYER_ORIGIN, resolver } from '../webhooks/fixtures.js';

const url = 'https://seller.example/doc.json';
const noFetch = async (): Promise<Response> => {
  throw new Error('no fetch at creation');
};
const payload = { content: [{ type: 'text', text: '{"accounts":[]}' }] };

/** One entry given one option: run it, return what it threw (undefined when it took the value). */
type Entry = (value: unknown) => unknown;

function thrown(run: () => unknown): unknown {
  try {
    run();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** Whether decode got past its options: any error but INVALID_OPTION is a judged payload. */
function decodeWith(options: Record<string, unknown>): unknown {
  const error = thrown(() => decode('list_accounts', payload, options));
  return error instanceof DecodeError && error.code === 'INVALID_OPTION' ? error : undefined;
}

const receiver = (o: object) => createWebhookReceiver({ endpoint: BUYER_ORIGIN, keys: resolver, ...o });
const jwks = (o: object) => createJwksResolver({ url, agent: 'https://seller.example/mcp', fetch: noFetch, ...o });
const revocation = (o: object) =>
  createRevocationList({ url, issuer: 'https://seller.example', keys: async () => undefined, fetch: noFetch, ...o });

const BYTE_BOUNDS: Record<string, Entry> = {
  'decode maxBytes': (v) => decodeWith({ maxBytes: v }),
  'extractMcpResponse maxBytes': (v) => thrown(() => extractMcpResponse(payload, { maxBytes: v as number })),
  'boundedFetch maxBytes': (v) => thrown(() => boundedFetch({ maxBytes: v as number })),
  'createWebhookReceiver maxBodyBytes': (v) => thrown(() => receiver({ maxBodyBytes: v })),
  'createWebhookReceiver maxSignatureHeaderBytes': (v) => thrown(() => receiver({ maxSignatureHeaderBytes: v })),
  'createJwksResolver maxBytes': (v) => thrown(() => jwks({ maxBytes: v })),
  'createRevocationList maxBytes': (v) => thrown(() => revocation({ maxBytes: v })),
};

const DEADLINES: Record<string, Entry> = {
  'boundedFetch timeoutMs': (v) => thrown(() => boundedFetch({ timeoutMs: v as number })),
  'createWebhookReceiver bodyTimeoutMs': (v) => thrown(() => receiver({ bodyTimeoutMs: v })),
  'createWebhookReceiver storeTimeoutMs': (v) => thrown(() => receiver({ storeTimeoutMs: v })),
  'createWebhookReceiver keysTimeoutMs': (v) => thrown(() => receiver({ keysTimeoutMs: v })),
  'createJwksResolver timeoutMs': (v) => thrown(() => jwks({ timeoutMs: v })),
  'createJwksResolver cacheTtlMs': (v) => thrown(() => jwks({ cacheTtlMs: v })),
  'createJwksResolver refetchCooldownMs': (v) => thrown(() => jwks({ refetchCooldownMs: v })),
  'createJwksResolver negativeCacheMs': (v) => thrown(() => jwks({ negativeCacheMs: v })),
  'createRevocationList timeoutMs': (v) => thrown(() => revocation({ timeoutMs: v })),
  'createRevocationList retryCooldownMs': (v) => thrown(() => revocation({ retryCooldownMs: v })),
  'waitForTask timeoutMs': (v) => thrown(() => readWaitOptions({ timeoutMs: v as number })),
  'waitForTask intervalMs': (v) => thrown(() => readWaitOptions({ intervalMs: v as number })),
  'waitForTask maxIntervalMs': (v) => thrown(() => readWaitOptions({ intervalMs: 1, maxIntervalMs: v as number })),
  'waitForTask pollTimeoutMs': (v) => thrown(() => readWaitOptions({ pollTimeoutMs: v as number })),
};

/** Values every kind refuses: no count, no whole ms. */
const REFUSED_BY_ALL: readonly unknown[] = [0, -1, 1.5, Number.NaN, -Infinity, 2 ** 53, '1024', null, true, {}];

function expectRefused(error: unknown, rule: string): void {
  expect(error).toBeInstanceOf(DecodeError);
  expect(error).toMatchObject({
    code: 'INVALID_OPTION',
    message: expect.stringMatching(new RegExp(`option \\S+ must be ${rule.replace(/[()]/g, '\\$&')}; got `)) as string,
  });
}

describe('a byte bound: a positive safe integer or Infinity, in every entry', () => {
  const rule = 'a positive safe integer or Infinity';
  test.each(Object.entries(BYTE_BOUNDS))('%s', (_name, entry) => {
    for (const value of [1, 60_000, Infinity]) expect(entry(value), String(value)).toBeUndefined();
    for (const value of REFUSED_BY_ALL) expectRefused(entry(value), rule);
  });
});

describe(`a deadline: a positive safe integer of ms up to ${MAX_TIMER_MS}, in every entry`, () => {
  const rule = `a positive safe integer of ms up to ${MAX_TIMER_MS}`;
  test.each(Object.entries(DEADLINES))('%s', (_name, entry) => {
    // 60 s: within every entry's own ceiling (the JWKS cache periods have the spec's, 60 s at least).
    for (const value of [1, 60_000]) expect(entry(value), String(value)).toBeUndefined();
    for (const value of [...REFUSED_BY_ALL, Infinity, MAX_TIMER_MS + 1]) expectRefused(entry(value), rule);
  });
});
