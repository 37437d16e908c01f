/**
 * The `(keyid, nonce)` replay cache of the webhook verifier (checklist steps 9a, 12, 13) and its
 * bounded in-memory default, sized per security.mdx "Webhook replay dedup sizing" and bounded in
 * bytes (the spec bounds neither a nonce's nor a keyid's length, so a signer sets each entry's
 * size), which also tracks the new-keyid admission rate that section makes a MUST.
 */
import { knownOptions, positiveInteger } from '../../errors/option-rules.js';
import { ADMISSION_TRACKING_OPTION_KEYS, type AdmissionTrackingOptions, admissionTracking, createAdmissionTracker } from './admissions.js';
import {
  createOwnerCounts,
  type HeldBytes,
  MEMORY_BUDGET_OPTION_KEYS,
  type MemoryBudgetOptions,
  mapEntryBytes,
  memoryBudget,
  ownCopy,
} from './memory-bytes.js';

export type { AdmissionTrackingOptions, NewKeyidAdmission } from './admissions.js';

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

/**
 * Options of {@link createMemoryReplayStore}; `maxBytes` counts entries as {@link replayEntryBytes} does,
 * and the per-keyid counts and the new-keyid tracking.
 */
export interface MemoryReplayStoreOptions extends AdmissionTrackingOptions, MemoryBudgetOptions {
  /** Most live entries per `keyid`. Default 100,000 (the spec's recommended per-keyid cap). */
  readonly perKeyidCap?: number | undefined;
  /** Most live entries in all (the spec recommends min(memory budget, 10,000,000)). Default 1,000,000. */
  readonly aggregateCap?: number | undefined;
  /**
   * Most bytes one `keyid` holds (its entries and its counts), so that one signer's long nonces
   * cannot fill the budget every other signer shares: past it, its claims are `rate_abuse`. Default a
   * tenth of `maxBytes` (6.4 MiB; the spec's per-keyid entry cap is a tenth of its aggregate one too); at most `maxBytes`.
   */
  readonly perKeyidMaxBytes?: number | undefined;
}

/** Every option createMemoryReplayStore takes, by name (a type test holds it to `keyof MemoryReplayStoreOptions`). */
export const MEMORY_REPLAY_STORE_OPTION_KEYS = [
  'perKeyidCap',
  'aggregateCap',
  'perKeyidMaxBytes',
  ...MEMORY_BUDGET_OPTION_KEYS,
  ...ADMISSION_TRACKING_OPTION_KEYS,
] as const satisfies readonly (keyof MemoryReplayStoreOptions)[];

/** The in-memory replay store: answers at once, and says how many bytes it holds. */
export interface MemoryReplayStore extends ReplayStore, HeldBytes {
  capReached(keyid: string): boolean;
  claim(keyid: string, nonce: string, ttlSeconds: number, destination?: string): ReplayClaim;
  newKeyidAdmissions(): number;
}

/** The spec's recommended per-keyid cap for webhook replay caches. */
export const DEFAULT_PER_KEYID_CAP = 100_000;

/** The default aggregate cap of the replay stores. */
export const DEFAULT_AGGREGATE_CAP = 1_000_000;

/** The default memory budget of the in-memory replay store: 64 MiB. */
export const DEFAULT_REPLAY_MAX_BYTES = 64 * 1024 * 1024;

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

/**
 * The bytes the in-memory store counts for one entry: its key (keyid, destination when scoped,
 * nonce) at 2 bytes a character plus the Map entry (`MAP_ENTRY_BYTES`). The first entry of a
 * keyid adds the keyid's count (the same again for the keyid alone) and its new-keyid tracking.
 *
 * @param keyid - The signature's keyid.
 * @param nonce - The signature's nonce.
 * @param destination - The canonical `@target-uri`, when the replay key is scoped to it.
 * @returns The bytes counted.
 * @example
 * replayEntryBytes('kid-1', 'bm9uY2Utbm9uY2Utbm9uY2U'); // 128 + 2 × 29
 */
export function replayEntryBytes(keyid: string, nonce: string, destination?: string): number {
  return mapEntryBytes(replayKey(keyid, nonce, destination));
}

