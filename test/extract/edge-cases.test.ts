/**
 * Table-driven cases beyond the AdCP vectors: hostile and odd inputs, size boundaries in UTF-8
 * bytes, A2A wire-form and state edge cases, error validation caps, recovery rules, and a
 * fast-check totality property (any input yields a result or a DecodeError, never a TypeError).
 */
import { Buffer } from 'node:buffer';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DEFAULT_BOUNDS } from '../../src/bounds/bounds.js';
import { type AdcpError, DecodeError } from '../../src/errors/errors.js';
import { classifyA2aState, extractA2aResponse, locateA2aPayload, looksLikeA2a, normalizeA2aState } from '../../src/extract/a2a.js';
import {
  checkAdcpError,
  extractA2aError,
  extractMcpError,
  locateA2aError,
  locateMcpError,
  validateAdcpError,
} from '../../src/extract/errors.js';
import { looksLikeJsonRpcError } from '../../src/extract/json-rpc.js';
import { extractMcpResponse, locateMcpPayload, looksLikeMcp } from '../../src/extract/mcp.js';
import { measureUtf8 } from '../../src/json/text.js';
import { classifyRecoveryWith, normalizeRetryAfter, type RecoveryTable } from '../../src/schema/recovery.js';
import { anyValue, revokedProxy, throwingGetter, throwingProxy } from '../fixtures/hostile-values.js';
import { caughtAs, thrown } from '../helpers.js';

/** Decode's default limit on one text item. */
const DEFAULT_MAX_BYTES = DEFAULT_BOUNDS.maxBytes;

const text = (value: unknown): Record<string, unknown> => ({ type: 'text', text: value });
const json = (value: unknown): Record<string, unknown> => text(JSON.stringify(value));

/** A Proxy whose every trap throws an ordinary Error. */
const hostileProxy = (): object => throwingProxy({ thrown: () => new Error('trap exploded') });

/** A JSON object text of exactly `bytes` UTF-8 bytes, built mostly of `char` (`{"s":"..."}`). */
function jsonOfBytes(bytes: number, char: string): string {
  const charBytes = Buffer.byteLength(char, 'utf8');
  const body = bytes - '{"s":""}'.length;
  const count = Math.floor(body / charBytes);
  const result = `{"s":"${char.repeat(count)}${'a'.repeat(body - count * charBytes)}"}`;
  expect(Buffer.byteLength(result, 'utf8')).toBe(bytes);
  return result;
}

// ---------------------------------------------------------------------------------------------
/** 2^40 values from 40 arrays, each holding the next twice: gigabytes as JSON, a few objects in memory. */
function sharedBomb(): Record<string, unknown> {
  let inner: unknown = 'x';
  for (let i = 0; i < 40; i++) inner = [inner, inner];
  return { code: 'X', details: inner };
}

describe('MCP success extraction: input shapes', () => {
  test.each<[string, unknown]>([
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['a string', '{"products":[]}'],
    ['an array', [{ type: 'text', text: '{"a":1}' }]],
    ['a function', () => ({ structuredContent: { a: 1 } })],
  ])('a result that is %s is not an envelope', (_name, input) => {
    expect(extractMcpResponse(input)).toBeNull();
    expect(locateMcpPayload(input)).toEqual({ kind: 'none', reason: 'input-not-object', rejected: [] });
  });

  test.each<[string, unknown]>([
    ['absent', undefined],
    ['an object', { 0: text('{"a":1}') }],
    ['a string', '{"a":1}'],
    ['null', null],
  ])('content that is %s yields no-content', (_name, content) => {
    const result = content === undefined ? {} : { content };
    expect(locateMcpPayload(result)).toMatchObject({ kind: 'none', reason: 'no-content' });
  });

  test('items that are not objects, or not text, are skipped without a rejection', () => {
    const result = {
      content: [null, 1, 'x', [text('{"a":1}')], { type: 'image', data: 'AAAA' }, { type: 'TEXT', text: '{"b":1}' }, json({ c: 1 })],
    };
    expect(locateMcpPayload(result)).toEqual({
      kind: 'payload',
      value: { c: 1 },
      source: 'text',
      index: 6,
      rejected: [],
      shape: { levels: 1, nodes: 2, finite: true },
    });
  });

  test.each<[string, unknown]>([
    ['an object', { a: 1 }],
    ['a number', 123],
    ['null', null],
    ['missing', undefined],
  ])('text that is %s is rejected as not-string and the scan goes on', (_name, value) => {
    const item = value === undefined ? { type: 'text' } : text(value);
    expect(locateMcpPayload({ content: [item, json({ ok: true })] })).toEqual({
      kind: 'payload',
      value: { ok: true },
      source: 'text',
      index: 1,
      rejected: [{ index: 0, reason: 'not-string' }],
      shape: { levels: 1, nodes: 2, finite: true },
    });
  });

  test.each<[string, unknown, boolean]>([
    ["the string 'false' (truthy, so the guard fires)", 'false', true],
    ['1', 1, true],
    ['an empty object', {}, true],
    ['true', true, true],
    ['false', false, false],
    ['0', 0, false],
    ['the empty string', '', false],
    ['null', null, false],
  ])('isError set to %s', (_name, isError, guarded) => {
    const result = { isError, structuredContent: { products: [] } };
    expect(locateMcpPayload(result).kind).toBe(guarded ? 'error-flag' : 'payload');
  });

  test('an inherited isError or structuredContent is ignored: only own properties are read', () => {
    const result = Object.create({ isError: true, structuredContent: { injected: true } }) as Record<string, unknown>;
    result['content'] = [json({ own: true })];
    expect(extractMcpResponse(result)).toEqual({ own: true });
  });

  test.each<[string, unknown, string]>([
    ['an array', [{ a: 1 }], 'array'],
    ['a string', '{"a":1}', 'string'],
    ['a number', 7, 'number'],
    ['a boolean', true, 'boolean'],
  ])('structuredContent that is %s falls back to text and is reported', (_name, structuredContent, kind) => {
    const location = locateMcpPayload({ structuredContent, content: [json({ fromText: true })] });
    expect(location).toMatchObject({
      kind: 'payload',
      source: 'text',
      value: { fromText: true },
      ignoredStructuredContent: kind,
    });
  });

  test('structuredContent null counts as absent, not as ignored', () => {
    const location = locateMcpPayload({ structuredContent: null, content: [] });
    expect(location).toEqual({ kind: 'none', reason: 'no-json-object', rejected: [] });
  });

  test('structuredContent with adcp_error beside other keys is a payload, not an error', () => {
    const structuredContent = { adcp_error: { code: 'X' }, products: [] };
    expect(extractMcpResponse({ structuredContent })).toEqual(structuredContent);
  });

  test('adcp_error-only structuredContent returns null without trying the text', () => {
    const location = locateMcpPayload({ structuredContent: { adcp_error: { code: 'X' } }, content: [json({ a: 1 })] });
    expect(location).toEqual({ kind: 'none', reason: 'structured-adcp-error-only', rejected: [], adcpError: { code: 'X' } });
  });

  test('structuredContent comes back as a plain copy; a circular one is refused, not returned', () => {
    const plain = { status: 'completed', products: [{ id: 'p' }] };
    const copy = extractMcpResponse({ structuredContent: plain });
    expect(copy).toEqual(plain);
    expect(copy).not.toBe(plain);
    const structuredContent: Record<string, unknown> = { status: 'completed' };
    structuredContent['self'] = structuredContent;
    expect(thrown(() => extractMcpResponse({ structuredContent }))).toMatchObject({
      code: 'MALFORMED_ENVELOPE',
      message: expect.stringContaining('circular'),
    });
  });

  test('a circular content array is walked without recursion', () => {
    const result: Record<string, unknown> = {};
    result['content'] = [result, json({ a: 1 })];
    expect(extractMcpResponse(result)).toEqual({ a: 1 });
  });
});

