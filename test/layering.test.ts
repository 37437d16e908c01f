/**
 * The layering of src/ as a test, and the authority docs/architecture.md defers to: each file's
 * imports are read with the TypeScript compiler and every edge must go down the pipeline. A stage
 * imports its own folder and the stages of lower rank, never one above it nor another of its rank;
 * nothing outside webhooks/ imports webhooks/; only the Node-only parts import `node:` modules.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = path.join(ROOT, 'src');

/** The stages, bottom to top (docs/architecture.md draws the same table). */
const RANKS: Readonly<Record<string, number>> = {
  errors: 0,
  json: 1,
  layout: 1,
  bounds: 2,
  schema: 2,
  // The options decode and encode share (read below both).
  options: 3,
  // The events a call, a wait and a receiver tell their listener, and the telling (below call/ and webhooks/, which both tell them).
  events: 3,
  extract: 3,
  validate: 3,
  encode: 4,
  // The RFC 9421 side: its fields and signature base, the request signer, the webhook verifier, the replay and dedup stores.
  signatures: 4,
  decode: 5,
  fetch: 6,
  webhooks: 6,
  // The generator a buyer runs (`adcp-decode generate`): below cli/, which loads it for that command.
  generate: 6,
  // The typed call over the official clients (Node: it runs under the bounded fetch's context).
  call: 7,
  mcp: 8,
  a2a: 8,
  entries: 8,
  // The command line: it calls sellers through the mcp/ and a2a/ entries' callTask.
  cli: 9,
};

/**
 * Stages that run only under Node (a `node:` module directly or through what they import: call/, mcp/
 * and a2a/ run under the bounded fetch), and the one Node-only file of the portable core (chosen by `#validator-loader`).
 */
const NODE_STAGES: ReadonlySet<string> = new Set(['fetch', 'call', 'cli', 'mcp', 'a2a', 'generate']);
const NODE_FILES: ReadonlySet<string> = new Set(['validate/loader/node.ts']);

/** The inner parts of a stage, bottom to top: a file or folder in one imports only its own and lower ones. */
const INNER_RANKS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  webhooks: {
    errors: 0,
    body: 1,
    envelope: 1,
    dependencies: 2,
    'decode-webhook': 3,
    deliveries: 3,
    'receiver-options': 4,
    'receiver-events': 4,
    receiver: 5,
    index: 6,
  },
  signatures: {
    types: 0,
    http: 0,
    'bounded-stream': 0,
    deadline: 0,
    'remote-document': 1,
    replay: 2,
    verify: 3,
    sign: 4,
  },
};

/** The part of a ranked stage a file is in (`webhooks/receiver`, `signatures/replay`), ranked by INNER_RANKS. */
function innerPart(file: string): [stage: string, part: string, rank: number] {
  const [stage = '', part = ''] = file.split('/');
  const name = part.replace(/\.ts$/, '');
  const rank = INNER_RANKS[stage]?.[name];
  if (rank === undefined) throw new Error(`layering: ${stage}/${name} has no rank; add it to INNER_RANKS`);
  return [stage, name, rank];
}

/** The edge inside a stage with inner ranks against them, if it is one. */
function innerViolation(from: string, to: string): string | undefined {
  const [stage, a, ra] = innerPart(from);
  const [, b, rb] = innerPart(to);
  if (a === b || rb < ra) return undefined;
  return `${from} (${stage}/${a}, ${ra}) imports ${to} (${stage}/${b}, ${rb}), a part ${rb === ra ? 'beside' : 'above'} it`;
}

/** Which stages may import webhooks/: only itself (what it shares with the signer lives in signatures/). */
const WEBHOOK_IMPORTERS: ReadonlySet<string> = new Set(['webhooks']);

/**
 * The stage of a file under src/ (relative, with `/`). The root API ranks with the entries, as do
 * the generated pinned entries (`generated/<v>/pinned.ts`, they bind the decoder and the encoder to
 * a release); the version list ranks with errors/; every other generated module is a table, and ranks with schema/.
 */
function stageOf(file: string): string {
  const parts = file.split('/');
  if (file === 'index.ts') return 'entries';
  if (file === 'layout.ts') return 'layout';
  // The generated version list imports nothing and types the errors' data (TaskFailedError.known): it ranks with errors/.
  if (file === 'generated/versions.ts') return 'errors';
  if (parts[0] === 'generated') return /^v[\d_]+\/pinned\.ts$/.test(parts.slice(1).join('/')) ? 'entries' : 'schema';
  if (parts.length === 1) throw new Error(`layering: ${file} sits at src/'s root but is no entry; give it a stage`);
  const stage = parts[0] as string;
  if (RANKS[stage] === undefined) throw new Error(`layering: ${stage}/ is not a known stage; add it to RANKS`);
  return stage;
}

