/**
 * Already-parsed input (MCP structuredContent, A2A DataPart data, bare payloads) is the caller's
 * memory, and may fight back. Generated here (fast-check, fixed seed), each with its guarantee:
 *
 * 1. Cost follows content, not a claimed size: arrays claiming up to 2^32 - 1 elements, with a
 *    few stored, under every bound lifted or not, end in a DecodeError after a bounded number of
 *    reads (counted through a Proxy, never timed).
 * 2. What was validated is what is returned: values that answer differently on a second read
 *    (getters, Proxies), symbol keys, non-enumerable members, Array subclasses, foreign
 *    prototypes. decode() throws a DecodeError, or returns plain data (plain objects and arrays,
 *    own enumerable data properties only) equal to its own JSON round trip, which the text path
 *    accepts as it is, and which holds none of the caller's objects.
 * 3. One unit for maxBytes: the UTF-8 bytes of the compact JSON. A payload sent as text and the
 *    same value as structuredContent are TOO_LARGE at exactly the same limits.
 */
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type Bounds, DEFAULT_BOUNDS } from '../../src/bounds/bounds.js';
import { snapshot } from '../../src/bounds/snapshot.js';
import { type DecodeOptions, safeDecode } from '../../src/decode/decode.js';
import { DecodeError } from '../../src/errors/errors.js';
import { exoticTrees, Tracked, tightBounds } from '../fixtures/exotic-trees.js';
import { claimedArray } from '../fixtures/hostile-values.js';
import { fixtures } from '../fixtures/payloads.js';
import { V3_1 } from '../fixtures/versions.js';

const SEED = 20_260_430;
type Json = Record<string, unknown>;

const valid = fixtures.filter((f) => f.valid && f.variant === 'response');
const accounts = (): Json => fixtures.find((f) => f.id === '3.1/list_accounts.valid')!.payload;
const structured = (payload: unknown): Json => ({ content: [{ type: 'text', text: 'Done.' }], structuredContent: payload });
const polluting = (): unknown => JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');

describe('a claimed size costs nothing until it is charged', () => {
  const lengths = fc.oneof(
    fc.constantFrom(0, 1, 3, 1_000, 1_000_000, 10_000_000, 2 ** 31, 2 ** 32 - 1),
    fc.integer({ min: 0, max: 2 ** 32 - 1 }),
  );
  const bounds: fc.Arbitrary<DecodeOptions> = fc.constantFrom(
    {},
    { maxBytes: Infinity },
    { maxBytes: Infinity, maxNodes: Infinity },
    { maxBytes: Infinity, maxNodes: Infinity, maxDepth: Infinity },
  );

  test('arrays of any claimed length: a DecodeError (or the data, when dense) after a bounded number of reads', () => {
    fc.assert(
      fc.property(
        lengths,
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { maxLength: 3 }),
        bounds,
        (length, at, options) => {
          const stored = [...new Set(at.map((x) => Math.floor(x * length)))].filter((i) => i < length);
          const sparse = (): unknown[] => {
            const a = claimedArray(length);
            for (const i of stored) a[i] = 1;
            return a;
          };
          let traps = 0;
          const counting = new Proxy(sparse(), {
            get: (t, k, r) => (traps++, Reflect.get(t, k, r)),
            ownKeys: (t) => (traps++, Reflect.ownKeys(t)),
            getOwnPropertyDescriptor: (t, k) => (traps++, Reflect.getOwnPropertyDescriptor(t, k)),
            has: (t, k) => (traps++, Reflect.has(t, k)),
            getPrototypeOf: (t) => (traps++, Reflect.getPrototypeOf(t)),
          });
          const viaProxy = safeDecode('list_accounts', structured({ ...accounts(), ext: { a: counting } }), options);
          const dense = stored.length === length;
          if (viaProxy.success) expect(dense).toBe(true);
          else {
            expect(viaProxy.error).toBeInstanceOf(DecodeError);
            expect(['TOO_LARGE', 'TOO_MANY_VALUES', 'MALFORMED_ENVELOPE']).toContain(viaProxy.error.code);
          }
          // The work: a few reads of the array itself, and one per element actually stored.
          expect(traps).toBeLessThanOrEqual(12 + 3 * stored.length);
          // A real sparse array of the same claim takes the same way out.
          const real = safeDecode('list_accounts', structured({ ...accounts(), ext: { a: sparse() } }), options);
          expect(real.success ? 'decoded' : real.error.code).toBe(viaProxy.success ? 'decoded' : viaProxy.error.code);
        },
      ),
      { seed: SEED, numRuns: 200 },
    );
  });
});

