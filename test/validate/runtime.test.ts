/**
 * src/validate/runtime/index.js, the helpers the generated validator modules import, checked against
 * Ajv's own: uniquePair against Ajv's pairwise uniqueItems loop over its deep equality,
 * ucs2length against `ajv/dist/runtime/ucs2length`, and the listing stop.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import deepEqual from 'fast-deep-equal';
import { describe, expect, test } from 'vitest';
import {
  LISTING_LIMIT,
  ListingStopped,
  stopListing,
  UNIQUE_PAIRWISE_MAX,
  ucs2length,
  uniquePair,
} from '../../src/validate/runtime/index.js';

// Ajv's own helper, CommonJS with `exports.default` (its runtime `equal` is fast-deep-equal itself).
const ajvUcs2length = (createRequire(import.meta.url)('ajv/dist/runtime/ucs2length') as { default: (text: string) => number }).default;

/** Ajv's own uniqueItems loop over items of unknown type: the last repeated item and its nearest earlier copy. */
function ajvPair(items: readonly unknown[]): [number, number] | null {
  for (let i = items.length; i--; ) for (let j = i; j--; ) if (deepEqual(items[i], items[j])) return [i, j];
  return null;
}

// JSON values that collide often: numbers equal as JSON (1 and 1.0, 0 and -0), objects with
// their keys reordered, nested arrays, and strings that look like other values.
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(0, -0, 1, 1.0, 2, '1', '0', 'null', '', true, false, null),
    fc.integer({ min: 0, max: 50 }),
    fc.string({ maxLength: 2 }),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('p', 'q', 'r'), tie('value'), { maxKeys: 3 }),
  ),
})).value;
/** A value's JSON with object keys sorted: equal for deep-equal JSON values. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x !== null && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1)))
      : x,
  );
/**
 * Arrays of JSON values, half the time with a copy of one item (keys reordered) inserted later:
 * short ones as they come (repeats are common), long ones without repeats but for the copy.
 */
const items = (minLength: number, maxLength: number) =>
  fc
    .tuple(
      minLength > UNIQUE_PAIRWISE_MAX
        ? fc.uniqueArray(value, { minLength, maxLength, selector: canonical })
        : fc.array(value, { maxLength }),
      fc.nat(),
      fc.nat(),
      fc.boolean(),
    )
    .map(([arr, from, to, copy]) => {
      if (copy && arr.length > 0) {
        const v = arr[from % arr.length];
        const reordered = v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v;
        arr.splice((from % arr.length) + 1 + (to % arr.length), 0, reordered);
      }
      return JSON.parse(JSON.stringify(arr)) as unknown[];
    });

describe('uniquePair reports the pair Ajv reports', () => {
  test.each([
    ['short arrays (compared pairwise)', 0, UNIQUE_PAIRWISE_MAX],
    ['long arrays (keyed)', UNIQUE_PAIRWISE_MAX + 1, UNIQUE_PAIRWISE_MAX + 60],
  ])('%s: fast-check, 2,000 arrays', (_name, minLength, maxLength) => {
    let repeats = 0;
    fc.assert(
      fc.property(items(minLength, maxLength), (arr) => {
        const want = ajvPair(arr);
        if (want !== null) repeats++;
        expect(uniquePair(arr, deepEqual)).toEqual(want);
      }),
      { seed: 20261201, numRuns: 2_000 },
    );
    // Both outcomes must be common, or the agreement says little.
    expect(repeats).toBeGreaterThan(400);
    expect(repeats).toBeLessThan(1_900);
  });

  test('past UNIQUE_PAIRWISE_MAX items it keys them in one pass: equal is never called', () => {
    let calls = 0;
    const counting = (a: unknown, b: unknown) => {
      calls++;
      return deepEqual(a, b);
    };
    const long = Array.from({ length: 10_000 }, (_, k) => ({ id: k, tags: [k % 7] }));
    expect(uniquePair(long, counting)).toBeNull();
    expect(uniquePair([...long, { tags: [3], id: 3 }], counting)).toEqual([10_000, 3]);
    expect(calls).toBe(0);
    // Up to the limit, Ajv's own loop: n (n - 1) / 2 comparisons when all differ.
    expect(uniquePair(long.slice(0, UNIQUE_PAIRWISE_MAX), counting)).toBeNull();
    expect(calls).toBe((UNIQUE_PAIRWISE_MAX * (UNIQUE_PAIRWISE_MAX - 1)) / 2);
  });
});

describe('ucs2length counts code points as Ajv does', () => {
  test('fast-check: any UTF-16 string, lone surrogates and pairs included', () => {
    const unit = fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.constantFrom(0xd83d, 0xde00, 0xdbff, 0xdc00, 0x41));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (codes) => {
        const text = String.fromCharCode(...codes);
        expect(ucs2length(text)).toBe(ajvUcs2length(text));
      }),
      { seed: 20261201, numRuns: 5_000 },
    );
  });

  test('a surrogate pair is one character, a lone surrogate one too', () => {
    expect(ucs2length('a😀')).toBe(2);
    expect(ucs2length('\ud83d')).toBe(1);
    expect(ucs2length('\ude00\ud83d')).toBe(2);
  });
});

describe('the listing stop', () => {
  test('stopListing throws ListingStopped with the first error held, naming LISTING_LIMIT', () => {
    expect(LISTING_LIMIT).toBe(100_000);
    const first = { instancePath: '/products/0', keyword: 'required' };
    const thrown = (() => {
      try {
        stopListing([first, { instancePath: '/products/1' }]);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(ListingStopped);
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as ListingStopped).first).toBe(first);
    expect((thrown as ListingStopped).message).toBe('the listing stopped after more than 100000 errors');
  });
});
