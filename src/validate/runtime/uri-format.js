// @ts-check
/**
 * The JSON Schema `uri` format as a left-to-right scan: the same language as ajv-formats' full
 * `uri` (its RFC 3986 regex, case-insensitive, ASCII only), without that regex, which V8 compiles
 * on its first use in every fresh process (the cost is in docs/benchmarks.md). Each character is
 * read a bounded number of times and nothing is allocated, so the work is linear in the length.
 *
 * How the regex's language splits without backtracking: the scheme ends at the first `:`; the
 * hier-part at the first `?` or `#` (no set before them holds either); the query at the next `#`.
 * A hier-part of path characters only is accepted by one of the regex's three path forms whatever
 * its shape (non-empty, and `//…` is an empty authority and an absolute path), so an authority
 * needs parsing only when the hier-part holds a character a path cannot (`[`, `]`).
 */

const ALPHA = 1;
/** `[a-z0-9+\-.]`: the scheme after its first letter. */
const SCHEME = 2;
/** Unreserved and sub-delims: a reg-name. */
const REG_NAME = 4;
/** A reg-name's characters and `:`: userinfo, and the tail of an IPvFuture literal. */
const USERINFO = 8;
/** A path segment's characters: userinfo's and `@`. */
const PCHAR = 16;
/** A hier-part path: segments and `/`. */
const PATH = 32;
/** The query and the fragment: a path's characters and `?`. */
const QUERY = 64;
const HEX = 128;

const COLON = 0x3a;
const SLASH = 0x2f;
const QUESTION = 0x3f;
const HASH = 0x23;
const AT = 0x40;
const PERCENT = 0x25;
const DOT = 0x2e;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** The classes of each ASCII character; anything above U+007F belongs to none (the regex has no `u` flag, so `/i` never folds it into ASCII). */
const CLASSES = new Uint8Array(128);
/**
 * Adds `classes` to each character of `chars`.
 * @param {string} chars
 * @param {number} classes
 * @returns {void}
 */
function mark(chars, classes) {
  for (let i = 0; i < chars.length; i++) {
    const c = chars.charCodeAt(i);
    CLASSES[c] = /** @type {number} */ (CLASSES[c]) | classes;
  }
}
const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
mark(LETTERS, ALPHA);
mark(`${LETTERS}${DIGITS}+-.`, SCHEME);
mark(`${LETTERS}${DIGITS}-._~!$&'()*+,;=`, REG_NAME | USERINFO | PCHAR | PATH | QUERY);
mark(':', USERINFO | PCHAR | PATH | QUERY);
mark('@', PCHAR | PATH | QUERY);
mark('/', PATH | QUERY);
mark('?', QUERY);
mark(`${DIGITS}abcdefABCDEF`, HEX);

/**
 * Whether the character at `i` is ASCII and in one of `classes`.
 * @param {string} text
 * @param {number} i
 * @param {number} classes
 * @returns {boolean}
 */
function has(text, i, classes) {
  const c = text.charCodeAt(i);
  return c < 128 && (classes & /** @type {number} */ (CLASSES[c])) !== 0;
}

/**
 * Whether the character at `i` is an ASCII digit.
 * @param {string} text
 * @param {number} i
 * @returns {boolean}
 */
function isDigit(text, i) {
  const c = text.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
}

/**
 * The end of the run from `i` (before `end`) of characters in `classes` or `%` and two hex digits.
 * @param {string} text
 * @param {number} i
 * @param {number} end
 * @param {number} classes
 * @returns {number}
 */
function span(text, i, end, classes) {
  // The class lookup is inlined: this loop is most of the work, and a fresh process runs it in
  // V8's interpreter for its first thousand URIs or so, where every call counts.
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c < 128 && (classes & /** @type {number} */ (CLASSES[c])) !== 0) i++;
    else if (c === PERCENT && i + 2 < end && has(text, i + 1, HEX) && has(text, i + 2, HEX)) i += 3;
    else break;
  }
  return i;
}

/**
 * The first index in [i, end) holding `code`, or `end`.
 * @param {string} text
 * @param {number} i
 * @param {number} end
 * @param {number} code
 * @returns {number}
 */
function find(text, i, end, code) {
  while (i < end && text.charCodeAt(i) !== code) i++;
  return i;
}

/**
 * Whether `text` is a URI as ajv-formats' full `uri` format judges it (RFC 3986 `URI`: a scheme,
 * an authority or path, a query and a fragment; percent-encodings, IPv6 and IPvFuture literals).
 *
 * @param {string} text Any string.
 * @returns {boolean} `true` exactly when `fullFormats.uri(text)` of ajv-formats is true.
 * @throws Never.
 * @example
 * isUri('https://[::1]:8080/a?b#c'); // true
 * isUri('//example.com/no-scheme'); // false
 */
