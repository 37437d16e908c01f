/**
 * The two status layers of an enclosed payload: the status its envelope states (a webhook's or a
 * poll's `status`, an A2A task's state) and the payload's own `status`. The payload's own status
 * picks the schema that judges it. Where both layers are AdCP's (a webhook or poll envelope and
 * its `result`) and contradict each other, the payload is refused, so a result the envelope calls
 * final is never an async payload, or the reverse. An A2A task state is the transport's layer
 * (a2a-response-format: "they usually align, but they are not aliases"): it says where the
 * payload is, never what it is, so it contradicts nothing (docs/architecture.md, "Two status layers").
 */
import { DecodeError, type ErrorContext } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { isAsyncStatus, isFailedStatus, isTaskStatus } from '../schema/statuses.js';

/** The status an envelope states for the payload it encloses, and which layer stated it. */
export interface StatedStatus {
  readonly status: string;
  /**
   * `'a2a'`: an A2A task's transport state (a2a-response-format: "they usually align, but they are
   * not aliases"); `'envelope'`: an AdCP envelope's task status (MCP webhook, task-status poll).
   */
  readonly layer: 'a2a' | 'envelope';
}

/**
 * What a status says of its payload: each async status its own kind (it has its own schema),
 * `completed` and the failed statuses `final` (the task's response), the others themselves. A
 * payload's `status` that is no task status (3.0's media-buy status, a governance verdict) is a
 * final response's own field.
 */
function kind(status: string, payload: boolean): string {
  if (isAsyncStatus(status)) return status;
  if (status === 'completed' || isFailedStatus(status)) return 'final';
  return payload && !isTaskStatus(status) ? 'final' : status;
}

/**
 * Whether a payload's own status contradicts the status its AdCP envelope states (both final, or the same async status, agree).
 * Why an A2A task state contradicts no payload: docs/architecture.md, "Two status layers".
 *
 * @param stated The envelope's status and its layer.
 * @param own The payload's own `status`, as sent (`undefined` when it has none: no contradiction).
 * @returns True when the two contradict each other.
 * @throws Never.
 * @example
 * contradicts({ status: 'completed', layer: 'envelope' }, 'working'); // true
 * contradicts({ status: 'completed', layer: 'a2a' }, 'working'); // false: the transport's layer
 */
export function contradicts(stated: StatedStatus, own: unknown): boolean {
  if (typeof own !== 'string' || stated.layer === 'a2a') return false;
  return kind(stated.status, false) !== kind(own, true);
}

/**
 * Throws when a payload's own status contradicts the status its envelope states.
 *
 * @param stated The envelope's status and its layer.
 * @param own The payload's own `status`, as sent.
 * @param what Names the payload in the message, e.g. `webhook result`.
 * @param context The call (task, version, stand-in release), for the error.
 * @throws {DecodeError} `MALFORMED_ENVELOPE` at `/status` (of the payload) on a contradiction.
 * @example
 * refuseContradiction({ status: 'completed', layer: 'envelope' }, 'working', 'webhook result', { task: 'create_media_buy' });
 */
export function refuseContradiction(stated: StatedStatus, own: unknown, what: string, context: ErrorContext): void {
  if (!contradicts(stated, own)) return;
  const layer = stated.layer === 'a2a' ? 'A2A task state' : 'envelope status';
  throw new DecodeError(
    'MALFORMED_ENVELOPE',
    `expected the ${what}'s own status to agree with its ${layer} "${shownText(stated.status, 40)}"; it says "${shownText(String(own), 40)}", which the two layers cannot both be`,
    { task: context.task, version: context.version, standInFor: context.standInFor, path: '/status' },
  );
}
