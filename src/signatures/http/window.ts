/**
 * The validity window of an RFC 9421 AdCP signature (verifier checklist step 5) and the lifetime
 * of its replay-cache entry (step 13), from one rule, so that the `(keyid, nonce)` entry always
 * outlives the last instant at which the verifier would accept the signature.
 */

/** The window rules: clock skew tolerated and longest validity, in seconds. */
export interface WindowRules {
  readonly skewSeconds: number;
  readonly maxValiditySeconds: number;
}

/** The profile's rules (security.mdx, "AdCP RFC 9421 profile"): ±60 s skew, 300 s at most. */
export const PROFILE_WINDOW: WindowRules = { skewSeconds: 60, maxValiditySeconds: 300 };

/** A signature's `created` and `expires`, in Unix seconds. */
export interface SignatureTimes {
  readonly created: number;
  readonly expires: number;
}

/**
 * The last instant, in milliseconds, at which the verifier accepts a signature: `expires` plus
 * the skew (step 5 refuses `expires < now − skew`, with `now` read to the millisecond).
 *
 * @param times - The signature's `created` and `expires`.
 * @param rules - The window rules.
 * @returns Milliseconds since the epoch.
 * @throws Never.
 * @example
 * lastAcceptedAt({ created: 1_700_000_000, expires: 1_700_000_300 }, PROFILE_WINDOW); // 1_700_000_360_000
 */
export function lastAcceptedAt(times: SignatureTimes, rules: WindowRules): number {
  return (times.expires + rules.skewSeconds) * 1000;
}

/**
 * Step 5 at the instant `nowMs`: why the window refuses the signature, or `undefined` when it accepts.
 *
 * @param times - The signature's `created` and `expires`.
 * @param nowMs - The verifier's clock, in milliseconds.
 * @param rules - The window rules.
 * @returns The refusal's reason, or `undefined`.
 * @throws Never.
 * @example
 * windowRefusal({ created: 100, expires: 400 }, 1_000_000, PROFILE_WINDOW); // 'the signature has expired'
 */
export function windowRefusal(times: SignatureTimes, nowMs: number, rules: WindowRules): string | undefined {
  const { created, expires } = times;
  if (expires <= created) return 'expires is not after created';
  if (expires - created > rules.maxValiditySeconds) return `the validity exceeds ${rules.maxValiditySeconds} s`;
  if (created * 1000 > nowMs + rules.skewSeconds * 1000) return 'created is in the future';
  if (nowMs > lastAcceptedAt(times, rules)) return 'the signature has expired';
  return undefined;
}

/**
 * The replay-cache lifetime of a nonce claimed at `nowMs`, in whole seconds (what `SET EX` and
 * every store take): strictly longer than what is left until {@link lastAcceptedAt}, so an entry
 * claimed at `nowMs` or later is still live at the last instant the signature is accepted.
 *
 * @param times - The signature's `created` and `expires`.
 * @param nowMs - The instant of the claim (or earlier), in milliseconds.
 * @param rules - The window rules.
 * @returns Seconds, at least 1.
 * @throws Never.
 * @example
 * replayTtlSeconds({ created: 100, expires: 400 }, 399_500, PROFILE_WINDOW); // 61
 */
export function replayTtlSeconds(times: SignatureTimes, nowMs: number, rules: WindowRules): number {
  return Math.max(1, Math.floor((lastAcceptedAt(times, rules) - nowMs) / 1000) + 1);
}
