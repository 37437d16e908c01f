/**
 * End to end: webhook receivers on 127.0.0.1 (Node `http`, and Express with `express.raw()`)
 * get webhooks signed by the independent test signer over real HTTP, and answer as the README
 * shows. Genuine ones (create_media_buy completed, failed with adcp_error, working) reach the
 * application typed; hostile ones (tampered body, wrong digest, expired, replayed, wrong tag,
 * oversize, wrong content type, duplicate keys) are refused with the spec's code and status and
 * never reach it. A counting WebCrypto proves the oversize body was never hashed.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createWebhookReceiver,
  webhookResponse,
  WebhookTaskFailedError,
  type ReceivedWebhook,
  type WebhookReceiver,
} from '../../src/webhooks/index.js';
import { completedBody, completedBodyOfSize, ed25519, failedBody, resolver, SELLER, workingBody } from './fixtures.js';
import { countingSubtle } from './counting-subtle.js';
import { signWebhook } from './signer.js';

const MAX = 1_000_000;
const counted = countingSubtle();

/** What the application saw: only webhooks the receiver accepted. */
const delivered: Array<ReceivedWebhook | WebhookTaskFailedError> = [];

/**
 * Reads a Node request body, keeping at most `limit` + 1 bytes (the receiver then answers 413);
 * the rest is drained unread so the client gets the answer.
 */
async function rawBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    if (size <= limit) chunks.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(chunks);
}

async function handle(
  receiver: WebhookReceiver,
  request: Parameters<WebhookReceiver['receive']>[0],
): Promise<{ status: number; headers: Record<string, string> }> {
  try {
    delivered.push(await receiver.receive(request));
    return { status: 200, headers: {} };
  } catch (error) {
    if (error instanceof WebhookTaskFailedError) delivered.push(error);
    const { status, headers } = webhookResponse(error);
    return { status, headers: { ...headers } };
  }
}

let nodeServer: Server;
let expressServer: Server;
let nodeOrigin = '';
let expressOrigin = '';

beforeAll(async () => {
  // Each receiver pins the origin its server listens on (known once it listens).
  let nodeReceiver: WebhookReceiver | undefined;
  nodeServer = createServer(async (req, res) => {
    const body = await rawBody(req, MAX);
    const answer = await handle(nodeReceiver as WebhookReceiver, {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      body,
    });
    res.writeHead(answer.status, answer.headers).end();
  });
  await new Promise<void>((r) => nodeServer.listen(0, '127.0.0.1', r));
  nodeOrigin = `http://127.0.0.1:${(nodeServer.address() as AddressInfo).port}`;
  nodeReceiver = createWebhookReceiver({ endpoint: nodeOrigin, keys: resolver, subtle: counted.subtle, maxBodyBytes: MAX });

  let expressReceiver: WebhookReceiver | undefined;
  const app = express();
  // The raw bytes, for every content type: the receiver itself refuses a wrong one (415).
  app.post('/adcp/webhook/:task', express.raw({ type: () => true, limit: 2 * MAX }), async (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : new Uint8Array(0);
    const answer = await handle(expressReceiver as WebhookReceiver, {
      method: req.method,
      url: req.originalUrl,
      headers: req.headers,
      body,
    });
    res.status(answer.status).set(answer.headers).end();
  });
  expressServer = app.listen(0, '127.0.0.1');
  await new Promise<void>((r) => expressServer.once('listening', () => r()));
  expressOrigin = `http://127.0.0.1:${(expressServer.address() as AddressInfo).port}`;
  expressReceiver = createWebhookReceiver({ endpoint: expressOrigin, keys: resolver, maxBodyBytes: MAX });
});

afterAll(async () => {
  await new Promise((r) => nodeServer?.close(r));
  await new Promise((r) => expressServer?.close(r));
});

const now = () => Math.floor(Date.now() / 1000);

async function post(url: string, headers: Record<string, string>, body: Uint8Array | string): Promise<Response> {
  return fetch(url, { method: 'POST', headers, body: body as NonNullable<RequestInit['body']> });
}

