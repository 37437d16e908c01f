/**
 * The AdCP MCP success-extraction algorithm (mcp-response-extraction.md), made total: any input
 * yields a location, `null`, or a DecodeError, never a TypeError.
 *
 * Reading rules shared by every function here:
 * - Only own properties are read, so a polluted `Object.prototype` (e.g. a stray `isError` or
 *   `structuredContent`) cannot change the outcome.
 * - If reading the input throws (a getter, a Proxy trap, a revoked Proxy) the whole call fails
 *   with `MALFORMED_ENVELOPE`. Treating the value as absent instead could turn an unreadable
 *   `isError` into a success, the type confusion the spec's guard exists to prevent.
 */
import { DecodeError, LimitError, describeValue, readInput } from '../errors/errors.js';
import { shownPointer } from '../errors/format.js';
import { DEFAULT_BOUNDS, storedIndexes } from '../bounds/bounds.js';
import { snapshot } from '../bounds/snapshot.js';
import { utf8Length } from '../json/utf8.js';
import { hasOwn, own, isObject } from '../json/own.js';

/** Options for MCP extraction. */
export interface McpExtractOptions {
  /** Largest `content[].text` item, in UTF-8 bytes, that will be parsed (default 4 MiB; `Infinity` disables). */
  readonly maxBytes?: number | undefined;
}

/** Why a `type: 'text'` content item did not yield the payload. */
type McpTextRejectReason =
  /** `text` is missing or not a string. */
  | 'not-string'
  /** Larger than `maxBytes`; it was not parsed. */
  | 'too-large'
  /** Looked like JSON (starts with `{` or `[`) but did not parse. */
  | 'invalid-json'
  /** Prose (or empty): does not start like a JSON object or array and did not parse. */
  | 'not-json'
  /** Parsed, but to an array, string, number, boolean or null. */
  | 'not-object'
  /** Parsed to an object whose only key is `adcp_error` (an error missing its `isError` flag). */
  | 'adcp-error-only';

/** One skipped text item, in `content[]` order. */
export interface McpRejectedText {
  /** Index of the item in `content[]`. */
  readonly index: number;
  readonly reason: McpTextRejectReason;
  /** For `too-large`: the UTF-8 size, or a lower bound (the UTF-16 length) when `bytesExact` is false. */
  readonly bytes?: number;
  /** For `too-large`: whether `bytes` is exact. */
  readonly bytesExact?: boolean;
  /** For `invalid-json` / `not-json`: what the parser said, with any quoted input removed. */
  readonly parseError?: string;
  /** For `invalid-json` / `not-json`: UTF-16 offset where parsing failed, when the parser said. */
  readonly position?: number;
  /** For `adcp-error-only`: the parsed item's `adcp_error`, so that nobody parses the text again. */
  readonly adcpError?: unknown;
}

/** What a present-but-unusable `structuredContent` was (the algorithm then falls back to text). */
type IgnoredStructuredContent = 'array' | 'string' | 'number' | 'boolean' | 'bigint' | 'symbol' | 'function';

/** Why no payload was found. */
type McpNoneReason =
  /** The result is not a non-array object. */
  | 'input-not-object'
  /** `structuredContent` holds only `adcp_error`: an error response missing `isError`. */
  | 'structured-adcp-error-only'
  /** No usable `structuredContent` and `content` is absent or not an array. */
  | 'no-content'
  /** `content[]` was scanned and no text item yielded a usable object; see `rejected`. */
  | 'no-json-object';

