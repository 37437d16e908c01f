/**
 * A seller's extra members stay in what decode() returns, and extra() reads them: the one door the
 * closed response types leave to members the schemas do not name. It reads own members only.
 */
import fc from 'fast-check';
import { afterEach, expect, test } from 'vitest';
import { decode } from '../../src/decode/decode.js';
import { extra } from '../../src/decode/extra.js';
import { isFinal } from '../../src/decode/final.js';
import { mcp } from '../fixtures/envelopes.js';
import { fixtures } from '../fixtures/payloads.js';

// Inside the value, a prototype key is refused by decode (UNSAFE_JSON, test/decode/safety.test.ts), not an extra.
const json = fc.jsonValue({ maxDepth: 2 }).filter((v) => !/"(__proto__|prototype)":/.test(JSON.stringify(v)));
// `x_` keeps a generated name clear of the members the schemas name (and of prototype keys, which decode refuses).
const name = fc.string({ maxLength: 12 }).map((s) => `x_${s}`);

// Every valid fixture, final response or async variant, of both versions: each schema lets extras in at the top.
const valid = fixtures.filter((f) => f.valid);

test.each(valid.map((f) => [f.id, f] as const))('%s: an extra top-level member is returned as sent and read by extra()', (_id, f) => {
  fc.assert(
    fc.property(name, json, (key, value) => {
      const payload = { ...f.payload, [key]: value };
      const text = JSON.stringify(payload);
      expect(extra(decode(f.task, mcp.structured(payload), { version: f.version }), key)).toEqual(value);
      // Through text, as JSON carries it (-0 arrives as 0).
      expect(extra(decode(f.task, mcp.text(text), { version: f.version }), key)).toEqual(JSON.parse(text)[key]);
    }),
    { numRuns: 10 },
  );
});

test('extras nested in a declared member are read the same way', () => {
  const f = fixtures.find((x) => x.id === '3.1/get_products.valid')!;
  const products = (f.payload.products as Array<Record<string, unknown>>).map((p) => ({ ...p, x_vendor_score: 0.8 }));
  const data = decode('get_products', mcp.structured({ ...f.payload, products }), { version: '3.1' });
  if (!isFinal(data)) throw new Error('expected the final response');
  expect(data.products?.map((p) => extra(p, 'x_vendor_score'))).toEqual(products.map(() => 0.8));
});

afterEach(() => {
  delete (Object.prototype as Record<string, unknown>).x_polluted;
});

test('extra() reads own members only: a polluted prototype is not an extra', () => {
  const f = fixtures.find((x) => x.id === '3.1/get_products.valid')!;
  const data = decode('get_products', mcp.structured(f.payload), { version: '3.1' });
  (Object.prototype as Record<string, unknown>).x_polluted = 'from the prototype';
  expect(extra(data, 'x_polluted')).toBeUndefined();
  expect(extra(data, 'x_absent')).toBeUndefined();
});
