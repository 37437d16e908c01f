/**
 * The buyer's webhook service of test/webhooks/e2e.test.ts, run in a fresh child process that
 * imports adcp-decode only as `adcp-decode/webhooks` (the built entry, dist/webhooks/index.js,
 * reached by the package's own name): the same receiver setup behind Express (`express.raw()`),
 * Hono (`@hono/node-server`), a WHATWG `Request` handler on Node `http`, and Node `http` handing
 * the IncomingMessage over, all sharing real Redis replay and dedup stores, as endpoints of one
 * fleet do. Each records what reached its application; `GET /log` returns it.
 * Configuration comes in E2E_CONFIG (JSON); the ports go out on stdout as `READY {json}`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { serve } from '@hono/node-server';
import {
  createRedisDedupStore,
  createRedisReplayStore,
  createWebhookReceiver,
  type IncomingWebhook,
  type WebhookCrypto,
  type WebhookReceiver,
  webhookResponse,
} from 'adcp-decode/webhooks';
import express from 'express';
import { Hono } from 'hono';
import { createClient } from 'redis';

interface Config {
  readonly redisUrl: string;
  readonly jwksUrl: string;
  readonly agent: string;
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
  readonly storeTimeoutMs: number;
}

/** One line of the application's log: a delivery that reached it, or the refusal it answered. */
interface Entry {
  readonly server: string;
  readonly outcome: string;
  readonly status: number;
  readonly taskType?: string;
  readonly taskId?: string | undefined;
  readonly mediaBuyId?: unknown;
  readonly agent?: string;
}

const config = JSON.parse(process.env.E2E_CONFIG ?? '{}') as Config;
const log: Entry[] = [];
const digests = { count: 0 };
// WebCrypto with a count of digests, to show an oversize body was refused before any was computed.
const s = crypto.subtle;
const subtle: WebhookCrypto = {
  digest: (...a: Parameters<typeof s.digest>) => (digests.count++, s.digest(...a)),
  verify: (...a: Parameters<typeof s.verify>) => s.verify(...a),
  importKey: ((...a: Parameters<typeof s.importKey>) => s.importKey(...a)) as typeof s.importKey,
  sign: (...a: Parameters<typeof s.sign>) => s.sign(...a),
};

const client = createClient({ url: config.redisUrl });
// Without an 'error' listener node-redis ends the process when Redis goes away.
client.on('error', () => undefined);
await client.connect();
const replayStore = createRedisReplayStore({ client });
const dedupStore = createRedisDedupStore({ client });

/** A receiver pinned to the origin its server listens on, as the operator registers it. */
function receiver(endpoint: string): WebhookReceiver {
  return createWebhookReceiver({
    endpoint,
    jwks: { url: config.jwksUrl, agent: config.agent },
    replayStore,
    dedup: { store: dedupStore },
    maxBodyBytes: config.maxBodyBytes,
    bodyTimeoutMs: config.bodyTimeoutMs,
    storeTimeoutMs: config.storeTimeoutMs,
    subtle,
  });
}

/** The application: receive, record, commit the dedup claim, answer; the status and headers to send. */
async function handle(
  server: string,
  rx: WebhookReceiver,
  request: IncomingWebhook,
): Promise<{ status: number; headers: Record<string, string> }> {
  let outcome: Awaited<ReturnType<WebhookReceiver['receive']>>;
  try {
    outcome = await rx.receive(request);
  } catch (error) {
    const { status, headers } = webhookResponse(error);
    const code = (error as { webhookCode?: string; code?: string }).webhookCode ?? (error as { code?: string }).code ?? 'unknown';
    log.push({ server, outcome: code, status });
    return { status, headers: { ...headers } };
  }
  const { status, headers } = webhookResponse(outcome);
  switch (outcome.kind) {
    case 'delivered': {
      const data = outcome.data as { media_buy_id?: unknown } | null;
      log.push({
        server,
        outcome: 'delivered',
        status,
        taskType: outcome.taskType,
        taskId: outcome.taskId,
        mediaBuyId: data?.media_buy_id,
        agent: outcome.signer.agent,
      });
      await outcome.dedup?.complete();
      break;
    }
    case 'task-failed':
      log.push({ server, outcome: `failed:${outcome.error.adcpError?.code}`, status, taskId: outcome.taskId });
      await outcome.dedup?.complete();
      break;
    case 'duplicate':
      log.push({ server, outcome: 'duplicate', status, taskId: outcome.taskId });
  }
  return { status, headers: { ...headers } };
}

