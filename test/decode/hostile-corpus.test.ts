/**
 * The hostile corpus: inputs a malicious or broken seller (or a hostile in-process object) can
 * hand to decode(), each with the outcome pinned: the DecodeError `code` (and where it matters
 * the `path`), or `decoded` with what the caller gets. Big inputs (100,000 levels, a million keys,
 * 4 MiB + 1 bytes) are built here, at test time; nothing large is stored in the repository.
 *
 * Documented choices pinned here:
 * - A key repeated in one object of a text item is refused (DUPLICATE_KEY, at the first repeat):
 *   JSON.parse would keep the last value, another reader the first (security.mdx, step 14's class).
 * - Lone surrogates are accepted as sent; they count 3 UTF-8 bytes (U+FFFD) against maxBytes.
 * - Numbers: past double precision they are rounded (`2^53 + 1` → `2^53`), below the smallest
 *   double they become 0; past the double range (`1e400`) JSON.parse yields Infinity, which is not
 *   JSON data and is refused (MALFORMED_ENVELOPE) rather than handed back as `null`-to-be.
 * - A circular value is MALFORMED_ENVELOPE (not JSON data), with every bound lifted too.
 */

import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test, vi } from 'vitest';
import { type DecodeOptions, safeDecode, type TaskName } from '../../src/decode/decode.js';
import { DecodeError, type DecodeErrorCode, LimitError, type SchemaMismatchError, type TaskFailedError } from '../../src/errors/errors.js';
import { claimedArray, revokedProxy, throwingGetter, throwingProxy } from '../fixtures/hostile-values.js';
import { payload } from '../fixtures/payloads.js';

type Json = Record<string, unknown>;
type Outcome = DecodeErrorCode | 'decoded';

interface Case {
  readonly name: string;
  readonly input: () => unknown;
  readonly code: Outcome;
  readonly task?: TaskName;
  readonly options?: DecodeOptions;
  /** The error's JSON Pointer, when one place is to blame. */
  readonly path?: string;
  /** Further checks on what the caller got. */
  readonly then?: (got: { data?: unknown; error?: DecodeError }) => void;
}

const MiB = 1024 * 1024;
/** OSC 52: a terminal that honours it puts the base64 payload (`hi`) on the clipboard. */
const OSC52 = '\u001b]52;c;aGk=\u0007';
const base = (): Json => payload('3.1/list_accounts.valid');
const text = (t: unknown): Json => ({ content: [{ type: 'text', text: t }] });
const structured = (p: unknown): Json => ({ content: [{ type: 'text', text: 'Done.' }], structuredContent: p });
const a2a = (data: unknown, state = 'TASK_STATE_COMPLETED'): Json => ({
  task: { id: 't', status: { state }, artifacts: [{ parts: [{ data }] }] },
});
/** The base payload's JSON with `extra` members spliced in after `{`, as raw text. */
const splice = (extra: string): string => `{${extra},${JSON.stringify(base()).slice(1)}`;
const withExt = (ext: unknown): Json => ({ ...base(), ext });

function nestArrays(depth: number, leaf: unknown = 1): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}
function nestObjects(depth: number, leaf: unknown = 1): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}
/** Defines an own property the way JSON.parse would, bypassing any `__proto__` setter. */
function own<T extends object>(target: T, key: string, value: unknown, enumerable = true): T {
  return Object.defineProperty(target, key, { value, enumerable, writable: true, configurable: true });
}
/** A million own keys, "0" to "999999" (integer-like keys build in 0.3 s; "k0"... would take 10 s). */
function millionKeys(): Json {
  const o: Json = {};
  for (let i = 0; i < 1_000_000; i++) o[i] = 0;
  return o;
}
/** 2^levels values reachable from `levels` objects: a tree that exists only in memory. */
function sharedTree(levels: number): unknown {
  let node: unknown = 'leaf';
  for (let i = 0; i < levels; i++) node = [node, node];
  return node;
}

/** An object whose getter answers `first` once and `later` every time after, counting its calls. */
function turncoat(key: string, first: unknown, later: unknown): { value: Json; calls: () => number } {
  let calls = 0;
  const value = Object.defineProperty({}, key, {
    enumerable: true,
    get() {
      calls++;
      return calls === 1 ? first : later;
    },
  }) as Json;
  return { value, calls: () => calls };
}
const pollutingProto = (): unknown => JSON.parse('{"__proto__":{"polluted":true}}');

