/**
 * What encode() refuses, and how it says so: every fault in the caller's arguments is a
 * RequestError (`INVALID_REQUEST`, never SCHEMA_MISMATCH, which blames a seller), with the issue
 * listing and bounds of decode()'s; the arguments are read once, so a getter cannot change what
 * was validated; options and task names fail as decode()'s do.
 */
import { describe, expect, test } from 'vitest';
import * as v31 from '../../src/generated/v3_1/pinned.js';
import { DecodeError, encode, formatIssues, LimitError, RequestError, safeEncode } from '../../src/index.js';
import { MAX_ISSUES } from '../../src/validate/issue-listing.js';
import { V3_1 } from '../fixtures/versions.js';
import { caughtAs } from '../helpers.js';
import { KEY, mediaBuyPackage, mediaBuyRequest, PRODUCTS_BRIEF } from './requests.js';

function refusal(args: unknown, options?: object): RequestError {
  const r = safeEncode('create_media_buy', args as never, options);
  if (r.success) return expect.fail('expected a refusal');
  expect(r.error).toBeInstanceOf(RequestError);
  expect(r.error.message).not.toMatch(/[\r\n]/);
  const thrown = caughtAs(RequestError, () => encode('create_media_buy', args as never, options));
  expect(thrown.code).toBe(r.error.code);
  return r.error as RequestError;
}

describe('a request its schema refuses', () => {
  test('lists every issue with its pointer, and formatIssues prints them', () => {
    const args = { ...mediaBuyRequest(2), start_time: 'tomorrow', packages: [{ ...mediaBuyPackage(0), budget: -5 }, mediaBuyPackage(1)] };
    const error = refusal(args);
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.fault).toBe('schema');
    expect(error.task).toBe('create_media_buy');
    expect(error.version).toBe(V3_1);
    expect(error.schemaId).toBe(`/schemas/${V3_1}/media-buy/create-media-buy-request.json`);
    expect(error.issues.map((i) => i.path)).toEqual(expect.arrayContaining(['/packages/0/budget', '/start_time']));
    expect(error.issuesComplete).toBe(true);
    expect(formatIssues(error)).toContain('→ at /packages/0/budget');
    expect(error.message).toMatch(
      /^the create_media_buy request does not match the AdCP 3\.1\.\d+ request schema; first: \/\S+ .+ \(\d+ issues\)$/,
    );
  });

  test('a closed object refuses a typo’d member', () => {
    const args = { ...mediaBuyRequest(1), total_budget: { amount: 10_000, currency: 'USD', curency: 'USD' } };
    const error = refusal(args);
    expect(error.issues).toContainEqual(
      expect.objectContaining({ path: '/total_budget', keyword: 'additionalProperties', params: { additionalProperty: 'curency' } }),
    );
  });

  test('thousands of faults are listed within the same bounds as a seller’s (MAX_ISSUES)', () => {
    const packages = Array.from({ length: 3000 }, (_, i) => ({ ...mediaBuyPackage(i), budget: 'lots', bid_price: 'high' }));
    const error = refusal({ ...mediaBuyRequest(1), packages });
    expect(error.issues.length).toBe(MAX_ISSUES);
    expect(error.issuesComplete).toBe(false);
    expect(error.issuesFound).toBeGreaterThan(MAX_ISSUES);
    expect(error.message).toMatch(/issues; the listing was cut to the first 1,000\)$/);
  });

  test('never a SCHEMA_MISMATCH: that code blames the seller', () => {
    for (const args of [{}, [], 'x', 42, null, { ...mediaBuyRequest(1), packages: [] }]) {
      const r = safeEncode('create_media_buy', args as never);
      expect(r.success).toBe(false);
      if (!r.success) expect(r.error.code).toBe('INVALID_REQUEST');
    }
  });
});

