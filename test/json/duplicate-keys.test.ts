/**
 * The duplicate-key scan (verifier step 14, and every text decode parses) on the HMAC file's
 * signer-side inputs (top level, nested, inside arrays, three deep, and the clean input that must
 * pass), escaped spellings, keys in different objects, strings that look like keys, the pointer
 * of the first repeat, and the step 14b name sanitization.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { countMembers, findDuplicateKeys, sanitizeKeyName } from '../../src/json/duplicate-keys.js';
import { readVector } from '../fixtures/vectors.js';

interface SignerSide {
  signer_side: {
    rejection_vectors: Array<{ id: string; signer_input_body: string }>;
    positive_vectors: Array<{ id: string; signer_input_body: string }>;
  };
}
const { signer_side: side } = readVector<SignerSide>('webhook-hmac-sha256.json');

describe('findDuplicateKeys', () => {
  for (const v of side.rejection_vectors) test(`${v.id}: found`, () => expect(findDuplicateKeys(v.signer_input_body)?.count).toBe(1));
  for (const v of side.positive_vectors) test(`${v.id}: clean`, () => expect(findDuplicateKeys(v.signer_input_body)).toBeUndefined());
  test('escaped spellings of one key collide; the same key in sibling objects does not', () => {
    expect(findDuplicateKeys('{"a":1,"\\u0061":2}')).toEqual({ count: 1, names: ['a'], path: '/a' });
    expect(findDuplicateKeys('{"x":{"a":1},"y":{"a":2},"z":[{"a":1},{"a":2}]}')).toBeUndefined();
  });
  test('string values and escaped quotes are not keys', () => {
    expect(findDuplicateKeys('{"a":"\\"a\\":1,","b":["a","a"]}')).toBeUndefined();
    expect(findDuplicateKeys('{"k\\\\":1,"k\\\\":2}')).toEqual({ count: 1, names: ['k\\'], path: '/k\\' });
  });
  test('counts every repeat, reports at most four names', () => {
    const text = `{${Array.from({ length: 6 }, (_, i) => `"k${i}":1,"k${i}":2`).join(',')}}`;
    expect(findDuplicateKeys(text)).toEqual({ count: 6, names: ['k0', 'k1', 'k2', 'k3'], path: '/k0' });
  });
  test('the pointer names the first repeat: through objects and array indexes, escaped per RFC 6901', () => {
    expect(findDuplicateKeys('{"media_buys":[{"id":1},{"id":2,"packages":[1,{"a/b~":1,"a/b~":2}]}],"x":{"y":1,"y":2}}')?.path).toBe(
      '/media_buys/1/packages/1/a~1b~0',
    );
    expect(findDuplicateKeys('[[],[1,2,{"s":[]}],{"t":"[,]","u":{},"t":0}]')?.path).toBe('/2/t');
    expect(findDuplicateKeys(`{"ext":{"status":"x"},"status":"working","note":"\\"status\\"","status":"completed"}`)).toEqual({
      count: 1,
      names: ['status'],
      path: '/status',
    });
  });
  test('agrees with a parse-based model on generated JSON objects', () => {
    const key = fc.constantFrom('a', 'b', 'c', 'é', 'a"b', '\\', '~/');
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        fc.integer(),
        fc.constantFrom('a', '"', '{"a":1}'),
        fc.array(tie('v'), { maxLength: 3 }),
        tie('o'),
      ),
      o: fc.array(fc.tuple(key, tie('v')), { maxLength: 4 }).map((pairs) => ({ pairs })),
    })).v;
    const render = (v: unknown): string =>
      typeof v === 'object' && v !== null && 'pairs' in v
        ? `{${(v as { pairs: Array<[string, unknown]> }).pairs.map(([k, x]) => `${JSON.stringify(k)}:${render(x)}`).join(',')}}`
        : Array.isArray(v)
          ? `[${v.map(render).join(',')}]`
          : JSON.stringify(v);
    const pointerSegment = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
    /** Repeats counted in document order; `first` is the pointer of the first. */
    const repeats = (v: unknown, at: string, found: { n: number; first?: string }): void => {
      if (Array.isArray(v)) {
        for (const [i, x] of v.entries()) repeats(x, `${at}/${i}`, found);
        return;
      }
      if (typeof v !== 'object' || v === null || !('pairs' in v)) return;
      const pairs = (v as { pairs: Array<[string, unknown]> }).pairs;
      const seen = new Set<string>();
      for (const [k, x] of pairs) {
        if (seen.has(k)) {
          found.n++;
          found.first ??= `${at}/${pointerSegment(k)}`;
        }
        seen.add(k);
        repeats(x, `${at}/${pointerSegment(k)}`, found);
      }
    };
    /** Every member of every object, repeats included. */
    const members = (v: unknown): number => {
      if (Array.isArray(v)) return v.reduce((n: number, x) => n + members(x), 0);
      if (typeof v !== 'object' || v === null || !('pairs' in v)) return 0;
      const pairs = (v as { pairs: Array<[string, unknown]> }).pairs;
      return pairs.reduce((n, [, x]) => n + 1 + members(x), 0);
    };
    fc.assert(
      fc.property(value, (v) => {
        const text = render(v);
        const found = findDuplicateKeys(text);
        const model: { n: number; first?: string } = { n: 0 };
        repeats(v, '', model);
        expect(found?.count ?? 0).toBe(model.n);
        expect(found?.path).toBe(model.first);
        expect(countMembers(text)).toBe(members(v));
      }),
      { numRuns: 500 },
    );
  });
});

describe('countMembers: one per member, colons in strings and escaped quotes skipped', () => {
  test('written examples', () => {
    expect(countMembers('{"a":1,"b":{"c":":"},"a":2}')).toBe(4);
    const escaped = '{"k\\":":"\\":","x":"\\\\",":":[":"]}';
    expect(Object.keys(JSON.parse(escaped))).toEqual(['k":', 'x', ':']);
    expect(countMembers(escaped)).toBe(3);
    expect(countMembers('[1,"a:b",{}]')).toBe(0);
    expect(countMembers('{ "a" : { "b" :\n[ ] } }')).toBe(2);
  });
  test('equals the own keys of what JSON.parse makes of text without repeats', () => {
    const ownKeys = (v: unknown): number => {
      if (Array.isArray(v)) return v.reduce((n: number, x) => n + ownKeys(x), 0);
      if (typeof v !== 'object' || v === null) return 0;
      return Object.values(v).reduce((n: number, x) => n + 1 + ownKeys(x), 0);
    };
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
        const text = JSON.stringify(value, null, 1);
        expect(countMembers(text)).toBe(ownKeys(JSON.parse(text)));
      }),
      { numRuns: 500 },
    );
  });
});

describe('sanitizeKeyName (step 14b)', () => {
  test('cuts at the first non-printable code point, reporting the bytes before it', () => {
    expect(sanitizeKeyName('status\u202e')).toBe('<sanitized:6>');
    expect(sanitizeKeyName('é\u0000x')).toBe('<sanitized:2>');
    expect(sanitizeKeyName('\u2028')).toBe('<sanitized:0>');
    expect(sanitizeKeyName('a\ufeff')).toBe('<sanitized:1>');
  });
  test('truncates to 32 bytes on a code point boundary', () => {
    expect(sanitizeKeyName('x'.repeat(40))).toBe('x'.repeat(32));
    expect(sanitizeKeyName(`${'x'.repeat(31)}é`)).toBe('x'.repeat(31));
    expect(sanitizeKeyName('signed_authorized_agents')).toBe('signed_authorized_agents');
  });
});
