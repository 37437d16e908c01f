/**
 * error-handling.mdx's backoff, for callTask's retries and waitForTask's polls alike: the first
 * delay doubled per step, ±25% jitter, capped; and the wait itself, cut short by an abort.
 */

/** The jitter either side of the doubled delay. */
const JITTER = 0.25;

/**
 * The delay before step `step` of a backoff.
 *
 * @param firstMs - The first delay.
 * @param capMs - The longest delay.
 * @param step - Which step: 1 for the first.
 * @param random - A number in [0, 1) for the jitter; one outside it (or NaN) is held to it.
 * @returns Whole milliseconds, at least 1, at most `capMs`.
 * @throws Never.
 * @example
 * backoffMs(2000, 60_000, 3, Math.random); // 6,000 to 10,000
 */
export function backoffMs(firstMs: number, capMs: number, step: number, random: () => number): number {
  const base = Math.min(capMs, firstMs * 2 ** Math.min(step - 1, 40));
  const drawn = random();
  const unit = Number.isFinite(drawn) ? Math.min(Math.max(drawn, 0), 1) : 0.5;
  return Math.min(capMs, Math.max(1, Math.round(base * (1 - JITTER + 2 * JITTER * unit))));
}

/**
 * A timer, cut short by `signal` (rejecting with its reason, as is).
 *
 * @param ms - How long.
 * @param signal - The abort that ends it early.
 * @returns A promise that resolves after `ms`.
 * @throws The signal's reason, when it aborts first.
 * @example
 * await abortableSleep(2000, controller.signal);
 */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
