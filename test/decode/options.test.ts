/**
 * Options and bounds: createDecoder defaults and per-call overrides, safeDecode never throwing
 * (whatever the input or the options), the text size bound in UTF-8 bytes at its exact boundary
 * (checked before parsing, never truncating), and the depth and node-count bounds checked before
 * validation.
 */
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createDecoder, decode, safeDecode } from '../../src/decode/decode.js';
import { DecodeError, LimitError } from '../../src/errors/errors.js';
import { a2a03, a2a10, jsonRpc, mcp, mcpError } from '../fixtures/envelopes.js';
import { revokedProxy, throwingProxy } from '../fixtures/hostile-values.js';
import { fixtures, payload } from '../fixtures/payloads.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { caughtAs } from '../helpers.js';

function limit(fn: () => unknown): LimitError {
  return caughtAs(LimitError, fn);
}

/** Every value in a JSON tree, the root included (what maxNodes counts). */
function nodes(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce((n: number, v) => n + nodes(v), 0);
  if (typeof value === 'object' && value !== null) return 1 + Object.values(value).reduce((n: number, v) => n + nodes(v), 0);
  return 1;
}

/** Nesting of objects and arrays, the root object at 1 (what maxDepth counts). */
function depth(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depth));
}

describe('createDecoder', () => {
  test('binds defaults; per-call options win', () => {
    const text = JSON.stringify(payload('3.1/get_products.valid'));
    const strict = createDecoder({ maxBytes: 1024 });
    expect(strict.safeDecode('get_products', mcp.text(text))).toMatchObject({ success: false, error: { code: 'TOO_LARGE', limit: 1024 } });
    expect(strict.safeDecode('get_products', mcp.text(text), { maxBytes: 64 * 1024 })).toMatchObject({ success: true, version: V3_1 });
    // A call's option replaces only that option: the bound ones stay.
    const bare = createDecoder({ transport: 'payload', version: '3.0' });
    expect(bare.decode('get_media_buys', payload('3.0/get_media_buys.valid'), { maxDepth: 10 })).toMatchObject({
      media_buys: expect.any(Array),
    });
    expect(bare.safeDecode('get_media_buys', payload('3.0/get_media_buys.valid'), { maxDepth: 2 })).toMatchObject({
      success: false,
      error: { code: 'TOO_DEEP' },
    });
  });

  test("a per-call undefined keeps the decoder's option (a bound is never lifted by accident)", () => {
    const text = JSON.stringify(payload('3.1/get_products.valid'));
    const strict = createDecoder({ maxBytes: 1024, version: '3.1' });
    const config: { maxBytes?: number } = {};
    expect(strict.safeDecode('get_products', mcp.text(text), { maxBytes: config.maxBytes })).toMatchObject({
      success: false,
      error: { code: 'TOO_LARGE', limit: 1024 },
    });
    expect(strict.safeDecode('get_products', mcp.text(text), { maxBytes: 8192, version: undefined })).toMatchObject({
      success: true,
      version: V3_1,
    });
  });

  test('createDecoder refuses options that are not an object', () => {
    for (const options of ['strict', null, ['3.1']]) {
      expect(() => createDecoder(options as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    }
  });

  test('a bad default fails at creation with INVALID_OPTION', () => {
    expect(() => createDecoder({ maxNodes: -5 })).toThrow(DecodeError);
    try {
      createDecoder({ transport: 'grpc' as 'mcp' });
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_OPTION' });
      expect((error as Error).message).toMatchInlineSnapshot(
        `"createDecoder: option transport must be 'auto', 'mcp', 'a2a' or 'payload'; got "grpc""`,
      );
    }
  });

  test("a decoder's safeDecode never throws, even for a bad per-call option", () => {
    const seller = createDecoder({ version: '3.1' });
    expect(
      seller.safeDecode('get_products', mcp.structured(payload('3.1/get_products.valid')), { maxBytes: '4MB' } as never),
    ).toMatchObject({
      success: false,
      error: { code: 'INVALID_OPTION' },
    });
    expect(() => seller.decode('get_products', {}, { unknownRecovery: 'sometimes' } as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION' }),
    );
  });

  test('transport forces where the payload is read from', () => {
    const body = payload('3.1/list_accounts.valid');
    // Forced MCP on an A2A task: no CallToolResult fields, no payload.
    expect(safeDecode('list_accounts', a2a03.task('completed', body), { transport: 'mcp' })).toMatchObject({
      success: false,
      error: { code: 'NO_PAYLOAD' },
    });
    // Forced A2A on an MCP result: no task state.
    expect(safeDecode('list_accounts', mcp.structured(body), { transport: 'a2a' })).toMatchObject({
      success: false,
      error: { code: 'NO_PAYLOAD' },
    });
    expect(safeDecode('list_accounts', body, { transport: 'payload' })).toMatchObject({ success: true, data: body });
    // A payload that happens to look like an envelope is still a payload when told so.
    const odd = { ...body, structuredContent: { note: 'seller extension' } };
    expect(safeDecode('list_accounts', odd, { transport: 'payload' })).toMatchObject({ success: true, data: odd });
  });
});

describe('safeDecode never throws', () => {
  const envelopes = fixtures.flatMap((f) => [
    mcp.structured(f.payload),
    mcp.text(f.text),
    a2a03.task('completed', f.payload),
    a2a10.statusUpdate('TASK_STATE_WORKING', f.payload),
  ]);

  test('for any JSON-like input and any options', () => {
    const options = fc.record(
      {
        version: fc.oneof(fc.constantFrom('auto', '3.1', '3.0', V3_1, V3_0, '9.9'), fc.anything()),
        transport: fc.oneof(fc.constantFrom('auto', 'mcp', 'a2a', 'payload'), fc.anything()),
        maxBytes: fc.oneof(fc.nat(), fc.double(), fc.anything()),
        maxDepth: fc.oneof(fc.nat({ max: 100 }), fc.anything()),
        maxNodes: fc.oneof(fc.nat({ max: 10_000 }), fc.anything()),
        unknownRecovery: fc.oneof(fc.constantFrom('manifest', 'transient', 'terminal'), fc.anything()),
      },
      { requiredKeys: [] },
    );
    const input = fc.oneof(fc.anything(), fc.constantFrom(...envelopes), fc.jsonValue());
    const task = fc.oneof(fc.constantFrom('get_products', 'create_media_buy', 'list_accounts', 'nope'), fc.anything());
    fc.assert(
      fc.property(task, input, fc.oneof(options, fc.anything()), (t, i, o) => {
        const result = safeDecode(t as 'get_products', i, o as never);
        if (!result.success) expect(result.error).toBeInstanceOf(DecodeError);
      }),
      { numRuns: 400 },
    );
  });

  test('for inputs that throw when read', () => {
    const hostile = [
      throwingProxy({ traps: ['ownKeys', 'get', 'getOwnPropertyDescriptor'], thrown: () => new Error('trap') }),
      revokedProxy(),
      Object.defineProperty({ content: [] }, 'isError', {
        enumerable: true,
        get: () => {
          throw new TypeError('nope');
        },
      }),
      {
        structuredContent: Object.defineProperty({}, 'products', {
          enumerable: true,
          get: () => {
            throw new Error('lazy');
          },
        }),
      },
      mcpError(
        -32029,
        'Rate limit exceeded',
        Object.defineProperty({}, 'adcp_error', {
          enumerable: true,
          get: () => {
            throw new Error('x');
          },
        }),
      ),
    ];
    for (const input of hostile) {
      const result = safeDecode('get_products', input);
      expect(result.success).toBe(false);
      if (!result.success) expect(result.error).toBeInstanceOf(DecodeError);
    }
  });

  test.each([
    ['null', null],
    ['a string', 'auto'],
    ['a number', 42],
    ['an array', []],
    ['a negative maxBytes', { maxBytes: -1 }],
    ['a NaN maxDepth', { maxDepth: Number.NaN }],
    ['a fractional maxNodes', { maxNodes: 1.5 }],
    ['a version object', { version: {} }],
    ['a null transport', { transport: null }],
    ['a null version', { version: null }],
    ['a null unknownRecovery', { unknownRecovery: null }],
    [
      'an option getter that throws',
      Object.defineProperty({}, 'maxBytes', {
        enumerable: true,
        get: () => {
          throw new Error('config not loaded');
        },
      }),
    ],
  ])('INVALID_OPTION for %s', (_name, options) => {
    const result = safeDecode('get_products', jsonRpc.success(mcp.structured(payload('3.1/get_products.valid'))), options as never);
    expect(result).toMatchObject({ success: false, error: { code: 'INVALID_OPTION' } });
  });
});

describe('TOO_LARGE: the text bound in UTF-8 bytes, before parsing', () => {
  // 'é' is 2 bytes, '€' 3, '🏔' 4 (a surrogate pair): the bound counts bytes, not UTF-16 units.
  const text = JSON.stringify({ ...payload('3.1/list_accounts.valid'), message: 'Comptes: été, 12 € de frais 🏔' });
  const bytes = Buffer.byteLength(text, 'utf8');

  test('the text is longer in bytes than in UTF-16 units', () => {
    expect(bytes).toBeGreaterThan(text.length);
  });

  test('exactly maxBytes bytes decodes', () => {
    expect(safeDecode('list_accounts', mcp.text(text), { maxBytes: bytes })).toMatchObject({ success: true });
  });

  test('one byte over is TOO_LARGE with the exact size', () => {
    const e = limit(() => decode('list_accounts', mcp.text(text), { maxBytes: bytes - 1 }));
    expect(e).toMatchObject({
      code: 'TOO_LARGE',
      unit: 'bytes',
      limit: bytes - 1,
      actual: bytes,
      path: '/content/0/text',
      task: 'list_accounts',
    });
  });

  test('a limit between the UTF-16 length and the byte size still counts bytes', () => {
    const e = limit(() => decode('list_accounts', mcp.text(text), { maxBytes: text.length }));
    expect(e.actual).toBe(bytes);
  });

  test('an oversized text item is never parsed, truncated, or skipped for a later item that holds a payload', () => {
    const small = payload('3.1/list_accounts.valid');
    const input = {
      content: [
        { type: 'text', text },
        { type: 'text', text: JSON.stringify(small) },
      ],
    };
    expect(safeDecode('list_accounts', input, { maxBytes: bytes - 1 })).toMatchObject({
      success: false,
      error: { code: 'TOO_LARGE', actual: bytes },
    });
    const alone = {
      content: [
        { type: 'text', text },
        { type: 'text', text: 'Two accounts found.' },
      ],
    };
    expect(safeDecode('list_accounts', alone, { maxBytes: bytes - 1 })).toMatchObject({
      success: false,
      error: { code: 'TOO_LARGE', actual: bytes },
    });
  });

  test('the 4 MiB default: exactly 4,194,304 bytes passes, one more fails', () => {
    const base = JSON.stringify({ ...payload('3.1/list_accounts.valid'), message: '' });
    const pad = 4 * 1024 * 1024 - Buffer.byteLength(base);
    const exact = base.replace('"message":""', `"message":"${'x'.repeat(pad)}"`);
    expect(Buffer.byteLength(exact)).toBe(4 * 1024 * 1024);
    expect(safeDecode('list_accounts', mcp.text(exact))).toMatchObject({ success: true });
    // One more byte, in a text no longer in UTF-16 units than the limit: the exact count decides.
    const oneMore = exact.replace('"message":"x', '"message":"é');
    expect(oneMore.length).toBe(4 * 1024 * 1024);
    expect(limit(() => decode('list_accounts', mcp.text(oneMore)))).toMatchObject({ limit: 4 * 1024 * 1024, actual: 4 * 1024 * 1024 + 1 });
    // A text longer in UTF-16 units than the limit is refused without counting: actual is a lower bound.
    const longer = limit(() => decode('list_accounts', mcp.text(`${exact} `)));
    expect(longer).toMatchObject({ limit: 4 * 1024 * 1024, actual: 4 * 1024 * 1024 + 1 });
    expect(longer.message).toMatchInlineSnapshot(`"content[0].text is at least 4194305 UTF-8 bytes; expected at most 4194304 (maxBytes)"`);
  });

  test('Infinity disables the bound; 0 is no bound but a wrong option (the byte-bound rule)', () => {
    expect(safeDecode('list_accounts', mcp.text(text), { maxBytes: Infinity })).toMatchObject({ success: true });
    expect(safeDecode('list_accounts', mcp.text(text), { maxBytes: 0 })).toMatchObject({
      success: false,
      error: { code: 'INVALID_OPTION' },
    });
  });
});

describe('TOO_DEEP and TOO_MANY_VALUES: depth and node count, before validation', () => {
  const body = payload('3.1/get_media_buy_delivery.valid');
  const d = depth(body);
  const n = nodes(body);

  test('exactly maxDepth levels decodes; one less is TOO_DEEP', () => {
    expect(d).toBe(5);
    expect(safeDecode('get_media_buy_delivery', mcp.structured(body), { maxDepth: d })).toMatchObject({ success: true });
    const e = limit(() => decode('get_media_buy_delivery', mcp.structured(body), { maxDepth: d - 1 }));
    expect(e).toMatchObject({ code: 'TOO_DEEP', unit: 'depth', limit: d - 1, actual: d, path: '/media_buy_deliveries/0/by_package/0' });
  });

  test('exactly maxNodes values decodes; one less is TOO_MANY_VALUES', () => {
    expect(safeDecode('get_media_buy_delivery', mcp.structured(body), { maxNodes: n })).toMatchObject({ success: true });
    const e = limit(() => decode('get_media_buy_delivery', mcp.structured(body), { maxNodes: n - 1 }));
    expect(e).toMatchObject({ code: 'TOO_MANY_VALUES', unit: 'nodes', limit: n - 1, actual: n });
  });

  test('the same bounds hold for text, A2A data and bare payloads', () => {
    for (const input of [mcp.text(body), a2a03.task('completed', body)]) {
      expect(safeDecode('get_media_buy_delivery', input, { maxDepth: d - 1 })).toMatchObject({
        success: false,
        error: { code: 'TOO_DEEP', unit: 'depth' },
      });
      expect(safeDecode('get_media_buy_delivery', input, { maxNodes: n - 1 })).toMatchObject({
        success: false,
        error: { code: 'TOO_MANY_VALUES', unit: 'nodes' },
      });
    }
    expect(safeDecode('get_media_buy_delivery', body, { transport: 'payload', maxNodes: n - 1 })).toMatchObject({
      success: false,
      error: { code: 'TOO_MANY_VALUES' },
    });
  });

  test('a 10,000-level structuredContent is refused without a stack overflow', () => {
    let deep: Record<string, unknown> = {};
    const root = { status: 'completed', media_buys: [], ext: deep };
    for (let i = 0; i < 10_000; i++) deep = (deep['x'] = {}) as Record<string, unknown>;
    expect(safeDecode('get_media_buys', mcp.structured(root))).toMatchObject({
      success: false,
      error: { code: 'TOO_DEEP', limit: 64, actual: 65 },
    });
  });
});
