/**
 * Every DecodeError code decode() raises, each from a realistic seller answer built on the
 * fixtures: the code, task, version and data fields are asserted, and the one-line message is
 * pinned by an inline snapshot. (TIMEOUT belongs to the bounded fetch, not to decode().)
 */
import { describe, expect, test } from 'vitest';
import { decode, safeDecode } from '../../src/decode/decode.js';
import { DecodeError, type DecodeErrorCode, LimitError, SchemaMismatchError, TaskFailedError } from '../../src/errors/errors.js';
import { extractMcpResponse } from '../../src/extract/mcp.js';
import { a2a03, a2a10, jsonRpc, mcp, mcpError } from '../fixtures/envelopes.js';
import { payload } from '../fixtures/payloads.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { caughtAs } from '../helpers.js';

function caught(fn: () => unknown, { short = true } = {}): DecodeError {
  const e = caughtAs(DecodeError, fn);
  // The message contract: one line, never the payload.
  expect(e.message).not.toMatch(/[\r\n\u2028\u2029]/);
  if (short) expect(e.message.length).toBeLessThan(400);
  return e;
}

/** The same error from safeDecode, which must not throw. */
function viaSafe(...args: Parameters<typeof safeDecode>): DecodeError {
  const result = safeDecode(...args);
  expect(result.success).toBe(false);
  if (result.success) return expect.fail('expected a failure');
  return result.error;
}

describe('UNKNOWN_TASK', () => {
  test('a misspelt task name', () => {
    const e = caught(() => decode('get_product' as 'get_products', mcp.structured(payload('3.1/get_products.valid'))));
    expect(e).toMatchObject({ code: 'UNKNOWN_TASK', task: 'get_product', version: undefined });
    expect(e.message).toMatchInlineSnapshot(
      `""get_product" is not an AdCP ${V3_1} or ${V3_0} task; see tasks(version) for the list (a newer release's task needs its module: npx adcp-decode generate)"`,
    );
  });

  test('a result validator is not a task', () => {
    const report = { notification_type: 'scheduled', reporting_period: {}, currency: 'USD', media_buy_deliveries: [] };
    const e = caught(() => decode('result-media_buy_delivery' as 'get_products', mcp.structured(report), { version: '3.1' }));
    expect(e).toMatchObject({ code: 'UNKNOWN_TASK', task: 'result-media_buy_delivery', version: V3_1 });
  });

  test('a 3.1-only task under an explicit 3.0', () => {
    // @ts-expect-error a 3.1-only task does not compile pinned to 3.0; a JavaScript caller gets the error
    const e = caught(() => decode('list_tasks', mcp.structured({ status: 'completed', tasks: [] }), { version: '3.0' }));
    expect(e).toMatchObject({ code: 'UNKNOWN_TASK', task: 'list_tasks', version: V3_0 });
    expect(e.message).toMatchInlineSnapshot(`""list_tasks" is not an AdCP ${V3_0} task; see tasks(version) for the list"`);
  });

  test('a 3.1-only task whose payload announces 3.0', () => {
    const e = caught(() => decode('list_tasks', mcp.structured({ adcp_version: '3.0', status: 'completed', tasks: [] })));
    expect(e).toMatchObject({ code: 'UNKNOWN_TASK', task: 'list_tasks', version: V3_0 });
    expect(e.message).toMatchInlineSnapshot(`""list_tasks" is not an AdCP ${V3_0} task (the version the payload announced)"`);
  });

  test('a task that is not a string', () => {
    const e = viaSafe(42 as unknown as 'get_products', {});
    expect(e).toMatchObject({ code: 'UNKNOWN_TASK', task: undefined, version: undefined });
    expect(e.message).toMatchInlineSnapshot(`"expected a task name string; got number"`);
  });
});

describe('UNSUPPORTED_VERSION', () => {
  test('a version option that is not bundled', () => {
    const e = caught(() => decode('get_products', mcp.structured(payload('3.1/get_products.valid')), { version: '2.5' as '3.1' }));
    expect(e).toMatchObject({ code: 'UNSUPPORTED_VERSION', task: 'get_products', version: undefined });
    expect(e.message).toMatchInlineSnapshot(
      `"requested AdCP version "2.5" is neither bundled nor defined by a generated release module; expected one of ${V3_1}, ${V3_0} or their pins (3.1, 3.0)"`,
    );
  });

  test("a payload that announces no release-precision version (a full semver): the seller's", () => {
    const body = { ...payload('3.1/get_media_buys.valid'), adcp_version: '4.0.1' };
    const e = caught(() => decode('get_media_buys', mcp.structured(body)));
    expect(e).toMatchObject({ code: 'UNSUPPORTED_VERSION', task: 'get_media_buys', version: undefined });
    expect(e.message).toMatchInlineSnapshot(
      `"the payload announces AdCP version "4.0.1", not a release-precision version ("3.1", "3.2-beta.6": no patch on the wire)"`,
    );
  });
});

