/** The dedup store's commands held to `storeTimeoutMs`; a failure is `webhook_dedup_store_unavailable`. */

import { WebhookError } from '../../errors/webhook-error.js';
import { call } from '../deadline.js';

/**
 * Runs one dedup store command within its deadline; a failure is `webhook_dedup_store_unavailable`.
 *
 * @param work - The command.
 * @param ms - The deadline (`storeTimeoutMs`).
 * @param what - The command's name, for the message.
 * @returns Its answer (unchecked: the caller checks the shape).
 * @throws {WebhookError} `webhook_dedup_store_unavailable` (503).
 * @example
 * const state = await dedupCall(() => store.claim(request), 2_000, 'claim');
 */
export function dedupCall(work: () => unknown, ms: number, what: string): Promise<unknown> {
  const unavailable = (why: string, cause?: unknown): WebhookError =>
    new WebhookError(
      'webhook_dedup_store_unavailable',
      `the dedup store's ${what} ${why}; the receiver fails closed: check that the store (Redis) is reachable and not blocked (the sender may retry)`,
      { cause },
    );
  return call(work, ms, unavailable, 'storeTimeoutMs');
}
