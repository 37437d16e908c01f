/**
 * An HTTP refusal's headers read: security.mdx's `WWW-Authenticate: Signature error="<code>"`
 * (clients "MUST tolerate other parameters" and other challenges beside it) and `Retry-After` in
 * seconds. Both are read in one linear pass, whatever the header holds (Node bounds headers to 16 KiB).
 */
import type { ResponseHead } from '../fetch/bounded-fetch.js';
import { normalizeRetryAfter } from '../schema/recovery.js';
import type { HttpRefusal } from './transport-error.js';

/** An auth-param `name=value` (token or quoted-string, RFC 9110 §11.2), read from where the last one ended. */
const AUTH_PARAM = /[ \t]*([!#$%&'*+.^_`|~0-9A-Za-z-]+)[ \t]*=[ \t]*("(?:[^"\\]|\\.)*"|[!#$%&'*+.^_`|~0-9A-Za-z-]*)[ \t]*,?/y;

/** A `Signature` challenge's scheme token, at the header's start or after a comma. */
const SIGNATURE_SCHEME = /(?:^|,)[ \t]*Signature[ \t]+/gi;

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
  AUTH_PARAM.lastIndex = scheme.index + scheme[0].length;
  for (let param = AUTH_PARAM.exec(header); param !== null && param[0] !== ''; param = AUTH_PARAM.exec(header)) {
    if ((param[1] ?? '').toLowerCase() !== 'error') continue;
    const raw = param[2] ?? '';
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