describe('envelope lists cost what they hold', () => {
  test('content[], artifacts[] and parts[] claiming any length are scanned by their stored items only', () => {
    const lengths = fc.oneof(fc.constantFrom(0, 1, 1_000_000, 2 ** 32 - 1), fc.integer({ min: 0, max: 2 ** 32 - 1 }));
    fc.assert(
      fc.property(lengths, fc.constantFrom('content', 'error-content', 'artifacts', 'parts', 'message-parts'), (length, where) => {
        let traps = 0;
        const list = (): unknown[] => {
          return new Proxy(claimedArray(length), {
            get: (t, k, r) => (traps++, Reflect.get(t, k, r)),
            ownKeys: (t) => (traps++, Reflect.ownKeys(t)),
            getOwnPropertyDescriptor: (t, k) => (traps++, Reflect.getOwnPropertyDescriptor(t, k)),
          });
        };
        const state = where === 'message-parts' ? 'TASK_STATE_WORKING' : 'TASK_STATE_COMPLETED';
        const input =
          where === 'content'
            ? { content: list() }
            : where === 'error-content'
              ? { isError: true, content: list() }
              : where === 'artifacts'
                ? { task: { status: { state }, artifacts: list() } }
                : where === 'parts'
                  ? { task: { status: { state }, artifacts: [{ parts: list() }] } }
                  : { task: { status: { state, message: { parts: list() } } } };
        const result = safeDecode('get_products', input);
        // A working update without a DataPart is the state alone (a2a-response-format: data optional there).
        if (where === 'message-parts') expect(result).toEqual({ success: true, data: { status: 'working' }, version: V3_1 });
        else expect(result.success).toBe(false);
        if (!result.success) expect(result.error).toBeInstanceOf(DecodeError);
        // Every extractor that scans the list (error detection, then the payload) lists its keys and reads its length: a few reads each.
        expect(traps).toBeLessThanOrEqual(40);
      }),
      { seed: SEED, numRuns: 100 },
    );
  });
});

// ---------------------------------------------------------------------------------------------

const KINDS = [
  'getter-flip',
  'proxy-flip',
  'constant-getter',
  'symbol-key',
  'hidden-member',
  'array-subclass',
  'foreign-proto-array',
  'class-instance',
  'proxy-array-flip',
] as const;
type Kind = (typeof KINDS)[number];
/** Kinds that keep the first answers valid: decode must succeed and return them. */
const ANSWER_ONCE: readonly Kind[] = ['getter-flip', 'proxy-flip', 'constant-getter', 'proxy-array-flip'];

class Record_ {
  readonly kept = 1;
}

/** Every object and array under `root` with the key that holds it in its parent (the root has none). */
function places(root: Json): Array<{ parent: Json | unknown[] | undefined; key: string | number; value: Json | unknown[] }> {
  const out: Array<{ parent: Json | unknown[] | undefined; key: string | number; value: Json | unknown[] }> = [
    { parent: undefined, key: '', value: root },
  ];
  for (let i = 0; i < out.length; i++) {
    const { value } = out[i]!;
    for (const key of Object.keys(value)) {
      const child = (value as Json)[key];
      if (typeof child === 'object' && child !== null)
        out.push({ parent: value, key: Array.isArray(value) ? Number(key) : key, value: child as Json });
    }
  }
  return out;
}

/** A Proxy that answers each member truly on its first read and `later` on every read after. */
function flipping<T extends object>(target: T, later: () => unknown): T {
  const seen = new Set<PropertyKey>();
  return new Proxy(target, {
    get: (t, k, r) => {
      if (typeof k === 'string' && k !== 'length' && seen.has(k)) return later();
      seen.add(k);
      return Reflect.get(t, k, r);
    },
  });
}