/** One import: the file and the file it imports (relative to src/), or a package / built-in (`bare`). */
interface Edge {
  readonly from: string;
  readonly to: string;
  readonly bare?: true;
}

/** The edges against the direction, one line each. */
function violations(edges: readonly Edge[]): string[] {
  const out: string[] = [];
  for (const { from, to, bare } of edges) {
    const a = stageOf(from);
    if (bare === true) {
      if (to.startsWith('node:') && !NODE_STAGES.has(a) && !NODE_FILES.has(from))
        out.push(`${from} imports ${to}: the portable core uses no Node-only module`);
      continue;
    }
    const b = stageOf(to);
    const inner = a === b && INNER_RANKS[a] !== undefined ? innerViolation(from, to) : undefined;
    if (inner !== undefined) out.push(inner);
    if (a === b) continue;
    const [ra, rb] = [RANKS[a] as number, RANKS[b] as number];
    if (b === 'webhooks' && !WEBHOOK_IMPORTERS.has(a)) out.push(`${from} imports ${to}: nothing outside webhooks/ imports it`);
    else if (rb >= ra) out.push(`${from} (${a}, ${ra}) imports ${to} (${b}, ${rb}), a stage ${rb === ra ? 'beside' : 'above'} it`);
  }
  return out;
}

/**
 * The source files read. The generated types import only one another and the generated
 * validators (per-task entries and the shared chunks) only one another and validate/runtime
 * (their import is written from src/layout.ts); both are left out, as reading ~1,200 files of up to a megabyte adds nothing the codegen tests do not check.
 */
function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'))
    .filter((f) => !/^generated\/(v[\d_]+\/(validators|types)|chunks)\//.test(f))
    .sort();
}

