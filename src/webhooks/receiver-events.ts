/**
 * What a webhook receiver tells its `onEvent` listener (src/events/): one event per `receive()`,
 * built only when the receiver has a listener. A refusal says what `webhookResponse` answers for it.
 */
import { DecodeError, type TaskFailedError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { type WebhookBlame, WebhookError } from '../errors/webhook-error.js';
import type { EventRefusal, WebhookEvent } from '../events/events.js';
import { refusalOf } from '../events/tell.js';
import type { RoutedOutcome } from './deliveries.js';
import { webhookResponse } from './errors.js';

/** What receive() learned of a delivery before it resolved or threw: its body's bytes, once read, and its verified sender. */
export interface Seen {
  bytes: number | undefined;
  agent: string | undefined;
}

/** An outcome's members an event reads (receiver.ts's `WebhookOutcome`, named here below the receiver). */
type Told = Omit<RoutedOutcome, 'kind'> & { readonly status: string } & (
    | { readonly kind: 'delivered'; readonly version: string }
    | { readonly kind: 'task-failed'; readonly error: TaskFailedError }
    | { readonly kind: 'duplicate' }
  );

/** A delivered failure of the task, as an event carries it: the seller's code (shown) and words, answered 200. */
function taskFailure(error: TaskFailedError): EventRefusal<WebhookBlame> {
  const code = error.adcpError?.code;
  return refusalOf(error, {
    blame: 'none',
    detail: typeof code === 'string' ? shownText(code, 64) : undefined,
    recovery: error.recovery.recovery,
    retryAfterSeconds: error.recovery.retryAfterSeconds,
    httpStatus: 200,
    sellerText: error.sellerText,
  });
}

/**
 * The event of an outcome receive() resolved.
 *
 * @param outcome - The outcome.
 * @param bytes - Its body's bytes.
 * @param durationMs - receive()'s work on it.
 * @returns `delivery-received` or `delivery-duplicate`.
 * @throws Never.
 * @example
 * tell(onEvent, receivedEvent(outcome, seen.bytes, performance.now() - started));
 */
export function receivedEvent(outcome: Told, bytes: number | undefined, durationMs: number): WebhookEvent {
  const facts = {
    bytes,
    durationMs,
    agent: outcome.signer.agent,
    format: outcome.format,
    taskType: outcome.taskType,
    taskId: outcome.taskId === undefined ? undefined : shownText(outcome.taskId, 64),
    status: outcome.status,
  };
  if (outcome.kind === 'duplicate') return { type: 'delivery-duplicate', ...facts };
  if (outcome.kind === 'task-failed')
    return { type: 'delivery-received', kind: 'task-failed', ...facts, failure: taskFailure(outcome.error) };
  return { type: 'delivery-received', kind: 'delivered', ...facts, version: outcome.version };
}

/**
 * The event of a delivery receive() refused: the code, the status answered and the blame, as webhookResponse gives them.
 *
 * @param error - What receive() throws.
 * @param seen - What it learned of the delivery first.
 * @param durationMs - receive()'s work on it.
 * @returns `delivery-refused`.
 * @throws Never.
 * @example
 * tell(onEvent, refusedEvent(error, seen, performance.now() - started));
 */
export function refusedEvent(error: unknown, seen: Seen, durationMs: number): WebhookEvent {
  const { status, blame } = webhookResponse(error);
  const typed = error instanceof DecodeError ? error : new DecodeError('INTERNAL', 'receive() threw what is no DecodeError');
  const refusal = refusalOf(typed, {
    blame,
    detail: error instanceof WebhookError ? error.webhookCode : undefined,
    httpStatus: status,
  });
  return { type: 'delivery-refused', bytes: seen.bytes, durationMs, agent: seen.agent, refusal, error };
}
