/**
 * An HTTP refusal's headers read: security.mdx's `WWW-Authenticate: Signature error="<code>"`
 * (clients "MUST tolerate other parameters" and other challenges beside it) and `Retry-After` in
 * seconds. Both are read in one linear pass, whatever the header holds (Node bounds headers to 16 KiB);
 * the auth-params by a scanner, as the regex audit cannot judge a sticky expression's one position.
 */
import type { ResponseHead } from '../fetch/bounded-fetch.js';
import { normalizeRetryAfter } from '../schema/recovery.js';
import type { HttpRefusal } from './transport-error.js';

/** A `Signature` challenge's scheme token, at the header's start or after a comma. */
const SIGNATURE_SCHEME = /(?:^|,)[ \t]*Signature[ \t]+/gi;

/** A token character (RFC 9110 §5.6.2), tested one character at a time. */
const TCHAR = /^[!#$%&'*+.^_`|~0-9A-Za-z-]$/;

const isSpace = (c: string): boolean => c === ' ' || c === '\t';
const isToken = (c: string): boolean => TCHAR.test(c);

/** The end of the run of characters from `at` that `accept` takes. */
function run(header: string, at: number, accept: (c: string) => boolean): number {
  let end = at;
  while (end < header.length && accept(header.charAt(end))) end++;
  return end;
}

/** The end of a quoted-string opening at `at` (its closing quote included), or -1 when it does not close. */
function quotedEnd(header: string, at: number): number {
  for (let i = at + 1; i < header.length; i++) {
    if (header.charAt(i) === '\\') i++;
    else if (header.charAt(i) === '"') return i + 1;
  }
  return -1;
}

/**
 * The auth-params `name=value` (token or quoted-string, RFC 9110 §11.2) from `at`, in order, up to
 * the first that is none (the next challenge's scheme): one pass, each character read once.
 */
function* authParams(header: string, at: number): Generator<readonly [string, string]> {
  let i = at;
  for (;;) {
    const nameAt = run(header, i, (c) => isSpace(c) || c === ',');
    const nameEnd = run(header, nameAt, isToken);
    const equals = run(header, nameEnd, isSpace);
    if (nameEnd === nameAt || header.charAt(equals) !== '=') return;
    const valueAt = run(header, equals + 1, isSpace);
    const valueEnd = header.charAt(valueAt) === '"' ? quotedEnd(header, valueAt) : run(header, valueAt, isToken);
    if (valueEnd < 0) return;
    yield [header.slice(nameAt, nameEnd), header.slice(valueAt, valueEnd)];
    i = valueEnd;
  }
}

/** The shape of security.mdx's codes; anything else is not shown as one. */
const CODE = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * The `error` parameter of the header's first `Signature` challenge.
 *
 * @param header - A `WWW-Authenticate` value.
 * @returns The code, or `undefined` when there is no Signature challenge or its `error` is not a code.
 * @throws Never.
 * @example
 * signatureError('Bearer realm="x", Signature error="request_signature_required"'); // 'request_signature_required'
 */
export function signatureError(header: string): string | undefined {
  SIGNATURE_SCHEME.lastIndex = 0;
  const scheme = SIGNATURE_SCHEME.exec(header);
  if (scheme === null) return undefined;
  for (const [name, raw] of authParams(header, scheme.index + scheme[0].length)) {
    if (name.toLowerCase() !== 'error') continue;
    const value = raw.startsWith('"') ? raw.slice(1, -1) : raw;
    return CODE.test(value) ? value : undefined;
  }
  return undefined;
}

/**
 * The refusal of status `status`, with what the head a bounded fetch saw for it says: the
 * Signature code on a 401, `Retry-After` (delay-seconds; an HTTP date is left out) on any.
 *
 * @param status - The status the client threw.
 * @param head - The last refusal's head the call's bounded fetch saw; used only when its status is `status`.
 * @returns The refusal.
 * @throws Never.
 * @example
 * refusalOf(401, { status: 401, wwwAuthenticate: 'Signature error="request_signature_required"', retryAfter: null });
 */
export function refusalOf(status: number, head: ResponseHead | undefined): HttpRefusal {
  if (head === undefined || head.status !== status) return { status };
  const signature = status === 401 && head.wwwAuthenticate !== null ? signatureError(head.wwwAuthenticate) : undefined;
  const seconds = head.retryAfter !== null && /^[ \t]*\d{1,10}[ \t]*$/.test(head.retryAfter) ? Number(head.retryAfter) : undefined;
  return { status, signatureError: signature, retryAfterSeconds: normalizeRetryAfter(seconds) };
}
