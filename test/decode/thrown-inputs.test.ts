/**
 * What a client throws, handed to decode(): a seller's JSON-RPC error is decoded whichever SDK
 * built it (MCP's McpError, @a2a-js/sdk's JsonRpcTransportError: code in `envelopeCode`), and
 * everything else a client throws is no seller's answer: the caller's abort (a DOMException, whose
 * `code` 20 or 23 is no JSON-RPC code), the MCP SDK's wrap of it, an HTTP refusal (a status, not
 * a JSON-RPC code), a failed connection. INVALID_INPUT, the caller's; never MALFORMED_ENVELOPE or
 * TASK_FAILED, the seller's.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { decode, safeDecode } from '../../src/decode/decode.js';
import { TaskFailedError } from '../../src/errors/errors.js';

/** @a2a-js/sdk 1.x's JsonRpcTransportError, by its shape (the SDK's class is not exported from its client entry). */
class JsonRpcTransportError extends Error {
  readonly transport = 'jsonrpc';
  readonly envelopeCode: number;
  readonly data: unknown;
  constructor(code: number, message: string, data: unknown) {
    super(message);
    this.name = 'JsonRpcTransportError';
    this.envelopeCode = code;
    this.data = data;
  }
}

/** The MCP SDK's StreamableHTTPError, by its shape: the HTTP status in `code`. */
class StreamableHTTPError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(`Streamable HTTP error: ${message}`);
  }
}

const adcpError = { code: 'RATE_LIMITED', recovery: 'transient', retry_after: 5 };

describe("no client's throw is decoded as a seller's answer", () => {
  const aborts: Array<[string, unknown]> = [
    ['controller.abort()', AbortSignal.abort().reason],
    ['AbortSignal.timeout()', new DOMException('The operation timed out.', 'TimeoutError')],
    ["the MCP SDK's wrap of an abort", new McpError(-32001, 'AbortError: This operation was aborted')],
  ];
  test.each(aborts)("%s: INVALID_INPUT naming the caller's abort", (_, thrown) => {
    const result = safeDecode('get_products', thrown);
    if (result.success) throw new Error('decoded an abort');
    expect(result.error).toMatchObject({ code: 'INVALID_INPUT', task: 'get_products', cause: thrown });
    expect(result.error.message).toContain("the caller's own abort");
  });

  test.each([
    ['a 401', new StreamableHTTPError(401, 'Error POSTing to endpoint: unauthorized')],
    ['an A2A HTTP error', new Error('HTTP error for SendMessage! Status: 503 Service Unavailable. Response: busy')],
  ])('an HTTP refusal (%s): INVALID_INPUT, never "JSON-RPC error 401 (transient)"', (_, thrown) => {
    expect(() => decode('get_products', thrown)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining('HTTP refusal') }),
    );
  });

  test('a failed connection, any other Error without a JSON-RPC code: INVALID_INPUT', () => {
    const failed = new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) });
    for (const thrown of [failed, new RangeError('a bug')])
      expect(() => decode('get_products', thrown)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});

describe("a seller's JSON-RPC error is decoded whichever SDK threw it", () => {
  test.each([
    ['McpError', new McpError(-32029, 'Rate limit exceeded', { adcp_error: adcpError })],
    ['JsonRpcTransportError', new JsonRpcTransportError(-32029, 'Rate limit exceeded', { adcp_error: adcpError })],
  ])('%s: TaskFailedError with the adcp_error and its recovery', (_, thrown) => {
    const result = safeDecode('get_products', thrown);
    if (result.success) throw new Error('expected a failure');
    expect(result.error).toBeInstanceOf(TaskFailedError);
    expect(result.error).toMatchObject({
      adcpError,
      recovery: { recovery: 'transient', retryAfterSeconds: 5 },
      sellerText: 'Rate limit exceeded',
    });
  });
});