describe('MCP success extraction: text parsing', () => {
  test.each<[string, string, string]>([
    ['prose', 'Found 3 products.', 'not-json'],
    ['the empty string', '', 'not-json'],
    ['whitespace only', '  \n', 'not-json'],
    ['broken JSON object', '{"products": [', 'invalid-json'],
    ['broken JSON array after whitespace', '\n [1,', 'invalid-json'],
    ['a BOM before valid JSON', '\uFEFF{"products":[]}', 'invalid-json'],
  ])('%s is rejected as %s', (_name, value, reason) => {
    const location = locateMcpPayload({ content: [text(value)] });
    expect(location).toMatchObject({ kind: 'none', reason: 'no-json-object', rejected: [{ index: 0, reason }] });
  });

  test('parse errors never quote the seller text', () => {
    const location = locateMcpPayload({ content: [text('SECRET-INSTRUCTIONS {'), text('{"SECRET":')] });
    expect(location.kind).toBe('none');
    if (location.kind !== 'none') return;
    for (const entry of location.rejected) expect(entry.parseError ?? '').not.toMatch(/SECRET/);
    expect(location.rejected[1]).toMatchObject({ reason: 'invalid-json', parseError: 'unexpected end of JSON input' });
  });

  test('a BOM-prefixed item is skipped and the next item wins, as with JSON.parse', () => {
    const location = locateMcpPayload({ content: [text('\uFEFF{"a":1}'), json({ b: 2 })] });
    expect(location).toMatchObject({
      kind: 'payload',
      value: { b: 2 },
      rejected: [{ index: 0, reason: 'invalid-json', position: 0 }],
    });
  });

  test.each<[string, string]>([
    ['a JSON array', '[{"a":1}]'],
    ['a JSON string', '"{\\"a\\":1}"'],
    ['a JSON number', '42'],
    ['JSON null', 'null'],
    ['JSON true', 'true'],
  ])('%s is rejected as not-object', (_name, value) => {
    expect(locateMcpPayload({ content: [text(value)] })).toMatchObject({
      rejected: [{ index: 0, reason: 'not-object' }],
    });
  });

  test('adcp_error-only text is skipped and a later object wins', () => {
    const location = locateMcpPayload({ content: [json({ adcp_error: { code: 'X' } }), json({ products: [] })] });
    expect(location).toEqual({
      kind: 'payload',
      value: { products: [] },
      source: 'text',
      index: 1,
      rejected: [{ index: 0, reason: 'adcp-error-only', adcpError: { code: 'X' } }],
      shape: { levels: 2, nodes: 2, finite: true },
    });
  });

  test.each<[string, string]>([
    ['__proto__ at the top', '{"__proto__":{"isAdmin":true},"products":[]}'],
    ['__proto__ nested', '{"products":[{"__proto__":{"x":1}}]}'],
    ['an escaped __proto__', '{"\\u005f_proto__":{"x":1}}'],
    ['constructor.prototype', '{"constructor":{"prototype":{"x":1}}}'],
  ])('%s throws UNSAFE_JSON instead of being skipped', (_name, value) => {
    const error = caughtAs(DecodeError, () => extractMcpResponse({ content: [text('prose first'), text(value), json({ later: true })] }));
    expect(error.code).toBe('UNSAFE_JSON');
    expect(error.path).toBe('/content/1/text');
    expect(error.message).not.toContain('isAdmin');
  });

  test('a text item that repeats a key throws DUPLICATE_KEY instead of taking the last value or being skipped', () => {
    const repeated = '{"products":[],"status":"failed","status":"completed"}';
    expect(JSON.parse(repeated)).toEqual({ products: [], status: 'completed' });
    const error = caughtAs(DecodeError, () =>
      extractMcpResponse({ content: [text('prose first'), text(repeated), json({ later: true })] }),
    );
    expect(error).toMatchObject({ code: 'DUPLICATE_KEY', path: '/content/1/text/status' });
  });

  test('a constructor key that is not an object with prototype is fine', () => {
    expect(extractMcpResponse({ content: [text('{"constructor":"Widget","name":"x"}')] })).toEqual({
      constructor: 'Widget',
      name: 'x',
    });
  });

  test('an unsafe item after the winning item is never parsed', () => {
    expect(extractMcpResponse({ content: [json({ a: 1 }), text('{"__proto__":{}}')] })).toEqual({ a: 1 });
  });
});

