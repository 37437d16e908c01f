/**
 * What the validators weigh where a buyer ships them (issue 20, items 4 and 5): esbuild browser
 * bundles of `adcp-decode/3.1` as built from dist/ (with `--splitting --minify`, every emitted
 * chunk; and one file, not minified, as `wrangler deploy` ships), Vite's production build of the
 * same import (its defaults), what the first get_products
 * decode loads in the split bundle (passing: the entry, its static imports and the task's fast
 * validators; failing: and the listing), how much of the bundle is another release's code, and per
 * release the validator code it ships (dist/generated, raw and gzipped) and its share that the
 * other releases ship too. Sizes are exact: one run each.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { type Rolldown, build as viteBuild } from 'vite';
import { versionFolders, versions } from '../src/generated/index.js';
import { LAYOUT } from '../src/layout.js';
import { V3_1 } from '../test/fixtures/versions.js';
import { goal, type Measurement, measure } from './harness.js';

const S = 'weight: the validators where a buyer ships them (exact sizes; goals of issue 20)';

interface Bundle {
  readonly meta: Metafile;
  readonly files: ReadonlyMap<string, Uint8Array>;
  readonly outdir: string;
}

/** An esbuild browser bundle of `entry`, as a buyer's bundler makes it (split and minified, or one file). */
export async function bundle(entry: string, outdir: string, splitting: boolean): Promise<Bundle> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    splitting,
    minify: splitting,
    outdir,
    write: false,
    metafile: true,
    // As a user's bundler sees dist/: not through tsconfig.json's `paths`.
    tsconfigRaw: '{}',
    logLevel: 'silent',
  });
  return { meta: result.metafile, files: new Map(result.outputFiles.map((f) => [f.path, f.contents])), outdir };
}

/** The raw and the gzipped size of some files, summed. */
export const sizeOf = (files: Iterable<Uint8Array>) => {
  let raw = 0;
  let gzipped = 0;
  for (const f of files) {
    raw += f.length;
    gzipped += gzipSync(f).length;
  }
  return { raw, gzipped };
};

/** The outputs a load reaches from `start`: it and its static imports, transitively. */
function staticClosure(meta: Metafile, start: string, into: Set<string>): void {
  const stack = [start];
  for (let out = stack.pop(); out !== undefined; out = stack.pop()) {
    if (into.has(out)) continue;
    into.add(out);
    for (const i of meta.outputs[out]!.imports) if (i.kind === 'import-statement' && !i.external) stack.push(i.path);
  }
}

/** The output whose entry point (a dynamic import's target) is `input`. */
function outputOf(meta: Metafile, input: string): string {
  const found = Object.entries(meta.outputs).find(([, o]) => o.entryPoint === input);
  if (found === undefined) throw new Error(`bench: the split bundle has no output for ${input}`);
  return found[0];
}

/** A size: exact, one run. */
const row = (name: string, unit: 'MB' | 'files', value: number, extra: Partial<Measurement> = {}): Measurement =>
  measure(S, name, [value], unit, extra);

/** The bundle rows of `adcp-decode/3.1` and what its first get_products decodes load. */
async function bundleRows(dist: string, tmp: string): Promise<Measurement[]> {
  const folder = versionFolders[V3_1];
  const entry = path.join(dist, LAYOUT.generated, folder, 'pinned.js');
  const split = await bundle(entry, path.join(tmp, 'weight-split'), true);
  const single = await bundle(entry, path.join(tmp, 'weight-single'), false);
  const all = sizeOf(split.files.values());
  const one = sizeOf(single.files.values());
  const out: Measurement[] = [
    row('esbuild, adcp-decode/3.1, --splitting --minify: every chunk', 'MB', all.raw / 1e6, goal(6, all.raw / 1e6)),
    row('  the same, gzipped', 'MB', all.gzipped / 1e6, goal(1, all.gzipped / 1e6)),
    row('  chunks emitted', 'files', split.files.size),
    row('esbuild, adcp-decode/3.1, one file, not minified', 'MB', one.raw / 1e6, goal(12, one.raw / 1e6)),
    row('  the same, gzipped', 'MB', one.gzipped / 1e6),
  ];
  // What the first get_products decode loads: the entry and its static imports, then the task's modules.
  const rel = (f: string) => path.relative(process.cwd(), f).split(path.sep).join('/');
  const entryOut = Object.entries(split.meta.outputs).find(([, o]) => o.entryPoint === rel(entry))?.[0];
  if (entryOut === undefined) throw new Error('bench: the split bundle has no output for adcp-decode/3.1');
  const validators = path.join(dist, LAYOUT.generated, folder, 'validators');
  const loaded = new Set<string>();
  staticClosure(split.meta, entryOut, loaded);
  staticClosure(split.meta, outputOf(split.meta, rel(path.join(validators, 'get_products.js'))), loaded);
  const pass = [...loaded].reduce((n, o) => n + split.meta.outputs[o]!.bytes, 0);
  staticClosure(split.meta, outputOf(split.meta, rel(path.join(validators, 'get_products.errors.js'))), loaded);
  const fail = [...loaded].reduce((n, o) => n + split.meta.outputs[o]!.bytes, 0);
  out.push(
    row('first get_products decode in that bundle, passing: loads', 'MB', pass / 1e6, goal(0.8, pass / 1e6)),
    row('  failing (and the listing): loads', 'MB', fail / 1e6, { ...goal(0.8, fail / 1e6), baseline: 'passing', ratio: fail / pass }),
  );
  // Another release's code in the bundle (item 4: adcp-decode/3.1 should ship 3.1 only).
  const others = versions.filter((v) => v !== V3_1).map((v) => `/${versionFolders[v]}/`);
  let foreign = 0;
  for (const o of Object.values(split.meta.outputs))
    for (const [input, { bytesInOutput }] of Object.entries(o.inputs)) if (others.some((f) => input.includes(f))) foreign += bytesInOutput;
  out.push(
    row('  of every chunk: another release’s modules (minified)', 'MB', foreign / 1e6, {
      ...goal(0, foreign / 1e6),
      baseline: 'every chunk',
      ratio: foreign / all.raw,
    }),
  );
  return out;
}

