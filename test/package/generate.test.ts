/**
 * The generator as a buyer runs it: `npm pack`, then a fresh project installs the tarball with the
 * generator's optional peers, builds AdCP 3.2.0-beta.6's protocol tarball the spec's way (the
 * reference copy in a `.tgz`, its `.sha256` beside it), and runs the documented command
 * `npx adcp-decode generate 3.2.0-beta.6.tgz --out adcp/3.2.0-beta.6`; then a fresh Node process
 * imports the module and decodes compact-lifecycle answers (list_products), and tsc types them
 * without a cast. Then, as bundles.test.ts does for the bundled releases, the same project bundles
 * an app that imports the module and `adcp-decode` with esbuild (ES modules, split) for `browser`
 * and `neutral`: the browser bundle runs in headless Chromium under `script-src 'self'`
 * (csp-browser.ts), the neutral one in Node without code generation from strings and in a module
 * Worker in Chromium; each says how to preload before its first decode, then preloads and decodes
 * a valid and an invalid list_products.
 *
 * Heavy (a pack, an install, a whole release generated, two bundles, a browser: about 70 s on two
 * idle cores): like package.test.ts it runs in the full gate only, and ADCP_PACKAGE_TEST=0 skips
 * it outside CI. A second run byte-identical, and what a bad source does: test/codegen/generate.test.ts.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { GENERATOR_PEERS } from '../../src/generate/peers.js';
import { BETA6_PIN, BETA6_VERSION } from '../fixtures/beta6-schemas.js';
import { BETA6_INVALID, beta6Fixture } from '../fixtures/payloads-beta6.js';
import { beta6Files, releaseTarball, writeTarball } from '../fixtures/release-sources.js';
import { CONTROL_PAGE, type CspServer, probePage, serveUnderCsp, visit, workerPage, workerScript } from './csp-browser.js';
import { type Exec, exec, ok } from './exec.js';
import { splitBundle } from './split-bundle.js';

const enabled = process.env.CI !== undefined || process.env.ADCP_PACKAGE_TEST !== '0';
const root = fileURLToPath(new URL('../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** The peers at the versions the repository tests against (so the install is served from npm's cache). */
function peerSpecs(): string[] {
  return GENERATOR_PEERS.map(({ name }) => {
    const { version } = JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
    return `${name}@${version}`;
  });
}

let work: string;
let app: string;
let generated: Exec;
const OUT = `adcp/${BETA6_VERSION}`;

