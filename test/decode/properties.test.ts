/**
 * Property tests (fast-check, fixed seed, modest runs) of the guarantees decode() makes about
 * untrusted input:
 * - any value at all as input: decode returns or throws a DecodeError (never a TypeError,
 *   RangeError or anything else) and safeDecode never throws;
 * - a payload in structuredContent and the same payload as JSON text get the same verdict and
 *   deep-equal data;
 * - the size limit is exact in UTF-8 bytes, with 2-, 3- and 4-byte characters (and lone
 *   surrogates, 3 bytes as U+FFFD) at the boundary;
 * - nothing decode() hands back, merged into `{}` by spread, Object.assign or a naive recursive
 *   merge, changes a prototype (checked after every run);
 * - the MCP and A2A extractors agree with a straightforward model of the spec's algorithms;
 * - every error decode() and safeDecode() end in carries the call's task, the pinned version where
 *   one was pinned, and the release a bundled one stood in for once it judged the payload.
 */
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { withinBounds } from '../../src/bounds/bounds.js';
import { checkTree } from '../../src/bounds/check-tree.js';
import { type DecodeOptions, decode, safeDecode, type TaskName } from '../../src/decode/decode.js';
import { DecodeError, SchemaMismatchError, TaskFailedError } from '../../src/errors/errors.js';
import { extractA2aResponse } from '../../src/extract/a2a.js';
import { extractMcpResponse } from '../../src/extract/mcp.js';
import { parseJsonText } from '../../src/json/text.js';
import { anyValue, revokedProxy, throwingGetter, throwingProxy } from '../fixtures/hostile-values.js';
import { fixtures, type PayloadFixture } from '../fixtures/payloads.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { deepMerge } from '../helpers.js';

/** One seed for every property here, so a failure reproduces exactly; fast-check prints the path. */
const SEED = 20_260_430;
const runs = (numRuns: number): fc.Parameters<unknown> => ({ seed: SEED, numRuns });

type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Prototype watch: after every test (and inside the pollution property, after every run).

const snapshot = (): string =>
  [Object.prototype, Array.prototype, Function.prototype, String.prototype]
    .map((p) => Object.getOwnPropertyNames(p).sort().join(','))
    .join('|');
const pristine = snapshot();

function assertPrototypesClean(): void {
  expect(snapshot()).toBe(pristine);
  expect(({} as Json)['polluted']).toBeUndefined();
  expect(([] as unknown as Json)['polluted']).toBeUndefined();
}

afterEach(assertPrototypesClean);

// ---------------------------------------------------------------------------------------------
// Generators

const TASKS = [...new Set(fixtures.map((f) => f.task))];

/** Applies a few edits to a JSON tree: replace, delete or add a member somewhere in it. */
interface Edit {
  readonly at: number;
  readonly op: 'set' | 'delete' | 'add';
  readonly key: string;
  readonly value: unknown;
}

function containers(root: unknown): Array<Json | unknown[]> {
  const out: Array<Json | unknown[]> = [];
  const stack = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    out.push(v as Json);
    for (const child of Object.values(v)) stack.push(child);
  }
  return out;
}

function applyEdits(root: Json, edits: readonly Edit[]): Json {
  for (const edit of edits) {
    const all = containers(root);
    const target = all[edit.at % all.length] as Json | unknown[];
    const keys = Object.keys(target);
    const existing = keys.length === 0 ? undefined : keys[edit.at % keys.length];
    if (Array.isArray(target)) {
      if (edit.op === 'add') target.push(edit.value);
      else if (existing !== undefined && edit.op === 'delete') target.splice(Number(existing), 1);
      else if (existing !== undefined) target[Number(existing)] = edit.value;
    } else if (edit.op === 'add') {
      Object.defineProperty(target, edit.key, { value: edit.value, enumerable: true, writable: true, configurable: true });
    } else if (existing !== undefined) {
      if (edit.op === 'delete') delete target[existing];
      else target[existing] = edit.value;
    }
  }
  return root;
}

const jsonish = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown); // no -0
const edit: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(),
  op: fc.constantFrom('set', 'delete', 'add'),
  key: fc.oneof(fc.constantFrom('status', 'adcp_version', 'adcp_error', 'errors', 'ext', 'context', 'x'), fc.string({ maxLength: 8 })),
  value: fc.oneof(jsonish, fc.constantFrom('completed', 'working', 'submitted', 'input-required', '3.0', '3.1', { code: 'RATE_LIMITED' })),
});

