/**
 * The `(keyid, nonce)` replay cache of the webhook verifier (checklist steps 9a, 12, 13) and its
 * bounded in-memory default, sized per security.mdx "Webhook replay dedup sizing".
 */

/** What claiming a nonce found. */
export type ReplayClaim = 'claimed' | 'replayed' | 'rate_abuse';

/**
 * Where seen `(keyid, nonce)` pairs live. A store shared by every endpoint a signer can reach is
 * what the spec requires of a receiver with more than one process (see `createRedisReplayStore`).
 */
export interface ReplayStore {
  /**
   * Step 9a, before the signature is verified: whether `keyid` has reached its entry cap (or the
   * store its aggregate cap). Reads only.
   */
  capReached(keyid: string): boolean | Promise<boolean>;
  /**
   * Steps 12 and 13 as one atomic act, after the signature and digest verified: record the pair
   * for `ttlSeconds` unless it is already there (`replayed`) or a cap is full (`rate_abuse`).
   */
  claim(keyid: string, nonce: string, ttlSeconds: number): ReplayClaim | Promise<ReplayClaim>;
}

/** Options of {@link createMemoryReplayStore}. */
export interface MemoryReplayStoreOptions {
  /** Most live entries per `keyid`. Default 100,000 (the spec's recommended per-keyid cap). */
  readonly perKeyidCap?: number;
  /**
   * Most live entries in all. The spec recommends min(memory budget, 10,000,000); the default,
   * 1,000,000, is the memory budget of one process (roughly 150 MB at most).
   */
  readonly aggregateCap?: number;
  /** The clock, in milliseconds. Default `Date.now`. */
  readonly now?: () => number;
}

/** The spec's recommended per-keyid cap for webhook replay caches. */
export const DEFAULT_PER_KEYID_CAP = 100_000;

/** The default aggregate cap of the in-memory store (one process's memory budget). */
export const DEFAULT_AGGREGATE_CAP = 1_000_000;

/**
 * A bounded in-memory replay store for a single-process receiver: entries expire after their TTL,
 * and a full cap refuses new entries (`rate_abuse`) rather than evicting live ones, which would
 * reopen replay windows under attack. Several processes must share a store instead.
 *
 * @param options - Caps and clock.
 * @returns The store.
 * @throws {TypeError} For a cap that is not a positive integer.
 * @example
 * const receiver = createWebhookReceiver({ keys, replayStore: createMemoryReplayStore({ perKeyidCap: 10_000 }) });
 */
export function createMemoryReplayStore(options: MemoryReplayStoreOptions = {}): ReplayStore {
  const perKeyidCap = options.perKeyidCap ?? DEFAULT_PER_KEYID_CAP;
  const aggregateCap = options.aggregateCap ?? DEFAULT_AGGREGATE_CAP;
  for (const [name, value] of [['perKeyidCap', perKeyidCap], ['aggregateCap', aggregateCap]] as const) {
    if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`createMemoryReplayStore: ${name} must be a positive integer`);
  }
  const now = options.now ?? Date.now;
  // Insertion order is close to expiry order (TTLs differ by at most the 6-minute window), so the
  // sweep pops expired entries from the front; one not yet expired stops it for this call.
  const entries = new Map<string, { keyid: string; expiresAt: number }>();
  const perKeyid = new Map<string, number>();

  const forget = (key: string, keyid: string): void => {
    entries.delete(key);
    const count = (perKeyid.get(keyid) ?? 1) - 1;
    if (count === 0) perKeyid.delete(keyid);
    else perKeyid.set(keyid, count);
  };
  const sweep = (): void => {
    const t = now();
    for (const [key, entry] of entries) {
      if (entry.expiresAt > t) break;
      forget(key, entry.keyid);
    }
  };
  const full = (keyid: string): boolean => (perKeyid.get(keyid) ?? 0) >= perKeyidCap || entries.size >= aggregateCap;

  return {
    capReached(keyid) {
      sweep();
      return full(keyid);
    },
    claim(keyid, nonce, ttlSeconds) {
      sweep();
      // keyid and nonce are header strings, which cannot hold a line feed.
      const key = `${keyid}\n${nonce}`;
      const seen = entries.get(key);
      if (seen !== undefined) {
        if (seen.expiresAt > now()) return 'replayed';
        forget(key, keyid);
      }
      if (full(keyid)) return 'rate_abuse';
      entries.set(key, { keyid, expiresAt: now() + ttlSeconds * 1000 });
      perKeyid.set(keyid, (perKeyid.get(keyid) ?? 0) + 1);
      return 'claimed';
    },
  };
}
