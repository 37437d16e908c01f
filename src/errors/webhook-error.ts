/**
 * The typed refusal of a webhook: the spec's `webhook_*` code (security.mdx, "Webhook error
 * taxonomy"), the HTTP status and blame each code carries. Beside DecodeError, because the
 * receiver (webhooks/) and the signature side it verifies with (signatures/) both throw it.
 */
import { DecodeError, type DecodeErrorCode, type DecodeErrorOptions } from './errors.js';

/**
 * Why a webhook was refused. The `webhook_signature_*`, `webhook_target_uri_malformed`,
 * `webhook_body_malformed` and `webhook_mode_mismatch` codes are the spec's; the others name
 * refusals the spec describes without a code (size, content type, method, envelope, the
 * `idempotency_key` dedup of webhooks.mdx "Reliability") and faults on the receiver's side.
 */
export type WebhookErrorCode =
  | 'webhook_signature_header_malformed'
  | 'webhook_signature_params_incomplete'
  | 'webhook_signature_tag_invalid'
  | 'webhook_signature_alg_not_allowed'
  | 'webhook_signature_window_invalid'
  | 'webhook_signature_components_incomplete'
  | 'webhook_signature_key_unknown'
  | 'webhook_signature_key_purpose_invalid'
  | 'webhook_signature_key_revoked'
  | 'webhook_signature_revocation_stale'
  | 'webhook_signature_invalid'
  | 'webhook_signature_digest_mismatch'
  | 'webhook_body_malformed'
  | 'webhook_target_uri_malformed'
  | 'webhook_signature_replayed'
  | 'webhook_signature_rate_abuse'
  | 'webhook_mode_mismatch'
  /** No signature headers at all (neither the RFC 9421 pair nor, when configured, HMAC). */
  | 'webhook_signature_required'
  /** The keys could not be resolved (JWKS fetch, your `keys` or `revocation` threw or passed its deadline): retryable. */
  | 'webhook_signature_jwks_unavailable'
  /** The replay store failed or passed its deadline (e.g. Redis down or blocked): retryable. */
  | 'webhook_replay_store_unavailable'
  /**
   * A part of the receiver's configuration (key resolver, revocation check, replay store, endpoint)
   * answered out of its contract: the operator's fault, never the sender's.
   */
  | 'webhook_receiver_misconfigured'
  /** The body is over the receiver's size bound (webhooks.mdx: 1 MB, before any digest). */
  | 'webhook_body_too_large'
  /** The body did not arrive whole within the receiver's body deadline (`bodyTimeoutMs`). */
  | 'webhook_body_timeout'
  /** `Content-Type` is not `application/json` (webhooks.mdx: rejected before verification). */
  | 'webhook_content_type_invalid'
  /** Not a POST. */
  | 'webhook_method_not_allowed'
  /** The body is not a valid webhook envelope (mcp-webhook-payload.json, or an A2A push body). */
  | 'webhook_envelope_invalid'
  /** The request's body is not its raw bytes (a framework parsed it, e.g. `express.json()`): fix the route. */
  | 'webhook_body_not_raw'
  /** The same delivery is being processed by another call right now: 503 until it completes (webhooks.mdx). */
  | 'webhook_duplicate_in_progress'
  /** The same `idempotency_key` with a different payload: 409, the first binding kept (webhooks.mdx). */
  | 'webhook_idempotency_conflict'
  /** The sender has filled its dedup cap (webhooks.mdx: SHOULD bound per sender, 429). */
  | 'webhook_dedup_rate_abuse'
  /** The dedup store failed, is full, or passed its deadline (e.g. Redis down): retryable. */
  | 'webhook_dedup_store_unavailable'
  /** `complete()` or `release()` came after the claim's lease expired: processing outlasted `leaseSeconds`. */
  | 'webhook_dedup_lease_expired'
  /**
   * With `handles`: no handle is known for the delivery's `task_id` / `operation_id` (yet: a
   * webhook can outrun the answer that starts its task). 503, so the sender retries.
   */
  | 'webhook_task_unknown'
  /** With `handles`: the handle lookup failed or passed its deadline (`storeTimeoutMs`): retryable. */
  | 'webhook_handles_unavailable';

/**
 * Whose fault an outcome is: the `delivery` (4xx), the buyer's `configuration` (500), a `dependency` (503), adcp-decode or
 * the runtime (`internal`, 500), or no one's (`none`: 200, or 503 for an identical delivery still in progress or a task
 * whose handle is not known yet).
 * Each, and why only `delivery` is a 4xx: docs/webhooks.md, "Whose fault it is".
 *
 * @example
 * if (webhookResponse(error).blame !== 'delivery') log(String(error)); // the operator's to fix
 */
