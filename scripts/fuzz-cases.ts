/**
 * The fuzzer's cases and oracle, shared by scripts/fuzz.ts (workers, a million cases) and the
 * seeded pass CI runs (test/fuzz.test.ts).
 *
 * A case is a pure function of `(seed, index)`: a fixture payload (test/fixtures/payloads) is
 * mutated (type swaps, deletions, key injection, deep nesting, shared and circular references,
 * growth, number and Unicode edge cases), wrapped in an envelope of some transport (MCP, JSON-RPC,
 * A2A 0.3 and 1.0, bare), serialized into text and damaged there (byte flips, truncation, splices,
 * BOMs, prototype keys in escaped spellings, 1e400, deep brackets) when the envelope carries text,
 * and run with default or random options. `makeCase(seed, index)` rebuilds it exactly, which is
 * how a finding is reproduced.
 *
 * The oracle: decode() returns or throws a DecodeError; safeDecode() never throws and agrees
 * with decode(); the extractors throw nothing but DecodeErrors; whatever the caller receives,
 * merged into `{}` by spread, Object.assign or a naive recursive merge, leaves every prototype as
 * it was; and the case finishes within the slow bound (the hang bound is the worker watchdog's).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
// decode() in Node loads a task's validators on first use, as the package's Node entry sets up.
import '../src/node-validators.js';
import { decode, safeDecode } from '../src/decode.js';
import { DecodeError, SchemaMismatchError, TaskFailedError } from '../src/errors.js';
import { extractA2aResponse } from '../src/extract-a2a.js';
import { extractA2aError, extractMcpError } from '../src/extract-errors.js';
import { extractMcpResponse } from '../src/extract-mcp.js';

type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Deterministic randomness: one generator per case, seeded from (seed, index).

/** sfc32, seeded through splitmix32: fast, and good enough to pick mutations. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, index: number) {
    let s = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(index | 0, 0x85ebca6b) ^ Math.floor(index / 2 ** 32)) >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
      z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
      return (z ^ (z >>> 15)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.u32();
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return n <= 0 ? 0 : this.u32() % n;
  }

  chance(p: number): boolean {
    return this.u32() / 2 ** 32 < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** Picks by weight: `[[weight, value], ...]`. */
  weighted<T>(items: ReadonlyArray<readonly [number, T]>): T {
    const total = items.reduce((sum, [w]) => sum + w, 0);
    let r = this.int(total);
    for (const [w, v] of items) {
      if (r < w) return v;
      r -= w;
    }
    return (items[items.length - 1] as readonly [number, T])[1];
  }
}

// ---------------------------------------------------------------------------------------------
// Seeds: the team's fixture payloads, read once.

interface Seed {
  readonly id: string;
  readonly version: string;
  readonly task: string;
  readonly text: string;
}

const FIXTURES = fileURLToPath(new URL('../test/fixtures/payloads/', import.meta.url));

export const seeds: readonly Seed[] = readdirSync(FIXTURES)
  .sort()
  .flatMap((version) =>
    readdirSync(`${FIXTURES}${version}`)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => ({
        id: `${version}/${name.replace(/\.json$/, '')}`,
        version,
        task: name.split('.')[0] as string,
        text: readFileSync(`${FIXTURES}${version}/${name}`, 'utf8'),
      })),
  );

const TASKS = [...new Set(seeds.map((s) => s.task))];

// ---------------------------------------------------------------------------------------------
// Cases

/** Options a case passes to decode(); `undefined` most of the time. */
export type CaseOptions = Json | undefined;

export interface FuzzCase {
  readonly seed: number;
  readonly index: number;
  readonly task: unknown;
  readonly input: unknown;
  readonly options: CaseOptions;
  /** What was done, in order, e.g. `payload:typeSwap /products/0/name → number`. */
  readonly steps: readonly string[];
  /** The mutation classes applied, for the tallies. */
  readonly classes: readonly string[];
  /** The transport envelope the payload was wrapped in. */
  readonly envelope: string;
}

/** How large the generated values may get: `full` for the fuzzer, `ci` keeps a short pass quick. */
export type Profile = 'full' | 'ci';

interface Ctx {
  readonly rng: Rng;
  readonly steps: string[];
  readonly classes: Set<string>;
  readonly profile: Profile;
}

const MiB = 1024 * 1024;

function note(ctx: Ctx, cls: string, detail: string): void {
  ctx.classes.add(cls);
  ctx.steps.push(`${cls} ${detail}`);
}

/** A size: usually small, now and then large; the `ci` profile caps it. */
function size(ctx: Ctx, large: number): number {
  const n = ctx.rng.weighted<number>([
    [700, 1 + ctx.rng.int(8)],
    [200, 8 + ctx.rng.int(200)],
    [90, 200 + ctx.rng.int(5_000)],
    [10, large],
  ]);
  return ctx.profile === 'ci' ? Math.min(n, 2_000) : n;
}

interface Slot {
  readonly parent: Json | unknown[];
  readonly key: string | number;
  readonly path: string;
  /** Members from the root (1 for the root's own); counted, as splitting a path under a 2 MiB key costs its length. */
  readonly depth: number;
}

/** Every member of the tree (capped), with where it sits. */
function slots(root: unknown, limit = 4_000): Slot[] {
  const out: Slot[] = [];
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: root, path: '', depth: 0 }];
  const seen = new Set<unknown>();
  while (stack.length > 0 && out.length < limit) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    let keys: string[];
    try {
      keys = Object.keys(value);
    } catch {
      continue;
    }
    for (const key of keys) {
      const k = Array.isArray(value) ? Number(key) : key;
      const p = `${path}/${key}`;
      out.push({ parent: value as Json, key: k, path: p, depth: depth + 1 });
      let child: unknown;
      try {
        child = (value as Json)[key];
      } catch {
        continue;
      }
      stack.push({ value: child, path: p, depth: depth + 1 });
    }
  }
  return out;
}

function set(slot: Slot, value: unknown): void {
  Object.defineProperty(slot.parent, slot.key, { value, enumerable: true, writable: true, configurable: true });
}

function get(slot: Slot): unknown {
  return (slot.parent as Json)[slot.key as string];
}

