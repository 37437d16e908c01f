/**
 * What a hostile seller costs a buyer, with and without boundedFetch.
 *
 *   npx tsx bench/bounded-fetch.ts
 *
 * The parent runs a hostile MCP seller on 127.0.0.1 (normal `initialize`, bad `tools/call`) and, per
 * case and mode, spawns a fresh child process that connects the official MCP SDK client
 * (Client + StreamableHTTPClientTransport) and calls the tool once:
 *
 * - `bounded`:   `fetch: boundedFetch({ timeoutMs })` (default 4 MiB; timeoutMs 20 s, 2 s for the drip
 *                case), the call wrapped in withFetchBounds;
 * - `unbounded`: the same client with the SDK's default fetch.
 *
 * Every hostile answer is a *valid* MCP response if read to the end, capped (CAP = 96 MiB for one
 * message, EVENTS_CAP = 16 MiB for many small SSE events) so the unbounded client terminates. Figures:
 * bytes the server had sent when the client hung up (this includes what sat in socket buffers), bytes
 * the client counted before aborting (`LimitError.actual`), elapsed time, and the child's peak RSS
 * (`process.resourceUsage().maxRSS`). Results are printed and
 * written to bench/bounded-fetch-results.json.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { answerMcp, JSON_HEADERS, SSE_HEADERS } from '../test/fixtures/hand-rolled-mcp.js';

/** Output cap for the single-message cases (one JSON body, one SSE event, the gzip bomb's inflated size). */
const CAP = 96 * 1024 * 1024;
/**
 * Output cap for the many-small-events cases. The SDK client handles ~2-3 MB/s of 1 KiB notifications
 * (a JSON.parse and a zod parse per event), so 200 MB of them would take over a minute per run.
 */
const EVENTS_CAP = 16 * 1024 * 1024;
/**
 * boundedFetch's deadline in the bench: generous for the byte cases (so the byte bound, not the clock,
 * is what is measured, even on a loaded machine), short for the drip case.
 */
const BOUNDED_TIMEOUT_MS = 20_000;
const DRIP_TIMEOUT_MS = 2_000;
const DRIP_MS = 8_000;
const CASES = ['baseline', 'chunked', 'cl-big', 'cl-small-lie', 'gzip-bomb', 'drip', 'sse-many', 'sse-one-big', 'sse-resume'] as const;
type Case = (typeof CASES)[number];
type Mode = 'bounded' | 'unbounded';

const here = fileURLToPath(import.meta.url);

// ------------------------------------------------------------------------------------------ child

interface ChildResult {
  outcome: 'ok' | 'error';
  error?: string;
  code?: string;
  /** TOO_LARGE: the bytes boundedFetch counted before aborting (LimitError.actual). */
  countedBytes?: number;
  /** TOO_LARGE before the body: the Content-Length that was refused. */
  declaredBytes?: number;
  /** Length of the tool result text handed to the caller. */
  resultChars?: number;
  elapsedMs: number;
  maxRssMb: number;
}

async function child(url: string, mode: Mode, timeoutMs: number): Promise<void> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const { boundedFetch, withFetchBounds } = await import('../src/fetch/bounded-fetch.js');
  const { DecodeError, LimitError } = await import('../src/errors/errors.js');

  const client = new Client({ name: 'bench-buyer', version: '0.0.0' });
  client.onerror = () => {};
  const transport = new StreamableHTTPClientTransport(
    new URL(url),
    mode === 'bounded' ? { fetch: boundedFetch({ timeoutMs }) } : undefined,
  );
  await client.connect(transport);
  const started = performance.now();
  const call = (signal?: AbortSignal) =>
    client.callTool({ name: 'get_products', arguments: {} }, undefined, {
      timeout: 120_000,
      ...(signal === undefined ? {} : { signal }),
    });
  const result: ChildResult = { outcome: 'ok', elapsedMs: 0, maxRssMb: 0 };
  try {
    const res = mode === 'bounded' ? await withFetchBounds({}, call) : await call();
    const text = (res.content as { text?: string }[])[0]?.text ?? '';
    result.resultChars = text.length;
  } catch (error) {
    result.outcome = 'error';
    result.error = error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 160) : String(error);
    if (error instanceof DecodeError) result.code = error.code;
    if (error instanceof LimitError && error.unit === 'bytes') {
      if (/declared Content-Length/.test(error.message)) result.declaredBytes = error.actual;
      else result.countedBytes = error.actual;
    }
  }
  result.elapsedMs = Math.round(performance.now() - started);
  result.maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  await client.close().catch(() => {});
  process.stdout.write(`\n${JSON.stringify(result)}\n`);
  process.exit(0);
}

