/**
 * The `idempotency_key` dedup webhooks.mdx makes a MUST ("Reliability"): a store that binds
 * `(sender, idempotency_key)` to the payload's canonical fingerprint and to one processing owner,
 * with the states the spec names (claimed, processing, completed, conflict), and its in-memory
 * form for tests and a single process (the spec calls a memory-only store non-conformant: use
 * `createRedisDedupStore` in production).
 */
import { knownOptions, positiveInteger } from '../../errors/option-rules.js';
import {
  createOwnerCounts,
  type HeldBytes,
  MEMORY_BUDGET_OPTION_KEYS,
  type MemoryBudgetOptions,
  mapEntryBytes,
  memoryBudget,
  ownCopy,
  RECORD_BYTES,
  stringBytes,
} from './memory-bytes.js';

/**
 * What claiming a delivery found: `claimed` (the caller owns its processing), `processing`
 * (another owner holds a live lease: answer 503), `completed` (processed: answer 200),
 * `conflict` (the key is bound to another payload: 409), `rate_abuse` (the sender filled its
 * cap: 429), `full` (the store is out of room: 503).
 */
export type DedupState = 'claimed' | 'processing' | 'completed' | 'conflict' | 'rate_abuse' | 'full';

/** One claim of a delivery. */
export interface DedupClaimRequest {
  /** The authenticated sender (the signer's agent URL), never a payload field. */
  readonly sender: string;
  /** The payload's `idempotency_key`. */
  readonly key: string;
  /** The payload's canonical fingerprint. */
  readonly fingerprint: string;
  /** A fresh token naming this claim's owner (the fence `complete` and `release` present). */
  readonly owner: string;
  /** How long the owner holds off identical deliveries before another may take over. */
  readonly leaseMs: number;
  /** How long the binding is kept (from the claim, and again from completion). */
  readonly retentionMs: number;
}

/** The owner's word on its claim. */
export interface DedupSettleRequest {
  readonly sender: string;
  readonly key: string;
  readonly owner: string;
  /** For `complete`: how long the completed binding is kept. */
  readonly retentionMs: number;
}

/**
 * Where `(sender, idempotency_key)` bindings live. It must be durable and shared by every endpoint
 * and process a sender can reach, and keep each binding at least 24 h (webhooks.mdx).
 */
export interface DedupStore {
  /** Atomically: binds the key to the fingerprint and gives `owner` the lease, or says why not. */
  claim(request: DedupClaimRequest): DedupState | Promise<DedupState>;
  /** Marks the owner's delivery processed; false when `owner` no longer holds the claim. */
  complete(request: DedupSettleRequest): boolean | Promise<boolean>;
  /** Forgets the owner's unfinished claim so a retry processes it; false when `owner` no longer holds it. */
  release(request: DedupSettleRequest): boolean | Promise<boolean>;
}

/** Options of {@link createMemoryDedupStore}; `maxBytes` counts bindings as {@link dedupEntryBytes} does. */
export interface MemoryDedupStoreOptions extends MemoryBudgetOptions {
  /** Most live bindings per sender (webhooks.mdx: SHOULD bound per sender). Default 1,000,000. */
  readonly perSenderCap?: number | undefined;
  /**
   * Most bytes one sender's bindings hold, so that one sender cannot fill the budget every other
   * sender shares: past it, its new keys are `rate_abuse` (429). Default a tenth of `maxBytes`
   * (6.4 MiB); at most `maxBytes`.
   */
  readonly perSenderMaxBytes?: number | undefined;
}

/** Every option createMemoryDedupStore takes, by name (a type test holds it to `keyof MemoryDedupStoreOptions`). */
export const MEMORY_DEDUP_STORE_OPTION_KEYS = [
  'perSenderCap',
  'perSenderMaxBytes',
  ...MEMORY_BUDGET_OPTION_KEYS,
] as const satisfies readonly (keyof MemoryDedupStoreOptions)[];

/** The in-memory dedup store: answers at once, and says how many bytes it holds. */
export interface MemoryDedupStore extends DedupStore, HeldBytes {
  claim(request: DedupClaimRequest): DedupState;
  complete(request: DedupSettleRequest): boolean;
  release(request: DedupSettleRequest): boolean;
}

/** The default per-sender cap of the dedup stores. */
export const DEFAULT_DEDUP_PER_SENDER_CAP = 1_000_000;

/** The default memory budget of the in-memory dedup store: 64 MiB. */
export const DEFAULT_DEDUP_MAX_BYTES = 64 * 1024 * 1024;

interface Binding {
  readonly fingerprint: string;
  owner: string;
  leaseUntil: number;
  expiresAt: number;
  completed: boolean;
}

/** A binding's Map key: the sender, a line feed, the `idempotency_key`. */
const bindingId = (sender: string, key: string): string => `${sender}\n${key}`;

/**
 * The bytes the in-memory dedup store counts for one binding: the Map entry and its record, and
 * the characters of its key (sender and `idempotency_key`), fingerprint and owner token.
 *
 * @param request - The claim.
 * @returns The bytes counted.
 * @example
 * dedupEntryBytes({ sender, key, fingerprint, owner, leaseMs, retentionMs });
 */
export function dedupEntryBytes(request: Pick<DedupClaimRequest, 'sender' | 'key' | 'fingerprint' | 'owner'>): number {
  return (
    mapEntryBytes(bindingId(request.sender, request.key)) + RECORD_BYTES + stringBytes(request.fingerprint) + stringBytes(request.owner)
  );
}