/** A value of a kind chosen at random, JSON or not. */
function anyValue(ctx: Ctx): { value: unknown; kind: string } {
  const { rng } = ctx;
  const kind = rng.weighted<string>([
    [6, 'null'],
    [6, 'boolean'],
    [8, 'number'],
    [8, 'string'],
    [6, 'array'],
    [6, 'object'],
    [3, 'edge-number'],
    [2, 'non-finite'],
    [2, 'undefined'],
    [1, 'bigint'],
    [1, 'symbol'],
    [1, 'function'],
    [1, 'date'],
    [1, 'map'],
    [1, 'sparse-array'],
    [1, 'class-instance'],
    [1, 'null-prototype'],
  ]);
  switch (kind) {
    case 'null':
      return { value: null, kind };
    case 'boolean':
      return { value: rng.chance(0.5), kind };
    case 'number':
      return { value: rng.pick([0, 1, -1, 2.5, 100, 1e6, -273.15, 42]), kind };
    case 'string':
      return {
        value: rng.pick([
          '',
          'x',
          'completed',
          'working',
          'submitted',
          'input-required',
          'failed',
          '3.1',
          '3.0',
          'USD',
          'not a date',
          '2026-03-04T16:02:44Z',
          'https://seller.example/x',
          'a'.repeat(300),
        ]),
        kind,
      };
    case 'array':
      return { value: rng.pick([[], [1], ['x', 'y'], [{}], [null]]), kind };
    case 'object':
      return { value: rng.pick([{}, { a: 1 }, { code: 'X' }, { status: 'completed' }, { response: {} }]), kind };
    case 'edge-number':
      return {
        value: rng.pick([2 ** 53 + 1, -(2 ** 53) - 1, Number.MAX_VALUE, Number.MIN_VALUE, -0, 0.1 + 0.2, 1e21, 2 ** 31, -(2 ** 31) - 1]),
        kind,
      };
    case 'non-finite':
      return { value: rng.pick([Infinity, -Infinity, NaN]), kind };
    case 'undefined':
      return { value: undefined, kind };
    case 'bigint':
      return { value: 10n ** 30n, kind };
    case 'symbol':
      return { value: Symbol('fuzz'), kind };
    case 'function':
      return { value: () => 'fuzz', kind };
    case 'date':
      return { value: new Date(0), kind };
    case 'map':
      return { value: new Map([['a', 1]]), kind };
    case 'sparse-array':
      // eslint-disable-next-line no-sparse-arrays
      return { value: [1, , 3], kind };
    case 'class-instance':
      return {
        value: new (class Fuzz {
          readonly a = 1;
        })(),
        kind,
      };
    default:
      return { value: Object.assign(Object.create(null) as Json, { a: 1 }), kind };
  }
}

function nest(depth: number, leaf: unknown, arrays: boolean): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = arrays ? [v] : { n: v };
  return v;
}

/** A value that fights back: a throwing getter, a throwing or revoked Proxy, a thrown Proxy. */
function hostileValue(ctx: Ctx): { value: unknown; kind: string } {
  const kind = ctx.rng.pick(['getter', 'proxy', 'revoked-proxy', 'thrown-proxy', 'lying-proxy']);
  switch (kind) {
    case 'getter':
      return {
        value: Object.defineProperty({}, 'x', {
          enumerable: true,
          get: () => {
            throw new Error('fuzz getter');
          },
        }),
        kind,
      };
    case 'proxy':
      return {
        value: new Proxy(
          {},
          {
            ownKeys: () => {
              throw new TypeError('fuzz trap');
            },
            get: () => {
              throw new TypeError('fuzz trap');
            },
          },
        ),
        kind,
      };
    case 'revoked-proxy': {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return { value: proxy, kind };
    }
    case 'thrown-proxy': {
      const p: object = new Proxy(
        {},
        {
          get: () => {
            throw p;
          },
          getPrototypeOf: () => {
            throw p;
          },
          ownKeys: () => {
            throw p;
          },
          has: () => {
            throw p;
          },
        },
      );
      return { value: p, kind };
    }
    default: {
      // Answers differently every time it is read: shallow first, deep later. Not data: decode
      // reads a value more than once (bounds, then validation), and two calls see two states.
      ctx.classes.add('stateful');
      let reads = 0;
      return {
        value: new Proxy({ a: 1 }, { get: (t, k) => (k === 'a' ? (++reads > 1 ? nest(200, 1, false) : 1) : Reflect.get(t, k)) }),
        kind,
      };
    }
  }
}

const PAYLOAD_MUTATIONS = [
  'typeSwap',
  'delete',
  'injectKey',
  'deepNest',
  'share',
  'cycle',
  'growArray',
  'growString',
  'numberEdge',
  'unicode',
  'status',
  'version',
  'adcpError',
  'hostile',
  'duplicateKey',
] as const;

/** Characters that must never reach a terminal or a log raw (security.mdx's log rule): bidi, C1, separators, zero-width, ESC. */
const CONTROL_CHARS = ['\u202E', '\u009B', '\u2028', '\u2029', '\u200B', '\u200D', '\uFEFF', '\u001B[2J', '\u0007'];

/**
 * Puts `value` under `key` in a random object of the payload, or (half the time) in a map the
 * schemas check member by member (get_products' filter_diagnostics.excluded_by), where a key's
 * JSON Pointer is built for every item under it.
 */
function addMember(ctx: Ctx, root: Json, objects: readonly Slot[], key: string, value: unknown): string {
  if (objects.length === 0 || ctx.rng.chance(0.5)) {
    root['filter_diagnostics'] = { excluded_by: { [key]: { count: 1, values: value } } };
    return '/filter_diagnostics/excluded_by';
  }
  const where = ctx.rng.pick(objects);
  Object.defineProperty(get(where) as Json, key, { value, enumerable: true, writable: true, configurable: true });
  return where.path;
}

