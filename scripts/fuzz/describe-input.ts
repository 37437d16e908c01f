/** How a finding file shows a case's input: any value, rendered as bounded JSON. */
import type { Json } from './context.js';
import { describeThrown } from './oracle.js';

/**
 * A JSON rendering of any input for a finding file: special values become `{ "$fuzz": ... }` markers.
 *
 * @param input - Any value, hostile ones included.
 * @returns A JSON-serializable rendering, bounded (5,000 values, 50 levels, long strings cut).
 * @throws Never.
 * @example
 * describeInput({ n: 1n }); // { n: { $fuzz: 'bigint', value: '1' } }
 */
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