beforeAll(async () => {
  if (!enabled) return;
  if (!existsSync(path.join(root, 'dist', 'generate', 'command.js'))) await ok(npm, ['run', 'compile'], { cwd: root });
  work = mkdtempSync(path.join(tmpdir(), 'adcp-decode-generate-'));
  app = path.join(work, 'app');
  mkdirSync(app);
  const packed = (
    JSON.parse(await ok(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: root })) as Array<{
      filename: string;
    }>
  )[0]!;
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'buyer', private: true, type: 'module' }));
  await ok(
    npm,
    [
      'install',
      path.join(work, packed.filename),
      ...peerSpecs(),
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--loglevel=error',
    ],
    {
      cwd: app,
    },
  );
  // The spec's protocol tarball of the release, and the hash published beside it.
  writeTarball(app, `${BETA6_VERSION}.tgz`, releaseTarball(beta6Files(), BETA6_VERSION));
  generated = await exec(npx, ['--no', 'adcp-decode', 'generate', `${BETA6_VERSION}.tgz`, '--out', OUT], { cwd: app });
}, 900_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe.skipIf(!enabled)('npx adcp-decode generate, from the packed package', { timeout: 180_000 }, () => {
  test('writes the release module and says what it wrote', () => {
    expect(generated.stderr).toBe('');
    expect(generated.code).toBe(0);
    expect(generated.stdout).toMatch(
      new RegExp(
        `^adcp-decode generate: AdCP ${BETA6_VERSION.replaceAll('.', '\\.')} \\(pin "${BETA6_PIN}", source sha256 [0-9a-f]{64}\\): 72 tasks, 0 patch validators → ${OUT}`,
      ),
    );
    for (const file of [
      'index.js',
      'index.d.ts',
      'types.d.ts',
      'package.json',
      'validators/list_products.js',
      'validators/result-media_buy_delivery.js',
    ])
      expect(existsSync(path.join(app, OUT, file)), file).toBe(true);
  });

  test('a fresh process imports the module and decodes list_products answers by it; preload() goes through its import map', async () => {
    const valid = beta6Fixture('list_products.valid').payload;
    const refused = beta6Fixture('list_products.invalid-envelope-status').payload;
    writeFileSync(
      path.join(app, 'answers.json'),
      JSON.stringify({ valid: { structuredContent: valid }, refused: { structuredContent: refused } }),
    );
    writeFileSync(
      path.join(app, 'decode.mjs'),
      `import { readFileSync } from 'node:fs';
import { release } from './${OUT}/index.js';
import { decode, safeDecode, knownReleases, preload } from 'adcp-decode';
const answers = JSON.parse(readFileSync('answers.json', 'utf8'));
const listed = decode('list_products', answers.valid, { version: '${BETA6_VERSION}' });
const bad = safeDecode('list_products', answers.refused, { version: '${BETA6_VERSION}' });
await preload(['list_products', 'get_task_status'], '${BETA6_VERSION}');
console.log(JSON.stringify({
  release: [release.version, release.release, release.tools.list_products.addedIn],
  known: knownReleases().map((r) => r.version),
  products: listed.products.map((p) => p.product_id),
  bad: bad.success ? 'accepted' : [bad.error.code, bad.error.issues[0].keyword, bad.version ?? bad.error.version],
}));
`,
    );
    const out = JSON.parse(await ok(process.execPath, ['decode.mjs'], { cwd: app })) as Record<string, unknown>;
    expect(out).toEqual({
      release: [BETA6_VERSION, BETA6_PIN, '3.2.0'],
      known: expect.arrayContaining([BETA6_VERSION]),
      products: (valid as { products: Array<{ product_id: string }> }).products.map((p) => p.product_id),
      bad: ['SCHEMA_MISMATCH', 'additionalProperties', BETA6_VERSION],
    });
  });

  test('TypeScript: importing the module types decode() by its schemas, without a cast', async () => {
    writeFileSync(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          strict: true,
          noEmit: true,
          // Every declaration is checked: the package's and the module's own, as a strict consumer's build would.
          skipLibCheck: false,
          types: [],
        },
        files: ['typed.ts', `${OUT}/index.d.ts`, `${OUT}/types.d.ts`],
      }),
    );
    writeFileSync(
      path.join(app, 'typed.ts'),
      `import './${OUT}/index.js';
import type { ListProductsResponse, Responses } from './${OUT}/index.js';
import { decode, safeDecode, type Version } from 'adcp-decode';
declare const answer: unknown;
const listed = decode('list_products', answer, { version: '${BETA6_VERSION}' });
const typed: ListProductsResponse = listed;
const ids: string[] = (listed.products ?? []).map((p) => p.product_id);
const version: Version = '${BETA6_VERSION}';
const r = safeDecode('list_products', answer, { version: '${BETA6_VERSION}' });
if (r.success) {
  const v: '${BETA6_VERSION}' = r.version;
  const cursor: string | undefined = r.data.next_cursor;
  void [v, cursor];
}
const status: Responses['get_task_status'] = decode('get_task_status', answer, { version: '${BETA6_VERSION}' });
// @ts-expect-error list_products answers carry no media_buy_id
void listed.media_buy_id;
// The release's pin names it too; "3.2" is a release this program has not loaded.
const byPin: ListProductsResponse = decode('list_products', answer, { version: '${BETA6_PIN}' });
// @ts-expect-error no 3.2 release is loaded
decode('list_products', answer, { version: '3.2' });
// @ts-expect-error list_products is not a task of 3.1.19
decode('list_products', answer, { version: '3.1.19' });
void [typed, ids, version, status, byPin];
`,
    );
    const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await exec(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});

