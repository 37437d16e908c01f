/**
 * Every option of createWebhookReceiver (and of the stores) is checked at creation: a wrong value
 * of any of them, generated, throws a DecodeError `INVALID_OPTION` (or `UNSUPPORTED_VERSION`)
 * naming the option, there and then, never a raw TypeError and never a fault that waits for the
 * first webhook. Valid values of the same options are accepted.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DecodeError } from '../../src/errors/errors.js';
import {
  createMemoryDedupStore,
  createMemoryReplayStore,
  createRedisDedupStore,
  createRedisReplayStore,
  createWebhookReceiver,
  type WebhookReceiverOptions,
  webhookResponse,
} from '../../src/webhooks/index.js';
import { BUYER_ORIGIN, resolver, SELLER } from './fixtures.js';

const SECRET = 'a-legacy-secret-of-forty-characters-0123';
const notFunction = fc.anything().filter((v) => v !== undefined && typeof v !== 'function');
const notObject = fc.anything().filter((v) => v !== undefined && (typeof v !== 'object' || v === null || Array.isArray(v)));
const notPositiveInteger = fc.oneof(
  fc.integer({ max: 0 }),
  fc.double({ noInteger: true }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '10', null, true),
);
const notDeadline = fc.oneof(notPositiveInteger, fc.constant(2 ** 31));
// A byte bound's rule (src/errors/option-rules.ts): Infinity is no limit, and valid.
const notByteLimit = notPositiveInteger.filter((v) => v !== Number.POSITIVE_INFINITY);
const store = { capReached: () => false, claim: () => 'claimed' as const, newKeyidAdmissions: () => 0 };
const dedupStore = createMemoryDedupStore();

/** For each option: values it must refuse at creation, given the rest of a valid configuration. */
const invalid: Record<string, fc.Arbitrary<Partial<Record<keyof WebhookReceiverOptions, unknown>>>> = {
  options: fc.oneof(fc.constant(null), fc.constant([]), fc.constant('keys')).map((v) => v as never),
  keys: notFunction.map((keys) => ({ keys })),
  jwks: fc.oneof(
    notObject.map((jwks) => ({ keys: undefined, jwks })),
    fc.constantFrom('file:///etc/passwd', 'seller.example.com', '').map((url) => ({ keys: undefined, jwks: { url, agent: SELLER } })),
    // The bounded fetch's rule (a positive safe integer or Infinity): Infinity is a valid limit there.
    notPositiveInteger
      .filter((maxBytes) => maxBytes !== Number.POSITIVE_INFINITY)
      .map((maxBytes) => ({ keys: undefined, jwks: { url: 'https://seller.example.com/jwks', agent: SELLER, maxBytes } })),
    fc.constantFrom('', 42, undefined).map((agent) => ({ keys: undefined, jwks: { url: 'https://seller.example.com/jwks', agent } })),
  ),
  hmac: fc.oneof(
    notObject.map((hmac) => ({ keys: undefined, hmac })),
    fc.oneof(fc.string({ maxLength: 31 }), fc.constant('x'.repeat(40)), fc.integer(), fc.constant([SECRET])).map((secret) => ({
      keys: undefined,
      hmac: { secret, agent: SELLER },
    })),
    fc.constantFrom('', 42, undefined).map((agent) => ({ keys: undefined, hmac: { secret: SECRET, agent } })),
  ),
  keysAndHmac: fc.constant({ hmac: { secret: SECRET, agent: SELLER } }),
  replayStore: fc.oneof(notObject, fc.constant({ claim: () => 'claimed' })).map((replayStore) => ({ replayStore })),
  revocation: notFunction.map((revocation) => ({ revocation })),
  revocationList: fc.oneof(
    notObject.map((revocationList) => ({ revocationList })),
    fc.constant({ revocationList: { url: 'ftp://seller.example.com/r', issuer: SELLER } }),
    fc.constant({ revocation: () => 'valid', revocationList: { url: 'https://seller.example.com/r', issuer: SELLER } }),
  ),
  endpoint: fc
    .oneof(
      fc.constantFrom(undefined, 'buyer.example.com', 'ftp://buyer.example.com/', '/hook', ''),
      notObject.filter((v) => typeof v !== 'string'),
    )
    .map((endpoint) => ({ endpoint })),
  maxSignatureHeaderBytes: notByteLimit.map((maxSignatureHeaderBytes) => ({ maxSignatureHeaderBytes })),
  replayScope: fc
    .anything()
    .filter((v) => v !== undefined && v !== 'keyid' && v !== 'destination')
    .map((replayScope) => ({ replayScope })),
  maxBodyBytes: notByteLimit.map((maxBodyBytes) => ({ maxBodyBytes })),
  bodyTimeoutMs: notDeadline.map((bodyTimeoutMs) => ({ bodyTimeoutMs })),
  storeTimeoutMs: notDeadline.map((storeTimeoutMs) => ({ storeTimeoutMs })),
  keysTimeoutMs: notDeadline.map((keysTimeoutMs) => ({ keysTimeoutMs })),
  dedup: fc.oneof(
    notObject.map((dedup) => ({ dedup })),
    fc.constantFrom(undefined, {}, { claim: () => 'claimed' }).map((s) => ({ dedup: { store: s } })),
    fc
      .oneof(notPositiveInteger, fc.integer({ min: 1, max: 86_399 }))
      .map((retentionSeconds) => ({ dedup: { store: dedupStore, retentionSeconds } })),
    notPositiveInteger.map((leaseSeconds) => ({ dedup: { store: dedupStore, leaseSeconds } })),
  ),
  now: notFunction.map((now) => ({ now })),
  subtle: fc.oneof(notObject, fc.constant({ digest: () => undefined })).map((subtle) => ({ subtle })),
  format: fc
    .anything()
    .filter((v) => v !== undefined && v !== 'mcp' && v !== 'a2a')
    .map((format) => ({ format })),
  taskType: fc.oneof(fc.constantFrom('no_such_task', 'get_products_', ''), fc.integer()).map((taskType) => ({ taskType })),
  a2aWithoutTaskType: fc.constant({ format: 'a2a' }),
  version: fc.constantFrom('9.9', 'latest', 42).map((version) => ({ version })),
  maxBytes: fc.constantFrom(-1, 1.5, '1').map((maxBytes) => ({ maxBytes })),
};