describe('RELEASE_NOT_LOADED', () => {
  test("a payload that announces a release this buyer has not loaded (a future major): the configuration's", () => {
    const body = { ...payload('3.1/get_media_buys.valid'), adcp_version: '4.0' };
    const e = caught(() => decode('get_media_buys', mcp.structured(body)));
    expect(e).toMatchObject({ code: 'RELEASE_NOT_LOADED', task: 'get_media_buys', version: undefined });
    expect(e.message).toMatchInlineSnapshot(
      `"the answer announces AdCP "4.0", a release this buyer has not loaded (known: 3.1, 3.0): not the seller's fault; generate it from the spec's release tarball (npx adcp-decode generate <4.0.x tarball> --out <dir>) and import the module"`,
    );
  });
});

describe('NO_PAYLOAD', () => {
  test('an MCP result with prose only', () => {
    const e = caught(() => decode('get_products', { content: [{ type: 'text', text: 'I found 3 great CTV products for you!' }] }));
    expect(e).toMatchObject({ code: 'NO_PAYLOAD', task: 'get_products', version: undefined });
    expect(e.message).toMatchInlineSnapshot(
      `"expected an AdCP get_products payload in structuredContent or content[].text; found no structuredContent and no text item holding a JSON object"`,
    );
  });

  test('a completed A2A task with a text part only', () => {
    const task = a2a10.taskEnvelope('TASK_STATE_COMPLETED');
    const e = caught(() => decode('create_media_buy', task, { version: '3.1' }));
    expect(e).toMatchObject({ code: 'NO_PAYLOAD', task: 'create_media_buy', version: V3_1 });
    expect(e.message).toMatchInlineSnapshot(
      `"expected an A2A DataPart holding the create_media_buy payload for state completed; found none"`,
    );
  });
});

describe('INVALID_JSON', () => {
  test('a text item cut off mid-stream', () => {
    const text = JSON.stringify(payload('3.1/get_products.valid')).slice(0, 900);
    const e = caught(() => decode('get_products', mcp.text(text)));
    expect(e).toMatchObject({ code: 'INVALID_JSON', task: 'get_products', version: undefined, path: '/content/0/text' });
    expect(e.message).toMatchInlineSnapshot(
      `"expected a JSON object in content[0].text; got text that starts like JSON but does not parse (invalid JSON at position 900)"`,
    );
  });
});

describe('DUPLICATE_KEY', () => {
  test('a text item that says working, then completed: refused, not read as the last one', () => {
    const completed = JSON.stringify(payload('3.1/create_media_buy.valid'));
    const text = `{"status":"working",${completed.slice(1)}`;
    // What JSON.parse alone makes of it: a valid completed purchase.
    expect(decode('create_media_buy', mcp.structured(JSON.parse(text)))).toMatchObject({ status: 'completed' });
    const e = caught(() => decode('create_media_buy', mcp.text(text)));
    expect(e).toMatchObject({ code: 'DUPLICATE_KEY', task: 'create_media_buy', version: undefined, path: '/content/0/text/status' });
    expect(e.message).toMatchInlineSnapshot(
      `"expected each key once per object in the JSON at /content/0/text; found "status" repeated, the first at /content/0/text/status"`,
    );
    expect(viaSafe('create_media_buy', mcp.text(text), { version: '3.1' })).toMatchObject({ code: 'DUPLICATE_KEY', version: V3_1 });
  });

  test('a later text item cannot win over a refused one', () => {
    const clean = JSON.stringify(payload('3.1/get_products.valid'));
    const repeated = clean.replace('{', '{"status":"failed",');
    const input = {
      content: [
        { type: 'text', text: repeated.replace('{', '{"status":"completed",') },
        { type: 'text', text: clean },
      ],
    };
    expect(caught(() => decode('get_products', input))).toMatchObject({ code: 'DUPLICATE_KEY', path: '/content/0/text/status' });
  });

  test('the adcp_error of an isError result read from its text', () => {
    const text = '{"adcp_error":{"code":"RATE_LIMITED","recovery":"transient","recovery":"terminal"}}';
    const e = caught(() => decode('get_products', { isError: true, content: [{ type: 'text', text }] }));
    expect(e).toMatchObject({ code: 'DUPLICATE_KEY', task: 'get_products', path: '/content/0/text/adcp_error/recovery' });
  });
});