const PLATFORMS = ['browser', 'neutral'] as const;
type Platform = (typeof PLATFORMS)[number];

// What a buyer's app writes: the module imported once for its effect (package.json#sideEffects
// keeps it in a bundle), preload() before the first decode; each step's outcome, never a throw.
const PROBE = `import './${OUT}/index.js';
import { decode, safeDecode, preload, knownReleases, DecodeError } from 'adcp-decode';
const version = '${BETA6_VERSION}';
const failure = (e) => (e instanceof DecodeError ? [e.code, e.message] : [String(e)]);
export async function probe({ valid, invalid }) {
  const before = safeDecode('list_products', { structuredContent: valid }, { version });
  let preloaded = 'ok';
  try { await preload(['list_products', 'get_task_status'], version); } catch (e) { preloaded = failure(e); }
  let products;
  try { products = decode('list_products', { structuredContent: valid }, { version }).products.map((p) => p.product_id); } catch (e) { products = failure(e); }
  const bad = safeDecode('list_products', { structuredContent: invalid }, { version });
  const issue = bad.success ? undefined : bad.error.issues?.[0];
  return {
    known: knownReleases().map((r) => [r.version, r.release]),
    beforePreload: before.success ? 'decoded' : failure(before.error),
    preloaded,
    products,
    invalid: bad.success ? 'accepted' : [bad.error.code, bad.error.version, issue ? { path: issue.path, keyword: issue.keyword, params: issue.params } : null],
  };
}
`;

const answers = {
  valid: beta6Fixture('list_products.valid').payload as { products: Array<{ product_id: string }> },
  invalid: beta6Fixture('list_products.invalid-envelope-status').payload,
};

/** What every run of the probe must report: the fixtures' own products and first issue. */
const decodedByModule = {
  known: expect.arrayContaining([[BETA6_VERSION, BETA6_PIN]]),
  // The caller's setup, named as such, with the call that fixes it.
  beforePreload: [
    'INTERNAL',
    `adcp-decode has not loaded the AdCP ${BETA6_VERSION} validators of list_products (./validators/list_products.js), and this runtime cannot load them on first use: not the seller's fault; call \`await preload("list_products", "${BETA6_VERSION}")\` before decoding`,
  ],
  preloaded: 'ok',
  products: answers.valid.products.map((p) => p.product_id),
  invalid: ['SCHEMA_MISMATCH', BETA6_VERSION, BETA6_INVALID['list_products.invalid-envelope-status']],
};

interface Bundle {
  readonly warnings: string[];
  readonly metafile: Metafile;
  readonly dir: string;
}

