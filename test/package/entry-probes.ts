/**
 * One probe per public entry of the package, as a user's file that imports that entry alone: a
 * plain ES module run by a fresh `node` (package.test.ts) from the installed tarball, which decodes
 * a valid answer with no preload() (validators load on first use in Node) and prints what it got as
 * one JSON line, or the error's code and message. The inputs (payloads, a genuine signed webhook
 * delivery) are written beside the probes by {@link probeInput}; the expected lines come from the
 * same inputs, so a probe can only pass by decoding them.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { privateJwk } from '../signatures/sign/helpers.js';
import { completedBody, completedResult, ed25519, HOOK_URL, publicJwks, SELLER } from '../webhooks/fixtures.js';
import { signWebhook } from '../webhooks/signer.js';

const payloadFile = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../fixtures/payloads/${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;

const products = payloadFile('3.1/get_products.valid');
const mediaBuys = payloadFile('3.0/get_media_buys.valid');
const signals = payloadFile('3.0/get_signals.valid');

/** A task-status answer (3.1 get_task_status; 3.0 tasks/get) of a create_media_buy still submitted. */
const polled = {
  task_id: 'task_cmb_4821',
  task_type: 'create_media_buy',
  protocol: 'media-buy',
  status: 'submitted',
  created_at: '2026-04-18T09:55:00Z',
  updated_at: '2026-04-18T09:59:58Z',
};

/** The request body the adcp-decode/sign probe signs. */
const SIGNED_BODY = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_products","arguments":{"brief":"CTV sports"}}}';

/** The delivery's clock (seconds): the receiver is given it, so the probe does not race the signature window. */
const NOW = 1_776_520_800;

/** What every probe reads (probe-input.json): the payloads, and a webhook signed with the public test key. */
export async function probeInput(): Promise<Record<string, unknown>> {
  const body = completedBody();
  const signed = await signWebhook({ key: ed25519, url: HOOK_URL, body, created: NOW - 5 });
  return {
    products: { structuredContent: products },
    mediaBuys: { structuredContent: mediaBuys },
    signals,
    polled,
    sign: {
      url: 'https://seller.example.com/adcp/mcp',
      body: SIGNED_BODY,
      jwk: privateJwk(ed25519),
      publicJwk: { kty: 'OKP', crv: 'Ed25519', x: ed25519.x },
      kid: ed25519.kid,
    },
    webhook: {
      url: HOOK_URL,
      headers: signed.headers,
      body,
      now: NOW * 1000,
      jwk: publicJwks.find((k) => k.kid === ed25519.kid),
      agent: SELLER,
    },
  };
}

export interface EntryProbe {
  /** The import specifier, or `bin` for the command line. */
  readonly entry: string;
  /** The probe file's name in the consumer project. */
  readonly file: string;
  /** An ES module importing `entry` alone (empty for the bin). */
  readonly script: string;
  /** The JSON line it must print. */
  readonly expected: unknown;
}

/** Reads the inputs and prints the probe's result, or the error that stopped it. */
const frame = (imports: string, body: string) => `${imports}
import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync('probe-input.json', 'utf8'));
try {
${body}
} catch (e) {
  console.log(JSON.stringify({ error: e?.code ?? String(e), webhookCode: e?.webhookCode, message: e?.message }));
}
`;

const productIds = (products.products as Array<{ product_id: string }>).map((p) => p.product_id);

