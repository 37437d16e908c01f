/**
 * The values mutators plant: any kind of value, JSON or not; nesting; and hostile values that
 * fight back when read (throwing getters, throwing, revoked or self-throwing Proxies).
 */
import { revokedProxy, throwingGetter, throwingProxy } from '../../test/fixtures/hostile-values.js';
import type { Ctx, Json } from './context.js';

/** A value of a kind chosen at random, JSON or not. */
export function anyValue(ctx: Ctx): { value: unknown; kind: string } {
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

/**
 * `leaf` under `depth` levels of arrays (`[[...]]`) or objects (`{ n: ... }`).
 *
 * @param depth - The levels.
 * @param leaf - The innermost value.
 * @param arrays - Arrays, else objects.
 * @returns The nested value.
 * @throws Never.
 * @example
 * nest(2, 1, true); // [[1]]
 */
export function nest(depth: number, leaf: unknown, arrays: boolean): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = arrays ? [v] : { n: v };
  return v;
}

/** A value that fights back: a throwing getter, a throwing or revoked Proxy, a thrown Proxy. */
export function hostileValue(ctx: Ctx): { value: unknown; kind: string } {
  const kind = ctx.rng.pick(['getter', 'proxy', 'revoked-proxy', 'thrown-proxy', 'lying-proxy']);
  switch (kind) {
    case 'getter':
      return { value: throwingGetter('x', new Error('fuzz getter')), kind };
    case 'proxy':
      return { value: throwingProxy({ traps: ['ownKeys', 'get'], thrown: () => new TypeError('fuzz trap') }), kind };
    case 'revoked-proxy':
      return { value: revokedProxy(), kind };
    case 'thrown-proxy':
      // Not getOwnPropertyDescriptor: the cases of earlier runs stay as they were.
      return { value: throwingProxy({ traps: ['get', 'getPrototypeOf', 'ownKeys', 'has'] }), kind };
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
