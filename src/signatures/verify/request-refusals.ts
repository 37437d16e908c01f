/**
 * The request profile's own refusal codes (security.mdx, "Verifier checklist (requests)"): the
 * verifier checklist is shared with webhooks and refuses under the webhook taxonomy; under the
 * request profile each refusal is re-coded `request_*`, so a request is never refused as a webhook.
 */
import { WebhookError, type WebhookErrorCode } from '../../errors/webhook-error.js';

/** The webhook codes the shared checklist throws, each with its request-profile counterpart. */
const REQUEST_CODES = {
  webhook_signature_header_malformed: 'request_signature_header_malformed',
  webhook_signature_params_incomplete: 'request_signature_params_incomplete',
  webhook_signature_tag_invalid: 'request_signature_tag_invalid',
  webhook_signature_alg_not_allowed: 'request_signature_alg_not_allowed',
  webhook_signature_window_invalid: 'request_signature_window_invalid',
  webhook_signature_components_incomplete: 'request_signature_components_incomplete',
  webhook_signature_key_unknown: 'request_signature_key_unknown',
  webhook_signature_key_purpose_invalid: 'request_signature_key_purpose_invalid',
  webhook_signature_key_revoked: 'request_signature_key_revoked',
  webhook_signature_revocation_stale: 'request_signature_revocation_stale',
  webhook_signature_invalid: 'request_signature_invalid',
  webhook_signature_digest_mismatch: 'request_signature_digest_mismatch',
  webhook_body_malformed: 'request_body_malformed',
  webhook_target_uri_malformed: 'request_target_uri_malformed',
  webhook_signature_replayed: 'request_signature_replayed',
  webhook_signature_rate_abuse: 'request_signature_rate_abuse',
  webhook_signature_required: 'request_signature_required',
  webhook_signature_jwks_unavailable: 'request_signature_jwks_unavailable',
  // Not the spec's (it names no code for the verifier's own faults): ours, as the webhook side has them.
  webhook_replay_store_unavailable: 'request_replay_store_unavailable',
  webhook_receiver_misconfigured: 'request_verifier_misconfigured',
} as const satisfies Partial<Record<WebhookErrorCode, `request_${string}`>>;

/** A refusal of the request profile's verifier checklist. */
export type RequestSignatureCode = (typeof REQUEST_CODES)[keyof typeof REQUEST_CODES];

/** A signed request the request profile's checklist refused, with the profile's `request_*` code. */
export class RequestSignatureError extends Error {
  override readonly name = 'RequestSignatureError';

  constructor(
    readonly code: RequestSignatureCode,
    message: string,
    options: { cause: WebhookError },
  ) {
    super(`${code}: ${message}`, options);
  }
}

/**
 * Re-codes a refusal of the shared checklist under the request profile.
 *
 * @param error - What the checklist threw.
 * @returns The RequestSignatureError for a checklist refusal; anything else as it is.
 * @example
 * throw requestRefusal(new WebhookError('webhook_signature_invalid', 'bad'));
 */
export function requestRefusal(error: unknown): unknown {
  if (!(error instanceof WebhookError)) return error;
  const webhook = error;
  const code: RequestSignatureCode | undefined = (REQUEST_CODES as Partial<Record<WebhookErrorCode, RequestSignatureCode>>)[
    webhook.webhookCode
  ];
  if (code === undefined) return error;
  const message = webhook.message.startsWith(`${webhook.webhookCode}: `)
    ? webhook.message.slice(webhook.webhookCode.length + 2)
    : webhook.message;
  return new RequestSignatureError(code, message, { cause: webhook });
}