export const ENTRY_PROBES: readonly EntryProbe[] = [
  {
    entry: 'adcp-decode',
    file: 'probe-root.mjs',
    script: frame(
      `import * as root from 'adcp-decode';`,
      `  const decoded = root.decode('get_products', input.products);
  const signals = root.decode('get_signals', { structuredContent: input.signals });
  const bad = root.safeDecode('get_products', { structuredContent: { products: [{}] } });
  console.log(JSON.stringify({
    products: decoded.products.map((p) => p.product_id),
    signals: signals.adcp_version,
    bad: [bad.error instanceof root.SchemaMismatchError, bad.error.code],
    // One API on every runtime: the bounded fetch is at adcp-decode/fetch only.
    fetch: 'boundedFetch' in root,
  }));`,
    ),
    expected: { products: productIds, signals: signals.adcp_version, bad: [true, 'SCHEMA_MISMATCH'], fetch: false },
  },
  {
    entry: 'adcp-decode/3.1',
    file: 'probe-3.1.mjs',
    script: frame(
      `import { decode, safeDecode, decodeTaskStatus, classifyRecovery, SchemaMismatchError } from 'adcp-decode/3.1';`,
      `  const bad = safeDecode('get_products', { structuredContent: { products: [{}] } });
  const task = decodeTaskStatus({ structuredContent: input.polled });
  console.log(JSON.stringify({
    products: decode('get_products', input.products).products.map((p) => p.product_id),
    bad: [bad.error instanceof SchemaMismatchError, bad.error.version],
    task: [task.taskType, task.status, task.version],
    recovery: classifyRecovery({ code: 'RATE_LIMITED' }).recovery,
  }));`,
    ),
    expected: {
      products: productIds,
      bad: [true, V3_1],
      task: ['create_media_buy', 'submitted', V3_1],
      recovery: 'transient',
    },
  },
  {
    entry: 'adcp-decode/3.0',
    file: 'probe-3.0.mjs',
    script: frame(
      `import { decode, decodeTaskStatus, TaskFailedError } from 'adcp-decode/3.0';`,
      `  let failed;
  try { decodeTaskStatus({ ...input.polled, status: 'failed', error: { code: 'BUDGET_TOO_LOW', message: 'below the floor' } }); }
  catch (e) { failed = [e instanceof TaskFailedError, e.adcpError.code]; }
  console.log(JSON.stringify({
    mediaBuys: decode('get_media_buys', input.mediaBuys).media_buys.length,
    task: decodeTaskStatus({ jsonrpc: '2.0', id: 1, result: input.polled }).version,
    failed,
  }));`,
    ),
    expected: { mediaBuys: (mediaBuys.media_buys as unknown[]).length, task: V3_0, failed: [true, 'BUDGET_TOO_LOW'] },
  },
  {
    entry: 'adcp-decode/webhooks',
    file: 'probe-webhooks.mjs',
    script: frame(
      `import { createWebhookReceiver, decodeWebhook } from 'adcp-decode/webhooks';`,
      `  const { webhook } = input;
  const receiver = createWebhookReceiver({
    keys: (kid) => (kid === webhook.jwk.kid ? { jwk: webhook.jwk, agent: webhook.agent } : undefined),
    now: () => webhook.now,
    endpoint: webhook.url,
  });
  const hook = await receiver.receive(new Request(webhook.url, { method: 'POST', headers: webhook.headers, body: webhook.body }));
  const decoded = decodeWebhook(webhook.body);
  console.log(JSON.stringify({
    received: [hook.status, hook.taskType, hook.data.media_buy_id, hook.signer.keyid, hook.signer.agent],
    decoded: [decoded.status, decoded.data.packages.length],
  }));`,
    ),
    expected: {
      received: ['completed', 'create_media_buy', completedResult.media_buy_id, ed25519.kid, SELLER],
      decoded: ['completed', completedResult.packages.length],
    },
  },
  {
    entry: 'adcp-decode/sign',
    file: 'probe-sign.mjs',
    // The probe checks the signature itself with WebCrypto, over a base it writes from the profile.
    script: frame(
      `import { createRequestSigner, withRequestSigning } from 'adcp-decode/sign';`,
      `  const { sign } = input;
  const sent = [];
  const signer = createRequestSigner({ key: sign.jwk, keyid: sign.kid, alg: 'ed25519' });
  await withRequestSigning(async (request) => { sent.push(request); return new Response('{}'); }, signer)(sign.url, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: sign.body,
  });
  const header = (name) => sent[0].headers.get(name);
  const params = header('signature-input').slice('sig1='.length);
  const base = ['"@method": POST', '"@target-uri": ' + sign.url, '"@authority": ' + new URL(sign.url).host, '"content-type": application/json',
    '"content-digest": ' + header('content-digest'), '"@signature-params": ' + params].join('\\n');
  const key = await crypto.subtle.importKey('jwk', sign.publicJwk, { name: 'Ed25519' }, false, ['verify']);
  const signature = Buffer.from(header('signature').slice('sig1=:'.length, -1), 'base64url');
  console.log(JSON.stringify({
    verified: await crypto.subtle.verify({ name: 'Ed25519' }, key, signature, new TextEncoder().encode(base)),
    tag: /;tag="([^"]+)"/.exec(params)[1],
    digest: header('content-digest'),
    body: await sent[0].text(),
  }));`,
    ),
    expected: {
      verified: true,
      tag: 'adcp/request-signing/v1',
      digest: `sha-256=:${createHash('sha256').update(SIGNED_BODY).digest('base64')}:`,
      body: SIGNED_BODY,
    },
  },
  {
    entry: 'adcp-decode/fetch',
    file: 'probe-fetch.mjs',
    script: frame(
      `import { boundedFetch } from 'adcp-decode/fetch';
import { createServer } from 'node:http';`,
      `  const server = createServer((req, res) => {
    const body = req.url === '/big' ? 'x'.repeat(4096) : JSON.stringify(input.products);
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = 'http://127.0.0.1:' + server.address().port;
  const fetch = boundedFetch({ maxBytes: 1024 * 1024 });
  const ok = await (await fetch(origin + '/ok')).json();
  let big;
  try { await (await boundedFetch({ maxBytes: 1024 })(origin + '/big')).text(); } catch (e) { big = e.code; }
  server.close();
  console.log(JSON.stringify({ ok: ok.structuredContent.products.length, big }));`,
    ),
    expected: { ok: productIds.length, big: 'TOO_LARGE' },
  },
  {
    entry: 'adcp-decode/mcp',
    file: 'probe-mcp.mjs',
    script: frame(
      `import { callTask, safeCallTask } from 'adcp-decode/mcp';`,
      `  // A client with the official SDK's callTool: what it was asked, and the answer a seller gave.
  const asked = [];
  const client = (answer) => ({ callTool: async (params, _schema, options) => (asked.push([params, typeof options.timeout]), answer) });
  const products = await callTask(client(input.products), 'get_products', { buying_mode: 'brief', brief: 'CTV, Q3' }, { version: '3.1' });
  const refused = await safeCallTask(client({ isError: true, content: [{ type: 'text', text: 'no' }] }), 'get_products', { buying_mode: 'brief', brief: 'x' });
  console.log(JSON.stringify({
    products: products.products.map((p) => p.product_id),
    sent: asked[0],
    refused: refused.error.code,
  }));`,
    ),
    expected: {
      products: productIds,
      sent: [
        { name: 'get_products', arguments: { buying_mode: 'brief', brief: 'CTV, Q3', adcp_version: '3.1', adcp_major_version: 3 } },
        'number',
      ],
      refused: 'TASK_FAILED',
    },
  },
  {
    entry: 'adcp-decode/a2a',
    file: 'probe-a2a.mjs',
    script: frame(
      `import { callTask, foldA2aStream } from 'adcp-decode/a2a';`,
      `  // A client with the A2A SDK's sendMessage, answering with its in-memory objects (numeric state, content.$case parts).
  const dataPart = (value) => ({ content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' });
  const task = { id: 't1', contextId: 'c1', status: { state: 3, message: undefined, timestamp: undefined }, artifacts: [{ artifactId: 'a', name: '', description: '', parts: [dataPart(input.products.structuredContent)], metadata: undefined, extensions: [] }], history: [], metadata: undefined };
  let sent;
  const client = { sendMessage: async (request) => ((sent = request.message.parts[0].content.value), task), sendMessageStream: async function* () {} };
  const products = await callTask(client, 'get_products', { buying_mode: 'brief', brief: 'CTV, Q3' }, { version: '3.1' });
  const folded = foldA2aStream([{ task: { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_SUBMITTED' } } }, { statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } } }]);
  console.log(JSON.stringify({ products: products.products.map((p) => p.product_id), skill: sent.skill, stamp: sent.input.adcp_version, folded: folded.status.state }));`,
    ),
    expected: { products: productIds, skill: 'get_products', stamp: '3.1', folded: 'TASK_STATE_WORKING' },
  },
  {
    entry: 'adcp-decode/validator-runtime',
    file: 'probe-validator-runtime.mjs',
    script: frame(
      `import { isUri, jsonEqual, uniquePair } from 'adcp-decode/validator-runtime';`,
      `  // What a generated release module's validators call: the linear uniqueItems pair, the uri format, JSON equality.
  console.log(JSON.stringify({ pair: uniquePair(['a', 'b', 'a'], jsonEqual), uri: [isUri('https://seller.example/adcp'), isUri('not a uri')] }));`,
    ),
    expected: { pair: [2, 0], uri: [true, false] },
  },
];
