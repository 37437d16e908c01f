/**
 * Seller text cannot reach a message, a formatted issue or the CLI's output raw: a property test
 * (fast-check, seed 20260430) builds payloads whose keys, values, codes and versions hold arbitrary
 * characters of the classes security.mdx's log-sanitizing rule lists (C0 and C1 controls, DEL, bidi
 * marks, embeddings, overrides and isolates, U+2028/U+2029, zero-width characters, the BOM) and
 * lone surrogates, decodes them, and checks every message, every line of formatIssues, the CLI's
 * summary line and failure report, and its --json output.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { describeFailure, failureJson, jsonText, successLine, summarize } from '../../src/cli/report.js';
import { safeDecode, type TaskName } from '../../src/decode/decode.js';
import type { DecodeError } from '../../src/errors/errors.js';
import { formatIssues, grouped, shownPointer, shownText } from '../../src/errors/format.js';
import { mcp } from '../fixtures/envelopes.js';
import { payload } from '../fixtures/payloads.js';

/** The longest message decode() writes. */
const MAX_MESSAGE = 500;

/** The characters that must never appear raw, as ranges of UTF-16 units (lone surrogates apart). */
const UNSAFE: ReadonlyArray<readonly [number, number]> = [
  [0x00, 0x1f],
  [0x7f, 0x9f],
  [0x061c, 0x061c],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x2060],
  [0x2066, 0x2069],
  [0xfeff, 0xfeff],
];

/** The index of the first raw unsafe character or lone surrogate in `line`, or -1. */
function firstUnsafe(line: string): number {
  for (let i = 0; i < line.length; i++) {
    const unit = line.charCodeAt(i);
    if (UNSAFE.some(([lo, hi]) => unit >= lo && unit <= hi)) return i;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = line.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return i;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) return i;
  }
  return -1;
}

function expectSafeLine(line: string, what: string): void {
  const at = firstUnsafe(line);
  expect(at, `${what}: U+${line.charCodeAt(at).toString(16).padStart(4, '0')} raw at ${at} in ${JSON.stringify(line.slice(0, 300))}`).toBe(
    -1,
  );
}

/** One hostile character: from every class above, and ordinary ones around them. */
const hostileChar = fc.oneof(
  ...UNSAFE.map(([lo, hi]) => fc.integer({ min: lo, max: hi }).map((u) => String.fromCharCode(u))),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((u) => String.fromCharCode(u)),
  fc.constantFrom('a', '_', '/', '~', '"', '\\', ' ', 'é', '😀', '…'),
);
const hostileText = (maxLength: number) => fc.array(hostileChar, { minLength: 1, maxLength }).map((cs) => cs.join(''));
/** Mostly short, sometimes thousands of characters. */
const hostileKey = fc.oneof({ weight: 4, arbitrary: hostileText(12) }, { weight: 1, arbitrary: hostileText(3000) });

interface Scenario {
  readonly name: string;
  readonly task: TaskName;
  readonly input: unknown;
}

const scenario: fc.Arbitrary<Scenario> = fc.oneof(
  // Decoded: key names and values the CLI summary prints.
  fc.record({ key: hostileKey, value: hostileKey, list: hostileKey }).map(({ key, value, list }) => ({
    name: 'decoded with hostile *_id keys and lists',
    task: 'list_accounts' as const,
    input: mcp.structured({ ...payload('3.1/list_accounts.valid'), [`${key}_id`]: value, [`${list}s`]: [1, 2] }),
  })),
  // SCHEMA_MISMATCH: the key is in every issue's path.
  hostileKey.map((key) => ({
    name: 'schema mismatch under a hostile key',
    task: 'get_products' as const,
    input: mcp.structured({
      ...payload('3.1/get_products.valid'),
      filter_diagnostics: { semantics: 'only', excluded_by: { [key]: { notes: 1 } } },
    }),
  })),
  // TASK_FAILED: the seller's code, message, field and suggestion.
  fc.record({ code: hostileText(64), message: hostileKey, field: hostileKey, suggestion: hostileKey }).map((e) => ({
    name: 'an adcp_error of hostile text',
    task: 'get_products' as const,
    input: mcp.error(e),
  })),
  // UNSAFE_JSON inside an adcp_error, under a hostile key (JSON.parse makes __proto__ an own key).
  hostileKey.map((key) => ({
    name: 'an adcp_error with __proto__ under a hostile key',
    task: 'get_products' as const,
    input: {
      isError: true,
      content: [],
      structuredContent: { adcp_error: JSON.parse(`{"code":"X",${JSON.stringify(key)}:{"__proto__":{"polluted":1}}}`) as unknown },
    },
  })),
  // UNSAFE_JSON in the payload, found by the bounds walk.
  hostileKey.map((key) => ({
    name: 'a payload with __proto__ under a hostile key',
    task: 'list_accounts' as const,
    input: mcp.structured({
      ...payload('3.1/list_accounts.valid'),
      ext: JSON.parse(`{${JSON.stringify(key)}:{"__proto__":{}}}`) as unknown,
    }),
  })),
  // TOO_DEEP along hostile keys.
  hostileKey.map((key) => {
    let ext: Record<string, unknown> = {};
    const root = ext;
    for (let i = 0; i < 70; i++) ext = (ext[key] = {}) as Record<string, unknown>;
    return {
      name: 'nesting past maxDepth along hostile keys',
      task: 'list_accounts' as const,
      input: mcp.structured({ ...payload('3.1/list_accounts.valid'), ext: root }),
    };
  }),
  // UNSUPPORTED_VERSION: the announced version is quoted.
  hostileText(40).map((version) => ({
    name: 'a hostile adcp_version',
    task: 'list_accounts' as const,
    input: mcp.structured({ ...payload('3.1/list_accounts.valid'), adcp_version: version }),
  })),
  // MALFORMED_ENVELOPE: an unknown A2A state is quoted.
  hostileText(60).map((state) => ({
    name: 'a hostile A2A state',
    task: 'list_accounts' as const,
    input: { task: { id: 't', status: { state }, artifacts: [{ parts: [{ data: payload('3.1/list_accounts.valid') }] }] } },
  })),
);

