/**
 * How the in-memory stores count the bytes they hold: an upper bound per Map entry and per string
 * character, and copies of the strings they keep, so that what is counted is what is held; and the
 * byte budget they are held to.
 */
import { positiveInteger, shareOption } from '../../errors/option-rules.js';

/** The options every in-memory store shares: its byte budget and its clock. */
export interface MemoryBudgetOptions {
  /** The memory budget: most bytes held, as the store counts them. Default 64 MiB. */
  readonly maxBytes?: number | undefined;
  /** The clock, in milliseconds. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/** The budget options by name, in every in-memory store's list (a type test holds it to `keyof MemoryBudgetOptions`). */
export const MEMORY_BUDGET_OPTION_KEYS = ['maxBytes', 'now'] as const satisfies readonly (keyof MemoryBudgetOptions)[];

/** What every in-memory store tells of its memory. */
export interface HeldBytes {
  /** The bytes the store counts as held; never above `maxBytes`. */
  bytesHeld(): number;
}

/**
 * An in-memory store's budget from its options: the whole, the share one owner (a sender, a keyid)
 * may hold (default a tenth of it, at most all of it), and the clock.
 *
 * @param who - The factory, named in an error.
 * @param options - The store's options.
 * @param share - The per-owner share option's name and value.
 * @param defaultMaxBytes - The budget when `maxBytes` is left out.
 * @returns The budget, the share and the clock.
 * @throws {DecodeError} `INVALID_OPTION` for a budget or share that is not a positive safe integer, or a share above the budget.
 * @example
 * const { maxBytes, ownerMaxBytes, now } = memoryBudget(who, options, { name: 'perKeyidMaxBytes', value: options.perKeyidMaxBytes }, 64 * 1024 * 1024);
 */
export function memoryBudget(
  who: string,
  options: MemoryBudgetOptions,
  share: { readonly name: string; readonly value: unknown },
  defaultMaxBytes: number,
): { readonly maxBytes: number; readonly ownerMaxBytes: number; readonly now: () => number } {
  const maxBytes = positiveInteger(who, 'maxBytes', options.maxBytes, defaultMaxBytes);
  return { maxBytes, ownerMaxBytes: shareOption(who, share.name, share.value, maxBytes, 0.1), now: options.now ?? Date.now };
}

/**
 * Bytes counted per Map entry besides its key's characters: the key's string header, a number
 * value and the entry's share of the hash table. Measured in V8 (Node 20, 64-bit,
 * `--expose-gc`, heapUsed over 131,073 to 262,144 `Map<string, number>` entries): 60 to 89 bytes,
 * the most just after the table doubles or after churn; 128 leaves room for a half-empty table.
 */
export const MAP_ENTRY_BYTES = 128;

/** Bytes counted for a record object a Map entry points to (its header, fields and boxed numbers). */
export const RECORD_BYTES = 128;

/** Bytes counted per queued number (an array slot, a boxed number and the array's growth room). */
export const QUEUED_NUMBER_BYTES = 32;

/**
 * The bytes counted for a string's characters: 2 each, an upper bound (V8 keeps a string with
 * only Latin-1 characters at 1 byte each, any other at 2).
 *
 * @param text - The string.
 * @returns Its character bytes.
 * @example
 * stringBytes('kid-1'); // 10
 */
export function stringBytes(text: string): number {
  return 2 * text.length;
}

/**
 * The bytes counted for one Map entry keyed by `key`: the entry and the key's characters.
 *
 * @param key - The entry's key.
 * @returns `MAP_ENTRY_BYTES` and the key's character bytes.
 * @example
 * mapEntryBytes('kid-1'); // 128 + 10
 */
export function mapEntryBytes(key: string): number {
  return MAP_ENTRY_BYTES + stringBytes(key);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A fresh, flat copy of a string: a substring or concatenation can keep the whole string it was
 * cut from alive (a header of kilobytes behind a 22-character nonce), which the count would miss.
 *
 * @param text - A string from a request (well-formed: header values and URLs are).
 * @returns An equal string that shares no storage with it.
 * @example
 * const key = ownCopy(`${keyid}\n${nonce}`);
 */
export function ownCopy(text: string): string {
  return decoder.decode(encoder.encode(text));
}

/**
 * Live entries and their bytes counted per owner (a sender, a keyid), and the bytes the counts
 * hold: an owner is held, as two Map entries keyed by its own copy of the name, from its first
 * entry until its last is gone. The per-owner bytes are what bounds each owner's share of a store.
 *
 * @returns The counts.
 * @example
 * const perKeyid = createOwnerCounts();
 * perKeyid.add('kid-1', 200); // perKeyid.bytes() is now 2 × 128 + 10, perKeyid.share('kid-1') 200 + 266
 */
export function createOwnerCounts() {
  const counts = new Map<string, number>();
  const weights = new Map<string, number>();
  let held = 0;
  const ownerBytes = (owner: string): number => MAP_ENTRY_BYTES + mapEntryBytes(owner);
  return {
    count: (owner: string): number => counts.get(owner) ?? 0,
    /** `owner`'s share: the bytes of its live entries, as the store counted each, and of its counts. */
    share: (owner: string): number => (counts.has(owner) ? (weights.get(owner) ?? 0) + ownerBytes(owner) : 0),
    bytes: (): number => held,
    /** What one more entry of `owner` adds to the counts' bytes. */
    cost: (owner: string): number => (counts.has(owner) ? 0 : ownerBytes(owner)),
    add(owner: string, entryBytes: number): void {
      const count = counts.get(owner);
      const key = count === undefined ? ownCopy(owner) : owner;
      if (count === undefined) held += ownerBytes(owner);
      counts.set(key, (count ?? 0) + 1);
      weights.set(key, (weights.get(owner) ?? 0) + entryBytes);
    },
    /** An entry of `owner` grew (or shrank) by `delta` bytes. */
    resize(owner: string, delta: number): void {
      const weight = weights.get(owner);
      if (weight !== undefined) weights.set(owner, weight + delta);
    },
    remove(owner: string, entryBytes: number): void {
      const count = (counts.get(owner) ?? 1) - 1;
      if (count > 0) {
        counts.set(owner, count);
        weights.set(owner, (weights.get(owner) ?? entryBytes) - entryBytes);
      } else {
        counts.delete(owner);
        weights.delete(owner);
        held -= ownerBytes(owner);
      }
    },
  };
}
