/**
 * The release module a buyer generates (src/generate/run.ts, module.ts), from a cut of AdCP
 * 3.2.0-beta.6 (two tools, so that a run takes seconds) built in a temporary folder: what it
 * holds, imported for real beside a stand-in `adcp-decode` whose validator runtime is ours; that a
 * second run is byte-identical; that a bad source is a one-line error and writes nothing; and the
 * patch fallback from a patch history, as the bundled 3.1.19 has it. The whole release, from the
 * packed package: test/package/generate.test.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listFiles, REPO_ROOT, SYNCED_DIR, schemaDir } from '../../scripts/schema-paths.js';
import { checkPeers } from '../../src/generate/peers.js';
import { type GenerateOptions, generateRelease } from '../../src/generate/run.js';
import { readFolderTree, treeSha256 } from '../../src/generate/tree.js';
import { patchJudgesByVersion } from '../../src/generated/patches.js';
import type { AdcpRelease } from '../../src/schema/release.js';
import { BETA6_BASE, BETA6_PIN, BETA6_VERSION } from '../fixtures/beta6-schemas.js';
import { beta6Fixture } from '../fixtures/payloads-beta6.js';
import { beta6Files, editJson, type Files, keepTools, releaseTarball, writeRelease, writeTarball } from '../fixtures/release-sources.js';
import { V3_1 } from '../fixtures/versions.js';

const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
const INFO = {
  generator: `adcp-decode ${pkg.version}`,
  tools: checkPeers(import.meta.url).tools,
  regenerate: 'npx adcp-decode generate <source> --out <dir>',
};

const TOOLS = ['get_task_status', 'list_products'];

let root: string;
/** A project with a stand-in adcp-decode: `defineRelease` returns the object, the validator runtime is src/'s. */
let project: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'adcp-generate-'));
  project = path.join(root, 'project');
  const stand = path.join(project, 'node_modules', 'adcp-decode');
  mkdirSync(stand, { recursive: true });
  writeFileSync(
    path.join(stand, 'package.json'),
    JSON.stringify({ name: 'adcp-decode', type: 'module', exports: { '.': './index.js', './validator-runtime': './runtime/index.js' } }),
  );
  writeFileSync(path.join(stand, 'index.js'), 'export const defineRelease = (release) => release;\n');
  symlinkSync(path.join(REPO_ROOT, 'src', 'validate', 'runtime'), path.join(stand, 'runtime'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** beta.6 cut to TOOLS, changed by `edit`, written as a folder; its path. */
function source(name: string, edit: (files: Files) => void = () => undefined): string {
  const files = keepTools(beta6Files(), TOOLS);
  edit(files);
  return writeRelease(path.join(root, 'sources', name, BETA6_VERSION), files);
}

/** Every file under a folder, relative, with its bytes. */
function tree(dir: string): Map<string, Buffer> {
  return new Map(listFiles(dir).map((f) => [path.relative(dir, f), readFileSync(f)]));
}

/** What a refused run threw. */
async function refusal(options: GenerateOptions): Promise<string> {
  try {
    await generateRelease(options, INFO);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the run to be refused');
}

describe('a release module', () => {
  let out: string;
  let release: AdcpRelease<typeof BETA6_VERSION>;
  let from: string;

  beforeAll(async () => {
    from = source('cut');
    out = path.join(project, 'adcp', BETA6_VERSION);
    const done = await generateRelease({ source: from, out }, INFO);
    expect(done).toMatchObject({ version: BETA6_VERSION, release: BETA6_PIN, tasks: 2, patchValidators: 0 });
    ({ release } = (await import(pathToFileURL(path.join(out, 'index.js')).href)) as { release: AdcpRelease<typeof BETA6_VERSION> });
  }, 120_000);

  test('holds the release object, the types, the validators and their chunks; every file names the generator and the source', () => {
    const files = [...tree(out).keys()].sort();
    const top = files.filter((f) => !f.includes('/'));
    expect(top).toEqual(['index.d.ts', 'index.js', 'package.json', 'types.d.ts']);
    const modules = ['get_task_status', 'list_products', 'mcp-webhook-payload', 'result-media_buy_delivery'];
    expect(files.filter((f) => f.startsWith('validators/'))).toEqual(
      modules.flatMap((m) => [`validators/${m}.errors.js`, `validators/${m}.js`]).sort(),
    );
    // Shared code goes to chunks/ (none here: with two tasks each entry holds what it reaches).
    expect(files.filter((f) => !/^(validators|chunks)\//.test(f) && f.includes('/'))).toEqual([]);
    const sha = treeSha256(readFolderTree(from));
    for (const file of files) {
      const head = readFileSync(path.join(out, file), 'utf8').slice(0, 600);
      expect(head, file).toContain(`Generated by ${INFO.generator} from AdCP ${BETA6_VERSION} (source sha256 ${sha}). Do not edit`);
      expect(head, file).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    }
    expect(JSON.parse(readFileSync(path.join(out, 'package.json'), 'utf8'))).toMatchObject({ type: 'module', sideEffects: ['./index.js'] });
    // The packages that wrote it, and the command that writes it again, where a reader opens it.
    for (const file of ['index.js', 'index.d.ts', 'package.json'])
      expect(readFileSync(path.join(out, file), 'utf8'), file).toContain(INFO.regenerate);
    expect(readFileSync(path.join(out, 'index.js'), 'utf8')).toContain(`Written with ${INFO.tools}.`);
    // The validators reach their runtime through the package export, nothing by a path into the package.
    for (const file of files.filter((f) => f.endsWith('.js') && f !== 'index.js'))
      for (const [, spec] of readFileSync(path.join(out, file), 'utf8').matchAll(/from "([^"]+)"/g))
        expect(spec, file).toMatch(/^(\.\.?\/|adcp-decode\/validator-runtime$)/);
  });

  test("the manifest's facts as data: the tables, the tools, the result override, the envelope", () => {
    expect(release).toMatchObject({ format: 1, version: BETA6_VERSION, release: BETA6_PIN, generator: INFO.generator, patches: {} });
    expect(release.tables.tasks).toEqual(TOOLS);
    expect(release.tables.schemaIds.list_products).toEqual({ response: `${BETA6_BASE}media-buy/list-products-response.json`, async: {} });
    expect(release.tools).toEqual({
      get_task_status: { protocol: 'protocol', mutating: false, idempotencyRequirement: 'none' },
      list_products: {
        protocol: 'media-buy',
        mutating: false,
        idempotencyRequirement: 'optional',
        addedIn: '3.2.0',
        legacyFallback: { mode: 'orchestrated', tool: 'get_products' },
      },
    });
    // task_result_resolution: media_buy_delivery's terminal result by its own schema, a module of its own.
    expect(release.results).toEqual({
      media_buy_delivery: {
        validators: 'result-media_buy_delivery',
        schema: `${BETA6_BASE}media-buy/media-buy-delivery-webhook-result.json`,
      },
    });
    expect(release.envelope).toMatchObject({
      webhookEnvelope: 'mcp-webhook-payload',
      taskStatusPoll: { method: 'get_task_status', task: 'get_task_status' },
    });
    expect(release.envelope.taskTypes).toContain('media_buy_delivery');
    expect(release.requests.list_products).toEqual({
      schemaId: `${BETA6_BASE}media-buy/list-products-request.json`,
      stamps: ['adcp_version', 'adcp_major_version'],
      idempotencyKey: 'optional',
    });
    expect(release.files).toEqual({ module: pathToFileURL(path.join(out, 'index.js')).href });
    expect(Object.keys(release.validators ?? {})).toEqual([
      'get_task_status',
      'list_products',
      'mcp-webhook-payload',
      'result-media_buy_delivery',
    ]);
  });

  test('its validators judge: the verdict, the issues, the result override', async () => {
    type Validate = ((data: unknown) => boolean) & { errors?: Array<{ instancePath: string; keyword: string }> | null };
    const maps = release.validators!;
    const fast = (await maps.list_products!.fast()) as { response: Validate; request: Validate };
    const listing = (await maps.list_products!.listing!()) as { response: Validate };
    const valid = beta6Fixture('list_products.valid').payload;
    expect(fast.response(valid)).toBe(true);
    // The envelope's status beside the payload: list_products' closed body refuses it.
    const refused = beta6Fixture('list_products.invalid-envelope-status').payload;
    expect(fast.response(refused)).toBe(false);
    expect(listing.response(refused)).toBe(false);
    expect(listing.response.errors?.[0]).toMatchObject({ keyword: 'additionalProperties', instancePath: '' });
    const webhook = beta6Fixture('webhooks/media_buy_delivery.completed').payload as { result: unknown };
    const result = (await maps['result-media_buy_delivery']!.fast()) as { response: Validate };
    expect(result.response(webhook.result)).toBe(true);
    expect(result.response({ ...(webhook.result as object), notification_type: 'hourly-ish' })).toBe(false);
  });

  test('index.d.ts types the release for adcp-decode: the maps, and the augmentation of its interfaces', () => {
    const dts = readFileSync(path.join(out, 'index.d.ts'), 'utf8');
    expect(dts).toMatch(/^ {2}list_products: SyncVariant<ListProductsResponse>;$/m);
    expect(dts).toMatch(/^ {2}list_products: ListProductsRequest;$/m);
    expect(dts).toContain(`declare module 'adcp-decode' {\n  interface KnownReleases {\n    "${BETA6_VERSION}": "${BETA6_PIN}";\n  }`);
    for (const name of ['ResponsesByVersion', 'RequestsByVersion', 'TaskTypesByVersion'])
      expect(dts).toContain(`  interface ${name} {\n    "${BETA6_VERSION}": `);
    expect(dts).toContain(`export declare const release: AdcpRelease<"${BETA6_VERSION}">;`);
    const types = readFileSync(path.join(out, 'types.d.ts'), 'utf8');
    // One declaration file, JSDoc kept.
    expect(types).toMatch(/\/\*\*\n \* Canonical product offers and continuation state\./);
    expect(types).toMatch(/^export interface ListProductsResponse1 |^export type ListProductsResponse = /m);
  });

  test('a second run is byte-identical', async () => {
    const again = path.join(root, 'again');
    await generateRelease({ source: from, out: again }, INFO);
    const [a, b] = [tree(out), tree(again)];
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const [file, bytes] of a) expect(b.get(file)?.equals(bytes), file).toBe(true);
  }, 120_000);
});

describe('bad input is one clear error, and writes nothing', () => {
  const listProducts = 'media-buy/list-products-response.json';
  const cases: ReadonlyArray<readonly [string, () => GenerateOptions, RegExp]> = [
    [
      'an unresolved $ref',
      () => ({
        source: source('ref', (files) =>
          editJson(files, listProducts, (s) => {
            (s.properties as { products: { items: { $ref: string } } }).products.items.$ref = `${BETA6_BASE}core/no-such-product.json`;
          }),
        ),
        out: '',
      }),
      /^unresolved \$ref: media-buy\/list-products-response\.json#\/properties\/products\/items\/\$ref names https:\/\/adcontextprotocol\.org\/schemas\/3\.2\.0-beta\.6\/core\/no-such-product\.json, which no schema file of the release declares$/,
    ],
    [
      'a schema Ajv cannot compile',
      () => ({
        source: source('ajv', (files) =>
          editJson(files, listProducts, (s) => {
            (s.properties as { next_cursor: { minLength: unknown } }).next_cursor.minLength = 'one';
          }),
        ),
        out: '',
      }),
      /^AdCP 3\.2\.0-beta\.6: Ajv cannot compile its validators: schema is invalid: .*minLength must be integer/,
    ],
    [
      'an unknown annotation keyword',
      () => ({
        source: source('keyword', (files) =>
          editJson(files, listProducts, (s) => {
            (s.properties as { outcome: Record<string, unknown> }).outcome['x-outcome-hint'] = 'listed';
          }),
        ),
        out: '',
      }),
      /^AdCP 3\.2\.0-beta\.6\/media-buy\/list-products-response\.json#\/properties\/outcome: the schema keyword "x-outcome-hint" is unknown to this adcp-decode/,
    ],
    [
      'a manifest naming a missing file',
      () => ({
        source: source('manifest', (files) =>
          editJson(files, 'manifest.json', (m) => {
            (m.tools as { list_products: { response_schema: string } }).list_products.response_schema =
              'media-buy/list-products-response-v2.json';
          }),
        ),
        out: '',
      }),
      /^AdCP 3\.2\.0-beta\.6\/manifest\.json: tools\.list_products\.response_schema names media-buy\/list-products-response-v2\.json, which the release does not hold$/,
    ],
    [
      'a tarball that does not match its hash',
      () => {
        const bytes = releaseTarball(keepTools(beta6Files(), TOOLS), BETA6_VERSION);
        return { source: writeTarball(path.join(root, 'sources', 'tarball'), `${BETA6_VERSION}.tgz`, bytes, '0f'.repeat(32)), out: '' };
      },
      /: its SHA-256 is [0-9a-f]{64}, but 3\.2\.0-beta\.6\.tgz\.sha256 says (0f){32}: refused \(a corrupt or altered download\)$/,
    ],
    [
      'a withdrawn release',
      () => ({
        source: source('withdrawn', (files) =>
          editJson(files, 'index.json', (index) => {
            index.stability = 'withdrawn';
            index.withdrawn = true;
          }),
        ),
        out: '',
      }),
      /^AdCP 3\.2\.0-beta\.6 is not a published release \(its index\.json: stability "withdrawn"\)/,
    ],
    [
      'a patch history of another release',
      () => ({ source: source('history'), out: '', patchHistory: path.join(SYNCED_DIR, 'patch-history') }),
      /^the patch history compares the 3\.2 patches with no release, not with 3\.2\.0-beta\.6: it is not this release's history$/,
    ],
  ];

  test.each(cases)(
    '%s',
    async (_name, options, message) => {
      const parent = path.join(root, 'refused', _name.replace(/\W+/g, '-'));
      mkdirSync(parent, { recursive: true });
      const out = path.join(parent, 'adcp');
      expect(await refusal({ ...options(), out })).toMatch(message);
      expect(readdirSync(parent)).toEqual([]);
    },
    60_000,
  );

  test('a failed run leaves an earlier module as it was; a folder of other files is never replaced', async () => {
    const out = path.join(project, 'adcp', BETA6_VERSION);
    const before = tree(out);
    const bad = source('bad-again', (files) => editJson(files, 'manifest.json', (m) => void delete m.tools));
    expect(await refusal({ source: bad, out })).toMatch(/expected tools, error_codes and error_code_policy objects/);
    const after = tree(out);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [file, bytes] of before) expect(after.get(file)?.equals(bytes), file).toBe(true);
    const foreign = path.join(root, 'src-of-the-buyer');
    mkdirSync(foreign);
    writeFileSync(path.join(foreign, 'app.ts'), 'export {};\n');
    expect(await refusal({ source: source('cut'), out: foreign })).toBe(
      `${foreign}: holds files adcp-decode did not generate; choose an empty or new folder (it replaces the whole folder)`,
    );
    expect(readdirSync(foreign)).toEqual(['app.ts']);
    expect(readdirSync(root).filter((name) => name.includes('generating'))).toEqual([]);
  }, 60_000);
});

describe('a patch history makes the module patch-tolerant, as the bundled release is', () => {
  test(`AdCP ${V3_1} cut to three tools, with the synced history: the bundled release's patch table`, async () => {
    const files = keepTools(readFolderTree(schemaDir(V3_1)), ['get_creative_delivery', 'get_media_buy_delivery', 'get_task_status']);
    const from = writeRelease(path.join(root, 'sources', 'v31', V3_1), files);
    const out = path.join(project, 'adcp', V3_1);
    const done = await generateRelease({ source: from, out, patchHistory: path.join(SYNCED_DIR, 'patch-history') }, INFO);
    expect(done.patchValidators).toBeGreaterThan(0);
    const { release } = (await import(pathToFileURL(path.join(out, 'index.js')).href)) as { release: AdcpRelease };
    const bundled = patchJudgesByVersion[V3_1];
    expect(release.patches).toEqual({
      get_creative_delivery: bundled.get_creative_delivery,
      get_media_buy_delivery: bundled.get_media_buy_delivery,
      get_task_status: bundled.get_task_status,
      'result-media_buy_delivery': bundled['result-media_buy_delivery'],
    });
    // 3.1's task-type enum names the delivery report's schema: a module of its own, as 3.2's manifest does.
    expect(release.results).toEqual({
      media_buy_delivery: {
        validators: 'result-media_buy_delivery',
        schema: `/schemas/${V3_1}/media-buy/media-buy-delivery-webhook-result.json`,
      },
    });
    expect(existsSync(path.join(out, 'validators', 'result-media_buy_delivery.js'))).toBe(true);
    for (const judge of Object.values(release.patches).flatMap((variants) => Object.values(variants).flat())) {
      expect(existsSync(path.join(out, 'validators', `${judge.module}.js`))).toBe(true);
      expect(release.validators?.[judge.module]?.listing).toBeUndefined();
    }
  }, 120_000);
});
