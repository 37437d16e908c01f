/**
 * The request body as the receiver takes it: raw bytes, a string, an ArrayBuffer, a WHATWG
 * stream, or an async iterable (Node's IncomingMessage, read by the receiver itself within the
 * size bound and the body deadline). A body that drips under the size bound ends at the body
 * deadline with `webhook_body_timeout` (408) and the stream is stopped; a body a framework parsed
 * is the operator's fault. The slow streams here are real: timers and a real socket, no mocks, and
 * the assertions are about the outcome, never about how long it took.
 */
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createWebhookReceiver, type WebhookReceiver, webhookResponse } from '../../src/webhooks/index.js';
import { completedBody, ed25519, HOOK_URL } from './fixtures.js';
import { NOW, outcome, RECEIVER_BASE, signedRequest } from './outcomes.js';
import { signWebhook } from './signer.js';

const receiver = (bodyTimeoutMs = 10_000): WebhookReceiver => createWebhookReceiver({ ...RECEIVER_BASE, bodyTimeoutMs });
const genuine = await signedRequest(completedBody());

/** A stream that sends `prefix`, then one byte every `everyMs` forever; says whether it was cancelled. */
function drippingStream(prefix: Uint8Array, everyMs: number) {
  const state = { cancelled: false, sent: 0 };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(prefix);
      state.sent += prefix.length;
    },
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      if (!state.cancelled) {
        controller.enqueue(new Uint8Array([0x20]));
        state.sent++;
      }
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe('raw bodies in every form', () => {
  const forms: Array<[string, () => unknown]> = [
    ['Uint8Array', () => genuine.body],
    ['Buffer', () => Buffer.from(genuine.body)],
    ['string', () => new TextDecoder().decode(genuine.body)],
    ['ArrayBuffer', () => genuine.body.slice().buffer],
    ['ReadableStream', () => new Blob([genuine.body.slice()]).stream()],
    [
      'async iterable of chunks',
      () =>
        (async function* () {
          for (let i = 0; i < genuine.body.length; i += 100) yield genuine.body.subarray(i, i + 100);
        })(),
    ],
  ];
  test.each(forms)('%s: verified and decoded', async (_form, body) => {
    const result = await outcome(receiver().receive({ ...genuine, body: body() as Uint8Array }));
    expect(result.ok ? result.hook.status : result.error).toBe('completed');
  });
  test('a stream of text chunks (setEncoding was called): webhook_body_not_raw', async () => {
    const text = (async function* () {
      yield 'a string chunk';
    })();
    const result = await outcome(receiver().receive({ ...genuine, body: text as unknown as Uint8Array }));
    expect(result.ok ? undefined : result.error).toMatchObject({ webhookCode: 'webhook_body_not_raw', httpStatus: 500 });
  });
});

describe('the body deadline (bodyTimeoutMs)', () => {
  test('a WHATWG stream that drips under the size bound: webhook_body_timeout (408), and the stream is cancelled', async () => {
    const { stream, state } = drippingStream(genuine.body.subarray(0, 10), 5);
    const result = await outcome(receiver(200).receive({ ...genuine, body: stream }));
    expect(result.ok ? undefined : result.error).toMatchObject({
      webhookCode: 'webhook_body_timeout',
      httpStatus: 408,
      blame: 'delivery',
      message: 'webhook_body_timeout: expected the whole body within 200 ms (bodyTimeoutMs); it was still arriving',
    });
    expect(state.cancelled).toBe(true);
    // It was cut while still sending, well under the 1 MB bound.
    expect(state.sent).toBeLessThan(1_000_000);
  });
  test('a Request whose body drips: the same', async () => {
    const { stream, state } = drippingStream(genuine.body.subarray(0, 10), 5);
    const request = new Request(HOOK_URL, { method: 'POST', headers: genuine.headers, body: stream, duplex: 'half' } as RequestInit);
    const result = await outcome(receiver(200).receive(request));
    expect(result.ok ? undefined : result.answer).toMatchObject({ status: 408, blame: 'delivery' });
    expect(state.cancelled).toBe(true);
  });
  test('a stream that never sends a byte at all ends at the deadline too', async () => {
    const stream = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => undefined) });
    const result = await outcome(receiver(100).receive({ ...genuine, body: stream }));
    expect(result.ok ? undefined : result.error).toMatchObject({ webhookCode: 'webhook_body_timeout' });
  });
  test('a whole body is not held to the deadline after it arrived', async () => {
    const result = await outcome(receiver(1).receive({ ...genuine, body: genuine.body }));
    expect(result.ok).toBe(true);
  });
});