const cases: Record<string, readonly Case[]> = {
  'prototype keys': [
    {
      name: '__proto__ as an own key in a text item',
      input: () => text(splice('"__proto__":{"polluted":true}')),
      code: 'UNSAFE_JSON',
      path: '/content/0/text',
    },
    {
      name: '__proto__ spelled \\u005f_proto__ in a text item',
      input: () => text(splice('"\\u005f_proto__":{"polluted":true}')),
      code: 'UNSAFE_JSON',
    },
    {
      name: '__proto__ fully escaped in a text item',
      input: () => text(splice('"\\u005F\\u005F\\u0070roto\\u005f\\u005f" : {"polluted":true}')),
      code: 'UNSAFE_JSON',
    },
    {
      name: 'constructor.prototype in a text item',
      input: () => text(splice('"ext":{"constructor":{"prototype":{"polluted":true}}}')),
      code: 'UNSAFE_JSON',
    },
    {
      name: '__proto__ nested 60 levels deep (arrays and objects) in a text item',
      input: () => text(splice(`"ext":${'{"a":['.repeat(30)}{"__proto__":{"polluted":true}}${']}'.repeat(30)}`)),
      code: 'UNSAFE_JSON',
    },
    {
      name: 'constructor.prototype at the bottom of 100,000 levels in a text item (found before the depth bound)',
      input: () => text(splice(`"ext":${'['.repeat(100_000)}{"constructor":{"prototype":{}}}${']'.repeat(100_000)}`)),
      code: 'UNSAFE_JSON',
    },
    {
      name: '__proto__ as an own key of structuredContent',
      input: () => structured(JSON.parse(splice('"__proto__":{"polluted":true}'))),
      code: 'UNSAFE_JSON',
      path: '/__proto__',
    },
    {
      name: '__proto__ nested at depth 40 in structuredContent',
      input: () => structured(withExt(nestObjects(38, JSON.parse('{"__proto__":{"polluted":true}}')))),
      code: 'UNSAFE_JSON',
      path: `/ext${'/a'.repeat(38)}/__proto__`,
    },
    {
      name: 'constructor.prototype in structuredContent',
      input: () => structured(withExt(JSON.parse('{"constructor":{"prototype":{"polluted":true}}}'))),
      code: 'UNSAFE_JSON',
      path: '/ext/constructor',
    },
    {
      name: '__proto__ as an own property of an array',
      input: () => structured(withExt({ list: own([1, 2], '__proto__', { polluted: true }) })),
      code: 'UNSAFE_JSON',
      path: '/ext/list/__proto__',
    },
    {
      name: 'constructor.prototype as an own property of an array',
      input: () => structured(withExt([own([], 'constructor', { prototype: { polluted: true } })])),
      code: 'UNSAFE_JSON',
      path: '/ext/0/constructor',
    },
    {
      name: 'a named member of an array, holding __proto__ (invisible to JSON, not to a for...in merge)',
      input: () =>
        structured(withExt({ list: Object.assign([1, 2], { extra: JSON.parse('{"__proto__":{"polluted":true}}') as unknown }) })),
      code: 'MALFORMED_ENVELOPE',
      path: '/ext/list/extra',
    },
    {
      name: 'a non-enumerable own __proto__',
      input: () => structured(own(base(), '__proto__', { polluted: true }, false)),
      code: 'UNSAFE_JSON',
      path: '/__proto__',
    },
    {
      name: '__proto__ in A2A DataPart data',
      input: () => a2a(JSON.parse(splice('"__proto__":{"polluted":true}'))),
      code: 'UNSAFE_JSON',
      path: '/__proto__',
    },
    {
      name: '__proto__ in a bare payload',
      input: () => JSON.parse(splice('"__proto__":{"polluted":true}')),
      options: { transport: 'payload' },
      code: 'UNSAFE_JSON',
    },
    {
      name: '__proto__ inside an MCP structuredContent adcp_error',
      input: () => ({
        isError: true,
        content: [],
        structuredContent: { adcp_error: JSON.parse('{"code":"RATE_LIMITED","details":{"__proto__":{"polluted":true}}}') },
      }),
      code: 'UNSAFE_JSON',
      path: '/structuredContent/adcp_error/details/__proto__',
    },
    {
      name: 'constructor.prototype inside a JSON-RPC error.data.adcp_error',
      input: () => ({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32000, message: 'x', data: { adcp_error: JSON.parse('{"code":"X","constructor":{"prototype":{}}}') } },
      }),
      code: 'UNSAFE_JSON',
      path: '/error/data/adcp_error/constructor',
    },
    {
      name: '__proto__ inside an A2A adcp_error DataPart',
      input: () => a2a({ adcp_error: JSON.parse('{"code":"X","__proto__":{"polluted":true}}') }, 'TASK_STATE_FAILED'),
      code: 'UNSAFE_JSON',
      path: '/task/artifacts/0/parts/0/data/adcp_error/__proto__',
    },
    {
      name: 'a constructor key holding plain data, a prototype key, and "__proto__" as a value are just data',
      input: () => text(splice('"ext":{"constructor":"x","prototype":{"a":1},"note":"__proto__"}')),
      code: 'decoded',
    },
  ],
  'claimed sizes (charged before anything is allocated)': [
    {
      name: 'a sparse array claiming 10,000,000 elements in structuredContent',
      input: () => structured(withExt({ a: claimedArray(1e7) })),
      code: 'TOO_LARGE',
      path: '/ext/a',
    },
    {
      name: 'a sparse array claiming 2^32 - 1 elements',
      input: () => structured(withExt({ a: claimedArray(2 ** 32 - 1) })),
      code: 'TOO_LARGE',
      path: '/ext/a',
    },
    {
      name: 'a sparse array claiming 2^32 - 1 elements, maxBytes lifted: the node bound',
      input: () => structured(withExt({ a: claimedArray(2 ** 32 - 1) })),
      options: { maxBytes: Infinity },
      code: 'TOO_MANY_VALUES',
      path: '/ext/a',
    },
    {
      name: 'a sparse array claiming 2^32 - 1 elements, every bound lifted: a hole is not JSON data',
      input: () => structured(withExt({ a: claimedArray(2 ** 32 - 1) })),
      options: { maxBytes: Infinity, maxDepth: Infinity, maxNodes: Infinity },
      code: 'MALFORMED_ENVELOPE',
      path: '/ext/a/0',
    },
    {
      name: 'a sparse array claiming 2^32 - 1 elements with one stored at the end, every bound lifted',
      input: () => {
        const a = claimedArray(2 ** 32 - 1);
        a[2 ** 32 - 2] = 1;
        return a2a(withExt({ a }));
      },
      options: { maxBytes: Infinity, maxDepth: Infinity, maxNodes: Infinity },
      code: 'MALFORMED_ENVELOPE',
      path: '/ext/a/0',
    },
    {
      name: 'a content array claiming 2^32 - 1 items, none stored: scanned by what it holds',
      input: () => ({ content: claimedArray(2 ** 32 - 1) }),
      code: 'NO_PAYLOAD',
    },
    {
      name: 'a content array claiming 2^32 - 1 items with a payload at index 2^32 - 2',
      input: () => {
        const content = claimedArray(2 ** 32 - 1);
        content[2 ** 32 - 2] = { type: 'text', text: JSON.stringify(base()) };
        return { content };
      },
      code: 'decoded',
    },
    {
      name: 'an isError content array claiming 2^32 - 1 items',
      input: () => ({ isError: true, content: claimedArray(2 ** 32 - 1) }),
      code: 'TASK_FAILED',
    },
    {
      name: 'A2A artifacts and parts claiming 2^32 - 1 entries',
      input: () => ({
        task: {
          id: 't',
          status: { state: 'TASK_STATE_COMPLETED', message: { parts: claimedArray(2 ** 32 - 1) } },
          artifacts: Object.assign(claimedArray(2 ** 32 - 1), { 0: { parts: claimedArray(2 ** 32 - 1) } }),
        },
      }),
      code: 'NO_PAYLOAD',
    },
    {
      name: 'new Array(5): five holes',
      input: () => structured(withExt({ a: new Array(5) })),
      code: 'MALFORMED_ENVELOPE',
      path: '/ext/a/0',
    },
    {
      name: 'a Proxy over an empty array claiming 2^32 - 1 elements, every bound lifted: refused after one key listing',
      input: () => structured(withExt({ a: new Proxy([], { get: (t, k) => (k === 'length' ? 2 ** 32 - 1 : Reflect.get(t, k)) }) })),
      options: { maxBytes: Infinity, maxDepth: Infinity, maxNodes: Infinity },
      code: 'MALFORMED_ENVELOPE',
      path: '/ext/a/0',
    },
  ],
  'in-process values: one read, a plain snapshot': [
    {
      name: 'a getter that answers valid data once and a __proto__ object after: read once, its first answer is the data',
      input: () => structured(withExt(turncoat('x', { ok: true }, pollutingProto()).value)),
      code: 'decoded',
      then: ({ data }) => {
        expect((data as Json)['ext']).toEqual({ x: { ok: true } });
        expect(Object.getOwnPropertyDescriptor((data as { ext: object }).ext, 'x')).toMatchObject({
          value: { ok: true },
          writable: true,
          enumerable: true,
        });
      },
    },
    {
      name: 'a getter on the payload root whose second answer is invalid: the checked answer is the returned one',
      input: () => {
        const t = turncoat('accounts', base()['accounts'], 'not a list');
        return structured(Object.assign(t.value, { adcp_version: base()['adcp_version'] }));
      },
      code: 'decoded',
      then: ({ data }) => expect((data as Json)['accounts']).toEqual(base()['accounts']),
    },
    {
      name: 'a Proxy payload whose get trap answers differently each time: each member read once',
      input: () => {
        const reads = new Map<PropertyKey, number>();
        const proxy = new Proxy(base(), {
          get: (target, key, receiver) => {
            reads.set(key, (reads.get(key) ?? 0) + 1);
            return (reads.get(key) ?? 0) > 1 ? pollutingProto() : Reflect.get(target, key, receiver);
          },
        });
        return structured(proxy);
      },
      code: 'decoded',
      then: ({ data }) => expect(data).toEqual(base()),
    },
    {
      name: 'an in-process adcp_error whose getter answers a polluting object after its first read: the TaskFailedError holds a plain copy or none',
      input: () => ({
        isError: true,
        content: [],
        structuredContent: {
          adcp_error: Object.assign(turncoat('details', { reason: 'x' }, pollutingProto()).value, { code: 'RATE_LIMITED' }),
        },
      }),
      code: 'TASK_FAILED',
      then: ({ error }) => {
        const held = (error as TaskFailedError).adcpError;
        if (held !== undefined) {
          expect(Object.getPrototypeOf(held)).toBe(Object.prototype);
          expect(Object.getOwnPropertyDescriptor(held, 'details')).toMatchObject({ writable: true });
          expect(JSON.stringify(held)).not.toContain('polluted');
        }
      },
    },
    {
      name: 'an in-process adcp_error comes back as a plain copy, not the seller object',
      input: () => ({ isError: true, content: [], structuredContent: { adcp_error: { code: 'RATE_LIMITED', retry_after: 5 } } }),
      code: 'TASK_FAILED',
      then: ({ error }) => expect((error as TaskFailedError).adcpError).toEqual({ code: 'RATE_LIMITED', retry_after: 5 }),
    },
    {
      name: 'a symbol-keyed member',
      input: () => structured(withExt({ a: 1, [Symbol('hidden')]: 2 })),
      code: 'MALFORMED_ENVELOPE',
      path: '/ext',
    },
    {
      name: 'a non-enumerable member',
      input: () => structured(withExt(own({ a: 1 }, 'hidden', { polluted: true }, false))),
      code: 'MALFORMED_ENVELOPE',
      path: '/ext/hidden',
    },
    {
      name: 'a non-enumerable member of an array',
      input: () => structured(withExt({ list: own([1], 'hidden', 2, false) })),
      code: 'MALFORMED_ENVELOPE',
      path: '/ext/list/hidden',
    },
    {
      name: 'a symbol-keyed member of an array',
      input: () => structured(withExt({ list: Object.assign([1], { [Symbol('s')]: 2 }) })),
      code: 'MALFORMED_ENVELOPE',
      path: '/ext/list',
    },
    {
      name: 'an Array subclass',
      input: () => {
        class Tracked extends Array<unknown> {}
        return structured(withExt({ list: Tracked.from([1, 2]) }));
      },
      code: 'MALFORMED_ENVELOPE',
      path: '/ext/list',
    },
    {
      name: 'an array with a foreign prototype',
      input: () => structured(withExt({ list: Object.setPrototypeOf([1, 2], { polluted: true }) as unknown })),
      code: 'MALFORMED_ENVELOPE',
      path: '/ext/list',
    },
    {
      name: 'a text getter that is too large on the first read and small after: TOO_LARGE from the one read',
      input: () => ({ content: [Object.assign(turncoat('text', `{"pad":"${'x'.repeat(100)}"}`, '{}').value, { type: 'text' })] }),
      options: { maxBytes: 50 },
      code: 'TOO_LARGE',
      path: '/content/0/text',
    },
    {
      name: 'the caller’s structuredContent object is never returned: a plain copy is',
      input: () => structured(base()),
      code: 'decoded',
      then: ({ data }) => {
        expect(data).toEqual(base());
        expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
      },
    },
  ],
  'depth and size': [
    {
      name: '100,000-deep arrays in a text item',
      input: () => text(splice(`"ext":${'['.repeat(100_000)}${']'.repeat(100_000)}`)),
      code: 'TOO_DEEP',
    },
    {
      name: '100,000-deep objects in a text item',
      input: () => text(splice(`"ext":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`)),
      code: 'TOO_DEEP',
    },
    {
      name: '100,000-deep arrays in structuredContent',
      input: () => structured(withExt(nestArrays(100_000))),
      code: 'TOO_DEEP',
      path: `/ext${'/0'.repeat(63)}`,
    },
    { name: '100,000-deep objects in structuredContent', input: () => structured(withExt(nestObjects(100_000))), code: 'TOO_DEEP' },
    { name: '100,000-deep objects in A2A data', input: () => a2a(withExt(nestObjects(100_000))), code: 'TOO_DEEP' },
    {
      name: '100,000-deep objects as the payload itself',
      input: () => nestObjects(100_000),
      options: { transport: 'payload' },
      code: 'TOO_DEEP',
    },
    {
      name: '100,000 levels with every bound lifted: no stack overflow (the validator never descends into ext)',
      input: () => structured(withExt(nestObjects(100_000))),
      options: { maxDepth: Infinity, maxNodes: Infinity, maxBytes: Infinity },
      code: 'decoded',
    },
    {
      name: '300,000-deep arrays with maxDepth lifted: the node bound, located in one pass',
      input: () => structured(withExt(nestArrays(300_000))),
      options: { maxDepth: Infinity, maxNodes: 100_000 },
      code: 'TOO_MANY_VALUES',
      then: ({ error }) => {
        expect(error).toMatchObject({ unit: 'nodes', limit: 100_000 });
        expect(error?.path).toMatch(/^\/ext(\/0){50000,}$/);
      },
    },
    {
      name: '100,000-deep adcp_error details: the error is discarded unmeasured, the failure stays',
      input: () => ({
        isError: true,
        content: [],
        structuredContent: { adcp_error: { code: 'RATE_LIMITED', details: nestObjects(100_000) } },
      }),
      code: 'TASK_FAILED',
      then: ({ error }) => expect((error as TaskFailedError).adcpError).toBeUndefined(),
    },
    {
      name: 'a million keys in a text item (over 4 MiB, refused unparsed)',
      input: () => text(`{${Array.from({ length: 1_000_000 }, (_, i) => `"${i}":0`).join(',')}}`),
      code: 'TOO_LARGE',
    },
    {
      name: 'a million keys in structuredContent: string volume of the keys',
      input: () => structured(withExt(millionKeys())),
      code: 'TOO_LARGE',
    },
    {
      name: 'a million keys in structuredContent with maxBytes lifted: the node count',
      input: () => structured(withExt(millionKeys())),
      options: { maxBytes: Infinity },
      code: 'TOO_MANY_VALUES',
    },
    {
      name: '4 MiB + 1 bytes in a text item',
      input: () =>
        text(
          JSON.stringify({ ...base(), ext: { pad: '' } }).replace(
            '"pad":""',
            `"pad":"${'x'.repeat(4 * MiB + 1 - JSON.stringify({ ...base(), ext: { pad: '' } }).length)}"`,
          ),
        ),
      code: 'TOO_LARGE',
      then: ({ error }) => expect(error).toMatchObject({ limit: 4 * MiB, actual: 4 * MiB + 1 }),
    },
    {
      name: 'exactly 4 MiB in a text item, ending in a 4-byte character',
      input: () => {
        const empty = JSON.stringify({ ...base(), ext: { pad: '' } });
        return text(empty.replace('"pad":""', `"pad":"${'x'.repeat(4 * MiB - 4 - empty.length)}😀"`));
      },
      code: 'decoded',
    },
    {
      name: '4 MiB + 1 UTF-16 units of strings in structuredContent',
      input: () => structured(withExt({ pad: 'x'.repeat(4 * MiB + 1) })),
      code: 'TOO_LARGE',
    },
    {
      name: 'structuredContent under 4 MiB in UTF-16 units but over it in UTF-8 bytes of compact JSON (1.5 M × €, 3 bytes each): TOO_LARGE, as the same text is',
      input: () => structured(withExt({ pad: '€'.repeat(1.5 * MiB) })),
      code: 'TOO_LARGE',
      then: ({ error }) =>
        expect(error).toMatchObject({
          unit: 'bytes',
          limit: 4 * MiB,
          actual: Buffer.byteLength(JSON.stringify(withExt({ pad: '€'.repeat(1.5 * MiB) }))),
        }),
    },
    {
      name: 'structuredContent exactly at maxBytes as compact JSON, escapes and a lone surrogate included: decoded',
      input: () => structured(withExt({ s: 'a"\\\n\u0001\uD800é' })),
      options: { maxBytes: Buffer.byteLength(JSON.stringify(withExt({ s: 'a"\\\n\u0001\uD800é' }))) },
      code: 'decoded',
    },
    {
      name: 'the same, one byte under: TOO_LARGE with the exact size',
      input: () => structured(withExt({ s: 'a"\\\n\u0001\uD800é' })),
      options: { maxBytes: Buffer.byteLength(JSON.stringify(withExt({ s: 'a"\\\n\u0001\uD800é' }))) - 1 },
      code: 'TOO_LARGE',
      then: ({ error }) =>
        expect(error).toMatchObject({ actual: Buffer.byteLength(JSON.stringify(withExt({ s: 'a"\\\n\u0001\uD800é' }))) }),
    },
    {
      name: 'one 4 MiB string shared by 100 text items: measured once per item, so refused by the scan budget',
      input: () => {
        const big = `[${'0,'.repeat(2 * MiB - 1)}0]`;
        return { content: Array.from({ length: 100 }, () => ({ type: 'text', text: big })) };
      },
      code: 'TOO_LARGE',
    },
    {
      name: 'one text of 1,000,000 nested brackets shared by 100 text items: parsed once, then refused by the scan budget',
      input: () => {
        const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
        return { content: Array.from({ length: 100 }, () => ({ type: 'text', text: deep })) };
      },
      code: 'TOO_LARGE',
    },
    {
      name: 'under isError, one 3 MiB JSON text shared by 100 items: the error scan parses it until its budget (4 × maxBytes) is spent',
      input: () => {
        const big = `[${'0,'.repeat(1.5 * MiB - 1)}0]`;
        return { isError: true, content: Array.from({ length: 100 }, () => ({ type: 'text', text: big })) };
      },
      code: 'TOO_LARGE',
    },
    {
      name: '2^60 values reachable from 60 shared arrays in structuredContent: its compact JSON passes maxBytes first',
      input: () => structured(withExt(sharedTree(60))),
      code: 'TOO_LARGE',
      then: ({ error }) => expect(error).toMatchObject({ unit: 'bytes', limit: 4 * MiB }),
    },
    {
      name: '2^60 values from 60 shared arrays with maxBytes lifted: counted per occurrence up to maxNodes',
      input: () => structured(withExt(sharedTree(60))),
      options: { maxBytes: Infinity },
      code: 'TOO_MANY_VALUES',
      then: ({ error }) => expect(error).toMatchObject({ unit: 'nodes' }),
    },
    {
      name: '2^60 values from 60 shared arrays with maxNodes lifted: a shared reference is refused',
      input: () => structured(withExt(sharedTree(60))),
      options: { maxNodes: Infinity },
      code: 'MALFORMED_ENVELOPE',
      then: ({ error }) => expect(error?.path).toMatch(/^\/ext(\/0)+\/1$/),
    },
    {
      name: 'an adcp_error that would serialize to 2^60 values: discarded, the failure stays',
      input: () => ({ isError: true, content: [], structuredContent: { adcp_error: { code: 'RATE_LIMITED', details: sharedTree(60) } } }),
      code: 'TASK_FAILED',
      then: ({ error }) => expect((error as TaskFailedError).adcpError).toBeUndefined(),
    },
  ],
  'text encoding': [
    { name: 'a BOM before the JSON text', input: () => text(`\uFEFF${JSON.stringify(base())}`), code: 'INVALID_JSON' },
    {
      name: 'a BOM item, then a clean one (skipped, as JSON.parse would)',
      input: () => ({
        content: [
          { type: 'text', text: `\uFEFF${JSON.stringify(base())}` },
          { type: 'text', text: JSON.stringify(base()) },
        ],
      }),
      code: 'decoded',
    },
    { name: 'a BOM inside a string value', input: () => structured(withExt({ s: '\uFEFFx' })), code: 'decoded' },
    {
      name: 'lone surrogates, raw and escaped, in values and keys of a text item',
      input: () => text(splice('"ext":{"raw":"\uD800","esc":"\\uDC00","\uDBFF":1}')),
      code: 'decoded',
      then: ({ data }) => expect((data as Json)['ext']).toEqual({ raw: '\uD800', esc: '\uDC00', '\uDBFF': 1 }),
    },
    { name: 'lone surrogates in structuredContent', input: () => structured(withExt({ s: '\uDFFF\uD800' })), code: 'decoded' },
    {
      name: 'a lone surrogate counts 3 UTF-8 bytes against maxBytes',
      input: () => text(splice('"ext":{"s":"\uD800"}')),
      options: { maxBytes: Buffer.byteLength(splice('"ext":{"s":"\uD800"}')) - 1 },
      code: 'TOO_LARGE',
      then: ({ error }) => expect(error).toMatchObject({ actual: Buffer.byteLength(splice('"ext":{"s":"\uD800"}')) }),
    },
    {
      name: 'a repeated status: refused, not read as the last one',
      input: () => text(splice('"status":"failed","status":"completed"')),
      code: 'DUPLICATE_KEY',
      path: '/content/0/text/status',
    },
    {
      name: 'a repeated key after a valid value: refused, not judged on the invalid one',
      input: () => text(JSON.stringify(base()).replace(/}$/, ',"accounts":"none"}')),
      code: 'DUPLICATE_KEY',
      path: '/content/0/text/accounts',
    },
    {
      name: 'a repeated key spelled with an escape, deep in an array',
      input: () => text(splice('"ext":{"list":[{"id":1},{"id":2,"i\\u0064":3}]}')),
      code: 'DUPLICATE_KEY',
      path: '/content/0/text/ext/list/1/id',
    },
    {
      name: 'a repeated key in structuredContent cannot be seen: the MCP client parsed it (last wins) before decode',
      input: () => structured(JSON.parse(splice('"status":"failed","status":"completed"'))),
      code: 'decoded',
      then: ({ data }) => expect((data as Json)['status']).toBe('completed'),
    },
    { name: 'a duplicated __proto__ key', input: () => text(splice('"__proto__":{},"__proto__":{"polluted":true}')), code: 'UNSAFE_JSON' },
  ],
  numbers: [
    {
      name: '1e400 (past the double range) in a text item',
      input: () => text(splice('"ext":{"n":1e400}')),
      code: 'MALFORMED_ENVELOPE',
      path: '/ext/n',
    },
    {
      name: '-1e400 where the schema wants an integer',
      input: () => text(JSON.stringify(base()).replace('"total_count":2', '"total_count":-1e400')),
      code: 'MALFORMED_ENVELOPE',
      path: '/pagination/total_count',
    },
    {
      name: '2^53 + 1 is rounded to 2^53, as JSON.parse does',
      input: () => text(splice('"ext":{"n":9007199254740993}')),
      code: 'decoded',
      then: ({ data }) => expect((data as { ext: { n: number } }).ext.n).toBe(2 ** 53),
    },
    {
      name: 'a 30-digit integer is rounded',
      input: () => text(splice('"ext":{"n":123456789012345678901234567890}')),
      code: 'decoded',
      then: ({ data }) => expect((data as { ext: { n: number } }).ext.n).toBe(1.2345678901234568e29),
    },
    {
      name: '1e-400 underflows to 0',
      input: () => text(splice('"ext":{"n":1e-400}')),
      code: 'decoded',
      then: ({ data }) => expect((data as { ext: { n: number } }).ext.n).toBe(0),
    },
    {
      name: 'Infinity in structuredContent',
      input: () => structured(withExt({ n: Infinity })),
      code: 'MALFORMED_ENVELOPE',
      path: '/ext/n',
    },
    { name: 'NaN in structuredContent', input: () => structured(withExt({ n: NaN })), code: 'MALFORMED_ENVELOPE', path: '/ext/n' },
    { name: 'a BigInt in structuredContent', input: () => structured(withExt({ n: 10n })), code: 'MALFORMED_ENVELOPE', path: '/ext/n' },
  ],
  'values JSON cannot hold': [
    { name: 'undefined', input: () => structured(withExt({ u: undefined })), code: 'MALFORMED_ENVELOPE', path: '/ext/u' },
    { name: 'a function', input: () => structured(withExt({ f: () => 1 })), code: 'MALFORMED_ENVELOPE', path: '/ext/f' },
    { name: 'a symbol', input: () => structured(withExt({ s: Symbol('s') })), code: 'MALFORMED_ENVELOPE', path: '/ext/s' },
    { name: 'a Map', input: () => structured(withExt({ m: new Map() })), code: 'MALFORMED_ENVELOPE', path: '/ext/m' },
    { name: 'a sparse array hole', input: () => structured(withExt({ a: [1, , 3] })), code: 'MALFORMED_ENVELOPE', path: '/ext/a/1' },
    {
      name: 'an object with a class prototype',
      input: () => structured(withExt({ o: Object.create({ inherited: true }) as object })),
      code: 'MALFORMED_ENVELOPE',
      path: '/ext/o',
    },
  ],
  'envelope shapes': [
    { name: 'content that is a string', input: () => ({ content: 'not an array' }), code: 'MALFORMED_ENVELOPE' },
    {
      name: 'content that is a string, with transport mcp',
      input: () => ({ content: 'not an array' }),
      options: { transport: 'mcp' },
      code: 'NO_PAYLOAD',
    },
    {
      name: 'content that is an object with index keys',
      input: () => ({ content: { 0: { type: 'text', text: '{}' } }, structuredContent: null }),
      code: 'NO_PAYLOAD',
    },
    { name: 'content that is null', input: () => ({ content: null, isError: false }), code: 'NO_PAYLOAD' },
    { name: 'items that are not objects', input: () => ({ content: [1, 'text', null, [], true, undefined] }), code: 'NO_PAYLOAD' },
    {
      name: 'text that is not a string',
      input: () => ({
        content: [{ type: 'text', text: 5 }, { type: 'text', text: null }, { type: 'text', text: { a: 1 } }, { type: 'text' }],
      }),
      code: 'NO_PAYLOAD',
    },
    {
      name: 'a JSON text in an item whose type is not text',
      input: () => ({ content: [{ type: 'resource', text: JSON.stringify(base()) }] }),
      code: 'NO_PAYLOAD',
    },
    { name: 'structuredContent that is an array', input: () => ({ content: [], structuredContent: [base()] }), code: 'NO_PAYLOAD' },
    {
      name: 'isError given as the string "false" (truthy, as the spec says)',
      input: () => ({ ...structured(base()), isError: 'false' }),
      code: 'TASK_FAILED',
    },
    { name: 'isError given as the string "true"', input: () => ({ ...structured(base()), isError: 'true' }), code: 'TASK_FAILED' },
    { name: 'isError given as the empty string (falsy)', input: () => ({ ...structured(base()), isError: '' }), code: 'decoded' },
    { name: 'isError given as 0', input: () => ({ ...structured(base()), isError: 0 }), code: 'decoded' },
    { name: 'isError given as an empty object', input: () => ({ ...structured(base()), isError: {} }), code: 'TASK_FAILED' },
    {
      name: 'an A2A part with two content fields',
      input: () => ({ task: { status: { state: 'completed' }, artifacts: [{ parts: [{ text: 'x', data: base() }] }] } }),
      code: 'MALFORMED_ENVELOPE',
    },
    { name: 'a nested A2A envelope', input: () => ({ task: { task: a2a(base())['task'] } }), code: 'MALFORMED_ENVELOPE' },
    { name: 'an A2A state spelled with the Kelvin sign', input: () => a2a(base(), 'WOR\u212AING'), code: 'MALFORMED_ENVELOPE' },
    { name: 'an A2A { response } wrapper', input: () => a2a({ response: base() }), code: 'WRAPPER_DETECTED' },
    {
      name: 'A2A parts that are not an array',
      input: () => ({ task: { status: { state: 'completed' }, artifacts: [{ parts: { 0: { data: base() } } }] } }),
      code: 'NO_PAYLOAD',
    },
  ],
  'task names': [
    {
      name: 'constructor as the task (inherited by every object, not a task)',
      task: 'constructor' as TaskName,
      input: () => structured(base()),
      code: 'UNKNOWN_TASK',
    },
    { name: '__proto__ as the task', task: '__proto__' as TaskName, input: () => structured(base()), code: 'UNKNOWN_TASK' },
    {
      name: 'toString as the task, with a version pinned',
      task: 'toString' as TaskName,
      input: () => structured(base()),
      options: { version: '3.1' },
      code: 'UNKNOWN_TASK',
    },
  ],
  'objects that fight back': [
    {
      name: 'a getter that throws inside structuredContent',
      input: () => structured(withExt(throwingGetter('boom'))),
      code: 'MALFORMED_ENVELOPE',
      path: '/ext/boom',
    },
    {
      name: 'a getter that throws on the envelope',
      input: () => throwingGetter('structuredContent'),
      code: 'MALFORMED_ENVELOPE',
      path: '/structuredContent',
    },
    {
      name: 'a getter that throws on a content item',
      input: () => ({ content: [throwingGetter('type')] }),
      code: 'MALFORMED_ENVELOPE',
      path: '/content/0',
    },
    {
      name: 'a getter that throws a hostile Proxy',
      input: () => structured(withExt(throwingGetter('boom', throwingProxy()))),
      code: 'MALFORMED_ENVELOPE',
      path: '/ext/boom',
    },
    { name: 'a hostile Proxy as the input', input: () => throwingProxy(), code: 'MALFORMED_ENVELOPE' },
    { name: 'a hostile Proxy as structuredContent', input: () => structured(throwingProxy()), code: 'MALFORMED_ENVELOPE' },
    { name: 'a hostile Proxy inside A2A data', input: () => a2a(withExt(throwingProxy())), code: 'MALFORMED_ENVELOPE' },
    {
      name: 'a revoked Proxy inside structuredContent',
      input: () => structured(withExt({ r: revokedProxy() })),
      code: 'MALFORMED_ENVELOPE',
      path: '/ext/r',
    },
  ],
  // Issue 11: payloads that cost the validators more than their size, checked for outcome here
  // (test/validate/complexity.test.ts counts the work, test/validate/issue-listing.test.ts the sizes).
  'cost classes': [
    {
      name: 'a valid get_products with a 2 MiB `~/` map key over 260,000 items (quadratic pointer escaping)',
      task: 'get_products',
      input: () => {
        const p = payload('3.1/get_products.valid');
        p['filter_diagnostics'] = { excluded_by: { ['~/'.repeat(MiB)]: { count: 1, values: Array.from({ length: 260_000 }, () => 'a') } } };
        return text(JSON.stringify(p));
      },
      code: 'decoded',
    },
    {
      name: 'a 512 KiB map key over 30,000 bad items (an issue listing as a memory bomb)',
      task: 'get_products',
      input: () => {
        const p = payload('3.1/get_products.valid');
        p['filter_diagnostics'] = {
          excluded_by: { ['~'.repeat(512 * 1024)]: { count: 1, values: Array.from({ length: 30_000 }, () => 1) } },
        };
        return structured(p);
      },
      code: 'SCHEMA_MISMATCH',
      then: ({ error }) => {
        const mismatch = error as SchemaMismatchError;
        expect(mismatch.issuesComplete).toBe(false);
        expect(JSON.stringify(mismatch.issues).length).toBeLessThan(16 * MiB);
      },
    },
    {
      name: 'bidi, C1, line-separator and zero-width characters in map keys',
      task: 'get_products',
      input: () => {
        const p = payload('3.1/get_products.valid');
        p['filter_diagnostics'] = { excluded_by: { '\u202e\u009b\u2028\u200b': { count: -1 } } };
        return structured(p);
      },
      code: 'SCHEMA_MISMATCH',
      then: ({ error }) =>
        expect((error as SchemaMismatchError).issues[0]?.path).toBe('/filter_diagnostics/excluded_by/\u202e\u009b\u2028\u200b/count'),
    },
  ],
  'circular values': [
    {
      name: 'structuredContent that contains itself',
      input: () => {
        const p = base();
        p['self'] = p;
        return structured(p);
      },
      code: 'MALFORMED_ENVELOPE',
    },
    {
      name: 'a cycle through an array, with every bound lifted (no hang)',
      input: () => {
        const p = base();
        const list: unknown[] = [{ back: null }];
        (list[0] as Json)['back'] = list;
        p['ext'] = { list };
        return structured(p);
      },
      options: { maxDepth: Infinity, maxNodes: Infinity, maxBytes: Infinity },
      code: 'MALFORMED_ENVELOPE',
    },
    {
      name: 'a circular adcp_error: discarded as unserializable, the failure stays',
      input: () => {
        const adcpError: Json = { code: 'RATE_LIMITED' };
        adcpError['self'] = adcpError;
        return { isError: true, content: [], structuredContent: { adcp_error: adcpError } };
      },
      code: 'TASK_FAILED',
      then: ({ error }) => expect((error as TaskFailedError).adcpError).toBeUndefined(),
    },
    {
      name: 'a content array that contains itself',
      input: () => {
        const content: unknown[] = [];
        content.push(content, { type: 'text', text: 'Done.' });
        return { content };
      },
      code: 'NO_PAYLOAD',
    },
  ],
  // Faults of the caller or of adcp-decode are never blamed on the seller (test/decode/blame.test.ts).
  'not the seller’s doing': [
    {
      name: 'a DecodeError handed back in (a LimitError the bounded fetch raised)',
      input: () => new LimitError('TOO_LARGE', 'body is over 1024 bytes', { unit: 'bytes', limit: 1024, actual: 1025 }),
      code: 'TOO_LARGE',
      then: ({ error }) => expect(error).toMatchObject({ task: undefined, message: 'body is over 1024 bytes' }),
    },
    { name: 'a Promise (a forgotten await)', input: () => Promise.resolve(structured(base())), code: 'INVALID_INPUT' },
    {
      name: "the MCP SDK client's own request timeout",
      input: () => McpError.fromError(-32001, 'Request timed out', { timeout: 60_000 }),
      code: 'TIMEOUT',
    },
    {
      name: "a seller's JSON-RPC error -32001 in the SDK's own words",
      input: () => ({ jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'Request timed out', data: { timeout: 60_000 } } }),
      code: 'TASK_FAILED',
    },
    {
      name: 'a 3.0 error-only answer whose arm forbids status (valid as sent)',
      task: 'acquire_rights',
      input: () =>
        structured(JSON.parse(readFileSync(new URL('../fixtures/no-status/3.0/acquire_rights.errors.json', import.meta.url), 'utf8'))),
      code: 'decoded',
    },
    {
      name: "a payload announcing a newer release of a bundled major: not loaded, the configuration's",
      input: () => structured({ ...base(), adcp_version: '3.7' }),
      code: 'RELEASE_NOT_LOADED',
    },
    {
      name: 'a payload announcing a newer release of a bundled major, judged by the newest bundled one on request',
      input: () => structured({ ...base(), adcp_version: '3.7' }),
      options: { newerRelease: 'newest' },
      code: 'decoded',
    },
    {
      name: 'a payload announcing an unbundled major: not loaded',
      input: () => structured({ ...base(), adcp_version: '4.0' }),
      code: 'RELEASE_NOT_LOADED',
    },
  ],
  'terminal and log injection (seller text is shown escaped, every message bounded)': [
    {
      name: 'a top-level key named with OSC 52 (writes the clipboard) and ending in _id: decoded; the message-free data keeps it',
      input: () => structured({ ...base(), [`${OSC52}_id`]: 'acc_1' }),
      code: 'decoded',
      then: ({ data }) => expect(Object.keys(data as Json)).toContain(`${OSC52}_id`),
    },
    {
      name: 'a U+202E (right-to-left override) key where a schema issue points',
      task: 'get_products',
      input: () =>
        structured({
          ...payload('3.1/get_products.valid'),
          filter_diagnostics: { semantics: 'only', excluded_by: { 'evil\u202e': { notes: 'x' } } },
        }),
      code: 'SCHEMA_MISMATCH',
      then: ({ error }) => {
        expect(error?.message).not.toMatch(/[\u202e]/);
        expect(error?.message).toContain('/filter_diagnostics/excluded_by/evil\\u202e');
      },
    },
    {
      name: 'a U+009B (C1 CSI) and U+2028 in an adcp_error code',
      input: () => ({
        isError: true,
        content: [],
        structuredContent: { adcp_error: { code: 'RATE\u009b2J\u2028LIMITED', recovery: 'transient' } },
      }),
      code: 'TASK_FAILED',
      then: ({ error }) => expect(error?.message).toContain('error code "RATE\\u009b2J\\u2028LIMITED"'),
    },
    {
      name: 'an adcp_error with __proto__ under a 100,000-character hostile key: the message shows both ends of the pointer, escaped',
      input: () => ({
        isError: true,
        content: [],
        structuredContent: {
          adcp_error: JSON.parse(
            `{"code":"X",${JSON.stringify(`${OSC52}${'k'.repeat(100_000)}\u202e`)}:{"__proto__":{"polluted":true}}}`,
          ) as unknown,
        },
      }),
      code: 'UNSAFE_JSON',
      path: `/structuredContent/adcp_error/${OSC52}${'k'.repeat(100_000)}\u202e/__proto__`,
      then: ({ error }) => {
        expect(error?.message.length).toBeLessThan(250);
        expect(error?.message).toMatch(
          / at \/structuredContent\/adcp_error\/\\u001b\]52;c;aGk=\\u0007k+…k+\\u202e\/__proto__, but found one$/,
        );
      },
    },
    {
      name: 'an announced adcp_version holding a bidi isolate and a zero-width space',
      input: () => structured({ ...base(), adcp_version: '3.1\u2066\u200b' }),
      code: 'UNSUPPORTED_VERSION',
      then: ({ error }) => expect(error?.message).toContain('"3.1\\u2066\\u200b"'),
    },
  ],
};

