/**
 * The response a webhook receiver sends back, for a refusal or for an outcome `receive()`
 * resolved, and the failed task a delivered webhook reports.
 */
import { DecodeError, TaskFailedError } from '../errors/errors.js';
import { DECODE_ERROR_ANSWER, SIGNATURE_CHALLENGE, type WebhookBlame, WebhookError } from '../errors/webhook-error.js';
import { isObject, own } from '../json/own.js';

/** What a receiver answers: a status and headers (no body, so nothing internal is echoed), and whose fault it was. */
export interface WebhookResponseInit {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Whose fault the outcome is; log every one but `delivery` and `none` for the operator (the message says what to fix). */
  readonly blame: WebhookBlame;
}

/** The kinds of outcome `receive()` resolves (receiver.ts's `WebhookOutcome`; named here, below the receiver). */
const OUTCOME_KINDS: ReadonlySet<unknown> = new Set(['delivered', 'task-failed', 'duplicate']);

/**
 * The HTTP answer for what `receive()` resolved or threw: 200 for an outcome, and for a refusal the status of whose fault it is.
 * Each status, and when to send an outcome's 200: docs/webhooks.md, "Whose fault it is".
 *
 * @param answered - What `receive()` resolved (a `WebhookOutcome`) or threw.
 * @returns The status and headers to send, without a body (`WWW-Authenticate: Signature error="<code>"` for the spec's
 *   signature codes), and the blame.
 * @throws Never.
 * @example
 * catch (e) { const { status, headers } = webhookResponse(e); res.writeHead(status, headers).end(); }
 */
export function webhookResponse(answered: unknown): WebhookResponseInit {
  // An Error is never an outcome, whatever members it carries.
  if (isObject(answered) && !(answered instanceof Error) && OUTCOME_KINDS.has(own(answered, 'kind')))
    return { status: 200, headers: {}, blame: 'none' };
  if (answered instanceof WebhookError) {
    const headers: Record<string, string> = SIGNATURE_CHALLENGE.has(answered.webhookCode)
      ? { 'www-authenticate': `Signature error="${answered.webhookCode}"` }
      : {};
    return { status: answered.httpStatus, headers, blame: answered.blame };
  }
  if (answered instanceof TaskFailedError) return { status: 200, headers: {}, blame: 'none' };
  if (answered instanceof DecodeError) return { ...DECODE_ERROR_ANSWER[answered.code], headers: {} };
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
 * failed/rejected/canceled status): a TaskFailedError that also carries the envelope. decodeWebhook
 * throws it; a receiver resolves it as the `error` of a `task-failed` outcome.
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
