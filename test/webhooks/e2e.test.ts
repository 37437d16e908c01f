/**
 * End to end: a buyer's webhook service in a fresh child process (test/webhooks/e2e-server.ts)
 * that imports adcp-decode only as `adcp-decode/webhooks`, the built entry (run `npm run build`
 * first), behind Express, Hono (`@hono/node-server`), a WHATWG `Request` handler and Node `http`,
 * with real Redis replay and dedup stores shared by all four and keys from a JWKS served here.
 * Webhooks signed by the independent test signer go over real HTTP. Genuine ones reach the
 * application typed, once; hostile ones are refused with the spec's code and status and never
 * reach it; a retry at a sibling endpoint is a duplicate (200); a body that drips ends at the
 * body deadline; a paused Redis fails closed (503); a body parsed by `express.json()` is the
 * operator's fault (500).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { completedBody, completedBodyOfSize, ed25519, failedBody, publicJwks, SELLER, workingBody } from './fixtures.js';
import { type RedisServer, startRedis } from './redis-server.js';
import { type Signed, signWebhook } from './signer.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER = fileURLToPath(new URL('./e2e-server.ts', import.meta.url));
const MAX = 1_000_000;

interface Entry {
  readonly server: string;
  readonly outcome: string;
  readonly status: number;
  readonly mediaBuyId?: unknown;
  readonly agent?: string;
}

let redis: RedisServer;
let jwks: Server;
let child: ChildProcess;
let ports: Record<'express' | 'hono' | 'request' | 'node', number>;
let stderr = '';

async function startChild(config: object): Promise<typeof ports> {
  child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    cwd: ROOT,
    env: { ...process.env, E2E_CONFIG: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /^READY (.*)$/m.exec(out);
      if (ready) resolve(JSON.parse(ready[1] as string));
    });
    child.once('exit', (code) => reject(new Error(`the webhook service exited (${code}) before it was ready:\n${stderr.slice(0, 4000)}`)));
  });
}

beforeAll(async () => {
  redis = await startRedis();
  jwks = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: publicJwks })));
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  const jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`;
  ports = await startChild({ redisUrl: redis.url, jwksUrl, agent: SELLER, maxBodyBytes: MAX, bodyTimeoutMs: 500, storeTimeoutMs: 300 });
});

afterAll(async () => {
  if (child !== undefined && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await redis?.stop();
  await new Promise((resolve) => jwks?.close(resolve));
});

test('the service imports adcp-decode only as adcp-decode/webhooks', () => {
  const source = readFileSync(SERVER, 'utf8');
  const specifiers = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
  expect(specifiers.filter((s) => /adcp-decode|src\//.test(s as string))).toEqual(['adcp-decode/webhooks']);
});

const now = () => Math.floor(Date.now() / 1000);
const uniqueKey = () => `whk_${crypto.randomUUID().replaceAll('-', '')}`;

async function log(port: number): Promise<{ log: Entry[]; digests: number }> {
  return (await fetch(`http://127.0.0.1:${port}/log`)).json() as Promise<{ log: Entry[]; digests: number }>;
}

async function post(url: string, signed: { headers: Record<string, string>; body: Uint8Array | string }): Promise<Response> {
  return fetch(url, { method: 'POST', headers: signed.headers, body: signed.body as NonNullable<RequestInit['body']> });
}

/** Sends one webhook to a server and returns the answer and the application's log lines it added. */
async function deliver(port: number, signed: { headers: Record<string, string>; body: Uint8Array | string }, path = '/hook') {
  const before = (await log(port)).log.length;
  const response = await post(`http://127.0.0.1:${port}${path}`, signed);
  return { response, added: (await log(port)).log.slice(before) };
}

const sign = (port: number, body: string, extra: Partial<Parameters<typeof signWebhook>[0]> = {}): Promise<Signed> =>
  signWebhook({ key: ed25519, url: `http://127.0.0.1:${port}/hook`, body, created: now(), ...extra });

const SERVERS = ['express', 'hono', 'request', 'node'] as const;

