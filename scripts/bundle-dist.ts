/**
 * Bundles the compiled entries of dist/ (every JavaScript target of package.json's `exports`, and
 * the CLI) into one file per entry plus shared chunks beside them, with esbuild: a Node process
 * that imports adcp-decode then loads a handful of modules, not the forty-odd files that tsc
 * writes (one per source file), which cost more than a third of the cold start. The validator
 * modules, the chunks they share, src/validate/runtime/index.js and what it imports stay separate
 * files, as the import maps and the first-use loader reach them by path; the declarations (.d.ts)
 * stay as tsc wrote them.
 *
 * Usage: part of `npm run compile`, after tsc and copy-validators.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { LAYOUT } from '../src/layout.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.join(ROOT, 'dist');

/** The JavaScript files package.json points users at: every `exports` target and the bin. */
function entries(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { exports: unknown; bin: Record<string, string> };
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (typeof node === 'string') {
      if (node.endsWith('.js')) found.add(node);
    } else if (node !== null && typeof node === 'object') {
      for (const value of Object.values(node)) visit(value);
    }
  };
  visit(pkg.exports);
  visit(pkg.bin);
  return [...found].sort().map((rel) => path.join(ROOT, rel));
}

/** The runtime the validator modules import, and what it imports in turn (relative to dist/). */
function runtimeFiles(): Set<string> {
  const files = new Set<string>();
  const queue: string[] = [LAYOUT.validatorRuntime];
  for (let rel = queue.pop(); rel !== undefined; rel = queue.pop()) {
    if (files.has(rel)) continue;
    files.add(rel);
    const code = readFileSync(path.join(DIST, rel), 'utf8');
    for (const [, spec] of code.matchAll(/from ['"](\.\/[\w-]+\.js)['"]/g)) queue.push(path.posix.join(path.posix.dirname(rel), spec!));
  }
  return files;
}
const RUNTIME = runtimeFiles();

/** Files loaded by path at run time (validator modules, the chunks they share, their runtime): kept, never bundled. */
function keptByPath(file: string): boolean {
  const rel = path.relative(DIST, file).split(path.sep).join('/');
  return (
    (rel.startsWith(`${LAYOUT.generated}/`) && rel.split('/')[2] === 'validators') ||
    rel.startsWith(`${LAYOUT.validatorChunks}/`) ||
    RUNTIME.has(rel)
  );
}

/**
 * The import maps' `import('./<task>.js')` stay imports of the validator files, rewritten relative
 * to dist/, where the chunk that holds the import maps is written (checked after the build).
 */
const validatorModules: Plugin = {
  name: 'validator-modules',
  setup(b) {
    b.onResolve({ filter: /^\.\/[\w-]+(\.errors)?\.js$/ }, (args) => {
      const dir = path.dirname(args.importer);
      if (!keptByPath(path.join(dir, args.path)) || path.basename(args.importer) !== 'index.js') return undefined;
      return { path: `./${path.relative(DIST, path.join(dir, args.path)).split(path.sep).join('/')}`, external: true };
    });
    b.onResolve({ filter: /\.js$/ }, (args) => {
      const rel = path
        .relative(DIST, path.resolve(path.dirname(args.importer), args.path))
        .split(path.sep)
        .join('/');
      return RUNTIME.has(rel) ? { path: `./${rel}`, external: true } : undefined;
    });
  },
};

function jsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return jsFiles(file);
    return name.endsWith('.js') ? [file] : [];
  });
}

const points = entries();
const before = jsFiles(DIST);
const result = await build({
  entryPoints: points,
  outdir: DIST,
  outbase: DIST,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'neutral',
  packages: 'external',
  target: 'es2022',
  chunkNames: 'shared-[hash]',
  // Our own side effects (the Node entry installs its first-use loader) must survive: no tree-shaking hints.
  ignoreAnnotations: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  plugins: [validatorModules],
});
const written = new Set(Object.keys(result.metafile.outputs).map((f) => path.resolve(ROOT, f)));
// Code that reaches files by a path relative to itself must sit where its source sat: at dist/'s
// root (a chunk, or a root entry), or in the entry compiled from it (the CLI reads ../../package.json).
for (const [out, meta] of Object.entries(result.metafile.outputs)) {
  const file = path.resolve(ROOT, out);
  if (path.dirname(file) === DIST) continue;
  const own = meta.entryPoint === undefined ? undefined : path.resolve(ROOT, meta.entryPoint);
  for (const input of Object.keys(meta.inputs)) {
    const source = path.resolve(ROOT, input);
    if (source === own) continue;
    const code = readFileSync(source, 'utf8');
    if (!points.includes(file) || code.includes('import.meta.url') || code.includes('"./generated/')) {
      throw new Error(
        `bundle-dist: ${path.relative(ROOT, file)} is not at dist/'s root but holds code of ${input} that reaches files relative to it`,
      );
    }
  }
}
let removed = 0;
for (const file of before) {
  if (!written.has(file) && !keptByPath(file)) {
    rmSync(file);
    removed++;
  }
}
console.log(`bundle-dist: ${points.length} entries and ${written.size - points.length} shared chunks; ${removed} per-module files removed`);