for (const [name, origin] of [
  ['Node http', () => nodeOrigin],
  ['Express', () => expressOrigin],
] as const) {
  describe(`${name} receiver`, () => {
    const url = () => `${origin()}/adcp/webhook/create_media_buy`;
    async function send(
      body: string,
      tweak: (s: Awaited<ReturnType<typeof signWebhook>>) => { headers: Record<string, string>; body: Uint8Array | string } = (s) => s,
    ) {
      const signed = await signWebhook({ key: ed25519, url: url(), body, created: now() });
      const { headers, body: sent } = tweak(signed);
      const before = delivered.length;
      const response = await post(url(), headers, sent);
      return { response, reached: delivered.slice(before) };
    }

    test('completed: 200, and the application gets typed create_media_buy data from the seller', async () => {
      const { response, reached } = await send(completedBody());
      expect(response.status).toBe(200);
      const hook = reached[0] as ReceivedWebhook;
      expect(hook.signer.agent).toBe(SELLER);
      if (hook.taskType !== 'create_media_buy' || hook.data === null || !('media_buy_id' in hook.data))
        throw new Error('expected create_media_buy data');
      expect(hook.data.media_buy_id).toBe('mb_4821');
    });
    test('failed with adcp_error: 200, and the application gets the typed failure', async () => {
      const { response, reached } = await send(failedBody());
      expect(response.status).toBe(200);
      expect(reached[0]).toBeInstanceOf(WebhookTaskFailedError);
      expect((reached[0] as WebhookTaskFailedError).adcpError?.code).toBe('BUDGET_TOO_LOW');
    });
    test('working: 200 with the progress', async () => {
      const { response, reached } = await send(workingBody());
      expect(response.status).toBe(200);
      expect((reached[0] as ReceivedWebhook).data).toEqual({ percentage: 60, current_step: 'trafficking' });
    });

    const hostile: Array<
      [
        string,
        string,
        number,
        (s: Awaited<ReturnType<typeof signWebhook>>) => { headers: Record<string, string>; body: Uint8Array | string },
      ]
    > = [
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
    for (const [what, code, status, tweak] of hostile) {
      test(`${what}: ${status} ${code}, nothing delivered`, async () => {
        const { response, reached } = await send(completedBody(), tweak);
        expect(response.status).toBe(status);
        if (status === 401) expect(response.headers.get('www-authenticate')).toBe(`Signature error="${code}"`);
        expect(reached).toEqual([]);
      });
    }
    test('expired: 401 webhook_signature_window_invalid', async () => {
      const signed = await signWebhook({ key: ed25519, url: url(), body: completedBody(), created: now() - 700 });
      const response = await post(url(), signed.headers, signed.body);
      expect([response.status, response.headers.get('www-authenticate')]).toEqual([
        401,
        'Signature error="webhook_signature_window_invalid"',
      ]);
    });
    test('wrong tag (a request signature replayed as a webhook): 401 webhook_signature_tag_invalid', async () => {
      const signed = await signWebhook({ key: ed25519, url: url(), body: completedBody(), created: now(), tag: 'adcp/request-signing/v1' });
      const response = await post(url(), signed.headers, signed.body);
      expect(response.headers.get('www-authenticate')).toBe('Signature error="webhook_signature_tag_invalid"');
    });
    test('replayed: the second delivery of the same signed request is refused', async () => {
      const signed = await signWebhook({ key: ed25519, url: url(), body: workingBody(), created: now() });
      expect((await post(url(), signed.headers, signed.body)).status).toBe(200);
      const again = await post(url(), signed.headers, signed.body);
      expect([again.status, again.headers.get('www-authenticate')]).toEqual([401, 'Signature error="webhook_signature_replayed"']);
    });
    test('duplicate keys in a validly signed body: 401 webhook_body_malformed, nothing delivered', async () => {
      const body = completedBody().replace('"task_id":"task_cmb_4821"', '"task_id":"task_cmb_4821","task_id":"task_other"');
      const { response, reached } = await send(body);
      expect(response.headers.get('www-authenticate')).toBe('Signature error="webhook_body_malformed"');
      expect(reached).toEqual([]);
    });
  });
}

test('Node http: an oversize body (1.2 MB) is refused 413 before any digest or signature work', async () => {
  const body = completedBodyOfSize(1_200_000);
  const signed = await signWebhook({ key: ed25519, url: `${nodeOrigin}/adcp/webhook/create_media_buy`, body, created: now() });
  const before = { ...counted.calls };
  const response = await post(`${nodeOrigin}/adcp/webhook/create_media_buy`, signed.headers, signed.body);
  expect(response.status).toBe(413);
  expect(counted.calls).toEqual(before);
  // The same receiver does hash a genuine body, so the count above can move.
  const ok = await signWebhook({ key: ed25519, url: `${nodeOrigin}/adcp/webhook/create_media_buy`, body: completedBody(), created: now() });
  expect((await post(`${nodeOrigin}/adcp/webhook/create_media_buy`, ok.headers, ok.body)).status).toBe(200);
  expect(counted.calls.digest).toBe(before.digest! + 1);
});
