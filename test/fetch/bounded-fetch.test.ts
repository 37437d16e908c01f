/**
 * boundedFetch against a seller that misbehaves the ways hostile sellers do, called directly and
 * through the official MCP SDK client (Client + StreamableHTTPClientTransport).
 *
 * Every hostile response would send FLOOD (64 MiB) if nobody stopped it; the tests assert the typed
 * error (code, unit, limit, actual) and, server-side, that the connection was closed long before the
 * flood was written (the bytes it wrote include what sat in socket buffers when the client hung up).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS, FETCH_BOUNDS } from '../../src/bounds/fetch-bounds.js';
import { DecodeError, LimitError } from '../../src/errors/errors.js';
import { type BoundsViolation, boundedFetch, findBoundsError, withFetchBounds } from '../../src/fetch/bounded-fetch.js';
import { answerMcp, JSON_HEADERS, SSE_HEADERS } from '../fixtures/hand-rolled-mcp.js';
import type { LongIdOutcome } from '../fixtures/sse-long-id.js';

const LIMIT = 64 * 1024;
const FLOOD = 64 * 1024 * 1024;
/** A deadline that is meant to trip (only a misbehaving seller is on the clock). */
const SHORT_MS = 500;
/** A deadline with legitimate work on the clock too (connect, a normal call): roomy for a loaded machine. */
const MID_MS = 1_200;

// ---------------------------------------------------------------- the seller's side

interface Rec {
  readonly path: string;
  readonly method: string;
  readonly headers: http.IncomingHttpHeaders;
  rpcMethod: string | undefined;
  /** Body bytes handed to the socket before it closed. */
  written: number;
  /** The last SSE event id this response sent. */
  lastId: string | undefined;
  isClosed: boolean;
  /** True when the connection closed before the response was finished: the client hung up. */
  aborted: boolean;
  readonly closed: Promise<void>;
}

const log: Rec[] = [];
const sessions = new Map<string, StreamableHTTPServerTransport>();
const mcpServers: McpServer[] = [];
let base = '';

const A16K = Buffer.alloc(16 * 1024, 0x61);

