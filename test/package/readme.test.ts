/**
 * The TypeScript examples of the README and of the reference in docs/ compile as shown, strict,
 * against the built package (dist/, reached as `adcp-decode` the way an installed copy is) and the
 * SDKs they import, with no cast. Names an example uses without defining (the seller's URL, a
 * connected client) are declared ambiently in one place below. Needs a build (`npm test` runs one first).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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

/**
 * The pages whose examples are compiled: the README and every page of docs/ but benchmarks.md, whose
 * one block is the official SDK's version of the walk-through, counted there and not ours to run.
 */
const PAGES = [
  'README.md',
  ...readdirSync(path.join(REPO_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md') && name !== 'benchmarks.md')
    .sort()
    .map((name) => `docs/${name}`),
];

/** Every example, named after its page and place: `docs-calling-3.ts` is the third ```ts block of docs/calling.md. */
const examples = PAGES.flatMap((page) =>
  typeScriptBlocks(readFileSync(path.join(REPO_ROOT, page), 'utf8')).map((code, i) => ({
    name: `${page.replace(/\.md$/, '').replace(/\//g, '-')}-${i + 1}.ts`,
    code,
  })),
);
const blocks = examples.map((e) => e.code);
const work = mkdtempSync(path.join(tmpdir(), 'adcp-decode-readme-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

test('the README is a front door: at most 350 lines, the reference in docs/', () => {
  expect(readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(350);
});

test('the README and docs/ have TypeScript examples, and none casts', () => {
  expect(examples.filter((e) => e.name.startsWith('README-')).length).toBeGreaterThanOrEqual(2);
  expect(blocks.length).toBeGreaterThanOrEqual(20);
  const code = blocks.flatMap((b) => b.split('\n')).map((line) => line.replace(/\/\/.*$/, ''));
  const casts = code.filter((line) => !/^\s*import\b/.test(line) && /\bas\s+(?!const\b)[\w{[(]/.test(line));
  expect(casts).toEqual([]);
  expect(blocks.filter((b) => /<any>|: any\b|@ts-/.test(b))).toEqual([]);
});

test('every TypeScript example of the README and docs/ compiles (strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes)', {
  timeout: 180_000,
}, async () => {
  const modules = path.join(work, 'node_modules');
  mkdirSync(modules);
  symlinkSync(REPO_ROOT, path.join(modules, 'adcp-decode'), 'dir');
  for (const dep of ['@modelcontextprotocol', '@a2a-js', '@types', 'express', 'hono', 'redis', '@redis', '@opentelemetry'])
    symlinkSync(path.join(REPO_ROOT, 'node_modules', dep), path.join(modules, dep), 'dir');
  writeFileSync(path.join(work, 'package.json'), JSON.stringify({ name: 'readme', private: true, type: 'module' }));
  writeFileSync(path.join(work, 'given.d.ts'), GIVEN);
  const files = examples.map(({ name, code }) => {
    // Each example is a module of its own, as a file that imports is.
    writeFileSync(path.join(work, name), /^\s*(import|export)\b/m.test(code) ? code : `${code}\nexport {};\n`);
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
  // Errors name the example: README-N.ts is the README's N-th ```ts block, docs-<page>-N.ts that of docs/<page>.md.
  expect(out).toBe('');
});

test('every get_products request the README and docs/ build names its buying_mode (both releases require it; encode refuses it without)', () => {
  const briefs = blocks
    .flatMap((b) => b.split('\n'))
    .map((line) => line.replace(/\/\/.*$/, ''))
    .filter((line) => /[{,]\s*brief\b/.test(line));
  expect(briefs.length).toBeGreaterThanOrEqual(5);
  expect(briefs.filter((line) => !/\bbuying_mode: 'brief'/.test(line))).toEqual([]);
});
