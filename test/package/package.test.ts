/**
 * The published package, as a user gets it: `npm pack`, then `npm install <tarball>` into an empty
 * project, then use it from plain Node ESM, from the bin, and from TypeScript (types resolve, and
 * reject an unknown task); each public entry imported alone in a fresh process (entry-probes.ts);
 * publint and @arethetypeswrong/cli on the same tarball.
 *
 * Heavy (npm pack and install move ~36 MB, attw type-checks every declaration): about 20-40 s on an
 * idle 2-core machine, more on a busy one. It runs with every `npm test`; for a quicker local loop
 * skip it with ADCP_PACKAGE_TEST=0 (CI never does: it always runs when `CI` is set).
 * It packs dist/ as it is: run `npm run build` (or `npm run compile`) first. The dependencies
 * (ajv, ajv-formats) come from the npm cache (`--prefer-offline`).
 *
 * attw runs with `--profile esm-only`: the package is ESM-only (`"type": "module"`, one `import`
 * entry point), so resolving it from CommonJS (`node16-cjs`) or with the pre-exports `node10`
 * algorithm is not supported by design; that profile ignores exactly those two resolution kinds and
 * still fails on any problem under `node16` from ESM and `bundler`.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { STRICT_BUYER } from '../fixtures/strict-buyer.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { ENTRY_PROBES, probeInput } from './entry-probes.js';
import { type Exec, exec, ok } from './exec.js';

const enabled = process.env.CI !== undefined || process.env.ADCP_PACKAGE_TEST !== '0';
const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = (name: string): string => path.join(root, 'node_modules', '.bin', name);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface Packed {
  readonly filename: string;
  readonly size: number;
  readonly unpackedSize: number;
  readonly files: ReadonlyArray<{ readonly path: string; readonly size: number }>;
}

let work: string;
let app: string;
let tarball: string;
let packed: Packed;
let installed: Promise<void>;
let attw: Promise<Exec>;

/** The repository's package.json: its entries and its bin. */
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  readonly exports: Readonly<Record<string, string | Readonly<Record<string, string>>>>;
  readonly bin?: Readonly<Record<string, string>>;
};

/** The files package.json#exports and `bin` name: what `npm run compile` writes for a user to import or run. */
function builtFiles(): string[] {
  const targets = Object.values(pkg.exports).flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target)));
  return [...targets, ...Object.values(pkg.bin ?? {})].filter((file) => file.startsWith('./dist/'));
}