/** A Node server that hands the receiver its IncomingMessage as the body (no buffering of its own). */
let server: Server;
let origin = '';
const outcomes: string[] = [];
/** Whether the request's socket was destroyed when receive() settled, per request. */
const cutAtSettle: boolean[] = [];
beforeAll(async () => {
  // Pinned to this server's origin, known once it listens (requests arrive only after that).
  let rx: WebhookReceiver | undefined;
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const result = await outcome((rx as WebhookReceiver).receive({ method: req.method ?? '', url, headers: req.headers, body: req }));
    outcomes.push(result.ok ? 'ok' : ((result.error as { webhookCode?: string }).webhookCode ?? 'error'));
    cutAtSettle.push(req.socket.destroyed);
    const { status, headers } = result.ok ? { status: 200, headers: {} } : webhookResponse(result.error);
    if (!res.destroyed) res.writeHead(status, headers).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  rx = createWebhookReceiver({ ...RECEIVER_BASE, endpoint: origin, bodyTimeoutMs: 300 });
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('Node http, the receiver reading the IncomingMessage itself', () => {
  test('a genuine delivery, signed for this server', async () => {
    const signed = await signWebhook({ key: ed25519, url: `${origin}/hook`, body: completedBody(), created: NOW - 5 });
    const response = await fetch(`${origin}/hook`, { method: 'POST', headers: signed.headers, body: signed.body });
    expect([response.status, outcomes.at(-1)]).toEqual([200, 'ok']);
  });
  test('a sender that drips its body over a real socket is cut off at the deadline', async () => {
    const port = (server.address() as AddressInfo).port;
    const socket = connect(port, '127.0.0.1');
    // The receiver may reset the connection under a drip still being written (ECONNRESET): the cut-off this test expects.
    socket.on('error', () => undefined);
    const head = Object.entries({ ...genuine.headers, 'content-length': String(genuine.body.length), connection: 'close' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`POST /hook HTTP/1.1\r\n${head}\r\n`);
    let sent = 0;
    const drip = setInterval(() => {
      if (!socket.destroyed && sent < genuine.body.length - 1) socket.write(genuine.body.subarray(sent, ++sent));
    }, 5);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    await new Promise<void>((resolve) => socket.on('close', () => resolve()));
    clearInterval(drip);
    expect(outcomes.at(-1)).toBe('webhook_body_timeout');
    // The connection ended before the body was complete: the receiver stopped reading it.
    expect(sent).toBeLessThan(genuine.body.length);
    if (answer !== '') expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });
});

describe('a sender that stalls mid-body (issue 28, item 7)', () => {
  test('its socket is destroyed when the deadline fires, not left open until the server’s own timeout', async () => {
    const port = (server.address() as AddressInfo).port;
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    const head = Object.entries({ ...genuine.headers, 'content-length': String(genuine.body.length) })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    // Ten bytes of the body, then nothing more, ever: a read pending forever.
    socket.write(`POST /hook HTTP/1.1\r\n${head}\r\n`);
    socket.write(genuine.body.subarray(0, 10));
    await new Promise<void>((resolve) => socket.on('close', () => resolve()));
    expect(outcomes.at(-1)).toBe('webhook_body_timeout');
    // Destroyed by the receiver before receive() settled: the connection is not the server's to time out.
    expect(cutAtSettle.at(-1)).toBe(true);
  });
});

describe('Express with express.json() before the receiver (a parsed body)', () => {
  test('answered 500 webhook_body_not_raw, never blamed on the sender', async () => {
    const app = express();
    let code: string | undefined;
    app.post('/hook', express.json(), async (req, res) => {
      const result = await outcome(receiver().receive({ method: req.method, url: HOOK_URL, headers: req.headers, body: req.body }));
      code = result.ok ? undefined : (result.error as { webhookCode?: string }).webhookCode;
      const { status, headers } = result.ok ? { status: 200, headers: {} } : webhookResponse(result.error);
      res.status(status).set(headers).end();
    });
    const listening = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => listening.once('listening', () => resolve()));
    try {
      const port = (listening.address() as AddressInfo).port;
      const response = await fetch(`http://127.0.0.1:${port}/hook`, { method: 'POST', headers: genuine.headers, body: genuine.body });
      expect([response.status, code]).toEqual([500, 'webhook_body_not_raw']);
    } finally {
      await new Promise((resolve) => listening.close(resolve));
    }
  });
});