const resultPrefix = (id: number | string) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`;
const smallResult = (id: number | string, text: string) =>
  JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });
/** One SSE event of about 1 KiB carrying a JSON-RPC logging notification. */
const notificationEvent = (id?: string) =>
  `${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify({
    jsonrpc: '2.0',
    method: 'notifications/message',
    params: { level: 'info', data: 'p'.repeat(900) },
  })}\n\n`;

/** A gzip member holding 1 MiB of `a` (~1 KiB); concatenated members are one valid gzip stream. */
const BOMB_MEMBER = gzipSync(Buffer.alloc(2 ** 20, 0x61), { level: 9 });
/** ~64 KiB of gzip that inflates to 64 MiB. */
const BOMB = Buffer.concat(new Array<Buffer>(FLOOD / 2 ** 20).fill(BOMB_MEMBER));

function waitDrain(stream: NodeJS.WritableStream, rec: Rec): Promise<void> {
  return Promise.race([new Promise<void>((resolve) => stream.once('drain', () => resolve())), rec.closed]);
}

/** Writes `chunk` until `total` bytes or until the client hangs up, honouring backpressure. */
async function pump(out: http.ServerResponse | Socket, rec: Rec, chunk: Buffer, total: number): Promise<void> {
  while (!rec.isClosed && rec.written < total) {
    rec.written += chunk.length;
    if (!out.write(chunk)) await waitDrain(out, rec);
  }
  if (!rec.isClosed) out.end();
}

/**
 * Writes ~1 KiB notification events (ids `${idPrefix}-n` when given) until `total` bytes, then ends,
 * or with `hold`, keeps the stream open (silent) until the client hangs up.
 */
async function pumpEvents(res: http.ServerResponse, rec: Rec, total: number, idPrefix?: string, hold = false): Promise<void> {
  let n = 0;
  while (!rec.isClosed && rec.written < total) {
    let batch = '';
    for (let i = 0; i < 8 && rec.written + Buffer.byteLength(batch) < total; i++) {
      const id = idPrefix === undefined ? undefined : `${idPrefix}-${++n}`;
      batch += notificationEvent(id);
      rec.lastId = id;
    }
    rec.written += Buffer.byteLength(batch);
    if (!res.write(batch)) await waitDrain(res, rec);
  }
  if (hold) await Promise.race([rec.closed, sleep(10_000)]);
  if (!rec.isClosed) res.end();
}

/** One byte every 100 ms until the client hangs up (or a minute passes). */
async function drip(res: http.ServerResponse, rec: Rec): Promise<void> {
  for (let i = 0; i < 600 && !rec.isClosed; i++) {
    await sleep(100);
    if (rec.isClosed) break;
    res.write('a');
    rec.written += 1;
  }
  if (!rec.isClosed) res.end();
}

/** The bad answers. `id` is the JSON-RPC id to answer (0 for plain fetch calls). */
async function misbehave(name: string, req: http.IncomingMessage, res: http.ServerResponse, rec: Rec, id: number | string) {
  switch (name) {
    case 'chunked': // far over the limit, no Content-Length
      res.writeHead(200, JSON_HEADERS);
      res.write(resultPrefix(id));
      return pump(res, rec, A16K, FLOOD);
    case 'cl-big': // declares (and sends) far more than the limit
      res.writeHead(200, { ...JSON_HEADERS, 'content-length': String(FLOOD) });
      return pump(res, rec, A16K, FLOOD);
    case 'cl-big-silent': // declares far more than the limit, then sends nothing
      res.writeHead(200, { ...JSON_HEADERS, 'content-length': String(FLOOD) });
      res.flushHeaders();
      return;
    case 'cl-small-lie': {
      // Declares a small, valid body, then keeps writing past it on the raw socket.
      const body = smallResult(id, 'the honest prefix');
      const socket = req.socket;
      socket.on('error', () => {});
      socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      return pump(socket, rec, A16K, FLOOD);
    }
    case 'gzip-bomb': {
      const coded = BOMB;
      res.writeHead(200, { ...JSON_HEADERS, 'content-encoding': 'gzip', 'content-length': String(coded.length) });
      rec.written += coded.length;
      res.end(coded);
      return;
    }
    case 'negotiate': {
      // A well-behaved server that compresses only when asked to.
      const body = Buffer.from(smallResult(id, 'x'.repeat(LIMIT / 2)));
      if (/gzip/.test(String(req.headers['accept-encoding'] ?? ''))) {
        res.writeHead(200, { ...JSON_HEADERS, 'content-encoding': 'gzip' }).end(gzipSync(body));
      } else res.writeHead(200, JSON_HEADERS).end(body);
      return;
    }
    case 'ok-1.5x': // within a raised per-call limit, over the default test limit
      res.writeHead(200, JSON_HEADERS).end(smallResult(id, 'x'.repeat(LIMIT * 1.5)));
      return;
    case 'drip':
      res.writeHead(200, JSON_HEADERS);
      res.flushHeaders();
      return drip(res, rec);
    case 'drip-headers': // accepts the request, never answers
      return;
    case 'sse-many': // many small events that add up past the limit
      res.writeHead(200, SSE_HEADERS);
      return pumpEvents(res, rec, FLOOD);
    case 'sse-one-big': // one event, never terminated, far over the limit
      res.writeHead(200, SSE_HEADERS);
      res.write(`event: message\ndata: ${resultPrefix(id)}`);
      return pump(res, rec, A16K, FLOOD);
    case 'sse-drip':
      res.writeHead(200, SSE_HEADERS);
      res.write('data: ');
      return drip(res, rec);
    case 'sse-resume':
      // 60% of the limit per stream, so over it only across the reconnect; the resumed stream then
      // stalls, so a client that reset its count would end in TIMEOUT, not TOO_LARGE.
      res.writeHead(200, SSE_HEADERS);
      if (req.method === 'GET') return pumpEvents(res, rec, Math.floor(LIMIT * 0.6), 'second', true);
      res.write('id: first-0\nretry: 20\ndata: \n\n');
      return pumpEvents(res, rec, Math.floor(LIMIT * 0.6), 'first');
    case 'sse-id-flood': {
      // One data event whose id is the SDK's resumption token, then a flood of data-less ids (which the
      // SDK's parser never surfaces) trying to push that token out of the client's memory.
      res.writeHead(200, SSE_HEADERS);
      if (req.method === 'GET') return pumpEvents(res, rec, Math.floor(LIMIT * 0.6), 'second', true);
      let text = `id: real\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'p'.repeat(LIMIT * 0.6) } })}\n\n`;
      for (let i = 0; i < 100; i++) text += `id: junk-${i}\n\n`;
      rec.written += Buffer.byteLength(text);
      res.end(text);
      return;
    }
    case 'sse-idle-then-drip': {
      // A listening stream: a complete event, a long quiet spell, another event, then one that drips.
      res.writeHead(200, SSE_HEADERS);
      res.write(notificationEvent('one'));
      await sleep(MID_MS + 300);
      if (rec.isClosed) return;
      res.write(notificationEvent('two'));
      res.write('data: ');
      return drip(res, rec);
    }
    default:
      res.writeHead(404).end();
  }
}

/** A real McpServer behind StreamableHTTPServerTransport; `mode` picks JSON responses or SSE. */
async function goodMcp(mode: string, req: http.IncomingMessage, res: http.ServerResponse, body: string) {
  const sessionId = req.headers['mcp-session-id'];
  let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
  if (transport === undefined) {
    const created = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: mode === 'json',
      onsessioninitialized: (id) => {
        sessions.set(id, created);
      },
    });
    transport = created;
    const server = new McpServer({ name: 'good-seller', version: '0.0.0' });
    server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
      content: [{ type: 'text', text }],
    }));
    server.registerTool('big', { inputSchema: { bytes: z.number().int() } }, async ({ bytes }) => ({
      content: [{ type: 'text', text: 'x'.repeat(bytes) }],
    }));
    await server.connect(transport);
    mcpServers.push(server);
  }
  await transport.handleRequest(req, res, body === '' ? undefined : JSON.parse(body));
}

const httpServer = http.createServer((req, res) => {
  let resolveClosed: () => void = () => {};
  const rec: Rec = {
    path: new URL(req.url ?? '/', 'http://x').pathname,
    method: req.method ?? '',
    headers: req.headers,
    rpcMethod: undefined,
    written: 0,
    lastId: undefined,
    isClosed: false,
    aborted: false,
    closed: new Promise<void>((resolve) => {
      resolveClosed = resolve;
    }),
  };
  res.on('close', () => {
    rec.isClosed = true;
    rec.aborted = !res.writableFinished;
    resolveClosed();
  });
  log.push(rec);
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const [, area = '', name = ''] = rec.path.split('/');
    const handle =
      area === 'plain'
        ? misbehave(name, req, res, rec, 0)
        : area === 'mcp'
          ? answerMcp(req, res, body, {
              onMessage: (method) => {
                rec.rpcMethod = method;
              },
              toolsCall: (id) => misbehave(name, req, res, rec, id),
              resume: () => misbehave(name, req, res, rec, 0),
            })
          : area === 'good'
            ? goodMcp(name, req, res, body)
            : Promise.resolve(void res.writeHead(404).end());
    handle.catch((error: unknown) => res.destroy(error instanceof Error ? error : undefined));
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  // The first fetch in a process loads undici; keep that out of the tests' deadlines.
  await (await fetch(`${base}/warm-up`)).arrayBuffer();
});

afterAll(async () => {
  await Promise.all(mcpServers.map((s) => s.close().catch(() => {})));
  httpServer.closeAllConnections();
  await new Promise<void>((resolve) => httpServer.close(() => resolve()));
});

/** The server-side record of the last request to `path` (optionally of one JSON-RPC method / HTTP method). */
function lastRec(path: string, filter: { rpcMethod?: string; method?: string } = {}): Rec {
  const found = log.filter(
    (r) =>
      r.path === path &&
      (filter.rpcMethod === undefined || r.rpcMethod === filter.rpcMethod) &&
      (filter.method === undefined || r.method === filter.method),
  );
  const rec = found[found.length - 1];
  if (rec === undefined) throw new Error(`no request to ${path}`);
  return rec;
}

/** Reads a body until it errors; returns what was delivered before the error, and the error. */
async function readUntilError(response: Response): Promise<{ text: string; error: unknown }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) throw new Error('expected the body to error, but it ended');
      text += decoder.decode(next.value, { stream: true });
    }
  } catch (error) {
    return { text, error };
  }
}

/** Runs a TypeScript worker script to its one message, or fails once `watchdogMs` pass (and stops it). */
function onWorker<T>(script: URL, workerData: unknown, watchdogMs: number): Promise<T> {
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(script.href)}); })`;
  const worker = new Worker(bootstrap, { eval: true, workerData });
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  return new Promise<T>((resolve, reject) => {
    watchdog = setTimeout(() => reject(new Error(`${script.pathname} did not finish within ${watchdogMs} ms`)), watchdogMs);
    worker.once('message', (message: T) => resolve(message));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`${script.pathname} exited (${code}) without a message`)));
  }).finally(() => {
    clearTimeout(watchdog);
    void worker.terminate();
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, but it resolved');
}

function expectLimit(error: unknown, code: 'TOO_LARGE' | 'TIMEOUT', limit: number): LimitError {
  expect(error).toBeInstanceOf(LimitError);
  const e = error as LimitError;
  expect(e.code).toBe(code);
  expect(e.unit).toBe(code === 'TOO_LARGE' ? 'bytes' : 'ms');
  expect(e.limit).toBe(limit);
  if (code === 'TOO_LARGE') expect(e.actual).toBeGreaterThan(limit);
  else expect(e.actual).toBeGreaterThanOrEqual(limit);
  return e;
}

/** The server saw the client hang up, having written far less than the flood. */
async function expectCutOff(rec: Rec): Promise<void> {
  await rec.closed;
  expect(rec.aborted).toBe(true);
  expect(rec.written).toBeLessThan(FLOOD / 4);
}

// ---------------------------------------------------------------- plain calls of the bounded fetch

describe('boundedFetch, called directly', () => {
  const post = { method: 'POST', body: '{}' } as const;

  it('exports the spec defaults', () => {
    expect(DEFAULT_MAX_BYTES).toBe(4_194_304);
    expect(DEFAULT_TIMEOUT_MS).toBe(60_000);
    // One rule and one error for every byte bound a caller sets (src/errors/option-rules.ts byteLimit).
    expect(() => boundedFetch({ maxBytes: 0 })).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTION',
        message: 'boundedFetch: option maxBytes must be a positive safe integer or Infinity; got 0',
      }) as Error,
    );
    expect(() => boundedFetch({ maxBytes: 1.5 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }) as Error);
    expect(() => boundedFetch({ timeoutMs: Number.NaN })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }) as Error);
  });

  it('aborts a chunked body as soon as it passes the limit', async () => {
    const violations: BoundsViolation[] = [];
    const fetchB = boundedFetch({ maxBytes: LIMIT, onLimit: (v) => violations.push(v) });
    const response = await fetchB(`${base}/plain/chunked`, post);
    expect(response.status).toBe(200);
    const error = expectLimit(await rejection(response.arrayBuffer()), 'TOO_LARGE', LIMIT);
    expect(error.actual).toBeLessThan(LIMIT + 512 * 1024); // stopped at the chunk that crossed, not buffered on
    expect(violations).toHaveLength(1);
    expect(violations[0]?.error).toBe(error);
    expect(violations[0]?.method).toBe('POST');
    await expectCutOff(lastRec('/plain/chunked'));
  });

  it('pre-rejects an over-limit Content-Length without reading the body', async () => {
    const fetchB = boundedFetch({ maxBytes: LIMIT });
    const error = expectLimit(await rejection(fetchB(`${base}/plain/cl-big`, post)), 'TOO_LARGE', LIMIT);
    expect(error.actual).toBe(FLOOD);
    await expectCutOff(lastRec('/plain/cl-big'));

    // Declares a big body and sends nothing: rejected on the header alone, promptly.
    const silent = await rejection(fetchB(`${base}/plain/cl-big-silent`, post));
    expect(expectLimit(silent, 'TOO_LARGE', LIMIT).actual).toBe(FLOOD);
    const rec = lastRec('/plain/cl-big-silent');
    await rec.closed;
    expect(rec.aborted).toBe(true);
    expect(rec.written).toBe(0);
  });

  it('a small lying Content-Length cannot smuggle more than it declared', async () => {
    // On the wire, HTTP framing ends the body at Content-Length: the excess is never body bytes.
    const fetchB = boundedFetch({ maxBytes: LIMIT });
    const response = await fetchB(`${base}/plain/cl-small-lie`, post);
    const text = await response.text();
    expect(text).toBe(smallResult(0, 'the honest prefix'));
    await expectCutOff(lastRec('/plain/cl-small-lie'));
  });

  it('counts the body, not the header, when an underlying fetch trusts a lying Content-Length', async () => {
    let pulled = 0;
    const liar = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            pulled += A16K.length;
            controller.enqueue(new Uint8Array(A16K));
            if (pulled >= FLOOD) controller.close();
          },
        }),
        { status: 200, headers: { 'content-length': '10', 'content-type': 'application/json' } },
      );
    const fetchB = boundedFetch({ maxBytes: LIMIT, fetch: liar });
    const response = await fetchB('http://seller.invalid/mcp', post);
    expectLimit(await rejection(response.arrayBuffer()), 'TOO_LARGE', LIMIT);
    expect(pulled).toBeLessThan(LIMIT * 2); // the source was cancelled, not drained
  });

  it('asks for identity and refuses a gzip bomb unread', async () => {
    const violations: BoundsViolation[] = [];
    const fetchB = boundedFetch({ maxBytes: LIMIT, onLimit: (v) => violations.push(v) });
    const error = await rejection(fetchB(`${base}/plain/gzip-bomb`, post));
    expect(error).toBeInstanceOf(DecodeError);
    expect((error as DecodeError).code).toBe('UNSUPPORTED_ENCODING');
    expect(violations[0]?.error).toBe(error);
    const rec = lastRec('/plain/gzip-bomb');
    expect(rec.headers['accept-encoding']).toBe('identity');
    // The fixture is a real bomb: ~64 KiB on the wire that inflates to 64 MiB ...
    expect(rec.written).toBeLessThan(LIMIT * 2);
    expect(gunzipSync(BOMB_MEMBER).length * (BOMB.length / BOMB_MEMBER.length)).toBe(FLOOD);

    // ... while the same server compresses for a client that accepts gzip, and not for us.
    const plain = await fetchB(`${base}/plain/negotiate`, post);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect((await plain.text()).length).toBeGreaterThan(LIMIT / 2);
  });

  it('cuts off a slow drip at the deadline, and a server that never answers', async () => {
    const fetchB = boundedFetch({ maxBytes: LIMIT, timeoutMs: SHORT_MS });
    expectLimit(await rejection(fetchB(`${base}/plain/drip`, post).then((r) => r.text())), 'TIMEOUT', SHORT_MS);
    const rec = lastRec('/plain/drip');
    await rec.closed;
    expect(rec.aborted).toBe(true);

    expectLimit(await rejection(fetchB(`${base}/plain/drip-headers`, post)), 'TIMEOUT', SHORT_MS);
    const silent = lastRec('/plain/drip-headers');
    await silent.closed;
    expect(silent.aborted).toBe(true);
  });

  it("combines with the caller's signal, which aborts with its own reason", async () => {
    const fetchB = boundedFetch({ maxBytes: LIMIT });
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const response = await fetchB(`${base}/plain/drip`, { ...post, signal: controller.signal });
    setTimeout(() => controller.abort(reason), 50);
    expect(await rejection(response.text())).toBe(reason);
  });

  it('bounds the cumulative bytes of many small SSE events on a request stream', async () => {
    const fetchB = boundedFetch({ maxBytes: LIMIT });
    const response = await fetchB(`${base}/plain/sse-many`, post);
    const error = expectLimit(await rejection(response.text()), 'TOO_LARGE', LIMIT);
    expect(error.message).toMatch(/SSE stream/);
    await expectCutOff(lastRec('/plain/sse-many'));
  });

  it('bounds a single SSE event', async () => {
    const fetchB = boundedFetch({ maxBytes: LIMIT });
    const response = await fetchB(`${base}/plain/sse-one-big`, post);
    const error = expectLimit(await rejection(response.text()), 'TOO_LARGE', LIMIT);
    expect(error.message).toMatch(/one SSE event/);
    await expectCutOff(lastRec('/plain/sse-one-big'));
  });

  it('on a listening GET stream, bounds each event but not the sum, and times each event', async () => {
    const fetchB = boundedFetch({ maxBytes: LIMIT, timeoutMs: MID_MS });
    // Many small events: read 4x the limit without complaint, then hang up ourselves.
    const listening = await fetchB(`${base}/plain/sse-many`, { headers: { accept: 'text/event-stream' } });
    const reader = (listening.body as ReadableStream<Uint8Array>).getReader();
    let read = 0;
    while (read < 4 * LIMIT) {
      const next = await reader.read();
      if (next.done) throw new Error('stream ended early');
      read += next.value.length;
    }
    await reader.cancel();
    expect(read).toBeGreaterThanOrEqual(4 * LIMIT);

    // One big event still trips.
    const big = await fetchB(`${base}/plain/sse-one-big`);
    expect(expectLimit(await rejection(big.text()), 'TOO_LARGE', LIMIT).message).toMatch(/one SSE event/);

    // A quiet spell longer than the timeout is fine; an event that drips is not.
    const quiet = await fetchB(`${base}/plain/sse-idle-then-drip`);
    const quietReader = (quiet.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let seen = '';
    const error = await (async () => {
      try {
        for (;;) {
          const next = await quietReader.read();
          if (next.done) return undefined;
          seen += decoder.decode(next.value, { stream: true });
        }
      } catch (e) {
        return e;
      }
    })();
    expect(seen).toContain('id: one');
    expect(seen).toContain('id: two');
    expect(expectLimit(error, 'TIMEOUT', MID_MS).message).toMatch(/one SSE event/);
  });

  it('carries the SSE byte count across a Last-Event-ID resumption, and refuses further ones', async () => {
    const violations: BoundsViolation[] = [];
    const fetchB = boundedFetch({ maxBytes: LIMIT, timeoutMs: 4 * SHORT_MS, onLimit: (v) => violations.push(v) });
    const first = await fetchB(`${base}/plain/sse-resume`, post);
    const firstBytes = (await first.arrayBuffer()).byteLength; // completes: 60% of the limit
    expect(firstBytes).toBeLessThan(LIMIT);
    const lastId = lastRec('/plain/sse-resume', { method: 'POST' }).lastId as string;
    expect(lastId).toMatch(/^first-/);

    const resumed = await fetchB(`${base}/plain/sse-resume`, { headers: { 'last-event-id': lastId } });
    const { text: delivered, error } = await readUntilError(resumed);
    // 60% + 60%: only the carried count passes the limit (a reset one would stall into TIMEOUT).
    expectLimit(error, 'TOO_LARGE', LIMIT);
    const limitError = error as LimitError;
    expect(limitError.actual - firstBytes).toBeLessThan(LIMIT * 0.6);
    expect(limitError.message).toMatch(/resumptions included/);
    await expectCutOff(lastRec('/plain/sse-resume', { method: 'GET' }));

    // Resuming the failed stream from the last id the consumer was handed fails at once, without a request.
    const deliveredIds = [
      ...delivered
        .split('\n\n')
        .slice(0, -1)
        .join('\n\n')
        .matchAll(/^id: (.+)$/gm),
    ];
    // (The tripping chunk is never handed over; when it was the resumed stream's first, that is `lastId`.)
    const resumeFrom = deliveredIds[deliveredIds.length - 1]?.[1] ?? lastId;
    const requests = log.length;
    expect(await rejection(fetchB(`${base}/plain/sse-resume`, { headers: { 'last-event-id': resumeFrom } }))).toBe(error);
    expect(log.length).toBe(requests);
    expect(violations.map((v) => v.error)).toEqual([error, error]);

    // An id this instance never delivered starts a fresh ledger (here: a different instance), which the
    // stalled 60% stream then runs into the deadline.
    const other = boundedFetch({ maxBytes: LIMIT, timeoutMs: SHORT_MS });
    const fresh = await other(`${base}/plain/sse-resume`, { headers: { 'last-event-id': lastId } });
    expectLimit(await rejection(fresh.text()), 'TIMEOUT', SHORT_MS);
    expect(log.length).toBe(requests + 1);
  });

  it('a flood of data-less ids does not push the real resumption token out', async () => {
    const fetchB = boundedFetch({ maxBytes: LIMIT, timeoutMs: 4 * SHORT_MS });
    const first = await fetchB(`${base}/plain/sse-id-flood`, post);
    expect((await first.arrayBuffer()).byteLength).toBeLessThan(LIMIT);
    // The SDK resumes from `real`, the last id of an event with data.
    const resumed = await fetchB(`${base}/plain/sse-id-flood`, { headers: { 'last-event-id': 'real' } });
    expectLimit(await rejection(resumed.text()), 'TOO_LARGE', LIMIT);
  });

  it('indexes an event id holding a long run of spaces in one pass, trimmed as a Last-Event-ID header is', async () => {
    // A trim that backtracks tries the run from each of its 1,000,000 spaces (~5e11 steps, hours)
    // and blocks its event loop, so the scenario runs on a worker the watchdog can stop; linear, it
    // takes milliseconds.
    const spaces = 1_000_000;
    const outcome = await onWorker<LongIdOutcome>(new URL('../fixtures/sse-long-id.ts', import.meta.url), { spaces }, 20_000);
    const event = `id:   a${' '.repeat(spaces)}b \t \ndata: {}\n\n`;
    expect(outcome.first).toBe(event.length);
    // The resumption continued the first stream's ledger (the id was recorded as the header carries it) ...
    expect(outcome.resumed).toEqual({ code: 'TOO_LARGE', limit: event.length + 5, actual: event.length + 'data: {}\n\n'.length });
    // ... and another id with the same run did not.
    expect(outcome.other).toBe('data: {}\n\n');
  });

  it('carries the deadline across a resumption', async () => {
    const fetchB = boundedFetch({ maxBytes: LIMIT, timeoutMs: MID_MS });
    const first = await fetchB(`${base}/plain/sse-resume`, post);
    await first.arrayBuffer();
    const lastId = lastRec('/plain/sse-resume', { method: 'POST' }).lastId as string;
    await sleep(MID_MS + 50);
    const requests = log.length;
    expectLimit(await rejection(fetchB(`${base}/plain/sse-resume`, { headers: { 'last-event-id': lastId } })), 'TIMEOUT', MID_MS);
    expect(log.length).toBe(requests);
  });

  it('takes a per-call limit from init[FETCH_BOUNDS] and from withFetchBounds, init first', async () => {
    const fetchB = boundedFetch({ maxBytes: LIMIT });
    const url = `${base}/plain/ok-1.5x`;
    expectLimit(await rejection((await fetchB(url, post)).text()), 'TOO_LARGE', LIMIT);
    expect((await (await fetchB(url, { ...post, [FETCH_BOUNDS]: { maxBytes: 2 * LIMIT } })).text()).length).toBeGreaterThan(LIMIT);
    const scoped = await withFetchBounds({ maxBytes: 2 * LIMIT }, async () => (await fetchB(url, post)).text());
    expect(scoped.length).toBeGreaterThan(LIMIT);
    const inner = await rejection(
      withFetchBounds({ maxBytes: 2 * LIMIT }, async () =>
        (await fetchB(url, { ...post, [FETCH_BOUNDS]: { maxBytes: LIMIT / 2 } })).text(),
      ),
    );
    expectLimit(inner, 'TOO_LARGE', LIMIT / 2);
    // Nested scopes: a field the inner one leaves out keeps the outer one's value.
    const nested = await rejection(
      withFetchBounds({ timeoutMs: SHORT_MS }, () =>
        withFetchBounds({ maxBytes: 2 * LIMIT }, async () => (await fetchB(`${base}/plain/drip`, post)).text()),
      ),
    );
    expectLimit(nested, 'TIMEOUT', SHORT_MS);
    // The symbol never reaches the wire or the underlying fetch.
    let seen: RequestInit | undefined;
    const spy = boundedFetch({ fetch: async (_u, init) => ((seen = init), new Response('{}')) });
    await spy('http://seller.invalid/', { [FETCH_BOUNDS]: { maxBytes: 10 } });
    expect(seen !== undefined && FETCH_BOUNDS in seen).toBe(false);
  });

  it('findBoundsError walks the cause chain', () => {
    const limit = new LimitError('TOO_LARGE', 'x', { unit: 'bytes', limit: 1, actual: 2 });
    expect(findBoundsError(new Error('outer', { cause: new Error('mid', { cause: limit }) }))).toBe(limit);
    expect(findBoundsError(new Error('plain'))).toBeUndefined();
  });
});

