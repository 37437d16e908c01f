/**
 * The response a webhook receiver sends back for what `receive()` threw, and the failed task a
 * delivered webhook reports.
 */
import { DecodeError } from '../errors/errors.js';
import { DECODE_ERROR_ANSWER, SIGNATURE_CHALLENGE, WebhookError, type WebhookBlame } from '../errors/webhook-error.js';
import { TaskFailedError } from '../errors/errors.js';
import type { DedupClaim } from '../signatures/types.js';

/** What a receiver answers: a status and headers (no body, so nothing internal is echoed), and whose fault it was. */
export interface WebhookResponseInit {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Whose fault the outcome is; log every one but `delivery` and `none` for the operator (the message says what to fix). */
  readonly blame: WebhookBlame;
}

/**
 * The HTTP answer for what `receive()` threw, by whose fault it is: 4xx only for a fault of the
 * delivery (with `WWW-Authenticate: Signature error="<code>"` for the spec's signature codes),
 * 200 for a delivered webhook that reports a failed task or a completed duplicate, 503 for a
 * dependency that failed or was late (and an identical delivery still in progress), 500 for the
 * buyer's configuration and for a defect of adcp-decode or anything that is not a DecodeError.
 *
 * @param error - What `receive()` threw.
 * @returns The status and headers to send, without a body, and the blame.
 * @throws Never.
 * @example
 * catch (e) { const { status, headers } = webhookResponse(e); res.writeHead(status, headers).end(); }
 */
export function webhookResponse(error: unknown): WebhookResponseInit {
  if (error instanceof WebhookError) {
    const headers: Record<string, string> = SIGNATURE_CHALLENGE.has(error.webhookCode)
      ? { 'www-authenticate': `Signature error="${error.webhookCode}"` }
      : {};
    return { status: error.httpStatus, headers, blame: error.blame };
  }
  if (error instanceof TaskFailedError) return { status: 200, headers: {}, blame: 'none' };
  if (error instanceof DecodeError) return { ...DECODE_ERROR_ANSWER[error.code], headers: {} };
  return { status: 500, headers: {}, blame: 'internal' };
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
  /**
   * Set by a receiver with `dedup`: this delivery's claim on its `idempotency_key`. Call
   * `complete()` once the failure is durably recorded, `release()` if recording it failed.
   */
  readonly dedup: DedupClaim | undefined;

  constructor(failure: TaskFailedError, webhook: WebhookFailure, dedup?: DedupClaim) {
    super(
      failure.message,
      { adcpError: failure.adcpError, recovery: failure.recovery, known: failure.known, sellerText: failure.sellerText },
      { task: failure.task, version: failure.version, path: failure.path, cause: failure },
    );
    this.webhook = webhook;
    this.dedup = dedup;
  }
}
