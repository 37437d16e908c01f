/**
 * Type-check cost for a consumer: `tsc --noEmit` on one small file that types its requests (a
 * get_products brief, a create_media_buy) and decodes a get_products answer, reading `.products`
 * after `isFinal`, written once against `adcp-decode/3.1` (the pinned
 * import a buyer that knows its sellers' release uses) and once against the types
 * @adcp/client exports. Both projects get the same compiler options (strict, NodeNext,
 * skipLibCheck) and the repository's TypeScript; each resolves its package as an installed
 * dependency would (node_modules/adcp-decode links to this repository, whose package.json points
 * the types at dist/).
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { run } from './harness.js';

export const CONSUMERS = {
  'adcp-decode': `import { decode, encode, isFinal } from 'adcp-decode/3.1';

export function briefRequest(brief: string) {
  return encode('get_products', { buying_mode: 'brief', brief });
}

export function productIds(result: unknown): string[] {
  const response = decode('get_products', result);
  if (!isFinal(response)) return [];
  return (response.products ?? []).map((p) => p.product_id);
}

export function mediaBuyRequest(key: string, productId: string) {
  return encode('create_media_buy', {
    idempotency_key: key,
    account: { account_id: 'acc-42' },
    brand: { domain: 'acme.example' },
    start_time: 'asap',
    end_time: '2026-09-30T23:59:59Z',
    packages: [{ product_id: productId, pricing_option_id: 'cpm-usd', budget: 5000 }],
  });
}
`,
  '@adcp/client': `import { unwrapProtocolResponse, type CreateMediaBuyRequest, type GetProductsRequest, type GetProductsResponse } from '@adcp/client';

export function briefRequest(brief: string): GetProductsRequest {
  return { buying_mode: 'brief', brief };
}

export function productIds(result: unknown): string[] {
  const response = unwrapProtocolResponse(result, 'get_products') as GetProductsResponse;
  return (response.products ?? []).map((p) => p.product_id);
}

export function mediaBuyRequest(key: string, productId: string): CreateMediaBuyRequest {
  // The same request as the AdCP release of @adcp/client 4.8.0's types spells it: buyer_ref
  // (required) where 3.1 has idempotency_key, which the SDK mints itself.
  return {
    buyer_ref: key,
    account: { account_id: 'acc-42' },
    brand: { domain: 'acme.example' },
    start_time: 'asap',
    end_time: '2026-09-30T23:59:59Z',
    packages: [{ product_id: productId, pricing_option_id: 'cpm-usd', budget: 5000, buyer_ref: 'pkg-1' }],
  };
}
`,
  // The floor: what tsc costs for a file that imports nothing (the compiler and its lib files).
  floor: `export const answer: number = 42;
`,
} as const;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  },
  files: ['consumer.ts'],
};

/** Writes the consumer project for `which` into `dir`; `modules` is linked as its node_modules content. */
export function writeConsumer(
  dir: string,
  which: keyof typeof CONSUMERS,
  link: { name: string; target: string } | { nodeModules: string },
): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'consumer.ts'), CONSUMERS[which]);
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  if ('nodeModules' in link) {
    symlinkSync(link.nodeModules, path.join(dir, 'node_modules'), 'dir');
  } else {
    mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
    symlinkSync(link.target, path.join(dir, 'node_modules', link.name), 'dir');
  }
}

/** One `tsc --noEmit -p dir` in a fresh process: its lifetime and peak RSS. Throws if tsc reports errors. */
export async function typecheckOnce(root: string, dir: string): Promise<{ ms: number; maxRssKb: number }> {
  const out = path.join(dir, `rss-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  const tsc = path.join(root, 'node_modules', 'typescript', 'lib', 'tsc.js');
  const hook = pathToFileURL(path.join(root, 'bench', 'rss-hook.mjs')).href;
  await run(process.execPath, ['--import', hook, tsc, '--noEmit', '-p', dir], { env: { ...process.env, BENCH_RSS_OUT: out } });
  const { ms, maxRssKb } = JSON.parse(readFileSync(out, 'utf8')) as { ms: number; maxRssKb: number };
  return { ms, maxRssKb };
}