function checkFailure(task: string, error: DecodeError): void {
  expectSafeLine(error.message, 'message');
  expect(error.message.length).toBeLessThanOrEqual(MAX_MESSAGE);
  for (const line of formatIssues(error).split('\n')) expectSafeLine(line, 'formatIssues');
  for (const line of describeFailure(task, error)) {
    expect(line).not.toContain('\n');
    expectSafeLine(line, 'CLI failure report');
  }
  checkJson(failureJson(task, error));
}

/** --json output: every line safe, and it parses to exactly what plain JSON.stringify gives. */
function checkJson(value: unknown): void {
  const text = jsonText(value);
  for (const line of text.split('\n')) expectSafeLine(line, '--json');
  expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
}

describe('no raw control, bidi, invisible or line-breaking character leaves decode() or the CLI', () => {
  test('in messages, formatIssues, the CLI summary line, its failure report and --json (property)', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(scenario, ({ name, task, input }) => {
        const result = safeDecode(task, input);
        seen.add(`${name} → ${result.success ? 'decoded' : result.error.code}`);
        if (result.success) {
          const data = result.data as unknown as Record<string, unknown>;
          const line = successLine(task, result.version, data);
          expect(line).not.toContain('\n');
          expectSafeLine(line, 'CLI summary');
          checkJson({ ok: true, task, version: result.version, summary: summarize(data), data });
        } else {
          checkFailure(task, result.error);
        }
      }),
      { seed: 20260430, numRuns: 400 },
    );
    // Every scenario reached the outcome it was built for.
    expect([...seen].sort()).toEqual([
      'a hostile A2A state → MALFORMED_ENVELOPE',
      'a hostile adcp_version → UNSUPPORTED_VERSION',
      'a payload with __proto__ under a hostile key → UNSAFE_JSON',
      'an adcp_error of hostile text → TASK_FAILED',
      'an adcp_error with __proto__ under a hostile key → UNSAFE_JSON',
      'decoded with hostile *_id keys and lists → decoded',
      'nesting past maxDepth along hostile keys → TOO_DEEP',
      'schema mismatch under a hostile key → SCHEMA_MISMATCH',
    ]);
  });
});

describe('shownText', () => {
  const anyText = fc.oneof(hostileText(400), fc.string({ unit: 'binary', maxLength: 400 }));

  test('leaves no unsafe character, stays within max, and showing twice changes nothing (property)', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 8, max: 500 }), fc.constantFrom('start' as const, 'ends' as const), (text, max, keep) => {
        const shown = shownText(text, max, keep);
        expectSafeLine(shown, 'shownText');
        expect(shown.length).toBeLessThanOrEqual(max);
        expect(shownText(shown, max, keep)).toBe(shown);
      }),
      { seed: 20260430, numRuns: 2000 },
    );
  });

  test('is exact when the text fits: unescaping gives the text back (property)', () => {
    fc.assert(
      fc.property(
        anyText.filter((t) => !t.includes('\\')),
        (text) => {
          const shown = shownText(text, Infinity);
          expect(shown.replace(/\\u([0-9a-f]{4})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))).toBe(text);
        },
      ),
      { seed: 20260430, numRuns: 2000 },
    );
  });

  test('examples', () => {
    expect(shownText('Slow down\u001b[2J\u001b]52;c;aGk=\u0007\u202e\u009b\u2028\u200b\ufeff')).toBe(
      'Slow down\\u001b[2J\\u001b]52;c;aGk=\\u0007\\u202e\\u009b\\u2028\\u200b\\ufeff',
    );
    expect(shownText('a\ud800b\udc00c\ud83d\ude00')).toBe('a\\ud800b\\udc00c\ud83d\ude00');
    expect(shownText('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
    // A cut never splits an escape or a surrogate pair.
    expect(shownText(`abc${'\u202e'.repeat(5)}`, 12)).toBe('abc\\u202e…');
    expect(shownText(`abcdefgh\ud83d\ude00`, 9)).toBe('abcdefgh…');
    expect(shownPointer(`/${'k'.repeat(3000)}/__proto__`)).toMatch(/^\/k{59}…k{49}\/__proto__$/);
  });
});

describe('grouped', () => {
  test("writes counts as toLocaleString('en-US') does, without loading a locale", () => {
    fc.assert(
      fc.property(fc.oneof(fc.nat(), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })), (n) => {
        expect(grouped(n)).toBe(n.toLocaleString('en-US'));
      }),
      { numRuns: 2000 },
    );
    expect([0, 999, 1000, 100_000, 1_000_000].map(grouped)).toEqual(['0', '999', '1,000', '100,000', '1,000,000']);
  });
});