/** The emitted files of a Vite build (one output, or several). */
function viteFiles(result: Awaited<ReturnType<typeof viteBuild>>): Uint8Array[] {
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  return outputs.flatMap((o) =>
    o.output.map((f) => (f.type === 'chunk' ? Buffer.from(f.code) : typeof f.source === 'string' ? Buffer.from(f.source) : f.source)),
  );
}

/** Vite's production build of an app whose one module imports `adcp-decode/3.1` (its defaults: split, minified, browser). */
async function viteRows(dist: string, tmp: string): Promise<Measurement[]> {
  const entry = path.join(dist, LAYOUT.generated, versionFolders[V3_1], 'pinned.js');
  const result = await viteBuild({
    configFile: false,
    logLevel: 'silent',
    root: tmp,
    build: { write: false, reportCompressedSize: false, rollupOptions: { input: entry } },
  });
  const files = viteFiles(result);
  const all = sizeOf(files);
  return [
    row('Vite, adcp-decode/3.1, production build (split, minified): every chunk', 'MB', all.raw / 1e6, goal(6, all.raw / 1e6)),
    row('  the same, gzipped', 'MB', all.gzipped / 1e6, goal(1, all.gzipped / 1e6)),
    row('  chunks emitted', 'files', files.length),
  ];
}

/** The validator files (dist/generated) the entry modules of `folder` reach through their imports. */
function releaseFiles(dist: string, folder: string): Set<string> {
  const dir = path.join(dist, LAYOUT.generated, folder, 'validators');
  const seen = new Set<string>();
  const stack = readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => path.join(dir, f));
  for (let f = stack.pop(); f !== undefined; f = stack.pop()) {
    if (seen.has(f)) continue;
    seen.add(f);
    const text = readFileSync(f, 'utf8');
    for (const [, spec] of text.matchAll(/(?:from ?|import\()"(\.[^"]+)"/g)) {
      const target = path.resolve(path.dirname(f), spec!);
      if (target.startsWith(path.join(dist, LAYOUT.generated))) stack.push(target);
    }
  }
  return seen;
}

/** Per release: the validator code it ships and the share of it the other releases ship too (item 5). */
function releaseRows(dist: string): Measurement[] {
  const byRelease = new Map(versions.map((v) => [v, releaseFiles(dist, versionFolders[v])]));
  const out: Measurement[] = [];
  for (const [version, files] of byRelease) {
    const others = new Set([...byRelease].filter(([v]) => v !== version).flatMap(([, f]) => [...f]));
    const texts = [...files].map((f) => readFileSync(f));
    const shared = sizeOf([...files].filter((f) => others.has(f)).map((f) => readFileSync(f)));
    const own = sizeOf(texts);
    out.push(
      row(`AdCP ${version}: its validator code (raw)`, 'MB', own.raw / 1e6),
      row('  gzipped', 'MB', own.gzipped / 1e6),
      row('  shared with another release (raw)', 'MB', shared.raw / 1e6, { baseline: 'its validator code', ratio: shared.raw / own.raw }),
      row('  what it adds beside the others (raw)', 'MB', (own.raw - shared.raw) / 1e6),
    );
  }
  return out;
}

/**
 * The weight rows: bundles of adcp-decode/3.1 and the first get_products decode's load in them,
 * and per release its validator code and what it shares.
 *
 * @param dist The built dist/ folder.
 * @param tmp A scratch folder (nothing is written: esbuild keeps the outputs in memory).
 * @returns The rows, section `weight`.
 * @example
 * measurements.push(...(await weightBench(DIST, tmp)));
 */
export async function weightBench(dist: string, tmp: string): Promise<Measurement[]> {
  return [...(await bundleRows(dist, tmp)), ...(await viteRows(dist, tmp)), ...releaseRows(dist)];
}