export type WebhookBlame = 'delivery' | 'configuration' | 'dependency' | 'internal' | 'none';

/** The HTTP status a receiver answers for each code. */
export const WEBHOOK_HTTP_STATUS: Readonly<Record<WebhookErrorCode, number>> = {
  webhook_signature_header_malformed: 401,
  webhook_signature_params_incomplete: 401,
  webhook_signature_tag_invalid: 401,
  webhook_signature_alg_not_allowed: 401,
  webhook_signature_window_invalid: 401,
  webhook_signature_components_incomplete: 401,
  webhook_signature_key_unknown: 401,
  webhook_signature_key_purpose_invalid: 401,
  webhook_signature_key_revoked: 401,
  webhook_signature_revocation_stale: 401,
  webhook_signature_invalid: 401,
  webhook_signature_digest_mismatch: 401,
  webhook_body_malformed: 401,
  webhook_target_uri_malformed: 401,
  webhook_signature_replayed: 401,
  webhook_signature_rate_abuse: 401,
  webhook_mode_mismatch: 401,
  webhook_signature_required: 401,
  webhook_signature_jwks_unavailable: 503,
  webhook_replay_store_unavailable: 503,
  webhook_body_too_large: 413,
  webhook_body_timeout: 408,
  webhook_content_type_invalid: 415,
  webhook_method_not_allowed: 405,
  webhook_envelope_invalid: 400,
  webhook_body_not_raw: 500,
  webhook_receiver_misconfigured: 500,
  webhook_duplicate_in_progress: 503,
  webhook_idempotency_conflict: 409,
  webhook_dedup_rate_abuse: 429,
  webhook_dedup_store_unavailable: 503,
  webhook_dedup_lease_expired: 500,
  webhook_task_unknown: 503,
  webhook_handles_unavailable: 503,
};

/** Whose fault each code is (test/webhooks/blame.test.ts holds it to the status class). */
export const WEBHOOK_BLAME: Readonly<Record<WebhookErrorCode, WebhookBlame>> = {
  webhook_signature_header_malformed: 'delivery',
  webhook_signature_params_incomplete: 'delivery',
  webhook_signature_tag_invalid: 'delivery',
  webhook_signature_alg_not_allowed: 'delivery',
  webhook_signature_window_invalid: 'delivery',
  webhook_signature_components_incomplete: 'delivery',
  webhook_signature_key_unknown: 'delivery',
  webhook_signature_key_purpose_invalid: 'delivery',
  webhook_signature_key_revoked: 'delivery',
  webhook_signature_revocation_stale: 'delivery',
  webhook_signature_invalid: 'delivery',
  webhook_signature_digest_mismatch: 'delivery',
  webhook_body_malformed: 'delivery',
  webhook_target_uri_malformed: 'delivery',
  webhook_signature_replayed: 'delivery',
  webhook_signature_rate_abuse: 'delivery',
  webhook_mode_mismatch: 'delivery',
  webhook_signature_required: 'delivery',
  webhook_signature_jwks_unavailable: 'dependency',
  webhook_replay_store_unavailable: 'dependency',
  webhook_body_too_large: 'delivery',
  webhook_body_timeout: 'delivery',
  webhook_content_type_invalid: 'delivery',
  webhook_method_not_allowed: 'delivery',
  webhook_envelope_invalid: 'delivery',
  webhook_body_not_raw: 'configuration',
  webhook_receiver_misconfigured: 'configuration',
  webhook_duplicate_in_progress: 'none',
  webhook_idempotency_conflict: 'delivery',
  webhook_dedup_rate_abuse: 'delivery',
  webhook_dedup_store_unavailable: 'dependency',
  webhook_dedup_lease_expired: 'configuration',
  webhook_task_unknown: 'none',
  webhook_handles_unavailable: 'dependency',
};

/**
 * The answer to every other DecodeError the receiver can throw, by code. A fault of the body is
 * the sender's (4xx); an option, a caller's input or a release the buyer cannot read is the
 * buyer's setup; a deadline or a fetch's content coding, a dependency's; INTERNAL, ours.
 */
