/**
 * Finds duplicate object keys in JSON text before it is parsed (security.mdx, webhook verifier
 * step 14): `JSON.parse` keeps the last value silently, so two parsers of the same signed bytes
 * could disagree. One pass, no recursion; keys compare after unescaping (`"a"` and `"\u0061"`
 * collide).
 */

/** At most this many duplicate names are reported (step 14b (c)). */
export const MAX_REPORTED_KEYS = 4;

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
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Scans JSON text for an object holding the same key twice, at any depth (inside arrays too).
 * Text that is not valid JSON is scanned as far as it goes; the parse that follows rejects it.
 *
 * @param text - The JSON text, unparsed.
 * @returns `undefined` when no object repeats a key, else the count and the sanitized names.
 * @throws Never.
 * @example
 * findDuplicateKeys('{"status":"approved","status":"rejected"}'); // { count: 1, names: ['status'] }
 */
export function findDuplicateKeys(text: string): DuplicateKeys | undefined {
  // One entry per open container: the keys seen so far for an object, null for an array.
  const stack: Array<Set<string> | null> = [];
  let expectKey = false;
  let count = 0;
  const names: string[] = [];
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Jump to the closing quote: one not preceded by an odd run of backslashes.
      let end = text.indexOf('"', i + 1);
      while (end !== -1) {
        let run = 0;
        for (let j = end - 1; text.charCodeAt(j) === BACKSLASH; j--) run++;
        if (run % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end === -1) return result(count, names);
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
        if (keys.has(key)) {
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
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      stack.push(null);
      expectKey = false;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      const top = stack.length > 0 ? stack[stack.length - 1] : null;
      expectKey = top !== null && top !== undefined;
    }
  }
  return result(count, names);
}

function result(count: number, names: string[]): DuplicateKeys | undefined {
  return count === 0 ? undefined : { count, names };
}
