/**
 * Untrusted JSON text: measured against a UTF-8 byte limit before it is parsed, parsed strictly
 * (a byte-order mark is refused, as by `JSON.parse`), a syntax error described without quoting
 * the text, the parsed value scanned once for prototype-polluting keys while its shape is
 * measured, and the text refused when an object in it repeats a key; and the budget that one
 * scan over many text items (MCP `content[]`) shares.
 */
import { DecodeError, type ErrorContext, LimitError, NO_CONTEXT } from '../errors/errors.js';
import { shownPointer } from '../errors/format.js';
import { countMembers, type DuplicateKeys, findDuplicateKeys, shownKeys } from './duplicate-keys.js';
import { hasOwn, prototypeMember, prototypePolluted } from './own.js';
import { utf8Length } from './utf8.js';

/**
 * The size of a value our JSON parser produced, measured by the same scan that looks for
 * prototype keys, so that decode() need not walk it again to check its bounds (see
 * `withinBounds` in src/bounds/bounds.ts). Counted as the bounds walk counts: `levels` is the
 * deepest nesting of objects and arrays (the root is level 1), `nodes` is 1 + every array
 * element + every object member, `finite` is false when a number is not (`1e400` parses to `Infinity`).
 */
export interface ParsedShape {
  readonly levels: number;
  readonly nodes: number;
  readonly finite: boolean;
}

/** The outcome of {@link parseJsonText}. */
export type JsonTextParse =
  | { readonly ok: true; readonly value: unknown; readonly shape: ParsedShape }
  | { readonly ok: false; readonly reason: 'too-large'; readonly bytes: number; readonly bytesExact: boolean }
  | {
      readonly ok: false;
      /** `invalid-json` when the text starts like a JSON object or array (`{`, `[`), `not-json` for prose. */
      readonly reason: 'invalid-json' | 'not-json';
      readonly parseError: string;
      readonly position?: number;
    };

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

/**
 * What a `JSON.parse` SyntaxError says, without the input V8 quotes in some messages (up to ten
 * characters of the seller's text): the position when the message gives one.
 *
 * @param error - What `JSON.parse` threw.
 * @returns `parseError`, a message of our own, and the UTF-16 `position` when known.
 * @throws Never.
 * @example
 * describeSyntaxError(new SyntaxError('Unexpected token } in JSON at position 7')); // { parseError: 'invalid JSON at position 7', position: 7 }
 */
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
 * How a surface refuses a JSON text that repeats a key: decode's `DUPLICATE_KEY` by default; the
 * webhook receiver answers with the spec's own code (`webhook_body_malformed`).
 */
export type DuplicateKeyRefusal = (found: DuplicateKeys, path: string, context: ErrorContext) => Error;

/**
 * decode's refusal of a JSON text that repeats a key: `DUPLICATE_KEY`, its `path` the first
 * repeat's, under the text's own pointer.
 *
 * @param found - What the scan found.
 * @param path - JSON Pointer of the text in its envelope.
 * @param context - The call the text was given to.
 * @returns The error, to throw.
 * @throws Never.
 * @example
 * duplicateKeyError({ count: 1, names: ['status'], path: '/status' }, '/content/0/text', NO_CONTEXT).path; // '/content/0/text/status'
 */
function duplicateKeyError(found: DuplicateKeys, path: string, context: ErrorContext): DecodeError {
  const at = `${path}${found.path}`;
  return new DecodeError(
    'DUPLICATE_KEY',
    `expected each key once per object in the JSON at ${shownPointer(path)}; found ${shownKeys(found)} repeated, the first at ${shownPointer(at)}`,
    { ...context, path: at },
  );
}

/**
 * The refusal {@link parseJsonText} makes of a JSON text whose objects repeat a key, for a reader
 * that parsed the text with {@link parseStrict} alone: the command line's saved answer (whose
 * prototype keys decode finds in the parsed value, with a finer path), a refusal's JSON-RPC body.
 * A full scan, linear in the text.
 *
 * @param text - JSON text `parseStrict` accepted.
 * @param path - JSON Pointer of the text in what the error is about (`''`: the text is the input).
 * @param context - The call the text was given to, for the error.
 * @returns `DUPLICATE_KEY` at the first repeat, to throw, or `undefined` when no object repeats a key.
 * @throws Never.
 * @example
 * repeatedKeyError('{"a":1,"a":2}', '')?.path; // '/a'
 */