/** Makes one container of `root` hostile in the given way; returns the root to send and the caller's containers. */
function hostile(root: Json, at: number, kind: Kind): { input: Json; originals: Set<object>; applied: boolean } {
  const all = places(root);
  const originals = new Set<object>(all.map((p) => p.value));
  const arrays = all.filter((p) => Array.isArray(p.value) && p.parent !== undefined);
  const objects = all.filter((p) => !Array.isArray(p.value));
  const pick = <T>(list: T[]): T | undefined => (list.length === 0 ? undefined : list[at % list.length]);
  const replace = (p: { parent: Json | unknown[] | undefined; key: string | number }, next: object): Json => {
    if (p.parent === undefined) return next as Json;
    (p.parent as Json)[p.key] = next;
    return root;
  };
  switch (kind) {
    case 'getter-flip':
    case 'constant-getter': {
      const p = pick(objects.filter((o) => Object.keys(o.value).length > 0));
      if (p === undefined) return { input: root, originals, applied: false };
      const key = Object.keys(p.value)[at % Object.keys(p.value).length]!;
      const first = (p.value as Json)[key];
      let reads = 0;
      Object.defineProperty(p.value, key, {
        enumerable: true,
        configurable: true,
        get: () => (reads++ === 0 || kind === 'constant-getter' ? first : polluting()),
      });
      return { input: root, originals, applied: true };
    }
    case 'proxy-flip': {
      const p = pick(objects)!;
      return { input: replace(p, flipping(p.value, polluting)), originals, applied: true };
    }
    case 'proxy-array-flip': {
      const p = pick(arrays);
      if (p === undefined) return { input: root, originals, applied: false };
      return { input: replace(p, flipping(p.value, polluting)), originals, applied: true };
    }
    case 'symbol-key': {
      const p = pick(all)!;
      (p.value as unknown as Record<symbol, unknown>)[Symbol('hidden')] = polluting();
      return { input: root, originals, applied: true };
    }
    case 'hidden-member': {
      const p = pick(all)!;
      Object.defineProperty(p.value, 'hidden', { value: polluting(), enumerable: false });
      return { input: root, originals, applied: true };
    }
    case 'array-subclass': {
      const p = pick(arrays);
      if (p === undefined) return { input: root, originals, applied: false };
      return { input: replace(p, Tracked.from(p.value as unknown[])), originals, applied: true };
    }
    case 'foreign-proto-array': {
      const p = pick(arrays);
      if (p === undefined) return { input: root, originals, applied: false };
      Object.setPrototypeOf(p.value, { polluted: true });
      return { input: root, originals, applied: true };
    }
    case 'class-instance': {
      const p = pick(objects.filter((o) => o.parent !== undefined));
      if (p === undefined) return { input: root, originals, applied: false };
      return { input: replace(p, Object.assign(new Record_(), p.value)), originals, applied: true };
    }
  }
}

/** Plain JSON data all the way down: no accessor, no hidden or symbol member, no foreign prototype. */
function expectPlain(root: unknown, originals: Set<object>): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number') expect(Number.isFinite(v)).toBe(true);
    if (typeof v !== 'object' || v === null) continue;
    expect(originals.has(v)).toBe(false); // a copy, never the caller's object
    const isArray = Array.isArray(v);
    expect(Object.getPrototypeOf(v)).toBe(isArray ? Array.prototype : Object.prototype);
    for (const key of Reflect.ownKeys(v)) {
      expect(typeof key).toBe('string');
      if (isArray && key === 'length') continue;
      const d = Object.getOwnPropertyDescriptor(v, key)!;
      expect(d).toMatchObject({ enumerable: true, writable: true, configurable: true });
      expect('get' in d || 'set' in d).toBe(false);
      stack.push(d.value);
    }
  }
}

