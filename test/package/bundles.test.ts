/**
 * The package bundled as buyers deploy it: `npm pack`, installed into an empty project, then
 * bundled by esbuild for `node` (a Lambda), `browser` and `neutral` (a worker) with no
 * configuration but ES module output. Each bundle decodes the spec's MCP and A2A vectors, a valid
 * and an invalid get_products exactly as the source does, with no warning; the browser bundle does
 * so in headless Chromium on a page served with `Content-Security-Policy: script-src 'self'` (no
 * `unsafe-eval`, test/package/csp-browser.ts), and fails on any CSP violation; a bundle missing a validator chunk reports
 * INTERNAL, never a seller's fault. A browser bundle of a webhook service that imports only
 * `adcp-decode/webhooks` receives a genuine signed delivery once its task is preloaded, and says
 * how to preload it before.
 *
 * Heavy (pack, install, three bundles, a browser): runs with the package test, so always in CI
 * and skipped locally with ADCP_PACKAGE_TEST=0.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DecodeError, extractA2aResponse, extractMcpResponse, SchemaMismatchError, safeDecode } from '../../src/index.js';
import { readVector } from '../fixtures/vectors.js';
import { V3_1 } from '../fixtures/versions.js';
import { completedResult } from '../webhooks/fixtures.js';
import { CONTROL_PAGE, type CspServer, probePage, serveUnderCsp, visit } from './csp-browser.js';
import { probeInput } from './entry-probes.js';
import { splitBundle } from './split-bundle.js';

const enabled = process.env.CI !== undefined || process.env.ADCP_PACKAGE_TEST !== '0';
const root = fileURLToPath(new URL('../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const PLATFORMS = ['node', 'browser', 'neutral'] as const;
type Platform = (typeof PLATFORMS)[number];

function run(file: string, args: readonly string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, [...args], { cwd, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error === null) resolve(stdout);
      else reject(new Error(`${path.basename(file)} ${args.join(' ')}: ${error.message}\n${stderr}`.slice(0, 4000)));
    });
  });
}

interface Vector {
  readonly response: unknown;
  readonly expected_data: unknown;
  readonly expected_error_type?: string;
}

const vectors = (name: string): Vector[] => readVector<{ vectors: Vector[] }>(name).vectors;
const fixture = (name: string): unknown => JSON.parse(readFileSync(path.join(root, 'test/fixtures/payloads/3.1', name), 'utf8'));

const input = {
  mcp: vectors('mcp-response-extraction.json'),
  a2a: vectors('a2a-response-extraction.json'),
  valid: fixture('get_products.valid.json') as { products: unknown[] },
  invalid: fixture('get_products.invalid-missing-cache-scope.json'),
};

/** A vector's own expectation; extracting a `__proto__` member is refused instead (the extractors return plain copies). */
function vectorOutcome(v: Vector): unknown {
  const data = v.expected_data;
  return typeof data === 'object' && data !== null && Object.hasOwn(data, '__proto__') ? { error: 'UNSAFE_JSON' } : { data };
}

/** What a bundle must report, from the vectors' own expectations and the source itself. */
function expected(): unknown {
  const outcome = (fn: () => unknown) => {
    try {
      return { data: fn() };
    } catch (error) {
      return { error: error instanceof DecodeError ? error.code : String(error) };
    }
  };
  const bad = safeDecode('get_products', { structuredContent: input.invalid });
  return {
    beforePreload: 'INTERNAL',
    preloaded: 'ok',
    mcp: input.mcp.map((v) => vectorOutcome(v)),
    a2a: input.a2a.map((v) => (v.expected_error_type === undefined ? vectorOutcome(v) : { error: v.expected_error_type.toUpperCase() })),
    validMcp: { data: input.valid.products.length },
    validA2a: { data: input.valid.products.length },
    invalid: bad.success
      ? 'accepted'
      : [bad.error.code, bad.error instanceof SchemaMismatchError ? (bad.error.issues[0]?.path ?? null) : null],
    source: {
      mcp: input.mcp.map((v) => outcome(() => extractMcpResponse(v.response))),
      a2a: input.a2a.map((v) => outcome(() => extractA2aResponse(v.response))),
    },
  };
}

