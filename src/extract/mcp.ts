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

import { DEFAULT_BOUNDS, storedIndexes } from '../bounds/bounds.js';
import { snapshot } from '../bounds/snapshot.js';
import { type ErrorContext, NO_CONTEXT, readInput } from '../errors/errors.js';
import { byteLimit, knownOptions } from '../errors/option-rules.js';
import { hasOwn, isObject, own } from '../json/own.js';
import { type ParsedShape, readTextItem, type TextBudget } from '../json/text.js';
import type { FoundPayload } from './found.js';
import { MAX_WORDS_SCANNED, textWords } from './seller-words.js';

export type { ParsedShape } from '../json/text.js';

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

/** The payload found in a text item of `content[]`. */
interface McpTextPayload extends FoundPayload {
  readonly source: 'text';
  /** Index in `content[]` of the item that yielded the payload. */
  readonly index: number;
  /** Text items before it that were skipped. */
  readonly rejected: readonly McpRejectedText[];
  /** The payload's size, measured while it was checked for prototype keys. */
  readonly shape: ParsedShape;
  readonly ignoredStructuredContent?: IgnoredStructuredContent;
}

/** The outcome of {@link locateMcpPayload}. */
export type McpPayloadLocation =
  | (FoundPayload & { readonly source: 'structuredContent' })
  | McpTextPayload
  /** `isError` is truthy: the success path does not apply; use the error extractor. */
  | { readonly kind: 'error-flag' }
  | {
      readonly kind: 'none';
      readonly reason: McpNoneReason;
      readonly rejected: readonly McpRejectedText[];
      readonly ignoredStructuredContent?: IgnoredStructuredContent;
      /** For `structured-adcp-error-only`: the `adcp_error` as read (once) from structuredContent. */
      readonly adcpError?: unknown;
      /** What the seller said in words (the first text item that is not JSON data), read in the same scan. */
      readonly words?: string | undefined;
    };

/** True when the object's only own enumerable key is `adcp_error`. */
function isAdcpErrorOnly(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === 'adcp_error';
}

/** The options the extractors take, by name. */
const EXTRACT_OPTION_KEYS = ['maxBytes'] as const satisfies readonly (keyof McpExtractOptions)[];

/**
 * The `maxBytes` of an extractor's options, checked at its edge: decode's default text limit when absent.
 *
 * @param who The extractor (`extractMcpResponse`, `extractMcpError`).
 * @param options Its options, possibly absent.
 * @returns The limit in UTF-8 bytes.
 * @throws {DecodeError} `INVALID_OPTION` when `maxBytes` is not a positive safe integer or `Infinity`, or an option is unknown.
 * @example
 * resolveMaxBytes('extractMcpResponse', undefined); // 4194304
 */
export function resolveMaxBytes(who: string, options: McpExtractOptions | undefined): number {
  knownOptions(who, options, EXTRACT_OPTION_KEYS);
  return byteLimit('maxBytes', options?.maxBytes, { who }) ?? DEFAULT_BOUNDS.maxBytes;
}

function ignoredKind(value: unknown): IgnoredStructuredContent | undefined {
  if (value === undefined || value === null || isObject(value)) return undefined;
  if (Array.isArray(value)) return 'array';
  const t = typeof value;
  return t === 'object' || t === 'undefined' ? undefined : t;
}

