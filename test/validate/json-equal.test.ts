/**
 * jsonEqual (src/validate/runtime/json-equal.js) against the function it replaces in the generated validators,
 * fast-deep-equal, as the oracle, on JSON values: pairs equal by construction (a copy with every
 * object's keys in another order), pairs one small change apart (a value, a type, a key added,
 * removed or renamed, array items added, dropped or swapped), and independent pairs. Counters
 * prove that each kind of pair was generated with both answers where both are possible.
 * The one place they part: members named `constructor`, `valueOf` or `toString`, which
 * fast-deep-equal reads as the object's own methods (pinned at the end).
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { jsonEqual } from '../../src/validate/runtime/json-equal.js';

const require = createRequire(import.meta.url);
const fastDeepEqual = require('fast-deep-equal') as (a: unknown, b: unknown) => boolean;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const RUNS = 10_000;

/** Members fast-deep-equal reads as methods of the object itself (see the last tests). */
const METHOD_NAMES = new Set(['constructor', 'valueOf', 'toString', '__proto__']);
// Few distinct keys and scalars, so that independent values collide and shuffles matter.
const key = fc.oneof(
  { arbitrary: fc.constantFrom('a', 'b', 'c', 'id', 'name', '', '0', '1', 'é', 'hasOwnProperty'), weight: 4 },
  { arbitrary: fc.string({ maxLength: 4 }).filter((k) => !METHOD_NAMES.has(k)), weight: 1 },
);
const scalar: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -2, max: 2 }),
  fc.constantFrom(-0, 0.1, 1e21, -1.5e-7, Number.MAX_SAFE_INTEGER),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom('', 'a', '0', '1', 'null', 'true', '[]'),
  fc.string({ maxLength: 3 }),
);
const { json } = fc.letrec<{ json: Json; array: Json[]; object: { [key: string]: Json } }>((tie) => ({
  json: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('array'), tie('object')),
  array: fc.array(tie('json'), { maxLength: 4 }),
  object: fc.dictionary(key, tie('json'), { maxKeys: 5, noNullPrototype: true }),
}));

const isObject = (value: Json): value is { [key: string]: Json } => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy of `value` whose objects list their keys in an order drawn from `order`. */
function shuffled(value: Json, order: () => number): Json {
  if (Array.isArray(value)) return value.map((item) => shuffled(item, order));
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  for (let i = keys.length - 1; i > 0; i--) {
    const j = order() % (i + 1);
    [keys[i], keys[j]] = [keys[j] ?? '', keys[i] ?? ''];
  }
  const copy: { [key: string]: Json } = {};
  for (const k of keys) copy[k] = shuffled(value[k] ?? null, order);
  return copy;
}

const CHANGES = ['value', 'type', 'key added', 'key removed', 'key renamed', 'item added', 'item dropped', 'items swapped'] as const;
type Change = (typeof CHANGES)[number];

/** A copy of `value` with one change at a node chosen by `path`, and the change that was made. */
function changed(value: Json, change: Change, path: () => number): [Json, string] {
  if ((Array.isArray(value) && value.length > 0) || (isObject(value) && Object.keys(value).length > 0)) {
    if (path() % 3 !== 0) {
      if (Array.isArray(value)) {
        const at = path() % value.length;
        const [child, made] = changed(value[at] ?? null, change, path);
        return [value.map((item, i) => (i === at ? child : item)), made];
      }
      const keys = Object.keys(value);
      const at = keys[path() % keys.length] ?? '';
      const [child, made] = changed(value[at] ?? null, change, path);
      return [{ ...value, [at]: child }, made];
    }
  }
  return changedHere(value, change, path);
}

function changedHere(value: Json, change: Change, path: () => number): [Json, string] {
  if (Array.isArray(value)) {
    if (change === 'item added') return [[...value, null], change];
    if (change === 'item dropped' && value.length > 0) return [value.slice(0, -1), change];
    if (change === 'items swapped' && value.length > 1) {
      const copy = [...value];
      const i = path() % copy.length;
      const j = (i + 1 + (path() % (copy.length - 1))) % copy.length;
      [copy[i], copy[j]] = [copy[j] ?? null, copy[i] ?? null];
      return [copy, change];
    }
    return [Object.fromEntries(value.map((item, i) => [String(i), item])), 'type'];
  }
  if (isObject(value)) {
    const keys = Object.keys(value);
    const some = keys[path() % Math.max(keys.length, 1)];
    if (change === 'key added') return [{ ...value, [`${some ?? 'k'}+`]: null }, change];
    if (change === 'key removed' && some !== undefined) {
      const { [some]: _dropped, ...rest } = value;
      return [rest, change];
    }
    if (change === 'key renamed' && some !== undefined) {
      const { [some]: kept = null, ...rest } = value;
      return [{ ...rest, [`${some}+`]: kept }, change];
    }
    return [Object.values(value), 'type'];
  }
  if (change === 'value') {
    if (typeof value === 'number') return [value === 0 ? 1 : -value, change];
    if (typeof value === 'string') return [`${value}x`, change];
    if (typeof value === 'boolean') return [!value, change];
    return [false, change];
  }
  if (typeof value === 'number') return [String(value), 'type'];
  if (typeof value === 'string') return [value === '' ? [] : [value], 'type'];
  if (typeof value === 'boolean') return [value ? 1 : 0, 'type'];
  return [{}, 'type'];
}

/** A pseudo-random draw from a seed, for the shuffles and paths inside one generated case. */
function draws(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
}