function run(c: Case): { data?: unknown; error?: DecodeError } {
  const result = safeDecode(c.task ?? 'list_accounts', c.input(), c.options);
  return result.success ? { data: result.data } : { error: result.error };
}

describe.each(Object.entries(cases))('%s', (_group, list) => {
  test.each(list.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const got = run(c);
    if (c.code === 'decoded') {
      expect(got.error?.message).toBeUndefined();
    } else {
      expect(got.error).toBeInstanceOf(DecodeError);
      expect(got.error?.code).toBe(c.code);
      if (c.path !== undefined) expect(got.error?.path).toBe(c.path);
    }
    c.then?.(got);
  });
});

describe('a process whose Object.prototype someone else polluted', () => {
  // Not the seller's doing, but decode() must still end: for...in sees an inherited member, and
  // one that holds an object used to be walked again inside every parsed object, forever. (Ajv's
  // own additionalProperties check enumerates with for...in too, so a closed schema then fails:
  // the verdict is SCHEMA_MISMATCH, closed, for text and structuredContent alike.)
  test('a text payload and the same structuredContent end with the same verdict', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto['injected'] = { nested: { deeper: true } };
    try {
      const fromText = safeDecode('list_accounts', text(JSON.stringify(base())));
      const fromStructured = safeDecode('list_accounts', structured(base()));
      expect(fromText.success ? 'decoded' : fromText.error.code).toBe('SCHEMA_MISMATCH');
      expect(fromStructured.success ? 'decoded' : fromStructured.error.code).toBe('SCHEMA_MISMATCH');
      expect(fromText.success || fromText.error.message).toBe(fromStructured.success || fromStructured.error.message);
    } finally {
      delete proto['injected'];
    }
  });
});

describe('a text shared by many content[] items is parsed once per scan', () => {
  // JSON.parse of deeply nested text is its slowest case (about 1 µs a level); parsed again for
  // every item sharing it, 100 items of one 2 MB text took minutes (fuzz seed 1, case 3200).
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const shared = (isError: boolean) => ({
    ...(isError ? { isError: true } : {}),
    content: Array.from({ length: 100 }, () => ({ type: 'text', text: deep })),
  });
  test.each([
    ['the payload scan', false, 1],
    ['under isError: the error scan and, at most, the failure payload search', true, 2],
  ])('%s', (_name, isError, scans) => {
    const spy = vi.spyOn(JSON, 'parse');
    try {
      const result = safeDecode('get_products', shared(isError));
      expect(result.success).toBe(false);
      const parses = spy.mock.calls.filter(([text]) => text === deep).length;
      expect(parses).toBeGreaterThanOrEqual(1);
      expect(parses).toBeLessThanOrEqual(scans);
    } finally {
      spy.mockRestore();
    }
  });
});
