/** The payload mutators: what a broken or hostile seller's payload may look like, as a value. */
import { type Ctx, get, type Json, MiB, note, set, size, slots } from './context.js';
import { anyValue, hostileValue, nest } from './values.js';
import { OLDEST_FIRST, RELEASES } from './versions.js';

/** The payload mutations and their weights. */
const PAYLOAD_MUTATIONS = [
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
] as const;

/**
 * One random mutation of a payload (type swaps, deletions, key injection, deep nesting, shared and
 * circular references, growth, number and Unicode edge cases, status, version, errors, hostile values).
 *
 * @param ctx - The case's context.
 * @param root - The payload, changed in place.
 * @returns The payload.
 * @throws What a hostile value planted earlier throws (the case then skips this mutation).
 * @example
 * payload = mutatePayload(ctx, payload);
 */
export function mutatePayload(ctx: Ctx, root: Json): Json {
  const { rng } = ctx;
  const all = slots(root);
  const slot = all.length === 0 ? undefined : rng.pick(all);
  const op = rng.weighted(PAYLOAD_MUTATIONS);
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
      const value = rng.pick([...RELEASES, ...OLDEST_FIRST, '3.2', '2.5', '4.0', '', 3.1, null, '3.1 ', '３.１']);
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
