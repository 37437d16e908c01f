/**
 * callTask and streamTask over the real @a2a-js/sdk 1.x client against hostile sellers on
 * 127.0.0.1: what the SDK throws (JsonRpcTransportError for a JSON-RPC error, a plain Error
 * carrying the whole body for an HTTP error, an SSE error event wrapping one) is classed as over
 * MCP: a seller's JSON-RPC error is a TaskFailedError (adcp_error, recovery, retry_after), an HTTP
 * refusal a TransportError with the seller's text escaped and cut; the caller's abort is rethrown
 * as it was; `retry` resends the same invocation.
 */
import { TaskState } from '@a2a-js/sdk-v1';
import type { Client } from '@a2a-js/sdk-v1/client';
import { afterEach, describe, expect, test } from 'vitest';
import { callTask, foldA2aStream, safeCallTask, streamTask, TransportError } from '../../src/a2a/index.js';
import { boundedFetch } from '../../src/fetch/index.js';
import { DecodeError, TaskFailedError } from '../../src/index.js';
import { KEY, mediaBuyRequest, PRODUCTS_BRIEF } from '../encode/requests.js';
import { dataPart, executor, type Intercept, type ServedAgent, serveAgent, taskEvents } from '../fixtures/a2a-sellers.js';
import { ABORTS, HOSTILE_BODY, hasRawControl } from '../fixtures/hostile-sellers.js';

const adcpError = { code: 'RATE_LIMITED', message: 'Too many requests.', recovery: 'transient', retry_after: 5 };

const seller = executor(async (ctx, bus) => {
  const first = ctx.userMessage.parts[0]?.content;
  const { skill, input } = (first?.$case === 'data' ? first.value : {}) as { skill?: string; input?: Record<string, unknown> };
  const { submitted, status, artifact } = taskEvents(ctx, bus);
  submitted();
  const answer =
    skill === 'create_media_buy'
      ? { status: 'submitted', task_id: 'task_cmb_9', adcp_version: '3.1' }
      : { adcp_version: '3.1', products: [], cache_scope: 'public' };
  if (input?.brief === 'silent') return new Promise(() => undefined);
  artifact([dataPart({ ...answer, context: input?.context })], false, true);
  status(TaskState.TASK_STATE_COMPLETED);
  bus.finished();
});

/** The JSON-RPC requests a hostile intercept saw, by call. */
type Seen = Array<{ method: string | undefined; params: unknown }>;

let agents: ServedAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.map((a) => a.close()));
  agents = [];
});

/** A seller whose JSON-RPC requests meet `hostile` first (it is given the attempt number), and a client through boundedFetch. */
async function hostile(
  answer: (attempt: number, req: Parameters<Intercept>[0], res: Parameters<Intercept>[1]) => 'pass' | undefined,
): Promise<{ client: Client; seen: Seen }> {
  const seen: Seen = [];
  const served = await serveAgent(seller, (req, res, next) => {
    seen.push({ method: req.body?.method, params: req.body?.params });
    if (answer(seen.length, req, res) === 'pass') next();
  });
  agents.push(served);
  return { client: await served.client(boundedFetch()), seen };
}

const jsonRpcError = (req: Parameters<Intercept>[0], res: Parameters<Intercept>[1], error: unknown) =>
  void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: req.body?.id, error }));

/** The invocation's DataPart as sent: what must be the same on every attempt (the message id is the SDK's, per message). */
const invocation = (params: unknown) => (params as { message?: { parts?: unknown } }).message?.parts;

