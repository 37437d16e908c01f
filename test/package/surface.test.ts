/**
 * The public surface, held: every entry of package.json#exports, read from the built declarations
 * (dist/) the way a consumer's compiler reads them, with each exported name and its kind. Adding,
 * removing or re-kinding an export fails the snapshot (surface.snap.json) until it is updated
 * (`npx vitest run test/package/surface.test.ts -u`) in the same change as the README and the
 * CHANGELOG; every run-time value must be named in the README or docs/ (the ratchet below only shrinks).
 * Needs a build (`npm test` runs one first).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';
import { REPO_ROOT } from '../../scripts/schema-paths.js';

type Kind = 'class' | 'function' | 'const' | 'namespace' | 'enum' | 'interface' | 'type';

/** The entries a consumer can import, and the declaration file each one's `types` names. */
function entries(): Array<[string, string]> {
  const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { types?: string }>;
  };
  return Object.entries(manifest.exports).flatMap(
    ([entry, target]): Array<[string, string]> =>
      typeof target === 'object' && target.types !== undefined ? [[entry, path.join(REPO_ROOT, target.types)]] : [],
  );
}

/** What a symbol is to a consumer: a run-time value (class, function, const, namespace, enum) or a type only. */
function kindOf(symbol: ts.Symbol): Kind {
  const flags = symbol.flags;
  if (flags & ts.SymbolFlags.Class) return 'class';
  if (flags & ts.SymbolFlags.Function) return 'function';
  if (flags & ts.SymbolFlags.Enum) return 'enum';
  if (flags & ts.SymbolFlags.ValueModule) return 'namespace';
  if (flags & ts.SymbolFlags.Variable) return 'const';
  if (flags & ts.SymbolFlags.Interface) return 'interface';
  return 'type';
}

const RUN_TIME: ReadonlySet<Kind> = new Set(['class', 'function', 'const', 'namespace', 'enum']);

/** Code-point order, the same on every machine (localeCompare is the locale's). */
const byName = (a: ts.Symbol, b: ts.Symbol): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Every entry's exports, `name: kind`, sorted: what the snapshot holds. */
function surface(): Record<string, Record<string, Kind>> {
  const files = entries();
  const program = ts.createProgram(
    files.map(([, file]) => file),
    { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, skipLibCheck: true },
  );
  const checker = program.getTypeChecker();
  const out: Record<string, Record<string, Kind>> = {};
  for (const [entry, file] of files) {
    const source = program.getSourceFile(file);
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`${entry}: ${file} has no module symbol (is dist/ built?)`);
    const names: Record<string, Kind> = {};
    for (const exported of [...checker.getExportsOfModule(module)].sort(byName)) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      names[exported.name] = kindOf(target);
    }
    out[entry] = names;
  }
  return out;
}

/** The README and every page of docs/, where a run-time export must be named. */
function documentation(): string {
  const docs = path.join(REPO_ROOT, 'docs');
  const pages = readdirSync(docs).filter((name) => name.endsWith('.md'));
  return [path.join(REPO_ROOT, 'README.md'), ...pages.map((name) => path.join(docs, name))]
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}

/**
 * Run-time values exported before the surface was held and still named nowhere in the README or
 * docs/: a ratchet, not a licence. A name leaves this list when it is documented or cut (the test
 * below fails while it is listed and documented); no name joins it.
 */
const UNDOCUMENTED_BEFORE_THE_SNAPSHOT: ReadonlySet<string> = new Set(
  readFileSync(new URL('./surface.undocumented.txt', import.meta.url), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#')),
);

const current = surface();

test('every entry of package.json#exports has declarations with exports', () => {
  expect(Object.keys(current)).toEqual(entries().map(([entry]) => entry));
  for (const [entry, names] of Object.entries(current)) expect(Object.keys(names).length, entry).toBeGreaterThan(0);
});

test('the export names and kinds of every entry are the snapshot (update it with the README and CHANGELOG)', async () => {
  await expect(`${JSON.stringify(current, null, 2)}\n`).toMatchFileSnapshot('./surface.snap.json');
});

test('every run-time value an entry exports is named in the README or docs/', () => {
  const text = documentation();
  const named = (name: string) => new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\b`).test(text);
  const values = new Set(
    Object.values(current).flatMap((names) => Object.entries(names).flatMap(([name, kind]) => (RUN_TIME.has(kind) ? [name] : []))),
  );
  const undocumented = [...values].filter((name) => !named(name)).sort();
  expect(undocumented.filter((name) => !UNDOCUMENTED_BEFORE_THE_SNAPSHOT.has(name))).toEqual([]);
  // The ratchet only shrinks: a listed name that is now documented or no longer exported leaves the list.
  const stale = [...UNDOCUMENTED_BEFORE_THE_SNAPSHOT].filter((name) => !values.has(name) || named(name)).sort();
  expect(stale).toEqual([]);
});