/** package.json#imports, each condition's target as a path under src/ (dist/ mirrors src/). */
function subpathImports(): ReadonlyMap<string, string[]> {
  const imports = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { imports: Record<string, Record<string, string>> })
    .imports;
  return new Map(
    Object.entries(imports).map(([name, targets]) => [
      name,
      [...new Set(Object.values(targets).map((t) => t.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts')))],
    ]),
  );
}

/** A relative import as a file under src/: `.js` names its `.ts` source unless the `.js` file is the source. */
function resolved(from: string, spec: string, files: ReadonlySet<string>): string {
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  if (files.has(joined)) return joined;
  const ts = joined.replace(/\.js$/, '.ts');
  if (files.has(ts)) return ts;
  return joined; // a generated module left out of the read (validators, types): its folder is still its stage
}

/**
 * The module specifiers a file names: static imports and re-exports (types too) and `import()`
 * with a literal, found by parsing the whole file (ts.preProcessFile's scanner misses some).
 */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(path.join(SRC, file), 'utf8'), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      out.push(node.moduleSpecifier.text);
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      out.push(node.arguments[0].text);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal))
      out.push(node.argument.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Every import of every file read (`#` imports through package.json, to each target). */
function edges(): Edge[] {
  const files = sourceFiles();
  const known = new Set(files);
  const hashed = subpathImports();
  const out: Edge[] = [];
  for (const file of files) {
    for (const spec of specifiers(file)) {
      if (spec.startsWith('.')) out.push({ from: file, to: resolved(file, spec, known) });
      else if (hashed.has(spec)) for (const to of hashed.get(spec) ?? []) out.push({ from: file, to });
      else out.push({ from: file, to: spec, bare: true });
    }
  }
  return out;
}

describe('src/ layering', () => {
  const all = edges();

  test('reads every stage and its imports', () => {
    const stages = new Set(sourceFiles().map(stageOf));
    expect([...stages].sort()).toEqual(Object.keys(RANKS).sort());
    // The conditional loader is followed to both of its targets.
    expect(all).toContainEqual({ from: 'validate/validators.ts', to: 'validate/loader/node.ts' });
    expect(all).toContainEqual({ from: 'validate/validators.ts', to: 'validate/loader/default.ts' });
    expect(all.length).toBeGreaterThan(300);
  });

  test('every import goes down the pipeline', () => {
    expect(violations(all)).toEqual([]);
  });
});

describe('the layering check itself', () => {
  test('finds an import up the pipeline, beside it, or into webhooks/', () => {
    expect(violations([{ from: 'bounds/snapshot.ts', to: 'decode/decode.ts' }])).toEqual([
      'bounds/snapshot.ts (bounds, 2) imports decode/decode.ts (decode, 5), a stage above it',
    ]);
    expect(violations([{ from: 'extract/mcp.ts', to: 'validate/validators.ts' }])).toEqual([
      'extract/mcp.ts (extract, 3) imports validate/validators.ts (validate, 3), a stage beside it',
    ]);
    expect(violations([{ from: 'generated/index.ts', to: 'validate/validators.ts' }])).toHaveLength(1);
    expect(violations([{ from: 'decode/polling.ts', to: 'webhooks/envelope.ts' }])).toEqual([
      'decode/polling.ts imports webhooks/envelope.ts: nothing outside webhooks/ imports it',
    ]);
    expect(violations([{ from: 'index.ts', to: 'webhooks/index.ts' }])).toHaveLength(1);
    expect(violations([{ from: 'signatures/http/base.ts', to: 'webhooks/receiver.ts' }])).toHaveLength(1);
  });

  test("finds an import up a stage's inner ranks (the errors -> replay edge that closed the old circle)", () => {
    expect(violations([{ from: 'webhooks/errors.ts', to: 'webhooks/receiver.ts' }])).toEqual([
      'webhooks/errors.ts (webhooks/errors, 0) imports webhooks/receiver.ts (webhooks/receiver, 5), a part above it',
    ]);
    expect(violations([{ from: 'signatures/types.ts', to: 'signatures/replay/dedup-claim.ts' }])).toEqual([
      'signatures/types.ts (signatures/types, 0) imports signatures/replay/dedup-claim.ts (signatures/replay, 2), a part above it',
    ]);
    expect(violations([{ from: 'signatures/replay/dedup-claim.ts', to: 'signatures/verify/verify.ts' }])).toHaveLength(1);
    expect(violations([{ from: 'webhooks/body/body.ts', to: 'webhooks/envelope.ts' }])).toHaveLength(1);
    expect(violations([{ from: 'webhooks/receiver.ts', to: 'signatures/replay/dedup-claim.ts' }])).toEqual([]);
    expect(violations([{ from: 'signatures/replay/replay.ts', to: 'signatures/replay/admissions.ts' }])).toEqual([]);
    expect(() => violations([{ from: 'signatures/misc.ts', to: 'signatures/types.ts' }])).toThrow(/has no rank/);
  });

  test('allows what goes down, and Node modules only where Node runs', () => {
    const allowed: Edge[] = [
      { from: 'webhooks/receiver.ts', to: 'decode/decode.ts' },
      { from: 'signatures/verify/verify.ts', to: 'signatures/http/base.ts' },
      { from: 'generated/v3_1/pinned.ts', to: 'decode/decode.ts' },
      { from: 'generated/v3_1/responses.ts', to: 'schema/response-types.ts' },
      { from: 'fetch/exchange.ts', to: 'node:crypto', bare: true },
      { from: 'validate/loader/node.ts', to: 'node:module', bare: true },
      { from: 'signatures/replay/redis.ts', to: 'redis', bare: true },
    ];
    expect(violations(allowed)).toEqual([]);
    expect(violations([{ from: 'json/utf8.ts', to: 'node:buffer', bare: true }])).toHaveLength(1);
    expect(violations([{ from: 'validate/loader/default.ts', to: 'node:module', bare: true }])).toHaveLength(1);
    expect(violations([{ from: 'webhooks/body/body.ts', to: 'node:stream', bare: true }])).toHaveLength(1);
  });

  test('refuses a file it cannot place', () => {
    expect(() => violations([{ from: 'helpers.ts', to: 'errors/errors.ts' }])).toThrow(/sits at src\/'s root/);
    expect(() => violations([{ from: 'misc/x.ts', to: 'errors/errors.ts' }])).toThrow(/not a known stage/);
  });
});

/** Items grouped by a key (Map.groupBy is Node 21+; the package supports Node 20). */
function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return out;
}

/** Everything a file reaches through its imports (files and packages); the conditional loader's Node target is not followed. */
function reach(start: string, all: readonly Edge[]): Set<string> {
  const next = groupBy(all, (edge) => edge.from);
  const [seen, queue] = [new Set([start]), [start]];
  for (let file = queue.pop(); file !== undefined; file = queue.pop())
    for (const { to, bare } of next.get(file) ?? [])
      if (!seen.has(to) && !NODE_FILES.has(to)) {
        seen.add(to);
        if (bare !== true) queue.push(to);
      }
  seen.delete(start);
  return seen;
}

/** The `node:` modules a file reaches through its imports. */
function nodeReach(start: string, all: readonly Edge[]): Set<string> {
  return new Set([...reach(start, all)].filter((to) => to.startsWith('node:')));
}

/** package.json's entries (exports and bin) as `adcp-decode[/sub]` or `adcp-decode (bin)`, each with its source under src/. */
function packageEntries(): Map<string, string> {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { default: string }>;
    bin: Record<string, string>;
  };
  const source = (dist: string): string => dist.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts');
  const out = new Map<string, string>();
  for (const [key, target] of Object.entries(pkg.exports))
    if (typeof target !== 'string') out.set(`adcp-decode${key.slice(1)}`, source(target.default));
  for (const [name, target] of Object.entries(pkg.bin)) out.set(`${name} (bin)`, source(target));
  return out;
}

