/**
 * callTask (adcp-decode/mcp) end to end: real MCP sellers (@modelcontextprotocol/sdk low-level
 * `Server`, Streamable HTTP on 127.0.0.1, answering over SSE as the SDK does by default) called
 * through a real SDK `Client`. What the seller received, what callTask returned or threw, and who
 * the failure blames.
 */

import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolRequest, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from 'vitest';
import { boundedFetch } from '../../src/fetch/index.js';
import { DecodeError, type decode, LimitError, RequestError, TaskFailedError } from '../../src/index.js';
import { callTask, safeCallTask, TransportError } from '../../src/mcp/index.js';
import { KEY, mediaBuyRequest, PRODUCTS_BRIEF } from '../encode/requests.js';
import { lowLevelSeller, type ServedSellers, serveSellers } from '../fixtures/mcp-sellers.js';
import { V3_1 } from '../fixtures/versions.js';

/** A valid AdCP 3.1 get_products payload (3 products, adcp_version "3.1"). */
const payload = (
  JSON.parse(readFileSync(new URL('../../examples/get-products.mcp.json', import.meta.url), 'utf8')) as {
    structuredContent: Record<string, unknown> & { products: Array<Record<string, unknown>> };
  }
).structuredContent;
const adcpError = { code: 'RATE_LIMITED', message: 'Too many requests for this account.', recovery: 'transient', retry_after: 5 };

/** The arguments each seller was called with, by seller. */
const received: Record<string, Array<CallToolRequest['params']>> = {};
const record = (name: string, params: CallToolRequest['params']): Record<string, unknown> => {
  (received[name] ??= []).push(params);
  return params.arguments ?? {};
};
const answer = (structured: Record<string, unknown>) => ({
  content: [{ type: 'text' as const, text: 'ok' }],
  structuredContent: structured,
});

/** get_products, with the request's context echoed, as the spec requires. */
const echoing = lowLevelSeller({
  call: (params) => answer({ ...payload, context: record('echoing', params).context }),
});

/**
 * A get_products answer whose text is over 1 MiB (the client's bound in these tests), after a log
 * notification: the SSE answer is then streamed (no Content-Length to refuse it by), and the bound
 * trips while the SDK reads it in the background.
 */
const oversized = lowLevelSeller({
  call: async (_, extra) => {
    await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'searching inventory' } });
    const products = Array.from({ length: 1500 }, (_, i) => ({
      ...payload.products[0],
      product_id: `p-${i}`,
      description: 'x'.repeat(1000),
    }));
    return { content: [{ type: 'text', text: JSON.stringify({ ...payload, products }) }] };
  },
});

let served: ServedSellers;
beforeAll(async () => {
  served = await serveSellers({
    echoing,
    oversized,
    'is-error': lowLevelSeller({
      call: () => ({
        isError: true,
        content: [{ type: 'text', text: JSON.stringify({ adcp_error: adcpError }) }],
        structuredContent: { adcp_error: adcpError },
      }),
    }),
    'json-rpc-error': lowLevelSeller({
      call: () => {
        throw new McpError(-32029, 'Rate limit exceeded', { adcp_error: adcpError });
      },
    }),
    'context-changed': lowLevelSeller({ call: () => answer({ ...payload, context: { trace_id: 'someone-else' } }) }),
    // Never answers: the call must end at its own deadline.
    silent: lowLevelSeller({ call: () => new Promise(() => undefined) }),
    'media-buy': lowLevelSeller({
      call: (params) => {
        const args = record('media-buy', params);
        return answer({ status: 'submitted', task_id: 'task_cmb_4821', adcp_version: '3.1', context: args.context });
      },
    }),
  });
});
afterAll(() => served.close());

/** A real SDK client connected to one seller, through boundedFetch (1 MiB) as the README says. */
async function connect(name: string, base = served.base): Promise<Client> {
  const client = new Client({ name: 'buyer', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(name, base), { fetch: boundedFetch({ maxBytes: 1024 * 1024 }) }));
  return client;
}

