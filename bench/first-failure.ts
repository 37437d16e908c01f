/**
 * What a first failing decode pays, part by part (issue 40's "first failing ÷ first passing" row):
 * fresh processes (bench/child.mjs), import + first decode of the same ~100 KB get_products, valid
 * and with every product broken; then both again with the task's validator module loaded before the
 * clock, and the failing one with more of what it loads loaded before: the patch fallback's
 * validators (earlier GA patches of 3.1 that might accept what 3.1.19 refuses), the task's listing
 * validator (every issue, not the first), both. What a part's modules cost to load is the failing
 * row minus the row with them loaded too; what is left with all loaded, minus the passing row, is
 * running the patch check and the listing over the payload.
 *
 *   npx tsx bench/run.ts --only=firstfail     (against dist/: npm run compile first)
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { release } from '../src/generated/v3_1/release.js';
import { firstCalls, type Measurement, measure, median } from './harness.js';

const SECTION = 'first failing decode, part by part: fresh node, import + first decode of get_products ~100 KB (÷ a passing one)';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VALIDATORS = path.join(ROOT, 'dist', 'generated', 'v3_1', 'validators');

/**
 * Measures the parts against dist/ (the built package).
 *
 * @param files The valid and the broken payload, as MCP CallToolResult JSON files.
 * @param runs Processes per case (interleaved).
 * @returns The passing decode, and each failing case with its ratio to it.
 */
export async function firstFailureBench(files: { readonly pass: string; readonly fail: string }, runs: number): Promise<Measurement[]> {
  const patches = (release.patches.get_products?.response ?? []).map((p) => path.join(VALIDATORS, `${p.module}.js`));
  const listing = [path.join(VALIDATORS, 'get_products.errors.js')];
  const dist = path.join(ROOT, 'dist', 'index.js');
  const common = { task: 'get_products', calls: 1, dist };
  // The parts are priced with the passing decode's own module (and so the chunks the patch modules share with it) loaded in every case.
  const verdict = [path.join(VALIDATORS, 'get_products.js')];
  const cases = [
    { name: 'passing decode', job: { ...common, mode: 'ours', input: files.pass } },
    { name: 'failing decode', job: { ...common, mode: 'ours-fail', input: files.fail } },
    { name: "passing, the task's validator loaded before", job: { ...common, mode: 'ours', input: files.pass, loaded: verdict } },
    { name: "failing, the task's validator loaded before", job: { ...common, mode: 'ours-fail', input: files.fail, loaded: verdict } },
    {
      name: `failing, the validator and the patch fallback's ${patches.length} modules loaded before`,
      job: { ...common, mode: 'ours-fail', input: files.fail, loaded: [...verdict, ...patches] },
    },
    {
      name: 'failing, the validator and the listing module loaded before',
      job: { ...common, mode: 'ours-fail', input: files.fail, loaded: [...verdict, ...listing] },
    },
    {
      name: 'failing, all three loaded before (left: running the patch check and the listing)',
      job: { ...common, mode: 'ours-fail', input: files.fail, loaded: [...verdict, ...patches, ...listing] },
    },
  ];
  const firsts = await firstCalls(
    ROOT,
    cases.map((c) => ({ name: `firstfail ${c.name}`, job: c.job })),
    runs,
  );
  const rows = cases.map((c, i) => ({ name: c.name, firsts: firsts[i] ?? [] }));
  const [pass, fail, passLoaded, ...parts] = rows as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0], ...typeof rows];
  const ratioTo = (base: (typeof rows)[0]) => (c: (typeof rows)[0]) =>
    measure(SECTION, c.name, c.firsts, 'ms', { baseline: base.name, ratio: median(c.firsts) / median(base.firsts) });
  return [
    measure(SECTION, pass.name, pass.firsts, 'ms'),
    ratioTo(pass)(fail),
    measure(SECTION, passLoaded.name, passLoaded.firsts, 'ms'),
    ...parts.map(ratioTo(passLoaded)),
  ];
}
