/**
 * callTask's events (option `onEvent`): every step of a call told in order, one call's events
 * sharing its id; each attempt with the request's size and its duration; each retry with its
 * reason and delay; every refusal with its code, blame, recovery and the seller's words as the
 * error shows them, those made before anything is sent too (arguments the schema refuses, options),
 * which the official SDK's `onActivity` never sees. The clients are in-process stand-ins with the
 * SDKs' shapes; a refusal is the MCP SDK's own `StreamableHTTPError`.
 */
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, test } from 'vitest';
import { type A2aClient, streamTask } from '../../src/a2a/index.js';
import { TransportError } from '../../src/call/transport-error.js';
import { encode } from '../../src/encode/encode.js';
import { shownText } from '../../src/errors/format.js';
import { type AdcpEvent, callTask, type McpClient, safeCallTask } from '../../src/mcp/index.js';
import { PRODUCTS_BRIEF } from '../encode/requests.js';
import { payload } from '../fixtures/payloads.js';
import { V3_1 } from '../fixtures/versions.js';

const AGENT = 'https://seller.example.com/adcp/mcp';

/** An MCP tool result carrying `structured`. */
const answer = (structured: Record<string, unknown>) => ({ content: [{ type: 'text', text: 'ok' }], structuredContent: structured });

/** A 3.1 seller's products for the brief, echoing its context as a seller must. */
const products = () => ({ ...payload('3.1/get_products.valid'), context: PRODUCTS_BRIEF.context });