describe.each(SERVERS)('%s', (name) => {
  const port = () => ports[name];
  test('completed: 200, and the application gets typed create_media_buy data from the seller, once', async () => {
    const { response, added } = await deliver(port(), await sign(port(), completedBody({ idempotency_key: uniqueKey() })));
    expect(response.status).toBe(200);
    expect(added).toEqual([expect.objectContaining({ server: name, outcome: 'delivered', mediaBuyId: 'mb_4821', agent: SELLER })]);
  });
  test('failed with adcp_error: 200, the typed failure recorded', async () => {
    const body = JSON.stringify({ ...(JSON.parse(failedBody()) as object), idempotency_key: uniqueKey() });
    const { response, added } = await deliver(port(), await sign(port(), body));
    expect([response.status, added[0]?.outcome]).toEqual([200, 'failed:BUDGET_TOO_LOW']);
  });
  test('working: 200', async () => {
    const body = JSON.stringify({ ...(JSON.parse(workingBody()) as object), idempotency_key: uniqueKey() });
    expect((await deliver(port(), await sign(port(), body))).response.status).toBe(200);
  });
  test('a retry of a processed event (a fresh signature): 200, resolved as a duplicate, not processed again', async () => {
    const body = completedBody({ idempotency_key: uniqueKey() });
    await deliver(port(), await sign(port(), body));
    const { response, added } = await deliver(port(), await sign(port(), body));
    expect([response.status, added.map((e) => e.outcome)]).toEqual([200, ['duplicate']]);
  });
  test('the same key with a changed payload: 409', async () => {
    const key = uniqueKey();
    await deliver(port(), await sign(port(), completedBody({ idempotency_key: key })));
    const { response } = await deliver(port(), await sign(port(), completedBody({ idempotency_key: key, message: 'edited' })));
    expect(response.status).toBe(409);
  });
  const hostile: Array<[string, string, number, (s: Signed) => { headers: Record<string, string>; body: Uint8Array | string }]> = [
    [
      'tampered body',
      'webhook_signature_digest_mismatch',
      401,
      (s) => ({ headers: s.headers, body: new TextDecoder().decode(s.body).replace('mb_4821', 'mb_9999') }),
    ],
    [
      'wrong digest',
      'webhook_signature_invalid',
      401,
      (s) => ({ headers: { ...s.headers, 'content-digest': 'sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:' }, body: s.body }),
    ],
    [
      'wrong content type',
      'webhook_content_type_invalid',
      415,
      (s) => ({ headers: { ...s.headers, 'content-type': 'text/plain' }, body: s.body }),
    ],
  ];
  test.each(hostile)('%s: %s (%i), nothing delivered', async (_what, code, status, tweak) => {
    const { response, added } = await deliver(port(), tweak(await sign(port(), completedBody({ idempotency_key: uniqueKey() }))));
    expect(response.status).toBe(status);
    if (status === 401) expect(response.headers.get('www-authenticate')).toBe(`Signature error="${code}"`);
    expect(added.map((e) => e.outcome)).toEqual([code]);
  });
  test('expired, wrong tag, duplicate keys: 401 with the spec code', async () => {
    const cases: Array<[string, Promise<Signed>]> = [
      ['webhook_signature_window_invalid', sign(port(), completedBody(), { created: now() - 700 })],
      ['webhook_signature_tag_invalid', sign(port(), completedBody(), { tag: 'adcp/request-signing/v1' })],
      [
        'webhook_body_malformed',
        sign(port(), completedBody().replace('"task_id":"task_cmb_4821"', '"task_id":"task_cmb_4821","task_id":"x"')),
      ],
    ];
    for (const [code, signed] of cases) {
      const response = await post(`http://127.0.0.1:${port()}/hook`, await signed);
      expect([response.status, response.headers.get('www-authenticate')]).toEqual([401, `Signature error="${code}"`]);
    }
  });
  test('replayed: the second delivery of the same signed request is refused', async () => {
    const signed = await sign(port(), workingBody());
    await post(`http://127.0.0.1:${port()}/hook`, signed);
    const again = await post(`http://127.0.0.1:${port()}/hook`, signed);
    expect([again.status, again.headers.get('www-authenticate')]).toEqual([401, 'Signature error="webhook_signature_replayed"']);
  });
  test('an oversize body (1.2 MB): 413 before any digest', async () => {
    const before = (await log(port())).digests;
    const { response } = await deliver(port(), await sign(port(), completedBodyOfSize(1_200_000)));
    expect(response.status).toBe(413);
    expect((await log(port())).digests).toBe(before);
  });
});