/** A fixture payload (valid or not), maybe edited: realistic, and often invalid in small ways. */
const mutatedPayload: fc.Arbitrary<{ fixture: PayloadFixture; payload: Json }> = fc
  .tuple(fc.constantFrom(...fixtures), fc.array(edit, { maxLength: 3 }))
  .map(([fixture, edits]) => ({ fixture, payload: applyEdits(fixture.payload, edits) }));

/**
 * Values that fight back when read. fast-check itself reads generated values (to clone them), so
 * it generates a marker; {@link materialize} builds the real thing inside the property.
 */
const HOSTILE = Symbol('hostile');
const hostile: fc.Arbitrary<unknown> = fc
  .constantFrom('getter', 'proxy', 'revoked', 'thrown-proxy', 'cycle', 'shared')
  .map((kind) => ({ [HOSTILE]: kind }));

function build(kind: string): unknown {
  switch (kind) {
    case 'getter':
      return throwingGetter('x', new RangeError('boom'));
    case 'proxy':
      return throwingProxy({ traps: ['ownKeys', 'get'], thrown: () => new TypeError('trap') });
    case 'revoked':
      return revokedProxy();
    case 'thrown-proxy':
      return throwingProxy({ traps: ['get', 'getPrototypeOf', 'ownKeys'] });
    case 'cycle': {
      const o: Json = { status: 'completed' };
      o['self'] = o;
      return o;
    }
    default: {
      // 2^12 values from 12 arrays (the corpus has the 2^60 one; here it would cost a million-value walk per run).
      let node: unknown = 'x';
      for (let i = 0; i < 12; i++) node = [node, node];
      return { ext: node };
    }
  }
}

/** A copy of a generated value with every hostile marker replaced by the real hostile object. */
function materialize(v: unknown, depth = 0): unknown {
  if (typeof v !== 'object' || v === null || depth > 20) return v;
  const marker = (v as { [HOSTILE]?: string })[HOSTILE];
  if (marker !== undefined) return build(marker);
  const proto: unknown = Object.getPrototypeOf(v);
  if (Array.isArray(v)) return v.map((x) => materialize(x, depth + 1));
  if (proto !== Object.prototype && proto !== null) return v;
  const out: Json = proto === null ? (Object.create(null) as Json) : {};
  for (const key of Object.keys(v))
    Object.defineProperty(out, key, {
      value: materialize((v as Json)[key], depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

const value = fc.oneof(
  { weight: 3, arbitrary: anyValue },
  { weight: 1, arbitrary: hostile },
  { weight: 2, arbitrary: mutatedPayload.map((m) => m.payload as unknown) },
);

/** Envelopes of every transport, with anything (or something hostile) in every slot. */
const envelope: fc.Arbitrary<unknown> = fc.oneof(
  value,
  fc.record(
    {
      isError: fc.oneof(fc.constant(undefined), anyValue),
      structuredContent: value,
      content: fc.oneof(
        value,
        fc.array(
          fc.oneof(
            value,
            fc.record({
              type: fc.constantFrom('text', 'image', 5),
              text: fc.oneof(
                value,
                value.map((v) => {
                  try {
                    return JSON.stringify(v);
                  } catch {
                    return '{';
                  }
                }),
              ),
            }),
          ),
        ),
      ),
    },
    { requiredKeys: [] },
  ),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.nat(),
    error: fc.record(
      {
        code: fc.oneof(fc.integer(), anyValue),
        message: fc.string(),
        data: fc.oneof(
          value,
          value.map((adcp_error) => ({ adcp_error })),
        ),
      },
      { requiredKeys: [] },
    ),
  }),
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.nat(), result: value }),
  fc
    .record({
      state: fc.oneof(fc.constantFrom('completed', 'TASK_STATE_FAILED', 'working', 'TASK_STATE_INPUT_REQUIRED', 'rejected'), anyValue),
      data: value,
      wrap: fc.constantFrom('task', 'statusUpdate', 'none'),
    })
    .map(({ state, data, wrap }) => {
      const task = { status: { state, message: { parts: [{ data }] } }, artifacts: [{ parts: [{ text: 'x' }, { kind: 'data', data }] }] };
      return wrap === 'none' ? task : { [wrap]: task };
    }),
);