describe('MCP success extraction: size limit in UTF-8 bytes', () => {
  test('the default is 4 MiB', () => {
    expect(DEFAULT_MAX_BYTES).toBe(4_194_304);
  });

  // é = 2 bytes, € = 3 bytes (one UTF-16 unit), 😀 = 4 bytes (two units): all land between the
  // cheap bounds, so the exact byte count decides.
  const cases = ['é', '€', '😀'].flatMap((char) =>
    [-1, 0, 1].map((delta) => ({ char, delta, name: `${char} at limit${delta === 0 ? '' : delta > 0 ? '+1' : '-1'}` })),
  );
  test.each(cases)('$name', ({ char, delta }) => {
    const body = jsonOfBytes(DEFAULT_MAX_BYTES + delta, char);
    expect(body.length).toBeLessThan(DEFAULT_MAX_BYTES);
    const location = locateMcpPayload({ content: [text(body)] });
    if (delta <= 0) {
      expect(location).toMatchObject({ kind: 'payload', source: 'text', index: 0 });
    } else {
      expect(location).toEqual({
        kind: 'none',
        reason: 'no-json-object',
        rejected: [{ index: 0, reason: 'too-large', bytes: DEFAULT_MAX_BYTES + 1, bytesExact: true }],
      });
    }
  });

  test('an item longer than the limit in UTF-16 units is rejected without encoding it', () => {
    const body = jsonOfBytes(DEFAULT_MAX_BYTES + 10, 'a');
    expect(locateMcpPayload({ content: [text(body)] })).toMatchObject({
      rejected: [{ index: 0, reason: 'too-large', bytes: body.length, bytesExact: false }],
    });
  });

  test('a too-large item is skipped and a later small one still wins (the spec skips, never truncates)', () => {
    const location = locateMcpPayload({ content: [text(jsonOfBytes(101, '€')), json({ small: true })] }, 100);
    expect(location).toMatchObject({
      kind: 'payload',
      value: { small: true },
      index: 1,
      rejected: [{ index: 0, reason: 'too-large', bytes: 101 }],
    });
  });

  test.each<[string, number, boolean]>([
    ['limit-1', 99, true],
    ['limit', 100, true],
    ['limit+1', 101, false],
  ])('a custom maxBytes with surrogate pairs: %s', (_name, bytes, fits) => {
    const location = locateMcpPayload({ content: [text(jsonOfBytes(bytes, '😀'))] }, 100);
    expect(location.kind).toBe(fits ? 'payload' : 'none');
  });

  test('structuredContent is not size-checked here (it is already an object)', () => {
    expect(extractMcpResponse({ structuredContent: { s: 'x'.repeat(200) } }, { maxBytes: 10 })).not.toBeNull();
  });

  test('maxBytes Infinity disables the check; 1 rejects every item of two bytes or more', () => {
    expect(extractMcpResponse({ content: [json({ a: 1 })] }, { maxBytes: Infinity })).toEqual({ a: 1 });
    expect(locateMcpPayload({ content: [json({ a: 1 })] }, 1)).toMatchObject({
      rejected: [{ reason: 'too-large' }],
    });
  });

  test.each<[string, unknown]>([
    ['negative', -1],
    ['NaN', Number.NaN],
    ['a string', '100'],
    ['a fraction', 1.5],
  ])('maxBytes that is %s is INVALID_OPTION', (_name, maxBytes) => {
    expect(thrown(() => extractMcpResponse({}, { maxBytes: maxBytes as number }))).toMatchObject({ code: 'INVALID_OPTION' });
  });

  test.each<[string, string, number, { fits: boolean; exact: boolean }]>([
    ['ASCII well under', 'abc', 9, { fits: true, exact: false }],
    ['longer than the limit', 'abcd', 3, { fits: false, exact: false }],
    ['multibyte in the band', 'ééé', 5, { fits: false, exact: true }],
    ['lone surrogate counts as 3 bytes', '\uD800', 2, { fits: false, exact: true }],
  ])('measureUtf8: %s', (_name, value, limit, expected) => {
    expect(measureUtf8(value, limit)).toMatchObject(expected);
  });
});

