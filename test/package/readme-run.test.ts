/**
 * The README's first usage example (the first block of its Usage section), the typed call, runs as a buyer runs it: the block compiled
 * as shown (strict) in a folder where `adcp-decode` resolves to this repository's build (dist/),
 * then run by a fresh Node process against a real MCP seller on 127.0.0.1 (the SDK's low-level
 * Server, Streamable HTTP). Only `sellerUrl`, which the README takes as given, is defined ahead of
 * the block. Needs a build (`npm test` runs one first).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CallToolRequest } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { REPO_ROOT } from '../../scripts/schema-paths.js';
import { lowLevelSeller, type ServedSellers, serveSellers } from '../fixtures/mcp-sellers.js';
import { STRICT_BUYER } from '../fixtures/strict-buyer.js';

const run = promisify(execFile);

/** The first ```ts block of the README's Usage section: the typed call. */
const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const first = /^```ts\n([\s\S]*?)^```$/m.exec(readme.slice(readme.indexOf('\n## Usage\n')))?.[1] ?? '';

/** A valid AdCP 3.1 get_products payload (3 products). */
const products = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'examples/get-products.mcp.json'), 'utf8')) as {
    structuredContent: Record<string, unknown>;
  }
).structuredContent;

/** A created media buy, as a 3.1 seller answers create_media_buy at once. */
const mediaBuy = {
  adcp_version: '3.1',
  media_buy_id: 'mb_7731',
  media_buy_status: 'active',
  confirmed_at: '2026-04-18T09:59:50Z',
  revision: 1,
  packages: [{ package_id: 'pkg_ctv_premium', status: 'active' }],
};

/** What the seller was called with. */
const received: Array<CallToolRequest['params']> = [];
let served: ServedSellers;
const work = mkdtempSync(path.join(tmpdir(), 'adcp-decode-readme-run-'));

beforeAll(async () => {
  served = await serveSellers({
    seller: lowLevelSeller({
      call: (params) => {
        received.push(params);
        const payload = params.name === 'create_media_buy' ? mediaBuy : products;
        return { content: [{ type: 'text', text: JSON.stringify(payload) }], structuredContent: payload };
      },
    }),
  });
});
afterAll(async () => {
  await served?.close();
  rmSync(work, { recursive: true, force: true });
});

test('the first example is the typed call', () => {
  expect(first).toMatch(/import \{ callTask \} from 'adcp-decode\/mcp';/);
  expect(first).toMatch(/await callTask\(/);
});

test('the first example compiles and runs against a real MCP seller: both calls typed, stamped, answered', {
  timeout: 180_000,
}, async () => {
  const modules = path.join(work, 'node_modules');
  mkdirSync(modules);
  symlinkSync(REPO_ROOT, path.join(modules, 'adcp-decode'), 'dir');
  for (const dep of ['@modelcontextprotocol', '@types'])
    symlinkSync(path.join(REPO_ROOT, 'node_modules', dep), path.join(modules, dep), 'dir');
  writeFileSync(path.join(work, 'package.json'), JSON.stringify({ name: 'readme-run', private: true, type: 'module' }));
  // The one name the README takes as given, ahead of the block's imports (hoisted, as imports are).
  writeFileSync(path.join(work, 'example.ts'), `const sellerUrl = process.env.SELLER_URL ?? '';\n${first}`);
  const compilerOptions = { ...STRICT_BUYER, skipLibCheck: true, types: ['node'], outDir: 'out' };
  writeFileSync(path.join(work, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['example.ts'] }));
  const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const compiled = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: work }).then(
    () => '',
    (error: { stdout?: string }) => String(error.stdout),
  );
  expect(compiled).toBe('');

  const { stdout } = await run(process.execPath, [path.join(work, 'out', 'example.js')], {
    cwd: work,
    env: { ...process.env, SELLER_URL: new URL('seller', served.base).href },
    timeout: 60_000,
  });
  // get_products' first product, then the media buy and its package count, as the example prints them.
  expect(stdout.trim().split('\n')).toEqual(['ctv-prime-time-us', 'mb_7731 1']);
  const [productsCall, buyCall] = received;
  expect(productsCall).toEqual({
    name: 'get_products',
    arguments: { buying_mode: 'brief', brief: 'CTV sports, Q1', adcp_version: '3.1', adcp_major_version: 3 },
  });
  expect(buyCall?.name).toBe('create_media_buy');
  expect(buyCall?.arguments).toMatchObject({ adcp_version: '3.1', adcp_major_version: 3, account: { account_id: 'acc-42' } });
  expect(buyCall?.arguments?.idempotency_key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});
