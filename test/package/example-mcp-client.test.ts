/**
 * examples/mcp-client.ts runs as its header says (`npx tsx examples/mcp-client.ts <url> [brief]`)
 * against a real MCP seller on 127.0.0.1: it lists the products of a valid answer (exit 0), says
 * what a seller's refusal was (exit 1), and what it sends is a get_products request the library's
 * own encode accepts.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CallToolRequest } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { REPO_ROOT } from '../../scripts/schema-paths.js';
import { safeEncode } from '../../src/index.js';
import { lowLevelSeller, type ServedSellers, serveSellers } from '../fixtures/mcp-sellers.js';

/** A saved seller answer from examples/ (an MCP CallToolResult). */
const saved = (name: string) => JSON.parse(readFileSync(path.join(REPO_ROOT, 'examples', name), 'utf8'));

const received: Array<CallToolRequest['params']> = [];
let served: ServedSellers;
beforeAll(async () => {
  served = await serveSellers({
    products: lowLevelSeller({ call: (params) => (received.push(params), saved('get-products.mcp.json')) }),
    limited: lowLevelSeller({ call: () => saved('get-products.error.mcp.json') }),
  });
});
afterAll(() => served?.close());

/** Runs the example with tsx, as its header says; resolves to its exit code and output. */
function example(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const file = path.join(REPO_ROOT, 'examples/mcp-client.ts');
    execFile(process.execPath, ['--import', 'tsx', file, ...args], { cwd: REPO_ROOT, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
    );
  });
}

test('the example lists the products, and sends a get_products request encode accepts', { timeout: 90_000 }, async () => {
  const run = await example(new URL('products', served.base).href, 'CTV sports, Q1');
  expect(run).toMatchObject({ code: 0, stderr: '' });
  const products = saved('get-products.mcp.json').structuredContent.products as Array<Record<string, string>>;
  expect(run.stdout.trim().split('\n')).toEqual(products.map((p) => `${p.product_id}\t${p.delivery_type}\t${p.name}`));
  expect(received).toHaveLength(1);
  expect(received[0]?.name).toBe('get_products');
  // What the seller received is untyped JSON: encode judges it at run time, as it would the example's own call.
  const sentArgs = JSON.parse(JSON.stringify(received[0]?.arguments ?? {}));
  const checked = safeEncode('get_products', sentArgs);
  expect(checked.success ? 'accepted' : checked.error.message).toBe('accepted');
});

test("the example says what the seller's refusal was, exit 1", { timeout: 90_000 }, async () => {
  const run = await example(new URL('limited', served.base).href);
  expect(run).toEqual({ code: 1, stdout: '', stderr: 'seller error RATE_LIMITED: transient, retry after 30 s\n' });
});
