/**
 * Blame: decode() never blames the seller for a fault of ours or the caller's. A DecodeError
 * handed in (boundedFetch's LimitError via withFetchBounds) comes back unchanged; a Promise (a
 * forgotten await) is INVALID_INPUT; the MCP SDK client's own request timeout is TIMEOUT, while a
 * seller's JSON-RPC error -32001 stays TASK_FAILED; an exception of our own code is INTERNAL (a
 * validator module that cannot be loaded: test/validate/loading.test.ts); an exception from the caller's getter or Proxy while
 * we read it stays MALFORMED_ENVELOPE.
 *
 * One defect is planted for this file only: the get_signals validator throws a TypeError (our
 * own bug).
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { decode, safeDecode } from '../../src/decode/decode.js';
import { DecodeError, LimitError } from '../../src/errors/errors.js';
import { boundedFetch, withFetchBounds } from '../../src/fetch/bounded-fetch.js';
import { a2a10, jsonRpc, mcp } from '../fixtures/envelopes.js';
import { callSeller, lowLevelSeller, mcpSeller, type ServedSellers, serveSellers } from '../fixtures/mcp-sellers.js';
import { payload } from '../fixtures/payloads.js';
import { V3_0 } from '../fixtures/versions.js';
import { failureOf } from '../helpers.js';

vi.mock('../../src/validate/validators.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/validate/validators.js')>();
  return {
    ...actual,
    // A defect of our own: the get_signals validator throws whatever it is given.
    fastValidator: (...args: Parameters<typeof actual.fastValidator>) =>
      args[1] === 'get_signals'
        ? () => {
            throw new TypeError("Cannot read properties of undefined (reading 'length')");
          }
        : actual.fastValidator(...args),
  };
});

const failure = failureOf;

describe('a DecodeError handed to decode() is rethrown as it is: the same object, never written to', () => {
  test('a LimitError from withFetchBounds around boundedFetch', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x'.repeat(4096) }] } });
    const fetch = boundedFetch({ fetch: async () => new Response(big, { headers: { 'content-type': 'application/json' } }) });
    let rejected: unknown;
    try {
      await withFetchBounds({ maxBytes: 1024 }, async () => (await fetch('http://127.0.0.1:9/mcp', { method: 'POST' })).text());
    } catch (error) {
      rejected = error;
    }
    expect(rejected).toBeInstanceOf(LimitError);
    expect((rejected as LimitError).task).toBeUndefined();
    const e = failure('get_products', rejected);
    expect(e).toBe(rejected);
    expect(e).toMatchObject({ code: 'TOO_LARGE', task: undefined, unit: 'bytes', limit: 1024 });
    expect(() => decode('get_products', rejected)).toThrow(rejected as Error);
  });

  test.each([
    ['a TIMEOUT LimitError', () => new LimitError('TIMEOUT', 'no response within 10 ms', { unit: 'ms', limit: 10, actual: 11 })],
    ['an UNSUPPORTED_ENCODING DecodeError', () => new DecodeError('UNSUPPORTED_ENCODING', 'response is gzip-coded')],
    ['a SCHEMA_MISMATCH of an earlier decode', () => failure('list_accounts', mcp.structured({ accounts: 'none' }))],
  ])('%s', (_name, make) => {
    const error = make();
    const before = Object.getOwnPropertyDescriptors(error);
    expect(failure('get_media_buys', error)).toBe(error);
    // Not a field written: the task it was built without stays undefined, the one it was built with stays.
    expect(Object.getOwnPropertyDescriptors(error)).toEqual(before);
  });

  test('a frozen DecodeError is rethrown as it is too (nothing is written to it)', () => {
    const error = Object.freeze(new LimitError('TIMEOUT', 'no response within 10 ms', { unit: 'ms', limit: 10, actual: 11 }));
    expect(failure('get_products', error)).toBe(error);
    expect(safeDecode('get_products', error, { version: '3.0' })).toEqual({ success: false, error });
  });

  test('a task already set is kept, as is every other field', () => {
    const error = new DecodeError('UNSUPPORTED_ENCODING', 'response is br-coded', {
      task: 'create_media_buy',
      version: V3_0,
      path: '/x',
    });
    expect(failure('get_products', error)).toMatchObject({
      task: 'create_media_buy',
      version: V3_0,
      path: '/x',
      message: 'response is br-coded',
    });
  });
});

describe('a Promise (a forgotten await) is INVALID_INPUT, whatever the transport', () => {
  const settled = Promise.resolve(mcp.structured(payload('3.1/list_accounts.valid')));
  const rejected = Promise.reject(new Error('socket hang up'));
  rejected.catch(() => undefined);
  const thenable = { then: (resolve: (value: unknown) => void) => resolve(mcp.structured(payload('3.1/list_accounts.valid'))) };
  const cases = [
    ['a resolved Promise', settled, 'a Promise'],
    ['a rejected Promise', rejected, 'a Promise'],
    ["an async function's result", (async () => mcp.structured(payload('3.1/list_accounts.valid')))(), 'a Promise'],
    ['a thenable', thenable, 'a thenable'],
  ] as const;
  test.each(
    cases.flatMap(([name, input, what]) =>
      (['auto', 'mcp', 'a2a', 'payload'] as const).map((transport) => [name, transport, input, what] as const),
    ),
  )('%s, transport %s', (_name, transport, input, what) => {
    const e = failure('list_accounts', input, { transport });
    expect(e).toMatchObject({ code: 'INVALID_INPUT', task: 'list_accounts' });
    expect(e.message).toBe(
      `expected the seller's answer (an MCP CallToolResult, a JSON-RPC error or an A2A task); got ${what}: did you forget await?`,
    );
  });
});

describe("the MCP SDK client's own timeout is TIMEOUT; a seller's JSON-RPC error -32001 is TASK_FAILED", () => {
  test.each([
    [
      'Request timed out, as the SDK raises it',
      () => McpError.fromError(-32001, 'Request timed out', { timeout: 250 }),
      { code: 'TIMEOUT', unit: 'ms', limit: 250, actual: 250 },
    ],
    [
      'Maximum total timeout exceeded, as the SDK raises it',
      () => McpError.fromError(-32001, 'Maximum total timeout exceeded', { maxTotalTimeout: 1000, totalElapsed: 1003 }),
      { code: 'TIMEOUT', unit: 'ms', limit: 1000, actual: 1003 },
    ],
    ['a seller -32001 with its own message', () => new McpError(-32001, 'Upstream ad server timed out'), { code: 'TASK_FAILED' }],
    [
      'a seller -32001 with more data than the SDK attaches',
      () => new McpError(-32001, 'Request timed out', { timeout: 250, adcp_error: { code: 'SERVICE_UNAVAILABLE' } }),
      { code: 'TASK_FAILED', adcpError: { code: 'SERVICE_UNAVAILABLE' } },
    ],
    ['a seller -32001 without data', () => new McpError(-32001, 'Request timed out'), { code: 'TASK_FAILED' }],
    ['a timeout that is not a number of ms', () => new McpError(-32001, 'Request timed out', { timeout: 'soon' }), { code: 'TASK_FAILED' }],
    [
      'a raw JSON-RPC response (always the seller’s), even in the SDK’s words',
      () => jsonRpc.error(-32001, 'Request timed out', { timeout: 250 }),
      { code: 'TASK_FAILED' },
    ],
    [
      'a plain object (not an Error) in the SDK’s words',
      () => ({ code: -32001, message: 'MCP error -32001: Request timed out', data: { timeout: 250 } }),
      { code: 'TASK_FAILED' },
    ],
    ['another code in the SDK’s words', () => McpError.fromError(-32000, 'Request timed out', { timeout: 250 }), { code: 'TASK_FAILED' }],
  ])('%s', (_name, make, expected) => {
    expect(failure('get_products', make())).toMatchObject({ task: 'get_products', ...expected });
  });

  test('the message says whose timeout it was', () => {
    const e = failure('get_products', McpError.fromError(-32001, 'Request timed out', { timeout: 250 }));
    expect(e).toBeInstanceOf(LimitError);
    expect(e.message).toMatchInlineSnapshot(
      `"get_products got no answer within 250 ms: the MCP client's own request timeout (McpError -32001 raised by the SDK, not sent by the seller)"`,
    );
  });

  describe('over Streamable HTTP on 127.0.0.1, a real SDK client and servers', () => {
    let served: ServedSellers;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });

    beforeAll(async () => {
      served = await serveSellers({
        // A slow seller: answers only when the test ends.
        slow: mcpSeller(async () => {
          await held;
          return { content: [{ type: 'text', text: 'late' }] };
        }),
        // A seller that answers with its own JSON-RPC error -32001.
        'seller-timeout': lowLevelSeller({
          call: () => {
            throw new McpError(-32001, 'Upstream ad server timed out');
          },
        }),
      });
    });

    afterAll(async () => {
      release();
      await served.close();
    });

    /** What callTool rejected with, calling one seller with the client's own request timeout. */
    async function call(name: string, timeout: number): Promise<unknown> {
      const outcome = await callSeller(served.base, name, { timeout });
      return 'thrown' in outcome ? outcome.thrown : expect.fail('expected callTool to reject');
    }

    test("the client's request timeout against a slow McpServer: TIMEOUT, the limit the call set", async () => {
      const thrown = await call('slow', 200);
      expect(thrown).toBeInstanceOf(McpError);
      expect(thrown).toMatchObject({ code: -32001, data: { timeout: 200 } });
      const e = failure('get_products', thrown);
      expect(e).toBeInstanceOf(LimitError);
      expect(e).toMatchObject({ code: 'TIMEOUT', task: 'get_products', unit: 'ms', limit: 200, actual: 200, cause: thrown });
    });

    test("the seller's own JSON-RPC error -32001: TASK_FAILED", async () => {
      const thrown = await call('seller-timeout', 10_000);
      expect(thrown).toBeInstanceOf(McpError);
      expect(thrown).toMatchObject({ code: -32001 });
      const e = failure('get_products', thrown);
      expect(e).toMatchObject({ code: 'TASK_FAILED', task: 'get_products' });
      expect(e.message).toMatchInlineSnapshot(
        `"get_products failed: the seller answered with JSON-RPC error -32001 with no adcp_error (transient); the seller said "Upstream ad server timed out""`,
      );
    });
  });
});