describe('arguments past a bound, or not JSON data', () => {
  test.each([
    ['maxBytes', { maxBytes: 1024 }, 'bytes'],
    ['maxDepth', { maxDepth: 3 }, 'depth'],
    ['maxNodes', { maxNodes: 50 }, 'nodes'],
  ] as const)('%s: fault limit, the LimitError as cause', (_, bounds, unit) => {
    const error = refusal(mediaBuyRequest(5), bounds);
    expect(error.fault).toBe('limit');
    expect(error.cause).toBeInstanceOf(LimitError);
    expect((error.cause as LimitError).unit).toBe(unit);
    expect(error.message).toMatch(/^the create_media_buy request /);
  });

  test('the defaults are decode()’s: a 5 MB request is refused before it is validated', () => {
    const error = refusal({ ...mediaBuyRequest(1), po_number: 'x'.repeat(5 * 1024 * 1024) });
    expect(error.fault).toBe('limit');
    expect(error.path).toBe('/po_number');
  });

  class Budget {
    amount = 5;
  }
  const cyclic: Record<string, unknown> = { ...mediaBuyRequest(1) };
  cyclic.ext = { self: cyclic };
  test.each([
    ['a class instance', { ...mediaBuyRequest(1), ext: new Budget() }, '/ext'],
    ['a circular reference', cyclic, '/ext/self'],
    ['a function', { ...mediaBuyRequest(1), ext: { hook: () => 1 } }, '/ext/hook'],
    ['a bigint', { ...mediaBuyRequest(1), ext: { n: 10n } }, '/ext/n'],
    ['NaN', { ...mediaBuyRequest(1), ext: { n: Number.NaN } }, '/ext/n'],
    ['undefined', undefined, ''],
    ['a __proto__ key', JSON.parse(`{"idempotency_key":"${KEY}","ext":{"__proto__":{"admin":true}}}`), '/ext/__proto__'],
    [
      'a getter that throws',
      Object.defineProperty({ ...mediaBuyRequest(1) }, 'brand', {
        enumerable: true,
        get() {
          throw new Error('boom');
        },
      }),
      '/brand',
    ],
  ])('%s: fault data, at its pointer', (what, args, path) => {
    const error = refusal(args);
    expect(error.fault).toBe('data');
    // A cycle is seen where the depth bound meets it, a few laps in.
    if (what === 'a circular reference') expect(error.path).toMatch(/^\/ext\/self\/ext\/self/);
    else expect(error.path).toBe(path);
    expect(error.cause).toBeInstanceOf(DecodeError);
  });

  test('a getter is read once: what was validated is what is sent', () => {
    let reads = 0;
    const args = Object.defineProperty({ ...mediaBuyRequest(1) }, 'po_number', {
      enumerable: true,
      get() {
        reads++;
        return reads === 1 ? 'PO-1' : 42; // a second read would fail the schema
      },
    });
    const request = encode('create_media_buy', args);
    expect(reads).toBe(1);
    expect(request.args.po_number).toBe('PO-1');
  });
});

describe('task names and options fail as decode()’s do', () => {
  test('an unknown task, or one the pinned version lacks', () => {
    expect(caughtAs(DecodeError, () => encode('get_product' as 'get_products', PRODUCTS_BRIEF)).code).toBe('UNKNOWN_TASK');
    expect(caughtAs(DecodeError, () => encode('constructor' as 'get_products', PRODUCTS_BRIEF)).code).toBe('UNKNOWN_TASK');
    const r = safeEncode('get_task_status', { task_id: 't-1' } as never, { version: '3.0' } as never);
    expect(!r.success && r.error.code).toBe('UNKNOWN_TASK');
  });

  test('an invalid option', () => {
    expect(caughtAs(DecodeError, () => encode('get_products', PRODUCTS_BRIEF, { maxBytes: -1 })).code).toBe('INVALID_OPTION');
    expect(caughtAs(DecodeError, () => encode('get_products', PRODUCTS_BRIEF, { version: '2.5' as '3.1' })).code).toBe(
      'UNSUPPORTED_VERSION',
    );
    const pinned = v31.safeEncode('get_products', PRODUCTS_BRIEF, { version: '3.0' } as never);
    expect(!pinned.success && pinned.error.code).toBe('INVALID_OPTION');
  });
});
