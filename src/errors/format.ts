/**
 * Seller text made fit for one line of a message, a log or a terminal, and the human-readable
 * rendering of a DecodeError, in the zod `prettifyError` shape.
 */
import { type DecodeError, RequestError, SchemaMismatchError } from './errors.js';

/** Longest JSON Pointer shown to a human; the full one stays in the error's data. */
const MAX_SHOWN_POINTER = 120;

/** Longest piece of seller text shown by default. */
const MAX_SHOWN_TEXT = 200;

/** Longest Ajv issue message shown (they name schema values, such as a `pattern`). */
const MAX_SHOWN_ISSUE = 300;

/**
 * Whether a UTF-16 unit is one security.mdx's log-sanitizing rule lists, or one of the invisible ones we add (U+2060-U+2064);
 * lone surrogates are judged apart, by {@link pieceAt}. The list: docs/robustness.md, "Seller text in messages, issues and the CLI".
 */
function unsafe(unit: number): boolean {
  if (unit < 0x20) return true;
  if (unit < 0x7f) return false;
  return (
    unit <= 0x9f ||
    unit === 0x061c ||
    (unit >= 0x200b && unit <= 0x200f) ||
    (unit >= 0x2028 && unit <= 0x202e) ||
    (unit >= 0x2060 && unit <= 0x2064) ||
    (unit >= 0x2066 && unit <= 0x2069) ||
    unit === 0xfeff
  );
}

const isHigh = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;
const escaped = (unit: number): string => `\\u${unit.toString(16).padStart(4, '0')}`;

/**
 * The shown form of the character at `start` (a surrogate pair is one character): itself, or
 * `\uXXXX` when it is unsafe or a lone surrogate; `width` is how many UTF-16 units it spans.
 */
function pieceAt(text: string, start: number): { shown: string; width: number } {
  const unit = text.charCodeAt(start);
  if (isHigh(unit) && start + 1 < text.length && isLow(text.charCodeAt(start + 1)))
    return { shown: text.slice(start, start + 2), width: 2 };
  if (isHigh(unit) || isLow(unit) || unsafe(unit)) return { shown: escaped(unit), width: 1 };
  return { shown: text[start] as string, width: 1 };
}

/** The same, for the character that ends just before `end`. */
function pieceBefore(text: string, end: number): { shown: string; width: number } {
  const unit = text.charCodeAt(end - 1);
  if (isLow(unit) && end >= 2 && isHigh(text.charCodeAt(end - 2))) return { shown: text.slice(end - 2, end), width: 2 };
  return pieceAt(text, end - 1);
}

/** True when no character of `text` needs escaping (no unsafe unit, no surrogate). */
function plain(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unsafe(unit) || (unit >= 0xd800 && unit <= 0xdfff)) return false;
  }
  return true;
}

/** Shown pieces from the start of `text` while they fit in `budget` characters, and where they stop. */
function head(text: string, budget: number): { shown: string; end: number } {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const piece = pieceAt(text, i);
    if (out.length + piece.shown.length > budget) break;
    out += piece.shown;
    i += piece.width;
  }
  return { shown: out, end: i };
}

/** Shown pieces from the end of `text` while they fit in `budget` characters. */
function tail(text: string, budget: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let end = text.length; end > 0; ) {
    const { shown, width } = pieceBefore(text, end);
    if (length + shown.length > budget) break;
    parts.push(shown);
    length += shown.length;
    end -= width;
  }
  return parts.reverse().join('');
}

/**
 * Seller text as it may appear in a message, a log line or a terminal: every character that can break a line, drive a
 * terminal or reorder what a reader sees, and every lone surrogate, written `\uXXXX`, the whole cut to `max` characters.
 * Which characters, and why showing twice is safe: docs/robustness.md, "Seller text in messages, issues and the CLI".
 *
 * @param text Any string, typically a seller's key, code or message.
 * @param max The longest result, at least 8.
 * @param keep `'start'` keeps the beginning; `'ends'` keeps both ends (for JSON Pointers, whose
 *   last segment says where the problem is).
 * @returns Text holding none of those characters, at most `max` characters long, cut with `…` (at the end, or in the
 *   middle with `keep: 'ends'`) without splitting a character or an escape; already-shown text comes back unchanged.
 * @throws Never.
 * @example
 * shownText('Slow down\u001b[2J\u202e', 40); // 'Slow down\\u001b[2J\\u202e'
 */
export function shownText(text: string, max: number = MAX_SHOWN_TEXT, keep: 'start' | 'ends' = 'start'): string {
  if (text.length <= max && plain(text)) return text;
  const whole = head(text, max);
  if (whole.end === text.length) return whole.shown;
  if (keep === 'start') return `${head(text, max - 1).shown}…`;
  const front = Math.ceil((max - 1) / 2);
  return `${head(text, front).shown}…${tail(text, max - 1 - front)}`;
}

/**
 * A JSON Pointer fit for one line of text: its keys are the seller's, so they are shown with
 * {@link shownText}, and a pointer longer than 120 characters keeps both ends around a `…`;
 * `''` (the root) is shown as `(root)`.
 *
 * @param path A JSON Pointer, e.g. from {@link ValidationIssue.path}.
 * @returns The pointer as shown in messages and by {@link formatIssues}.
 * @throws Never.
 * @example
 * shownPointer('/extensions/a\nb'); // '/extensions/a\\u000ab'
 */
export function shownPointer(path: string): string {
  return path === '' ? '(root)' : shownText(path, MAX_SHOWN_POINTER, 'ends');
}

/**
 * A count with thousands separators, as `toLocaleString('en-US')` writes it, without loading a
 * locale (its first call cost more than the rest of a first failing decode's message).
 * @param count A non-negative integer.
 * @returns The digits grouped by three with commas.
 * @example grouped(100000) // '100,000'
 */
export function grouped(count: number): string {
  const digits = String(count);
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return out;
}

/**
 * Prints an error's issues for humans: one `✖ message` line per issue, each followed by
 * `  → at <JSON Pointer>`. Errors without issues print their message (and their `path`, if any).
 * Everything is shown with {@link shownText}, so a seller's key cannot break the layout.
 *
 * @param error A DecodeError (any code).
 * @returns Lines joined with `\n`, no trailing newline.
 * @throws Never.
 * @example
 * console.error(formatIssues(error));
 * // ✖ must have required property 'product_id'
 * //   → at /products/0
 */
export function formatIssues(error: DecodeError): string {
  // A seller's schema mismatch and a request encode() refused list their issues alike.
  const issues = error instanceof SchemaMismatchError || error instanceof RequestError ? error.issues : [];
  if (issues.length === 0) {
    const at = error.path === undefined || error.path === '' ? '' : `\n  → at ${shownPointer(error.path)}`;
    return `✖ ${shownText(error.message, Infinity)}${at}`;
  }
  return issues.map((issue) => `✖ ${shownText(issue.message, MAX_SHOWN_ISSUE)}\n  → at ${shownPointer(issue.path)}`).join('\n');
}