function locate(result: unknown, maxBytes: number, cursor: { at: string }, context: ErrorContext): McpPayloadLocation {
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
      const adcpError = own(structured, 'adcp_error');
      return { kind: 'none', reason: 'structured-adcp-error-only', rejected: [], adcpError, words: mcpWords(result, cursor) };
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
  const budget: TextBudget = { used: 0, context };
  let words: string | undefined;
  for (const { index, text } of textItems(content, cursor)) {
    words ??= textWords(text);
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
  return { kind: 'none', reason: 'no-json-object', rejected, ...extra, words };
}

/**
 * What an MCP result says in words: its first text item that is not JSON data, among the first
 * {@link MAX_WORDS_SCANNED} text items, for an extractor that found a failure before its scan reached them.
 *
 * @param result The CallToolResult (an object).
 * @param cursor Set to what is being read.
 * @returns The words, shown, or `undefined`.
 * @throws Whatever a getter or Proxy trap in `content` throws.
 * @example
 * mcpWords({ content: [{ type: 'text', text: 'Budget too low' }] }, { at: '' }); // 'Budget too low'
 */
export function mcpWords(result: Record<string, unknown>, cursor: { at: string }): string | undefined {
  cursor.at = '/content';
  const content = own(result, 'content');
  if (!Array.isArray(content)) return undefined;
  let scanned = 0;
  for (const { text } of textItems(content, cursor)) {
    const words = textWords(text);
    if (words !== undefined || ++scanned >= MAX_WORDS_SCANNED) return words;
  }
  return undefined;
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
 * Runs the MCP success-extraction algorithm and reports where the payload came from, or exactly
 * why there is none, so a decoder can raise TOO_LARGE / INVALID_JSON / NO_PAYLOAD instead of `null`.
 *
 * @param result - An MCP `CallToolResult` (anything is accepted).
 * @param maxBytes - The largest text item, in UTF-8 bytes (resolved by the edge).
 * @param context - The call the result was given to (decode's task and version), for the errors.
 * @returns A {@link McpPayloadLocation}; a returned payload is the seller's object itself, not a copy.
 * @throws {DecodeError} `UNSAFE_JSON` for a text item holding prototype keys; `DUPLICATE_KEY` for one
 *   that repeats a key; `MALFORMED_ENVELOPE` when reading the input throws (getter, Proxy).
 * @throws {LimitError} `TOO_LARGE` when the text items examined hold more than
 *   4 × `maxBytes` UTF-8 bytes together (see `readTextItem`).
 * @throws {DecodeError} `INVALID_OPTION` when `maxBytes` is not a non-negative safe integer or `Infinity`.
 * @example
 * const loc = locateMcpPayload({ content: [{ type: 'text', text: 'Done.' }] }, 4_194_304);
 * // { kind: 'none', reason: 'no-json-object', rejected: [{ index: 0, reason: 'not-json', ... }] }
 */
export function locateMcpPayload(
  result: unknown,
  maxBytes: number = DEFAULT_BOUNDS.maxBytes,
  context: ErrorContext = NO_CONTEXT,
): McpPayloadLocation {
  return readInput((cursor) => locate(result, maxBytes, cursor, context), context);
}

/**
 * Extracts the AdCP success payload from an MCP tool result per the spec's algorithm, or `null`.
 *
 * @param result - An MCP `CallToolResult` (anything is accepted).
 * @param options - `maxBytes` for each text item (default 4 MiB, UTF-8 bytes).
 * @returns The payload object (a plain copy, never the caller's object), or `null` for error
 *   results, an `adcp_error`-only body, or no machine-readable data.
 * @throws {DecodeError} `UNSAFE_JSON` for a text item or structuredContent holding prototype keys, and
 *   `DUPLICATE_KEY` for a text item that repeats a key (security deviations: the spec would skip the
 *   item, or take the last value); `MALFORMED_ENVELOPE` when reading the input
 *   throws or structuredContent is not JSON data; `TOO_LARGE` when the text items examined hold more
 *   than 4 × `maxBytes` together; structuredContent's copy is held to the default bounds.
 * @throws {DecodeError} `INVALID_OPTION` when `maxBytes` is not a non-negative safe integer or `Infinity`.
 * @example
 * extractMcpResponse({ content: [], structuredContent: { products: [] } }); // { products: [] }
 */
export function extractMcpResponse(result: unknown, options?: McpExtractOptions): Record<string, unknown> | null {
  const location = locateMcpPayload(result, resolveMaxBytes('extractMcpResponse', options));
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
