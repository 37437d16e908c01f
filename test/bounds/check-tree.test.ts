/**
 * checkTree (src/bounds/check-tree.ts) on what our own JSON parser produced: it refuses exactly
 * what an independent model of the bounds finds (depth, node count, a non-finite number), under
 * tight and default bounds, and a polluted Object.prototype changes nothing.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type Bounds, DEFAULT_BOUNDS } from '../../src/bounds/bounds.js';
import { checkTree } from '../../src/bounds/check-tree.js';
import { snapshot } from '../../src/bounds/snapshot.js';
import { DecodeError, LimitError } from '../../src/errors/errors.js';
import { tightBounds } from '../fixtures/exotic-trees.js';

const SEED = 20_260_430;

/** Whether a parsed value passes a bound (depth, node count) or holds a non-finite number, by a recursive count. */
function modelFinds(root: unknown, bounds: Bounds): boolean {
  let nodes = 0;
  let found = false;
  const visit = (value: unknown, depth: number): void => {
    nodes++;
    if (typeof value !== 'object' || value === null) {
      if (typeof value === 'number') found ||= !Number.isFinite(value);
      return;
    }
    if (depth + 1 > bounds.maxDepth) {
      found = true;
      return;
    }
    for (const child of Array.isArray(value) ? value : Object.values(value)) visit(child, depth + 1);
  };
  visit(root, 0);
  return found || nodes > bounds.maxNodes;
}

/** JSON text with, maybe, one number past double range (JSON.parse makes it Infinity). */
const parsedValue = fc
  .tuple(fc.jsonValue({ maxDepth: 6 }), fc.boolean())
  .map(([value, huge]) => JSON.parse(JSON.stringify(value).replace(/(?<=[[,:])0(?=[,\]}])/, huge ? '1e400' : '0')) as unknown);

describe('checkTree finds something in a parsed value exactly when the model does', () => {
  test('on generated JSON, under tight and default bounds', () => {
    fc.assert(
      fc.property(parsedValue, tightBounds(80), fc.boolean(), (value, tight, useDefault) => {
        const bounds = useDefault ? DEFAULT_BOUNDS : tight;
        let thrown: unknown;
        try {
          checkTree(value, bounds, { what: 'value' });
        } catch (error) {
          thrown = error;
        }
        if (thrown !== undefined) {
          expect(thrown).toBeInstanceOf(DecodeError);
          expect(['TOO_DEEP', 'TOO_MANY_VALUES', 'MALFORMED_ENVELOPE']).toContain((thrown as DecodeError).code);
        }
        expect(thrown !== undefined).toBe(modelFinds(value, bounds));
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });

  test('depth and node count have their own codes', () => {
    const deep = JSON.parse('{"a":{"b":{"c":[1]}}}') as unknown;
    expect(() => checkTree(deep, { ...DEFAULT_BOUNDS, maxDepth: 3 }, { what: 'value' })).toThrow(
      expect.objectContaining({ code: 'TOO_DEEP', unit: 'depth', limit: 3, actual: 4, path: '/a/b/c' }) as Error,
    );
    let thrown: unknown;
    try {
      checkTree(deep, { ...DEFAULT_BOUNDS, maxNodes: 4 }, { what: 'value' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(LimitError);
    expect(thrown).toMatchObject({ code: 'TOO_MANY_VALUES', unit: 'nodes', limit: 4 });
  });

  test('maxBytes is not asked again: the text was measured before it was parsed', () => {
    expect(() => checkTree(JSON.parse('{"a":"xxxxxxxx"}'), { ...DEFAULT_BOUNDS, maxBytes: 1 }, { what: 'value' })).not.toThrow();
  });

  test('with an enumerable property on Object.prototype', () => {
    Object.defineProperty(Object.prototype, 'polluted', { value: Number.NaN, enumerable: true, writable: true, configurable: true });
    try {
      const value = JSON.parse('{"a":[1,{"b":"x"}]}') as unknown;
      expect(() => checkTree(value, DEFAULT_BOUNDS, { what: 'value' })).not.toThrow();
      // The snapshot of an in-process value copies own members only.
      const copy = snapshot(value, DEFAULT_BOUNDS, { what: 'value' });
      expect(Object.keys(copy as object)).toEqual(['a']);
      expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
  });
});
