/**
 * Where the former check-only structuredContent walk's cost went: the checks of its fast pre-pass
 * (quickPass, since replaced by snapshot() in src/bounds/bounds.ts, which also copies), written out with
 * each check switchable, timed against the bare get_products validator on the benchmark
 * payloads. docs/benchmarks.md quotes it, beside the snapshot's own figures.
 *
 *   npx tsx bench/walk-costs.ts          (needs src/generated: npm run build)
 *
 * Prints, per payload, each variant's best time ÷ the validator's (best of 25 rounds).
 */
import { createRequire } from 'node:module';
import { benchPayloads } from './payloads.js';

const require = createRequire(import.meta.url);
const v = (require('../src/generated/v3_1_19/validators/get_products.js') as { response: (data: unknown) => boolean }).response;
const hasOwn = Object.prototype.hasOwnProperty;
const objectProto = Object.prototype;
function make(arrKeys: boolean, own: boolean, proto: boolean, getter: boolean) {
  return function q(root: unknown): boolean {
    const stack: object[] = [root as object];
    const depths: number[] = [0];
    let nodes = 1,
      chars = 0;
    while (stack.length > 0) {
      const value = stack.pop() as Record<string, unknown>;
      const depth = depths.pop() as number;
      if (depth + 1 > 64) return false;
      if (own && (hasOwn.call(value, '__proto__') || hasOwn.call(value, 'constructor'))) return false;
      const next = depth + 1;
      if (Array.isArray(value)) {
        const length = value.length;
        if (arrKeys && Object.keys(value).length !== length) return false;
        nodes += length;
        for (let i = 0; i < length; i++) {
          const child: unknown = value[i];
          if (typeof child === 'object') {
            if (child !== null) {
              stack.push(child);
              depths.push(next);
            }
          } else if (typeof child === 'string') chars += child.length;
          else if (typeof child === 'number') {
            if (child - child !== 0) return false;
          } else if (typeof child !== 'boolean') return false;
        }
      } else {
        if (proto) {
          const p = Object.getPrototypeOf(value);
          if (p !== objectProto && p !== null) return false;
        }
        if (
          getter &&
          ((value as { __proto__?: unknown }).__proto__ !== objectProto || (value as { constructor?: unknown }).constructor !== Object)
        )
          return false;
        for (const key in value) {
          nodes++;
          chars += key.length;
          const child = value[key];
          if (typeof child === 'object') {
            if (child !== null) {
              stack.push(child);
              depths.push(next);
            }
          } else if (typeof child === 'string') chars += child.length;
          else if (typeof child === 'number') {
            if (child - child !== 0) return false;
          } else if (typeof child !== 'boolean') return false;
        }
      }
      if (nodes > 1e6 || chars > 4e6) return false;
    }
    return true;
  };
}
const variants: [string, (x: unknown) => boolean][] = [
  ['all checks', make(true, true, true, false)],
  ['- array keys', make(false, true, true, false)],
  ['- hasOwn', make(true, false, true, false)],
  ['- getPrototypeOf', make(true, true, false, false)],
  ['none', make(false, false, false, false)],
  ['own __proto__/constructor by reading them, no array keys', make(false, false, false, true)],
];
const payloads = benchPayloads();
for (const label of ['get_products 2KB', 'get_products 100KB', 'get_products 1MB']) {
  const data = JSON.parse(JSON.stringify(payloads[label]!.payload));
  for (const [, f] of variants) if (!f(data)) throw new Error('variant says no');
  const fns: [string, () => unknown][] = [
    ['validator', () => v(data)],
    ...variants.map(([n, f]) => [n, () => f(data)] as [string, () => unknown]),
  ];
  const n = label.includes('1MB') ? 10 : label.includes('100KB') ? 100 : 5000;
  const best: Record<string, number> = {};
  for (let r = 0; r < 25; r++)
    for (const [name, fn] of fns) {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) fn();
      const dt = (performance.now() - t0) / n;
      best[name] = Math.min(best[name] ?? Infinity, dt);
    }
  console.log(
    label,
    Object.entries(best)
      .map(([k, t]) => `${k} ${(t / best.validator!).toFixed(3)}`)
      .join(' | '),
  );
}