// What a buyer writes: the root import, preload() before the first decode of a task.
const PROBE = `import { decode, safeDecode, preload, extractMcpResponse, extractA2aResponse, DecodeError } from 'adcp-decode';
const outcome = (fn) => { try { return { data: fn() }; } catch (e) { return { error: e instanceof DecodeError ? e.code : String(e) }; } };
export async function probe({ mcp, a2a, valid, invalid }) {
  const before = safeDecode('get_products', { structuredContent: valid });
  let preloaded = 'ok';
  try { await preload('get_products'); } catch (e) { preloaded = e instanceof DecodeError ? e.code : String(e); }
  const task = { id: 't1', contextId: 'c1', kind: 'task', status: { state: 'completed' }, artifacts: [{ artifactId: 'a1', parts: [{ kind: 'data', data: valid }] }] };
  const bad = safeDecode('get_products', { structuredContent: invalid });
  const mcpOut = mcp.map((v) => outcome(() => extractMcpResponse(v.response)));
  const a2aOut = a2a.map((v) => outcome(() => extractA2aResponse(v.response)));
  return {
    beforePreload: before.success ? 'decoded' : before.error.code,
    preloaded,
    mcp: mcpOut,
    a2a: a2aOut,
    validMcp: outcome(() => decode('get_products', { structuredContent: valid }).products.length),
    validA2a: outcome(() => decode('get_products', task).products.length),
    invalid: bad.success ? 'accepted' : [bad.error.code, bad.error.issues?.[0]?.path ?? null],
    source: { mcp: mcpOut, a2a: a2aOut },
  };
}
`;

// A webhook service that imports only adcp-decode/webhooks, as a Worker would: refused before its
// task is preloaded (the claim is made, so each attempt has a receiver of its own), received after
// preloading the task alone (the envelope check comes with it).
const WEBHOOK_PROBE = `import { createWebhookReceiver, decodeWebhook, preload } from 'adcp-decode/webhooks';
export async function probe({ webhook }) {
  const receiver = () => createWebhookReceiver({
    keys: (kid) => (kid === webhook.jwk.kid ? { jwk: webhook.jwk, agent: webhook.agent } : undefined),
    now: () => webhook.now,
    endpoint: webhook.url,
  });
  const receive = () => receiver().receive(new Request(webhook.url, { method: 'POST', headers: webhook.headers, body: webhook.body }));
  const before = await receive().then(() => 'received', (e) => [e.code, e.message]);
  await preload('create_media_buy');
  const hook = await receive();
  const decoded = decodeWebhook(webhook.body);
  return { before, received: [hook.status, hook.data.media_buy_id], decoded: [decoded.status, decoded.data.media_buy_id] };
}
`;

const RUNNER = `import { readFileSync } from 'node:fs';
const { probe } = await import(process.argv[2]);
console.log(JSON.stringify(await probe(JSON.parse(readFileSync('input.json', 'utf8')))));
`;

let work: string;
let app: string;
interface Bundle {
  readonly warnings: string[];
  readonly metafile: Metafile;
  readonly dir: string;
}
const bundles = new Map<Platform, Bundle>();
let webhooksBundle: Bundle;
let pinnedInputs: string[];
/** Every module the split browser bundle of adcp-decode/3.1 parsed (a chunk for each import()). */
let pinnedSplitInputs: string[];

