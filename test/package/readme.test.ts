/**
 * The README's TypeScript examples compile as shown, strict, against the built package (dist/,
 * reached as `adcp-decode` the way an installed copy is) and the SDKs they import, with no cast.
 * Names an example uses without defining (the seller's URL, a connected client) are declared
 * ambiently in one place below. Needs a build (`npm test` runs one first).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';
import { REPO_ROOT } from '../../scripts/schema-paths.js';
import { STRICT_BUYER } from '../fixtures/strict-buyer.js';

const run = promisify(execFile);

/** The ```ts blocks of a Markdown text, in order. */
function typeScriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** What the examples take as given. */
const GIVEN = `declare const sellerUrl: string;
declare const agentUrl: string;
declare const webhookUrl: string;
declare const brief: string;
declare const result: unknown;
declare const client: import('@modelcontextprotocol/sdk/client/index.js').Client;
declare const params: Parameters<import('@modelcontextprotocol/sdk/client/index.js').Client['callTool']>[0];
declare const agent: import('@a2a-js/sdk-v1/client').Client;
declare const request: Parameters<import('@a2a-js/sdk-v1/client').Client['sendMessage']>[0];
declare function log(message: string): void;
declare const receiver: import('adcp-decode/webhooks').WebhookReceiver;
declare const ORIGIN: string;
declare const privateJwk: import('adcp-decode/sign').PrivateJwk;
declare const capabilities: import('adcp-decode/sign').SigningPolicyOptions['capabilities'];
/** The application's webhook handling: dedup by idempotency_key, side effects, the status to answer. */
declare function handle(hook: import('adcp-decode/webhooks').ReceivedWebhook): Promise<200 | 409 | 503>;
declare function recordFailure(failure: import('adcp-decode/webhooks').ReceivedTaskFailure): Promise<200 | 409 | 503>;
`;

const blocks = typeScriptBlocks(readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8'));
const work = mkdtempSync(path.join(tmpdir(), 'adcp-decode-readme-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

test('the README has TypeScript examples, and none casts', () => {
  expect(blocks.length).toBeGreaterThanOrEqual(5);
  const code = blocks.flatMap((b) => b.split('\n')).map((line) => line.replace(/\/\/.*$/, ''));
  const casts = code.filter((line) => !/^\s*import\b/.test(line) && /\bas\s+(?!const\b)[\w{[(]/.test(line));
  expect(casts).toEqual([]);
  expect(blocks.filter((b) => /<any>|: any\b|@ts-/.test(b))).toEqual([]);
});

test('every README TypeScript example compiles (strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes)', {
  timeout: 180_000,
}, async () => {
  const modules = path.join(work, 'node_modules');
  mkdirSync(modules);
  symlinkSync(REPO_ROOT, path.join(modules, 'adcp-decode'), 'dir');
  for (const dep of ['@modelcontextprotocol', '@a2a-js', '@types', 'express', 'hono', 'redis', '@redis'])
    symlinkSync(path.join(REPO_ROOT, 'node_modules', dep), path.join(modules, dep), 'dir');
  writeFileSync(path.join(work, 'package.json'), JSON.stringify({ name: 'readme', private: true, type: 'module' }));
  writeFileSync(path.join(work, 'given.d.ts'), GIVEN);
  const files = blocks.map((block, i) => {
    const name = `example-${i + 1}.ts`;
    // Each example is a module of its own, as a file that imports is.
    writeFileSync(path.join(work, name), /^\s*(import|export)\b/m.test(block) ? block : `${block}\nexport {};\n`);
    return name;
  });
  const compilerOptions = {
    ...STRICT_BUYER,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  };
  writeFileSync(path.join(work, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['given.d.ts', ...files] }));
  const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const out = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: work }).then(
    () => '',
    (error: { stdout?: string }) => String(error.stdout),
  );
  // Errors name the example: example-N.ts is the README's N-th ```ts block.
  expect(out).toBe('');
});

test('every get_products request the README builds names its buying_mode (both releases require it; encode refuses it without)', () => {
  const briefs = blocks
    .flatMap((b) => b.split('\n'))
    .map((line) => line.replace(/\/\/.*$/, ''))
    .filter((line) => /[{,]\s*brief\b/.test(line));
  expect(briefs.length).toBeGreaterThanOrEqual(5);
  expect(briefs.filter((line) => !/\bbuying_mode: 'brief'/.test(line))).toEqual([]);
});