/** The outcome of {@link locateMcpPayload}. */
export type McpPayloadLocation =
  | {
      readonly kind: 'payload';
      readonly value: Record<string, unknown>;
      readonly source: 'structuredContent';
    }
  | {
      readonly kind: 'payload';
      readonly value: Record<string, unknown>;
      readonly source: 'text';
      /** Index in `content[]` of the item that yielded the payload. */
      readonly index: number;
      /** Text items before it that were skipped. */
      readonly rejected: readonly McpRejectedText[];
      /** The payload's size, measured while it was checked for prototype keys. */
      readonly shape: ParsedShape;
      readonly ignoredStructuredContent?: IgnoredStructuredContent;
    }
  /** `isError` is truthy: the success path does not apply; use the error extractor. */
  | { readonly kind: 'error-flag' }
  | {
      readonly kind: 'none';
      readonly reason: McpNoneReason;
      readonly rejected: readonly McpRejectedText[];
      readonly ignoredStructuredContent?: IgnoredStructuredContent;
      /** For `structured-adcp-error-only`: the `adcp_error` as read (once) from structuredContent. */
      readonly adcpError?: unknown;
    };

/**
 * The size of a value our JSON parser produced, measured by the same walk that looks for
 * prototype keys, so that decode() need not walk it again to check its bounds (see
 * `withinBounds` in bounds.ts). Counted as the bounds walk counts: `levels` is the deepest
 * nesting of objects and arrays (the root is level 1), `nodes` is 1 + every array element + every
 * object member, `finite` is false when a number is not (`1e400` parses to `Infinity`).
 */
export interface ParsedShape {
  readonly levels: number;
  readonly nodes: number;
  readonly finite: boolean;
}

/** The outcome of {@link parseMcpText}. */
export type McpTextParse =
  | { readonly ok: true; readonly value: unknown; readonly shape: ParsedShape }
  | { readonly ok: false; readonly reason: 'too-large'; readonly bytes: number; readonly bytesExact: boolean }
  | {
      readonly ok: false;
      readonly reason: 'invalid-json' | 'not-json';
      readonly parseError: string;
      readonly position?: number;
    };

/** True when the object's only own enumerable key is `adcp_error`. */
function isAdcpErrorOnly(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === 'adcp_error';
}

