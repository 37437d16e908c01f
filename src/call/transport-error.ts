/**
 * TransportError: callTask got no seller answer to decode, because the seller refused the request
 * at the HTTP level or the connection failed. Whose fault it is and what to do follow the status
 * and, on a 401, the `WWW-Authenticate: Signature error="<code>"` security.mdx's transport error
 * taxonomy defines: a refusal that fails identically on every resend is never `transient`.
 */
import { DecodeError, type DecodeErrorOptions, type RecoveryClassification } from '../errors/errors.js';

/**
 * Whose fault a transport failure is: the request as sent (`request`: a malformed or unsigned
 * body, a bad signature), the caller's setup (`configuration`: credentials, keys, the URL),
 * the seller (`seller`: a 5xx), or the network between (`network`: a refused or dropped connection, a 408).
 */
export type TransportBlame = 'request' | 'configuration' | 'seller' | 'network';

/** security.mdx's request-signing codes by blame; `request_signature_jwks_unavailable` alone is transient. */
const SIGNATURE_BLAME: Readonly<Record<string, TransportBlame>> = {
  request_signature_required: 'configuration',
  request_target_uri_malformed: 'request',
  request_signature_header_malformed: 'request',
  request_signature_params_incomplete: 'request',
  request_signature_tag_invalid: 'configuration',
  request_signature_alg_not_allowed: 'configuration',
  request_signature_window_invalid: 'configuration',
  request_signature_components_incomplete: 'configuration',
  request_signature_components_unexpected: 'configuration',
  request_signature_key_unknown: 'configuration',
  request_signature_key_purpose_invalid: 'configuration',
  request_signature_key_revoked: 'configuration',
  request_signature_revocation_stale: 'configuration',
  request_signature_invalid: 'request',
  request_signature_digest_mismatch: 'request',
  request_body_malformed: 'request',
  request_signature_replayed: 'request',
  request_signature_rate_abuse: 'configuration',
  request_signature_jwks_unavailable: 'network',
  request_signature_jwks_untrusted: 'configuration',
};

/** The codes security.mdx answers "No (block new)": the seller refuses new requests until a human acts. */
const BLOCKING_SIGNATURE_CODES: ReadonlySet<string> = new Set(['request_signature_revocation_stale', 'request_signature_rate_abuse']);

/** Statuses that name the caller's setup rather than the request: credentials, permissions, the URL. */
const CONFIGURATION_STATUSES: ReadonlySet<number> = new Set([401, 403, 404, 405, 407, 410, 421]);

/** What the seller's HTTP refusal said, as the call saw it. */
export interface HttpRefusal {
  /** The HTTP status. */
  readonly status: number;
  /** The `WWW-Authenticate: Signature error="<code>"` code, when the call's bounded fetch saw the header. */
  readonly signatureError?: string | undefined;
  /** The `Retry-After` header in seconds (rounded up, clamped to [1, 3600]), when seen. */
  readonly retryAfterSeconds?: number | undefined;
}

/** Blame and recovery of an HTTP refusal: 5xx, 408 and 429 are transient; every other status fails alike when resent. */
export function judgeRefusal(refusal: HttpRefusal): { blame: TransportBlame; recovery: RecoveryClassification } {
  const { status, signatureError, retryAfterSeconds } = refusal;
  const later = retryAfterSeconds === undefined ? {} : { retryAfterSeconds };
  if (status >= 500) return { blame: 'seller', recovery: { recovery: 'transient', ...later } };
  if (status === 408) return { blame: 'network', recovery: { recovery: 'transient', ...later } };
  // A rate limit: the request is fine, its rate is not; security.mdx and error-handling.mdx retry it later.
  if (status === 429) return { blame: 'request', recovery: { recovery: 'transient', ...later } };
  if (status === 401 && signatureError !== undefined) {
    const blame = Object.hasOwn(SIGNATURE_BLAME, signatureError) ? (SIGNATURE_BLAME[signatureError] as TransportBlame) : undefined;
    if (blame === 'network') return { blame, recovery: { recovery: 'transient', ...later } };
    // An unknown code is the seller's to explain: terminal, as unknown recovery values are.
    if (blame === undefined || BLOCKING_SIGNATURE_CODES.has(signatureError))
      return { blame: blame ?? 'configuration', recovery: { recovery: 'terminal' } };
    return { blame, recovery: { recovery: 'correctable' } };
  }
  if (CONFIGURATION_STATUSES.has(status) || (status >= 300 && status < 400))
    return { blame: 'configuration', recovery: { recovery: 'correctable' } };
  return { blame: 'request', recovery: { recovery: 'correctable' } };
}

/**
 * `TRANSPORT_FAILED`: no seller answer reached decode. `status` is set for an HTTP refusal and
 * `undefined` for a connection that failed or dropped (`cause` holds what the client threw).
 *
 * @example
 * const r = await safeCallTask(client, 'create_media_buy', plan, { version: '3.1' });
 * if (!r.success && r.error instanceof TransportError && r.error.signatureError === 'request_signature_required') signIt();
 */
export class TransportError extends DecodeError {
  override readonly name = 'TransportError';
  override readonly code: 'TRANSPORT_FAILED' = 'TRANSPORT_FAILED';
  /** The HTTP status the seller refused with; `undefined` when no response arrived (the connection failed). */
  readonly status: number | undefined;
  /** On a 401: security.mdx's request-signing code from `WWW-Authenticate: Signature error`, when seen (boundedFetch). */
  readonly signatureError: string | undefined;
  /** Whose fault: see {@link TransportBlame}. */
  readonly blame: TransportBlame;
  /** `transient` for a connection failure, 5xx, 408, 429 and `request_signature_jwks_unavailable`; else what fixing takes. */
  readonly recovery: RecoveryClassification;
  /** The response body's words, escaped and at most 1,000 characters (shownText); never the raw body. */
  readonly sellerText: string | undefined;

  constructor(
    message: string,
    data: { refusal?: HttpRefusal | undefined; sellerText?: string | undefined },
    options: DecodeErrorOptions = {},
  ) {
    super('TRANSPORT_FAILED', message, options);
    const { refusal } = data;
    const judged =
      refusal === undefined ? { blame: 'network' as const, recovery: { recovery: 'transient' as const } } : judgeRefusal(refusal);
    this.status = refusal?.status;
    this.signatureError = refusal?.signatureError;
    this.blame = judged.blame;
    this.recovery = judged.recovery;
    this.sellerText = data.sellerText;
  }
}