function mutatePayload(ctx: Ctx, root: Json): Json {
  const { rng } = ctx;
  const all = slots(root);
  const slot = all.length === 0 ? undefined : rng.pick(all);
  const op = rng.weighted<(typeof PAYLOAD_MUTATIONS)[number]>([
    [20, 'typeSwap'],
    [10, 'delete'],
    [8, 'injectKey'],
    [6, 'deepNest'],
    [3, 'share'],
    [3, 'cycle'],
    [5, 'growArray'],
    [4, 'growString'],
    [6, 'numberEdge'],
    [6, 'unicode'],
    [8, 'status'],
    [5, 'version'],
    [6, 'adcpError'],
    [2, 'hostile'],
    [3, 'duplicateKey'],
  ]);
  const target = slot ?? { parent: root, key: 'x', path: '/x', depth: 1 };
  switch (op) {
    case 'typeSwap': {
      const { value, kind } = anyValue(ctx);
      set(target, value);
      note(ctx, 'payload:typeSwap', `${target.path} → ${kind}`);
      break;
    }
    case 'delete':
      if (Array.isArray(target.parent)) target.parent.splice(Number(target.key), 1);
      else delete target.parent[target.key];
      note(ctx, 'payload:delete', target.path);
      break;
    case 'injectKey': {
      const evil = { polluted: true, isAdmin: true };
      const holder = (() => {
        const v = get(target);
        return typeof v === 'object' && v !== null ? (v as Json) : root;
      })();
      const how = rng.pick(['__proto__', 'constructor.prototype', 'hidden __proto__', 'array named __proto__', 'array named member']);
      if (how === '__proto__')
        Object.defineProperty(holder, '__proto__', { value: evil, enumerable: true, writable: true, configurable: true });
      else if (how === 'constructor.prototype')
        Object.defineProperty(holder, 'constructor', { value: { prototype: evil }, enumerable: true, writable: true, configurable: true });
      else if (how === 'hidden __proto__')
        Object.defineProperty(holder, '__proto__', { value: evil, enumerable: false, writable: true, configurable: true });
      else if (how === 'array named __proto__')
        holder['list'] = Object.defineProperty([1], '__proto__', { value: evil, enumerable: true, writable: true, configurable: true });
      else holder['list'] = Object.assign([1], { named: JSON.parse('{"__proto__":{"polluted":true}}') as unknown });
      note(ctx, 'payload:injectKey', `${how} at ${target.path}`);
      break;
    }
    case 'deepNest': {
      const depth = rng.weighted<number>([
        [300, rng.pick([10, 62, 63, 64, 65, 66])],
        [100, 200 + rng.int(800)],
        [5, ctx.profile === 'ci' ? 5_000 : 100_000],
      ]);
      set(target, nest(depth, get(target), rng.chance(0.5)));
      note(ctx, 'payload:deepNest', `${depth} levels at ${target.path}`);
      break;
    }
    case 'share': {
      // The same object many times: a tree far larger than the memory it takes.
      let node: unknown = get(target);
      const levels = rng.weighted<number>([
        [45, 4],
        [45, 12],
        [8, ctx.profile === 'ci' ? 14 : 18],
        [2, ctx.profile === 'ci' ? 14 : 60],
      ]);
      for (let i = 0; i < levels; i++) node = [node, node];
      set(target, node);
      note(ctx, 'payload:share', `2^${levels} references at ${target.path}`);
      break;
    }
    case 'cycle': {
      const holder = typeof get(target) === 'object' && get(target) !== null ? (get(target) as Json) : root;
      holder['self'] = rng.chance(0.5) ? holder : root;
      note(ctx, 'payload:cycle', `at ${target.path}`);
      break;
    }
    case 'growArray': {
      const n = size(ctx, 50_000);
      const arrays = all.filter((s) => Array.isArray(get(s)));
      const where = arrays.length > 0 ? rng.pick(arrays) : target;
      const base = get(where);
      const items = Array.isArray(base) && base.length > 0 ? base : ['x'];
      const distinct = rng.chance(0.5);
      const grown = Array.from({ length: n }, (_, i) => {
        const item = items[i % items.length];
        if (!distinct) return item;
        return typeof item === 'string' ? `${item}${i}` : typeof item === 'object' && item !== null ? { ...(item as Json), fuzz_i: i } : i;
      });
      set(where, grown);
      note(ctx, 'payload:growArray', `${n} ${distinct ? 'distinct' : 'repeated'} items at ${where.path}`);
      break;
    }
    case 'growString': {
      const n = rng.weighted<number>([
        [90, 1 + rng.int(5_000)],
        [9, 100_000 + rng.int(900_000)],
        [1, 4 * MiB + rng.pick([-2, -1, 0, 1, 2])],
      ]);
      const unit = rng.pick(['a', 'é', '€', '😀', '\uD800']);
      const strings = all.filter((s) => typeof get(s) === 'string');
      const where = strings.length > 0 ? rng.pick(strings) : target;
      const count = Math.max(1, Math.floor((ctx.profile === 'ci' ? Math.min(n, 20_000) : n) / unit.length));
      set(where, unit.repeat(count));
      note(ctx, 'payload:growString', `${count} × ${JSON.stringify(unit)} at ${where.path}`);
      break;
    }
    case 'numberEdge': {
      const numbers = all.filter((s) => typeof get(s) === 'number');
      const where = numbers.length > 0 ? rng.pick(numbers) : target;
      const value = rng.pick([2 ** 53 + 1, -0, 1e-400, 1e308, -1, 0.5, 1e21, -(2 ** 63), Infinity, NaN]);
      set(where, value);
      note(ctx, 'payload:numberEdge', `${where.path} → ${String(value)}`);
      break;
    }
    case 'unicode': {
      const value = rng.pick([
        '\uD800',
        '\uDFFF',
        'a\uD83Dz',
        '\uFEFF',
        '\u0000',
        '\u2028\u2029',
        'R\u202Eevil',
        'WOR\u212AING',
        'ſtatus',
        '\uFFFF',
        'é\u0301',
      ]);
      if (rng.chance(0.5)) set(target, value);
      else Object.defineProperty(root, value, { value: 1, enumerable: true, writable: true, configurable: true });
      note(ctx, 'payload:unicode', `${JSON.stringify(value)} at ${target.path}`);
      break;
    }
    case 'status': {
      const value = rng.pick([
        'completed',
        'working',
        'submitted',
        'input-required',
        'failed',
        'rejected',
        'canceled',
        'auth-required',
        'unknown',
        'Completed',
        5,
        null,
        undefined,
      ]);
      root['status'] = value;
      note(ctx, 'payload:status', String(value));
      break;
    }
    case 'version': {
      const value = rng.pick(['3.0', '3.1', '3.0.26', '3.1.19', '3.2', '2.5', '4.0', '', 3.1, null, '3.1 ', '３.１']);
      root['adcp_version'] = value;
      note(ctx, 'payload:version', String(value));
      break;
    }
    case 'adcpError': {
      const value = rng.pick<unknown>([
        { code: 'RATE_LIMITED', retry_after: 5 },
        { code: 'BUDGET_TOO_LOW', recovery: 'correctable' },
        { code: '' },
        { code: 'X'.repeat(65) },
        { code: 5 },
        { code: 'BIG', details: 'x'.repeat(5_000) },
        'not an object',
        { code: 'GO_FOREVER', recovery: 'transient', retry_after: 1e9 },
      ]);
      if (rng.chance(0.5)) root['adcp_error'] = value;
      else root['errors'] = [value];
      note(ctx, 'payload:adcpError', JSON.stringify(value).slice(0, 60));
      break;
    }
    case 'hostile': {
      const { value, kind } = hostileValue(ctx);
      set(target, value);
      note(ctx, 'payload:hostile', `${kind} at ${target.path}`);
      break;
    }
    default: {
      // Duplicate keys only exist in text; here, a key added twice under Unicode-equal names.
      Object.defineProperty(root, 'st\u0061tus', { value: 'failed', enumerable: true, writable: true, configurable: true });
      note(ctx, 'payload:duplicateKey', 'status (same name)');
      break;
    }
  }
  return root;
}

