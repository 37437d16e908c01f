/**
 * Duplicate object keys in JSON text (security.mdx, webhook verifier step 14): `JSON.parse` keeps
 * the last value silently, so two readers of the same text could disagree on what it says. The
 * members of a text are counted cheaply (every text parsed pays it); only a text whose count
 * differs from its parsed keys is scanned for the names and the place. One pass each, no
 * recursion; keys compare after unescaping (`"a"` and `"\u0061"` collide).
 */

import { shownText } from '../errors/format.js';

/** At most this many duplicate names are reported (step 14b (c)). */
const MAX_REPORTED_KEYS = 4;

/** The longest reported name, in UTF-8 bytes (step 14b (b)). */
const MAX_KEY_BYTES = 32;

/** The non-printable code points of step 14b (a), at least as wide as the spec's list. */
function isNonPrintable(cp: number): boolean {
  return (
    cp <= 0x1f ||
    (cp >= 0x7f && cp <= 0x9f) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x2028 && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069) ||
    cp === 0xfeff ||
    (cp >= 0xd800 && cp <= 0xdfff)
  );
}

const encoder = new TextEncoder();

/**
 * Sanitizes a key name for logs and errors per step 14b: cut at the first non-printable code
 * point (`<sanitized:N>`, N the UTF-8 bytes before it), else at 32 UTF-8 bytes on a code point boundary.
 *
 * @param name - The key as parsed.
 * @returns A printable name of at most 32 bytes, or `<sanitized:N>`.
 * @throws Never.
 * @example
 * sanitizeKeyName('status\u202e'); // '<sanitized:6>'
 */
export function sanitizeKeyName(name: string): string {
  let bytes = 0;
  let out = '';
  for (const char of name) {
    const cp = char.codePointAt(0) ?? 0;
    if (isNonPrintable(cp)) return `<sanitized:${bytes}>`;
    const size = encoder.encode(char).length;
    if (bytes + size > MAX_KEY_BYTES) return out;
    bytes += size;
    out += char;
  }
  return out;
}

/** The outcome of {@link findDuplicateKeys}. */
export interface DuplicateKeys {
  /** How many duplicate keys the text holds (each repeat counts once). */
  readonly count: number;
  /** The first {@link MAX_REPORTED_KEYS} of them, sanitized. */
  readonly names: readonly string[];
  /** JSON Pointer, from the text's root, of the first repeat (its key unsanitized, as in any pointer). */
  readonly path: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/** The index of the quote that closes the string opened at `open` (one not escaped by an odd run of backslashes), or -1. */
function closingQuote(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  while (end !== -1) {
    let run = 0;
    for (let j = end - 1; text.charCodeAt(j) === BACKSLASH; j--) run++;
    if (run % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return -1;
}

/**
 * How many object members a JSON text holds: its colons outside strings, one per member in JSON
 * that parsed. `JSON.parse` makes each object's repeated key one property, so a count above the
 * own keys of what it produced means some object repeated a key. About a third of `JSON.parse`'s
 * own time (the strings are skipped by `indexOf`).
 *
 * @param text - JSON text `JSON.parse` accepted.
 * @returns The number of members, repeats included.
 * @throws Never.
 * @example
 * countMembers('{"a":1,"b":{"c":":"},"a":2}'); // 4
 */
export function countMembers(text: string): number {
  let count = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(text, i);
      if (i === -1) break;
    } else if (c === COLON) count++;
  }
  return count;
}

/** A key or index as a JSON Pointer segment (RFC 6901: `~` is `~0`, `/` is `~1`). */
function segment(member: string | number): string {
  return typeof member === 'number' ? `/${member}` : `/${member.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/**
 * Scans JSON text for an object holding the same key twice, at any depth (inside arrays too).
 * Meant for text `JSON.parse` accepted; other text is scanned as far as it goes.
 *
 * @param text - The JSON text.
 * @returns `undefined` when no object repeats a key, else the count, the sanitized names and where the first repeat is.
 * @throws Never.
 * @example
 * findDuplicateKeys('{"status":"approved","status":"rejected"}'); // { count: 1, names: ['status'], path: '/status' }
 */
export function findDuplicateKeys(text: string): DuplicateKeys | undefined {
  // One entry per open container: the keys seen so far for an object, null for an array; and the
  // member being read in it (the last key, or the element's index), for the first repeat's pointer.
  const stack: Array<Set<string> | null> = [];
  const members: Array<string | number> = [];
  let expectKey = false;
  let count = 0;
  const names: string[] = [];
  let path = '';
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = closingQuote(text, i);
      if (end === -1) break;
      const keys = stack.length > 0 ? stack[stack.length - 1] : undefined;
      if (expectKey && keys !== undefined && keys !== null) {
        let key = text.slice(i + 1, end);
        if (key.includes('\\')) {
          try {
            key = JSON.parse(text.slice(i, end + 1)) as string;
          } catch {
            // An invalid escape: the parse that follows rejects the text; compare it raw meanwhile.
          }
        }
        members[members.length - 1] = key;
        if (keys.has(key)) {
          if (count === 0) path = members.map(segment).join('');
          count++;
          if (names.length < MAX_REPORTED_KEYS) names.push(sanitizeKeyName(key));
        } else {
          keys.add(key);
        }
        expectKey = false;
      }
      i = end;
    } else if (c === 0x7b /* { */) {
      stack.push(new Set());
      members.push('');
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      stack.push(null);
      members.push(0);
      expectKey = false;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      members.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      const top = stack.length > 0 ? stack[stack.length - 1] : null;
      expectKey = top !== null && top !== undefined;
      const member = members[members.length - 1];
      if (typeof member === 'number') members[members.length - 1] = member + 1;
    }
  }
  return count === 0 ? undefined : { count, names, path };
}

/**
 * The repeated names as one bounded line for a message: each quoted, then `<...N more>` past
 * {@link MAX_REPORTED_KEYS} (step 14b (c)).
 *
 * @param found - What {@link findDuplicateKeys} found.
 * @returns The list, e.g. `"status", "task_id"`.
 * @throws Never.
 * @example
 * shownKeys({ count: 6, names: ['a', 'b', 'c', 'd'], path: '/a' }); // '"a", "b", "c", "d", <...2 more>'
 */
export function shownKeys(found: DuplicateKeys): string {
  const more = found.count > found.names.length ? `, <...${found.count - found.names.length} more>` : '';
  return `${found.names.map((n) => `"${shownText(n, 40)}"`).join(', ')}${more}`;
}