// ---------------------------------------------------------------- through the MCP SDK client

const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
});

async function connect(path: string, fetchFn: typeof fetch | undefined) {
  const client = new Client({ name: 'test-buyer', version: '0.0.0' });
  const errors: unknown[] = [];
  client.onerror = (error) => errors.push(error);
  const url = new URL(`${base}${path}`);
  const transport = new StreamableHTTPClientTransport(url, fetchFn === undefined ? undefined : { fetch: fetchFn });
  await client.connect(transport);
  clients.push(client);
  return { client, errors };
}

describe('boundedFetch inside the MCP SDK client, against a well-behaved McpServer', () => {
  for (const mode of ['json', 'sse'] as const) {
    it(`works normally in ${mode} mode, and bounds and raises per call`, async () => {
      const violations: BoundsViolation[] = [];
      const fetchB = boundedFetch({ maxBytes: LIMIT, timeoutMs: MID_MS, onLimit: (v) => violations.push(v) });
      const { client, errors } = await connect(`/good/${mode}`, fetchB);
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name).sort()).toEqual(['big', 'echo']);
      const echoed = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
      expect(echoed.content).toEqual([{ type: 'text', text: 'hello' }]);
      const half = await client.callTool({ name: 'big', arguments: { bytes: LIMIT / 2 } });
      expect((half.content as { text: string }[])[0]?.text.length).toBe(LIMIT / 2);

      // Longer than the timeout: the standalone listening stream (SSE mode) is not cut off.
      await sleep(MID_MS + 200);
      expect(await client.callTool({ name: 'echo', arguments: { text: 'again' } })).toMatchObject({
        content: [{ type: 'text', text: 'again' }],
      });
      expect(errors).toEqual([]);
      expect(violations).toEqual([]);

      // Over the limit: the typed error, promptly (withFetchBounds makes the SSE path prompt too).
      const tooBig = await rejection(
        withFetchBounds({}, (signal) => client.callTool({ name: 'big', arguments: { bytes: 2 * LIMIT } }, undefined, { signal })),
      );
      expectLimit(tooBig, 'TOO_LARGE', LIMIT);
      // The same call with a raised per-call limit goes through.
      const raised = await withFetchBounds({ maxBytes: 4 * LIMIT }, (signal) =>
        client.callTool({ name: 'big', arguments: { bytes: 2 * LIMIT } }, undefined, { signal }),
      );
      expect((raised.content as { text: string }[])[0]?.text.length).toBe(2 * LIMIT);
      expect(await client.callTool({ name: 'echo', arguments: { text: 'still fine' } })).toMatchObject({
        content: [{ type: 'text', text: 'still fine' }],
      });
    });
  }

  it('in JSON mode, callTool rejects with the typed error itself, no wrapper needed', async () => {
    const fetchB = boundedFetch({ maxBytes: LIMIT });
    const { client, errors } = await connect('/good/json', fetchB);
    const error = await rejection(client.callTool({ name: 'big', arguments: { bytes: 2 * LIMIT } }));
    expectLimit(error, 'TOO_LARGE', LIMIT);
    expect(errors).toContain(error); // and client.onerror saw the same object
  });
});