beforeAll(async () => {
  if (!enabled) return;
  // Compile only when a build is missing (this file run alone): a compile empties dist/ first, under
  // every other file that reads it. The probe is what the package exports, which a compile writes.
  if (!builtFiles().every((f) => existsSync(path.join(root, f)))) await ok(npm, ['run', 'compile'], { cwd: root });
  work = mkdtempSync(path.join(tmpdir(), 'adcp-decode-package-'));
  app = path.join(work, 'app');
  const out = await ok(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: root });
  packed = (JSON.parse(out) as Packed[])[0]!;
  tarball = path.join(work, packed.filename);

  // An empty project, the tarball installed into it; runs while publint and attw check the tarball.
  installed = (async () => {
    mkdirSync(app);
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await ok(npm, ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], {
      cwd: app,
    });
  })();
  attw = exec(bin('attw'), [tarball, '--profile', 'esm-only', '--no-definitely-typed', '--format', 'json'], { cwd: work });
  await Promise.all([installed, attw]);
}, 600_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe.skipIf(!enabled)('npm pack → npm install → use', { timeout: 120_000 }, () => {
  test('the tarball holds the compiled code, declarations and generated validators, and nothing else', () => {
    const files = packed.files.map((f) => f.path);
    expect(files.filter((f) => !f.startsWith('dist/')).sort()).toEqual(expect.arrayContaining(['package.json']));
    expect(files.filter((f) => !f.startsWith('dist/') && !/^(package\.json|README\.md|LICENSE(\.\w+)?)$/.test(f))).toEqual([]);
    for (const f of [
      'dist/index.js',
      'dist/index.d.ts',
      'dist/validate/loader/node.js',
      'dist/validate/loader/default.js',
      'dist/fetch/index.js',
      'dist/cli/main.js',
      'dist/webhooks/index.js',
      'dist/signatures/sign/index.js',
      'dist/mcp/index.js',
      'dist/a2a/index.js',
      'dist/validate/runtime/index.js',
      'dist/generated/index.d.ts',
    ])
      expect(files).toContain(f);
    // The compiled code is bundled (scripts/bundle-dist.ts): the entries, their shared chunks, and
    // the files reached by path at run time (the validator modules and their runtime), no per-source module.
    const js = files.filter((f) => f.endsWith('.js'));
    const entryOrChunk =
      /^dist\/(index|cli\/main|generate\/command|generate-\w+|shared-\w+|fetch\/index|webhooks\/index|signatures\/sign\/index|mcp\/index|a2a\/index|generated\/v[\d_]+\/pinned|validate\/loader\/(node|default))\.js$/;
    const byPath =
      /^dist\/(validate\/runtime\/(index|uri-format|date-formats|json-equal|messages)|generated\/v[\d_]+\/validators\/[\w.-]+|generated\/chunks\/[0-9a-f]{12})\.js$/;
    expect(js.filter((f) => !entryOrChunk.test(f) && !byPath.test(f))).toEqual([]);
    expect(js.filter((f) => /^dist\/shared-/.test(f)).length).toBeGreaterThan(0);
    // Our license, and the AdCP schemas' license beside the files derived from them.
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'dist/generated/LICENSE']));
    const versions = [...new Set(files.map((f) => /^dist\/generated\/(v[\d_]+)\//.exec(f)?.[1]).filter((v) => v !== undefined))];
    expect(versions.length).toBeGreaterThanOrEqual(2);
    for (const v of versions) {
      expect(files).toContain(`dist/generated/${v}/validators/get_products.js`);
      expect(files).toContain(`dist/generated/${v}/validators/get_products.errors.js`);
      // The import map is bundled into the chunks of the entries that preload through it.
      expect(files).not.toContain(`dist/generated/${v}/validators/index.js`);
      expect(files).toContain(`dist/generated/${v}/responses.d.ts`);
      // One declaration file of the release's types, not one per schema (a consumer's tsc opens one).
      expect(files).toContain(`dist/generated/${v}/types.d.ts`);
      expect(files.filter((f) => f.startsWith(`dist/generated/${v}/types/`))).toEqual([]);
    }
    // Left out: source maps (their sources are not shipped) and the empty .js of type-only modules.
    expect(files.filter((f) => f.endsWith('.map') || /\/types\.js$|\/responses\.js$/.test(f))).toEqual([]);
    expect(packed.size).toBeLessThan(8 * 1024 * 1024);
  });

  test('every relative import of every shipped module is shipped', () => {
    const files = new Set(packed.files.map((f) => f.path));
    const missing: string[] = [];
    for (const file of files) {
      if (!/\.(c?js|d\.ts)$/.test(file)) continue;
      const text = readFileSync(path.join(app, 'node_modules', 'adcp-decode', file), 'utf8');
      for (const [, spec] of text.matchAll(/(?:from\s*|import\s*\(\s*|require\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
        let target = path.posix.join(path.posix.dirname(file), spec!);
        if (file.endsWith('.d.ts') && target.endsWith('.js')) target = target.replace(/\.js$/, '.d.ts');
        if (!files.has(target)) missing.push(`${file} → ${spec}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test('plain Node ESM: decode, safeDecode and the typed errors work from the installed package', async () => {
    await installed;
    writeFileSync(path.join(app, 'result.json'), readFileSync(path.join(root, 'examples', 'get-products.mcp.json')));
    writeFileSync(
      path.join(app, 'smoke.mjs'),
      `import { readFileSync } from 'node:fs';
import { decode, safeDecode, tasks, versions, SchemaMismatchError } from 'adcp-decode';
const result = JSON.parse(readFileSync('result.json', 'utf8'));
const { products } = decode('get_products', result);
const bad = safeDecode('get_products', { structuredContent: { products: [{}] } });
console.log(JSON.stringify({
  products: products.map((p) => p.product_id),
  versions,
  hasGetProducts: tasks().includes('get_products'),
  bad: [bad.success, bad.error instanceof SchemaMismatchError, bad.error.issues[0].path],
}));
`,
    );
    expect(JSON.parse(await ok(process.execPath, ['smoke.mjs'], { cwd: app }))).toMatchInlineSnapshot(`
      {
        "bad": [
          false,
          true,
          "",
        ],
        "hasGetProducts": true,
        "products": [
          "ctv-prime-time-us",
          "news-display-ros",
          "podcast-midroll-tech",
        ],
        "versions": [
          "${V3_1}",
          "${V3_0}",
        ],
      }
    `);
  });

  describe('each public entry alone, in a fresh Node process: validators load on first use, no preload()', () => {
    beforeAll(async () => {
      await installed;
      writeFileSync(path.join(app, 'probe-input.json'), JSON.stringify(await probeInput()));
      for (const probe of ENTRY_PROBES) writeFileSync(path.join(app, probe.file), probe.script);
    });

    test('every entry of package.json#exports has a probe, and each probe imports its entry alone', () => {
      const entries = Object.keys(pkg.exports)
        .filter((key) => key.endsWith('.json') === false)
        .map((key) => (key === '.' ? 'adcp-decode' : `adcp-decode/${key.slice(2)}`));
      expect(ENTRY_PROBES.map((p) => p.entry).sort()).toEqual(entries.sort());
      for (const { entry, script } of ENTRY_PROBES)
        expect(
          [...script.matchAll(/from '(adcp-decode[^']*)'/g)].map((m) => m[1]),
          entry,
        ).toEqual([entry]);
    });

    test.each(ENTRY_PROBES)('$entry', async ({ file, expected }) => {
      expect(JSON.parse(await ok(process.execPath, [file], { cwd: app }))).toEqual(expected);
    });

    test('the bin, on a 3.0 answer (another release than the other bin test decodes)', async () => {
      writeFileSync(
        path.join(app, 'media-buys.json'),
        JSON.stringify((JSON.parse(readFileSync(path.join(app, 'probe-input.json'), 'utf8')) as { mediaBuys: unknown }).mediaBuys),
      );
      const bin = path.join(app, 'node_modules', '.bin', 'adcp-decode');
      const result = await exec(bin, ['get_media_buys', 'media-buys.json', '--adcp-version', '3.0', '--json'], { cwd: app });
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, version: V3_0 });
    });
  });

  test("a decode-only install is adcp-decode and jose: the optional peers (the SDKs, the generator's) are not installed", async () => {
    await installed;
    const installedPackages = readdirSync(path.join(app, 'node_modules')).filter((name) => !name.startsWith('.'));
    expect(installedPackages.sort()).toEqual(['adcp-decode', 'jose']);
  });

  test('adcp-decode generate in a decode-only install: one line naming the peers to install, nothing written', async () => {
    await installed;
    const bin = path.join(app, 'node_modules', '.bin', 'adcp-decode');
    const result = await exec(bin, ['generate', 'schemas/3.2.1', '--out', 'adcp/3.2.1'], { cwd: app });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^adcp-decode generate: needs ajv, ajv-formats, json-schema-to-typescript, tar: optional peer dependencies that adcp-decode does not install \(decoding never loads them\); install them beside it: npm install --save-dev ajv@"\^8\.20\.0" .*tar@"\^7\.5\.0 \|\| \^8\.0\.0"\n$/,
    );
    expect(existsSync(path.join(app, 'adcp'))).toBe(false);
  });

  test('the bin: node_modules/.bin/adcp-decode', async () => {
    await installed;
    const result = await exec(path.join(app, 'node_modules', '.bin', 'adcp-decode'), ['get_products', 'result.json'], { cwd: app });
    expect(result).toMatchInlineSnapshot(`
      {
        "code": 0,
        "stderr": "",
        "stdout": "✔ get_products (AdCP ${V3_1}, completed): 3 products
      ",
      }
    `);
  });

  test('TypeScript: types resolve from the package, a decoded response is typed, an unknown task is an error', async () => {
    await installed;
    writeFileSync(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files: ['check.ts'],
      }),
    );
    writeFileSync(
      path.join(app, 'check.ts'),
      `import { decode, safeDecode, DecodeError, TaskFailedError, type Decoded } from 'adcp-decode';
declare const result: unknown;
const response = decode('get_products', result);
if (response.status !== 'working' && response.status !== 'submitted' && response.status !== 'input-required') {
  const ids: string[] | undefined = response.products?.map((p) => p.product_id);
  void ids;
}
const r = safeDecode('create_media_buy', result, { version: '3.1' });
if (r.success) { const v: '${V3_1}' = r.version; void v; } else { const e: DecodeError = r.error; void e; }
const typed: Decoded<'get_products'> = response;
void typed;
void TaskFailedError;
// @ts-expect-error 'nope' is not an AdCP task
decode('nope', result);
`,
    );
    const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await exec(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  test.each([
    ['3.1', 'v3_0'],
    ['3.0', 'v3_1'],
  ])('TypeScript: a consumer of adcp-decode/%s reads no declaration file of %s', async (entry, other) => {
    await installed;
    const config = {
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      files: ['pinned-reads.ts'],
    };
    writeFileSync(path.join(app, 'tsconfig.pinned-reads.json'), JSON.stringify(config));
    writeFileSync(
      path.join(app, 'pinned-reads.ts'),
      `import { decode } from 'adcp-decode/${entry}';\nexport const ids = (r: unknown) => decode('get_products', r);\n`,
    );
    const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await exec(process.execPath, [tsc, '-p', 'tsconfig.pinned-reads.json', '--listFiles'], { cwd: app });
    expect(result.code).toBe(0);
    const read = result.stdout.split('\n').filter((f) => f.includes('/node_modules/adcp-decode/'));
    expect(read.length).toBeGreaterThan(0);
    expect(read.filter((f) => f.includes(`/generated/${other}/`))).toEqual([]);
  });

  // A buyer as the issue tracker's users wrote one: MCP result in, typed fields out, no cast, and a
  // declaration file naming what decode returns. Every TypeScript major we support compiles it.
  const BUYER = `import { decode as decodeAny, safeDecode as safeDecodeAny, isFinal as isFinalAny, type v3_0 } from 'adcp-decode';
import { decode, safeDecode, createDecoder, isFinal, type CreateMediaBuyError, type CreateMediaBuySuccess, type Error as AdcpError, type GetProductsResponse, type Product } from 'adcp-decode/3.1';

interface CallToolResult {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}
declare function callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;

export function cheapest(products: readonly Product[]): Product | undefined {
  return products.reduce<Product | undefined>((best, p) => (best === undefined || p.product_id < best.product_id ? p : best), undefined);
}

export const products = decode('get_products', await callTool('get_products', { brief: 'CTV sports' }));
if (isFinal(products)) {
  const all: Product[] = products.products ?? [];
  const response: GetProductsResponse = products;
  void cheapest(all)?.product_id;
  void response;
} else {
  const waiting: 'working' | 'submitted' | 'input-required' = products.status;
  void waiting;
}

export const buy = decode('create_media_buy', await callTool('create_media_buy', {}));
if (isFinal(buy)) {
  if (buy.errors !== undefined) {
    const first: AdcpError = buy.errors[0];
    const code: string = first.code;
    void code;
  } else {
    const id: string = buy.media_buy_id;
    const packages: number = buy.packages.length;
    const success: CreateMediaBuySuccess = buy;
    void [id, packages, success];
  }
}
export function refused(e: CreateMediaBuyError): string {
  return e.errors[0].code;
}

export const seller = createDecoder({ maxBytes: 1024 * 1024 });
export const update = seller.safeDecode('update_media_buy', await callTool('update_media_buy', {}));
if (update.success && isFinal(update.data) && update.data.errors === undefined) {
  const revision: number = update.data.revision;
  void revision;
}
export const media = safeDecode('get_media_buys', await callTool('get_media_buys', {}));

// The root import: 'auto' over both releases, narrowed by the version that judged it.
export const auto = decodeAny('get_products', await callTool('get_products', {}));
export const either = safeDecodeAny('get_products', await callTool('get_products', {}));
if (either.success && either.version === '${V3_0}' && isFinalAny(either.data)) {
  const old: v3_0.Product[] | undefined = either.data.products;
  void old;
}
`;

  // Declarations that name the envelope status, options merged by a decoder, and 3.0 types, from a
  // file that imports only a pinned entry.
  const PINNED_ONLY = `import { decode, createDecoder } from 'adcp-decode/3.0';
declare const result: unknown;
export const media = decode('get_media_buys', result);
export const governance = decode('check_governance', result);
export const seller = createDecoder({ maxBytes: 1024 });
export const creatives = seller.safeDecode('sync_creatives', result);
`;

  test.each([
    ['TypeScript 5', 'typescript-5'],
    ['TypeScript 6', 'typescript'],
    ['TypeScript 7', 'typescript-7'],
  ])('%s: a strict buyer compiles against the package, declaration emit included', { timeout: 180_000 }, async (_name, pkg) => {
    await installed;
    const dir = path.join(app, pkg);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'buyer.ts'), BUYER);
    writeFileSync(path.join(dir, 'pinned-only.ts'), PINNED_ONLY);
    const compilerOptions = {
      ...STRICT_BUYER,
      declaration: true,
      emitDeclarationOnly: true,
      outDir: 'out',
      skipLibCheck: false,
      types: [],
    };
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['buyer.ts', 'pinned-only.ts'] }));
    const tsc = path.join(root, 'node_modules', pkg, 'bin', 'tsc');
    const version = await ok(process.execPath, [tsc, '--version'], { cwd: dir });
    expect(version).toMatch(new RegExp(`^Version ${_name.slice(-1)}\\.`));
    const result = await exec(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
    // The declarations name the package's own exports, not its internal files.
    const declarations = readFileSync(path.join(dir, 'out', 'buyer.d.ts'), 'utf8');
    expect(declarations).toMatch(/export declare const buy: .*import\("adcp-decode\/3\.1"\)\.CreateMediaBuyResponse/);
    expect(declarations).not.toMatch(/dist\/generated/);
  });

  test('publint: no errors, warnings or suggestions', async () => {
    const bytes = readFileSync(tarball);
    const { messages, pkg } = await publint({
      pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer },
      level: 'suggestion',
    });
    expect(messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`)).toEqual([]);
  });

  test('@arethetypeswrong/cli --profile esm-only: no problems', async () => {
    const { code, stdout, stderr } = await attw;
    const report = JSON.parse(stdout.slice(0, stdout.lastIndexOf('}') + 1)) as {
      analysis: { problems: Array<{ kind: string; resolutionKind?: string }> };
    };
    const counted = report.analysis.problems.filter((p) => p.resolutionKind !== 'node10' && p.resolutionKind !== 'node16-cjs');
    expect(counted).toEqual([]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });
});
