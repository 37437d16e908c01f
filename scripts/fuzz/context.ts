/**
 * What a mutator works with: the case's generator, the steps and classes it records, the profile
 * that caps sizes; and how it finds, reads and writes the members of a tree.
 */
import type { Rng } from './rng.js';

/** A JSON object as the mutators see it. */
export type Json = Record<string, unknown>;

/** How large the generated values may get: `full` for the fuzzer, `ci` keeps a short pass quick. */
export type Profile = 'full' | 'ci';

/** The state one case's mutators share. */
export interface Ctx {
  readonly rng: Rng;
  readonly steps: string[];
  readonly classes: Set<string>;
  readonly profile: Profile;
}

/** What a case of either lane keeps of how it was built: its seed and index, and its context's record. */
export interface CaseRecord {
  readonly seed: number;
  readonly index: number;
  /** What was done, in order, e.g. `payload:typeSwap /products/0/name → number`. */
  readonly steps: readonly string[];
  /** The mutation classes applied, for the tallies. */
  readonly classes: readonly string[];
  /** What the case started from: the transport envelope, e.g. `mcp 3.1.19`, `poll 3.0.26` (the bundled patch). */
  readonly envelope: string;
}

/** A case of either lane as a finding's file shows it: its record, and the call it makes. */
export interface CaseView extends Omit<CaseRecord, 'seed' | 'index'> {
  readonly task: unknown;
  readonly input: unknown;
  readonly options: unknown;
}

/** 2^20, for sizes. */
export const MiB = 1024 * 1024;

/**
 * Records a mutation: its class (for the tallies) and a step (for the reproduction).
 *
 * @param ctx - The case's context.
 * @param cls - The class, e.g. `payload:typeSwap`.
 * @param detail - What was done, e.g. `/products/0/name → number`.
 * @throws Never.
 * @example
 * note(ctx, 'text:truncate', `at ${at} of ${text.length}`);
 */
export function note(ctx: Ctx, cls: string, detail: string): void {
  ctx.classes.add(cls);
  ctx.steps.push(`${cls} ${detail}`);
}

/**
 * A size: usually small, now and then large; the `ci` profile caps it.
 *
 * @param ctx - The case's context.
 * @param large - The size of the rare large case.
 * @returns A count.
 * @throws Never.
 * @example
 * const items = size(ctx, 200_000);
 */
export function size(ctx: Ctx, large: number): number {
  const n = ctx.rng.weighted<number>([
    [700, 1 + ctx.rng.int(8)],
    [200, 8 + ctx.rng.int(200)],
    [90, 200 + ctx.rng.int(5_000)],
    [10, large],
  ]);
  return ctx.profile === 'ci' ? Math.min(n, 2_000) : n;
}

/** Where a member sits in a tree. */
export interface Slot {
  readonly parent: Json | unknown[];
  readonly key: string | number;
  readonly path: string;
  /** Members from the root (1 for the root's own); counted, as splitting a path under a 2 MiB key costs its length. */
  readonly depth: number;
}

/**
 * Every member of the tree (capped), with where it sits.
 *
 * @param root - The tree.
 * @param limit - The most members to list.
 * @returns The slots, depth first, each object visited once.
 * @throws Never (a member that throws when read is skipped).
 * @example
 * const target = ctx.rng.pick(slots(payload));
 */
export function slots(root: unknown, limit = 4_000): Slot[] {
  const out: Slot[] = [];
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: root, path: '', depth: 0 }];
  const seen = new Set<unknown>();
  while (stack.length > 0 && out.length < limit) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    let keys: string[];
    try {
      keys = Object.keys(value);
    } catch {
      continue;
    }
    for (const key of keys) {
      const k = Array.isArray(value) ? Number(key) : key;
      const p = `${path}/${key}`;
      out.push({ parent: value as Json, key: k, path: p, depth: depth + 1 });
      let child: unknown;
      try {
        child = (value as Json)[key];
      } catch {
        continue;
      }
      stack.push({ value: child, path: p, depth: depth + 1 });
    }
  }
  return out;
}

/**
 * Writes a member as an own data property (bypassing setters such as `__proto__`).
 *
 * @param slot - Where.
 * @param value - What.
 * @throws If the parent refuses it (a frozen object, a revoked Proxy).
 * @example
 * set(slot, null);
 */
export function set(slot: Slot, value: unknown): void {
  Object.defineProperty(slot.parent, slot.key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Reads a member.
 *
 * @param slot - Where.
 * @returns Its value.
 * @throws What a hostile getter or Proxy throws.
 * @example
 * const value = get(slot);
 */
export function get(slot: Slot): unknown {
  return (slot.parent as Json)[slot.key as string];
}
