/**
 * Bundles the compiled entries of dist/ (every JavaScript target of package.json's `exports` and
 * `imports`, and the CLI) into one file per entry plus shared chunks beside them, with esbuild: a
 * Node process that imports adcp-decode then loads a handful of modules, not the forty-odd files
 * that tsc writes (one per source file), which cost more than a third of the cold start. The
 * validator modules, the chunks they share (generated/chunks/), src/validate/runtime/index.js and
 * what it imports stay separate files, as the import maps and the first-use loader reach them by
 * path; the declarations (.d.ts) stay as tsc wrote them, but those no entry's declarations reach
 * (a consumer's tsc never opens them) are removed.
 *
 * `#validator-loader` stays an import (package.json#imports picks its target by the runtime's
 * conditions, when the package is loaded or bundled by its user); its targets are entries of
 * their own, built in place (LAYOUT.validatorLoaders), since the Node one resolves validator
 * modules relative to itself.
 *
 * Usage: part of `npm run compile`, after tsc and copy-validators.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { LAYOUT } from '../src/layout.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.join(ROOT, 'dist');

/** The internal import whose target the runtime's conditions pick (package.json#imports). */
const LOADER_IMPORT = '#validator-loader';

interface PackageJson {
  readonly exports: Readonly<Record<string, unknown>>;
  readonly imports: Readonly<Record<string, unknown>>;
  readonly bin: Readonly<Record<string, string>>;
}
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as PackageJson;

/** The JavaScript files package.json points at: every `exports` and `imports` target and the bin. */
function entries(): string[] {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (typeof node === 'string') {
      if (node.endsWith('.js')) found.add(node);
    } else if (node !== null && typeof node === 'object') {
      for (const value of Object.values(node)) visit(value);
    }
  };
  visit(pkg.exports);
  visit(pkg.imports);
  visit(pkg.bin);
  return [...found].sort().map((rel) => path.join(ROOT, rel));
}

/** `#validator-loader`'s targets, each in the loaders' folder of src/layout.ts (they reach validator modules relative to it). */
function checkLoaderTargets(): void {
  const targets = new Set<unknown>(Object.values(pkg.imports[LOADER_IMPORT] as Record<string, unknown>));
  const folder = `./dist/${LAYOUT.validatorLoaders}/`;
  const stray = [...targets].filter((t) => typeof t !== 'string' || !t.startsWith(folder) || t.slice(folder.length).includes('/'));
  if (stray.length > 0)
    throw new Error(`bundle-dist: package.json#imports ${LOADER_IMPORT} targets ${stray.join(', ')}, outside ${folder}`);
}
checkLoaderTargets();

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

/** A release's validator import map (`generated/<v>/validators/index.js`): bundled into the chunks of the entries that import it, no file of its own. */
function isImportMap(file: string): boolean {
  const parts = path.relative(DIST, file).split(path.sep);
  return parts[0] === LAYOUT.generated && parts[2] === 'validators' && parts[3] === 'index.js';
}

/** The modules whose imports the plugin rewrote relative to dist/: their code must land in a chunk at dist/'s root. */
const rootRelative = new Set<string>();

/** An external import of a file kept by path, written relative to dist/, where the importer's chunk must sit. */
function fromRoot(importer: string, target: string): { path: string; external: true } {
  rootRelative.add(importer);
  return { path: `./${path.relative(DIST, target).split(path.sep).join('/')}`, external: true };
}

/**
 * The import maps' `import('./<task>.js')` stay imports of the validator files, and imports of the
 * validators' runtime stay imports of its files, rewritten relative to dist/ (checked after the build).
 */