describe('MCP success extraction: hostile objects', () => {
  test.each<[string, () => unknown, string]>([
    ['a throwing isError getter', () => throwingGetter('isError'), '/isError'],
    ['a throwing structuredContent getter', () => throwingGetter('structuredContent'), '/structuredContent'],
    ['a throwing content getter', () => throwingGetter('content'), '/content'],
    ['a throwing item type getter', () => ({ content: [throwingGetter('type')] }), '/content/0'],
    [
      'a throwing text getter',
      () => ({
        content: [
          { type: 'text', ...{} },
          Object.defineProperty({ type: 'text' }, 'text', {
            get() {
              throw new Error('x');
            },
          }),
        ],
      }),
      '/content/1/text',
    ],
    ['a Proxy whose traps all throw', hostileProxy, '/isError'],
    ['a revoked Proxy', revokedProxy, ''],
    [
      'a Proxy content array',
      () => ({
        content: new Proxy([], {
          get() {
            throw new Error('x');
          },
        }),
      }),
      '/content',
    ],
  ])('%s fails with MALFORMED_ENVELOPE, never TypeError', (_name, make, path) => {
    const error = caughtAs(DecodeError, () => extractMcpResponse(make()));
    expect(error.code).toBe('MALFORMED_ENVELOPE');
    expect(error.path).toBe(path);
  });

  test('a thrown Proxy as cause still produces a DecodeError', () => {
    const nasty = Object.defineProperty({}, 'isError', {
      get() {
        throw hostileProxy();
      },
    });
    expect(caughtAs(DecodeError, () => extractMcpResponse(nasty)).code).toBe('MALFORMED_ENVELOPE');
  });

  test('looksLikeMcp never throws', () => {
    expect(looksLikeMcp(hostileProxy())).toBe(false);
    expect(looksLikeMcp(revokedProxy())).toBe(false);
    expect(looksLikeMcp({ content: [] })).toBe(true);
    expect(looksLikeMcp({ structuredContent: {} })).toBe(true);
    expect(looksLikeMcp({ isError: true })).toBe(true);
    expect(looksLikeMcp({ content: 'x' })).toBe(false);
    expect(looksLikeMcp({ status: { state: 'completed' } })).toBe(false);
    expect(looksLikeMcp([])).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
const task = (state: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 't',
  status: { state },
  ...extra,
});
const withMessage = (state: unknown, parts: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 't',
  status: { state, message: { role: 'agent', parts } },
  ...extra,
});
const artifacts = (...parts: unknown[][]): { artifacts: unknown[] } => ({
  artifacts: parts.map((p) => ({ artifactId: 'a', parts: p })),
});

describe('A2A extraction: state normalization by exact ASCII equality', () => {
  test.each<[unknown, string | null]>([
    ['TASK_STATE_COMPLETED', 'completed'],
    ['completed', 'completed'],
    ['COMPLETED', 'completed'],
    ['Completed', 'completed'],
    ['TASK_STATE_completed', 'completed'],
    ['TASK_STATE_INPUT_REQUIRED', 'input-required'],
    ['input-required', 'input-required'],
    ['input_required', 'input-required'],
    ['TASK_STATE_AUTH_REQUIRED', 'auth-required'],
    ['TASK_STATE_REJECTED', 'rejected'],
    ['TASK_STATE_CANCELED', 'canceled'],
    // Everything below is "unknown" and extraction returns null.
    ['TASK_STATE_CANCELLED', null],
    ['cancelled', null],
    ['TASK_STATE_UNSPECIFIED', null],
    ['unknown', null],
    ['task_state_completed', null],
    ['TASK_STATE__COMPLETED', null],
    ['INPUT__REQUIRED', null],
    [' completed', null],
    ['completed ', null],
    ['WOR\u212AING', null], // Kelvin sign: JS toLowerCase would fold it to "k"
    ['COMPLET\u0130D', null],
    ['', null],
    [3, null],
    [null, null],
  ])('%j → %s', (raw, expected) => {
    expect(classifyA2aState(raw)?.state ?? null).toBe(expected);
    const location = locateA2aPayload(withMessage(raw, [{ data: { a: 1 } }]));
    if (expected === null) {
      expect(location).toMatchObject({ kind: 'none', reason: raw === undefined ? 'no-state' : 'unknown-state' });
    } else {
      expect(location.kind === 'none' ? location.state : location.state).toBe(expected);
    }
  });

  test("normalization itself is the spec's three steps", () => {
    expect(normalizeA2aState('TASK_STATE_FOO_BAR')).toBe('foo-bar');
    expect(normalizeA2aState('WOR\u212AING')).toBe('wor\u212Aing');
    expect(normalizeA2aState({})).toBeNull();
  });

  test('a missing status or state is no-state; a non-object status too', () => {
    expect(locateA2aPayload({ id: 't' })).toEqual({ kind: 'none', reason: 'no-state' });
    expect(locateA2aPayload({ status: 'completed' })).toEqual({ kind: 'none', reason: 'no-state' });
    expect(locateA2aPayload({ status: {} })).toEqual({ kind: 'none', reason: 'no-state' });
  });
});

describe('A2A extraction: part forms and selection', () => {
  const v03 = (data: unknown): unknown => ({ kind: 'data', data });
  const v10 = (data: unknown): unknown => ({ data });

  test.each([
    ['v0.3 parts', v03],
    ['1.0 parts', v10],
  ])('final state takes the LAST DataPart of artifacts[0] (%s)', (_name, part) => {
    const input = task('completed', artifacts([part({ progress: 1 }), { text: 'x' }, part({ products: [] }), { kind: 'text', text: 'y' }]));
    expect(locateA2aPayload(input)).toMatchObject({
      kind: 'payload',
      value: { products: [] },
      source: 'artifact',
      partIndex: 2,
    });
  });

  test.each([
    ['v0.3 parts', v03],
    ['1.0 parts', v10],
  ])('interim state takes the FIRST DataPart of status.message (%s)', (_name, part) => {
    const input = withMessage('TASK_STATE_WORKING', [{ text: 'x' }, part({ percentage: 10 }), part({ percentage: 90 })]);
    expect(locateA2aPayload(input)).toMatchObject({
      kind: 'payload',
      value: { percentage: 10 },
      source: 'status-message',
      partIndex: 1,
    });
  });

  test('mixed v0.3 and 1.0 parts in one list', () => {
    const input = task('TASK_STATE_COMPLETED', artifacts([v03({ first: true }), v10({ last: true })]));
    expect(extractA2aResponse(input)).toEqual({ last: true });
  });

  test('DataParts are detected by field presence, not kind', () => {
    expect(extractA2aResponse(task('completed', artifacts([{ kind: 'text', data: { a: 1 } }])))).toEqual({ a: 1 });
    expect(extractA2aResponse(task('completed', artifacts([{ kind: 'data' }])))).toBeNull();
  });

  test.each<[string, unknown]>([
    ['null', null],
    ['an array', [{ a: 1 }]],
    ['a string', 'x'],
    ['a number', 0],
  ])('data that is %s is not a DataPart', (_name, data) => {
    expect(extractA2aResponse(task('completed', artifacts([{ data: { real: true } }, { data }])))).toEqual({
      real: true,
    });
  });

  test('interim states ignore artifacts entirely', () => {
    const input = withMessage('working', [{ text: 'only text' }], artifacts([{ data: { stale: true } }]));
    expect(locateA2aPayload(input)).toMatchObject({ kind: 'none', reason: 'no-data-part', state: 'working' });
  });

  test.each(['completed', 'failed', 'canceled', 'rejected'])(
    'final state %s falls back to the FIRST DataPart of status.message when artifacts have none',
    (state) => {
      const input = withMessage(state, [{ data: { first: true } }, { data: { second: true } }], artifacts([{ text: 'no data' }]));
      expect(locateA2aPayload(input)).toMatchObject({
        kind: 'payload',
        value: { first: true },
        source: 'status-message',
        state,
      });
    },
  );

  test.each<[string, unknown]>([
    ['not an array', { 0: { parts: [{ data: { a: 1 } }] } }],
    ['an empty array', []],
    ['an array whose first item is null', [null, { parts: [{ data: { second: true } }] }]],
    ['an artifact without parts', [{ artifactId: 'a' }]],
    ['parts that are not an array', [{ parts: { 0: { data: { a: 1 } } } }]],
  ])('artifacts %s: fall back to status.message', (_name, value) => {
    const input = withMessage('completed', [{ data: { fallback: true } }], { artifacts: value });
    expect(extractA2aResponse(input)).toEqual({ fallback: true });
  });

  test('only artifacts[0] is read, even when a later artifact has data', () => {
    const input = task('completed', artifacts([{ text: 'none here' }], [{ data: { second: true } }]));
    expect(extractA2aResponse(input)).toBeNull();
  });

  test('an AdCP Submitted or business-rejected result keeps its own status', () => {
    const submitted = { status: 'submitted', task_id: 'x' };
    expect(extractA2aResponse(task('TASK_STATE_COMPLETED', artifacts([{ data: submitted }])))).toEqual(submitted);
    const rejected = { status: 'rejected', reason: 'policy' };
    expect(extractA2aResponse(task('completed', artifacts([{ data: rejected }])))).toEqual(rejected);
  });

  test.each<[string, Record<string, unknown>]>([
    ['text and data', { text: 'x', data: { a: 1 } }],
    ['url and data', { url: 'https://x.example/f', data: { a: 1 } }],
    ['raw and text', { raw: 'AAAA', text: 'x' }],
    ['v0.3 file and data', { kind: 'file', file: { uri: 'https://x' }, data: { a: 1 } }],
  ])('a Part setting %s is malformed and fails the whole list (A2A 1.0 §4.1.6)', (_name, part) => {
    const input = task('completed', artifacts([{ data: { good: true } }, part]));
    expect(locateA2aPayload(input)).toMatchObject({
      kind: 'none',
      reason: 'malformed-part',
      source: 'artifact',
      partIndex: 1,
    });
    expect(extractA2aResponse(input)).toBeNull();
  });

  test('content fields set to null do not count (ProtoJSON unset)', () => {
    expect(extractA2aResponse(task('completed', artifacts([{ text: null, data: { a: 1 } }])))).toEqual({ a: 1 });
  });
});

describe('A2A extraction: wrapper detection', () => {
  test.each<[string, Record<string, unknown>]>([
    ['{ response: {...} }', { response: { products: [] } }],
    ['{ response: {} }', { response: {} }],
  ])('%s in the final artifact throws WRAPPER_DETECTED', (_name, data) => {
    const error = caughtAs(DecodeError, () => extractA2aResponse({ task: task('completed', artifacts([{ data }])) }));
    expect(error.code).toBe('WRAPPER_DETECTED');
    expect(error.path).toBe('/task/artifacts/0/parts/0/data');
    expect(locateA2aPayload(task('failed', artifacts([{ data }])))).toMatchObject({
      kind: 'wrapper',
      state: 'failed',
      partIndex: 0,
    });
  });

  test.each<[string, Record<string, unknown>]>([
    ['response beside other keys', { response: { a: 1 }, status: 'completed' }],
    ['response holding a string', { response: 'ok' }],
    ['response holding null', { response: null }],
    ['response holding an array', { response: [{ a: 1 }] }],
  ])('%s is not a wrapper', (_name, data) => {
    expect(extractA2aResponse(task('completed', artifacts([{ data }])))).toEqual(data);
  });

  test('only the authoritative (last) DataPart is checked', () => {
    const input = task('completed', artifacts([{ data: { response: { a: 1 } } }, { data: { products: [] } }]));
    expect(extractA2aResponse(input)).toEqual({ products: [] });
  });

  test('wrappers in status.message are not checked (interim, and the final-state fallback)', () => {
    const wrapped = { response: { a: 1 } };
    expect(extractA2aResponse(withMessage('working', [{ data: wrapped }]))).toEqual(wrapped);
    expect(extractA2aResponse(withMessage('completed', [{ data: wrapped }]))).toEqual(wrapped);
  });
});

describe('A2A extraction: envelopes', () => {
  const inner = task('TASK_STATE_COMPLETED', artifacts([{ data: { ok: true } }]));

  test.each(['task', 'statusUpdate'])('{ %s: ... } is unwrapped once', (key) => {
    expect(locateA2aPayload({ [key]: inner })).toMatchObject({ kind: 'payload', value: { ok: true }, envelope: key });
  });

  test('{ message } and { artifactUpdate } carry no state: null', () => {
    expect(locateA2aPayload({ message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ data: { a: 1 } }] } })).toEqual({
      kind: 'none',
      reason: 'no-state',
      envelope: 'message',
    });
    expect(extractA2aResponse({ artifactUpdate: { taskId: 't', artifact: { parts: [{ data: { a: 1 } }] } } })).toBeNull();
  });

  test.each<[string, Record<string, unknown>]>([
    ['{ task: { task } }', { task: { task: inner } }],
    ['{ statusUpdate: { task } }', { statusUpdate: { task: inner } }],
    ['{ task: { ...task, message } }', { task: { ...inner, message: { parts: [] } } }],
  ])('a nested envelope %s is rejected, not recursed', (_name, input) => {
    expect(locateA2aPayload(input)).toMatchObject({ kind: 'none', reason: 'nested-envelope' });
    expect(extractA2aResponse(input)).toBeNull();
  });

  test.each<[string, Record<string, unknown>]>([
    ['two envelope keys', { task: inner, statusUpdate: inner }],
    ['an envelope key with a null value', { task: null }],
    ['an envelope key with an array value', { task: [inner] }],
    ['a JSON-RPC result wrapper (not in the spec; the caller strips it)', { jsonrpc: '2.0', id: 1, result: inner }],
    ['an unknown single key', { result: inner }],
  ])('%s is not unwrapped', (_name, input) => {
    expect(locateA2aPayload(input)).toMatchObject({ kind: 'none', reason: 'no-state' });
  });

  test('a bare Task passes through', () => {
    expect(locateA2aPayload(inner)).toMatchObject({ kind: 'payload' });
    expect(locateA2aPayload(inner)).not.toHaveProperty('envelope');
  });
});

