/**
 * callTask, streamTask and safeCallTask over the @a2a-js/sdk 0.3.x clients (the major @adcp/sdk 6.x
 * needs), through a2aV03Client: a real 0.3 seller agent (its AgentExecutor behind the 0.3 JSON-RPC
 * express handler) on 127.0.0.1, called with the 0.3 `Client` (ClientFactory), which throws a
 * JSON-RPC error, and with the legacy `A2AClient`, which answers it as data.
 */
import type { AddressInfo } from 'node:net';
import type { AgentCard, Part } from '@a2a-js/sdk';
import { A2AClient, type Client, ClientFactory } from '@a2a-js/sdk/client';
import { type AgentExecutor, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { a2aV03Client, a2aV03Request, callTask, safeCallTask, streamTask, TransportError } from '../../src/a2a/index.js';
import { encode, TaskFailedError } from '../../src/index.js';

/** A 3.0 brief (the 0.3 clients stand beside @adcp/sdk, whose sellers speak 3.0). */
const PRODUCTS_BRIEF = {
  buying_mode: 'brief',
  brief: 'Premium CTV inventory for an outdoor gear launch, US and Canada, adults 25-54, Q3',
  context: { trace_id: 'trace-0cc175b9' },
} as const;

const product = {
  product_id: 'ctv-premium',
  name: 'Premium CTV',
  description: 'Premium connected-TV inventory',
  publisher_properties: [{ publisher_domain: 'streamer.example', selection_type: 'all' }],
  format_ids: [{ agent_url: 'https://creative.example', id: 'video_30s' }],
  delivery_type: 'guaranteed',
  pricing_options: [{ pricing_option_id: 'cpm-usd', pricing_model: 'cpm', currency: 'USD', fixed_price: 32 }],
  reporting_capabilities: {
    available_reporting_frequencies: ['daily'],
    expected_delay_minutes: 240,
    timezone: 'UTC',
    supports_webhooks: false,
    available_metrics: ['impressions', 'spend'],
    date_range_support: 'date_range',
  },
};

/** The messages the seller received, in order. */
const received: unknown[] = [];

const seller: AgentExecutor = {
  cancelTask: async () => undefined,
  execute: async (ctx, bus) => {
    received.push(ctx.userMessage);
    const first = ctx.userMessage.parts[0];
    const input = (first?.kind === 'data' ? first.data.input : undefined) as { brief?: string; context?: unknown } | undefined;
    if (input?.brief === 'unavailable') throw new Error('upstream inventory service down');
    const data: Part = { kind: 'data', data: { products: [product], context: input?.context } };
    const { taskId: id, contextId } = ctx;
    bus.publish({ kind: 'task', id, contextId, status: { state: 'submitted' }, history: [ctx.userMessage] });
    bus.publish({ kind: 'artifact-update', taskId: id, contextId, artifact: { artifactId: 'a1', parts: [data] } });
    bus.publish({ kind: 'status-update', taskId: id, contextId, status: { state: 'completed' }, final: true });
    bus.finished();
  },
};

/** When set, the seller answers every JSON-RPC call with an error carrying an adcp_error (rate limited). */
let rpcError = false;
const rateLimited = { code: 'RATE_LIMITED', message: 'Too many requests for this account.', recovery: 'transient', retry_after: 30 };

let origin = '';
let close: () => Promise<void>;
let client: Client;
let legacy: A2AClient;

beforeAll(async () => {
  const app = express();
  const http = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => http.once('listening', resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const card: AgentCard = {
    name: 'AdCP seller',
    description: 'An AdCP sales agent (test double, A2A 0.3)',
    url: `${origin}/a2a`,
    protocolVersion: '0.3.0',
    version: '1.0.0',
    capabilities: { streaming: true },
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: [],
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), seller);
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
  app.use('/a2a', (req, res, next) => {
    if (!rpcError) return next();
    express.json()(req, res, () => {
      res.json({ jsonrpc: '2.0', id: req.body.id, error: { code: -32000, message: 'Rate limited', data: { adcp_error: rateLimited } } });
    });
  });
  app.use('/a2a', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  close = () => {
    http.closeAllConnections();
    return new Promise((resolve) => http.close(() => resolve()));
  };
  client = await new ClientFactory().createFromUrl(origin);
  legacy = await A2AClient.fromCardUrl(`${origin}/.well-known/agent-card.json`);
});
afterAll(() => close());

const brief = (text: string) => ({ ...PRODUCTS_BRIEF, brief: text });

describe('a2aV03Client: callTask over the @a2a-js/sdk 0.3 clients', () => {
  test('the Client: the message is a v0.3 DataPart { skill, input }, the completed task decodes', async () => {
    received.length = 0;
    const response = await callTask(a2aV03Client(client), 'get_products', PRODUCTS_BRIEF, { version: '3.0' });
    expect(response).toMatchObject({ products: [{ product_id: 'ctv-premium' }], context: PRODUCTS_BRIEF.context });
    expect(received).toEqual([
      expect.objectContaining({
        kind: 'message',
        role: 'user',
        parts: [{ kind: 'data', data: { skill: 'get_products', input: expect.objectContaining({ brief: PRODUCTS_BRIEF.brief }) } }],
      }),
    ]);
  });

  test('the legacy A2AClient: its JSON-RPC response object decodes as the task it carries', async () => {
    const response = await callTask(a2aV03Client(legacy), 'get_products', PRODUCTS_BRIEF, { version: '3.0' });
    expect(response).toMatchObject({ products: [{ product_id: 'ctv-premium' }] });
  });

  test("a seller's JSON-RPC error is its answer: thrown by the Client, returned by A2AClient; both TASK_FAILED with its adcp_error", async () => {
    rpcError = true;
    try {
      for (const agent of [a2aV03Client(client), a2aV03Client(legacy)]) {
        const result = await safeCallTask(agent, 'get_products', PRODUCTS_BRIEF, { version: '3.0' });
        expect(result.success).toBe(false);
        if (result.success) continue;
        expect(result.error).toBeInstanceOf(TaskFailedError);
        expect(result.error).toMatchObject({ code: 'TASK_FAILED', task: 'get_products', adcpError: { code: 'RATE_LIMITED' } });
      }
    } finally {
      rpcError = false;
    }
  });

  test('a failed task (the executor threw) is TASK_FAILED over both clients', async () => {
    for (const agent of [a2aV03Client(client), a2aV03Client(legacy)]) {
      const result = await safeCallTask(agent, 'get_products', brief('unavailable'), { version: '3.0' });
      expect(result.success).toBe(false);
      if (!result.success) expect(result.error).toMatchObject({ code: 'TASK_FAILED', task: 'get_products' });
    }
  });

  test('a refused connection is no answer: a TransportError, as over the 1.x client', async () => {
    const gone = await A2AClient.fromCardUrl(`${origin}/.well-known/agent-card.json`, {
      fetchImpl: async (input, init) =>
        String(input).endsWith('/a2a') ? Promise.reject(new TypeError('fetch failed')) : fetch(input, init),
    });
    await expect(callTask(a2aV03Client(gone), 'get_products', PRODUCTS_BRIEF, { version: '3.0' })).rejects.toBeInstanceOf(TransportError);
  });

  test('streamTask folds the 0.3 stream (kind-tagged events) into the completed task', async () => {
    const response = await streamTask(a2aV03Client(client), 'get_products', PRODUCTS_BRIEF, { version: '3.0' });
    expect(response).toMatchObject({ products: [{ product_id: 'ctv-premium' }] });
  });

  test('a2aV03Request is what a 0.3 client of your own sends; an empty context is left out, a given one kept', () => {
    const request = encode('get_products', PRODUCTS_BRIEF, { version: '3.0' });
    expect(a2aV03Request(request).message).toEqual({
      kind: 'message',
      messageId: expect.any(String),
      role: 'user',
      parts: [{ kind: 'data', data: { skill: 'get_products', input: request.args } }],
    });
    expect(a2aV03Request(request, 'ctx-1').message.contextId).toBe('ctx-1');
  });
});