const validatorModules: Plugin = {
  name: 'validator-modules',
  setup(b) {
    // Resolved when the package is used, by that runtime's conditions; never bundled here.
    b.onResolve({ filter: new RegExp(`^${LOADER_IMPORT}$`) }, (args) => ({ path: args.path, external: true }));
    // The generate command is a bundle of its own (below), which the CLI imports for that command alone.
    b.onResolve({ filter: /\.js$/ }, (args) =>
      args.kind !== 'entry-point' && path.resolve(path.dirname(args.importer), args.path) === GENERATE_COMMAND
        ? { path: args.path, external: true }
        : undefined,
    );
    b.onResolve({ filter: /^\.\/[\w-]+(\.errors)?\.js$/ }, (args) => {
      const target = path.join(path.dirname(args.importer), args.path);
      if (!keptByPath(target) || path.basename(args.importer) !== 'index.js') return undefined;
      return fromRoot(args.importer, target);
    });
    b.onResolve({ filter: /\.js$/ }, (args) => {
      const target = path.resolve(path.dirname(args.importer), args.path);
      return RUNTIME.has(path.relative(DIST, target).split(path.sep).join('/')) ? fromRoot(args.importer, target) : undefined;
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

/** The generate command (src/generate/command.ts), which the CLI loads for that command alone. */
const GENERATE_COMMAND = path.join(DIST, LAYOUT.generateCommand);

/** One esbuild run over some entries: their bundles and shared chunks in dist/, checked. */
async function bundle(points: readonly string[], options: { readonly minify: boolean; readonly chunkNames: string }): Promise<Set<string>> {
  const result = await build({
    entryPoints: [...points],
    outdir: DIST,
    outbase: DIST,
    allowOverwrite: true,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    packages: 'external',
    target: 'es2022',
    chunkNames: options.chunkNames,
    minify: options.minify,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    plugins: [validatorModules],
  });
  // Code that reaches files by a path relative to itself must sit where its source sat: code whose
  // imports were rewritten relative to dist/ in a chunk or entry at dist/'s root, and code that reads
  // import.meta.url in an output in its own folder (the CLI and the generate command read
  // ../../package.json; the Node validator loader requires validator modules relative to itself).
  for (const [out, meta] of Object.entries(result.metafile.outputs)) {
    const dir = path.dirname(path.resolve(ROOT, out));
    for (const input of Object.keys(meta.inputs)) {
      const source = path.resolve(ROOT, input);
      const moved = path.dirname(source) !== dir;
      if ((rootRelative.has(source) && dir !== DIST) || (moved && readFileSync(source, 'utf8').includes('import.meta.url')))
        throw new Error(`bundle-dist: ${out} holds code of ${input} that reaches files relative to it, away from where its source sat`);
    }
  }
  return new Set(Object.keys(result.metafile.outputs).map((f) => path.resolve(ROOT, f)));
}

// The validators' runtime is an export too (a release module's validators import it), but stays as its files are.
const points = entries().filter((file) => !keptByPath(file));
const before = jsFiles(DIST);
const written = await bundle(points, { minify: false, chunkNames: 'shared-[hash]' });
// The generator, minified (a buyer never bundles it, and it is the package's largest code): its
// chunks sit at dist/'s root, beside those whose runtime imports are rewritten relative to it.
const generator = await bundle([GENERATE_COMMAND], { minify: true, chunkNames: 'generate-[hash]' });
for (const file of generator) written.add(file);
let removed = 0;
for (const file of before) {
  if (!written.has(file) && (!keptByPath(file) || isImportMap(file))) {
    rmSync(file);
    removed++;
  }
}

/** Every file under dir/ ending in `.d.ts`. */
function declarationFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return declarationFiles(file);
    return name.endsWith('.d.ts') ? [file] : [];
  });
}

/** The declarations the entries' `types` reach through their imports and `import()` types. */
function reachedDeclarations(): Set<string> {
  const start = Object.values(pkg.exports).flatMap((target) =>
    typeof target === 'object' && target !== null && typeof (target as { types?: unknown }).types === 'string'
      ? [path.join(ROOT, (target as { types: string }).types)]
      : [],
  );
  const reached = new Set<string>();
  for (let file = start.pop(); file !== undefined; file = start.pop()) {
    if (reached.has(file) || !existsSync(file)) continue;
    reached.add(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:from\s*|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g))
      start.push(path.resolve(path.dirname(file), spec!.replace(/\.js$/, '.d.ts')));
  }
  return reached;
}
const declared = reachedDeclarations();
let unreached = 0;
for (const file of declarationFiles(DIST))
  if (!declared.has(file)) {
    rmSync(file);
    unreached++;
  }
console.log(
  `bundle-dist: ${points.length + 1} entries and ${written.size - points.length - 1} shared chunks (the generator's minified); ${removed} per-module files and ${unreached} declarations no entry reaches removed`,
);