/** The bindings, their per-sender counts and their bytes. */
function createBindings() {
  // Ordered by expiry (one retention per receiver; a completed binding moves to the end).
  const bindings = new Map<string, Binding>();
  const perSender = createOwnerCounts();
  let held = 0;
  const size = (sender: string, key: string, b: Binding): number =>
    dedupEntryBytes({ sender, key, fingerprint: b.fingerprint, owner: b.owner });
  const remove = (entryId: string, b: Binding): void => {
    // An idempotency_key holds no line feed (its schema pattern), so the last one ends the sender.
    const cut = entryId.lastIndexOf('\n');
    const sender = entryId.slice(0, cut);
    bindings.delete(entryId);
    const bytes = size(sender, entryId.slice(cut + 1), b);
    held -= bytes;
    perSender.remove(sender, bytes);
  };
  return {
    get: (sender: string, key: string) => bindings.get(bindingId(sender, key)),
    count: perSender.count,
    /** The bytes `sender` holds: its bindings and its counts. */
    share: perSender.share,
    bytes: (): number => held + perSender.bytes(),
    cost: (r: DedupClaimRequest): number => dedupEntryBytes(r) + perSender.cost(r.sender),
    sweep(t: number): void {
      for (const [entryId, b] of bindings) {
        if (b.expiresAt > t) break;
        remove(entryId, b);
      }
    },
    add(r: DedupClaimRequest, b: Binding): void {
      perSender.add(r.sender, size(r.sender, r.key, b));
      bindings.set(ownCopy(bindingId(r.sender, r.key)), b);
      held += size(r.sender, r.key, b);
    },
    /** Changes a binding's owner, counting the new token's length (to the sender's share too). */
    reown(r: DedupClaimRequest, b: Binding): void {
      const before = size(r.sender, r.key, b);
      b.owner = ownCopy(r.owner);
      const after = size(r.sender, r.key, b);
      held += after - before;
      perSender.resize(r.sender, after - before);
    },
    remove: (sender: string, key: string, b: Binding): void => remove(bindingId(sender, key), b),
    /** Moves a binding to the end of the expiry order. */
    touch(sender: string, key: string, b: Binding): void {
      const entryId = bindingId(sender, key);
      bindings.delete(entryId);
      bindings.set(ownCopy(entryId), b);
    },
  };
}

/**
 * An in-memory dedup store, bounded per sender (entries and bytes) and in bytes; a binding is never evicted before its
 * retention (a full store answers `full`, the receiver 503). For tests and a single process only:
 * it forgets everything on restart, which webhooks.mdx calls non-conformant.
 *
 * @param options - Per-sender cap, byte budget and clock.
 * @returns The store.
 * @throws {DecodeError} `INVALID_OPTION` for a cap or budget that is not a positive safe integer, or a name that is not an option.
 * @example
 * const receiver = createWebhookReceiver({ keys, dedup: { store: createMemoryDedupStore() } });
 */
export function createMemoryDedupStore(options: MemoryDedupStoreOptions = {}): MemoryDedupStore {
  const who = 'createMemoryDedupStore';
  knownOptions(who, options, MEMORY_DEDUP_STORE_OPTION_KEYS);
  const perSenderCap = positiveInteger(who, 'perSenderCap', options.perSenderCap, DEFAULT_DEDUP_PER_SENDER_CAP);
  const share = { name: 'perSenderMaxBytes', value: options.perSenderMaxBytes };
  const { maxBytes, ownerMaxBytes: perSenderBytes, now } = memoryBudget(who, options, share, DEFAULT_DEDUP_MAX_BYTES);
  const bindings = createBindings();
  return {
    claim(r) {
      const t = now();
      bindings.sweep(t);
      const found = bindings.get(r.sender, r.key);
      if (found !== undefined) {
        if (found.fingerprint !== r.fingerprint) return 'conflict';
        if (found.completed) return 'completed';
        if (found.leaseUntil > t) return 'processing';
        // The owner's lease ran out without a word (a crash): this claim takes over.
        bindings.reown(r, found);
        found.leaseUntil = t + r.leaseMs;
        return 'claimed';
      }
      if (bindings.count(r.sender) >= perSenderCap) return 'rate_abuse';
      if (bindings.bytes() + bindings.cost(r) > maxBytes) return 'full';
      // A sender's share is bounded in the store's own unit, so that it cannot fill the budget for all.
      if (bindings.share(r.sender) + bindings.cost(r) > perSenderBytes) return 'rate_abuse';
      const fingerprint = ownCopy(r.fingerprint);
      bindings.add(r, { fingerprint, owner: ownCopy(r.owner), leaseUntil: t + r.leaseMs, expiresAt: t + r.retentionMs, completed: false });
      return 'claimed';
    },
    complete(r) {
      const found = bindings.get(r.sender, r.key);
      if (found === undefined || found.owner !== r.owner) return false;
      if (!found.completed) {
        found.completed = true;
        found.expiresAt = now() + r.retentionMs;
        bindings.touch(r.sender, r.key, found);
      }
      return true;
    },
    release(r) {
      const found = bindings.get(r.sender, r.key);
      if (found === undefined || found.owner !== r.owner || found.completed) return false;
      bindings.remove(r.sender, r.key, found);
      return true;
    },
    bytesHeld: () => bindings.bytes(),
  };
}