const COST_MUTATIONS = ['longKey', 'idWhitespace', 'controlKey'] as const;

/**
 * Issue 11's cost classes: long keys of `~` and `/` runs over many items, long whitespace runs in
 * `*_id` values, control, bidi and zero-width characters in keys. They draw from a stream of their
 * own (see makeCase), so every case of earlier runs is generated as it was.
 */
function mutateCostClasses(ctx: Ctx, root: Json): Json {
  const { rng } = ctx;
  const all = slots(root);
  const objects = () =>
    all.filter((s) => {
      const v = get(s);
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    });
  const op = rng.pick(COST_MUTATIONS);
  switch (op) {
    case 'longKey': {
      // Issue 11: a long key of `~` and `/` runs (each escapes to two characters in a JSON Pointer)
      // over many items, so a validator that escapes the key per item is quadratic.
      const length = size(ctx, 2 * MiB);
      const unit = rng.pick(['~', '/', '~/', '~0', '~1', '/~1', 'a']);
      const key = unit.repeat(Math.max(1, Math.ceil(length / unit.length)));
      const items = size(ctx, 200_000);
      const item = rng.pick<unknown>(['a', 1, {}, null]);
      const where = addMember(
        ctx,
        root,
        objects(),
        key,
        Array.from({ length: items }, () => item),
      );
      note(ctx, 'payload:longKey', `${key.length} chars of ${JSON.stringify(unit)} over ${items} × ${JSON.stringify(item)} at ${where}`);
      break;
    }
    case 'idWhitespace': {
      // Long whitespace runs in identifiers, where a trimming regex could backtrack.
      const ids = all.filter((s) => typeof s.key === 'string' && s.key.endsWith('_id') && typeof get(s) === 'string');
      const where = ids.length > 0 ? rng.pick(ids) : { parent: root, key: 'media_buy_id', path: '/media_buy_id', depth: 1 };
      const space = rng.pick([' ', '\t', '\n', '\u00A0', '\u3000', '\u2028', ' \t']);
      const n = size(ctx, MiB);
      const value = rng.pick([`id${space.repeat(n)}x`, space.repeat(n), `${space.repeat(n)}id`, `id${space.repeat(n)}`]);
      set(where, value);
      note(ctx, 'payload:idWhitespace', `${n} × ${JSON.stringify(space)} at ${where.path}`);
      break;
    }
    default: {
      const chars = Array.from({ length: 1 + rng.int(4) }, () => rng.pick(CONTROL_CHARS)).join('');
      const key = rng.pick([chars, `a${chars}b`, `${chars}_id`, `${chars}/~`]);
      const where = addMember(ctx, root, objects(), key, rng.pick<unknown>([1, 'x', ['x', 1], { count: -1 }]));
      note(ctx, 'payload:controlKey', `${JSON.stringify(key)} at ${where}`);
      break;
    }
  }
  return root;
}

const TEXT_MUTATIONS = [
  'flipBits',
  'truncate',
  'splice',
  'insertBytes',
  'protoKey',
  'bom',
  'hugeNumber',
  'deepBrackets',
  'duplicateKey',
  'loneSurrogate',
  'whitespace',
] as const;