describe('UNSAFE_JSON', () => {
  test('a text item with a __proto__ key', () => {
    const text = JSON.stringify(payload('3.1/list_accounts.valid')).replace('"accounts":', '"__proto__":{"isAdmin":true},"accounts":');
    const e = caught(() => decode('list_accounts', mcp.text(text)));
    expect(e).toMatchObject({ code: 'UNSAFE_JSON', task: 'list_accounts', version: undefined, path: '/content/0/text' });
    // With a requested version, the error carries it.
    expect(caught(() => decode('list_accounts', mcp.text(text), { version: '3.0' }))).toMatchObject({
      code: 'UNSAFE_JSON',
      task: 'list_accounts',
      version: V3_0,
    });
    expect(e.message).toMatchInlineSnapshot(
      `"expected JSON without __proto__ or constructor.prototype keys at /content/0/text, but found one"`,
    );
  });

  test('structuredContent with constructor.prototype', () => {
    const body = { ...payload('3.1/get_media_buys.valid'), context: JSON.parse('{"constructor":{"prototype":{"polluted":true}}}') };
    const e = caught(() => decode('get_media_buys', mcp.structured(body)));
    expect(e).toMatchObject({ code: 'UNSAFE_JSON', task: 'get_media_buys', version: undefined, path: '/context/constructor' });
    expect(e.message).toMatchInlineSnapshot(
      `"structuredContent has a constructor.prototype key at /context/constructor; prototype-polluting keys are refused"`,
    );
  });

  test('an A2A DataPart with __proto__', () => {
    const body = JSON.parse(`{"adcp_version":"3.0","__proto__":{"polluted":true},"accounts":[]}`) as Record<string, unknown>;
    const e = caught(() => decode('list_accounts', a2a03.task('completed', body)));
    expect(e).toMatchObject({ code: 'UNSAFE_JSON', task: 'list_accounts', version: undefined, path: '/__proto__' });
    expect(e.message).toMatchInlineSnapshot(
      `"A2A artifact DataPart data has a __proto__ key at /__proto__; prototype-polluting keys are refused"`,
    );
  });
});

describe('TOO_LARGE', () => {
  test('a text item one UTF-8 byte over maxBytes (non-ASCII text)', () => {
    const text = JSON.stringify({ ...payload('3.1/get_products.valid'), message: 'Trouvé 2 produits — été 2026' });
    const bytes = Buffer.byteLength(text, 'utf8');
    const e = caught(() => decode('get_products', mcp.text(text), { maxBytes: bytes - 1 }));
    expect(e).toBeInstanceOf(LimitError);
    expect(e).toMatchObject({
      code: 'TOO_LARGE',
      task: 'get_products',
      version: undefined,
      unit: 'bytes',
      limit: bytes - 1,
      actual: bytes,
      path: '/content/0/text',
    });
    expect(e.message.replace(String(bytes - 1), '<limit>').replace(String(bytes), '<bytes>')).toMatchInlineSnapshot(
      `"content[0].text is <bytes> UTF-8 bytes; expected at most <limit> (maxBytes)"`,
    );
  });

  test('structuredContent holding more string bytes than maxBytes', () => {
    const body = { ...payload('3.1/get_products.valid'), message: 'x'.repeat(2048) };
    const e = caught(() => decode('get_products', mcp.structured(body), { maxBytes: 2048, version: '3.1' }));
    expect(e).toMatchObject({ code: 'TOO_LARGE', task: 'get_products', version: V3_1, unit: 'bytes', limit: 2048, path: '/message' });
    expect((e as LimitError).actual).toBeGreaterThan(2048);
  });
});