describe('A2A extraction: hostile objects and detection', () => {
  test.each<[string, () => unknown, string]>([
    ['a throwing status getter', () => throwingGetter('status'), '/status'],
    ['a throwing state getter', () => ({ status: throwingGetter('state') }), '/status/state'],
    [
      'a throwing artifacts getter',
      () => ({
        status: { state: 'completed' },
        ...{},
        get artifacts(): never {
          throw new Error('x');
        },
      }),
      '/artifacts',
    ],
    ['a throwing part', () => task('completed', artifacts([throwingGetter('data')])), '/artifacts/0/parts/0'],
    ['a Proxy whose traps all throw', hostileProxy, ''],
    ['a revoked Proxy', revokedProxy, ''],
    [
      'a revoked Proxy inside a task envelope',
      () => ({ task: { status: { state: 'working', message: revokedProxy() } } }),
      '/task/status/message/parts',
    ],
  ])('%s fails with MALFORMED_ENVELOPE', (_name, make, path) => {
    const error = caughtAs(DecodeError, () => extractA2aResponse(make()));
    expect(error.code).toBe('MALFORMED_ENVELOPE');
    expect(error.path).toBe(path);
  });

  test.each<[string, unknown, boolean]>([
    ['a v0.3 Task', { kind: 'task', id: 't', status: { state: 'completed' } }, true],
    ['a 1.0 Task', task('TASK_STATE_COMPLETED'), true],
    ['a { task } envelope', { task: task('TASK_STATE_WORKING') }, true],
    ['a { statusUpdate } envelope', { statusUpdate: { taskId: 't', status: { state: 'TASK_STATE_WORKING' } } }, true],
    ['an { artifactUpdate } envelope', { artifactUpdate: { taskId: 't', artifact: { parts: [] } } }, true],
    ['a { message } envelope', { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [] } }, true],
    ['an MCP Tasks { task } result', { task: { taskId: 't', status: 'working', ttl: 1000 } }, false],
    ['an MCP CallToolResult', { content: [], structuredContent: {} }, false],
    ['a JSON-RPC error', { jsonrpc: '2.0', id: 1, error: { code: -1, message: 'x' } }, false],
    ['null', null, false],
  ])('looksLikeA2a: %s → %s', (_name, input, expected) => {
    expect(looksLikeA2a(input)).toBe(expected);
  });

  test('looksLikeA2a never throws', () => {
    expect(looksLikeA2a(hostileProxy())).toBe(false);
    expect(looksLikeA2a(revokedProxy())).toBe(false);
    expect(looksLikeA2a({ task: hostileProxy() })).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
describe('error extraction: validation caps', () => {
  const sc = (adcpError: unknown): Record<string, unknown> => ({
    isError: true,
    content: [],
    structuredContent: { adcp_error: adcpError },
  });

  test.each<[string, string, boolean]>([
    ['1 char', 'X', true],
    ['64 chars', 'A'.repeat(64), true],
    ['65 chars', 'A'.repeat(65), false],
    ['empty', '', false],
    ['32 emoji = 64 UTF-16 units', '😀'.repeat(32), true],
    ['33 emoji = 66 UTF-16 units (33 code points)', '😀'.repeat(33), false],
  ])('code of %s', (_name, code, valid) => {
    expect(extractMcpError(sc({ code })) !== null).toBe(valid);
  });

  const overhead = JSON.stringify({ code: 'X', message: '' }).length;
  test.each<[string, string, boolean]>([
    ['exactly 4096 ASCII bytes', 'a'.repeat(4096 - overhead), true],
    ['4097 ASCII bytes', 'a'.repeat(4097 - overhead), false],
    ['exactly 4096 bytes with é', `${'é'.repeat((4096 - overhead - 1) / 2)}a`, true],
    ['4097 bytes with é (only ~2070 UTF-16 units)', 'é'.repeat((4097 - overhead) / 2), false],
  ])('serialized size of %s', (_name, message, valid) => {
    const adcpError = { code: 'X', message };
    const location = locateMcpError(sc(adcpError));
    expect(location.kind).toBe(valid ? 'found' : 'invalid');
    if (!valid) expect(location).toMatchObject({ reason: 'too-large', bytes: 4097 });
  });

  test.each<[string, unknown, string]>([
    ['an array', [{ code: 'X' }], 'not-object'],
    ['a string', 'RATE_LIMITED', 'not-object'],
    ['code as a number', { code: 429 }, 'code-not-string'],
    ['no code', { message: 'x' }, 'code-not-string'],
    ['an inherited code (an object of another class: not JSON data)', Object.create({ code: 'X' }), 'not-json'],
    ['a BigInt field', { code: 'X', n: 1n }, 'not-json'],
    ['an undefined field (JSON.stringify would drop it)', { code: 'X', retry_after: undefined }, 'not-json'],
    ['a Date field (JSON.stringify would convert it)', { code: 'X', at: new Date(0) }, 'not-json'],
    ['a symbol-keyed field', { code: 'X', [Symbol('s')]: 1 }, 'not-json'],
    ['a shared value past 4096 values (gigabytes as JSON)', sharedBomb(), 'too-large'],
  ])('%s is invalid', (_name, candidate, reason) => {
    expect(validateAdcpError(candidate)).toMatchObject({ ok: false, reason });
  });

  test('prototype keys: validateAdcpError says unsafe and where; checkAdcpError refuses them as UNSAFE_JSON', () => {
    const candidate = JSON.parse('{"code":"X","details":{"__proto__":{"polluted":true}}}') as unknown;
    expect(validateAdcpError(candidate, '/error/data/adcp_error')).toEqual({
      ok: false,
      reason: 'unsafe',
      path: '/error/data/adcp_error/details/__proto__',
    });
    expect(thrown(() => checkAdcpError(candidate, '/error/data/adcp_error'))).toMatchObject({
      code: 'UNSAFE_JSON',
      path: '/error/data/adcp_error/details/__proto__',
    });
    expect(checkAdcpError({ code: 'X' })).toEqual({ ok: true, error: { code: 'X' } });
  });

  test('a circular adcp_error is discarded as unserializable, not thrown', () => {
    const adcpError: Record<string, unknown> = { code: 'X' };
    adcpError['details'] = adcpError;
    expect(locateMcpError(sc(adcpError))).toEqual({
      kind: 'invalid',
      source: 'structuredContent',
      reason: 'unserializable',
    });
  });

  test('the returned error is a plain copy, with fields as sent', () => {
    const adcpError = { code: 'RATE_LIMITED', retry_after: -5, recovery: 'whenever', extra: { a: 1 } };
    const found = extractMcpError(sc(adcpError));
    expect(found).toEqual(adcpError);
    expect(found).not.toBe(adcpError);
    expect(found?.['extra']).not.toBe(adcpError.extra);
  });

  test('a getter is read once: the copy holds its first answer, and is what was validated', () => {
    let reads = 0;
    const adcpError = {
      get code() {
        reads++;
        return reads === 1 ? 'RATE_LIMITED' : 5;
      },
    };
    const found = extractMcpError(sc(adcpError));
    expect(found).toEqual({ code: 'RATE_LIMITED' });
    expect(reads).toBe(1);
    expect(Object.getOwnPropertyDescriptor(found, 'code')).toMatchObject({ value: 'RATE_LIMITED' });
  });
});

describe('error extraction: MCP detection order', () => {
  const good = { code: 'RATE_LIMITED', recovery: 'transient' };

  test('an invalid structuredContent.adcp_error ends detection even when the text has a valid one', () => {
    const input = {
      isError: true,
      structuredContent: { adcp_error: { code: 5 } },
      content: [json({ adcp_error: good })],
    };
    expect(locateMcpError(input)).toEqual({ kind: 'invalid', source: 'structuredContent', reason: 'code-not-string' });
  });

  test.each<[string, unknown]>([
    ['null', null],
    ['false', false],
    ['0', 0],
    ['the empty string', ''],
  ])('a falsy structuredContent.adcp_error (%s) counts as absent, so the text is tried', (_name, adcpError) => {
    const input = {
      isError: true,
      structuredContent: { adcp_error: adcpError },
      content: [json({ adcp_error: good })],
    };
    expect(locateMcpError(input)).toMatchObject({ kind: 'found', source: 'text_fallback', index: 0 });
  });

  test('text fallback walks items in order and accepts adcp_error beside other keys', () => {
    const input = {
      isError: 'false',
      content: [text('Rate limited.'), text('[1]'), json({ adcp_error: good, note: 'x' })],
    };
    expect(locateMcpError(input)).toMatchObject({ kind: 'found', source: 'text_fallback', index: 2, error: good });
  });

  test('text fallback needs a truthy isError', () => {
    expect(extractMcpError({ isError: false, content: [json({ adcp_error: good })] })).toBeNull();
  });

  test('text fallback skips items over maxBytes', () => {
    const input = { isError: true, content: [json({ adcp_error: good })] };
    expect(extractMcpError(input, { maxBytes: 10 })).toBeNull();
    expect(extractMcpError(input)).toEqual(good);
  });

  test('text fallback throws UNSAFE_JSON for prototype keys', () => {
    const input = { isError: true, content: [text('{"adcp_error":{"code":"X","__proto__":{"a":1}}}')] };
    expect(caughtAs(DecodeError, () => extractMcpError(input)).code).toBe('UNSAFE_JSON');
  });

  test('text fallback throws DUPLICATE_KEY for a repeated key, not the last code', () => {
    const input = { isError: true, content: [text('{"adcp_error":{"code":"RATE_LIMITED","code":"ACCOUNT_SUSPENDED"}}')] };
    expect(caughtAs(DecodeError, () => extractMcpError(input))).toMatchObject({
      code: 'DUPLICATE_KEY',
      path: '/content/0/text/adcp_error/code',
    });
  });

  test('the MCP SDK McpError is read through .data.adcp_error', () => {
    const error = new McpError(-32029, 'Rate limit exceeded', { adcp_error: good });
    expect(locateMcpError(error)).toMatchObject({ kind: 'found', source: 'jsonrpc_error', error: good });
    expect(looksLikeJsonRpcError(error)).toBe(true);
  });

  test.each<[string, unknown, boolean]>([
    ['a raw { error } without jsonrpc', { error: { code: -32029, message: 'x', data: { adcp_error: good } } }, true],
    ['a bare JSON-RPC error object', { code: -32027, message: 'x', data: { adcp_error: good } }, true],
    ['an error whose code is a string', { error: { code: '-32029', data: { adcp_error: good } } }, false],
    ['a success CallToolResult carrying an error key', { content: [], error: { code: -1, data: { adcp_error: good } } }, false],
    ['a JSON-RPC success response', { jsonrpc: '2.0', id: 1, result: {}, error: { code: -1, data: { adcp_error: good } } }, false],
  ])('%s', (_name, input, found) => {
    expect(extractMcpError(input) !== null).toBe(found);
    expect(looksLikeJsonRpcError(input)).toBe(found);
  });

  test.each<[string, () => unknown]>([
    ['a throwing isError getter', () => throwingGetter('isError')],
    ['a hostile Proxy', hostileProxy],
    ['a revoked Proxy', revokedProxy],
  ])('%s fails with MALFORMED_ENVELOPE', (_name, make) => {
    expect(caughtAs(DecodeError, () => extractMcpError(make())).code).toBe('MALFORMED_ENVELOPE');
    expect(looksLikeJsonRpcError(make())).toBe(false);
  });
});

describe('error extraction: A2A detection order', () => {
  const e1 = { code: 'FIRST' };
  const e2 = { code: 'SECOND' };

  test('artifacts come before status.message, and every artifact is scanned', () => {
    const input = withMessage(
      'failed',
      [{ data: { adcp_error: e1 } }],
      artifacts([{ text: 'x' }], [{ data: { other: 1 } }, { data: { adcp_error: e2 } }]),
    );
    expect(locateA2aError(input)).toEqual({ kind: 'found', error: e2, source: 'artifact', words: 'x', index: 1, artifactIndex: 1 });
  });

  test('1.0 parts without kind are found', () => {
    expect(extractA2aError({ task: task('TASK_STATE_FAILED', artifacts([{ data: { adcp_error: e1 } }])) })).toEqual(e1);
  });

  test('the first adcp_error decides, even if it is invalid', () => {
    const input = task('failed', artifacts([{ data: { adcp_error: { code: '' } } }, { data: { adcp_error: e2 } }]));
    expect(locateA2aError(input)).toMatchObject({
      kind: 'invalid',
      reason: 'code-empty',
      source: 'artifact',
      index: 0,
    });
  });

  test('detection does not depend on the task state (the spec scans whatever it is given)', () => {
    expect(extractA2aError(task('completed', artifacts([{ data: { adcp_error: e1, products: [] } }])))).toEqual(e1);
  });

  test('nested envelopes and non-objects yield nothing', () => {
    expect(extractA2aError({ task: { task: task('failed', artifacts([{ data: { adcp_error: e1 } }])) } })).toBeNull();
    expect(extractA2aError(undefined)).toBeNull();
    expect(extractA2aError('failed')).toBeNull();
  });

  test('a hostile Proxy fails with MALFORMED_ENVELOPE', () => {
    expect(caughtAs(DecodeError, () => extractA2aError(hostileProxy())).code).toBe('MALFORMED_ENVELOPE');
  });
});

// ---------------------------------------------------------------------------------------------
describe('recovery classification', () => {
  const table: RecoveryTable = {
    codes: { RATE_LIMITED: 'transient', BUDGET_TOO_LOW: 'correctable', ACCOUNT_SUSPENDED: 'terminal' },
    defaultUnknownRecovery: 'transient',
  };
  const classify = (error: Record<string, unknown>, unknownRecovery?: 'manifest' | 'terminal'): unknown =>
    classifyRecoveryWith(error as AdcpError, table, unknownRecovery === undefined ? undefined : { unknownRecovery });

  test.each<[string, Record<string, unknown>, string]>([
    ['a sent recovery wins over the table', { code: 'RATE_LIMITED', recovery: 'terminal' }, 'terminal'],
    ['a sent recovery on an unknown code', { code: 'X_VENDOR_Y', recovery: 'correctable' }, 'correctable'],
    ['an unknown recovery value is terminal, whatever the code', { code: 'RATE_LIMITED', recovery: 'permanent' }, 'terminal'],
    ['a non-string recovery is terminal', { code: 'RATE_LIMITED', recovery: 5 }, 'terminal'],
    ['case matters: Transient is unknown', { code: 'RATE_LIMITED', recovery: 'Transient' }, 'terminal'],
    ['an empty recovery counts as absent', { code: 'BUDGET_TOO_LOW', recovery: '' }, 'correctable'],
    ['a null recovery counts as absent', { code: 'ACCOUNT_SUSPENDED', recovery: null }, 'terminal'],
    ['missing recovery uses the table', { code: 'BUDGET_TOO_LOW' }, 'correctable'],
    ['an unknown code uses the manifest default', { code: 'X_VENDOR_Y' }, 'transient'],
    ['constructor is not a known code', { code: 'constructor' }, 'transient'],
    ['__proto__ is not a known code', { code: '__proto__' }, 'transient'],
    ['toString is not a known code', { code: 'toString' }, 'transient'],
  ])('%s', (_name, error, recovery) => {
    expect(classify(error)).toMatchObject({ recovery });
  });

  test('unknownRecovery overrides the manifest default only for unknown codes without recovery', () => {
    expect(classify({ code: 'X_VENDOR_Y' }, 'terminal')).toEqual({ recovery: 'terminal' });
    expect(classify({ code: 'X_VENDOR_Y' }, 'manifest')).toEqual({ recovery: 'transient' });
    expect(classify({ code: 'RATE_LIMITED' }, 'terminal')).toEqual({ recovery: 'transient' });
    expect(classify({ code: 'X_VENDOR_Y', recovery: 'correctable' }, 'terminal')).toEqual({ recovery: 'correctable' });
  });

  test('an unknown recovery value is left as sent on the error object', () => {
    const error = { code: 'X', recovery: 'deferred' };
    classify(error);
    expect(error.recovery).toBe('deferred');
  });

  test.each<[unknown, number | undefined]>([
    [5, 5],
    [0.2, 1],
    [1.5, 2],
    [0, 1],
    [-5, 1],
    [3600, 3600],
    [3600.5, 3600],
    [86400, 3600],
    [Number.NaN, undefined],
    [Infinity, undefined],
    [-Infinity, undefined],
    ['5', undefined],
    [null, undefined],
    [undefined, undefined],
  ])('retry_after %s → %s seconds', (retryAfter, seconds) => {
    expect(normalizeRetryAfter(retryAfter)).toBe(seconds);
    const result = classifyRecoveryWith({ code: 'RATE_LIMITED', retry_after: retryAfter } as AdcpError, table);
    expect(result.retryAfterSeconds).toBe(seconds);
    if (seconds === undefined) expect(result).not.toHaveProperty('retryAfterSeconds');
  });

  test('retryAfterSeconds is only given for transient errors', () => {
    expect(classify({ code: 'BUDGET_TOO_LOW', retry_after: 5 })).toEqual({ recovery: 'correctable' });
    expect(classify({ code: 'X', recovery: 'terminal', retry_after: 5 })).toEqual({ recovery: 'terminal' });
  });

  test('invalid policies are INVALID_OPTION', () => {
    expect(thrown(() => classifyRecoveryWith({ code: 'X' }, table, { unknownRecovery: 'retry' as 'terminal' }))).toMatchObject({
      code: 'INVALID_OPTION',
    });
    expect(thrown(() => classifyRecoveryWith({ code: 'X' }, { codes: {}, defaultUnknownRecovery: 'maybe' as 'terminal' }))).toMatchObject({
      code: 'INVALID_OPTION',
    });
  });

  test('a hostile error object fails with MALFORMED_ENVELOPE', () => {
    expect(caughtAs(DecodeError, () => classifyRecoveryWith(hostileProxy() as AdcpError, table)).code).toBe('MALFORMED_ENVELOPE');
  });
});

// ---------------------------------------------------------------------------------------------
describe('totality: any input yields a result or a DecodeError', () => {
  const shaped = fc.oneof(
    anyValue,
    anyValue.map((x) => ({
      isError: true,
      structuredContent: { adcp_error: x },
      content: [{ type: 'text', text: x }],
    })),
    fc.json().map((t) => ({ isError: true, content: [{ type: 'text', text: t }] })),
    fc.json().map((t) => ({ content: [{ type: 'text', text: t }] })),
    anyValue.map((x) => ({ content: [x, { type: 'text', text: x }], structuredContent: x })),
    anyValue.map((x) => ({
      status: { state: 'completed', message: { parts: [x] } },
      artifacts: [{ parts: [x, { data: x }] }],
    })),
    anyValue.map((x) => ({ task: { status: { state: x }, artifacts: x } })),
    anyValue.map((x) => ({ jsonrpc: '2.0', id: 1, error: { code: -32029, message: 'x', data: { adcp_error: x } } })),
  );

  const table: RecoveryTable = { codes: { RATE_LIMITED: 'transient' }, defaultUnknownRecovery: 'transient' };
  const calls: ReadonlyArray<(x: unknown) => unknown> = [
    extractMcpResponse,
    locateMcpPayload,
    extractA2aResponse,
    locateA2aPayload,
    extractMcpError,
    extractA2aError,
    (x) => classifyRecoveryWith(x as AdcpError, table),
  ];

  test('extractors and the classifier', () => {
    fc.assert(
      fc.property(shaped, (input) => {
        for (const call of calls) {
          const error = thrown(() => call(input));
          if (error !== undefined) expect(error).toBeInstanceOf(DecodeError);
        }
      }),
      { numRuns: 400 },
    );
  });

  test('the detectors never throw', () => {
    fc.assert(
      fc.property(shaped, (input) => {
        for (const detect of [looksLikeMcp, looksLikeA2a, looksLikeJsonRpcError]) expect(typeof detect(input)).toBe('boolean');
      }),
      { numRuns: 400 },
    );
  });
});