export function repeatedKeyError(text: string, path: string, context: ErrorContext = NO_CONTEXT): DecodeError | undefined {
  const found = findDuplicateKeys(text);
  return found === undefined ? undefined : duplicateKeyError(found, path, context);
}

/**
 * Size-checks, parses and scans one untrusted JSON text: refused unparsed above `maxBytes`, then
 * parsed as strict JSON (a leading byte-order mark makes it invalid, as for `JSON.parse`), then
 * scanned once for prototype-polluting keys ({@link prototypeMember}) while its shape is measured,
 * then refused when an object in it repeats a key (`JSON.parse` kept the last value; another
 * reader of the same text may keep the first).
 *
 * @param text - The JSON text.
 * @param maxBytes - Largest accepted size in UTF-8 bytes.
 * @param path - JSON Pointer of the text in its envelope, for the errors.
 * @param context - The call the text was given to (decode's task and version), for the errors.
 * @param refuse - The error for a repeated key (decode's `DUPLICATE_KEY` unless a surface has its own).
 * @returns The parsed value and its shape, or why it was not parsed.
 * @throws {DecodeError} `UNSAFE_JSON` when the JSON holds a `__proto__` key or a `constructor` object
 *   with a `prototype` key: such a document is hostile, and skipping it could let a later item win.
 * @throws {DecodeError} `DUPLICATE_KEY` (or what `refuse` builds) when an object repeats a key, for the same reason.
 * @example
 * parseJsonText('{"products":[]}', 4 * 1024 * 1024, '/content/0/text');
 * // { ok: true, value: { products: [] }, shape: { levels: 2, nodes: 2, finite: true } }
 */
export function parseJsonText(
  text: string,
  maxBytes: number,
  path: string,
  context: ErrorContext = NO_CONTEXT,
  refuse: DuplicateKeyRefusal = duplicateKeyError,
): JsonTextParse {
  const size = measureUtf8(text, maxBytes);
  if (!size.fits) return { ok: false, reason: 'too-large', bytes: size.bytes, bytesExact: size.exact };
  const parsed = parseStrict(text);
  if (!parsed.ok) return { ok: false, reason: looksLikeJsonText(text) ? 'invalid-json' : 'not-json', ...parsed.error };
  const value = parsed.value;
  if (typeof value !== 'object' || value === null) {
    return { ok: true, value, shape: { levels: 0, nodes: 1, finite: typeof value !== 'number' || value - value === 0 } };
  }
  const scanned = scanParsed(value);
  if (scanned === undefined) {
    throw new DecodeError(
      'UNSAFE_JSON',
      `expected JSON without __proto__ or constructor.prototype keys at ${shownPointer(path)}, but found one`,
      { ...context, path },
    );
  }
  const members = countMembers(text);
  if (members !== scanned.members) {
    // The full scan finds what the counts say; were it ever to miss, the text is refused all the same.
    throw refuse(findDuplicateKeys(text) ?? { count: members - scanned.members, names: [], path: '' }, path, context);
  }
  return { ok: true, value, shape: scanned.shape };
}

/**
 * Parses strict JSON text, or says why not without quoting it: a leading byte-order mark makes
 * the text invalid (as for `JSON.parse`; RFC 8259 §8.1 lets a parser refuse it), and a syntax
 * error is described by {@link describeSyntaxError}. No size check and no scan: see {@link parseJsonText}.
 *
 * @param text - The JSON text.
 * @returns The value, or the error's description.
 * @throws Never.
 * @example
 * parseStrict('[1,'); // { ok: false, error: { parseError: 'unexpected end of JSON input' } }
 */
