/**
 * The typed refusal of a webhook: the spec's `webhook_*` code (security.mdx, "Webhook error
 * taxonomy"), the HTTP status to answer, and the response a receiver sends back.
 */
import { DecodeError, LimitError, TaskFailedError, type DecodeErrorOptions } from '../errors/errors.js';

/**
 * Why a webhook was refused. The `webhook_signature_*`, `webhook_target_uri_malformed`,
 * `webhook_body_malformed` and `webhook_mode_mismatch` codes are the spec's; the others name
 * refusals the spec describes without a code (size, content type, method, envelope, local faults).
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
  /** The JWKS could not be fetched (network, status, bounds): our side, retryable. */
  | 'webhook_signature_jwks_unavailable'
  /** The replay store failed (e.g. Redis down): our side, retryable. */
  | 'webhook_replay_store_unavailable'
  /** The body is over the receiver's size bound (webhooks.mdx: 1 MB, before any digest). */
  | 'webhook_body_too_large'
  /** `Content-Type` is not `application/json` (webhooks.mdx: rejected before verification). */
  | 'webhook_content_type_invalid'
  /** Not a POST. */
  | 'webhook_method_not_allowed'
  /** The body is not a valid webhook envelope (mcp-webhook-payload.json, or an A2A push body). */
  | 'webhook_envelope_invalid';

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
  webhook_content_type_invalid: 415,
  webhook_method_not_allowed: 405,
  webhook_envelope_invalid: 400,
};

/** Codes that the spec's taxonomy defines and a sender reads from `WWW-Authenticate`. */
const SIGNATURE_CHALLENGE = new Set<WebhookErrorCode>([
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
  /** For `webhook_body_malformed`: the duplicated key names, sanitized per step 14b (at most 4). */
  readonly duplicateKeys: readonly string[] | undefined;

  constructor(webhookCode: WebhookErrorCode, message: string, options: DecodeErrorOptions & { duplicateKeys?: readonly string[] } = {}) {
    super('WEBHOOK_REJECTED', `${webhookCode}: ${message}`, options);
    this.webhookCode = webhookCode;
    this.httpStatus = WEBHOOK_HTTP_STATUS[webhookCode];
    this.duplicateKeys = options.duplicateKeys;
  }
}

/** What a receiver answers: a status and headers (no body, so nothing internal is echoed). */
export interface WebhookResponseInit {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * The HTTP answer for an error `receive()` threw: the refusal's status with
 * `WWW-Authenticate: Signature error="<code>"` for signature codes (security.mdx), 200 for an
 * authenticated webhook that reports a failed task (it was delivered; retrying changes nothing),
 * 413 for a bound passed, 400 for any other payload fault, 500 for anything else.
 *
 * @param error - What `receive()` threw.
 * @returns The status and headers to send, without a body.
 * @throws Never.
 * @example
 * catch (e) { const { status, headers } = webhookResponse(e); res.writeHead(status, headers).end(); }
 */
export function webhookResponse(error: unknown): WebhookResponseInit {
  if (error instanceof WebhookError) {
    const headers: Record<string, string> = SIGNATURE_CHALLENGE.has(error.webhookCode)
      ? { 'www-authenticate': `Signature error="${error.webhookCode}"` }
      : {};
    return { status: error.httpStatus, headers };
  }
  if (error instanceof TaskFailedError) return { status: 200, headers: {} };
  if (error instanceof LimitError) return { status: error.code === 'TIMEOUT' ? 503 : 413, headers: {} };
  if (error instanceof DecodeError && error.code !== 'INVALID_OPTION') return { status: 400, headers: {} };
  return { status: 500, headers: {} };
}

/** The envelope of a webhook that reported a failed task, and who signed it. */
export interface WebhookFailure {
  readonly format: 'mcp' | 'a2a';
  readonly taskType: string;
  readonly taskId: string | undefined;
  readonly operationId: string | undefined;
  readonly idempotencyKey: string | undefined;
  readonly status: string;
  /** Set by the receiver: who signed the webhook (`undefined` from decodeWebhook). */
  readonly signer: { readonly keyid: string; readonly alg: string; readonly agent: string } | undefined;
}

/**
 * A webhook that was delivered intact and reports that its task failed (`adcp_error`, or a
 * failed/rejected/canceled status): a TaskFailedError that also carries the envelope, so the
 * receiver can record the failure under its `idempotency_key` and answer 2xx.
 *
 * @example
 * catch (e) { if (e instanceof WebhookTaskFailedError) await recordFailure(e.webhook.taskId, e.adcpError); }
 */
export class WebhookTaskFailedError extends TaskFailedError {
  /** The webhook's envelope fields and signer. */
  readonly webhook: WebhookFailure;

  constructor(failure: TaskFailedError, webhook: WebhookFailure) {
    super(
      failure.message,
      { adcpError: failure.adcpError, recovery: failure.recovery, known: failure.known, sellerText: failure.sellerText },
      { task: failure.task, version: failure.version, path: failure.path, cause: failure },
    );
    this.webhook = webhook;
  }
}