describe('TOO_DEEP', () => {
  test('nesting deeper than maxDepth', () => {
    const body = payload('3.1/get_media_buys.valid');
    let ext: Record<string, unknown> = {};
    body['ext'] = ext;
    for (let i = 0; i < 80; i++) ext = (ext['n'] = {}) as Record<string, unknown>;
    const e = caught(() => decode('get_media_buys', mcp.structured(body)));
    expect(e).toMatchObject({
      code: 'TOO_DEEP',
      task: 'get_media_buys',
      version: undefined,
      unit: 'depth',
      limit: 64,
      actual: 65,
      path: `/ext${'/n'.repeat(63)}`,
    });
    expect(e.message).toMatchInlineSnapshot(
      `"structuredContent nests deeper than 64 levels (maxDepth) at /ext/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n…n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n"`,
    );
  });

  test('nesting deeper than maxDepth in a text item', () => {
    const text = `{"status":"completed","media_buys":[],"ext":${'{"n":'.repeat(70)}{}${'}'.repeat(70)}}`;
    const e = caught(() => decode('get_media_buys', mcp.text(text), { maxDepth: 32 }));
    expect(e).toMatchObject({ code: 'TOO_DEEP', task: 'get_media_buys', version: undefined, unit: 'depth', limit: 32, actual: 33 });
  });

  test('a seller key does not leak into the TOO_DEEP message: the pointer is shown escaped and shortened', () => {
    const body = payload('3.1/get_media_buys.valid');
    let ext: Record<string, unknown> = {};
    body['ext'] = ext;
    const key = `k${'x'.repeat(200)}\nline`;
    for (let i = 0; i < 70; i++) ext = (ext[key] = {}) as Record<string, unknown>;
    const e = caught(() => decode('get_media_buys', mcp.structured(body)));
    expect(e).toMatchObject({ code: 'TOO_DEEP', unit: 'depth', path: `/ext${`/${key}`.repeat(63)}` });
    expect(e.message).not.toContain('\n');
    expect(e.message).not.toContain(key);
    expect(e.message).toMatch(/ at \/ext\/kx+….*\\u000aline$/);
    expect(e.message.length).toBeLessThan(200);
  });
});

describe('TOO_MANY_VALUES', () => {
  test('more values than maxNodes', () => {
    const e = caught(() => decode('get_products', mcp.structured(payload('3.1/get_products.valid')), { maxNodes: 40 }));
    expect(e).toMatchObject({ code: 'TOO_MANY_VALUES', task: 'get_products', version: undefined, unit: 'nodes', limit: 40, actual: 43 });
    expect(e.message).toMatchInlineSnapshot(
      `"structuredContent has more than 40 values (maxNodes); counting stopped at /products/0/reporting_capabilities"`,
    );
  });
});

describe('MALFORMED_ENVELOPE', () => {
  test.each([
    ['null', null],
    ['a string', 'completed'],
    ['an array', [payload('3.1/list_accounts.valid')]],
    ['a bare payload without transport: payload', payload('3.1/list_accounts.valid')],
  ])('%s', (_name, input) => {
    const e = caught(() => decode('list_accounts', input));
    expect(e).toMatchObject({ code: 'MALFORMED_ENVELOPE', task: 'list_accounts', version: undefined });
  });

  test('the message for a bare payload', () => {
    expect(caught(() => decode('list_accounts', payload('3.1/list_accounts.valid'))).message).toMatchInlineSnapshot(
      `"expected an MCP CallToolResult, a JSON-RPC error, or an A2A task, event or envelope; got object (pass transport: 'payload' for a bare payload)"`,
    );
  });

  test('an A2A task in a state A2A does not define', () => {
    const e = caught(() => decode('get_signals', a2a10.task('TASK_STATE_PAUSED', payload('3.1/get_signals.valid'))));
    expect(e).toMatchObject({ code: 'MALFORMED_ENVELOPE', task: 'get_signals', version: undefined });
    expect(e.message).toMatchInlineSnapshot(`"expected a known A2A task state; got "TASK_STATE_PAUSED""`);
  });

  test('an A2A part with both text and data', () => {
    const task = a2a10.task('TASK_STATE_COMPLETED');
    (task['artifacts'] as Array<{ parts: unknown[] }>)[0]!.parts.push({ text: 'summary', data: payload('3.1/get_signals.valid') });
    const e = caught(() => decode('get_signals', { task }));
    expect(e).toMatchObject({ code: 'MALFORMED_ENVELOPE', task: 'get_signals', version: undefined, path: '/task/artifacts/0/parts/1' });
    expect(e.message).toMatchInlineSnapshot(
      `"expected one content field per A2A part; artifacts[0].parts[1] sets more than one of text, raw, url, data, file"`,
    );
  });

  test('structuredContent holding a Date (not JSON data)', () => {
    const body = { ...payload('3.1/get_media_buys.valid'), timestamp: new Date('2026-03-04T16:02:44Z') };
    const e = caught(() => decode('get_media_buys', mcp.structured(body)));
    expect(e).toMatchObject({ code: 'MALFORMED_ENVELOPE', task: 'get_media_buys', version: undefined, path: '/timestamp' });
    expect(e.message).toMatchInlineSnapshot(
      `"structuredContent holds an object of class Date at /timestamp; expected JSON data (plain objects, arrays, strings, finite numbers, booleans, null)"`,
    );
  });

  test('a getter that throws while the envelope is read', () => {
    const input = Object.defineProperty({ content: [] }, 'structuredContent', {
      enumerable: true,
      get() {
        throw new Error('socket closed');
      },
    });
    const e = caught(() => decode('get_media_buys', input, { version: V3_1 }));
    expect(e).toMatchObject({ code: 'MALFORMED_ENVELOPE', task: 'get_media_buys', version: V3_1, path: '/structuredContent' });
    expect(e.message).toMatchInlineSnapshot(`"expected readable input at /structuredContent, but reading it threw Error"`);
  });
});