/** `JSON.parse` without a SyntaxError stack trace (only its message is used): prose items in `content[]` fail to parse routinely. */
function parseJson(text: string): unknown {
  const { stackTraceLimit } = Error;
  Error.stackTraceLimit = 0;
  try {
    return JSON.parse(text) as unknown;
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/**
 * `undefined` when a value `JSON.parse` produced holds a `__proto__` key, or a `constructor` key
 * whose value has a `prototype` key, at any depth (what secure-json-parse refuses with both actions
 * set to `'error'`); else its {@link ParsedShape}. One iterative walk of the value, which also
 * measures the shape so decode() need not walk it again (cost: docs/benchmarks.md).
 */
function inspectParsed(root: object): ParsedShape | undefined {
  // for...in also yields inherited enumerable properties: with Object.prototype polluted by
  // someone else, members read from it would be walked (forever, when they hold objects). Then
  // only own keys count (JSON.parse makes every own key enumerable).
  let polluted = false;
  for (const _ in Object.prototype) {
    polluted = true;
    break;
  }
  const stack: object[] = [root];
  const levels: number[] = [1];
  let deepest = 1;
  let nodes = 1;
  let finite = true;
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown>;
    const level = levels.pop() as number;
    if (level > deepest) deepest = level;
    const next = level + 1;
    if (Array.isArray(node)) {
      const length = node.length;
      nodes += length;
      for (let i = 0; i < length; i++) {
        const child: unknown = node[i];
        if (typeof child === 'object') {
          if (child !== null) {
            stack.push(child);
            levels.push(next);
          }
        } else if (typeof child === 'number' && child - child !== 0) finite = false;
      }
      continue;
    }
    for (const key in node) {
      if (polluted && !hasOwn(node, key)) continue;
      nodes++;
      const child = node[key];
      if ((key === '__proto__' || key === 'constructor') && hasOwn(node, key)) {
        if (key === '__proto__') return undefined;
        if (typeof child === 'object' && child !== null && hasOwn(child, 'prototype')) return undefined;
      }
      if (typeof child === 'object') {
        if (child !== null) {
          stack.push(child);
          levels.push(next);
        }
      } else if (typeof child === 'number' && child - child !== 0) finite = false;
    }
  }
  return { levels: deepest, nodes, finite };
}

/**
 * The `maxBytes` of extraction options: decode's default text limit when absent.
 *
 * @param options Extraction options, possibly absent.
 * @returns The limit in UTF-8 bytes.
 * @throws {RangeError} When `maxBytes` is not a non-negative number.
 * @example
 * resolveMaxBytes(undefined); // 4194304
 */
export function resolveMaxBytes(options: McpExtractOptions | null | undefined): number {
  const raw = options == null ? undefined : options.maxBytes;
  if (raw === undefined) return DEFAULT_BOUNDS.maxBytes;
  if (typeof raw !== 'number' || Number.isNaN(raw) || raw < 0) {
    // RangeError, not TypeError: this is a caller bug, and the module never throws TypeError.
    throw new RangeError(`maxBytes must be a non-negative number of bytes, got ${describeValue(raw)}`);
  }
  return raw;
}

/**
 * Measures a string against a UTF-8 byte limit without encoding it when the UTF-16 length decides.
 *
 * UTF-8 needs at least one and at most three bytes per UTF-16 code unit (a surrogate pair is two
 * units and four bytes; a lone surrogate is encoded as the three-byte U+FFFD), so `length * 3 <= limit`
 * proves a fit and `length > limit` proves an overflow; only the band between needs the real count.
 *
 * @param text - The string to measure.
 * @param limit - The limit in UTF-8 bytes (`Infinity` allowed).
 * @returns `fits`, and `bytes`: exact when `exact`, otherwise a lower bound (the UTF-16 length).
 * @throws Never.
 * @example
 * measureUtf8('é'.repeat(3), 5); // { fits: false, bytes: 6, exact: true }
 */
export function measureUtf8(text: string, limit: number): { fits: boolean; bytes: number; exact: boolean } {
  if (text.length * 3 <= limit) return { fits: true, bytes: text.length, exact: false };
  if (text.length > limit) return { fits: false, bytes: text.length, exact: false };
  const bytes = utf8Length(text);
  return { fits: bytes <= limit, bytes, exact: true };
}

/** First non-whitespace character (after an optional BOM) is `{` or `[`: the text meant to be JSON. */
function looksLikeJsonText(text: string): boolean {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // JSON's four whitespace characters only (RFC 8259 §2), not JavaScript's wider set.
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    return c === 0x7b || c === 0x5b;
  }
  return false;
}

/** V8 quotes up to ten characters of the input in some messages; keep only the structure. */
function describeSyntaxError(error: unknown): { parseError: string; position?: number } {
  const message = error instanceof Error ? error.message : '';
  const at = /at position (\d+)/.exec(message);
  if (at?.[1] !== undefined) {
    const position = Number(at[1]);
    return { parseError: `invalid JSON at position ${position}`, position };
  }
  if (message.includes('Unexpected end of JSON input')) return { parseError: 'unexpected end of JSON input' };
  return { parseError: 'invalid JSON' };
}

/**
 * Size-checks and parses one MCP `content[].text` value the way the extraction algorithm requires:
 * reject it unparsed above `maxBytes`, then parse it as strict JSON with prototype-key checks.
 *
 * A leading byte-order mark makes the text invalid, as it does for the spec's `JSON.parse`.
 *
 * @param text - The text item's string.
 * @param maxBytes - Largest accepted size in UTF-8 bytes.
 * @param path - JSON Pointer of the text in the envelope, for the `UNSAFE_JSON` error.
 * @returns The parsed value, or why it was not parsed.
 * @throws {DecodeError} `UNSAFE_JSON` when the JSON holds a `__proto__` key or a `constructor` object
 *   with a `prototype` key. This is a deliberate deviation from the spec (which would skip the item
 *   or return it): such a document is hostile, and skipping it could let a later item win.
 * @example
 * parseMcpText('{"products":[]}', 4 * 1024 * 1024, '/content/0/text');
 * // { ok: true, value: { products: [] }, shape: { levels: 2, nodes: 2, finite: true } }
 */