describe('INTERNAL: our own faults, never the seller’s', () => {
  const signals = payload('3.1/get_signals.valid');
  test.each([
    ['structuredContent', () => mcp.structured(signals)],
    ['a text item (parsed by us)', () => mcp.text(signals)],
    ['an A2A task', () => a2a10.taskEnvelope('TASK_STATE_COMPLETED', signals)],
    ['a bare payload', () => signals],
    [
      'an envelope holding Date and Map (exotic, but without accessors)',
      () => ({ ...mcp.structured(signals), _meta: { at: new Date(0), seen: new Map() } }),
    ],
  ])('an exception of our own code, reading %s: INTERNAL, with what was thrown as cause', (name, make) => {
    const e = failure('get_signals', make(), name === 'a bare payload' ? { transport: 'payload' } : undefined);
    expect(e).toMatchObject({ code: 'INTERNAL', task: 'get_signals' });
    expect(e.cause).toBeInstanceOf(TypeError);
    expect(e.message).toBe(
      "adcp-decode failed on its own: TypeError thrown while decoding get_signals; a defect in adcp-decode, not in the seller's answer (please report it)",
    );
  });
});

describe("an exception from the caller's input while we read it stays MALFORMED_ENVELOPE", () => {
  /** A payload whose `accounts` reads fine `reads` times, then throws (past the bounds walk, inside validation). */
  function flaky(reads: number): Record<string, unknown> {
    const body = payload('3.1/list_accounts.valid');
    const accounts = body['accounts'];
    let left = reads;
    return Object.defineProperty(body, 'accounts', {
      enumerable: true,
      get() {
        if (left-- <= 0) throw new RangeError('connection reset');
        return accounts;
      },
    });
  }
  /** The same through a Proxy whose get trap turns hostile after `reads` reads of `accounts`. */
  function flakyProxy(reads: number): object {
    let left = reads;
    return new Proxy(payload('3.1/list_accounts.valid'), {
      get(target, key, receiver) {
        if (key === 'accounts' && left-- <= 0) throw new RangeError('connection reset');
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
  }

  test.each([
    ['a getter that throws', () => mcp.structured(flaky(0))],
    ['a getter that throws inside A2A data', () => a2a10.taskEnvelope('TASK_STATE_COMPLETED', flaky(0))],
    ['a Proxy that throws', () => mcp.structured(flakyProxy(0) as Record<string, unknown>)],
  ])('%s', (_name, make) => {
    const e = failure('list_accounts', make());
    expect(e).toMatchObject({ code: 'MALFORMED_ENVELOPE', task: 'list_accounts' });
    expect(e.cause).toBeInstanceOf(RangeError);
  });

  test.each([
    ['a getter that would turn hostile on a second read', () => mcp.structured(flaky(1))],
    ['a Proxy that would turn hostile on a second read', () => mcp.structured(flakyProxy(1) as Record<string, unknown>)],
  ])('%s is read once: the data is that one read', (_name, make) => {
    expect(decode('list_accounts', make())).toEqual(payload('3.1/list_accounts.valid'));
  });
});