describe('WRAPPER_DETECTED', () => {
  test('a framework { response } wrapper in the final artifact', () => {
    const e = caught(() => decode('get_products', a2a03.task('completed', { response: payload('3.1/get_products.valid') })));
    expect(e).toMatchObject({ code: 'WRAPPER_DETECTED', task: 'get_products', version: undefined, path: '/artifacts/0/parts/1/data' });
    expect(e.message).toMatchInlineSnapshot(
      `"expected the AdCP payload itself as the final DataPart's data; artifacts[0].parts[1] wraps it in a { response: ... } framework wrapper"`,
    );
  });

  test('is also caught inside a { task } envelope', () => {
    const e = caught(() =>
      decode('get_products', a2a10.taskEnvelope('TASK_STATE_COMPLETED', { response: payload('3.1/get_products.valid') })),
    );
    expect(e).toMatchObject({ code: 'WRAPPER_DETECTED', task: 'get_products', version: undefined, path: '/task/artifacts/0/parts/1/data' });
  });
});

describe('SCHEMA_MISMATCH', () => {
  test('a 3.1 get_products without cache_scope', () => {
    const e = caught(() => decode('get_products', mcp.structured(payload('3.1/get_products.invalid-missing-cache-scope'))));
    expect(e).toBeInstanceOf(SchemaMismatchError);
    const m = e as SchemaMismatchError;
    expect(m).toMatchObject({
      code: 'SCHEMA_MISMATCH',
      task: 'get_products',
      version: V3_1,
      schemaId: `/schemas/${V3_1}/media-buy/get-products-response.json`,
    });
    expect(m.issues[0]).toEqual({
      path: '',
      keyword: 'required',
      params: { missingProperty: 'cache_scope' },
      schemaPath: '#/else/else/required',
      message: "must have required property 'cache_scope'",
    });
    expect(m.message).toMatchInlineSnapshot(
      `"get_products response does not match the AdCP ${V3_1} schema (3 issues); first: (root) must have required property 'cache_scope'"`,
    );
  });

  test('a 3.0 delivery report with a currency symbol', () => {
    const e = caught(() =>
      decode(
        'get_media_buy_delivery',
        a2a10.taskEnvelope('TASK_STATE_COMPLETED', payload('3.0/get_media_buy_delivery.invalid-currency-symbol')),
      ),
    );
    expect(e).toMatchObject({ code: 'SCHEMA_MISMATCH', task: 'get_media_buy_delivery', version: V3_0 });
    expect((e as SchemaMismatchError).issues).toEqual([
      {
        path: '/currency',
        keyword: 'pattern',
        params: { pattern: '^[A-Z]{3}$' },
        schemaPath: '#/properties/currency/pattern',
        message: 'must match pattern "^[A-Z]{3}$"',
      },
    ]);
    expect(e.message).toMatchInlineSnapshot(
      `"get_media_buy_delivery response does not match the AdCP ${V3_0} schema (1 issue); first: /currency must match pattern "^[A-Z]{3}$""`,
    );
  });
});