// ------------------------------------------------------------------------------------------ seller

interface Run {
  /** Body bytes the seller handed to the socket for tools/call and its resumptions. */
  sent: number;
  /** Responses the client hung up on before they were finished. */
  hungUp: number;
  requests: number;
}
let run: Run = { sent: 0, hungUp: 0, requests: 0 };

const A64K = Buffer.alloc(64 * 1024, 0x61);
const prefix = (id: number | string) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`;
const SUFFIX = '"}]}}';
const event = (data: string, id?: string) => `${id === undefined ? '' : `id: ${id}\n`}data: ${data}\n\n`;
const NOTE = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'p'.repeat(900) } });
const NOTES_64K = Buffer.from(event(NOTE).repeat(Math.floor((64 * 1024) / Buffer.byteLength(event(NOTE)))));
/** Per SSE stream in sse-resume: 60% of the 4 MiB default, so over it only across a reconnect. */
const RESUME_SEGMENT = Math.floor(4_194_304 * 0.6);

let bomb: Buffer | undefined;
/** gzip members concatenated: a valid JSON-RPC result of CAP bytes in ~200 KB. */
function gzipBomb(id: number | string): Buffer {
  bomb ??= Buffer.concat(new Array<Buffer>(CAP / 2 ** 20).fill(gzipSync(Buffer.alloc(2 ** 20, 0x61), { level: 9 })));
  return Buffer.concat([gzipSync(prefix(id)), bomb, gzipSync(SUFFIX)]);
}

const closedOf = new WeakMap<object, Promise<void>>();
/** One promise per response/socket for its 'close' (a listener per write would pile up). */
function closed(stream: http.ServerResponse | import('node:net').Socket): Promise<void> {
  let p = closedOf.get(stream);
  if (p === undefined) {
    p = new Promise<void>((resolve) => stream.once('close', () => resolve()));
    closedOf.set(stream, p);
  }
  return p;
}

async function write(res: http.ServerResponse, chunk: Buffer | string): Promise<boolean> {
  if (res.destroyed) return false;
  run.sent += Buffer.byteLength(chunk);
  if (!res.write(chunk)) await Promise.race([new Promise<void>((resolve) => res.once('drain', resolve)), closed(res)]);
  return !res.destroyed;
}

/** Writes `chunk` until `total` bytes (or the client hangs up); true when all was written. */
async function pump(res: http.ServerResponse, chunk: Buffer, total: number): Promise<boolean> {
  for (let sent = 0; sent < total; sent += chunk.length) if (!(await write(res, chunk))) return false;
  return true;
}

let resumeSent = 0;
let resumeSegment = 0;

async function misbehave(name: Case, req: http.IncomingMessage, res: http.ServerResponse, id: number | string): Promise<void> {
  switch (name) {
    case 'baseline':
      res.writeHead(200, JSON_HEADERS).end(`${prefix(id)}ok${SUFFIX}`);
      return;
    case 'chunked':
    case 'cl-big': {
      const headers =
        name === 'cl-big' ? { ...JSON_HEADERS, 'content-length': String(prefix(id).length + CAP + SUFFIX.length) } : JSON_HEADERS;
      res.writeHead(200, headers);
      if ((await write(res, prefix(id))) && (await pump(res, A64K, CAP))) res.end(SUFFIX);
      return;
    }
    case 'cl-small-lie': {
      const body = `${prefix(id)}the honest prefix${SUFFIX}`;
      const socket = req.socket;
      socket.on('error', () => {});
      socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
      for (let sent = 0; sent < CAP && !socket.destroyed; sent += A64K.length) {
        run.sent += A64K.length;
        if (!socket.write(A64K)) await Promise.race([new Promise<void>((resolve) => socket.once('drain', resolve)), closed(socket)]);
      }
      socket.end();
      return;
    }
    case 'gzip-bomb': {
      const coded = gzipBomb(id);
      res.writeHead(200, { ...JSON_HEADERS, 'content-encoding': 'gzip', 'content-length': String(coded.length) });
      if (await write(res, coded)) res.end();
      return;
    }
    case 'drip': {
      // Leading whitespace is valid JSON: a space every 100 ms for DRIP_MS, then the answer.
      res.writeHead(200, JSON_HEADERS);
      res.flushHeaders();
      for (let t = 0; t < DRIP_MS; t += 100) {
        await sleep(100);
        if (!(await write(res, ' '))) return;
      }
      res.end(`${prefix(id)}slow${SUFFIX}`);
      return;
    }
    case 'sse-many':
      res.writeHead(200, SSE_HEADERS);
      if (await pump(res, NOTES_64K, EVENTS_CAP)) res.end(event(`${prefix(id)}done${SUFFIX}`));
      return;
    case 'sse-one-big':
      res.writeHead(200, SSE_HEADERS);
      if ((await write(res, `data: ${prefix(id)}`)) && (await pump(res, A64K, CAP))) res.end(`${SUFFIX}\n\n`);
      return;
    case 'sse-resume': {
      // Each stream sends RESUME_SEGMENT of notifications, ends on an event id, and the SDK resumes
      // with Last-Event-ID; after EVENTS_CAP bytes in all, the answer comes (on the resumed stream).
      res.writeHead(200, SSE_HEADERS);
      if (req.method === 'POST') {
        resumeSent = 0;
        resumeSegment = 0;
        if (!(await write(res, 'id: s0\nretry: 10\ndata: \n\n'))) return;
      }
      const segment = ++resumeSegment;
      if (!(await pump(res, NOTES_64K, RESUME_SEGMENT))) return;
      resumeSent += RESUME_SEGMENT;
      if (resumeSent >= EVENTS_CAP)
        res.end(
          event(`{"jsonrpc":"2.0","id":${JSON.stringify(resumeId)},"result":{"content":[{"type":"text","text":"done"}]}}`, `s${segment}`),
        );
      else res.end(`id: s${segment}\ndata: \n\n`);
      return;
    }
  }
}
let resumeId: number | string = 0;

/** A seller that answers initialize and notifications properly and misbehaves on tools/call and its resumptions. */
function seller(name: Case) {
  return (req: http.IncomingMessage, res: http.ServerResponse, body: string): Promise<void> =>
    answerMcp(req, res, body, {
      toolsCall: (id) => {
        run.requests += 1;
        resumeId = id;
        return misbehave(name, req, res, id);
      },
      resume: () => {
        run.requests += 1;
        return misbehave(name, req, res, resumeId);
      },
    });
}

function spawnChild(url: string, mode: Mode, timeoutMs: number): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', here, 'child', url, mode, String(timeoutMs)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    proc.on('error', reject);
    proc.on('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as ChildResult);
      } catch {
        reject(new Error(`child exited ${code}: ${err.slice(-500)}`));
      }
    });
  });
}

const mb = (n: number | undefined) => (n === undefined ? '-' : (n / 1024 / 1024).toFixed(2));

async function main(): Promise<void> {
  let current: Case = 'baseline';
  const server = http.createServer((req, res) => {
    res.on('close', () => {
      if (!res.writableFinished && (req.method === 'GET' || req.method === 'POST')) run.hungUp += 1;
    });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seller(current)(req, res, Buffer.concat(chunks).toString('utf8')).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;

  interface Row {
    case: Case;
    mode: Mode;
    outcome: string;
    clientReadBytes: number | undefined;
    declaredBytes: number | undefined;
    serverSentBytes: number;
    resultChars: number | undefined;
    requests: number;
    elapsedMs: number;
    peakRssMb: number;
    error: string | undefined;
  }
  const rows: Row[] = [];
  const started = performance.now();
  for (const name of CASES) {
    for (const mode of ['bounded', 'unbounded'] as const) {
      current = name;
      run = { sent: 0, hungUp: 0, requests: 0 };
      const result = await spawnChild(url, mode, name === 'drip' ? DRIP_TIMEOUT_MS : BOUNDED_TIMEOUT_MS);
      await sleep(100); // let the seller notice the hang-up
      const row: Row = {
        case: name,
        mode,
        outcome: result.outcome === 'ok' ? 'ok' : (result.code ?? result.error?.split(':')[0] ?? 'error'),
        // What boundedFetch counted before it aborted (0 when it refused the Content-Length up front).
        clientReadBytes: result.countedBytes ?? (result.declaredBytes !== undefined ? 0 : undefined),
        declaredBytes: result.declaredBytes,
        serverSentBytes: run.sent,
        resultChars: result.resultChars,
        requests: run.requests,
        elapsedMs: result.elapsedMs,
        peakRssMb: result.maxRssMb,
        error: result.error,
      };
      rows.push(row);
      process.stderr.write(
        `${name.padEnd(13)} ${mode.padEnd(9)} ${String(row.outcome).padEnd(20)} read ${mb(row.clientReadBytes).padStart(8)} MB  sent ${mb(row.serverSentBytes).padStart(8)} MB  ${String(row.elapsedMs).padStart(6)} ms  RSS ${String(row.peakRssMb).padStart(5)} MB\n`,
      );
    }
  }
  server.closeAllConnections();
  server.close();

  console.log(
    '\n| case | mode | outcome | counted before abort (MB) | seller sent before hang-up (MB) | result handed to caller (chars) | requests | elapsed (ms) | peak RSS (MB) |',
  );
  console.log('|---|---|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const read =
      r.declaredBytes !== undefined
        ? `0 (refused Content-Length of ${mb(r.declaredBytes)})`
        : r.clientReadBytes !== undefined
          ? mb(r.clientReadBytes)
          : r.mode === 'unbounded'
            ? 'no abort'
            : r.outcome === 'ok'
              ? 'no abort'
              : '-';
    console.log(
      `| ${r.case} | ${r.mode} | ${r.outcome} | ${read} | ${mb(r.serverSentBytes)} | ${r.resultChars ?? '-'} | ${r.requests} | ${r.elapsedMs} | ${r.peakRssMb} |`,
    );
  }
  const out = fileURLToPath(new URL('./bounded-fetch-results.json', import.meta.url));
  writeFileSync(
    out,
    `${JSON.stringify(
      {
        generatedAt: new Date().toISOString(),
        node: process.version,
        platform: `${process.platform} ${process.arch}`,
        config: {
          capBytes: CAP,
          eventsCapBytes: EVENTS_CAP,
          boundedMaxBytes: 4_194_304,
          boundedTimeoutMs: BOUNDED_TIMEOUT_MS,
          boundedDripTimeoutMs: DRIP_TIMEOUT_MS,
          dripMs: DRIP_MS,
          resumeSegmentBytes: RESUME_SEGMENT,
        },
        notes: [
          'clientReadBytes: LimitError.actual, the body bytes boundedFetch counted before the abort (0 when it refused the Content-Length; absent for TIMEOUT, UNSUPPORTED_ENCODING and unbounded runs, which read all the seller sent)',
          'serverSentBytes: body bytes the seller handed to the socket before the client hung up, socket buffers included',
          'peakRssMb: process.resourceUsage().maxRSS of the client child process (SDK + tsx loaded; see baseline)',
        ],
        totalMs: Math.round(performance.now() - started),
        rows,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nwrote ${out}`);
}

if (process.argv[2] === 'child') {
  await child(process.argv[3] as string, process.argv[4] as Mode, Number(process.argv[5]));
} else {
  await main();
}