/** Counts, per kind of pair, how many the oracle called equal and unequal. */
function counter(): { add(kind: string, equal: boolean): void; counts: Map<string, { equal: number; unequal: number }> } {
  const counts = new Map<string, { equal: number; unequal: number }>();
  return {
    counts,
    add(kind, equal) {
      const count = counts.get(kind) ?? { equal: 0, unequal: 0 };
      if (equal) count.equal++;
      else count.unequal++;
      counts.set(kind, count);
    },
  };
}

describe('jsonEqual agrees with fast-deep-equal', () => {
  test('on a value and a copy with its keys in another order', () => {
    const seen = counter();
    fc.assert(
      fc.property(json, fc.nat(), (value, seed) => {
        const copy = shuffled(value, draws(seed));
        const expected = fastDeepEqual(value, copy);
        const reordered = JSON.stringify(copy) !== JSON.stringify(value);
        seen.add(reordered ? 'keys in another order' : 'the same text', expected);
        expect(jsonEqual(value, copy)).toBe(expected);
        expect(jsonEqual(copy, value)).toBe(expected);
      }),
      { seed: 20_261_203, numRuns: RUNS },
    );
    expect(seen.counts.get('keys in another order')).toEqual({ equal: expect.any(Number), unequal: 0 });
    expect(seen.counts.get('keys in another order')?.equal).toBeGreaterThan(500);
    expect(seen.counts.get('the same text')?.unequal).toBe(0);
  });

  test('on a value and a copy one small change away', () => {
    const seen = counter();
    fc.assert(
      fc.property(json, fc.constantFrom(...CHANGES), fc.nat(), (value, change, seed) => {
        const draw = draws(seed);
        const [other, made] = changed(value, change, draw);
        const copy = shuffled(other, draw);
        const expected = fastDeepEqual(value, copy);
        seen.add(made, expected);
        expect(jsonEqual(value, copy), `${made}: ${JSON.stringify(value)} vs ${JSON.stringify(copy)}`).toBe(expected);
        expect(jsonEqual(copy, value)).toBe(expected);
      }),
      { seed: 20_261_204, numRuns: RUNS },
    );
    const short = CHANGES.filter((made) => (seen.counts.get(made)?.unequal ?? 0) < 100);
    expect(short, JSON.stringify([...seen.counts])).toEqual([]);
  });

  test('on independent values', () => {
    const seen = counter();
    fc.assert(
      fc.property(json, json, (a, b) => {
        const expected = fastDeepEqual(a, b);
        seen.add(typeof a === 'object' && a !== null && typeof b === 'object' && b !== null ? 'two containers' : 'a scalar', expected);
        expect(jsonEqual(a, b)).toBe(expected);
      }),
      { seed: 20_261_205, numRuns: RUNS },
    );
    for (const kind of ['two containers', 'a scalar']) {
      expect(seen.counts.get(kind)?.equal, kind).toBeGreaterThan(50);
      expect(seen.counts.get(kind)?.unequal, kind).toBeGreaterThan(50);
    }
  });
});

describe('jsonEqual on the edge cases', () => {
  test.each([
    ['0 and -0', 0, -0, true],
    ['1 and "1"', 1, '1', false],
    ['null and {}', null, {}, false],
    ['null and false', null, false, false],
    ['[] and {}', [], {}, false],
    ['{"0":"a"} and ["a"]', { 0: 'a' }, ['a'], false],
    ['arrays in another order', [1, 2], [2, 1], false],
    ['an array and its prefix', [1, 2], [1], false],
    ['keys in another order', { a: 1, b: [true, null] }, { b: [true, null], a: 1 }, true],
    ['a key missing, same count', { a: 1, b: null }, { a: 1, c: null }, false],
    ['a member named hasOwnProperty', { hasOwnProperty: 1 }, { hasOwnProperty: 1 }, true],
    ['a member named __proto__ (as JSON.parse makes it)', JSON.parse('{"__proto__":[1]}'), JSON.parse('{"__proto__":[1]}'), true],
    ['a member named __proto__ against none', JSON.parse('{"__proto__":{}}'), {}, false],
    ['a member named __proto__ against another key', JSON.parse('{"__proto__":{}}'), { a: {} }, false],
    ['nested', { a: [{ b: { c: [] } }] }, { a: [{ b: { c: [] } }] }, true],
    ['nested, one leaf apart', { a: [{ b: { c: [0] } }] }, { a: [{ b: { c: [false] } }] }, false],
  ] as const)('%s', (_name, a, b, expected) => {
    expect(fastDeepEqual(a, b)).toBe(expected);
    expect(jsonEqual(a, b)).toBe(expected);
    expect(jsonEqual(b, a)).toBe(expected);
  });

  test('members named constructor, valueOf or toString are compared as data, where fast-deep-equal reads them as methods', () => {
    const ofConstructor = (): unknown => JSON.parse('{"constructor":{"a":1}}');
    expect(jsonEqual(ofConstructor(), ofConstructor())).toBe(true);
    expect(fastDeepEqual(ofConstructor(), ofConstructor())).toBe(false); // two objects, compared by identity
    const ofValueOf = (): unknown => JSON.parse('{"valueOf":1}');
    expect(jsonEqual(ofValueOf(), ofValueOf())).toBe(true);
    expect(() => fastDeepEqual(ofValueOf(), ofValueOf())).toThrow(TypeError);
    const ofToString = (): unknown => JSON.parse('{"toString":"x"}');
    expect(jsonEqual(ofToString(), ofToString())).toBe(true);
    expect(() => fastDeepEqual(ofToString(), ofToString())).toThrow(TypeError);
    expect(jsonEqual(ofValueOf(), JSON.parse('{"valueOf":2}'))).toBe(false);
  });
});