const options: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(undefined),
  fc.record(
    {
      version: fc.oneof(fc.constantFrom('auto', '3.1', '3.0', V3_1, V3_0, '2.5'), anyValue),
      transport: fc.oneof(fc.constantFrom('auto', 'mcp', 'a2a', 'payload'), anyValue),
      maxBytes: fc.oneof(fc.nat({ max: 5000 }), fc.constant(Infinity), anyValue),
      maxDepth: fc.oneof(fc.nat({ max: 70 }), fc.constant(Infinity), anyValue),
      maxNodes: fc.oneof(fc.nat({ max: 5000 }), fc.constant(Infinity), anyValue),
      unknownRecovery: fc.oneof(fc.constantFrom('manifest', 'transient', 'correctable', 'terminal'), anyValue),
    },
    { requiredKeys: [] },
  ),
  anyValue,
);

const task: fc.Arbitrary<unknown> = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...TASKS) }, { weight: 1, arbitrary: anyValue });

// ---------------------------------------------------------------------------------------------

describe('totality', () => {
  test('any input, task and options: decode returns or throws a DecodeError; safeDecode never throws', () => {
    fc.assert(
      fc.property(task, envelope, options, (t, generated, opts) => {
        const input = materialize(generated);
        let threw: unknown;
        try {
          decode(t as TaskName, input, opts as DecodeOptions);
        } catch (error) {
          threw = error;
        }
        if (threw !== undefined) expect(threw).toBeInstanceOf(DecodeError);
        const result = safeDecode(t as TaskName, input, opts as DecodeOptions);
        expect(typeof result.success).toBe('boolean');
        if (!result.success) expect(result.error).toBeInstanceOf(DecodeError);
        // No input is our defect: INTERNAL would blame adcp-decode for the input (or hide a real bug).
        if (!result.success) expect(result.error.code, result.error.message).not.toBe('INTERNAL');
        // The same input decodes the same way twice (no hidden state between calls).
        expect(result.success ? 'decoded' : result.error.code).toBe(threw === undefined ? 'decoded' : (threw as DecodeError).code);
      }),
      runs(600),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Every error is built with the call's context: nothing fills it in afterwards (issue 22).

/** Options decode() accepts: a pin of either release (or none), any transport, bounds tight enough to trip. */
const validOptions = fc.record(
  {
    version: fc.constantFrom('auto', '3.0', '3.1', V3_0, V3_1),
    transport: fc.constantFrom('auto', 'mcp', 'a2a', 'payload'),
    maxBytes: fc.oneof(fc.integer({ min: 1, max: 5000 }), fc.constant(Infinity)), // 0 is no byte bound (option-rules)
    maxDepth: fc.oneof(fc.nat({ max: 12 }), fc.constant(Infinity)),
    maxNodes: fc.oneof(fc.nat({ max: 500 }), fc.constant(Infinity)),
    unknownRecovery: fc.constantFrom('manifest', 'transient', 'correctable', 'terminal'),
  },
  { requiredKeys: [] },
);

/** The bundled version a valid `version` option pins, or undefined under 'auto'. */
function pinned(version: string | undefined): string | undefined {
  if (version === undefined || version === 'auto') return undefined;
  return version.split('.').length === 3 ? version : version === '3.0' ? V3_0 : V3_1;
}

/** Task names a caller may pass: the fixtures' tasks, another release's, prototype names, anything. */
const taskName: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...TASKS) },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', '', 'get_products ') },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

/** The error a decode ends in, from decode() and from safeDecode() alike (the same call, twice). */
function errorsOf(task: string, input: unknown, opts: unknown): DecodeError[] {
  const errors: DecodeError[] = [];
  try {
    decode(task as TaskName, input, opts as DecodeOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(DecodeError);
    errors.push(error as DecodeError);
  }
  const result = safeDecode(task as TaskName, input, opts as DecodeOptions);
  if (!result.success) errors.push(result.error);
  return errors;
}

describe("every error carries the call's task, and its version where one was pinned", () => {
  test('valid options (either release pinned, or none), hostile envelopes of every transport and hostile tasks', () => {
    fc.assert(
      fc.property(taskName, envelope, validOptions, (t, generated, opts) => {
        const input = materialize(generated);
        const version = pinned(opts.version);
        for (const error of errorsOf(t, input, opts)) {
          expect(error.task, `${error.code}: ${error.message}`).toBe(t);
          if (version !== undefined) expect(error.version, `${error.code}: ${error.message}`).toBe(version);
        }
      }),
      runs(500),
    );
  });

  test('any options (an invalid one included): the task is on the error, before the options are even read', () => {
    fc.assert(
      fc.property(taskName, envelope, options, (t, generated, opts) => {
        for (const error of errorsOf(t, materialize(generated), opts)) expect(error.task, `${error.code}: ${error.message}`).toBe(t);
      }),
      runs(300),
    );
  });

  test('a payload announcing a newer release, judged by the newest bundled one on request: what judged it says which release it stood in for', () => {
    fc.assert(
      fc.property(
        mutatedPayload.filter(({ fixture }) => fixture.version === V3_1),
        fc.constantFrom('3.2', '3.7', '3.10'),
        fc.constantFrom('structured', 'text', 'payload'),
        ({ fixture, payload }, release, carrier) => {
          const announced = { ...payload, adcp_version: release };
          const input =
            carrier === 'structured'
              ? { content: [], structuredContent: announced }
              : carrier === 'text'
                ? { content: [{ type: 'text', text: JSON.stringify(announced) }] }
                : announced;
          const opts =
            carrier === 'payload'
              ? { transport: 'payload' as const, newerRelease: 'newest' as const }
              : { newerRelease: 'newest' as const };
          for (const error of errorsOf(fixture.task, input, opts)) {
            expect(error.task).toBe(fixture.task);
            // Judged after the version was picked: the schema's verdict, the seller's failure.
            if (error.code === 'SCHEMA_MISMATCH' || error.code === 'TASK_FAILED') {
              expect(error, error.message).toMatchObject({ version: V3_1, standInFor: release });
            }
          }
        },
      ),
      runs(300),
    );
  });
});

/** What a decode came to, comparable across transports: the data and version, or the code and issues. */
function verdict(result: ReturnType<typeof safeDecode>): unknown {
  if (result.success) return { data: result.data, version: result.version };
  const e = result.error;
  return {
    code: e.code,
    issues: e instanceof SchemaMismatchError ? e.issues : undefined,
    adcpError: e instanceof TaskFailedError ? e.adcpError : undefined,
    recovery: e instanceof TaskFailedError ? e.recovery : undefined,
    version: e.version,
  };
}

describe('structuredContent and text agree', () => {
  test('a payload decodes the same from structuredContent and from JSON.stringify(payload) in a text item', () => {
    fc.assert(
      fc.property(mutatedPayload, fc.constantFrom('auto', 'pinned'), ({ fixture, payload }, pin) => {
        const opts = pin === 'pinned' ? { version: fixture.version } : {};
        const structured = safeDecode(fixture.task, { content: [{ type: 'text', text: 'Done.' }], structuredContent: payload }, opts);
        const text = safeDecode(fixture.task, { content: [{ type: 'text', text: JSON.stringify(payload) }] }, opts);
        expect(verdict(text)).toEqual(verdict(structured));
      }),
      runs(300),
    );
  });
});

describe("a parsed text's measured shape decides the bounds exactly as the walk does", () => {
  // decode() skips checkTree for a parsed text when withinBounds(shape) says so: the two must agree
  // both ways, on any JSON, under any bounds (small bounds, so that both answers are common).
  const nested = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'medium' },
      fc.constantFrom('1', '1e400', '-1e999', '"s"', 'null', 'true', '0.5'),
      tie('array'),
      tie('object'),
    ),
    array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    // Each key once: a repeated key is refused before any bound is measured (DUPLICATE_KEY).
    object: fc
      .uniqueArray(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), tie('value')), { maxLength: 4, selector: ([k]) => k })
      .map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  }));
  test('withinBounds(shape) === checkTree passes', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          nested.object,
          nested.array,
          fc.json().filter((t) => t.startsWith('{')),
        ),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 40 }),
        (text, maxDepth, maxNodes) => {
          const parsed = parseJsonText(text, 1 << 20, '/content/0/text');
          if (!parsed.ok) throw new Error(`generated text did not parse: ${text}`);
          const bounds = { maxBytes: 1 << 20, maxDepth, maxNodes };
          let walked = true;
          try {
            checkTree(parsed.value, bounds, { what: 'text' });
          } catch (error) {
            expect(error).toBeInstanceOf(DecodeError);
            walked = false;
          }
          expect(withinBounds(parsed.shape, bounds)).toBe(walked);
        },
      ),
      runs(2_000),
    );
  });
});

