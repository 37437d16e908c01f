/**
 * Idempotency keys (security.mdx, "Buyer obligations"): newIdempotencyKey() mints a fresh UUID v4
 * that every task's key pattern accepts; a request without the key its schema requires, or with a
 * malformed one, is refused with a message that names the key first; and the encoded request is a
 * frozen value, so a network retry that resends it sends the same bytes with the same key, while
 * a re-plan (a new encode) carries the fresh key it was given.
 */

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { requestTablesByVersion } from '../../src/generated/requests.js';
import * as v30 from '../../src/generated/v3_0/pinned.js';
import * as v31 from '../../src/generated/v3_1/pinned.js';
import { encode, newIdempotencyKey, RequestError, safeEncode, type Version } from '../../src/index.js';
import { fastValidator } from '../../src/validate/validators.js';
import { armCandidates } from '../fixtures/minimal-instances.js';
import { V3_1 } from '../fixtures/versions.js';
import { caughtAs } from '../helpers.js';
import { KEY, mediaBuyRequest } from './requests.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newIdempotencyKey', () => {
  test('mints distinct UUID v4s', () => {
    const keys = Array.from({ length: 1000 }, () => newIdempotencyKey());
    for (const key of keys) expect(key).toMatch(UUID_V4);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('the pinned entries hand out the same helper', () => {
    expect(v31.newIdempotencyKey).toBe(newIdempotencyKey);
    expect(v30.newIdempotencyKey).toBe(newIdempotencyKey);
  });

  test.each(Object.keys(requestTablesByVersion) as Version[])('every task of %s that requires a key accepts a minted one', (version) => {
    const rows = Object.entries(requestTablesByVersion[version] as Record<string, { schemaId: string; idempotencyKey?: string }>);
    const keyed = rows.filter(([, row]) => row.idempotencyKey === 'required');
    expect(keyed.length).toBeGreaterThan(20);
    for (const [task, row] of keyed) {
      const args = armCandidates(row.schemaId).find((c) => fastValidator(version, task, 'request')!(c))!;
      const key = newIdempotencyKey();
      const r = safeEncode(task as 'create_media_buy', { ...args, idempotency_key: key } as never, { version });
      expect(r.success && r.data.args.idempotency_key, task).toBe(key);
    }
  });
});

describe('a key the schema requires', () => {
  test('missing: refused, and the message says so first', () => {
    const { idempotency_key: _, ...args } = mediaBuyRequest(1);
    const error = caughtAs(RequestError, () => encode('create_media_buy', args as never));
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.fault).toBe('schema');
    expect(error.issues).toContainEqual(
      expect.objectContaining({ path: '', keyword: 'required', params: { missingProperty: 'idempotency_key' } }),
    );
    expect(error.message).toMatchInlineSnapshot(
      `"the create_media_buy request lacks idempotency_key, which the AdCP ${V3_1} schema requires: mint one per new request with newIdempotencyKey() (a network retry resends the encoded request, key and all) (1 issue)"`,
    );
  });

  test('named first even when other members are wrong too', () => {
    const { idempotency_key: _, ...args } = mediaBuyRequest(1);
    const r = v30.safeEncode('create_media_buy', { ...args, start_time: 42 } as never);
    if (r.success) return expect.fail('encoded');
    expect(r.error.message).toMatch(/^the create_media_buy request lacks idempotency_key, which the AdCP 3\.0\.\d+ schema requires/);
  });

  test.each(['too-short', 'has spaces in the key!', 'x'.repeat(256), 'ключ-идемпотентности-1'])(
    'malformed (%s): refused at /idempotency_key',
    (key) => {
      const r = safeEncode('create_media_buy', mediaBuyRequest(1, key));
      if (r.success) return expect.fail('encoded');
      const error = r.error as RequestError;
      expect(error.fault).toBe('schema');
      expect(error.issues.some((i) => i.path === '/idempotency_key')).toBe(true);
      expect(error.message).toMatch(
        /^the create_media_buy request's idempotency_key is refused by the AdCP 3\.1\.\d+ schema \(must .*\): newIdempotencyKey\(\) mints a valid one \(\d issues?\)$/,
      );
    },
  );

  test('a task that defines no key needs none', () => {
    expect(encode('get_products', { buying_mode: 'wholesale' }).args).not.toHaveProperty('idempotency_key');
  });
});

describe('retries resend the encoded request; a re-plan encodes anew', () => {
  /** A seller reached through a transport that drops the first `drops` sends after the seller saw them. */
  function flakySeller(drops: number) {
    const seen: string[] = [];
    return {
      seen,
      send(args: unknown): string {
        seen.push(JSON.stringify(args));
        if (seen.length <= drops) throw new Error('socket hang up');
        return 'ok';
      },
    };
  }

  test('a network retry of the encoded request sends the same bytes and the same key', () => {
    const seller = flakySeller(2);
    const request = encode('create_media_buy', mediaBuyRequest(3, newIdempotencyKey()));
    let answer: string | undefined;
    for (let attempt = 0; answer === undefined && attempt < 5; attempt++) {
      try {
        answer = seller.send(request.args);
      } catch {
        // transient: retry, resending the request as encoded
      }
    }
    expect(answer).toBe('ok');
    expect(seller.seen).toHaveLength(3);
    expect(new Set(seller.seen).size).toBe(1);
    expect(JSON.parse(seller.seen[0]!).idempotency_key).toBe(request.args.idempotency_key);
  });

  test('nothing in an encoded request can be changed between sends', () => {
    const request = encode('create_media_buy', mediaBuyRequest(2, KEY));
    const before = JSON.stringify(request);
    expect(() => {
      (request.args as { idempotency_key: string }).idempotency_key = newIdempotencyKey();
    }).toThrow(TypeError);
    expect(() => {
      (request.args.packages as unknown as Array<{ budget: number }>)[1]!.budget = 1;
    }).toThrow(TypeError);
    expect(() => {
      (request.args.packages as unknown as unknown[]).push({});
    }).toThrow(TypeError);
    expect(JSON.stringify(request)).toBe(before);
  });

  test('the caller’s object is not the request: changing it after encode changes nothing sent', () => {
    const plan = mediaBuyRequest(2, KEY);
    const request = encode('create_media_buy', plan);
    plan.packages![0]!.budget = 1;
    plan.idempotency_key = newIdempotencyKey();
    expect(request.args.packages![0]!.budget).toBe(5000);
    expect(request.args.idempotency_key).toBe(KEY);
  });

  test('a re-plan is a new encode with a fresh key: a different request (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }), (first, second) => {
        const a = encode('create_media_buy', mediaBuyRequest(first, newIdempotencyKey()));
        const b = encode('create_media_buy', mediaBuyRequest(second, newIdempotencyKey()));
        return a.args.idempotency_key !== b.args.idempotency_key;
      }),
      { numRuns: 50 },
    );
  });
});
