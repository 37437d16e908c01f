/**
 * A generated release decodes at the ratios a bundled one does: AdCP 3.2.0-beta.6's module, written
 * by the built `adcp-decode generate` into a project whose `adcp-decode` is this build, and a
 * ~100 KB beta.6 get_products answer (its fixture's products repeated, each with its own id) decoded
 * from MCP text against its floor (JSON.parse + the module's own validator), in the same rounds as
 * the bundled 3.1.19 get_products 100 KB against its floor, each decode pinned to its version. The
 * rounds run in a process of their own (bench/generated-release-hot.ts), where both have the same history.
 * The ratios to the floor depend on the schema (beta.6's get_products validator costs about half
 * of 3.1's per byte, so the same work above it is a larger share); what decode adds above the
 * floor (the text checks: repeated keys, prototype keys, bounds) is code no release changes, and
 * its cost follows the text's strings, as JSON.parse's does. Both are reported; the goal (≤ 1.1)
 * is on that cost as a share of parsing the same text, the generated release's ÷ the bundled
 * one's (docs/benchmarks.md says what the profile shows).
 *
 *   npx tsx bench/run.ts --only=generated
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { BETA6_VERSION, beta6Folder } from '../test/fixtures/beta6-schemas.js';
import { goal, type HotResult, lastJsonLine, type Measurement, measure, median, pairedRatio, run, summarize } from './harness.js';

/** The rows of the hot process (bench/generated-release-hot.ts), in the order it prints them. */
export const CASES = [
  'JSON.parse alone, 3.2.0-beta.6 get_products ~100 KB',
  'floor: JSON.parse + validator, 3.2.0-beta.6 get_products ~100 KB',
  'decode content[0].text, 3.2.0-beta.6 get_products ~100 KB',
  'JSON.parse alone, 3.1.19 get_products 100 KB',
  'floor: JSON.parse + validator, 3.1.19 get_products 100 KB',
  'decode content[0].text, 3.1.19 get_products 100 KB',
] as const;

const SECTION = 'a generated release (3.2.0-beta.6) decodes at a bundled one’s ratio to its floor (text path, ~100 KB)';

/**
 * The rows: the generated release's text decode ÷ its floor, the bundled one's ÷ its floor, and
 * what each adds above its floor as a share of parsing its text, the first ÷ the second (goal ≤ 1.1).
 *
 * @param root The repository (its package.json and dist/ are the package the module imports).
 * @param tmp A scratch folder.
 * @param rounds Rounds of the hot loop.
 * @returns The rows.
 * @throws Error when the generator writes no module, or a payload fails its validator.
 * @example
 * measurements.push(...(await generatedReleaseBench(ROOT, tmp, 41)));
 */
export async function generatedReleaseBench(root: string, tmp: string, rounds: number): Promise<Measurement[]> {
  const project = path.join(tmp, 'generated-release');
  mkdirSync(path.join(project, 'node_modules'), { recursive: true });
  // The module's `adcp-decode` is this build, so it defines its release where `decode` reads.
  symlinkSync(root, path.join(project, 'node_modules', 'adcp-decode'), 'dir');
  const out = path.join(project, 'adcp', BETA6_VERSION);
  await run(process.execPath, [path.join(root, 'dist', 'cli', 'main.js'), 'generate', beta6Folder(), '--out', out]);
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench', 'generated-release-hot.ts'), JSON.stringify({ root, module: out, rounds })],
    { cwd: root },
  );
  const [parseG, floorG, oursG, parseB, floorB, oursB] = lastJsonLine<HotResult[]>(stdout) as [
    HotResult,
    HotResult,
    HotResult,
    HotResult,
    HotResult,
    HotResult,
  ];
  if (parseG.name !== CASES[0] || oursB.name !== CASES[5]) throw new Error('bench: the hot process answered other rows');
  // What decode adds above its floor, as a share of parsing the same text: the text checks follow
  // the text as JSON.parse does, so this compares releases on texts of different strings.
  const above = (ours: HotResult, floor: HotResult, parse: HotResult) =>
    (median(ours.roundMedians) - median(floor.roundMedians)) / median(parse.roundMedians);
  const [addedG, addedB] = [above(oursG, floorG, parseG), above(oursB, floorB, parseB)];
  const added = addedG / addedB;
  return [
    summarize(SECTION, parseG),
    summarize(SECTION, floorG),
    summarize(SECTION, oursG, { baseline: 'its floor', ratio: pairedRatio(oursG, floorG) }),
    summarize(SECTION, parseB),
    summarize(SECTION, floorB),
    summarize(SECTION, oursB, { baseline: 'its floor', ratio: pairedRatio(oursB, floorB) }),
    measure(SECTION, 'above the floor ÷ JSON.parse of the text, 3.1.19 (bundled)', [addedB], 'ratio'),
    measure(SECTION, 'above the floor ÷ JSON.parse of the text, 3.2.0-beta.6 (generated)', [addedG], 'ratio', {
      baseline: 'bundled',
      ratio: added,
      ...goal(1.1, added),
    }),
  ];
}