describe('the size limit is exact in UTF-8 bytes', () => {
  // 2-, 3- and 4-byte characters, and a lone surrogate (3 bytes: it is sent as U+FFFD).
  const wide = fc.constantFrom('é', 'ß', '€', '中', '😀', '𝄞', '\uD800', '\uDFFF');
  test('limit - 1, limit and limit + 1 around a text whose last characters are multi-byte', () => {
    const base = JSON.stringify({ ...fixtures.find((f) => f.id === '3.1/list_accounts.valid')!.payload, ext: { s: '' } });
    fc.assert(
      fc.property(
        fc.array(wide, { minLength: 1, maxLength: 40 }),
        fc.nat({ max: 3000 }),
        fc.constantFrom(-1, 0, 1),
        (tail, ascii, delta) => {
          const text = base.replace('"s":""', `"s":"${'a'.repeat(ascii)}${tail.join('')}"`);
          const bytes = Buffer.byteLength(text, 'utf8');
          const maxBytes = bytes - delta; // delta 1: one byte over; 0: exactly at; -1: one under
          const result = safeDecode('list_accounts', { content: [{ type: 'text', text }] }, { maxBytes });
          if (delta === 1) {
            expect(result).toMatchObject({ success: false, error: { code: 'TOO_LARGE', limit: maxBytes } });
            // Exact whenever the UTF-16 length alone cannot decide (always so here but for pure ASCII).
            if (text.length <= maxBytes) expect(result).toMatchObject({ error: { actual: bytes } });
          } else {
            expect(result.success).toBe(true);
          }
          // The extractor applies the same limit on its own.
          expect(extractMcpResponse({ content: [{ type: 'text', text }] }, { maxBytes }) === null).toBe(delta === 1);
        },
      ),
      runs(300),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Pollution

/** Every object the caller can reach from a result: the data, or the error's own data fields. */
function received(result: ReturnType<typeof safeDecode>): unknown[] {
  if (result.success) return [result.data];
  const e = result.error;
  const out: unknown[] = [{ ...e }];
  if (e instanceof TaskFailedError) out.push(e.adcpError, e.recovery);
  if (e instanceof SchemaMismatchError) out.push(...e.issues, ...e.issues.map((i) => i.params));
  return out;
}

/** Places a prototype-polluting key the way each transport can carry one. */
const injection = fc.constantFrom(
  '__proto__',
  '\\u005f_proto__',
  'constructor',
  'array-own-__proto__',
  'hidden-__proto__',
  'array-constructor',
);

function inject(root: Json, at: number, how: string): Json {
  const all = containers(root);
  const target = all[at % all.length] as Json;
  const evil = { polluted: true, isAdmin: true };
  switch (how) {
    case '__proto__':
    case '\\u005f_proto__':
      Object.defineProperty(target, '__proto__', { value: evil, enumerable: true, writable: true, configurable: true });
      break;
    case 'constructor':
      Object.defineProperty(target, 'constructor', { value: { prototype: evil }, enumerable: true, writable: true, configurable: true });
      break;
    case 'array-own-__proto__':
      target['list'] = Object.defineProperty([1], '__proto__', { value: evil, enumerable: true, writable: true, configurable: true });
      break;
    case 'hidden-__proto__':
      Object.defineProperty(target, '__proto__', { value: evil, enumerable: false, writable: true, configurable: true });
      break;
    default:
      target['list'] = Object.defineProperty([], 'constructor', {
        value: { prototype: evil },
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return root;
}

const carriers = ['structured', 'text', 'a2a', 'payload', 'mcp-error', 'a2a-error', 'rpc-error'] as const;

function carry(carrier: (typeof carriers)[number], payload: Json, how: string): unknown {
  // JSON.stringify writes an own enumerable __proto__ key; the escaped spelling is made in the text.
  const asText = (): string => {
    const t = JSON.stringify(payload);
    return how === '\\u005f_proto__' ? t.replaceAll('"__proto__":', '"\\u005f_proto__":') : t;
  };
  switch (carrier) {
    case 'structured':
      return { content: [], structuredContent: payload };
    case 'text':
      return { content: [{ type: 'text', text: asText() }] };
    case 'a2a':
      return { task: { status: { state: 'TASK_STATE_COMPLETED' }, artifacts: [{ parts: [{ data: payload }] }] } };
    case 'payload':
      return payload;
    case 'mcp-error':
      return {
        isError: true,
        content: [{ type: 'text', text: asText() }],
        structuredContent: { adcp_error: { code: 'INVALID_REQUEST', details: payload } },
      };
    case 'a2a-error':
      return {
        status: { state: 'failed' },
        artifacts: [{ parts: [{ data: { adcp_error: { code: 'INVALID_REQUEST', details: payload } } }] }],
      };
    case 'rpc-error':
      return { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'x', data: { adcp_error: { code: 'X', details: payload } } } };
  }
}

/** Whether a prototype-polluting key is anywhere in the input, text items parsed, arrays' named members included. */
function carriesPrototypeKey(input: unknown): boolean {
  const stack: unknown[] = [input];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string' && v.startsWith('{')) {
      try {
        stack.push(JSON.parse(v));
      } catch {
        // not JSON
      }
    }
    if (typeof v !== 'object' || v === null) continue;
    if (Object.hasOwn(v, '__proto__')) return true;
    const ctor = Object.hasOwn(v, 'constructor') ? (v as Json)['constructor'] : undefined;
    if (typeof ctor === 'object' && ctor !== null && Object.hasOwn(ctor, 'prototype')) return true;
    for (const key of Object.keys(v)) stack.push((v as Json)[key]);
  }
  return false;
}

describe('nothing returned pollutes a prototype', () => {
  test('data and error fields merged by spread, Object.assign and a recursive merge leave every prototype as it was', () => {
    fc.assert(
      fc.property(
        mutatedPayload,
        fc.nat(),
        injection,
        fc.constantFrom(...carriers),
        fc.boolean(),
        ({ fixture, payload }, at, how, carrier, poison) => {
          const fresh = JSON.parse(JSON.stringify(payload)) as Json; // fast-check may hand the same value to several runs
          const input = carry(carrier, poison ? inject(fresh, at, how) : fresh, how);
          const result = safeDecode(fixture.task, input, carrier === 'payload' ? { transport: 'payload' } : {});
          for (const got of received(result)) {
            if (typeof got !== 'object' || got === null) continue;
            void { ...got };
            Object.assign({}, got);
            deepMerge({}, got);
            deepMerge({}, JSON.parse(JSON.stringify(got)) as unknown);
          }
          assertPrototypesClean();
          // Stronger than any one merge: an injected key that the input still carries (JSON text
          // drops non-enumerable members and arrays' named members) never reaches the caller.
          if (carriesPrototypeKey(input)) expect(result.success).toBe(false);
        },
      ),
      runs(400),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The extractors against a model written from the spec pages

const MAX = 200;

/**
 * mcp-response-extraction.md's algorithm, as written there, with this package's documented
 * choices: the size limit counts UTF-8 bytes; a text item whose JSON holds a prototype key is
 * hostile and throws (rather than being skipped); content must be an array and items objects.
 */
function mcpModel(response: Json, maxBytes: number): Json | null | 'unsafe' {
  if (response['isError']) return null;
  const sc = response['structuredContent'];
  if (sc != null && typeof sc === 'object' && !Array.isArray(sc)) {
    const keys = Object.keys(sc);
    if (keys.length === 1 && keys[0] === 'adcp_error') return null;
    // Returned as a plain copy, which refuses prototype keys as decode() does.
    return hasPrototypeKey(sc) ? 'unsafe' : (sc as Json);
  }
  const content = response['content'];
  if (Array.isArray(content)) {
    for (const item of content) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
      if ((item as Json)['type'] !== 'text' || typeof (item as Json)['text'] !== 'string') continue;
      const text = (item as Json)['text'] as string;
      if (Buffer.byteLength(text, 'utf8') > maxBytes) continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        continue;
      }
      if (hasPrototypeKey(parsed)) return 'unsafe';
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        const keys = Object.keys(parsed);
        if (keys.length === 1 && keys[0] === 'adcp_error') continue;
        return parsed as Json;
      }
    }
  }
  return null;
}

/** An own `__proto__` key, or a `constructor` object with an own `prototype`, anywhere in the value. */
function hasPrototypeKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return Object.keys(value).some((key) => {
    const child = (value as Json)[key];
    if (key === '__proto__') return true;
    if (key === 'constructor' && typeof child === 'object' && child !== null && Object.hasOwn(child, 'prototype')) return true;
    return hasPrototypeKey(child);
  });
}

const FINAL = ['completed', 'failed', 'canceled', 'rejected'];
const INTERIM = ['working', 'submitted', 'input-required', 'auth-required'];
const ENVELOPES = ['task', 'message', 'statusUpdate', 'artifactUpdate'];

/**
 * a2a-response-extraction.mdx's algorithm, as its prose states it: unwrap one envelope (a nested
 * envelope is null), ASCII-only lowercasing, DataPart = a non-null non-array object `data`, the
 * last DataPart of artifacts[0] for final states (a `{ response: {...} }` wrapper throws) with
 * the status message as fallback, the first DataPart of the status message for interim states.
 * This package's documented choice on top: a scanned parts list holding a Part with more than one
 * content field is malformed (null), as A2A 1.0 §4.1.6 allows.
 */
function a2aModel(input: unknown): Json | null | 'wrapper' {
  const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObj(input)) return null;
  let task: Json = input;
  const keys = Object.keys(input);
  if (keys.length === 1 && ENVELOPES.includes(keys[0]!) && isObj(input[keys[0]!])) {
    task = input[keys[0]!] as Json;
    if (Object.keys(task).some((k) => ENVELOPES.includes(k))) return null;
  }
  const raw = isObj(task['status']) ? task['status']['state'] : undefined;
  if (typeof raw !== 'string') return null;
  const state = raw
    .replace(/^TASK_STATE_/, '')
    .replace(/[A-Z]/g, (c) => c.toLowerCase())
    .replace(/_/g, '-');
  const fields = (p: Json): number => ['text', 'raw', 'url', 'data', 'file'].filter((f) => p[f] !== undefined && p[f] !== null).length;
  const isDataPart = (p: unknown): p is { data: Json } => isObj(p) && isObj(p['data']) && fields(p) === 1;
  const malformed = (parts: unknown[]): boolean => parts.some((p) => isObj(p) && fields(p) > 1);
  const fromMessage = (): Json | null => {
    const message = isObj(task['status']) ? task['status']['message'] : undefined;
    const parts = isObj(message) ? message['parts'] : undefined;
    if (!Array.isArray(parts) || malformed(parts)) return null;
    return parts.find(isDataPart)?.data ?? null;
  };
  if (FINAL.includes(state)) {
    const artifacts = task['artifacts'];
    const artifact = Array.isArray(artifacts) ? artifacts[0] : undefined;
    const parts = isObj(artifact) ? artifact['parts'] : undefined;
    if (Array.isArray(parts)) {
      if (malformed(parts)) return null;
      const dataParts = parts.filter(isDataPart);
      const last = dataParts[dataParts.length - 1];
      if (last !== undefined) {
        const k = Object.keys(last.data);
        if (k.length === 1 && k[0] === 'response' && isObj(last.data['response'])) return 'wrapper';
        return last.data;
      }
    }
    return fromMessage();
  }
  if (INTERIM.includes(state)) return fromMessage();
  return null;
}

const smallJson = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const smallObject = fc.dictionary(
  fc.oneof(fc.constantFrom('adcp_error', 'response', 'status', 'products'), fc.string({ maxLength: 6 })),
  smallJson,
  { maxKeys: 3 },
);

const mcpText = fc.oneof(
  smallObject.map((o) => JSON.stringify(o)),
  smallJson.map((v) => JSON.stringify(v)),
  fc.constantFrom(
    'Done.',
    '',
    '{',
    '[1,',
    '\uFEFF{}',
    ' {"a":1} ',
    '{"adcp_error":{"code":"X"}}',
    '{"__proto__":{}}',
    '[{"__proto__":1}]',
    '{"a":{"constructor":{"prototype":{}}}}',
    '{"constructor":1}',
    'null',
    '"{}"',
  ),
  fc.string({ unit: 'grapheme', maxLength: 90 }).map((s) => JSON.stringify({ s })),
  fc.string({ maxLength: 20 }),
);

const mcpEnvelope: fc.Arbitrary<Json> = fc.record(
  {
    isError: fc.constantFrom(true, false, 'false', '', 0, 1, null, undefined),
    structuredContent: fc.oneof(smallObject, fc.constant({ adcp_error: { code: 'X' } }), fc.constant({}), smallJson),
    content: fc.oneof(
      fc.array(
        fc.oneof(
          { weight: 5, arbitrary: mcpText.map((text) => ({ type: 'text', text })) },
          { weight: 1, arbitrary: fc.oneof(smallJson, fc.record({ type: fc.constantFrom('image', 'resource', 'text'), text: smallJson })) },
        ),
        { maxLength: 4 },
      ),
      smallJson,
    ),
  },
  { requiredKeys: [] },
);

const a2aState = fc.oneof(
  fc.constantFrom(...FINAL, ...INTERIM, ...[...FINAL, ...INTERIM].map((s) => `TASK_STATE_${s.toUpperCase().replace('-', '_')}`)),
  fc.constantFrom(
    'TASK_STATE_CANCELLED',
    'cancelled',
    'Completed',
    'COMPLETED',
    'WOR\u212AING',
    'input_required',
    'TASK_STATE_',
    '',
    'unknown',
  ),
  smallJson,
);
const part = fc.oneof(
  smallObject.map((data) => ({ data })),
  smallObject.map((data) => ({ kind: 'data', data })),
  smallObject.map((data) => ({ data: { response: data } })),
  smallObject.map((data) => ({ data, text: 'also text' })),
  fc.constantFrom(
    { text: 'progress' },
    { kind: 'text', text: 'x' },
    { data: null },
    { data: [] },
    { data: 'x' },
    { url: 'https://x', data: null },
    { data: { response: null } },
    null,
    'part',
  ),
);
const parts = fc.oneof({ weight: 5, arbitrary: fc.array(part, { maxLength: 4 }) }, { weight: 1, arbitrary: smallJson });
const a2aTask: fc.Arbitrary<Json> = fc.record(
  {
    id: fc.constant('t-1'),
    status: fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record({ state: a2aState, message: fc.oneof(fc.record({ parts }), smallJson) }, { requiredKeys: ['state'] }),
      },
      { weight: 1, arbitrary: smallJson },
    ),
    artifacts: fc.oneof(fc.array(fc.oneof(fc.record({ parts }), smallJson), { maxLength: 2 }), smallJson),
  },
  { requiredKeys: [] },
);
const a2aInput: fc.Arbitrary<unknown> = fc.oneof(
  a2aTask,
  fc.tuple(fc.constantFrom(...ENVELOPES), a2aTask).map(([k, t]) => ({ [k]: t })),
  fc.tuple(fc.constantFrom(...ENVELOPES), fc.constantFrom(...ENVELOPES), a2aTask).map(([k, j, t]) => ({ [k]: { [j]: t } })),
  fc.tuple(a2aTask, smallJson).map(([t, extra]) => ({ task: t, extra })),
  smallJson,
);

describe('the extractors agree with a model of the spec', () => {
  test('MCP success extraction', () => {
    fc.assert(
      fc.property(mcpEnvelope, fc.oneof(fc.constant(MAX), fc.integer({ min: 1, max: 60 })), (response, maxBytes) => {
        const expected = mcpModel(response, maxBytes);
        let got: unknown;
        try {
          got = extractMcpResponse(response, { maxBytes });
        } catch (error) {
          expect(error).toBeInstanceOf(DecodeError);
          got = (error as DecodeError).code === 'UNSAFE_JSON' ? 'unsafe' : (error as DecodeError).code;
        }
        expect(got).toEqual(expected);
        // structuredContent comes back as a plain copy, never the seller's object itself.
        if (expected !== null && expected === response['structuredContent']) expect(got).not.toBe(expected);
      }),
      runs(1000),
    );
  });

  test('A2A extraction', () => {
    fc.assert(
      fc.property(a2aInput, (input) => {
        const expected = a2aModel(input);
        let got: unknown;
        try {
          got = extractA2aResponse(input);
        } catch (error) {
          expect(error).toBeInstanceOf(DecodeError);
          got = (error as DecodeError).code === 'WRAPPER_DETECTED' ? 'wrapper' : (error as DecodeError).code;
        }
        // A plain copy of the DataPart's data, never the object itself; prototype keys refused as decode() does.
        if (typeof expected === 'object' && expected !== null && hasPrototypeKey(expected)) expect(got).toBe('UNSAFE_JSON');
        else expect(got).toEqual(expected);
        if (typeof expected === 'object' && expected !== null) expect(got).not.toBe(expected);
      }),
      runs(1000),
    );
  });
});