describe('what was validated is what is returned', () => {
  test('hostile in-process values: a DecodeError, or plain data equal to its JSON round trip that the text path accepts as is', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...valid),
        fc.nat(),
        fc.constantFrom(...KINDS),
        fc.constantFrom('structured', 'a2a', 'payload'),
        (fixture, at, kind, carrier) => {
          const sent = fixture.payload;
          const { input, originals, applied } = hostile(fixture.payload, at, kind);
          const envelope =
            carrier === 'structured'
              ? structured(input)
              : carrier === 'a2a'
                ? { task: { id: 't', status: { state: 'TASK_STATE_COMPLETED' }, artifacts: [{ parts: [{ data: input }] }] } }
                : input;
          const options: DecodeOptions = { version: fixture.version, ...(carrier === 'payload' ? { transport: 'payload' as const } : {}) };
          const result = safeDecode(fixture.task, envelope, options);
          if (!result.success) {
            expect(result.error).toBeInstanceOf(DecodeError);
            // Only a value that is not JSON data is refused; one read of each answer keeps the valid ones.
            expect(ANSWER_ONCE.includes(kind) && applied).toBe(false);
            if (applied) expect(result.error.code).toBe('MALFORMED_ENVELOPE');
            return;
          }
          expect(result.data).not.toBe(input);
          expectPlain(result.data, originals);
          expect(result.data).toEqual(JSON.parse(JSON.stringify(result.data)));
          expect(result.data).toEqual(sent);
          // The validator accepts exactly this data: the same JSON as text decodes to the same.
          const again = safeDecode(
            fixture.task,
            { content: [{ type: 'text', text: JSON.stringify(result.data) }] },
            { version: fixture.version },
          );
          expect(again).toMatchObject({ success: true, data: result.data });
        },
      ),
      { seed: SEED, numRuns: 400 },
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('maxBytes is one unit: UTF-8 bytes of the compact JSON', () => {
  const wide = fc.constantFrom('a', 'é', '€', '中', '😀', '\uD800', '\uDFFF', '"', '\\', '\n', '\u0001', '\u007f', '\u2028');
  test('text and structuredContent of the same value are TOO_LARGE at exactly the same limits', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...valid),
        fc.array(
          fc.array(wide, { maxLength: 30 }).map((a) => a.join('')),
          { maxLength: 6 },
        ),
        fc.constantFrom(-2, -1, 0, 1, 2),
        (fixture, strings, delta) => {
          const value = { ...fixture.payload, ext: { strings, [strings[0] ?? 'k']: strings.length } };
          const text = JSON.stringify(value);
          const bytes = Buffer.byteLength(text, 'utf8');
          const options = { version: fixture.version, maxBytes: bytes + delta };
          const asText = safeDecode(fixture.task, { content: [{ type: 'text', text }] }, options);
          const asValue = safeDecode(fixture.task, structured(value), options);
          const tooLarge = (r: typeof asText): boolean => !r.success && r.error.code === 'TOO_LARGE';
          expect(tooLarge(asText)).toBe(delta < 0);
          expect(tooLarge(asValue)).toBe(delta < 0);
          if (delta < 0 && text.length <= bytes + delta) {
            // Exact on both paths whenever the UTF-16 length alone cannot decide.
            expect(asValue).toMatchObject({ error: { actual: bytes } });
            expect(asText).toMatchObject({ error: { actual: bytes } });
          }
        },
      ),
      { seed: SEED, numRuns: 400 },
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('snapshot() refuses exactly what an independent model of its rules refuses', () => {
  const hasOwn = Object.prototype.hasOwnProperty;
  /** Not JSON data, a prototype key, a bound passed: anywhere in a tree (no cycles here). */
  function modelFinds(root: unknown, bounds: Bounds): boolean {
    let nodes = 0;
    let found = false;
    const visit = (value: unknown, depth: number): void => {
      nodes++;
      if (typeof value !== 'object' || value === null) {
        if (typeof value === 'number') found ||= !Number.isFinite(value);
        else if (typeof value !== 'string' && typeof value !== 'boolean' && value !== null) found = true;
        return;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (Array.isArray(value) ? proto !== Array.prototype : proto !== Object.prototype && proto !== null) found = true;
      if (depth + 1 > bounds.maxDepth) {
        found = true;
        return;
      }
      if (hasOwn.call(value, '__proto__')) found = true;
      const ctor: unknown = hasOwn.call(value, 'constructor') ? (value as { constructor: unknown }).constructor : undefined;
      if (typeof ctor === 'object' && ctor !== null && hasOwn.call(ctor, 'prototype')) found = true;
      const own = Reflect.ownKeys(value);
      if (Array.isArray(value)) {
        // Exactly the indexes and `length`: no hole, no named or symbol member.
        if (own.length !== value.length + 1 || !value.every((_, i) => hasOwn.call(value, i))) found = true;
        for (let i = 0; i < value.length; i++) visit(value[i], depth + 1);
        return;
      }
      if (own.length !== Object.keys(value).length) found = true; // symbol-keyed or non-enumerable
      for (const key of Object.keys(value)) visit((value as Record<string, unknown>)[key], depth + 1);
    };
    visit(root, 0);
    if (found || nodes > bounds.maxNodes) return true;
    return Buffer.byteLength(JSON.stringify(root), 'utf8') > bounds.maxBytes;
  }

  const tree = exoticTrees({
    strings: [fc.string({ maxLength: 6, unit: 'binary' }), fc.constantFrom('"\\', '\n\u0001', '😀', '\uD800', 'ü€')],
    keys: ['a', 'b', 'constructor', 'prototype', 'name', 'ü', '"'],
    arrayKinds: ['plain', 'plain', 'named member', 'hole', 'symbol', 'hidden', 'subclass'],
    objectKinds: ['plain', 'plain', 'null-proto', 'own __proto__', 'hidden __proto__', 'symbol', 'hidden'],
  });
  const bounds = tightBounds(120);

  test('on generated trees under tight and default bounds; what passes comes back equal, as plain data', () => {
    fc.assert(
      fc.property(fc.oneof(tree.object, tree.array), bounds, fc.boolean(), (value, tight, useDefault) => {
        const b = useDefault ? DEFAULT_BOUNDS : tight;
        let copy: unknown;
        let threw = false;
        try {
          copy = snapshot(value, b, { what: 'value' });
        } catch (error) {
          expect(error).toBeInstanceOf(DecodeError);
          threw = true;
        }
        expect(threw).toBe(modelFinds(value, b));
        if (!threw) {
          expect(copy).toEqual(JSON.parse(JSON.stringify(value)));
          expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
          expectPlain(copy, new Set());
        }
      }),
      { seed: SEED, numRuns: 5000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('deep values: the walk copies and reports the same at any depth', () => {
  /** `leaf` under `levels` containers, alternately an object `{ k: ... }` and a one-element array. */
  const nest = (levels: number, leaf: unknown): unknown => {
    let value = leaf;
    for (let i = levels - 1; i >= 0; i--) value = i % 2 === 0 ? { k: value } : [value];
    return value;
  };
  const pointer = (levels: number): string => Array.from({ length: levels }, (_, i) => (i % 2 === 0 ? '/k' : '/0')).join('');

  test('a value nested 1 to 600 levels comes back equal, as plain data, with maxDepth raised past it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 600 }), fc.boolean(), (levels, lifted) => {
        const value = nest(levels, { last: [1, 'x', null] });
        const originals = new Set<object>();
        for (
          let v: unknown = value;
          typeof v === 'object' && v !== null;
          v = Array.isArray(v) ? v[0] : ((v as Json).k ?? (v as Json).last)
        ) {
          originals.add(v);
        }
        const copy = snapshot(value, { ...DEFAULT_BOUNDS, maxDepth: lifted ? Infinity : levels + 2 }, { what: 'value' });
        expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
        expectPlain(copy, originals);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  test('of two faults, the first in document order is reported, on either side of any depth', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 300 }), (first, second) => {
        const value = { a: nest(first, { bad: undefined }), b: nest(second, { bad: Number.NaN }) };
        let error: unknown;
        try {
          snapshot(value, { ...DEFAULT_BOUNDS, maxDepth: Infinity }, { what: 'value' });
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(DecodeError);
        expect((error as DecodeError).code).toBe('MALFORMED_ENVELOPE');
        expect((error as DecodeError).path).toBe(`/a${pointer(first)}/bad`);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  test('a container counts its own members before its descendants, the same by recursion and from the stack past depth 64', () => {
    // The same tree at the top and under 70 levels of { k: ... } (past the recursion's end): the
    // same finding, its count shifted by the 70 wrappers' members and its place by their keys.
    const finding = (value: unknown, maxNodes: number): { code: string; path: string; actual: unknown } | undefined => {
      try {
        snapshot(value, { maxBytes: Infinity, maxDepth: Infinity, maxNodes }, { what: 'value' });
        return undefined;
      } catch (error) {
        if (!(error instanceof DecodeError)) throw error;
        return { code: error.code, path: error.path ?? '', actual: (error as { actual?: unknown }).actual };
      }
    };
    const wrap = (levels: number, value: unknown): unknown => {
      let wrapped = value;
      for (let i = 0; i < levels; i++) wrapped = { k: wrapped };
      return wrapped;
    };
    const trees = fc.oneof(
      fc.array(fc.jsonValue({ maxDepth: 5 }), { maxLength: 6 }),
      fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 5 }), { maxKeys: 6 }),
    );
    fc.assert(
      fc.property(trees, fc.integer({ min: 1, max: 80 }), (tree, maxNodes) => {
        const top = finding(tree, maxNodes);
        const deep = finding(wrap(70, tree), maxNodes + 70);
        if (top === undefined) {
          expect(deep).toBeUndefined();
          return;
        }
        expect(deep).toEqual({
          code: top.code,
          path: `${'/k'.repeat(70)}${top.path}`,
          actual: typeof top.actual === 'number' ? top.actual + 70 : top.actual,
        });
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  test('TOO_MANY_VALUES stops where the members counted pass the bound: an object counts its own before its children', () => {
    // Two members of the root, then the child's three: past a bound of 4 at the child, not at the root.
    const value = { a: { x: 1, y: 2, z: 3 }, b: 1 };
    let error: unknown;
    try {
      snapshot(value, { maxBytes: Infinity, maxDepth: 64, maxNodes: 4 }, { what: 'value' });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'TOO_MANY_VALUES', path: '/a', actual: 6 });
  });
});
