/**
 * The `(keyid, nonce)` replay cache of the webhook verifier (checklist steps 9a, 12, 13) and its
 * bounded in-memory default, sized per security.mdx "Webhook replay dedup sizing", which also
 * tracks the new-keyid admission rate that section makes a MUST.
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
   * With `destination` (the receiver's `replayScope: 'destination'`), the key is
   * `(keyid, destination, nonce)`: the same nonce at another endpoint URL is another entry.
   */
  claim(keyid: string, nonce: string, ttlSeconds: number, destination?: string): ReplayClaim | Promise<ReplayClaim>;
  /**
   * The new-keyid admission pressure (security.mdx, "Webhook replay dedup sizing": MUST track):
   * how many claims in the rolling admission window were a keyid's first entry, counting keyids
   * not seen within the store's keyid memory.
   */
  newKeyidAdmissions(): number | Promise<number>;
}

/** One admission of a previously-unseen keyid, passed to `onNewKeyid`. */
export interface NewKeyidAdmission {
  /** The keyid whose first entry was admitted. */
  readonly keyid: string;
  /** New-keyid admissions in the rolling window, this one included. */
  readonly admissionsInWindow: number;
  /** The rolling window, in milliseconds. */
  readonly windowMs: number;
}

/** The new-keyid tracking options both stores share. */
export interface AdmissionTrackingOptions {
  /** The rolling window of `newKeyidAdmissions`. Default 5 minutes (the spec's example). */
  readonly admissionWindowMs?: number | undefined;
  /**
   * How long a keyid stays "seen" after its last admission. Default 30 days: a seller that
   * sends one webhook a day is not new each morning.
   */
  readonly keyidMemoryMs?: number | undefined;
  /**
   * Most keyids remembered; past it the least recently admitted is forgotten, so it counts as new
   * again (the error errs toward an alarm, never toward a replay). Default 100,000.
   */
  readonly maxKnownKeyids?: number | undefined;
  /**
   * Called on each admission of a previously-unseen keyid, to feed the operator's alarm (the
   * spec's SHOULD-alert thresholds are the operator's to tune, so none is built in). It must not
   * throw: a throw is reported as the store failing (`webhook_replay_store_unavailable`).
   */
  readonly onNewKeyid?: ((admission: NewKeyidAdmission) => void) | undefined;
}

/** Options of {@link createMemoryReplayStore}. */
export interface MemoryReplayStoreOptions extends AdmissionTrackingOptions {
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
 * The replay key of a claim: `keyid`, the canonical destination when scoped, and `nonce`, joined
 * by line feeds, which none of them can hold (header strings; a parsed URL drops them).
 *
 * @param keyid - The signature's keyid.
 * @param nonce - The signature's nonce.
 * @param destination - The canonical `@target-uri`, when the replay key is scoped to it.
 * @returns The key.
 * @throws Never.
 * @example
 * replayKey('kid-1', 'bm9uY2U', 'https://buyer.example/hook'); // 'kid-1\nhttps://buyer.example/hook\nbm9uY2U'
 */
export function replayKey(keyid: string, nonce: string, destination?: string): string {
  return destination === undefined ? `${keyid}\n${nonce}` : `${keyid}\n${destination}\n${nonce}`;
}

/** Resolved new-keyid tracking settings. */
export interface AdmissionTracking {
  readonly windowMs: number;
  readonly memoryMs: number;
  readonly maxKnown: number;
}

/**
 * Checks and fills in the new-keyid tracking options (shared by the in-memory and Redis stores).
 *
 * @param options - The caller's options.
 * @param who - The factory's name, for the error message.
 * @returns The settings with defaults.
 * @throws {TypeError} For a value that is not a positive integer.
 * @example
 * const tracking = admissionTracking(options, 'createMemoryReplayStore');
 */
export function admissionTracking(options: AdmissionTrackingOptions, who: string): AdmissionTracking {
  const tracking = {
    windowMs: options.admissionWindowMs ?? 5 * 60_000,
    memoryMs: options.keyidMemoryMs ?? 30 * 24 * 3_600_000,
    maxKnown: options.maxKnownKeyids ?? 100_000,
  };
  for (const [name, value] of [
    ['admissionWindowMs', tracking.windowMs],
    ['keyidMemoryMs', tracking.memoryMs],
    ['maxKnownKeyids', tracking.maxKnown],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`${who}: ${name} must be a positive integer`);
  }
  return tracking;
}

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
  for (const [name, value] of [
    ['perKeyidCap', perKeyidCap],
    ['aggregateCap', aggregateCap],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`createMemoryReplayStore: ${name} must be a positive integer`);
  }
  const tracking = admissionTracking(options, 'createMemoryReplayStore');
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
  // Keyids by last admission, least recent first; admissions of new keyids, oldest first.
  const known = new Map<string, number>();
  // A queue read from `head`, compacted now and then (Array#shift is linear in V8 for big arrays).
  let admissions: number[] = [];
  let head = 0;
  const drop = (): void => {
    head++;
    if (head > 1024 && head * 2 > admissions.length) {
      admissions = admissions.slice(head);
      head = 0;
    }
  };
  const admissionsSince = (t: number): number => {
    while (head < admissions.length && (admissions[head] as number) <= t - tracking.windowMs) drop();
    return admissions.length - head;
  };
  const admit = (keyid: string, t: number): void => {
    const last = known.get(keyid);
    known.delete(keyid);
    known.set(keyid, t);
    for (const [oldest, at] of known) {
      if (known.size <= tracking.maxKnown && at > t - tracking.memoryMs) break;
      known.delete(oldest);
    }
    if (last !== undefined && last > t - tracking.memoryMs) return;
    admissions.push(t);
    if (admissions.length - head > tracking.maxKnown) drop();
    options.onNewKeyid?.({ keyid, admissionsInWindow: admissionsSince(t), windowMs: tracking.windowMs });
  };
  const full = (keyid: string): boolean => (perKeyid.get(keyid) ?? 0) >= perKeyidCap || entries.size >= aggregateCap;

  return {
    capReached(keyid) {
      sweep();
      return full(keyid);
    },
    claim(keyid, nonce, ttlSeconds, destination) {
      sweep();
      const key = replayKey(keyid, nonce, destination);
      const seen = entries.get(key);
      if (seen !== undefined) {
        if (seen.expiresAt > now()) return 'replayed';
        forget(key, keyid);
      }
      if (full(keyid)) return 'rate_abuse';
      const t = now();
      entries.set(key, { keyid, expiresAt: t + ttlSeconds * 1000 });
      perKeyid.set(keyid, (perKeyid.get(keyid) ?? 0) + 1);
      admit(keyid, t);
      return 'claimed';
    },
    newKeyidAdmissions() {
      return admissionsSince(now());
    },
  };
}