export function parseMcpText(text: string, maxBytes: number, path: string): McpTextParse {
  const size = measureUtf8(text, maxBytes);
  if (!size.fits) return { ok: false, reason: 'too-large', bytes: size.bytes, bytesExact: size.exact };
  const reason = looksLikeJsonText(text) ? 'invalid-json' : 'not-json';
  if (text.charCodeAt(0) === 0xfeff) {
    return { ok: false, reason, parseError: 'byte-order mark (U+FEFF) before the JSON text', position: 0 };
  }
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    return { ok: false, reason, ...describeSyntaxError(error) };
  }
  const shape =
    typeof value === 'object' && value !== null
      ? inspectParsed(value)
      : { levels: 0, nodes: 1, finite: typeof value !== 'number' || value - value === 0 };
  if (shape === undefined) {
    throw new DecodeError(
      'UNSAFE_JSON',
      `expected JSON without __proto__ or constructor.prototype keys at ${shownPointer(path)}, but found one`,
      { path },
    );
  }
  return { ok: true, value, shape };
}

/** UTF-16 units of text measured or parsed so far in one scan of `content[]`; see {@link chargeText}. */
export interface TextBudget {
  used: number;
  /** The last text parsed in this scan and what came of it, so an identical text is not parsed again. */
  last?: { readonly text: string; readonly parsed: McpTextParse };
}

/**
 * How many times `maxBytes` of text one scan of `content[]` measures or parses before it gives up.
 * Above 1 so that the spec's item-by-item rule holds (an oversized item is skipped and a later
 * item may still hold the payload); finite so that the work is bounded.
 */
const TEXT_BUDGET_FACTOR = 4;

/**
 * Charges a text item that will be measured or parsed against the scan's budget,
 * {@link TEXT_BUDGET_FACTOR} × `maxBytes` UTF-16 units. Each unit is at least one UTF-8 byte, so
 * a result that trips it is several times over the limit the spec sets for the whole message.
 * Without it, one string shared by many items (possible in an already-parsed envelope, never on
 * the wire) would be measured and parsed again for each item, unboundedly.
 *
 * @param budget - The scan's running total, updated.
 * @param text - A text item no longer than `maxBytes` units (longer ones are skipped unmeasured).
 * @param maxBytes - The limit in UTF-8 bytes.
 * @param path - JSON Pointer of the item's text, for the error.
 * @throws {LimitError} `TOO_LARGE` when the items examined hold more than the budget together.
 * @example
 * const budget = { used: 0 };
 * chargeText(budget, '{"a":1}', 4 * 1024 * 1024, '/content/0/text');
 */
function chargeText(budget: TextBudget, text: string, maxBytes: number, path: string): void {
  budget.used += text.length;
  const limit = maxBytes * TEXT_BUDGET_FACTOR;
  if (budget.used > limit) {
    throw new LimitError(
      'TOO_LARGE',
      `content[] text items hold at least ${budget.used} UTF-8 bytes together; expected at most ${limit} (${TEXT_BUDGET_FACTOR} × maxBytes) for the whole result`,
      { unit: 'bytes', limit, actual: budget.used },
      { path },
    );
  }
}

function ignoredKind(value: unknown): IgnoredStructuredContent | undefined {
  if (value === undefined || value === null || isObject(value)) return undefined;
  if (Array.isArray(value)) return 'array';
  const t = typeof value;
  return t === 'object' || t === 'undefined' ? undefined : t;
}

