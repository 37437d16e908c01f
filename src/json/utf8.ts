/**
 * UTF-8 length of a JavaScript string, on web-standard APIs only (no `Buffer`): the one place the
 * library counts UTF-8 bytes (text size, `adcp_error` size, in-process values' JSON size).
 */

const encoder = new TextEncoder();
/** Reused for every count: `encodeInto` writes into it and we keep only the byte count. */
let scratch: Uint8Array | undefined;
const SCRATCH_BYTES = 64 * 1024;
/**
 * Node's native count where the runtime has one (found on globalThis, never imported, so no bundle
 * pulls in node:buffer): faster than encodeInto on long texts (docs/benchmarks.md, the TOO_LARGE row).
 */
const nativeByteLength = (globalThis as { Buffer?: { byteLength(text: string, encoding: 'utf8'): number } }).Buffer?.byteLength;
/** Below this length a counting loop beats the call into the encoder. */
const LOOP_BELOW = 64;

/**
 * The number of bytes `new TextEncoder().encode(text)` would produce (a lone surrogate counts 3
 * bytes, as the U+FFFD it is encoded as), without allocating the encoding: short strings are
 * counted in a loop, long ones by Node's native count where the runtime has one, else
 * ({@link encodedLength}) encoded 64 KiB at a time into one reused buffer.
 *
 * @param text - Any string.
 * @returns Its UTF-8 length in bytes.
 * @throws Never.
 * @example
 * utf8Length('é😀'); // 6
 */
export function utf8Length(text: string): number {
  return nativeByteLength !== undefined && text.length >= LOOP_BELOW ? nativeByteLength(text, 'utf8') : encodedLength(text);
}

/**
 * {@link utf8Length} on web-standard APIs alone, as it runs where there is no `Buffer`.
 *
 * @param text - Any string.
 * @returns Its UTF-8 length in bytes.
 * @throws Never.
 * @example
 * encodedLength('é😀'); // 6
 */
export function encodedLength(text: string): number {
  const n = text.length;
  if (n < LOOP_BELOW) {
    let bytes = n;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x80) continue;
      if (c < 0x800) bytes += 1;
      else if (c <= 0xdbff && c >= 0xd800 && i + 1 < n && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        bytes += 2; // a pair: two units, four bytes
        i++;
      } else bytes += 2;
    }
    return bytes;
  }
  scratch ??= new Uint8Array(SCRATCH_BYTES);
  let read = 0;
  let bytes = 0;
  while (read < n) {
    // A slice of a long string is a view in V8, not a copy; encodeInto never splits a pair.
    const step = encoder.encodeInto(read === 0 ? text : text.slice(read), scratch);
    read += step.read;
    bytes += step.written;
  }
  return bytes;
}

/** What `JSON.stringify` escapes (`"`, `\\`, C0 controls), and surrogates, which may be lone. */
const ESCAPED_OR_SURROGATE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * The UTF-8 bytes of a string as `JSON.stringify` writes it: its quotes, `\"`, `\\` and the
 * short escapes (`\n`, ...) as two bytes, other C0 controls and lone surrogates as six (`\u001f`,
 * `\ud800`), everything else as its UTF-8. One pass over the string, no allocation.
 *
 * @param text - Any string.
 * @returns `utf8Length(JSON.stringify(text))`.
 * @throws Never.
 * @example
 * jsonStringBytes('a"€'); // 8: "a\"€" is 1 + 1 + 2 + 3 + 1
 */
export function jsonStringBytes(text: string): number {
  const n = text.length;
  // A long string with nothing to escape and no surrogate is its UTF-8 and its quotes, counted natively.
  if (n >= LOOP_BELOW && !ESCAPED_OR_SURROGATE.test(text)) return utf8Length(text) + 2;
  let bytes = n + 2;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x7f) {
      if (c === 0x22 || c === 0x5c) bytes += 1;
      else if (c < 0x20) bytes += c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 1 : 5;
    } else if (c < 0x800) {
      if (c >= 0x80) bytes += 1;
    } else if (c < 0xd800 || c > 0xdfff) bytes += 2;
    else if (c <= 0xdbff && i + 1 < n && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a pair: two units, four bytes
      i++;
    } else bytes += 5; // a lone surrogate: \uXXXX
  }
  return bytes;
}
