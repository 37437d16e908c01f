/**
 * A dependency call held to its deadline: the one wrapper the receiver's guards (dependencies.ts)
 * and the dedup claim (replay/dedup-call.ts) share, below both.
 */
import { describeThrown } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { WebhookError } from '../errors/webhook-error.js';

/**
 * `work()`, or the error `late()` builds once `ms` milliseconds have passed without an answer.
 * A synchronous throw of `work` is a rejection; a late answer is dropped.
 *
 * @param work - The call to bound.
 * @param ms - The deadline.
 * @param late - Builds the error for a call that did not answer in time.
 * @returns What `work` resolved to.
 * @throws What `work` threw, or `late()`.
 * @example
 * const reply = await withDeadline(() => store.claim(keyid, nonce, ttl), 2_000, () => new Error('the store is blocked'));
 */
async function withDeadline<T>(work: () => T | Promise<T>, ms: number, late: () => Error): Promise<T> {
  const answer = work();
  // A synchronous answer is never late (no timer could fire before it): no timer is armed for it.
  if (!isThenable(answer)) return answer;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), ms);
  });
  try {
    return await Promise.race([answer, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether `value` is a promise or another thenable: what `await` would wait for. */
function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}

/** A thrown value as one bounded line: its class and message. */
function thrownLine(error: unknown): string {
  try {
    if (error instanceof Error) return `${describeThrown(error)}: ${shownText(String(error.message), 160)}`;
  } catch {
    // A Proxy or a throwing getter: its class is all that is said of it.
  }
  return describeThrown(error);
}

/** Runs a dependency call within its deadline; anything but a WebhookError becomes `unavailable(...)`. */
export async function call<T>(
  work: () => T | Promise<T>,
  ms: number,
  unavailable: (why: string, cause?: unknown) => WebhookError,
  option: string,
): Promise<T> {
  try {
    return await withDeadline(work, ms, () => unavailable(`did not answer within ${ms} ms (${option})`));
  } catch (error) {
    if (error instanceof WebhookError) throw error;
    throw unavailable(`failed (${thrownLine(error)})`, error);
  }
}