/** Damages a JSON text the way a broken or hostile server might. */
function mutateText(ctx: Ctx, text: string): string {
  const { rng } = ctx;
  const op = rng.weighted<(typeof TEXT_MUTATIONS)[number]>([
    [15, 'flipBits'],
    [12, 'truncate'],
    [8, 'splice'],
    [8, 'insertBytes'],
    [10, 'protoKey'],
    [4, 'bom'],
    [6, 'hugeNumber'],
    [6, 'deepBrackets'],
    [8, 'duplicateKey'],
    [5, 'loneSurrogate'],
    [4, 'whitespace'],
  ]);
  const at = rng.int(text.length + 1);
  switch (op) {
    case 'flipBits': {
      const bytes = Buffer.from(text, 'utf8');
      const flips = 1 + rng.int(8);
      for (let i = 0; i < flips && bytes.length > 0; i++) {
        const j = rng.int(bytes.length);
        bytes[j] = (bytes[j] as number) ^ (1 << rng.int(8));
      }
      note(ctx, 'text:flipBits', `${flips} bits`);
      // Decoded as a lenient UTF-8 reader would (U+FFFD for broken sequences), or byte by byte.
      return rng.chance(0.7) ? bytes.toString('utf8') : bytes.toString('latin1');
    }
    case 'truncate':
      note(ctx, 'text:truncate', `at ${at} of ${text.length}`);
      return text.slice(0, at);
    case 'splice': {
      const from = rng.int(text.length);
      const len = rng.int(Math.min(200, text.length - from) + 1);
      note(ctx, 'text:splice', `copy ${len} chars from ${from} to ${at}`);
      return text.slice(0, at) + text.slice(from, from + len) + text.slice(at);
    }
    case 'insertBytes': {
      const junk = rng.pick(['\u0000', '}', ']', '"', '\\', ',', ':', '{"a":', '\\u', '\\ud800', 'null', 'NaN', 'Infinity', '/*x*/', "'"]);
      note(ctx, 'text:insertBytes', `${JSON.stringify(junk)} at ${at}`);
      return text.slice(0, at) + junk + text.slice(at);
    }
    case 'protoKey': {
      const key = rng.pick([
        '"__proto__"',
        '"\\u005f_proto__"',
        '"\\u005F\\u005Fproto\\u005F\\u005F"',
        '"__pr\\u006fto__"',
        '"constructor":{"prototype":{"polluted":true}},"x"',
      ]);
      const braces = [...text.matchAll(/\{/g)].map((m) => m.index ?? 0);
      const where = braces.length > 0 ? rng.pick(braces) + 1 : 0;
      note(ctx, 'text:protoKey', `${key} after offset ${where}`);
      return `${text.slice(0, where)}${key}:{"polluted":true}${text[where] === '}' ? '' : ','}${text.slice(where)}`;
    }
    case 'bom': {
      const leading = rng.chance(0.5);
      note(ctx, 'text:bom', leading ? 'leading' : `at ${at}`);
      return leading ? `\uFEFF${text}` : text.slice(0, at) + '\uFEFF' + text.slice(at);
    }
    case 'hugeNumber': {
      const number = rng.pick(['1e400', '-1e400', '123456789012345678901234567890', '1e-400', '-0', '9007199254740993', '0.1e1', '1E+2']);
      const numbers = [...text.matchAll(/(?<=[:[,])\s*-?\d[\d.eE+-]*/g)];
      if (numbers.length === 0) return text;
      const m = rng.pick(numbers);
      note(ctx, 'text:hugeNumber', `${m[0].trim()} → ${number}`);
      return text.slice(0, m.index) + number + text.slice((m.index ?? 0) + m[0].length);
    }
    case 'deepBrackets': {
      const depth = rng.weighted<number>([
        [40, 64],
        [40, 65],
        [15, 1_000],
        [4, ctx.profile === 'ci' ? 10_000 : 100_000],
        [1, ctx.profile === 'ci' ? 10_000 : 1_000_000],
      ]);
      const value = rng.chance(0.5) ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      const colons = [...text.matchAll(/":\s*(?=[[{"\dtfn-])/g)];
      if (colons.length === 0) return text;
      const m = rng.pick(colons);
      const start = (m.index ?? 0) + m[0].length;
      note(ctx, 'text:deepBrackets', `${depth} levels at offset ${start}`);
      return `${text.slice(0, start)}${value},"fuzz_rest":${text.slice(start)}`;
    }
    case 'duplicateKey': {
      const keys = [...text.matchAll(/"([a-z_]+)":/g)];
      if (keys.length === 0) return text;
      const m = rng.pick(keys);
      const { value } = anyValue(ctx);
      let json: string | undefined;
      try {
        json = JSON.stringify(value);
      } catch {
        json = undefined;
      }
      const end = text.lastIndexOf('}');
      note(ctx, 'text:duplicateKey', `${m[1]} again (last wins)`);
      return end < 0 ? text : `${text.slice(0, end)},"${m[1]}":${json ?? 'null'}${text.slice(end)}`;
    }
    case 'loneSurrogate': {
      const s = rng.pick(['\uD800', '\\ud800', '\uDC00', '\\udfff', '\\ud83d\\ude00']);
      const quotes = [...text.matchAll(/"(?=[a-z])/g)];
      if (quotes.length === 0) return text;
      const where = (rng.pick(quotes).index ?? 0) + 1;
      note(ctx, 'text:loneSurrogate', `${JSON.stringify(s)} at ${where}`);
      return text.slice(0, where) + s + text.slice(where);
    }
    default: {
      const ws = rng.pick([' ', '\n', '\t', '\r', '\u00a0', '\u2028', '\u3000']);
      note(ctx, 'text:whitespace', JSON.stringify(ws));
      return ws.repeat(1 + rng.int(3)) + text + ws;
    }
  }
}

/**
 * JSON.stringify, or a stand-in when the value cannot be serialized or would be huge (shared
 * references repeat a string thousands of times). Past 6 Mi characters of strings a text item is
 * refused unparsed anyway, so nothing is lost by stopping there; what is saved is seconds per case.
 */
function stringify(value: unknown): string {
  let values = 0;
  let chars = 0;
  // First count, without building anything (JSON.stringify would build the text as it goes).
  const stack: unknown[] = [value];
  try {
    while (stack.length > 0) {
      const v = stack.pop();
      if (typeof v === 'string' && (chars += v.length) > 6 * MiB) return '{"fuzz":"unserializable"}';
      if (typeof v !== 'object' || v === null) continue;
      const keys = Object.keys(v);
      // Counted when pushed, so that a value holding itself many times cannot grow the stack first.
      if ((values += keys.length) > 100_000) return '{"fuzz":"unserializable"}';
      for (const k of keys) stack.push((v as Json)[k]);
    }
  } catch {
    return '{"fuzz":"unserializable"}';
  }
  values = 0;
  chars = 0;
  try {
    return (
      JSON.stringify(value, (_key, v: unknown) => {
        if (++values > 100_000) throw new RangeError('too many values');
        if (typeof v === 'string' && (chars += v.length) > 6 * MiB) throw new RangeError('too long');
        return v;
      }) ?? 'null'
    );
  } catch {
    return '{"fuzz":"unserializable"}';
  }
}

const ENVELOPES = [
  'mcp-structured',
  'mcp-text',
  'mcp-prose-then-text',
  'mcp-both',
  'mcp-error',
  'mcp-error-text',
  'rpc-result',
  'rpc-error',
  'a2a03-task',
  'a2a10-task',
  'a2a10-envelope',
  'a2a10-status',
  'a2a-nested',
  'payload',
  'garbage',
] as const;

/** Wraps a payload the way one transport carries it; `texts` collects the JSON texts to damage. */
function envelope(
  ctx: Ctx,
  payload: Json,
): { kind: string; input: unknown; transport?: string; texts: Array<{ holder: Json; key: string }> } {
  const { rng } = ctx;
  const kind = rng.weighted<(typeof ENVELOPES)[number]>([
    [14, 'mcp-structured'],
    [14, 'mcp-text'],
    [5, 'mcp-prose-then-text'],
    [4, 'mcp-both'],
    [6, 'mcp-error'],
    [4, 'mcp-error-text'],
    [4, 'rpc-result'],
    [5, 'rpc-error'],
    [8, 'a2a03-task'],
    [8, 'a2a10-task'],
    [6, 'a2a10-envelope'],
    [6, 'a2a10-status'],
    [2, 'a2a-nested'],
    [6, 'payload'],
    [2, 'garbage'],
  ]);
  ctx.steps.push(`envelope ${kind}`);
  const textItem = (text: string): Json => ({ type: 'text', text });
  const state = rng.pick([
    'completed',
    'TASK_STATE_COMPLETED',
    'failed',
    'TASK_STATE_FAILED',
    'working',
    'TASK_STATE_WORKING',
    'input-required',
    'TASK_STATE_INPUT_REQUIRED',
    'submitted',
    'rejected',
    'canceled',
    'TASK_STATE_AUTH_REQUIRED',
    'TASK_STATE_PAUSED',
    'COMPLETED',
  ]);
  switch (kind) {
    case 'mcp-structured':
      return { kind, input: { content: [textItem('Done.')], structuredContent: payload }, texts: [] };
    case 'mcp-text': {
      const item = textItem(stringify(payload));
      return { kind, input: { content: [item] }, texts: [{ holder: item, key: 'text' }] };
    }
    case 'mcp-prose-then-text': {
      const item = textItem(stringify(payload));
      return { kind, input: { content: [textItem('Here is what I found.'), item] }, texts: [{ holder: item, key: 'text' }] };
    }
    case 'mcp-both': {
      const item = textItem(stringify(payload));
      return { kind, input: { content: [item], structuredContent: payload }, texts: [{ holder: item, key: 'text' }] };
    }
    case 'mcp-error': {
      const item = textItem(stringify({ adcp_error: payload['adcp_error'] ?? { code: 'RATE_LIMITED' } }));
      return {
        kind,
        input: {
          isError: rng.pick([true, 'false', 1, {}, 'true']),
          content: [item],
          structuredContent: rng.chance(0.5) ? payload : { adcp_error: payload },
        },
        texts: [{ holder: item, key: 'text' }],
      };
    }
    case 'mcp-error-text': {
      const item = textItem(stringify({ adcp_error: payload }));
      return { kind, input: { isError: true, content: [item] }, texts: [{ holder: item, key: 'text' }] };
    }
    case 'rpc-result':
      return { kind, input: { jsonrpc: '2.0', id: 1, result: { content: [], structuredContent: payload } }, texts: [] };
    case 'rpc-error':
      return {
        kind,
        input: {
          jsonrpc: '2.0',
          id: 'r',
          error: {
            code: rng.pick([-32029, -32000, -32603, 5, '5']),
            message: 'x',
            data: rng.chance(0.7) ? { adcp_error: payload } : payload,
          },
        },
        texts: [],
      };
    case 'a2a03-task':
      return {
        kind,
        input: {
          kind: 'task',
          id: 't',
          status: { state },
          artifacts: [
            {
              parts: [
                { kind: 'text', text: 'x' },
                { kind: 'data', data: payload },
              ],
            },
          ],
        },
        texts: [],
      };
    case 'a2a10-task':
      return {
        kind,
        input: {
          id: 't',
          status: { state, message: { parts: [{ data: payload }] } },
          artifacts: rng.chance(0.7) ? [{ parts: [{ data: payload }] }] : [],
        },
        texts: [],
      };
    case 'a2a10-envelope':
      return {
        kind,
        input: { task: { id: 't', status: { state }, artifacts: [{ parts: [{ text: 'x' }, { data: payload }] }] } },
        texts: [],
      };
    case 'a2a10-status':
      return { kind, input: { statusUpdate: { taskId: 't', status: { state, message: { parts: [{ data: payload }] } } } }, texts: [] };
    case 'a2a-nested':
      return { kind, input: { task: { task: { status: { state }, artifacts: [{ parts: [{ data: payload }] }] } } }, texts: [] };
    case 'payload':
      return { kind, input: payload, transport: 'payload', texts: [] };
    default:
      return { kind, input: rng.pick<unknown>([null, 0, '', 'completed', [], [payload], payload, true]), texts: [] };
  }
}

const ENVELOPE_MUTATIONS = ['dropKey', 'swapType', 'addItems', 'isError', 'shareText'] as const;

function mutateEnvelope(ctx: Ctx, input: unknown): unknown {
  const { rng } = ctx;
  if (typeof input !== 'object' || input === null) return input;
  const all = slots(input, 200);
  if (all.length === 0) return input;
  const op = rng.pick(ENVELOPE_MUTATIONS);
  const slot = rng.pick(all.filter((s) => s.depth <= 4).concat(all.slice(0, 1)));
  switch (op) {
    case 'dropKey':
      if (!Array.isArray(slot.parent)) delete slot.parent[slot.key];
      note(ctx, 'envelope:dropKey', slot.path);
      break;
    case 'swapType': {
      const { value, kind } = rng.chance(0.1) ? hostileValue(ctx) : anyValue(ctx);
      set(slot, value);
      note(ctx, 'envelope:swapType', `${slot.path} → ${kind}`);
      break;
    }
    case 'addItems': {
      const content = (input as Json)['content'];
      if (Array.isArray(content)) {
        const extra = rng.pick<unknown>([
          1,
          null,
          'x',
          [],
          { type: 'text' },
          { type: 'text', text: 5 },
          { type: 'image', data: '' },
          { type: 'text', text: '[1,2]' },
          { type: 'text', text: '{"adcp_error":{"code":"X"}}' },
        ]);
        content.splice(rng.int(content.length + 1), 0, extra);
        note(ctx, 'envelope:addItems', stringify(extra).slice(0, 40));
      }
      break;
    }
    case 'isError': {
      const value = rng.pick<unknown>([true, false, 'false', '', 0, 1, null, {}, [], 'true']);
      (input as Json)['isError'] = value;
      note(ctx, 'envelope:isError', stringify(value));
      break;
    }
    default: {
      // One text shared by many items (an in-memory envelope; impossible on the wire).
      const content = (input as Json)['content'];
      if (Array.isArray(content) && content.length > 0) {
        const n =
          ctx.profile === 'ci'
            ? 50
            : rng.weighted<number>([
                [60, 10],
                [35, 100],
                [5, 1_000],
              ]);
        const item = content[content.length - 1];
        for (let i = 0; i < n; i++) content.unshift(item);
        note(ctx, 'envelope:shareText', `${n} copies`);
      }
    }
  }
  return input;
}

function pickOptions(ctx: Ctx, transport: string | undefined): CaseOptions {
  const { rng } = ctx;
  const options: Json = {};
  if (transport !== undefined) options['transport'] = transport;
  if (rng.chance(0.15)) options['maxBytes'] = rng.pick([0, 10, 1_000, 100_000, 4 * MiB - 1, Infinity]);
  if (rng.chance(0.1)) options['maxDepth'] = rng.pick([0, 1, 3, 64, 65, 1_000, Infinity]);
  if (rng.chance(0.1)) options['maxNodes'] = rng.pick([0, 1, 50, 10_000, Infinity]);
  if (rng.chance(0.1)) options['version'] = rng.pick(['3.0', '3.1', '3.0.26', '3.1.19', 'auto', '9.9']);
  if (rng.chance(0.05)) options['transport'] = rng.pick(['mcp', 'a2a', 'payload', 'auto', 'smtp']);
  if (rng.chance(0.05)) options['unknownRecovery'] = rng.pick(['terminal', 'transient', 'manifest', 'never']);
  if (Object.keys(options).length === 0) return undefined;
  note(
    ctx,
    'options',
    JSON.stringify(options, (_k, v: unknown) => (v === Infinity ? 'Infinity' : v)),
  );
  return options;
}

/**
 * Builds case `index` of `seed`, deterministically.
 *
 * @param seed - The run's seed.
 * @param index - The case number.
 * @param profile - `full` (the fuzzer) or `ci` (sizes capped for a quick pass).
 * @returns The case: task, input, options and the steps that made it.
 * @throws Never.
 * @example
 * const c = makeCase(1, 42); runCase(c); // the same case every time
 */
export function makeCase(seed: number, index: number, profile: Profile = 'full'): FuzzCase {
  const rng = new Rng(seed, index);
  const ctx: Ctx = { rng, steps: [], classes: new Set(), profile };
  const s = rng.pick(seeds);
  ctx.steps.push(`fixture ${s.id}`);
  let task: unknown = s.task;
  if (rng.chance(0.03)) {
    task = rng.pick<unknown>([...TASKS, 'nope', '', '__proto__', 'constructor', 5, null, 'get_products '.repeat(50)]);
    note(ctx, 'task', stringify(task));
  }
  let payload = JSON.parse(s.text) as Json;
  const payloadMutations = rng.weighted<number>([
    [15, 0],
    [45, 1],
    [25, 2],
    [15, 3],
  ]);
  // A mutation may meet a hostile value an earlier one planted (a revoked Proxy cannot be
  // written to): it is then skipped, deterministically.
  const attempt = <T>(fn: () => T, fallback: T): T => {
    try {
      return fn();
    } catch {
      ctx.steps.push('(skipped: a hostile value was in the way)');
      return fallback;
    }
  };
  for (let i = 0; i < payloadMutations; i++) payload = attempt(() => mutatePayload(ctx, payload), payload);
  // Mutators added later draw from streams of their own: the cases of earlier runs stay as they were.
  const cost: Ctx = { ...ctx, rng: new Rng(seed ^ 0x11c0057, index) };
  if (cost.rng.chance(0.08)) payload = attempt(() => mutateCostClasses(cost, payload), payload);
  const env = attempt(() => envelope(ctx, payload), { kind: 'payload', input: payload, transport: 'payload', texts: [] });
  for (const { holder, key } of env.texts) {
    const textMutations = rng.weighted<number>([
      [40, 0],
      [40, 1],
      [15, 2],
      [5, 3],
    ]);
    let text = holder[key] as string;
    for (let i = 0; i < textMutations; i++) text = attempt(() => mutateText(ctx, text), text);
    holder[key] = text;
  }
  let input = env.input;
  const envelopeMutations = rng.weighted<number>([
    [75, 0],
    [20, 1],
    [5, 2],
  ]);
  for (let i = 0; i < envelopeMutations; i++) input = attempt(() => mutateEnvelope(ctx, input), input);
  const options = pickOptions(ctx, env.transport);
  if (ctx.classes.size === 0) ctx.classes.add('none');
  return { seed, index, task, input, options, steps: ctx.steps, classes: [...ctx.classes], envelope: env.kind };
}

// ---------------------------------------------------------------------------------------------
// The oracle

export type FindingKind =
  | 'crash'
  | 'safe-decode-threw'
  | 'extractor-threw'
  /** decode()'s last-resort guard turned a non-DecodeError into MALFORMED_ENVELOPE: a defect it hid. */
  | 'guarded-defect'
  | 'inconsistent'
  | 'pollution'
  | 'slow'
  | 'hang'
  | 'out-of-memory'
  | 'worker-died';

export interface Finding {
  readonly kind: FindingKind;
  readonly seed: number;
  readonly index: number;
  readonly detail: string;
  readonly ms?: number;
}

export interface CaseResult {
  /** `decoded` or the DecodeError code. */
  readonly outcome: string;
  readonly ms: number;
  readonly findings: readonly Finding[];
}

const PROTOTYPES: ReadonlyArray<readonly [string, object]> = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
  ['Number.prototype', Number.prototype],
];
const PRISTINE = new Map(PROTOTYPES.map(([name, proto]) => [name, new Set(Reflect.ownKeys(proto))]));

/** Names of prototype members added since start, removed again so that the run can go on. */
function pollutionSinceStart(): string[] {
  const added: string[] = [];
  for (const [name, proto] of PROTOTYPES) {
    const before = PRISTINE.get(name)!;
    for (const key of Reflect.ownKeys(proto)) {
      if (before.has(key)) continue;
      added.push(`${name}.${String(key)}`);
      delete (proto as Record<PropertyKey, unknown>)[key];
    }
  }
  return added;
}

function describeThrown(error: unknown): string {
  try {
    if (error instanceof Error) return `${error.name}: ${error.message.slice(0, 200)}`;
    return `${typeof error} thrown`;
  } catch {
    return 'an unreadable value thrown';
  }
}

/** The naive recursive merge applications write; bounded so the oracle itself cannot overflow. */
function deepMerge(target: Json, source: unknown, depth = 0): void {
  if (typeof source !== 'object' || source === null || depth > 200) return;
  for (const key in source as Json) {
    const value = (source as Json)[key];
    if (typeof value === 'object' && value !== null) {
      if (typeof target[key] !== 'object' && typeof target[key] !== 'function') target[key] = Array.isArray(value) ? [] : {};
      deepMerge(target[key] as Json, value, depth + 1);
    } else {
      target[key] = value;
    }
  }
}

/** Everything the caller can reach from a result: the data, or the error's own data fields. */
function received(result: ReturnType<typeof safeDecode>): unknown[] {
  if (result.success) return [result.data];
  const e = result.error;
  const out: unknown[] = [{ ...e }];
  if (e instanceof TaskFailedError) out.push(e.adcpError, e.recovery);
  if (e instanceof SchemaMismatchError) out.push(...e.issues.slice(0, 100).map((i) => i.params));
  return out;
}

/**
 * Runs one case under the oracle.
 *
 * @param c - The case.
 * @param slowMs - Above this a case is reported `slow` (the watchdog reports a `hang`).
 * @returns The outcome code, the time taken, and any findings.
 * @throws Never (the oracle turns every failure into a finding).
 * @example
 * const { outcome, findings } = runCase(makeCase(7, 0));
 */
export function runCase(c: FuzzCase, slowMs = 2_000): CaseResult {
  const findings: Finding[] = [];
  const found = (kind: FindingKind, detail: string, ms?: number): void =>
    void findings.push({ kind, seed: c.seed, index: c.index, detail, ...(ms === undefined ? {} : { ms }) });
  const start = performance.now();
  let outcome = 'decoded';
  let safe: ReturnType<typeof safeDecode> | undefined;
  try {
    safe = safeDecode(c.task as 'get_products', c.input, c.options as never);
    outcome = safe.success ? 'decoded' : safe.error.code;
    if (!safe.success && !(safe.error instanceof DecodeError))
      found('crash', `safeDecode returned a non-DecodeError: ${describeThrown(safe.error)}`);
    // The guard's own message: something other than a DecodeError escaped the pipeline. Expected
    // only when the input itself throws (a hostile getter or Proxy read outside the extractors).
    if (
      !safe.success &&
      safe.error.message.startsWith('input could not be decoded') &&
      !c.classes.some((k) => k === 'payload:hostile' || k === 'stateful' || k === 'envelope:swapType')
    ) {
      found('guarded-defect', `${safe.error.message} (cause: ${describeThrown(safe.error.cause)})`);
    }
    // INTERNAL is adcp-decode's own defect, whatever the input.
    if (!safe.success && safe.error.code === 'INTERNAL')
      found('guarded-defect', `${safe.error.message} (cause: ${describeThrown(safe.error.cause)})`);
  } catch (error) {
    found('safe-decode-threw', describeThrown(error));
  }
  const decodeMs = performance.now() - start;
  // decode() runs the same pipeline as safeDecode() and only differs in how it reports; it is
  // checked on every fourth case, the extractors on every other one, to spend the time on cases.
  if (c.index % 4 === 0) {
    let thrown = 'decoded';
    try {
      decode(c.task as 'get_products', c.input, c.options as never);
    } catch (error) {
      if (error instanceof DecodeError) thrown = error.code;
      else found('crash', `decode threw ${describeThrown(error)}`);
    }
    if (safe !== undefined && thrown !== outcome && findings.length === 0 && !c.classes.includes('stateful'))
      found('inconsistent', `safeDecode said ${outcome}, decode said ${thrown}`);
  }
  if (c.index % 2 === 0) {
    for (const [name, extract] of [
      ['extractMcpResponse', extractMcpResponse],
      ['extractA2aResponse', extractA2aResponse],
      ['extractMcpError', extractMcpError],
      ['extractA2aError', extractA2aError],
    ] as const) {
      try {
        extract(c.input);
      } catch (error) {
        if (!(error instanceof DecodeError)) found('extractor-threw', `${name} threw ${describeThrown(error)}`);
      }
    }
  }
  if (safe !== undefined) {
    for (const got of received(safe)) {
      if (typeof got !== 'object' || got === null) continue;
      try {
        void { ...got };
        Object.assign({}, got);
        deepMerge({}, got);
      } catch {
        // a merge of a hostile object may throw; what matters is the prototypes
      }
    }
  }
  const polluted = pollutionSinceStart();
  if (polluted.length > 0) found('pollution', `added ${polluted.join(', ')}`);
  const ms = performance.now() - start;
  if (decodeMs > slowMs) found('slow', `safeDecode took ${Math.round(decodeMs)} ms`, decodeMs);
  return { outcome, ms, findings };
}

// ---------------------------------------------------------------------------------------------
// Reproduction files

/** A JSON rendering of any input for a finding file: special values become `{ "$fuzz": ... }` markers. */
export function describeInput(input: unknown): unknown {
  const ancestors: unknown[] = [];
  const seen = new Set<unknown>();
  let budget = 5_000;
  const render = (value: unknown, depth: number): unknown => {
    if (--budget < 0) return { $fuzz: 'elided' };
    try {
      switch (typeof value) {
        case 'string':
          return value.length > 2_000 ? { $fuzz: 'string', length: value.length, head: value.slice(0, 200) } : value;
        case 'number':
          return Number.isFinite(value) && !Object.is(value, -0)
            ? value
            : { $fuzz: 'number', value: Object.is(value, -0) ? '-0' : String(value) };
        case 'bigint':
          return { $fuzz: 'bigint', value: String(value) };
        case 'undefined':
          return { $fuzz: 'undefined' };
        case 'symbol':
        case 'function':
          return { $fuzz: typeof value };
        case 'boolean':
          return value;
      }
      if (value === null) return null;
      if (ancestors.includes(value)) return { $fuzz: 'cycle', to: ancestors.indexOf(value) };
      if (seen.has(value)) return { $fuzz: 'shared', note: 'the same object again' };
      seen.add(value);
      if (depth > 50) return { $fuzz: 'deep', note: 'nesting continues' };
      ancestors.push(value);
      try {
        if (Array.isArray(value)) {
          const items = value.slice(0, 50).map((v) => render(v, depth + 1));
          return value.length > 50 ? [...items, { $fuzz: 'more-items', count: value.length - 50 }] : items;
        }
        const proto: unknown = Object.getPrototypeOf(value);
        const out: Json =
          proto === Object.prototype || proto === null
            ? {}
            : { $fuzz: 'class', name: String((value as { constructor?: { name?: unknown } }).constructor?.name) };
        for (const key of Object.keys(value as object).slice(0, 100))
          Object.defineProperty(out, key, {
            value: render((value as Json)[key], depth + 1),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        if (Object.hasOwn(value as object, '__proto__') && !Object.keys(value as object).includes('__proto__'))
          out['$fuzz:hidden __proto__'] = true;
        return out;
      } finally {
        ancestors.pop();
      }
    } catch (error) {
      return { $fuzz: 'unreadable', thrown: describeThrown(error) };
    }
  };
  return render(input, 0);
}
