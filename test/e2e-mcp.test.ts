/**
 * End to end over MCP: real sellers built with @modelcontextprotocol/sdk (`McpServer`, and the
 * low-level `Server` where `McpServer` cannot answer the way a seller must), served over Streamable
 * HTTP on 127.0.0.1, called by a real `Client`; what `callTool` returns, or throws, goes straight
 * into adcp-decode.
 *
 * Each seller lives at /mcp/<name> and exposes one AdCP tool, `get_products`, answering one way.
 * Servers are stateless (a server and transport per HTTP request), as the SDK recommends.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decode, formatIssues, safeDecode, SchemaMismatchError, TaskFailedError } from '../src/index.js';

const example = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../examples/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

/** A valid AdCP 3.1.19 get_products payload (3 products) and the summary text sellers send with it. */
const payload = example('get-products.mcp.json').structuredContent as { products: unknown[] };
const summary = 'Found 3 products for your brief.';
/** The same payload with three schema violations. */
const invalidPayload = example('get-products.invalid.mcp.json').structuredContent as Record<string, unknown>;
const adcpError = { code: 'RATE_LIMITED', message: 'Too many requests for this account.', recovery: 'transient', retry_after: 5 };

/** A get_products payload whose JSON text is over the spec's 4 MiB client limit (about 4.5 MB). */
function oversizedPayload(): Record<string, unknown> {
  const product = payload.products[0] as Record<string, unknown>;
  const products = Array.from({ length: 3000 }, (_, i) => ({ ...product, product_id: `ctv-${i}`, description: 'x'.repeat(1000) }));
  return { ...payload, products };
}

/** An McpServer seller whose get_products tool (no outputSchema) answers with `respond()`. */
function mcpSeller(respond: () => CallToolResult): () => McpServer {
  return () => {
    const server = new McpServer({ name: 'seller', version: '1.0.0' });
    server.registerTool('get_products', { description: 'AdCP get_products' }, () => respond());
    return server;
  };
}

/**
 * A low-level Server seller. `McpServer` turns anything a tool throws, McpError included, into an
 * `isError` text result, so a seller that answers with a JSON-RPC error must handle tools/call itself.
 */