const ARCHITECTURE = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');

/** A section of docs/architecture.md, from its `## ` heading to the next. */
function docSection(heading: string): string {
  const start = ARCHITECTURE.indexOf(`\n## ${heading}`);
  if (start < 0) throw new Error(`docs/architecture.md has no section ${heading}`);
  const end = ARCHITECTURE.indexOf('\n## ', start + 1);
  return ARCHITECTURE.slice(start, end < 0 ? undefined : end);
}

/** The entries table of docs/architecture.md: each entry it names, with its runtime column. */
function documentedEntries(): Map<string, string> {
  const out = new Map<string, string>();
  for (const row of docSection('Entries')
    .split('\n')
    .filter((line) => line.startsWith('| `'))) {
    const [names = '', , runtime = ''] = row
      .split('|')
      .slice(1)
      .map((cell) => cell.trim());
    const bin = names.includes('(bin)') ? ' (bin)' : '';
    for (const [, name] of names.matchAll(/`([^`]+)`/g)) out.set(`${name}${bin}`, runtime);
  }
  return out;
}

describe('docs/architecture.md against the code', () => {
  const all = edges();

  test('the Node-only stages are exactly those that reach a node: module', () => {
    const stages = groupBy(
      sourceFiles().filter((file) => !NODE_FILES.has(file)),
      stageOf,
    );
    const reaching = [...stages].filter(([, files]) => files.some((file) => nodeReach(file, all).size > 0)).map(([stage]) => stage);
    expect(reaching.sort()).toEqual([...NODE_STAGES].sort());
  });

  test('the entries table names every package entry, Node exactly where the entry reaches node:', () => {
    const computed = new Map([...packageEntries()].map(([name, file]) => [name, nodeReach(file, all).size > 0 ? 'Node' : 'any']));
    expect(computed.size).toBeGreaterThanOrEqual(9);
    expect(Object.fromEntries(documentedEntries())).toEqual(Object.fromEntries(computed));
  });

  test('the signing side stands apart: the decoding entries reach nothing of signatures/, adcp-decode/sign nothing of decode/', () => {
    const entries = packageEntries();
    const decoding = ['adcp-decode', 'adcp-decode/3.1', 'adcp-decode/3.0', 'adcp-decode/fetch'].map((name) => entries.get(name) ?? name);
    for (const file of decoding) expect([...reach(file, all)].filter((to) => to.startsWith('signatures/'))).toEqual([]);
    const signer = [...reach(entries.get('adcp-decode/sign') ?? 'missing', all)];
    expect(signer.filter((to) => stageOf(to) === 'signatures').length).toBeGreaterThan(5);
    // Packages too: the signer signs with WebCrypto alone.
    expect(signer.filter((to) => !to.includes('/') || !['signatures', 'errors', 'json', 'bounds'].includes(stageOf(to)))).toEqual([]);
  });

  test('the build table names every file of src/generate/', () => {
    const build = docSection('Build time');
    const files = readdirSync(path.join(SRC, 'generate')).filter((file) => file.endsWith('.ts'));
    expect(files.filter((file) => !build.includes(`${file}\``))).toEqual([]);
  });

  test('finds an entry or a Node reach the doc leaves out', () => {
    const edge: Edge[] = [
      { from: 'a.ts', to: 'b.ts' },
      { from: 'b.ts', to: 'validate/loader/node.ts' },
      { from: 'b.ts', to: 'c.ts' },
      { from: 'c.ts', to: 'node:async_hooks', bare: true },
      { from: 'validate/loader/node.ts', to: 'node:module', bare: true },
    ];
    expect([...nodeReach('a.ts', edge)]).toEqual(['node:async_hooks']);
    expect(nodeReach('validate/loader/node.ts', edge.slice(4)).size).toBe(1);
    expect(documentedEntries().has('adcp-decode/planted')).toBe(false);
  });
});
