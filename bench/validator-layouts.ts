/**
 * What the validators of each pinned release weigh in the layouts codegen could write (issue 20,
 * "measure before choosing"): the code, raw, minified (esbuild) and gzipped, and what the first
 * get_products decode loads (fast, and fast + listing after a failure) with how many modules.
 *
 *   npx tsx bench/validator-layouts.ts        (about two minutes; prints a Markdown table)
 *
 * Layouts: per task (every task's module holds its own copy of every schema it reaches, refs
 * inlined: the layout before chunks), one module per release (refs inlined, Ajv's default; and
 * `inlineRefs: false`, one function per schema), and the shipped one (one function per schema,
 * compact error recording, chunks merged at a given module cost: 0 KB keeps one chunk per set of
 * entries that reach it).
 */
import { gzipSync } from 'node:zlib';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { transformSync } from 'esbuild';
import { readLockVersions, schemaDir } from '../scripts/schema-paths.js';
import { type EntryModule, entryFile, validatorFiles } from '../src/generate/chunks.js';
import { loadSchemas, readManifest, type SchemaFile } from '../src/generate/load.js';
import type { Named } from '../src/generate/names.js';
import { BUNDLED_VALIDATORS, type Stamp } from '../src/generate/output.js';
import { REWRITES, rewrite } from '../src/generate/rewrites.js';
import { compileReleases, createAjv, leafPaths, type Release, releaseOf, stripAnnotations } from '../src/generate/validators.js';

const standaloneCode = standaloneModule.default;

/** The banners' stamp: the measurements weigh code, not where it came from. */
const STAMP: Stamp = { generator: 'bench', tools: 'ajv', regenerate: 'bench/validator-layouts.ts', sources: new Map() };
const WRITING = { layout: BUNDLED_VALIDATORS, stamp: STAMP };

/** The rewrites of the layouts before chunks (no leaf paths, no compact recording). */
const BEFORE = REWRITES.filter(
  (r) => !['namedLeafPaths', 'compactErrors', 'derivedMessages', 'pathKeywords', 'compactMerges'].includes(r.name),
);

interface Weight {
  readonly layout: string;
  readonly release: string;
  readonly raw: number;
  readonly minified: number;
  readonly gzipped: number;
  /** Bytes (raw) and modules of the first get_products decode: passing, then failing (fast + listing). */
  readonly pass?: readonly [number, number];
  readonly fail?: readonly [number, number];
  readonly modules?: number;
}

function weigh(texts: readonly string[]): { raw: number; minified: number; gzipped: number } {
  let raw = 0;
  let minified = 0;
  let gzipped = 0;
  for (const text of texts) {
    const min = transformSync(text, { minify: true, format: 'esm', target: 'es2022' }).code;
    raw += Buffer.byteLength(text);
    minified += Buffer.byteLength(min);
    gzipped += gzipSync(min).length;
  }
  return { raw, minified, gzipped };
}

/** Ajv's module of some schemas, in one variant, rewritten as before chunks. */
function ajvModule(schemas: ReadonlyMap<string, SchemaFile>, ids: readonly string[], listing: boolean, inlineRefs: boolean): string {
  const ajv = createAjv(listing, [], inlineRefs);
  for (const file of schemas.values()) ajv.addSchema(stripAnnotations(file.schema) as object, file.id);
  const code = standaloneCode(ajv, Object.fromEntries(ids.map((id, i) => [`x${i}`, id])));
  const context = { leafPaths: listing && !inlineRefs ? leafPaths(ajv, ids) : new Map<string, string>() };
  return rewrite(code, listing ? 'listing' : 'fast', BEFORE, context);
}

function perTask(release: Release): Weight {
  const texts: string[] = [];
  const gp: number[] = [];
  for (const entry of release.entries)
    for (const listing of [false, true]) {
      const text = ajvModule(release.schemas, Object.values(entry.exports), listing, true);
      texts.push(text);
      if (entry.name === 'get_products') gp.push(Buffer.byteLength(text));
    }
  return {
    layout: 'per task, refs inlined (before)',
    release: release.version,
    ...weigh(texts),
    pass: [gp[0]!, 1],
    fail: [gp[0]! + gp[1]!, 2],
    modules: texts.length,
  };
}

function perRelease(release: Release, inlineRefs: boolean): Weight {
  const ids = [...new Set(release.entries.flatMap((e) => Object.values(e.exports)))].sort();
  const texts = [false, true].map((listing) => ajvModule(release.schemas, ids, listing, inlineRefs));
  const layout = inlineRefs ? 'one module per release and variant, refs inlined' : 'one module per release and variant, inlineRefs: false';
  return { layout, release: release.version, ...weigh(texts), modules: 2 };
}

/** The modules an entry loads: itself and what it imports, transitively. */
function loads(files: ReadonlyMap<string, string>, file: string): Set<string> {
  const seen = new Set<string>();
  const stack = [file];
  for (let f = stack.pop(); f !== undefined; f = stack.pop()) {
    if (seen.has(f)) continue;
    seen.add(f);
    for (const [, spec] of files.get(f)!.matchAll(/from "(\.[^"]+)"/g))
      if (!spec!.includes('validate/runtime')) stack.push(new URL(spec!, `file:///${f}`).pathname.slice(1));
  }
  return seen;
}

function chunked(releases: readonly Release[], entries: readonly EntryModule[], named: ReadonlyMap<string, Named>, cost: number): Weight[] {
  const files = validatorFiles(entries, named, WRITING, cost * 1024);
  return releases.map((release) => {
    const fast = loads(files, entryFile(BUNDLED_VALIDATORS, release.version, 'get_products', false));
    const fail = new Set([...fast, ...loads(files, entryFile(BUNDLED_VALIDATORS, release.version, 'get_products', true))]);
    const all = new Set(entries.filter((e) => e.version === release.version).flatMap((e) => [...loads(files, e.file)]));
    const bytes = (set: Set<string>) => [...set].reduce((n, f) => n + Buffer.byteLength(files.get(f)!), 0);
    return {
      layout: `chunks, merged at ${cost} KB per module${cost === 32 ? ' (shipped)' : ''}`,
      release: release.version,
      ...weigh([...all].map((f) => files.get(f)!)),
      pass: [bytes(fast), fast.size],
      fail: [bytes(fail), fail.size],
      modules: all.size,
    };
  });
}

const mb = (n: number) => (n / 1e6).toFixed(2);
const releases: Release[] = readLockVersions().versions.map((version) =>
  releaseOf(version, readManifest(version, schemaDir(version)), loadSchemas(version, schemaDir(version))),
);
const rows: Weight[] = [];
for (const release of releases) rows.push(perTask(release), perRelease(release, true), perRelease(release, false));
const { entries, named } = compileReleases(releases, BUNDLED_VALIDATORS);
for (const cost of [0, 12, 32, 64]) rows.push(...chunked(releases, entries, named, cost));
process.stdout.write(
  '| layout | release | raw MB | minified MB | gzipped MB | modules | first get_products: pass / fail (MB, modules) |\n|---|---|---|---|---|---|---|\n',
);
for (const r of rows) {
  const first = r.pass === undefined || r.fail === undefined ? '' : `${mb(r.pass[0])} (${r.pass[1]}) / ${mb(r.fail[0])} (${r.fail[1]})`;
  process.stdout.write(
    `| ${r.layout} | ${r.release} | ${mb(r.raw)} | ${mb(r.minified)} | ${mb(r.gzipped)} | ${r.modules ?? ''} | ${first} |\n`,
  );
}