export const DECODE_ERROR_ANSWER: Readonly<Record<DecodeErrorCode, { readonly status: number; readonly blame: WebhookBlame }>> = {
  UNKNOWN_TASK: { status: 400, blame: 'delivery' },
  NO_PAYLOAD: { status: 400, blame: 'delivery' },
  INVALID_JSON: { status: 400, blame: 'delivery' },
  UNSAFE_JSON: { status: 400, blame: 'delivery' },
  DUPLICATE_KEY: { status: 400, blame: 'delivery' },
  TOO_LARGE: { status: 413, blame: 'delivery' },
  TOO_DEEP: { status: 400, blame: 'delivery' },
  // Too many values was TOO_DEEP's second meaning; it keeps that answer.
  TOO_MANY_VALUES: { status: 400, blame: 'delivery' },
  MALFORMED_ENVELOPE: { status: 400, blame: 'delivery' },
  WRAPPER_DETECTED: { status: 400, blame: 'delivery' },
  SCHEMA_MISMATCH: { status: 400, blame: 'delivery' },
  TASK_FAILED: { status: 200, blame: 'none' },
  // An answer that does not answer the request it is tied to (context, served release): the sender's.
  CONTEXT_MISMATCH: { status: 400, blame: 'delivery' },
  VERSION_MISMATCH: { status: 400, blame: 'delivery' },
  // A delivery naming another task_type, task_id or operation_id than the handle it was looked up by: the sender's.
  TASK_MISMATCH: { status: 400, blame: 'delivery' },
  // decoderFor found no release in common with the seller: the buyer's setup to resolve.
  NO_COMMON_VERSION: { status: 500, blame: 'configuration' },
  // A delivery in a release the buyer has not loaded: 500, so that the sender retries once it is.
  RELEASE_NOT_LOADED: { status: 500, blame: 'configuration' },
  UNSUPPORTED_VERSION: { status: 500, blame: 'configuration' },
  INVALID_OPTION: { status: 500, blame: 'configuration' },
  INVALID_INPUT: { status: 500, blame: 'configuration' },
  TIMEOUT: { status: 503, blame: 'dependency' },
  UNSUPPORTED_ENCODING: { status: 503, blame: 'dependency' },
  INTERNAL: { status: 500, blame: 'internal' },
  // encode()'s refusal of the buyer's own request: never a delivery's; reaching a receiver, a defect.
  INVALID_REQUEST: { status: 500, blame: 'internal' },
  // The request signer's refusal of the buyer's own request: likewise never a delivery's.
  UNSIGNABLE_REQUEST: { status: 500, blame: 'internal' },
  // callTask's refusal or failed connection on the buyer's own call: never a delivery's; reaching a receiver, a defect.
  TRANSPORT_FAILED: { status: 500, blame: 'internal' },
  // A WebhookError carries its own answer; a bare DecodeError with this code is none of ours to build.
  WEBHOOK_REJECTED: { status: 500, blame: 'internal' },
};

/** Codes that the spec's taxonomy defines and a sender reads from `WWW-Authenticate`. */
export const SIGNATURE_CHALLENGE: ReadonlySet<WebhookErrorCode> = new Set<WebhookErrorCode>([
  'webhook_signature_header_malformed',
  'webhook_signature_params_incomplete',
  'webhook_signature_tag_invalid',
  'webhook_signature_alg_not_allowed',
  'webhook_signature_window_invalid',
  'webhook_signature_components_incomplete',
  'webhook_signature_key_unknown',
  'webhook_signature_key_purpose_invalid',
  'webhook_signature_key_revoked',
  'webhook_signature_revocation_stale',
  'webhook_signature_invalid',
  'webhook_signature_digest_mismatch',
  'webhook_body_malformed',
  'webhook_target_uri_malformed',
  'webhook_signature_replayed',
  'webhook_signature_rate_abuse',
  'webhook_mode_mismatch',
  'webhook_signature_required',
]);

/**
 * A webhook refused before its payload was trusted.
 *
 * @example
 * try { await receiver.receive(request) } catch (e) {
 *   if (e instanceof WebhookError) return new Response(null, webhookResponse(e));
 * }
 */
export class WebhookError extends DecodeError {
  override readonly name = 'WebhookError';
  override readonly code: 'WEBHOOK_REJECTED' = 'WEBHOOK_REJECTED';
  /** The spec's code (or one of ours for refusals the spec leaves uncoded). */
  readonly webhookCode: WebhookErrorCode;
  /** The HTTP status to answer. */
  readonly httpStatus: number;
  /** Whose fault it is: only `delivery` is answered 4xx. */
  readonly blame: WebhookBlame;
  /** For `webhook_body_malformed`: the duplicated key names, sanitized per step 14b (at most 4). */
  readonly duplicateKeys: readonly string[] | undefined;

  constructor(webhookCode: WebhookErrorCode, message: string, options: DecodeErrorOptions & { duplicateKeys?: readonly string[] } = {}) {
    super('WEBHOOK_REJECTED', `${webhookCode}: ${message}`, options);
    this.webhookCode = webhookCode;
    this.httpStatus = WEBHOOK_HTTP_STATUS[webhookCode];
    this.blame = WEBHOOK_BLAME[webhookCode];
    this.duplicateKeys = options.duplicateKeys;
  }
}