/** A client answering each call with the next of `answers` (a value, or an error to throw), and what it was sent. */
function scripted(...answers: unknown[]): McpClient & { readonly sent: unknown[] } {
  const sent: unknown[] = [];
  return {
    sent,
    callTool: async (params) => {
      sent.push(params);
      const next = answers[Math.min(sent.length, answers.length) - 1];
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

/** A listener that keeps what it is told. */
function recorder() {
  const events: AdcpEvent[] = [];
  return { events, onEvent: (event: AdcpEvent) => void events.push(event), types: () => events.map((e) => e.type) };
}

/** The bytes encode's request takes as compact JSON. */
const argsBytes = (args: object) => Buffer.byteLength(JSON.stringify(args), 'utf8');

describe('a call that answers', () => {
  test('call-started, attempt-started (request size), attempt-ended (status, duration), call-ended: one id', async () => {
    const { events, onEvent, types } = recorder();
    const client = scripted(answer(products()));
    await callTask(client, 'get_products', PRODUCTS_BRIEF, { version: '3.1', onEvent, agent: AGENT });
    expect(types()).toEqual(['call-started', 'attempt-started', 'attempt-ended', 'call-ended']);
    const sentArgs = encode('get_products', PRODUCTS_BRIEF, { version: '3.1' }).args;
    expect(events[0]).toEqual({ type: 'call-started', id: expect.any(Number), task: 'get_products', agent: AGENT, attempts: 1 });
    expect(events[1]).toEqual({
      type: 'attempt-started',
      id: events[0]?.type === 'call-started' ? events[0].id : -1,
      task: 'get_products',
      agent: AGENT,
      version: V3_1,
      release: '3.1',
      attempt: 1,
      attempts: 1,
      bytes: argsBytes(sentArgs),
    });
    expect(events[2]).toMatchObject({ type: 'attempt-ended', attempt: 1, ok: true, status: 'completed', version: V3_1 });
    expect(events[3]).toMatchObject({ type: 'call-ended', attempts: 1, ok: true, status: 'completed', version: V3_1 });
    const ids = new Set(events.map((e) => ('id' in e ? e.id : undefined)));
    expect(ids.size).toBe(1);
    for (const e of events) if ('durationMs' in e) expect(e.durationMs).toBeGreaterThanOrEqual(0);
  });

  test('two calls sharing a listener have two ids; safeCallTask and streamTask tell the same steps', async () => {
    const { events, onEvent } = recorder();
    const client = scripted(answer(products()));
    await Promise.all([
      safeCallTask(client, 'get_products', PRODUCTS_BRIEF, { version: '3.1', onEvent }),
      safeCallTask(client, 'get_products', PRODUCTS_BRIEF, { version: '3.1', onEvent }),
    ]);
    const ids = [...new Set(events.map((e) => ('id' in e ? e.id : 0)))];
    expect(ids.map((id) => events.filter((e) => 'id' in e && e.id === id).map((e) => e.type))).toEqual([
      ['call-started', 'attempt-started', 'attempt-ended', 'call-ended'],
      ['call-started', 'attempt-started', 'attempt-ended', 'call-ended'],
    ]);

    const progress = { status: 'working', percentage: 40, context: PRODUCTS_BRIEF.context };
    const a2a: A2aClient = {
      sendMessage: () => Promise.reject(new Error('not used')),
      async *sendMessageStream() {
        yield { task: { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_SUBMITTED' } } };
        const message = { messageId: 'm1', role: 'ROLE_AGENT', parts: [{ data: progress }] };
        yield { statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING', message } } };
      },
    };
    const streamed = recorder();
    await streamTask(a2a, 'get_products', PRODUCTS_BRIEF, { version: '3.1', onEvent: streamed.onEvent });
    expect(streamed.types()).toEqual(['call-started', 'attempt-started', 'attempt-ended', 'call-ended']);
    expect(streamed.events.at(-1)).toMatchObject({ ok: true, status: 'working', agent: undefined });
  });
});

describe('retries and refusals', () => {
  test("a 503 then an answer: the refusal (blame seller, transient, the seller's words escaped), the retry's delay, the second attempt", async () => {
    const { events, onEvent, types } = recorder();
    const hostile = 'overloaded \u001b[31m\u202eretry later';
    const client = scripted(new StreamableHTTPError(503, `Error POSTing to endpoint: ${hostile}`), answer(products()));
    const slept: number[] = [];
    const sleep = async (ms: number) => void slept.push(ms);
    const data = await callTask(client, 'get_products', PRODUCTS_BRIEF, { version: '3.1', onEvent, retry: { attempts: 3, sleep } });
    expect(data).toMatchObject({ status: 'completed' });
    expect(types()).toEqual([
      'call-started',
      'attempt-started',
      'attempt-ended',
      'retry',
      'attempt-started',
      'attempt-ended',
      'call-ended',
    ]);
    const refusal = {
      code: 'TRANSPORT_FAILED',
      detail: undefined,
      blame: 'seller',
      recovery: 'transient',
      retryAfterSeconds: undefined,
      httpStatus: 503,
      sellerText: shownText(hostile, 1000),
      message: expect.stringContaining('503'),
    };
    expect(events[2]).toMatchObject({ type: 'attempt-ended', attempt: 1, attempts: 3, ok: false, refusal });
    expect(events[3]).toEqual({
      type: 'retry',
      id: expect.any(Number),
      task: 'get_products',
      agent: undefined,
      attempt: 2,
      attempts: 3,
      delayMs: slept[0],
      reason: refusal,
    });
    // The seller's control characters and bidi override never reach a listener raw.
    expect(JSON.stringify(events)).not.toMatch(/\u001b|\u202e/);
    expect(events[4]).toMatchObject({ type: 'attempt-started', attempt: 2 });
    expect(events[6]).toMatchObject({ type: 'call-ended', attempts: 2, ok: true });
  });

  test('arguments the schema refuses: the call is told started and ended with the refusal, nothing sent (onActivity sees none)', async () => {
    const { events, onEvent, types } = recorder();
    const client = scripted(answer(products()));
    // @ts-expect-error buying_mode is required: refused by encode
    const r = await safeCallTask(client, 'get_products', { brief: 'CTV' }, { version: '3.1', onEvent });
    expect(r.success).toBe(false);
    expect(client.sent).toEqual([]);
    expect(types()).toEqual(['call-started', 'call-ended']);
    expect(events[1]).toMatchObject({
      type: 'call-ended',
      attempts: 0,
      version: undefined,
      ok: false,
      refusal: { code: 'INVALID_REQUEST', blame: 'request', httpStatus: undefined },
      error: r.success ? undefined : r.error,
    });
  });

  test("an option refused is told too, when the listener can be read; the seller's answer refused by the schema is the seller's", async () => {
    const { events, onEvent } = recorder();
    const client = scripted(answer({ ...products(), products: 'none' }));
    await safeCallTask(client, 'get_products', PRODUCTS_BRIEF, { version: '3.1', onEvent, timeoutMs: 0 });
    expect(events).toEqual([
      { type: 'call-started', id: expect.any(Number), task: 'get_products', agent: undefined, attempts: 1 },
      expect.objectContaining({
        type: 'call-ended',
        attempts: 0,
        ok: false,
        refusal: expect.objectContaining({ code: 'INVALID_OPTION', blame: 'configuration' }),
      }),
    ]);
    events.length = 0;
    await safeCallTask(client, 'get_products', PRODUCTS_BRIEF, { version: '3.1', onEvent });
    expect(events.at(-1)).toMatchObject({ ok: false, refusal: { code: 'SCHEMA_MISMATCH', blame: 'seller' } });
  });

  test("the seller's AdCP error: no one's fault, its recovery, its code shown as the message shows it", async () => {
    const { events, onEvent } = recorder();
    const code = 'BUDGET_\u202eTOO_LOW';
    const failure = { adcp_error: { code, message: 'below the floor', recovery: 'correctable' } };
    const client = scripted({ isError: true, content: [{ type: 'text', text: 'below the floor' }], structuredContent: failure });
    const r = await safeCallTask(client, 'get_products', PRODUCTS_BRIEF, { version: '3.1', onEvent, retry: { attempts: 3 } });
    expect(r.success).toBe(false);
    expect(client.sent).toHaveLength(1);
    expect(events.map((e) => e.type)).not.toContain('retry');
    expect(events.at(-1)).toMatchObject({
      type: 'call-ended',
      ok: false,
      refusal: { code: 'TASK_FAILED', blame: 'none', recovery: 'correctable', detail: shownText(code, 64) },
    });
  });

  test("your abort mid-attempt: the attempt and the call end with the abort's reason as is, no refusal", async () => {
    const { events, onEvent } = recorder();
    const controller = new AbortController();
    const reason = new Error('buyer gave up');
    const deaf = { callTool: () => new Promise<never>(() => undefined) };
    const pending = callTask(deaf, 'get_products', PRODUCTS_BRIEF, { version: '3.1', onEvent, signal: controller.signal });
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(events.slice(2)).toEqual([
      expect.objectContaining({ type: 'attempt-ended', ok: false, refusal: undefined, error: reason }),
      expect.objectContaining({ type: 'call-ended', attempts: 1, ok: false, refusal: undefined, error: reason }),
    ]);
  });

  test('a refused connection is the network; a TransportError blames what its status says', async () => {
    const { events, onEvent } = recorder();
    const client = scripted(new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) }));
    await safeCallTask(client, 'get_products', PRODUCTS_BRIEF, { version: '3.1', onEvent });
    expect(events.at(-1)).toMatchObject({
      refusal: { code: 'TRANSPORT_FAILED', blame: 'network', recovery: 'transient', httpStatus: undefined },
    });
    const refused = new TransportError('x', { refusal: { status: 401, signatureError: 'request_signature_required' } });
    expect([refused.blame, refused.signatureError]).toEqual(['configuration', 'request_signature_required']);
  });
});

describe('the option', () => {
  test('onEvent must be a function and agent a URL string: INVALID_OPTION before anything is sent', async () => {
    const client = scripted(answer(products()));
    for (const options of [{ onEvent: 'log' }, { onEvent: {} }, { agent: 42 }, { agent: '' }]) {
      // @ts-expect-error wrong on purpose
      const r = await safeCallTask(client, 'get_products', PRODUCTS_BRIEF, options);
      expect(r).toMatchObject({ success: false, error: { code: 'INVALID_OPTION' } });
    }
    expect(client.sent).toEqual([]);
  });
});
