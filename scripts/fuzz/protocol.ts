/**
 * What the fuzzer's parent (pool.ts) and its workers (worker.ts) send each other: batches of cases
 * one way, tallies and findings the other.
 */
import type { Lane } from './args.js';
import type { Profile } from './context.js';
import type { Finding } from './oracle.js';

/** A range of cases for a worker to run: `[from, to)` of `seed`. */
export interface Batch {
  readonly type: 'batch';
  readonly seed: number;
  readonly from: number;
  readonly to: number;
  readonly profile: Profile;
  readonly lane: Lane;
  readonly slowMs: number;
}

/** Tallies of one batch, merged by the parent. */
export interface Tally {
  cases: number;
  ms: number;
  outcomes: Record<string, number>;
  /** Mutation class (or envelope kind) → outcome → count. */
  classes: Record<string, Record<string, number>>;
  slowest: { index: number; ms: number };
}

/**
 * `progress`: the tallies and findings of cases `[from, upTo)` of the current batch, sent every
 * {@link REPORT_EVERY} cases so that a worker killed on a case loses nothing it finished (the
 * parent reruns only what was not reported). `done`: the batch is finished.
 */
export type FromWorker =
  | { readonly type: 'progress' | 'done'; readonly upTo: number; readonly tally: Tally; readonly findings: readonly Finding[] }
  | { readonly type: 'ready' };

/** Cases between two progress reports. */
export const REPORT_EVERY = 100;

/**
 * Tallies with nothing counted yet.
 *
 * @returns A fresh tally.
 * @throws Never.
 * @example
 * let tally = emptyTally();
 */
export function emptyTally(): Tally {
  return { cases: 0, ms: 0, outcomes: {}, classes: {}, slowest: { index: -1, ms: 0 } };
}