function locate(result: unknown, maxBytes: number, cursor: { at: string }): McpPayloadLocation {
  if (!isObject(result)) return { kind: 'none', reason: 'input-not-object', rejected: [] };

  // 1. Guard: truthy, exactly as the spec says, so even the string 'false' counts as an error.
  cursor.at = '/isError';
  if (own(result, 'isError')) return { kind: 'error-flag' };

  // 2. structuredContent wins whenever it is a non-array object, even {}.
  cursor.at = '/structuredContent';
  const structured = own(result, 'structuredContent');
  if (isObject(structured)) {
    if (isAdcpErrorOnly(structured)) {
      cursor.at = '/structuredContent/adcp_error';
      return { kind: 'none', reason: 'structured-adcp-error-only', rejected: [], adcpError: own(structured, 'adcp_error') };
    }
    return { kind: 'payload', value: structured, source: 'structuredContent' };
  }
  const ignored = ignoredKind(structured);
  const extra = ignored === undefined ? {} : { ignoredStructuredContent: ignored };

  // 3. Text fallback, in array order; the first usable object wins.
  cursor.at = '/content';
  const content = own(result, 'content');
  if (!Array.isArray(content)) return { kind: 'none', reason: 'no-content', rejected: [], ...extra };
  const rejected: McpRejectedText[] = [];
  const budget: TextBudget = { used: 0 };
  for (const { index, text } of textItems(content, cursor)) {
    if (typeof text !== 'string') {
      rejected.push({ index, reason: 'not-string' });
      continue;
    }
    const parsed = readTextItem(budget, text, maxBytes, cursor.at);
    if (!parsed.ok) {
      rejected.push(
        parsed.reason === 'too-large'
          ? { index, reason: 'too-large', bytes: parsed.bytes, bytesExact: parsed.bytesExact }
          : {
              index,
              reason: parsed.reason,
              parseError: parsed.parseError,
              ...(parsed.position === undefined ? {} : { position: parsed.position }),
            },
      );
      continue;
    }
    const value = parsed.value;
    if (!isObject(value)) {
      rejected.push({ index, reason: 'not-object' });
      continue;
    }
    if (isAdcpErrorOnly(value)) {
      rejected.push({ index, reason: 'adcp-error-only', adcpError: value.adcp_error });
      continue;
    }
    return { kind: 'payload', value, source: 'text', index, rejected, shape: parsed.shape, ...extra };
  }

  // 4. Nothing machine-readable.
  return { kind: 'none', reason: 'no-json-object', rejected, ...extra };
}

/**
 * The `type: 'text'` items of an MCP `content[]` in array order, with their `text` as stored (of
 * any type); `cursor.at` points at what is being read, so a throwing getter is blamed on its place.
 *
 * @param content The `content` array.
 * @param cursor Set to the JSON Pointer of the item, then of its `text`.
 * @returns The items' indexes and texts.
 * @throws Whatever a getter or Proxy trap in `content` throws.
 * @example
 * [...textItems([{ type: 'text', text: '{}' }], { at: '' })]; // [{ index: 0, text: '{}' }]
 */
export function* textItems(content: readonly unknown[], cursor: { at: string }): Generator<{ index: number; text: unknown }> {
  for (const index of storedIndexes(content)) {
    cursor.at = `/content/${index}`;
    const item: unknown = content[index];
    if (!isObject(item) || own(item, 'type') !== 'text') continue;
    cursor.at = `/content/${index}/text`;
    yield { index, text: own(item, 'text') };
  }
}

/**
 * Charges a text item against the result's shared budget (see {@link chargeText}), then parses it
 * (see {@link parseMcpText}), once per distinct text: an item identical to the one before (one
 * string shared by many items of an already-parsed envelope) reuses its result, so a text costly
 * to parse (a million nested brackets) is parsed once, not once per item, until the budget ends the scan.
 *
 * @param budget The result's budget and last parse, updated.
 * @param text The text item's string.
 * @param maxBytes Largest accepted size of one item in UTF-8 bytes.
 * @param path JSON Pointer of the text.
 * @returns The parse outcome.
 * @throws {LimitError} `TOO_LARGE` when the budget is spent; {@link DecodeError} `UNSAFE_JSON`.
 * @example
 * readTextItem({ used: 0 }, '{}', 1024, '/content/0/text'); // { ok: true, value: {}, ... }
 */