describe('TASK_FAILED', () => {
  test('an McpError -32029 carrying adcp_error', () => {
    const e = caught(() =>
      decode(
        'create_media_buy',
        mcpError(-32029, 'Rate limit exceeded', {
          adcp_error: { code: 'RATE_LIMITED', message: 'Too many requests', retry_after: 12, recovery: 'transient' },
        }),
      ),
    );
    expect(e).toBeInstanceOf(TaskFailedError);
    expect(e).toMatchObject({
      code: 'TASK_FAILED',
      task: 'create_media_buy',
      version: V3_1,
      adcpError: { code: 'RATE_LIMITED', message: 'Too many requests', retry_after: 12, recovery: 'transient' },
      recovery: { recovery: 'transient', retryAfterSeconds: 12 },
    });
    expect(e.message).toMatchInlineSnapshot(
      `"create_media_buy failed: the seller answered with an AdCP error with error code "RATE_LIMITED" (transient, retry after 12 s); the seller said "Too many requests""`,
    );
  });
});

describe('INVALID_OPTION', () => {
  test.each([
    ['maxBytes: -1', { maxBytes: -1 }],
    ['maxDepth: 1.5', { maxDepth: 1.5 }],
    ['maxNodes: NaN', { maxNodes: Number.NaN }],
    ["transport: 'http'", { transport: 'http' }],
    ["unknownRecovery: 'retry'", { unknownRecovery: 'retry' }],
    ['version: 3.1 (a number)', { version: 3.1 }],
  ])('%s', (_name, options) => {
    const e = viaSafe('get_products', mcp.structured(payload('3.1/get_products.valid')), options as never);
    expect(e.code).toBe('INVALID_OPTION');
  });

  test('messages', () => {
    const input = mcp.structured(payload('3.1/get_products.valid'));
    expect(viaSafe('get_products', input, { maxBytes: -1 }).message).toMatchInlineSnapshot(
      `"safeDecode: option maxBytes must be a positive safe integer or Infinity; got -1"`,
    );
    expect(viaSafe('get_products', input, { transport: 'http' } as never).message).toMatchInlineSnapshot(
      `"safeDecode: option transport must be 'auto', 'mcp', 'a2a' or 'payload'; got "http""`,
    );
    expect(viaSafe('get_products', input, 'strict' as never).message).toMatchInlineSnapshot(
      `"safeDecode: option options must be an object; got "strict""`,
    );
  });
});

test('every code decode() can raise is covered above', () => {
  const covered: DecodeErrorCode[] = [
    'UNKNOWN_TASK',
    'UNSUPPORTED_VERSION',
    'NO_PAYLOAD',
    'INVALID_JSON',
    'UNSAFE_JSON',
    'DUPLICATE_KEY',
    'TOO_LARGE',
    'TOO_DEEP',
    'TOO_MANY_VALUES',
    'MALFORMED_ENVELOPE',
    'WRAPPER_DETECTED',
    'SCHEMA_MISMATCH',
    'TASK_FAILED',
    'INVALID_OPTION',
    // Faults that are not the seller's: test/decode/blame.test.ts.
    'TIMEOUT',
    'INVALID_INPUT',
    'INTERNAL',
  ];
  expect(new Set(covered).size).toBe(17);
});

test('errors from decode() and jsonRpc are DecodeErrors with a name per class', () => {
  expect(caught(() => decode('get_products', jsonRpc.error(-32603, 'Internal error'))).name).toBe('TaskFailedError');
  expect(caught(() => decode('get_products', mcp.text('{'))).name).toBe('DecodeError');
});

describe('an oversized text item is refused, not skipped for a later one', () => {
  test('TOO_LARGE even when a later text item holds a valid payload', () => {
    const small = JSON.stringify({ status: 'completed', products: [] });
    const big = JSON.stringify({ status: 'completed', note: 'x'.repeat(2048) });
    const result = {
      content: [
        { type: 'text', text: big },
        { type: 'text', text: small },
      ],
    };
    const r = safeDecode('get_products', result, { maxBytes: 1024 });
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(r.error.code).toBe('TOO_LARGE');
    expect(r.error.path).toBe('/content/0/text');
    // The spec's own extraction function does skip it.
    expect(extractMcpResponse(result, { maxBytes: 1024 })).toEqual(JSON.parse(small));
  });
});
