/**
 * The buyer walk-through (the ```ts block of "A buyer, end to end" in docs/calling.md) runs as a
 * buyer runs it, taken from that page so that the two cannot drift: get_adcp_capabilities, decoderFor,
 * get_products, create_media_buy with its key and `retry`, then waitForTask with the webhook first
 * and polls as the fallback, against a real MCP seller on 127.0.0.1 (the SDK's low-level Server).
 * The block's givens (`sellerUrl`, `webhookUrl`, `receiver`) are defined ahead of it: a real
 * webhook receiver behind Node `http`, mounted on the block's `route`, and the seller signs its
 * webhook with the test vectors' seller key. Run with tsx; readme.test.ts compiles the same block
 * strict. Needs a build (the block imports `adcp-decode`, resolved to dist/).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../../scripts/schema-paths.js';
import { lowLevelSeller, type ServedSellers, serveSellers } from '../fixtures/mcp-sellers.js';
import { payload } from '../fixtures/payloads.js';
import { pollResponse } from '../fixtures/poll-sellers.js';
import { deliver } from '../fixtures/webhook-buyer.js';

type Json = Record<string, unknown>;

/** The walk-through: the first ```ts block after its heading. */
const page = readFileSync(path.join(REPO_ROOT, 'docs/calling.md'), 'utf8');
const heading = page.indexOf('\n## A buyer, end to end\n');
const walk = heading < 0 ? '' : (/^```ts\n([\s\S]*?)^```$/m.exec(page.slice(heading))?.[1] ?? '');

/** The givens, ahead of the block: the seller's URL, and a webhook receiver served on 127.0.0.1 that hands each request to the block's `route`. */
const GIVEN = `import { createServer as createHookServer } from 'node:http';
import { createWebhookReceiver } from 'adcp-decode/webhooks';
import { resolver } from ${JSON.stringify(pathToFileURL(path.join(REPO_ROOT, 'test/webhooks/fixtures.ts')).href)};
const sellerUrl = process.env.SELLER_URL ?? '';
const hookServer = createHookServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk);
  const headers = Object.entries(req.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v] as [string, string]] : []));
  const answer = await route(new Request(new URL(req.url ?? '/', origin), { method: req.method ?? '', headers, body: Buffer.concat(chunks) }));
  res.writeHead(answer.status, Object.fromEntries(answer.headers)).end();
});
await new Promise<void>((resolve) => hookServer.listen(0, '127.0.0.1', resolve));
const address = hookServer.address();
const origin = \`http://127.0.0.1:\${typeof address === 'object' && address !== null ? address.port : 0}\`;
const webhookUrl = \`\${origin}/adcp/webhook\`;
// The test vectors' seller key, resolved to the agent the walk-through calls: the signer its handle names.
const release = process.env.SELLER_RELEASE === '3.0' ? '3.0' : '3.1';
const receiver = createWebhookReceiver({ endpoint: origin, keys: (kid) => { const key = resolver(kid); return key && { ...key, agent: sellerUrl }; }, version: release });
`;

/** An MCP tool result carrying `structured` (and its text copy); an AdCP error as `isError`. */
function result(structured: Json, isError = false): CallToolResult {
  return {
    ...(isError ? { isError: true } : {}),
    content: [{ type: 'text', text: JSON.stringify(structured) }],
    structuredContent: structured,
  };
}

/** What a seller of each release answers: its capabilities, products, a submitted buy, its result, and how it is polled. */
const RELEASES = {
  '3.1': {
    capabilities: 'seller-3-1.json',
    products: JSON.parse(readFileSync(path.join(REPO_ROOT, 'examples/get-products.mcp.json'), 'utf8')).structuredContent as Json,
    submitted: payload('3.1/create_media_buy.submitted'),
    mediaBuy: payload('3.1/create_media_buy.valid'),
    poll: 'get_task_status',
  },
  '3.0': {
    capabilities: 'seller-3-0.json',
    products: payload('3.0/get_products.valid'),
    submitted: payload('3.0/create_media_buy.submitted'),
    mediaBuy: payload('3.0/create_media_buy.valid'),
    poll: 'tasks_get',
  },
} as const;
type Release = keyof typeof RELEASES;

/**
 * A seller of `release`: capabilities, products, a buy whose first attempt fails `transient`
 * (retry_after 1 s) and whose second is `submitted`; its polls answer `working`, and then either its
 * webhook completes the task (`webhook`) or the next poll does (`poll`, the webhook never comes).
 */