describe("over A2A, a seller's JSON-RPC error is classed as over MCP", () => {
  test('JsonRpcTransportError with adcp_error RATE_LIMITED, retry_after 5: TaskFailedError, transient, 5 s', async () => {
    const { client } = await hostile((_, req, res) =>
      jsonRpcError(req, res, { code: -32029, message: 'Rate limit exceeded', data: { adcp_error: adcpError } }),
    );
    const result = await safeCallTask(client, 'get_products', PRODUCTS_BRIEF);
    if (result.success) throw new Error('expected a failure');
    expect(result.error).toBeInstanceOf(TaskFailedError);
    expect(result.error).toMatchObject({
      code: 'TASK_FAILED',
      adcpError,
      known: { code: 'RATE_LIMITED' },
      recovery: { recovery: 'transient', retryAfterSeconds: 5 },
    });
    expect(result.request?.task).toBe('get_products');
  });

  test('without adcp_error, a reserved code still names the AdCP error; the message is escaped and cut', async () => {
    const { client } = await hostile((_, req, res) => jsonRpcError(req, res, { code: -32029, message: HOSTILE_BODY }));
    const error = (await callTask(client, 'get_products', PRODUCTS_BRIEF).catch((e: unknown) => e)) as TaskFailedError;
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error.sellerText?.length).toBeLessThanOrEqual(1000);
    for (const text of [error.message, error.sellerText ?? '']) expect(hasRawControl(text)).toBe(false);
  });

  test("a stream's error event (the SDK wraps the JSON-RPC error as cause): TaskFailedError too", async () => {
    const { client } = await hostile((_, req, res) => {
      const error = { code: -32029, message: 'Rate limit exceeded', data: { adcp_error: adcpError } };
      res
        .writeHead(200, { 'content-type': 'text/event-stream' })
        .end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: req.body?.id, error })}\n\n`);
      return undefined;
    });
    await expect(streamTask(client, 'get_products', PRODUCTS_BRIEF)).rejects.toMatchObject({
      code: 'TASK_FAILED',
      recovery: { recovery: 'transient', retryAfterSeconds: 5 },
    });
  });
});

describe('over A2A, an HTTP refusal is a TransportError', () => {
  test('a 500 with 300 KB of hostile text: escaped, at most 1,000 characters, transient', async () => {
    const { client } = await hostile((_, _req, res) => void res.writeHead(500, { 'content-type': 'text/plain' }).end(HOSTILE_BODY));
    const error = (await callTask(client, 'get_products', PRODUCTS_BRIEF).catch((e: unknown) => e)) as TransportError;
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'TRANSPORT_FAILED', status: 500, blame: 'seller', recovery: { recovery: 'transient' } });
    expect(error.sellerText?.length).toBeLessThanOrEqual(1000);
    for (const text of [error.message, error.sellerText ?? '']) expect(hasRawControl(text)).toBe(false);
  });

  test('a 401 with Signature error="request_signature_required": the configuration, correctable, never retried', async () => {
    const { client, seen } = await hostile((_, _req, res) => {
      res.writeHead(401, { 'www-authenticate': 'Signature error="request_signature_required"' }).end();
      return undefined;
    });
    const result = await safeCallTask(client, 'create_media_buy', mediaBuyRequest(1), { version: '3.1', retry: { attempts: 3 } });
    expect(result).toMatchObject({
      success: false,
      error: { status: 401, signatureError: 'request_signature_required', blame: 'configuration', recovery: { recovery: 'correctable' } },
      request: { args: { idempotency_key: KEY } },
    });
    expect(seen).toHaveLength(1);
  });

  test('a dropped connection: the network, transient; with retry the same invocation is sent again', async () => {
    const { client, seen } = await hostile((attempt, _req, res) => {
      if (attempt > 1) return 'pass';
      res.socket?.destroy();
      return undefined;
    });
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    await expect(
      callTask(client, 'create_media_buy', mediaBuyRequest(1), { version: '3.1', retry: { attempts: 2, sleep } }),
    ).resolves.toMatchObject({
      status: 'submitted',
    });
    expect(waits).toHaveLength(1);
    expect(seen).toHaveLength(2);
    expect(invocation(seen[1]?.params)).toEqual(invocation(seen[0]?.params));
  });
});

describe('over A2A, retry and abort', () => {
  test('rate-limited then served: one 5 s wait, the identical invocation (same key) resent', async () => {
    const { client, seen } = await hostile((attempt, req, res) =>
      attempt === 1 ? jsonRpcError(req, res, { code: -32029, message: 'slow down', data: { adcp_error: adcpError } }) : 'pass',
    );
    const waits: number[] = [];
    const result = await safeCallTask(client, 'create_media_buy', mediaBuyRequest(1), {
      version: '3.1',
      retry: { attempts: 3, sleep: async (ms) => void waits.push(ms) },
    });
    expect(result).toMatchObject({ success: true, data: { status: 'submitted' } });
    expect(waits).toEqual([5000]);
    expect(seen).toHaveLength(2);
    expect(invocation(seen[1]?.params)).toEqual(invocation(seen[0]?.params));
    expect(JSON.stringify(invocation(seen[0]?.params))).toContain(KEY);
  });

  test.each(ABORTS)("%s: rejects with the signal's reason, sent or streamed", async (_, make) => {
    const { client } = await hostile(() => 'pass');
    for (const call of [callTask, safeCallTask, streamTask]) {
      const signal = make();
      const outcome: unknown = await call(client, 'get_products', { ...PRODUCTS_BRIEF, brief: 'silent' }, { signal }).then(
        (r) => ({ resolved: r }),
        (e: unknown) => e,
      );
      expect(outcome).toBe(signal.reason);
    }
  });
});

describe('an in-process client whose event cannot be read', () => {
  const task = { task: { id: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_SUBMITTED' } } };
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const boom = (): never => {
    throw new Error('\u001b[31mboom\u001b[0m');
  };
  const HOSTILE_EVENTS: ReadonlyArray<readonly [string, unknown]> = [
    ['a getter that throws', Object.defineProperty({}, 'task', { get: boom, enumerable: true })],
    ['a revoked Proxy as the task', { task: revoked.proxy }],
    [
      'a status update that is a Proxy whose traps throw',
      { statusUpdate: new Proxy({}, { getOwnPropertyDescriptor: boom, ownKeys: boom, get: boom }) },
    ],
    ['an SDK event whose payload getter throws', Object.defineProperty({}, 'payload', { get: boom, enumerable: true })],
    [
      'an update whose artifact parts throw when listed',
      { artifactUpdate: { taskId: 't-1', artifact: { artifactId: 'a', parts: new Proxy([], { get: boom, ownKeys: boom }) } } },
    ],
  ];

  test.each(HOSTILE_EVENTS)('%s: MALFORMED_ENVELOPE at the event, the stream cut, never a raw throw', async (_, hostileEvent) => {
    let cut: AbortSignal | undefined;
    const client = {
      sendMessage: async () => task,
      async *sendMessageStream(_params: unknown, options?: { signal?: AbortSignal }) {
        cut = options?.signal;
        yield task;
        yield hostileEvent;
      },
    };
    const result = await safeCallTask(client, 'get_products', PRODUCTS_BRIEF, { stream: true });
    if (result.success) throw new Error('expected a failure');
    expect(result.error).toMatchObject({ code: 'MALFORMED_ENVELOPE', path: '/1', task: 'get_products' });
    expect(hasRawControl(result.error.message)).toBe(false);
    expect(cut?.aborted).toBe(true);
    expect(() => foldA2aStream([task, hostileEvent])).toThrow(DecodeError);
  });
});