export function readTextItem(budget: TextBudget, text: string, maxBytes: number, path: string): McpTextParse {
  if (text.length <= maxBytes) chargeText(budget, text, maxBytes, path);
  const last = budget.last;
  if (last !== undefined && last.text === text) return last.parsed;
  const parsed = parseMcpText(text, maxBytes, path);
  budget.last = { text, parsed };
  return parsed;
}

/**
 * Runs the MCP success-extraction algorithm and reports where the payload came from, or exactly
 * why there is none, so a decoder can raise TOO_LARGE / INVALID_JSON / NO_PAYLOAD instead of `null`.
 *
 * @param result - An MCP `CallToolResult` (anything is accepted).
 * @param options - `maxBytes` for each text item (default 4 MiB, UTF-8 bytes).
 * @returns A {@link McpPayloadLocation}; a returned payload is the seller's object itself, not a copy.
 * @throws {DecodeError} `UNSAFE_JSON` for a text item holding prototype keys; `MALFORMED_ENVELOPE`
 *   when reading the input throws (getter, Proxy).
 * @throws {LimitError} `TOO_LARGE` when the text items examined hold more than
 *   {@link TEXT_BUDGET_FACTOR} × `maxBytes` UTF-8 bytes together (see {@link chargeText}).
 * @throws {RangeError} When `maxBytes` is not a non-negative number.
 * @example
 * const loc = locateMcpPayload({ content: [{ type: 'text', text: 'Done.' }] });
 * // { kind: 'none', reason: 'no-json-object', rejected: [{ index: 0, reason: 'not-json', ... }] }
 */
export function locateMcpPayload(result: unknown, options?: McpExtractOptions): McpPayloadLocation {
  const maxBytes = resolveMaxBytes(options);
  return readInput((cursor) => locate(result, maxBytes, cursor));
}

/**
 * Extracts the AdCP success payload from an MCP tool result per the spec's algorithm, or `null`.
 *
 * @param result - An MCP `CallToolResult` (anything is accepted).
 * @param options - `maxBytes` for each text item (default 4 MiB, UTF-8 bytes).
 * @returns The payload object (a plain copy, never the caller's object), or `null` for error
 *   results, an `adcp_error`-only body, or no machine-readable data.
 * @throws {DecodeError} `UNSAFE_JSON` for a text item or structuredContent holding prototype keys (a
 *   security deviation: the spec would skip the item); `MALFORMED_ENVELOPE` when reading the input
 *   throws or structuredContent is not JSON data; `TOO_LARGE` when the text items examined hold more
 *   than 4 × `maxBytes` together; structuredContent's copy is held to the default bounds.
 * @throws {RangeError} When `maxBytes` is not a non-negative number.
 * @example
 * extractMcpResponse({ content: [], structuredContent: { products: [] } }); // { products: [] }
 */
export function extractMcpResponse(result: unknown, options?: McpExtractOptions): Record<string, unknown> | null {
  const location = locateMcpPayload(result, options);
  if (location.kind !== 'payload') return null;
  // A parsed text is already our own object; structuredContent is the caller's, read once into a
  // copy under the default bounds (`maxBytes` bounds each text item, as the spec's algorithm says).
  if (location.source === 'text') return location.value;
  return snapshot(location.value, DEFAULT_BOUNDS, { what: 'structuredContent' }) as Record<string, unknown>;
}

/**
 * Tells whether a value looks like an MCP `CallToolResult`: an object with a `content` array, a
 * `structuredContent` key, or an `isError` key. Used for transport auto-detection.
 *
 * @param input - Anything.
 * @returns `true` for a likely CallToolResult; `false` otherwise, including when reading throws.
 * @throws Never.
 * @example
 * looksLikeMcp({ content: [{ type: 'text', text: 'hi' }] }); // true
 */
export function looksLikeMcp(input: unknown): boolean {
  try {
    if (!isObject(input)) return false;
    return Array.isArray(own(input, 'content')) || hasOwn(input, 'structuredContent') || hasOwn(input, 'isError');
  } catch {
    return false;
  }
}