function seller(release: Release, ends: 'webhook' | 'poll', calls: Array<CallToolRequest['params']>, delivered: number[]) {
  const answers = RELEASES[release];
  const taskId = String(answers.submitted.task_id);
  return lowLevelSeller({
    call: async (params) => {
      calls.push(params);
      const buys = calls.filter((c) => c.name === 'create_media_buy');
      const polls = calls.filter((c) => c.name === answers.poll).length;
      switch (params.name) {
        case 'get_adcp_capabilities':
          return result(JSON.parse(readFileSync(path.join(REPO_ROOT, 'test/fixtures/capabilities', answers.capabilities), 'utf8')));
        case 'get_products':
          return result(answers.products);
        case 'create_media_buy':
          if (buys.length === 1)
            return result(
              { adcp_error: { code: 'SERVICE_UNAVAILABLE', message: 'Try again.', recovery: 'transient', retry_after: 1 } },
              true,
            );
          return result(answers.submitted);
        case answers.poll: {
          if (ends === 'poll' && polls > 1) return result(pollResponse('completed', { result: answers.mediaBuy }, taskId));
          if (ends === 'webhook') {
            // The seller echoes the registration's operation_id and POSTs to its URL, signed.
            const { url, operation_id } = buys[0]!.arguments!.push_notification_config as { url: string; operation_id: string };
            const body = { idempotency_key: `whk_${crypto.randomUUID()}`, operation_id, task_id: taskId, task_type: 'create_media_buy' };
            const hook = { ...body, status: 'completed', timestamp: new Date().toISOString(), result: answers.mediaBuy };
            setTimeout(() => void deliver(url, hook).then((status) => delivered.push(status)), 50);
          }
          return result(pollResponse('working', { progress: { percentage: 40 } }, taskId));
        }
        default:
          throw new Error(`unexpected tool ${params.name}`);
      }
    },
  });
}

const runs = ['3.1', '3.0'].flatMap((release) =>
  (['webhook', 'poll'] as const).map((ends) => ({
    release: release as Release,
    ends,
    calls: [] as Array<CallToolRequest['params']>,
    delivered: [] as number[],
  })),
);
let served: ServedSellers;
const work = mkdtempSync(path.join(tmpdir(), 'adcp-decode-readme-walk-'));

beforeAll(async () => {
  served = await serveSellers(
    Object.fromEntries(runs.map((run) => [`${run.release}-${run.ends}`, seller(run.release, run.ends, run.calls, run.delivered)])),
  );
  mkdirSync(path.join(work, 'node_modules'));
  symlinkSync(REPO_ROOT, path.join(work, 'node_modules', 'adcp-decode'), 'dir');
  for (const dep of ['@modelcontextprotocol', '@types'])
    symlinkSync(path.join(REPO_ROOT, 'node_modules', dep), path.join(work, 'node_modules', dep), 'dir');
  writeFileSync(path.join(work, 'package.json'), JSON.stringify({ name: 'readme-walk', private: true, type: 'module' }));
  // After the block, the webhook server is closed, so that the process ends when the block is done.
  writeFileSync(path.join(work, 'walk.ts'), `${GIVEN}${walk}hookServer.closeAllConnections();\nhookServer.close();\n`);
});
afterAll(async () => {
  await served?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Runs the walk-through against a seller of `release`; resolves to what it printed. */
async function runWalk(release: Release, ends: 'webhook' | 'poll'): Promise<string> {
  const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', path.join(REPO_ROOT, 'node_modules/tsx/dist/esm/index.mjs'), 'walk.ts'],
      {
        cwd: work,
        env: { ...process.env, SELLER_URL: new URL(`${release}-${ends}`, served.base).href, SELLER_RELEASE: release },
        timeout: 30_000,
      },
      (error, out, err) =>
        error === null ? resolve({ stdout: out }) : reject(new Error(`${error.message}\nstdout: ${out}\nstderr: ${err}`)),
    ),
  );
  return stdout;
}

/** What each tool call of a run sent, by name, and the create_media_buy attempts. */
function sent(list: Array<CallToolRequest['params']>) {
  const buys = list.filter((c) => c.name === 'create_media_buy').map((c) => c.arguments ?? {});
  return { names: list.map((c) => c.name), buys };
}

test('the walk-through is one block: capabilities, decoderFor, get_products, create_media_buy with retry, waitForTask with webhooks', () => {
  for (const step of ['get_adcp_capabilities', 'decoderFor(', "'get_products'", "'create_media_buy'", 'retry:', 'waitForTask(', 'webhooks'])
    expect(walk).toContain(step);
});

describe.each(['3.1', '3.0'] as const)('against a %s seller', (release) => {
  const answers = RELEASES[release];
  const run = (ends: 'webhook' | 'poll') => runs.find((r) => r.release === release && r.ends === ends) as (typeof runs)[number];
  // The request each release stamps: 3.1 its release, 3.0 (which defines no adcp_version) its major.
  const stamp = release === '3.1' ? { adcp_version: '3.1' } : { adcp_major_version: 3 };

  test('run against a real MCP seller: the buy retried with the same key, the webhook ends the wait after one poll', {
    timeout: 90_000,
  }, async () => {
    expect((await runWalk(release, 'webhook')).trim()).toBe(String(answers.mediaBuy.media_buy_id));
    const { calls, delivered } = run('webhook');
    const { names, buys } = sent(calls);
    expect(names).toEqual(['get_adcp_capabilities', 'get_products', 'create_media_buy', 'create_media_buy', answers.poll]);
    expect(buys[1]).toEqual(buys[0]);
    const products = answers.products.products as Array<{ product_id: string }>;
    expect(buys[0]).toMatchObject({ ...stamp, packages: [{ product_id: products[0]?.product_id }] });
    expect(calls.find((c) => c.name === 'get_products')?.arguments).toMatchObject({ buying_mode: 'brief', ...stamp });
    expect(delivered).toEqual([200]);
  });

  test('run against a seller whose webhook never comes: the polls end the wait', { timeout: 90_000 }, async () => {
    expect((await runWalk(release, 'poll')).trim()).toBe(String(answers.mediaBuy.media_buy_id));
    expect(sent(run('poll').calls).names.filter((n) => n === answers.poll)).toHaveLength(2);
  });
});