function creationError(options: unknown): unknown {
  try {
    createWebhookReceiver(options as WebhookReceiverOptions);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('createWebhookReceiver checks every option at creation', () => {
  test.each(Object.entries(invalid))('%s: refused with a typed INVALID_OPTION', async (name, values) => {
    await fc.assert(
      fc.property(values, (patch) => {
        const options = name === 'options' ? patch : { endpoint: BUYER_ORIGIN, keys: resolver, ...patch };
        const error = creationError(options);
        expect(error).toBeInstanceOf(DecodeError);
        expect(['INVALID_OPTION', 'UNSUPPORTED_VERSION']).toContain((error as DecodeError).code);
        expect(webhookResponse(error)).toMatchObject({ status: 500, blame: 'configuration' });
      }),
      { numRuns: 40 },
    );
  });
  test('the message names the option and what it must be', () => {
    expect(creationError({ endpoint: BUYER_ORIGIN, keys: resolver, storeTimeoutMs: 0 })).toMatchObject({
      message: 'createWebhookReceiver: option storeTimeoutMs must be a positive safe integer of ms up to 2147483647; got 0',
    });
    expect(creationError({ endpoint: BUYER_ORIGIN, keys: resolver, dedup: { store: dedupStore, retentionSeconds: 3600 } })).toMatchObject({
      message: expect.stringContaining('option dedup.retentionSeconds must be at least 86400 (24 h, webhooks.mdx)'),
    });
    expect(creationError({ keys: undefined, jwks: { url: 'file:///x', agent: SELLER } })).toMatchObject({
      message: expect.stringContaining('option jwks: createJwksResolver: url must be an http(s) URL'),
    });
  });
  test('an HMAC secret of the wrong type is never shown, not even a number (issue 28, item 7)', () => {
    for (const secret of [12_345_678_901_234_567_890, [SECRET, 42], [SECRET, SECRET, SECRET]]) {
      const error = creationError({ keys: undefined, hmac: { secret: secret as never, agent: SELLER } });
      expect(error).toMatchObject({ code: 'INVALID_OPTION', message: expect.stringContaining('not shown: key material') });
      const { message } = error as Error;
      expect(message).not.toMatch(/12345|\b42\b/);
      expect(message).not.toContain(SECRET.slice(0, 8));
    }
  });
  test('valid values of the same options are accepted', () => {
    const options: WebhookReceiverOptions = {
      endpoint: BUYER_ORIGIN,
      keys: resolver,
      replayStore: store,
      revocation: () => 'valid',
      replayScope: 'destination',
      maxBodyBytes: 500_000,
      bodyTimeoutMs: 5_000,
      storeTimeoutMs: 1_000,
      keysTimeoutMs: 2 ** 31 - 1,
      dedup: { store: dedupStore, retentionSeconds: 7 * 86_400, leaseSeconds: 60 },
      now: Date.now,
      subtle: crypto.subtle,
      format: 'a2a',
      taskType: 'create_media_buy',
      version: '3.1',
    };
    expect(creationError(options)).toBeUndefined();
    expect(creationError({ hmac: { secret: [SECRET, `${SECRET}-previous`], agent: SELLER } })).toBeUndefined();
  });
});

describe('the stores check their options at creation too', () => {
  const client = { eval: async () => 'OK' };
  const factories: Record<string, (value: unknown) => unknown> = {
    'createMemoryReplayStore perKeyidCap': (v) => createMemoryReplayStore({ perKeyidCap: v as number }),
    'createMemoryReplayStore aggregateCap': (v) => createMemoryReplayStore({ aggregateCap: v as number }),
    'createMemoryReplayStore maxBytes': (v) => createMemoryReplayStore({ maxBytes: v as number }),
    'createMemoryReplayStore admissionWindowMs': (v) => createMemoryReplayStore({ admissionWindowMs: v as number }),
    'createRedisReplayStore perKeyidCap': (v) => createRedisReplayStore({ client, perKeyidCap: v as number }),
    'createMemoryDedupStore perSenderCap': (v) => createMemoryDedupStore({ perSenderCap: v as number }),
    'createMemoryDedupStore maxBytes': (v) => createMemoryDedupStore({ maxBytes: v as number }),
    'createRedisDedupStore perSenderCap': (v) => createRedisDedupStore({ client, perSenderCap: v as number }),
  };
  test.each(Object.entries(factories))('%s', (_name, make) => {
    fc.assert(
      fc.property(notPositiveInteger, (value) => {
        expect(() => make(value)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
      }),
      { numRuns: 20 },
    );
  });
  test('a Redis store without a client that can run scripts', () => {
    for (const client of [undefined, {}, { eval: 'EVAL' }, { sendCommand: async () => 'OK' }])
      for (const make of [createRedisReplayStore, createRedisDedupStore])
        expect(() => make({ client: client as never })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });
});