describe.skipIf(!enabled)('the generated module in esbuild bundles (browser, neutral)', { timeout: 180_000 }, () => {
  const bundles = new Map<Platform, Bundle>();
  let web: string;

  beforeAll(async () => {
    expect(generated.code).toBe(0);
    writeFileSync(path.join(app, 'probe.js'), PROBE);
    writeFileSync(path.join(app, 'input.json'), JSON.stringify(answers));
    web = path.join(app, 'web');
    for (const platform of PLATFORMS) {
      const dir = path.join(web, platform);
      bundles.set(platform, await splitBundle(app, path.join(app, 'probe.js'), platform, dir));
    }
    writeFileSync(
      path.join(app, 'run.mjs'),
      `import { readFileSync } from 'node:fs';
const { probe } = await import(process.argv[2]);
console.log(JSON.stringify(await probe(JSON.parse(readFileSync('input.json', 'utf8')))));
`,
    );
  }, 300_000);

  /** The output file of a bundle holding a module of the generated release. */
  function chunkOf(platform: Platform, module: string): string {
    const { metafile } = bundles.get(platform)!;
    const outputs = Object.entries(metafile.outputs).filter(([, o]) => Object.hasOwn(o.inputs, `${OUT}/${module}`));
    expect(outputs).toHaveLength(1);
    return path.join(app, outputs[0]![0]);
  }

  test.each(PLATFORMS)("%s: builds with no warning, splits the module's validators per task, holds no node: import or eval", (platform) => {
    const { warnings, metafile } = bundles.get(platform)!;
    expect(warnings).toEqual([]);
    // The module's index (the release's tables) is in the entry; list_products' fast and listing validators each in a chunk of its own.
    const entry = chunkOf(platform, 'index.js');
    expect(path.basename(entry)).toBe('probe.mjs');
    const fast = chunkOf(platform, 'validators/list_products.js');
    const listing = chunkOf(platform, 'validators/list_products.errors.js');
    expect(new Set([entry, fast, listing]).size).toBe(3);
    const code = Object.keys(metafile.outputs).map((f) => readFileSync(path.join(app, f), 'utf8'));
    expect(code.filter((c) => /["']node:/.test(c))).toEqual([]);
    expect(code.filter((c) => /\bnew Function\(|\beval\(/.test(c))).toEqual([]);
  });

  test('neutral bundle, run by Node without code generation from strings: the preload error, then list_products decoded', async () => {
    const out = await ok(
      process.execPath,
      ['--disallow-code-generation-from-strings', 'run.mjs', path.join(bundles.get('neutral')!.dir, 'probe.mjs')],
      {
        cwd: app,
      },
    );
    expect(JSON.parse(out)).toEqual(decodedByModule);
  });

  test("a bundle missing the list_products validator chunk: preload() reports INTERNAL, a packaging fault, never the seller's", async () => {
    const broken = path.join(app, 'broken');
    cpSync(bundles.get('neutral')!.dir, broken, { recursive: true });
    rmSync(path.join(broken, path.basename(chunkOf('neutral', 'validators/list_products.js'))));
    const got = JSON.parse(await ok(process.execPath, ['run.mjs', path.join(broken, 'probe.mjs')], { cwd: app })) as Record<
      string,
      unknown
    >;
    expect(got.preloaded).toEqual([
      'INTERNAL',
      expect.stringContaining(
        "adcp-decode could not load its validator module ./validators/list_products.js (importing it failed): a packaging fault, not the seller's",
      ),
    ]);
    expect(got.products).toEqual(decodedByModule.beforePreload);
  });

  describe('in headless Chromium under a strict CSP', () => {
    let server: CspServer;

    beforeAll(async () => {
      writeFileSync(path.join(web, 'main.mjs'), probePage('./browser/probe.mjs'));
      writeFileSync(path.join(web, 'control.mjs'), CONTROL_PAGE);
      writeFileSync(path.join(web, 'worker-main.mjs'), workerPage('/neutral/worker.mjs'));
      writeFileSync(path.join(web, 'neutral', 'worker.mjs'), workerScript('./probe.mjs'));
      writeFileSync(path.join(web, 'worker-control-main.mjs'), workerPage('/worker-control.mjs'));
      writeFileSync(path.join(web, 'worker-control.mjs'), workerScript(null));
      server = await serveUnderCsp(
        web,
        { '/': 'main.mjs', '/control': 'control.mjs', '/worker': 'worker-main.mjs', '/worker-control': 'worker-control-main.mjs' },
        answers,
      );
    });

    afterAll(() => server?.close());

    test('the controls: the CSP forbids eval on the page and in a worker, and the violation is seen', async () => {
      for (const route of ['/control', '/worker-control']) {
        const { result, violations } = await visit(`${server.origin}${route}`);
        expect([route, result, violations]).toEqual([route, 'EvalError', ['script-src eval']]);
      }
    });

    test('browser bundle on the page: the preload error, then list_products decoded, with no CSP violation', async () => {
      const { result, violations, console } = await visit(`${server.origin}/`);
      expect(violations).toEqual([]);
      expect(console).toEqual([]);
      expect(result).toEqual(decodedByModule);
    });

    test('neutral bundle in a module Worker: the preload error, then list_products decoded, with no CSP violation', async () => {
      const { result, violations, console } = await visit(`${server.origin}/worker`);
      expect(violations).toEqual([]);
      expect(console).toEqual([]);
      expect(result).toEqual(decodedByModule);
    });
  });
});