export function parseStrict(text: string): { ok: true; value: unknown } | { ok: false; error: { parseError: string; position?: number } } {
  if (text.charCodeAt(0) === 0xfeff)
    return { ok: false, error: { parseError: 'byte-order mark (U+FEFF) before the JSON text', position: 0 } };
  try {
    return { ok: true, value: parseQuietly(text) };
  } catch (error) {
    return { ok: false, error: describeSyntaxError(error) };
  }
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

/** `JSON.parse` without a SyntaxError stack trace (only its message is used): prose items in `content[]` fail to parse routinely. */
function parseQuietly(text: string): unknown {
  const { stackTraceLimit } = Error;
  Error.stackTraceLimit = 0;
  try {
    return JSON.parse(text) as unknown;
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/**
 * `undefined` when a value `JSON.parse` produced holds a prototype-polluting member at any depth
 * (what secure-json-parse refuses with both actions set to `'error'`); else its {@link ParsedShape}
 * and how many object members it holds (against the text's, see `countMembers`).
 * One iterative scan (cost: docs/benchmarks.md); no copy, since our own parse made plain data.
 */
function scanParsed(root: object): { shape: ParsedShape; members: number } | undefined {
  // for...in also yields inherited enumerable properties: with Object.prototype polluted by
  // someone else, only own keys count (JSON.parse makes every own key enumerable).
  const polluted = prototypePolluted();
  const stack: object[] = [root];
  const levels: number[] = [1];
  let deepest = 1;
  let nodes = 1;
  let members = 0;
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
      members++;
      const child = node[key];
      if ((key === '__proto__' || key === 'constructor') && prototypeMember(key, child)) return undefined;
      if (typeof child === 'object') {
        if (child !== null) {
          stack.push(child);
          levels.push(next);
        }
      } else if (typeof child === 'number' && child - child !== 0) finite = false;
    }
  }
  return { shape: { levels: deepest, nodes: nodes + members, finite }, members };
}

/** UTF-16 units of text measured or parsed so far in one scan of many text items; see {@link readTextItem}. */
export interface TextBudget {
  used: number;
  /** The call the scan serves (decode's task and version), for the errors. */
  readonly context?: ErrorContext;
  /** The last text parsed in this scan and what came of it, so an identical text is not parsed again. */
  last?: { readonly text: string; readonly parsed: JsonTextParse };
}

/**
 * How many times `maxBytes` of text one scan measures or parses before it gives up. Above 1 so
 * that the spec's item-by-item rule holds (an oversized item is skipped and a later item may
 * still hold the payload); finite so that the work is bounded.
 */
const TEXT_BUDGET_FACTOR = 4;

/**
 * Charges a text item against its scan's shared budget, then parses it ({@link parseJsonText})
 * once per distinct text: an item identical to the one before (one string shared by many items
 * of an already-parsed envelope, never on the wire) reuses its result, so a text costly to parse
 * (a million nested brackets) is parsed once, not once per item. The budget is
 * {@link TEXT_BUDGET_FACTOR} × `maxBytes` UTF-16 units of the items measured or parsed (longer
 * ones are skipped unmeasured); each unit is at least one UTF-8 byte, so a scan that trips it is
 * several times over the limit the spec sets for a whole message.
 *
 * @param budget The scan's budget and last parse, updated.
 * @param text The text item's string.
 * @param maxBytes Largest accepted size of one item in UTF-8 bytes.
 * @param path JSON Pointer of the text.
 * @returns The parse outcome.
 * @throws {LimitError} `TOO_LARGE` when the budget is spent; {@link DecodeError} `UNSAFE_JSON`, `DUPLICATE_KEY`.
 * @example
 * readTextItem({ used: 0 }, '{}', 1024, '/content/0/text'); // { ok: true, value: {}, ... }
 */
export function readTextItem(budget: TextBudget, text: string, maxBytes: number, path: string): JsonTextParse {
  if (text.length <= maxBytes) {
    budget.used += text.length;
    const limit = maxBytes * TEXT_BUDGET_FACTOR;
    if (budget.used > limit) {
      throw new LimitError(
        'TOO_LARGE',
        `content[] text items hold at least ${budget.used} UTF-8 bytes together; expected at most ${limit} (${TEXT_BUDGET_FACTOR} × maxBytes) for the whole result`,
        { unit: 'bytes', limit, actual: budget.used },
        { ...budget.context, path },
      );
    }
  }
  const last = budget.last;
  if (last !== undefined && last.text === text) return last.parsed;
  const parsed = parseJsonText(text, maxBytes, path, budget.context);
  budget.last = { text, parsed };
  return parsed;
}