async function withClient<T>(name: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = await connect(name);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

describe('callTask over the real MCP SDK', () => {
  test('typed in and out: the seller gets the encoded request, stamped; the answer decodes as its type', async () => {
    const response = await withClient('echoing', (client) => callTask(client, 'get_products', PRODUCTS_BRIEF, { version: '3.1' }));
    expectTypeOf(response).toEqualTypeOf<ReturnType<typeof decode<'get_products', '3.1'>>>();
    if (response.status !== 'completed') throw new Error(`expected completed, got ${response.status}`);
    expect(response.products?.map((p) => p.product_id)).toEqual(['ctv-prime-time-us', 'news-display-ros', 'podcast-midroll-tech']);
    expect(received.echoing?.at(-1)).toEqual({
      name: 'get_products',
      arguments: { ...PRODUCTS_BRIEF, adcp_version: '3.1', adcp_major_version: 3 },
    });
  });

  test('safeCallTask hands back the request sent, frozen, for a retry or to tie a later poll or webhook to it', async () => {
    const plan = mediaBuyRequest(2);
    const result = await withClient('media-buy', (client) => safeCallTask(client, 'create_media_buy', plan, { version: '3.1' }));
    if (!result.success) throw result.error;
    expect(result.version).toBe(V3_1);
    expect(result.data).toMatchObject({ status: 'submitted', task_id: 'task_cmb_4821' });
    expect(result.request.args.idempotency_key).toBe(KEY);
    expect(Object.isFrozen(result.request.args)).toBe(true);
    expect(received['media-buy']?.at(-1)?.arguments).toEqual(result.request.args);
  });

  test('arguments the schema refuses: RequestError (the caller), and nothing is sent', async () => {
    const before = received['media-buy']?.length ?? 0;
    const { idempotency_key: _, ...withoutKey } = mediaBuyRequest(1);
    // @ts-expect-error idempotency_key is required by the request type
    const call = withClient('media-buy', (client) => callTask(client, 'create_media_buy', withoutKey, { version: '3.1' }));
    await expect(call).rejects.toBeInstanceOf(RequestError);
    await expect(call).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    expect(received['media-buy']?.length ?? 0).toBe(before);
  });

  test.each(['is-error', 'json-rpc-error'])('%s with adcp_error: TaskFailedError with the seller error and its recovery', async (name) => {
    const call = withClient(name, (client) => callTask(client, 'get_products', PRODUCTS_BRIEF));
    await expect(call).rejects.toBeInstanceOf(TaskFailedError);
    await expect(call).rejects.toMatchObject({ code: 'TASK_FAILED', adcpError, recovery: { recovery: 'transient', retryAfterSeconds: 5 } });
  });

  test('a context the seller changed: CONTEXT_MISMATCH, the check decode makes with the request', async () => {
    const call = withClient('context-changed', (client) => callTask(client, 'get_products', PRODUCTS_BRIEF, { version: '3.1' }));
    await expect(call).rejects.toMatchObject({ code: 'CONTEXT_MISMATCH', path: '/context/trace_id' });
  });

  test('an oversize SSE answer fails at once with TOO_LARGE; the bare callTool waits for its own timeout', async () => {
    // The call's deadline is far away: only the byte bound, wired by callTask, can end it with TOO_LARGE.
    const call = withClient('oversized', (client) => callTask(client, 'get_products', PRODUCTS_BRIEF, { timeoutMs: 120_000 }));
    await expect(call).rejects.toBeInstanceOf(LimitError);
    await expect(call).rejects.toMatchObject({ code: 'TOO_LARGE', unit: 'bytes', limit: 1024 * 1024 });
    // The same seller through callTool alone: the bound trips in the background and the call hangs to its timeout.
    const bare = withClient('oversized', (client) =>
      client.callTool({ name: 'get_products', arguments: {} }, undefined, { timeout: 1000 }),
    );
    await expect(bare).rejects.toMatchObject({ code: -32001 });
  });

  test('a seller that never answers: TIMEOUT at the call deadline, a LimitError, never the seller failing', async () => {
    const result = await withClient('silent', (client) => safeCallTask(client, 'get_products', PRODUCTS_BRIEF, { timeoutMs: 300 }));
    if (result.success) throw new Error('expected a failure');
    expect(result.error).toBeInstanceOf(LimitError);
    expect(result.error).not.toBeInstanceOf(TaskFailedError);
    expect(result.error).toMatchObject({ code: 'TIMEOUT', unit: 'ms', limit: 300 });
  });

  test('your own abort rejects with your reason, as is', async () => {
    const controller = new AbortController();
    const reason = new Error('the buyer gave up');
    const call = withClient('silent', (client) => callTask(client, 'get_products', PRODUCTS_BRIEF, { signal: controller.signal }));
    setTimeout(() => controller.abort(reason), 50);
    await expect(call).rejects.toBe(reason);
  });

  test('a connection that fails is a TransportError (the network, transient), the client error its cause, never an answer', async () => {
    const gone = await serveSellers({ echoing });
    const client = await connect('echoing', gone.base);
    await gone.close();
    try {
      const error: unknown = await callTask(client, 'get_products', PRODUCTS_BRIEF).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ code: 'TRANSPORT_FAILED', status: undefined, blame: 'network', recovery: { recovery: 'transient' } });
      expect((error as TransportError).cause).toBeInstanceOf(Error);
      expect((error as TransportError).cause).not.toBeInstanceOf(DecodeError);
    } finally {
      await client.close();
    }
  });

  test('an invalid option: INVALID_OPTION before anything is sent', async () => {
    const result = await withClient('echoing', (client) => safeCallTask(client, 'get_products', PRODUCTS_BRIEF, { timeoutMs: -1 }));
    expect(result).toMatchObject({ success: false, error: { code: 'INVALID_OPTION' } });
  });
});
