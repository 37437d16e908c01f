/**
 * The hot rounds of bench/generated-release.ts, in a process of their own (spawned by it), so that
 * both releases' decodes and floors run in the same fresh heap with the same history: nothing but
 * the two ~100 KB answers decoded (a long-lived process that has decoded 1 MB answers and other
 * peers left the bundled validator at about twice its cost alone, and the generated one not).
 *
 *   node --import tsx bench/generated-release-hot.ts '<json job>'
 *
 * The job: `root` (the repository, whose dist/ is the package), `module` (the generated release
 * module's folder), `rounds`. Prints one JSON line: the six HotResults, in the order of CASES
 * (bench/generated-release.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BETA6_VERSION } from '../test/fixtures/beta6-schemas.js';
import { V3_1 } from '../test/fixtures/versions.js';
import { CASES } from './generated-release.js';
import { hot } from './harness.js';
import { benchPayloads, type Json, mcpText, utf8Bytes } from './payloads.js';
import type { RuntimeValidator } from './runtime-ajv.mjs';

type JsonObject = { [key: string]: Json };

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

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? '{}') as { root: string; module: string; rounds: number };
  const { decode } = (await import(pathToFileURL(path.join(job.root, 'dist', 'index.js')).href)) as {
    decode: (task: string, input: unknown, options?: { version?: string }) => unknown;
  };
  await import(pathToFileURL(path.join(job.module, 'index.js')).href);
  const generated = (await import(pathToFileURL(path.join(job.module, 'validators', 'get_products.js')).href)) as {
    response: RuntimeValidator;
  };
  // The very module decode() loads for 3.1 (same path, same require cache): the floor calls the same function.
  const require = createRequire(import.meta.url);
  const bundledValidator = (
    require(path.join(job.root, 'dist', 'generated', 'v3_1', 'validators', 'get_products.js')) as { response: RuntimeValidator }
  ).response;

  const gText = mcpText(beta6Products(job.root, 100 * 1024));
  const gRaw = gText.content[0]!.text;
  const bText = mcpText(benchPayloads()['get_products 100KB']!.payload);
  const bRaw = bText.content[0]!.text;
  if (!generated.response(JSON.parse(gRaw)) || !bundledValidator(JSON.parse(bRaw))) throw new Error('bench: an answer fails its validator');
  decode('get_products', gText, { version: BETA6_VERSION });
  decode('get_products', bText, { version: V3_1 });

  const results = hot(
    [
      { name: CASES[0], fn: () => JSON.parse(gRaw) },
      { name: CASES[1], fn: () => generated.response(JSON.parse(gRaw)) },
      { name: CASES[2], fn: () => decode('get_products', gText, { version: BETA6_VERSION }) },
      { name: CASES[3], fn: () => JSON.parse(bRaw) },
      { name: CASES[4], fn: () => bundledValidator(JSON.parse(bRaw)) },
      { name: CASES[5], fn: () => decode('get_products', bText, { version: V3_1 }) },
    ],
    { rounds: job.rounds, time: 10, iterations: 3 },
  );
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

await main();