beforeAll(async () => {
  if (!enabled) return;
  work = mkdtempSync(path.join(tmpdir(), 'adcp-decode-bundles-'));
  app = path.join(work, 'app');
  mkdirSync(app);
  const packed = (
    JSON.parse(await run(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], root)) as Array<{ filename: string }>
  )[0]!;
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'buyer', private: true, type: 'module' }));
  await run(
    npm,
    ['install', path.join(work, packed.filename), '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'],
    app,
  );
  writeFileSync(path.join(app, 'probe.js'), PROBE);
  writeFileSync(path.join(app, 'run.mjs'), RUNNER);
  writeFileSync(path.join(app, 'input.json'), JSON.stringify(input));
  writeFileSync(path.join(app, 'webhooks-probe.js'), WEBHOOK_PROBE);
  writeFileSync(path.join(app, 'webhooks-input.json'), JSON.stringify(await probeInput()));
  for (const platform of PLATFORMS) {
    const dir = path.join(app, `out-${platform}`);
    bundles.set(platform, await splitBundle(app, path.join(app, 'probe.js'), platform, dir));
  }
  const hooks = await build({
    entryPoints: [path.join(app, 'webhooks-probe.js')],
    absWorkingDir: app,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    splitting: true,
    outdir: path.join(app, 'out-webhooks'),
    outExtension: { '.js': '.mjs' },
    metafile: true,
    logLevel: 'silent',
  });
  webhooksBundle = { warnings: hooks.warnings.map((w) => w.text), metafile: hooks.metafile, dir: path.join(app, 'out-webhooks') };
  writeFileSync(path.join(app, 'pinned-probe.js'), "export { decode, preload } from 'adcp-decode/3.1';\n");
  const pinned = await build({
    entryPoints: [path.join(app, 'pinned-probe.js')],
    absWorkingDir: app,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    // One file (what `wrangler deploy` ships).
    outdir: path.join(app, 'out-pinned'),
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  // What the file holds (the metafile's inputs also list modules parsed, then shaken out).
  pinnedInputs = Object.values(pinned.metafile.outputs).flatMap((o) =>
    Object.entries(o.inputs)
      .filter(([, i]) => i.bytesInOutput > 0)
      .map(([input]) => input),
  );
  // Split, esbuild emits a chunk for each import() it parses, reached or not: only the root
  // preload's module may parse another release's import map.
  const split = await build({
    entryPoints: [path.join(app, 'pinned-probe.js')],
    absWorkingDir: app,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    splitting: true,
    outdir: path.join(app, 'out-pinned-split'),
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  pinnedSplitInputs = Object.values(split.metafile.outputs).flatMap((o) => Object.keys(o.inputs));
}, 600_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

/** The output file of a bundle holding a given validator module. */
function chunkOf(platform: Platform, module: RegExp): string {
  const { metafile } = bundles.get(platform)!;
  const outputs = Object.entries(metafile.outputs).filter(([, o]) => Object.keys(o.inputs).some((i) => module.test(i)));
  expect(outputs).toHaveLength(1);
  return path.join(app, outputs[0]![0]);
}

describe.skipIf(!enabled)('esbuild bundles of the packed package', { timeout: 120_000 }, () => {
  test.each(PLATFORMS)('%s: builds with no warning, splits the validators per task, holds no node: import or eval', (platform) => {
    const { warnings, metafile } = bundles.get(platform)!;
    expect(warnings).toEqual([]);
    // get_products's fast and listing validators each in their own chunk, apart from the entry.
    expect(chunkOf(platform, /v3_1\/validators\/get_products\.js$/)).not.toBe(
      chunkOf(platform, /v3_1\/validators\/get_products\.errors\.js$/),
    );
    expect(chunkOf(platform, /v3_1\/validators\/get_products\.js$/)).not.toBe(chunkOf(platform, /probe\.js$/));
    const code = Object.keys(metafile.outputs).map((f) => readFileSync(path.join(app, f), 'utf8'));
    if (platform !== 'node') expect(code.filter((c) => /["']node:/.test(c))).toEqual([]);
    expect(code.filter((c) => /\bnew Function\(|\beval\(/.test(c))).toEqual([]);
  });

  test.each(['node', 'neutral', 'browser'] as const)(
    '%s bundle, run by Node without code generation from strings: the vectors, a valid and an invalid get_products',
    async (platform) => {
      const dir = bundles.get(platform)!.dir;
      const out = await run(process.execPath, ['--disallow-code-generation-from-strings', 'run.mjs', path.join(dir, 'probe.mjs')], app);
      const want = expected() as { source: unknown };
      const got = JSON.parse(out) as { source: unknown };
      expect({ ...got, source: undefined }).toEqual({ ...want, source: undefined });
      // And the extractors agree with the source on every vector, errors included.
      expect(got.source).toEqual(want.source);
    },
  );

  test('a bundle missing the get_products validator chunk reports INTERNAL, never a seller fault', async () => {
    const broken = path.join(app, 'out-broken');
    cpSync(bundles.get('node')!.dir, broken, { recursive: true });
    const chunk = path.join(broken, path.basename(chunkOf('node', /v3_1\/validators\/get_products\.js$/)));
    expect(existsSync(chunk)).toBe(true);
    rmSync(chunk);
    const got = JSON.parse(await run(process.execPath, ['run.mjs', path.join(broken, 'probe.mjs')], app)) as Record<string, unknown>;
    expect(got.beforePreload).toBe('INTERNAL');
    expect(got.preloaded).toBe('INTERNAL');
    expect(got.validMcp).toEqual({ error: 'INTERNAL' });
    expect(got.invalid).toEqual(['INTERNAL', null]);
  });
});

describe.skipIf(!enabled)('a browser bundle of adcp-decode/3.1', () => {
  test("one file, holds 3.1's validators and no other release's: no 3.0 module, no chunk only 3.0 uses", () => {
    const validators = pinnedInputs.filter((i) => /\/generated\/(v[\d_]+\/validators|chunks)\//.test(i));
    expect(validators.filter((i) => /\/v3_1\/validators\/get_products\.errors\.js$/.test(i))).toHaveLength(1);
    expect(validators.filter((i) => /\/v3_0\//.test(i))).toEqual([]);
    const chunks = validators.filter((i) => i.includes('/generated/chunks/'));
    expect(chunks.length).toBeGreaterThan(0);
    // A chunk's banner names the releases whose entries import it.
    expect(chunks.filter((c) => !/AdCP [\d., ]*3\.1\.\d+/.test(readFileSync(path.join(app, c), 'utf8').split('\n')[0]!))).toEqual([]);
  });

  test('split, emits no chunk of another release', () => {
    expect(pinnedSplitInputs.filter((i) => /\/v3_1\/validators\/get_products\.errors\.js$/.test(i))).toHaveLength(1);
    expect(pinnedSplitInputs.filter((i) => /\/v3_0\//.test(i))).toEqual([]);
  });
});

describe.skipIf(!enabled)('a browser bundle of a webhook service importing only adcp-decode/webhooks', { timeout: 120_000 }, () => {
  test('builds with no warning and no node: import', () => {
    expect(webhooksBundle.warnings).toEqual([]);
    const code = Object.keys(webhooksBundle.metafile.outputs).map((f) => readFileSync(path.join(app, f), 'utf8'));
    expect(code.filter((c) => /["']node:/.test(c))).toEqual([]);
    expect(Object.keys(webhooksBundle.metafile.inputs).filter((i) => /validate\/loader\//.test(i))).toEqual([
      'node_modules/adcp-decode/dist/validate/loader/default.js',
    ]);
  });

  test('refuses a genuine delivery before preload() with the fix, receives and decodes it after', async () => {
    const script = `import { readFileSync } from 'node:fs';
const { probe } = await import(process.argv[2]);
console.log(JSON.stringify(await probe(JSON.parse(readFileSync('webhooks-input.json', 'utf8')))));
`;
    writeFileSync(path.join(app, 'run-webhooks.mjs'), script);
    const got = JSON.parse(await run(process.execPath, ['run-webhooks.mjs', path.join(webhooksBundle.dir, 'webhooks-probe.mjs')], app)) as {
      before: [string, string];
    };
    expect(got).toEqual({
      // Nothing preloaded: the envelope check is the first missing, and the fix named is the task preload that brings it.
      before: [
        'INTERNAL',
        expect.stringContaining(
          `call \`await preload(tasks, "${V3_1}")\` with the tasks it decodes (it loads the mcp-webhook-payload check too)`,
        ),
      ],
      received: ['completed', completedResult.media_buy_id],
      decoded: ['completed', completedResult.media_buy_id],
    });
  });
});

describe.skipIf(!enabled)('the browser bundle in headless Chromium under a strict CSP', { timeout: 120_000 }, () => {
  let server: CspServer;

  beforeAll(async () => {
    const dir = bundles.get('browser')!.dir;
    writeFileSync(path.join(dir, 'main.mjs'), probePage('./probe.mjs'));
    writeFileSync(path.join(dir, 'control.mjs'), CONTROL_PAGE);
    server = await serveUnderCsp(dir, { '/': 'main.mjs', '/control': 'control.mjs' }, input);
  });

  afterAll(() => server?.close());

  test('the control page: the CSP forbids eval, and a violation is seen', async () => {
    const { result, violations } = await visit(`${server.origin}/control`);
    expect(result).toBe('EvalError');
    expect(violations).toEqual(['script-src eval']);
  });

  test('decodes the vectors, a valid and an invalid get_products, with no CSP violation', async () => {
    const { result, violations, console } = await visit(`${server.origin}/`);
    expect(violations).toEqual([]);
    expect(console).toEqual([]);
    const want = expected() as { source: unknown };
    expect({ ...(result as object), source: undefined }).toEqual({ ...want, source: undefined });
  });
});
