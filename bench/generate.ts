/**
 * The generator's rows (issue 39, item 7): what generating one release costs, and what shipping the
 * generator costs the package and a buyer's bundle. `adcp-decode generate` (the built bin, a fresh
 * process, wall time) writes AdCP 3.2.0-beta.6's release module from its schema folder (72 tools,
 * 880 files): goal ≤ 60 s on this 2-core machine. With BENCH_BEFORE (the dist/ of a build without
 * the generator, in a checkout of its own: its parent holds its package.json), the package's
 * tarball (packed and unpacked, npm pack --dry-run) and esbuild's bundles of adcp-decode/3.1 (as
 * bench/weight.ts makes them) against that build's: goal ≤ 1, they do not grow.
 *
 *   npx tsx bench/run.ts --only=generate                                   (the generation)
 *   BENCH_BEFORE=/tmp/before/dist npx tsx bench/run.ts --only=generate     (and the growth)
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { versionFolders } from '../src/generated/index.js';
import { LAYOUT } from '../src/layout.js';
import { beta6Folder } from '../test/fixtures/beta6-schemas.js';
import { V3_1 } from '../test/fixtures/versions.js';
import { goal, type Measurement, measure, median, run } from './harness.js';
import { bundle, sizeOf } from './weight.js';

const SECTION =
  'generator: one release generated (fresh process, wall time), and what shipping it costs (÷ the build before, BENCH_BEFORE)';

/** Goal of item 7: one release in a minute on 2 cores. */
const GENERATE_MS = 60_000;

/** A package's tarball, as npm pack --dry-run reports it. */
async function packed(root: string): Promise<{ size: number; unpackedSize: number }> {
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root });
  const [info] = JSON.parse(stdout) as Array<{ size: number; unpackedSize: number }>;
  return info!;
}

/** The sizes of esbuild's bundles of a build's adcp-decode/3.1: split and minified (raw, gzipped), one file. */
async function bundles(dist: string, tmp: string): Promise<{ split: number; gzipped: number; one: number }> {
  const entry = path.join(dist, LAYOUT.generated, versionFolders[V3_1], 'pinned.js');
  const split = sizeOf((await bundle(entry, path.join(tmp, 'growth-split'), true)).files.values());
  const one = sizeOf((await bundle(entry, path.join(tmp, 'growth-one'), false)).files.values());
  return { split: split.raw, gzipped: split.gzipped, one: one.raw };
}

/**
 * The generator's rows.
 *
 * @param dist The built dist/ (its cli/main.js runs the command).
 * @param tmp A scratch folder (the modules are written there, then removed).
 * @param runs How many generations to time.
 * @returns The generation time (goal ≤ 60 s); with BENCH_BEFORE, the package and bundle sizes ÷ that build's (goal ≤ 1).
 * @example
 * measurements.push(...(await generateBench(DIST, tmp, 3)));
 */
export async function generateBench(dist: string, tmp: string, runs: number): Promise<Measurement[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const out = path.join(tmp, `generated-${i}`);
    const { ms } = await run(process.execPath, [path.join(dist, 'cli', 'main.js'), 'generate', beta6Folder(), '--out', out]);
    if (!existsSync(path.join(out, 'index.js'))) throw new Error('bench: adcp-decode generate wrote no index.js');
    rmSync(out, { recursive: true, force: true });
    times.push(ms);
  }
  const rows = [
    measure(
      SECTION,
      'adcp-decode generate, AdCP 3.2.0-beta.6 from its folder (72 tools, 880 files)',
      times,
      'ms',
      goal(GENERATE_MS, median(times)),
    ),
  ];
  const before = process.env.BENCH_BEFORE === undefined ? undefined : path.resolve(process.env.BENCH_BEFORE);
  if (before === undefined) return rows;
  const [ours, theirs] = [await packed(path.dirname(dist)), await packed(path.dirname(before))];
  const [now, then] = [await bundles(dist, tmp), await bundles(before, tmp)];
  const grew = (name: string, unit: 'MB', value: number, base: number, baseline: string): Measurement =>
    measure(SECTION, name, [value / 1e6], unit, { baseline, ratio: value / base, ...goal(1, value / base) });
  rows.push(
    measure(SECTION, 'the build before: packed', [theirs.size / 1e6], 'MB'),
    grew('adcp-decode: packed', 'MB', ours.size, theirs.size, 'the build before: packed'),
    measure(SECTION, 'the build before: unpacked', [theirs.unpackedSize / 1e6], 'MB'),
    grew('adcp-decode: unpacked', 'MB', ours.unpackedSize, theirs.unpackedSize, 'the build before: unpacked'),
    measure(SECTION, 'the build before: esbuild, adcp-decode/3.1, --splitting --minify', [then.split / 1e6], 'MB'),
    grew(
      'esbuild, adcp-decode/3.1, --splitting --minify',
      'MB',
      now.split,
      then.split,
      'the build before: esbuild, adcp-decode/3.1, --splitting --minify',
    ),
    measure(SECTION, 'the build before: the same, gzipped', [then.gzipped / 1e6], 'MB'),
    grew('  the same, gzipped', 'MB', now.gzipped, then.gzipped, 'the build before: the same, gzipped'),
    measure(SECTION, 'the build before: esbuild, adcp-decode/3.1, one file', [then.one / 1e6], 'MB'),
    grew('esbuild, adcp-decode/3.1, one file', 'MB', now.one, then.one, 'the build before: esbuild, adcp-decode/3.1, one file'),
  );
  return rows;
}
