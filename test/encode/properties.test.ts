/**
 * Properties of encode() over generated arguments: anything it returns is deeply frozen, equals
 * its own JSON round trip (what is sent is what was checked) and validates against the request
 * schema; anything it refuses is a RequestError (`INVALID_REQUEST`), never a bare exception and
 * never an error that blames the seller.
 */

import fc from 'fast-check';
import { expect, test } from 'vitest';
import { RequestError, safeEncode, type Version } from '../../src/index.js';
import { fastValidator } from '../../src/validate/validators.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { mediaBuyRequest, PRODUCTS_BRIEF } from './requests.js';

type Tree = Record<string, unknown> | unknown[];

/** Whether every object and array in a value is frozen. */
function deeplyFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(deeplyFrozen);
}

/** Equality as JSON sees it: same keys in the same order, numbers by `===` (so -0 is 0). */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k, i) => k === kb[i] && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** A copy of `tree` with `value` put at a path the walk picks with `picks`. */
function plant(tree: Tree, picks: readonly number[], key: string, value: unknown): Tree {
  const copy = structuredClone(tree);
  let target: Tree = copy;
  for (const pick of picks) {
    const children = Object.values(target).filter((v): v is Tree => typeof v === 'object' && v !== null);
    if (children.length === 0) break;
    target = children[pick % children.length]!;
  }
  if (Array.isArray(target)) target[key.length % (target.length + 1)] = value;
  else target[key] = value;
  return copy;
}

const values = fc.oneof(
  fc.jsonValue(),
  fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true, withNullPrototype: true, withSparseArray: true }),
  fc.constantFrom('3.0', '3.1', 3, 2, 'too-short', -0, Number.NaN),
);

/** A typed request as a tree to plant into (the request types are closed, so no index signature of their own). */
const asTree = (request: object): Tree => ({ ...request });

const cases: ReadonlyArray<readonly [string, Tree, Version]> = [
  ['create_media_buy', asTree(mediaBuyRequest(2)), V3_1],
  ['create_media_buy', asTree(mediaBuyRequest(2)), V3_0],
  ['get_products', asTree(PRODUCTS_BRIEF), V3_1],
];

test('encode returns a frozen, JSON-stable, valid request, or refuses with INVALID_REQUEST', () => {
  const seen = { encoded: 0, refused: 0 };
  fc.assert(
    fc.property(
      fc.constantFrom(...cases),
      fc.array(fc.nat(), { maxLength: 4 }),
      fc.oneof(fc.constantFrom('idempotency_key', 'adcp_version', 'adcp_major_version', 'budget', 'packages', 'ext'), fc.string()),
      values,
      ([task, base, version], picks, key, value) => {
        const args = plant(base, picks, key, value);
        const r = safeEncode(task as 'get_products', args as never, { version });
        if (!r.success) {
          expect(r.error).toBeInstanceOf(RequestError);
          expect(r.error.code).toBe('INVALID_REQUEST');
          seen.refused++;
          return;
        }
        seen.encoded++;
        expect(deeplyFrozen(r.data)).toBe(true);
        expect(jsonEqual(JSON.parse(JSON.stringify(r.data.args)), r.data.args)).toBe(true);
        expect(fastValidator(version, task, 'request')!(r.data.args)).toBe(true);
      },
    ),
    { numRuns: 400 },
  );
  // Both outcomes occur: the generator plants values the schema allows (under open members) and ones it refuses.
  expect(seen.encoded).toBeGreaterThan(40);
  expect(seen.refused).toBeGreaterThan(40);
});

test('what encode returns is the caller’s data and the stamps, nothing dropped or changed', () => {
  fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 5 }), (ext) => {
      const r = safeEncode('get_products', { ...PRODUCTS_BRIEF, ext }, { version: V3_1 });
      if (!r.success) return r.error.code === 'INVALID_REQUEST' && r.error.path?.startsWith('/ext/') === true; // a __proto__ key
      return jsonEqual(r.data.args, { ...PRODUCTS_BRIEF, ext, adcp_version: '3.1', adcp_major_version: 3 });
    }),
    { numRuns: 200 },
  );
});