function reply(res: ServerResponse, answer: { status: number; headers: Record<string, string> }): void {
  if (!res.destroyed) res.writeHead(answer.status, answer.headers).end();
}

function logRoute(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'GET' || req.url !== '/log') return false;
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ log, digests: digests.count }));
  return true;
}

async function listen(start: (port: number, ready: (port: number) => void) => void): Promise<number> {
  return new Promise((resolve) => start(0, resolve));
}

/** Each endpoint's public origin, as the operator configures it (never rebuilt from a request's Host). */
const origins = { express: '', request: '', node: '' };

const app = express();
// Each receiver is made once its server listens: its endpoint is that server's origin.
let expressRx: WebhookReceiver;
app.get('/log', (req, res) => void logRoute(req, res));
app.post('/hook/json', express.json(), async (req, res) => {
  const answer = await handle('express-json', expressRx, {
    method: req.method,
    url: new URL(req.originalUrl, origins.express),
    headers: req.headers,
    body: req.body,
  });
  res.status(answer.status).set(answer.headers).end();
});
app.post('/hook', express.raw({ type: () => true, limit: 2 * config.maxBodyBytes }), async (req, res) => {
  const answer = await handle('express', expressRx, {
    method: req.method,
    url: new URL(req.originalUrl, origins.express),
    headers: req.headers,
    body: req.body,
  });
  res.status(answer.status).set(answer.headers).end();
});
const expressPort = await listen((port, ready) => {
  const server = app.listen(port, '127.0.0.1', () => ready((server.address() as AddressInfo).port));
});
origins.express = `http://127.0.0.1:${expressPort}`;
expressRx = receiver(origins.express);

const hono = new Hono();
let honoRx: WebhookReceiver;
hono.get('/log', (c) => c.json({ log, digests: digests.count }));
hono.post('/hook', async (c) => {
  const answer = await handle('hono', honoRx, c.req.raw);
  return new Response(null, answer);
});
const honoPort = await listen((port, ready) => {
  serve({ fetch: hono.fetch, port, hostname: '127.0.0.1' }, (info) => ready(info.port));
});
honoRx = receiver(`http://127.0.0.1:${honoPort}`);

/** A fetch-style handler, as Workers and Deno have: a WHATWG Request in, a Response out. */
let fetchRx: WebhookReceiver;
async function onRequest(request: Request): Promise<Response> {
  return new Response(null, await handle('request', fetchRx, request));
}
const fetchPort = await listen((port, ready) => {
  const server = createServer(async (req, res) => {
    if (logRoute(req, res)) return;
    const url = new URL(req.url ?? '/', origins.request);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    // Read from the IncomingMessage only when pulled (as @hono/node-server does): a body refused
    // unread (413 on its Content-Length) stays untouched, so Node drains it and the 413 arrives.
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          reader ??= (Readable.toWeb(req) as ReadableStream<Uint8Array>).getReader();
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
        cancel: (reason) => (reader === undefined ? void req.destroy() : reader.cancel(reason)),
      },
      // No read ahead: a stream pulls at once to fill a queue of one otherwise.
      { highWaterMark: 0 },
    );
    const response = await onRequest(new Request(url, { method: req.method ?? 'GET', headers, body, duplex: 'half' } as RequestInit));
    reply(res, { status: response.status, headers: Object.fromEntries(response.headers) });
  });
  server.listen(port, '127.0.0.1', () => ready((server.address() as AddressInfo).port));
});
origins.request = `http://127.0.0.1:${fetchPort}`;
fetchRx = receiver(origins.request);

let nodeRx: WebhookReceiver;
const nodePort = await listen((port, ready) => {
  const server = createServer(async (req, res) => {
    if (logRoute(req, res)) return;
    const url = new URL(req.url ?? '/', origins.node);
    reply(res, await handle('node', nodeRx, { method: req.method ?? '', url, headers: req.headers, body: req }));
  });
  server.listen(port, '127.0.0.1', () => ready((server.address() as AddressInfo).port));
});
origins.node = `http://127.0.0.1:${nodePort}`;
nodeRx = receiver(origins.node);

process.stdout.write(`READY ${JSON.stringify({ express: expressPort, hono: honoPort, request: fetchPort, node: nodePort })}\n`);