describe('boundedFetch inside the MCP SDK client, against hostile sellers', () => {
  // Non-SSE answers: the transport awaits fetch / response.json() and rethrows, so callTool itself
  // rejects with the typed error.
  const direct: [string, 'TOO_LARGE' | 'TIMEOUT'][] = [
    ['chunked', 'TOO_LARGE'],
    ['cl-big', 'TOO_LARGE'],
    ['cl-big-silent', 'TOO_LARGE'],
    ['drip', 'TIMEOUT'],
    ['drip-headers', 'TIMEOUT'],
  ];
  for (const [name, code] of direct) {
    it(`${name}: callTool rejects with LimitError ${code}`, async () => {
      const violations: BoundsViolation[] = [];
      const fetchB = boundedFetch({ maxBytes: LIMIT, timeoutMs: MID_MS, onLimit: (v) => violations.push(v) });
      const { client } = await connect(`/mcp/${name}`, fetchB);
      const error = await rejection(client.callTool({ name: 'get_products', arguments: {} }));
      expectLimit(error, code, code === 'TOO_LARGE' ? LIMIT : MID_MS);
      expect(violations.map((v) => v.error)).toEqual([error]);
      const rec = lastRec(`/mcp/${name}`, { rpcMethod: 'tools/call' });
      await rec.closed;
      expect(rec.aborted).toBe(true);
      expect(rec.written).toBeLessThan(FLOOD / 4);
    });
  }

  it('gzip-bomb: callTool rejects with DecodeError UNSUPPORTED_ENCODING, nothing inflated', async () => {
    const { client } = await connect('/mcp/gzip-bomb', boundedFetch({ maxBytes: LIMIT }));
    const error = await rejection(client.callTool({ name: 'get_products', arguments: {} }));
    expect(error).toBeInstanceOf(DecodeError);
    expect((error as DecodeError).code).toBe('UNSUPPORTED_ENCODING');
    expect(lastRec('/mcp/gzip-bomb', { rpcMethod: 'tools/call' }).headers['accept-encoding']).toBe('identity');
  });

  it('cl-small-lie: the client takes the declared bytes and hangs up on the rest', async () => {
    const { client } = await connect('/mcp/cl-small-lie', boundedFetch({ maxBytes: LIMIT }));
    const result = await client.callTool({ name: 'get_products', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'the honest prefix' }]);
    await expectCutOff(lastRec('/mcp/cl-small-lie', { rpcMethod: 'tools/call' }));
  });

  // SSE answers: the SDK reads the stream in the background; withFetchBounds turns a tripped bound
  // into a prompt rejection of the call, with the typed error.
  const sse: [string, 'TOO_LARGE' | 'TIMEOUT', RegExp][] = [
    ['sse-many', 'TOO_LARGE', /SSE stream/],
    ['sse-one-big', 'TOO_LARGE', /one SSE event/],
    ['sse-drip', 'TIMEOUT', /whole response/],
  ];
  for (const [name, code, message] of sse) {
    it(`${name}: withFetchBounds rejects the call with LimitError ${code}`, async () => {
      const violations: BoundsViolation[] = [];
      const fetchB = boundedFetch({ maxBytes: LIMIT, timeoutMs: MID_MS, onLimit: (v) => violations.push(v) });
      const { client, errors } = await connect(`/mcp/${name}`, fetchB);
      const error = await rejection(
        withFetchBounds({}, (signal) => client.callTool({ name: 'get_products', arguments: {} }, undefined, { signal })),
      );
      expect(expectLimit(error, code, code === 'TOO_LARGE' ? LIMIT : MID_MS).message).toMatch(message);
      expect(violations[0]?.error).toBe(error);
      const rec = lastRec(`/mcp/${name}`, { rpcMethod: 'tools/call' });
      await rec.closed;
      expect(rec.aborted).toBe(true);
      expect(rec.written).toBeLessThan(FLOOD / 4);
      // What the SDK itself reports: a plain Error with the typed error stringified, no cause.
      await sleep(20);
      expect(errors.some((e) => e instanceof Error && /SSE stream disconnected: LimitError/.test(e.message))).toBe(true);
      expect(errors.some((e) => findBoundsError(e) !== undefined)).toBe(false);
    });
  }

  it('sse-resume: the SDK reconnects with Last-Event-ID and the carried count trips on the second stream', async () => {
    const violations: BoundsViolation[] = [];
    const fetchB = boundedFetch({ maxBytes: LIMIT, onLimit: (v) => violations.push(v) });
    const { client } = await connect('/mcp/sse-resume', fetchB);
    const error = await rejection(
      withFetchBounds({}, (signal) => client.callTool({ name: 'get_products', arguments: {} }, undefined, { signal })),
    );
    const limitError = expectLimit(error, 'TOO_LARGE', LIMIT);
    expect(limitError.message).toMatch(/resumptions included/);
    const first = lastRec('/mcp/sse-resume', { rpcMethod: 'tools/call' });
    const second = lastRec('/mcp/sse-resume', { method: 'GET' });
    expect(first.aborted).toBe(false); // the first stream completed under the limit ...
    expect(first.written).toBeLessThan(LIMIT);
    expect(second.headers['last-event-id']).toBe(first.lastId); // ... the SDK resumed from its last id ...
    await expectCutOff(second); // ... and the resumed stream was cut off
    expect(violations[0]?.error).toBe(error);
  });

  it('without withFetchBounds, an SSE failure reaches onLimit at once but the SDK call only times out', async () => {
    const violations: BoundsViolation[] = [];
    const fetchB = boundedFetch({ maxBytes: LIMIT, onLimit: (v) => violations.push(v) });
    const { client } = await connect('/mcp/sse-many', fetchB);
    const error = await rejection(client.callTool({ name: 'get_products', arguments: {} }, undefined, { timeout: SHORT_MS * 2 }));
    expect(error).not.toBeInstanceOf(LimitError);
    expect(String(error)).toMatch(/timed out/i);
    expectLimit(violations[0]?.error, 'TOO_LARGE', LIMIT);
  });
});