describe('across endpoints sharing the Redis stores', () => {
  test('a retry delivered to a sibling endpoint (another framework) is a duplicate: 200, processed once', async () => {
    const body = completedBody({ idempotency_key: uniqueKey() });
    const first = await deliver(ports.express, await sign(ports.express, body));
    const retry = await deliver(ports.hono, await sign(ports.hono, body));
    expect([first.added[0]?.outcome, retry.response.status, retry.added[0]?.outcome]).toEqual(['delivered', 200, 'duplicate']);
  });
});

/** Sends the headers and the body's first bytes, then one byte every 20 ms; resolves when the server closes or answers. */
async function drip(port: number, signed: Signed): Promise<{ answer: string; sent: number }> {
  const socket = connect(port, '127.0.0.1');
  const head = Object.entries({ ...signed.headers, 'content-length': String(signed.body.length), connection: 'close' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`POST /hook HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n${head}\r\n`);
  let sent = 0;
  const timer = setInterval(() => {
    if (!socket.destroyed && sent < signed.body.length - 1) socket.write(signed.body.subarray(sent, ++sent));
  }, 20);
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  await new Promise<void>((resolve) => {
    socket.on('close', () => resolve());
    socket.on('data', () => socket.destroy());
  });
  clearInterval(timer);
  return { answer, sent };
}

describe('the body deadline against a sender that drips its body under the size bound', () => {
  test.each(['hono', 'request', 'node'] as const)('%s: webhook_body_timeout, the body never completed', async (name) => {
    const signed = await sign(ports[name], completedBody({ idempotency_key: uniqueKey() }));
    const before = (await log(ports[name])).log.length;
    const { answer, sent } = await drip(ports[name], signed);
    const added = (await log(ports[name])).log.slice(before);
    expect(added.map((e) => e.outcome)).toEqual(['webhook_body_timeout']);
    expect(sent).toBeLessThan(signed.body.length);
    // The server either answers 408 or cuts the connection; it never waits for the rest.
    if (answer !== '') expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });
});

describe('a paused Redis (SIGSTOP) fails closed at the store deadline', () => {
  test.each(SERVERS)('%s: 503 webhook_replay_store_unavailable while Redis is stopped; 200 once it is continued', async (name) => {
    const body = completedBody({ idempotency_key: uniqueKey() });
    redis.process.kill('SIGSTOP');
    let stopped: Awaited<ReturnType<typeof deliver>>['response'];
    try {
      stopped = await post(`http://127.0.0.1:${ports[name]}/hook`, await sign(ports[name], body));
    } finally {
      redis.process.kill('SIGCONT');
    }
    expect(stopped.status).toBe(503);
    const { log: entries } = await log(ports[name]);
    expect(entries.at(-1)).toMatchObject({ server: name, outcome: 'webhook_replay_store_unavailable', status: 503 });
    expect((await deliver(ports[name], await sign(ports[name], body))).response.status).toBe(200);
  });
});

test('Express with express.json() before the receiver: 500 webhook_body_not_raw, never blamed on the seller', async () => {
  const signed = await sign(ports.express, completedBody({ idempotency_key: uniqueKey() }));
  const { response, added } = await deliver(ports.express, { headers: signed.headers, body: signed.body }, '/hook/json');
  expect([response.status, added.map((e) => e.outcome)]).toEqual([500, ['webhook_body_not_raw']]);
});
