/**
 * A generated release decodes at the ratios a bundled one does: AdCP 3.2.0-beta.6's module, written
 * by the built `adcp-decode generate` into a project whose `adcp-decode` is this build, is imported
 * into the bench's process; a ~100 KB beta.6 get_products answer (its fixture's products repeated,
 * each with its own id) is decoded from MCP text against its floor (JSON.parse + the module's own
 * validator), in the same rounds as the bundled 3.1.19 get_products 100 KB against its floor, each
 * decode pinned to its version.
 * The ratios to the floor depend on the schema (beta.6's get_products validator costs about half
 * of 3.1's per byte, so the same work above it is a larger share); what decode adds above the
 * floor (the text checks: repeated keys, prototype keys, bounds) is code no release changes, and
 * its cost follows the text's strings, as JSON.parse's does. Both are reported; the goal (≤ 1.1)
 * is on that cost as a share of parsing the same text, the generated release's ÷ the bundled
 * one's (docs/benchmarks.md says what the profile shows).
 *
 *   npx tsx bench/run.ts --only=generated
 */
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BETA6_VERSION, beta6Folder } from '../test/fixtures/beta6-schemas.js';
import { goal, type HotResult, hot, type Measurement, measure, median, pairedRatio, run, summarize } from './harness.js';
import { type Json, mcpText, utf8Bytes } from './payloads.js';

type JsonObject = { [key: string]: Json };

import type { RuntimeValidator } from './runtime-ajv.mjs';

const SECTION = 'a generated release (3.2.0-beta.6) decodes at a bundled one’s ratio to its floor (text path, ~100 KB)';

/** What the bench decodes with: the built package's decode. */
type Decode = (task: string, input: unknown, options?: { version?: string }) => unknown;

/** A beta.6 get_products answer of about `target` bytes: the fixture's products, repeated with their own ids. */
function beta6Products(root: string, target: number): JsonObject {
  const fixture = JSON.parse(
    readFileSync(path.join(root, 'test', 'fixtures', 'payloads', '3.2-beta.6', 'get_products.valid.json'), 'utf8'),
  ) as JsonObject & { products: JsonObject[] };
  const products: JsonObject[] = [];
  for (let i = 0; utf8Bytes(JSON.stringify({ ...fixture, products })) < target; i++) {
    const product = fixture.products[i % fixture.products.length]!;
    products.push({ ...product, product_id: `${String(product.product_id)}_${i}` });
  }
  return { ...fixture, products };
}

/**
 * The rows: the generated release's text decode ÷ its floor, the bundled one's ÷ its floor, and
 * the first ÷ the second (goal ≤ 1.1).
 *
 * @param root The repository (its package.json and dist/ are the package the module imports).
 * @param tmp A scratch folder.
 * @param decode The built package's decode, imported from dist/ by the bench.
 * @param bundled The bundled 3.1.19 get_products 100 KB answer (MCP text) and its validator.
 * @param rounds Rounds of the hot loop.
 * @returns The rows.
 * @throws Error when the generator writes no module, or a payload fails its validator.
 * @example
 * measurements.push(...(await generatedReleaseBench(ROOT, tmp, lib.decode, bundled, 41)));
 */
export async function generatedReleaseBench(
  root: string,
  tmp: string,
  decode: Decode,
  bundled: { readonly version: string; readonly text: unknown; readonly raw: string; readonly validate: RuntimeValidator },
  rounds: number,
): Promise<Measurement[]> {
  const project = path.join(tmp, 'generated-release');
  mkdirSync(path.join(project, 'node_modules'), { recursive: true });
  // The module's `adcp-decode` is this build, so it defines its release where `decode` reads.
  symlinkSync(root, path.join(project, 'node_modules', 'adcp-decode'), 'dir');
  const out = path.join(project, 'adcp', BETA6_VERSION);
  await run(process.execPath, [path.join(root, 'dist', 'cli', 'main.js'), 'generate', beta6Folder(), '--out', out]);
  await import(pathToFileURL(path.join(out, 'index.js')).href);
  const validator = (await import(pathToFileURL(path.join(out, 'validators', 'get_products.js')).href)) as {
    response: RuntimeValidator;
  };

  const payload = beta6Products(root, 100 * 1024);
  const text = mcpText(payload);
  const raw = text.content[0]!.text;
  if (!validator.response(JSON.parse(raw))) throw new Error('bench: the beta.6 get_products answer fails its validator');
  decode('get_products', text, { version: BETA6_VERSION });
  decode('get_products', bundled.text, { version: bundled.version });

  const [parseG, floorG, oursG, parseB, floorB, oursB] = hot(
    [
      { name: 'JSON.parse alone, 3.2.0-beta.6 get_products ~100 KB', fn: () => JSON.parse(raw) },
      { name: 'floor: JSON.parse + validator, 3.2.0-beta.6 get_products ~100 KB', fn: () => validator.response(JSON.parse(raw)) },
      {
        name: 'decode content[0].text, 3.2.0-beta.6 get_products ~100 KB',
        fn: () => decode('get_products', text, { version: BETA6_VERSION }),
      },
      { name: 'JSON.parse alone, 3.1.19 get_products 100 KB', fn: () => JSON.parse(bundled.raw) },
      { name: 'floor: JSON.parse + validator, 3.1.19 get_products 100 KB', fn: () => bundled.validate(JSON.parse(bundled.raw)) },
      {
        name: 'decode content[0].text, 3.1.19 get_products 100 KB',
        fn: () => decode('get_products', bundled.text, { version: bundled.version }),
      },
    ],
    { rounds, time: 10, iterations: 3 },
  ) as [HotResult, HotResult, HotResult, HotResult, HotResult, HotResult];
  // What decode adds above its floor, as a share of parsing the same text: the text checks follow
  // the text as JSON.parse does, so this compares releases on texts of different strings.
  const above = (ours: HotResult, floor: HotResult, parse: HotResult) =>
    (median(ours.roundMedians) - median(floor.roundMedians)) / median(parse.roundMedians);
  const [addedG, addedB] = [above(oursG, floorG, parseG), above(oursB, floorB, parseB)];
  const added = addedG / addedB;
  return [
    summarize(SECTION, parseG),
    summarize(SECTION, floorG),
    summarize(SECTION, oursG, { baseline: 'its floor', ratio: pairedRatio(oursG, floorG) }),
    summarize(SECTION, parseB),
    summarize(SECTION, floorB),
    summarize(SECTION, oursB, { baseline: 'its floor', ratio: pairedRatio(oursB, floorB) }),
    measure(SECTION, 'above the floor ÷ JSON.parse of the text, 3.1.19 (bundled)', [addedB], 'ratio'),
    measure(SECTION, 'above the floor ÷ JSON.parse of the text, 3.2.0-beta.6 (generated)', [addedG], 'ratio', {
      baseline: 'bundled',
      ratio: added,
      ...goal(1.1, added),
    }),
  ];
}