/** The live entries of the in-memory store, with their per-keyid counts and their bytes. */
function createEntries(now: () => number) {
  // Insertion order is close to expiry order (TTLs differ by at most the 6-minute window), so the
  // sweep pops expired entries from the front; one not yet expired stops it for this call.
  const expiries = new Map<string, number>();
  const perKeyid = createOwnerCounts();
  let held = 0;
  const forget = (key: string): void => {
    expiries.delete(key);
    held -= mapEntryBytes(key);
    // A keyid holds no line feed (a header value), so the key's first line is its keyid.
    perKeyid.remove(key.slice(0, key.indexOf('\n')), mapEntryBytes(key));
  };
  return {
    expiries,
    count: perKeyid.count,
    /** The bytes `keyid` holds: its entries and its counts. */
    share: perKeyid.share,
    bytes: (): number => held + perKeyid.bytes(),
    /** What adding `key` of `keyid` would add. */
    cost: (key: string, keyid: string): number => mapEntryBytes(key) + perKeyid.cost(keyid),
    sweep(): void {
      const t = now();
      for (const [key, expiresAt] of expiries) {
        if (expiresAt > t) break;
        forget(key);
      }
    },
    forget,
    add(key: string, keyid: string, expiresAt: number): void {
      perKeyid.add(keyid, mapEntryBytes(key));
      expiries.set(ownCopy(key), expiresAt);
      held += mapEntryBytes(key);
    },
  };
}

/**
 * A bounded in-memory replay store for a single-process receiver: entries expire after their TTL, and a full cap refuses
 * new ones (`rate_abuse`).
 * Its caps, and why it never evicts a live entry: docs/webhooks.md, "Keys, replay and revocation".
 *
 * @param options - Caps, byte budget, new-keyid tracking and clock.
 * @returns The store.
 * @throws {DecodeError} `INVALID_OPTION` for a cap or budget that is not a positive safe integer, or a name that is not an option.
 * @example
 * const receiver = createWebhookReceiver({ keys, replayStore: createMemoryReplayStore({ perKeyidCap: 10_000 }) });
 */
export function createMemoryReplayStore(options: MemoryReplayStoreOptions = {}): MemoryReplayStore {
  const who = 'createMemoryReplayStore';
  knownOptions(who, options, MEMORY_REPLAY_STORE_OPTION_KEYS);
  const perKeyidCap = positiveInteger(who, 'perKeyidCap', options.perKeyidCap, DEFAULT_PER_KEYID_CAP);
  const aggregateCap = positiveInteger(who, 'aggregateCap', options.aggregateCap, DEFAULT_AGGREGATE_CAP);
  const share = { name: 'perKeyidMaxBytes', value: options.perKeyidMaxBytes };
  const { maxBytes, ownerMaxBytes: perKeyidBytes, now } = memoryBudget(who, options, share, DEFAULT_REPLAY_MAX_BYTES);
  const tracker = createAdmissionTracker(admissionTracking(options, who), options.onNewKeyid);
  const entries = createEntries(now);
  const countFull = (keyid: string): boolean => entries.count(keyid) >= perKeyidCap || entries.expiries.size >= aggregateCap;
  /** Whether one more entry `key` would take `keyid` past its byte share. */
  const shareFull = (key: string, keyid: string): boolean => entries.share(keyid) + entries.cost(key, keyid) > perKeyidBytes;
  /** Whether an entry fits, forgetting new-keyid tracking (never an entry) to make room, and only when that makes it. */
  const room = (key: string, keyid: string, t: number): boolean => {
    tracker.admissionsSince(t);
    const over = (): boolean => entries.bytes() + tracker.bytes() + entries.cost(key, keyid) + tracker.admitCost(keyid, t) > maxBytes;
    if (!over()) return true;
    if (entries.bytes() + entries.cost(key, keyid) + tracker.floorBytes(keyid) > maxBytes) return false;
    // The cost is taken again after each forgetting: the keyid itself may be the one forgotten.
    while (over() && tracker.forgetOldest());
    return !over();
  };
  return {
    capReached(keyid) {
      entries.sweep();
      // The smallest entry the profile allows: a 22-character nonce (16 bytes, Base64URL).
      const smallest = `${keyid}\n${'n'.repeat(22)}`;
      return countFull(keyid) || shareFull(smallest, keyid) || entries.bytes() + entries.cost(smallest, keyid) > maxBytes;
    },
    claim(keyid, nonce, ttlSeconds, destination) {
      entries.sweep();
      const key = replayKey(keyid, nonce, destination);
      const seen = entries.expiries.get(key);
      if (seen !== undefined) {
        if (seen > now()) return 'replayed';
        entries.forget(key);
      }
      const t = now();
      if (countFull(keyid) || shareFull(key, keyid) || !room(key, keyid, t)) return 'rate_abuse';
      entries.add(key, keyid, t + ttlSeconds * 1000);
      tracker.admit(keyid, t);
      return 'claimed';
    },
    newKeyidAdmissions: () => tracker.admissionsSince(now()),
    bytesHeld: () => entries.bytes() + tracker.bytes(),
  };
}
