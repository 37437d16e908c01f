/**
 * What each guarantee of the structuredContent copy costs (docs/benchmarks.md, "structuredContent
 * path"): walks that copy a get_products payload as the snapshot does (objects by spread, arrays
 * element by element, in document order), each adding one of the snapshot's checks to the one
 * before, against the bare validator in the same paired rounds (CPU time), then the snapshot itself.
 *
 *   npx tsx bench/walk-costs.ts [--quick]
 *
 * A step's cost is its ratio minus the one before it: the copy itself, the prototype checks (no
 * class instances or Array subclasses), non-enumerable members refused (getOwnPropertyNames), symbol-
 * keyed members refused (getOwnPropertySymbols), arrays with holes or named or symbol members
 * refused (Reflect.ownKeys), then the snapshot's bounds (depth, values, UTF-8 bytes) and the places
 * its errors name. The ladder walks stop at the first fault with a bare throw: they are built for
 * these payloads only, never for a seller's.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { snapshot } from '../src/bounds/snapshot.js';
import { hot, median, pairedRatio } from './harness.js';
import { benchPayloads } from './payloads.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const QUICK = process.argv.includes('--quick');
const require = createRequire(import.meta.url);
const validate = (
  require(path.join(ROOT, 'dist', 'generated', 'v3_1', 'validators', 'get_products.js')) as {
    response: (data: unknown) => boolean;
  }
).response;

const { getPrototypeOf, getOwnPropertyNames, getOwnPropertySymbols } = Object;
const objectProto = Object.prototype;
const arrayProto = Array.prototype;

/** Which checks a ladder walk makes, each with those before it. */
interface Checks {
  readonly prototypes: boolean;
  readonly nonEnumerable: boolean;
  readonly symbols: boolean;
  readonly arrayKeys: boolean;
}

/** A copy as the snapshot makes it, with only the checks named. */
function ladderCopy(value: object, checks: Checks): unknown {
  if (Array.isArray(value)) {
    if (checks.prototypes && getPrototypeOf(value) !== arrayProto) throw new Error('foreign array');
    const length = value.length;
    if (checks.arrayKeys) {
      const own = Reflect.ownKeys(value);
      if (own.length !== length + 1 || (length > 0 && own[length - 1] !== String(length - 1))) throw new Error('array members');
    }
    const list: unknown[] = [];
    for (let i = 0; i < length; i++) {
      const child: unknown = value[i];
      list.push(typeof child === 'object' && child !== null ? ladderCopy(child, checks) : child);
    }
    return list;
  }
  if (checks.prototypes) {
    const proto: unknown = getPrototypeOf(value);
    if (proto !== objectProto && proto !== null) throw new Error('foreign object');
  }
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  let count = 0;
  for (const name in copy) {
    count++;
    const child = copy[name];
    if (typeof child === 'object' && child !== null) copy[name] = ladderCopy(child, checks);
  }
  if (checks.nonEnumerable && getOwnPropertyNames(value).length !== count) throw new Error('hidden member');
  if (checks.symbols && getOwnPropertySymbols(value).length !== 0) throw new Error('symbol member');
  return copy;
}

const none: Checks = { prototypes: false, nonEnumerable: false, symbols: false, arrayKeys: false };
const steps: ReadonlyArray<readonly [string, Checks]> = [
  ['the copy alone (spread, push), no check', none],
  ['+ prototypes (no class instance, no Array subclass)', { ...none, prototypes: true }],
  ['+ non-enumerable members refused (getOwnPropertyNames)', { ...none, prototypes: true, nonEnumerable: true }],
  ['+ symbol-keyed members refused (getOwnPropertySymbols)', { ...none, prototypes: true, nonEnumerable: true, symbols: true }],
  [
    '+ array holes, named and symbol members refused (Reflect.ownKeys)',
    { prototypes: true, nonEnumerable: true, symbols: true, arrayKeys: true },
  ],
];
const bounds = { maxBytes: 4 * 1024 * 1024, maxDepth: 64, maxNodes: 1_000_000 };

for (const label of ['get_products 2KB', 'get_products 100KB', 'get_products 1MB']) {
  const payload = benchPayloads()[label]!.payload;
  for (const [, checks] of steps) ladderCopy(payload, checks);
  const big = JSON.stringify(payload).length > 500_000;
  const results = hot(
    [
      { name: 'bare validator', fn: () => validate(payload) },
      ...steps.map(([name, checks]) => ({ name, fn: () => ladderCopy(payload, checks) })),
      {
        name: "the snapshot (+ bounds: depth, values, UTF-8 bytes; the errors' places)",
        fn: () => snapshot(payload, bounds, { what: 'x' }),
      },
    ],
    { rounds: QUICK ? 9 : 25, time: 10, iterations: big ? 2 : 3 },
  );
  const bare = results[0]!;
  process.stdout.write(`\n${label}: bare validator ${median(bare.roundMedians).toFixed(4)} ms\n`);
  let previous = 0;
  for (const r of results.slice(1)) {
    const ratio = pairedRatio(r, bare);
    process.stdout.write(
      `  ${r.name.padEnd(72)} ${median(r.roundMedians).toFixed(4)} ms  ÷ validator ${ratio.toFixed(3)}  (step ${(ratio - previous).toFixed(3)})\n`,
    );
    previous = ratio;
  }
}
