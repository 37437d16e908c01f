/**
 * End to end over MCP: real sellers built with @modelcontextprotocol/sdk (`McpServer`, and the
 * low-level `Server` where `McpServer` cannot answer the way a seller must), served over Streamable
 * HTTP on 127.0.0.1, called by a real `Client`; what `callTool` returns, or throws, goes straight
 * into adcp-decode.
 *
 * Each seller (test/fixtures/mcp-sellers.ts) exposes one AdCP tool, `get_products`, answering one way.
 */
import { readFileSync } from 'node:fs';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decode, formatIssues, SchemaMismatchError, safeDecode, TaskFailedError } from '../../src/index.js';
import { callSeller, lowLevelSeller, mcpSeller, type Seller, type ServedSellers, serveSellers } from '../fixtures/mcp-sellers.js';
import { V3_1 } from '../fixtures/versions.js';

const example = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../examples/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

/** A valid AdCP 3.1 get_products payload (3 products) and the summary text sellers send with it. */
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

const looseProductsSchema = { properties: { products: { type: 'array' } }, required: ['products'] };

const sellers: Record<string, Seller> = {
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

let served: ServedSellers;

beforeAll(async () => {
  served = await serveSellers(sellers);
});

afterAll(() => served.close());

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

/** What adcp-decode makes of the valid payload, from structuredContent or from text. */
const threeProducts = { ok: true, version: V3_1, status: 'completed', products: 3 };
/** What adcp-decode makes of the seller's RATE_LIMITED error, in an isError result or a JSON-RPC error. */
const rateLimited = {
  code: 'TASK_FAILED',
  message:
    'get_products failed: the seller answered with an AdCP error with error code "RATE_LIMITED" (transient, retry after 5 s); the seller said "Too many requests for this account."',
  adcpError,
  recovery: { recovery: 'transient', retryAfterSeconds: 5 },
};

describe('MCP over Streamable HTTP, real SDK client and server', () => {
  test('structuredContent plus a summary text: decodes, and the payload is the one sent', async () => {
    const outcome = await callSeller(served.base, 'structured');
    if (!('returned' in outcome)) throw outcome.thrown;
    expect(outcome.returned.content).toEqual([{ type: 'text', text: summary }]);
    expect(decoded(outcome.returned)).toStrictEqual(threeProducts);
    const data = decode('get_products', outcome.returned);
    if (data.status === 'working' || data.status === 'submitted' || data.status === 'input-required')
      throw new Error('expected the final response');
    expect(data.products?.map((p) => p.product_id)).toEqual(['ctv-prime-time-us', 'news-display-ros', 'podcast-midroll-tech']);
  });

  test('JSON in text only (older sellers): decodes from content[0].text', async () => {
    const outcome = await callSeller(served.base, 'text-only');
    if (!('returned' in outcome)) throw outcome.thrown;
    expect(outcome.returned.structuredContent).toBeUndefined();
    expect(decoded(outcome.returned)).toStrictEqual(threeProducts);
  });

  test('isError with adcp_error in structuredContent and text: TASK_FAILED with the seller error', async () => {
    const outcome = await callSeller(served.base, 'adcp-error');
    if (!('returned' in outcome)) throw outcome.thrown;
    expect(outcome.returned.isError).toBe(true);
    expect(decoded(outcome.returned)).toStrictEqual(rateLimited);
  });

  test('McpError(-32029) thrown by a low-level tools/call handler: callTool rejects with McpError, which decodes', async () => {
    const outcome = await callSeller(served.base, 'jsonrpc-error');
    if (!('thrown' in outcome)) throw new Error('expected callTool to throw');
    expect(outcome.thrown).toBeInstanceOf(McpError);
    expect(outcome.thrown).toMatchObject({ code: -32029, data: { adcp_error: adcpError } });
    expect(decoded(outcome.thrown)).toStrictEqual(rateLimited);
  });

  test('McpError(-32029) thrown inside an McpServer tool: the SDK flattens it to isError text and drops data.adcp_error', async () => {
    const outcome = await callSeller(served.base, 'mcpserver-throws');
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
        "message": "get_products failed: the seller set isError with no adcp_error (transient); the seller said "Rate limit exceeded"",
        "recovery": {
          "recovery": "transient",
        },
      }
    `);
  });

  test('an invalid payload: SCHEMA_MISMATCH with every issue and its JSON Pointer', async () => {
    const outcome = await callSeller(served.base, 'invalid');
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
        "message": "get_products response does not match the AdCP ${V3_1} schema (3 issues); first: /products/0/format_ids/0 must be object",
      }
    `);
  });

  test('an oversized text (over 4 MiB): the SDK client accepts it, adcp-decode refuses it unparsed', async () => {
    const outcome = await callSeller(served.base, 'oversized');
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
      const outcome = await callSeller(served.base, 'output-schema-passes', { listTools: true });
      if (!('returned' in outcome)) throw outcome.thrown;
      expect(decoded(outcome.returned)).toMatchObject({ code: 'SCHEMA_MISMATCH' });
    });

    test('a payload that fails the outputSchema: callTool throws McpError(-32602) from the client itself', async () => {
      const outcome = await callSeller(served.base, 'output-schema-fails', { listTools: true });
      if (!('thrown' in outcome)) throw new Error('expected callTool to throw');
      expect(outcome.thrown).toBeInstanceOf(McpError);
      expect((outcome.thrown as McpError).code).toBe(-32602);
      // adcp-decode cannot tell a client-side McpError from a seller's JSON-RPC error: both are TASK_FAILED.
      expect(decoded(outcome.thrown)).toMatchInlineSnapshot(`
        {
          "adcpError": undefined,
          "code": "TASK_FAILED",
          "message": "get_products failed: the seller answered with JSON-RPC error -32602 with no adcp_error (transient); the seller said "Structured content does not match the tool's output schema: data/products must be array"",
          "recovery": {
            "recovery": "transient",
          },
        }
      `);
    });

    test('the same payload without tools/list first: the client validates nothing and adcp-decode catches it', async () => {
      const outcome = await callSeller(served.base, 'output-schema-fails');
      if (!('returned' in outcome)) throw outcome.thrown;
      expect(decoded(outcome.returned)).toMatchInlineSnapshot(`
        {
          "code": "SCHEMA_MISMATCH",
          "issues": "✖ must be array
          → at /products",
          "message": "get_products response does not match the AdCP ${V3_1} schema (1 issue); first: /products must be array",
        }
      `);
    });
  });
});