function lowLevelSeller(options: { outputSchema?: Record<string, unknown>; call: () => CallToolResult }): () => Server {
  return () => {
    const server = new Server({ name: 'seller', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        {
          name: 'get_products',
          inputSchema: { type: 'object' as const },
          ...(options.outputSchema === undefined ? {} : { outputSchema: { type: 'object' as const, ...options.outputSchema } }),
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, () => options.call());
    return server;
  };
}

const looseProductsSchema = { properties: { products: { type: 'array' } }, required: ['products'] };

const sellers: Record<string, () => McpServer | Server> = {
  // Current sellers: the payload in structuredContent, a human summary in content.
  structured: mcpSeller(() => ({ content: [{ type: 'text', text: summary }], structuredContent: payload })),
  // Older sellers: the payload as JSON text only.
  'text-only': mcpSeller(() => ({ content: [{ type: 'text', text: JSON.stringify(payload) }] })),
  // An AdCP error: isError, adcp_error in structuredContent and in the text.
  'adcp-error': mcpSeller(() => ({
    isError: true,
    content: [{ type: 'text', text: JSON.stringify({ adcp_error: adcpError }) }],
    structuredContent: { adcp_error: adcpError },
  })),
  // A tool that throws McpError(-32029): McpServer flattens it into an isError text result.
  'mcpserver-throws': mcpSeller(() => {
    throw new McpError(-32029, 'Rate limit exceeded', { adcp_error: adcpError });
  }),
  // A JSON-RPC error with data.adcp_error, from a low-level tools/call handler.
  'jsonrpc-error': lowLevelSeller({
    call: () => {
      throw new McpError(-32029, 'Rate limit exceeded', { adcp_error: adcpError });
    },
  }),
  invalid: mcpSeller(() => ({ content: [{ type: 'text', text: summary }], structuredContent: invalidPayload })),
  oversized: mcpSeller(() => ({ content: [{ type: 'text', text: JSON.stringify(oversizedPayload()) }] })),
  // With an outputSchema, the SDK client validates structuredContent itself, before adcp-decode sees it.
  'output-schema-passes': lowLevelSeller({
    outputSchema: looseProductsSchema,
    call: () => ({ content: [{ type: 'text', text: summary }], structuredContent: invalidPayload }),
  }),
  'output-schema-fails': lowLevelSeller({
    outputSchema: looseProductsSchema,
    call: () => ({ content: [{ type: 'text', text: summary }], structuredContent: { ...payload, products: 'none' } }),
  }),
};

let http: HttpServer;
let base: string;

beforeAll(async () => {
  http = createServer((req, res) => {
    const name = (req.url ?? '').replace(/^\/mcp\//, '');
    const seller = Object.hasOwn(sellers, name) ? sellers[name] : undefined;
    if (seller === undefined) {
      res.writeHead(404).end();
      return;
    }
    const server = seller();
    const transport = new StreamableHTTPServerTransport({}); // no sessionIdGenerator: stateless
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => res.headersSent || res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp/`;
});

afterAll(async () => {
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

type Outcome = { returned: Awaited<ReturnType<Client['callTool']>> } | { thrown: unknown };

/** Connects a real Client to one seller and calls get_products; returns what callTool returned or threw. */
async function callSeller(name: string, options: { listTools?: boolean } = {}): Promise<Outcome> {
  const client = new Client({ name: 'buyer', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(name, base)));
  try {
    // The client learns output schemas from tools/list; without it, it validates nothing.
    if (options.listTools === true) await client.listTools();
    return { returned: await client.callTool({ name: 'get_products', arguments: { brief: 'CTV and podcast, US, Q3' } }) };
  } catch (error) {
    return { thrown: error };
  } finally {
    await client.close();
  }
}

/** What adcp-decode makes of it, as plain data for snapshots. */
function decoded(input: unknown): Record<string, unknown> {
  const result = safeDecode('get_products', input);
  if (result.success) {
    const data = result.data as { status?: unknown; products?: unknown[] };
    return { ok: true, version: result.version, status: data.status, products: data.products?.length };
  }
  const error = result.error;
  return {
    code: error.code,
    message: error.message,
    ...(error.path === undefined ? {} : { path: error.path }),
    ...(error instanceof TaskFailedError ? { adcpError: error.adcpError, recovery: error.recovery } : {}),
    ...(error instanceof SchemaMismatchError ? { issues: formatIssues(error) } : {}),
  };
}

describe('MCP over Streamable HTTP, real SDK client and server', () => {
  test('structuredContent plus a summary text: decodes, and the payload is the one sent', async () => {
    const outcome = await callSeller('structured');
    if (!('returned' in outcome)) throw outcome.thrown;
    expect(outcome.returned.content).toEqual([{ type: 'text', text: summary }]);
    expect(decoded(outcome.returned)).toMatchInlineSnapshot(`
      {
        "ok": true,
        "products": 3,
        "status": "completed",
        "version": "3.1.19",
      }
    `);
    const data = decode('get_products', outcome.returned);
    if (data.status === 'working' || data.status === 'submitted' || data.status === 'input-required')
      throw new Error('expected the final response');
    expect(data.products?.map((p) => p.product_id)).toEqual(['ctv-prime-time-us', 'news-display-ros', 'podcast-midroll-tech']);
  });

  test('JSON in text only (older sellers): decodes from content[0].text', async () => {
    const outcome = await callSeller('text-only');
    if (!('returned' in outcome)) throw outcome.thrown;
    expect(outcome.returned.structuredContent).toBeUndefined();
    expect(decoded(outcome.returned)).toMatchInlineSnapshot(`
      {
        "ok": true,
        "products": 3,
        "status": "completed",
        "version": "3.1.19",
      }
    `);
  });

  test('isError with adcp_error in structuredContent and text: TASK_FAILED with the seller error', async () => {
    const outcome = await callSeller('adcp-error');
    if (!('returned' in outcome)) throw outcome.thrown;
    expect(outcome.returned.isError).toBe(true);
    expect(decoded(outcome.returned)).toMatchInlineSnapshot(`
      {
        "adcpError": {
          "code": "RATE_LIMITED",
          "message": "Too many requests for this account.",
          "recovery": "transient",
          "retry_after": 5,
        },
        "code": "TASK_FAILED",
        "message": "get_products failed: the seller answered with an AdCP error with error code "RATE_LIMITED" (transient, retry after 5 s)",
        "recovery": {
          "recovery": "transient",
          "retryAfterSeconds": 5,
        },
      }
    `);
  });

  test('McpError(-32029) thrown by a low-level tools/call handler: callTool rejects with McpError, which decodes', async () => {
    const outcome = await callSeller('jsonrpc-error');
    if (!('thrown' in outcome)) throw new Error('expected callTool to throw');
    expect(outcome.thrown).toBeInstanceOf(McpError);
    expect(outcome.thrown).toMatchObject({ code: -32029, data: { adcp_error: adcpError } });
    expect(decoded(outcome.thrown)).toMatchInlineSnapshot(`
      {
        "adcpError": {
          "code": "RATE_LIMITED",
          "message": "Too many requests for this account.",
          "recovery": "transient",
          "retry_after": 5,
        },
        "code": "TASK_FAILED",
        "message": "get_products failed: the seller answered with an AdCP error with error code "RATE_LIMITED" (transient, retry after 5 s)",
        "recovery": {
          "recovery": "transient",
          "retryAfterSeconds": 5,
        },
      }
    `);
  });

  test('McpError(-32029) thrown inside an McpServer tool: the SDK flattens it to isError text and drops data.adcp_error', async () => {
    const outcome = await callSeller('mcpserver-throws');
    if (!('returned' in outcome)) throw outcome.thrown;
    expect(outcome.returned).toMatchInlineSnapshot(`
      {
        "content": [
          {
            "text": "MCP error -32029: Rate limit exceeded",
            "type": "text",
          },
        ],
        "isError": true,
      }
    `);
    expect(decoded(outcome.returned)).toMatchInlineSnapshot(`
      {
        "adcpError": undefined,
        "code": "TASK_FAILED",
        "message": "get_products failed: the seller set isError with no adcp_error (transient)",
        "recovery": {
          "recovery": "transient",
        },
      }
    `);
  });

  test('an invalid payload: SCHEMA_MISMATCH with every issue and its JSON Pointer', async () => {
    const outcome = await callSeller('invalid');
    if (!('returned' in outcome)) throw outcome.thrown;
    expect(decoded(outcome.returned)).toMatchInlineSnapshot(`
      {
        "code": "SCHEMA_MISMATCH",
        "issues": "✖ must be object
        → at /products/0/format_ids/0
      ✖ must have required property 'pricing_options'
        → at /products/1
      ✖ must be equal to one of the allowed values
        → at /products/2/delivery_type",
        "message": "get_products response does not match the AdCP 3.1.19 schema (3 issues); first: /products/0/format_ids/0 must be object",
      }
    `);
  });

  test('an oversized text (over 4 MiB): the SDK client accepts it, adcp-decode refuses it unparsed', async () => {
    const outcome = await callSeller('oversized');
    if (!('returned' in outcome)) throw outcome.thrown;
    const [item] = outcome.returned.content as Array<{ type: string; text: string }>;
    expect(item?.text.length).toBeGreaterThan(4 * 1024 * 1024);
    expect(decoded(outcome.returned)).toMatchInlineSnapshot(`
      {
        "code": "TOO_LARGE",
        "message": "content[0].text is at least 5353969 UTF-8 bytes; expected at most 4194304 (maxBytes)",
        "path": "/content/0/text",
      }
    `);
  });

  describe('tools with an outputSchema: the SDK client validates structuredContent first', () => {
    test('a payload that satisfies the loose outputSchema but not AdCP: the client passes it, adcp-decode rejects it', async () => {
      const outcome = await callSeller('output-schema-passes', { listTools: true });
      if (!('returned' in outcome)) throw outcome.thrown;
      expect(decoded(outcome.returned)).toMatchObject({ code: 'SCHEMA_MISMATCH' });
    });

    test('a payload that fails the outputSchema: callTool throws McpError(-32602) from the client itself', async () => {
      const outcome = await callSeller('output-schema-fails', { listTools: true });
      if (!('thrown' in outcome)) throw new Error('expected callTool to throw');
      expect(outcome.thrown).toBeInstanceOf(McpError);
      expect((outcome.thrown as McpError).code).toBe(-32602);
      // adcp-decode cannot tell a client-side McpError from a seller's JSON-RPC error: both are TASK_FAILED.
      expect(decoded(outcome.thrown)).toMatchInlineSnapshot(`
        {
          "adcpError": undefined,
          "code": "TASK_FAILED",
          "message": "get_products failed: the seller answered with JSON-RPC error -32602 with no adcp_error (transient)",
          "recovery": {
            "recovery": "transient",
          },
        }
      `);
    });

    test('the same payload without tools/list first: the client validates nothing and adcp-decode catches it', async () => {
      const outcome = await callSeller('output-schema-fails');
      if (!('returned' in outcome)) throw outcome.thrown;
      expect(decoded(outcome.returned)).toMatchInlineSnapshot(`
        {
          "code": "SCHEMA_MISMATCH",
          "issues": "✖ must be array
          → at /products",
          "message": "get_products response does not match the AdCP 3.1.19 schema (1 issue); first: /products must be array",
        }
      `);
    });
  });
});