export function isUri(text) {
  const n = text.length;
  if (n === 0 || !has(text, 0, ALPHA)) return false;
  let i = 1;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || (SCHEME & /** @type {number} */ (CLASSES[c])) === 0) break;
  }
  if (i === n || text.charCodeAt(i) !== COLON) return false;
  const hierStart = i + 1;
  // One pass in the common case: a hier-part of path characters, then `?`, `#` or the end.
  let hierEnd = span(text, hierStart, n, PATH);
  const pathOnly = hierEnd === n || isQueryOrFragmentStart(text, hierEnd);
  if (!pathOnly) while (hierEnd < n && !isQueryOrFragmentStart(text, hierEnd)) hierEnd++;
  let end = hierEnd;
  if (end < n && text.charCodeAt(end) === QUESTION) end = span(text, end + 1, n, QUERY);
  if (end < n && text.charCodeAt(end) === HASH) end = span(text, end + 1, n, QUERY);
  if (end !== n || hierEnd === hierStart) return false;
  // Path characters alone pass one of the regex's path forms whatever their shape (a leading `//`
  // reads as an empty authority and an absolute path). Anything else needs the `/` (the regex reads
  // `\/?\/`) or `//` and an authority: after `//` it could also start at the second `/`, but an
  // empty authority leaves only path characters, which failed.
  if (pathOnly) return true;
  if (text.charCodeAt(hierStart) !== SLASH) return false;
  const authority = hierStart + 1 < hierEnd && text.charCodeAt(hierStart + 1) === SLASH ? hierStart + 2 : hierStart + 1;
  return isAuthorityAndPath(text, authority, hierEnd);
}

/**
 * Whether the character at `i` starts a query (`?`) or a fragment (`#`).
 * @param {string} text
 * @param {number} i
 * @returns {boolean}
 */
function isQueryOrFragmentStart(text, i) {
  const c = text.charCodeAt(i);
  return c === QUESTION || c === HASH;
}

/**
 * Whether [start, end) is an authority (userinfo, host, port) and a path of path characters.
 * @param {string} text
 * @param {number} start
 * @param {number} end
 * @returns {boolean}
 */
function isAuthorityAndPath(text, start, end) {
  const pathStart = find(text, start, end, SLASH);
  if (span(text, pathStart, end, PATH) !== end) return false;
  // No part of an authority after its userinfo holds an `@`.
  const at = find(text, start, pathStart, AT);
  let host = start;
  if (at < pathStart) {
    if (span(text, start, at, USERINFO) !== at) return false;
    host = at + 1;
  }
  /** @type {number} */
  let port;
  if (host < pathStart && text.charCodeAt(host) === OPEN_BRACKET) {
    const close = find(text, host + 1, pathStart, CLOSE_BRACKET);
    if (close === pathStart || !isIpLiteral(text, host + 1, close)) return false;
    port = close + 1;
  } else {
    // A dotted IPv4 address is a reg-name too.
    port = span(text, host, pathStart, REG_NAME);
  }
  if (port === pathStart) return true;
  if (text.charCodeAt(port) !== COLON) return false;
  for (let i = port + 1; i < pathStart; i++) if (!isDigit(text, i)) return false;
  return true;
}

/**
 * Between the brackets: an IPv6 address or `v` hex `.` and one or more of userinfo's characters (no percent-encoding).
 * @param {string} text
 * @param {number} start
 * @param {number} end
 * @returns {boolean}
 */
function isIpLiteral(text, start, end) {
  const c = text.charCodeAt(start);
  if (c !== 0x76 && c !== 0x56) return isIpv6(text, start, end); // not `v` or `V`
  let i = start + 1;
  while (i < end && has(text, i, HEX)) i++;
  if (i === start + 1 || i === end || text.charCodeAt(i) !== DOT) return false;
  if (++i === end) return false;
  while (i < end && has(text, i, USERINFO)) i++;
  return i === end;
}

/**
 * RFC 3986 `IPv6address`: eight groups of 1-4 hex digits, the last two possibly one dotted IPv4
 * address, or fewer than eight with one `::` standing for the rest.
 * @param {string} text
 * @param {number} start
 * @param {number} end
 * @returns {boolean}
 */
function isIpv6(text, start, end) {
  let groups = 0;
  let compressed = false;
  let i = start;
  if (i + 1 < end && text.charCodeAt(i) === COLON && text.charCodeAt(i + 1) === COLON) {
    compressed = true;
    i += 2;
  }
  while (i < end) {
    const group = i;
    while (i < end && has(text, i, HEX)) i++;
    if (i < end && text.charCodeAt(i) === DOT) {
      // A dotted IPv4 address is the last two groups, so it ends the literal.
      if (!isIpv4(text, group, end)) return false;
      groups += 2;
      break;
    }
    if (i === group || i - group > 4) return false;
    groups++;
    if (i === end) break;
    if (text.charCodeAt(i) !== COLON) return false;
    i++;
    if (i < end && text.charCodeAt(i) === COLON) {
      if (compressed) return false;
      compressed = true;
      i++;
    } else if (i === end) return false;
  }
  return compressed ? groups <= 7 : groups === 8;
}

/**
 * Four dot-separated numbers of one to three digits up to 255 (leading zeros allowed, as the regex's `[01]?\d\d?` does).
 * @param {string} text
 * @param {number} start
 * @param {number} end
 * @returns {boolean}
 */
function isIpv4(text, start, end) {
  let i = start;
  for (let part = 0; part < 4; part++) {
    if (part > 0) {
      if (i === end || text.charCodeAt(i) !== DOT) return false;
      i++;
    }
    let value = 0;
    const first = i;
    while (i < end && i - first < 3 && isDigit(text, i)) value = value * 10 + text.charCodeAt(i++) - 0x30;
    if (i === first || value > 255) return false;
  }
  return i === end;
}
