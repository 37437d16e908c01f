/**
 * A fuzzer worker (see scripts/fuzz.ts): runs the batches of cases it is sent, writes the index of
 * the case it is on, and whether it is building or running it, into shared memory (the parent's
 * watchdog reads it, and terminates the worker when it stops moving), and posts tallies and
 * findings as it goes.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { makeCase, runCase, type Finding, type Profile } from './fuzz-cases.js';

export interface Batch {
  readonly type: 'batch';
  readonly seed: number;
  readonly from: number;
  readonly to: number;
  readonly profile: Profile;
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

export function emptyTally(): Tally {
  return { cases: 0, ms: 0, outcomes: {}, classes: {}, slowest: { index: -1, ms: 0 } };
}

const port = parentPort;
if (port !== null) {
  const position = new Int32Array(workerData.position as SharedArrayBuffer);
  port.on('message', (batch: Batch) => {
    let tally = emptyTally();
    let findings: Finding[] = [];
    for (let index = batch.from; index < batch.to; index++) {
      if (index > batch.from && (index - batch.from) % REPORT_EVERY === 0) {
        port.postMessage({ type: 'progress', upTo: index, tally, findings } satisfies FromWorker);
        tally = emptyTally();
        findings = [];
      }
      Atomics.store(position, 0, index);
      Atomics.store(position, 1, 0); // generating
      const c = makeCase(batch.seed, index, batch.profile);
      Atomics.store(position, 1, 1); // running
      const result = runCase(c, batch.slowMs);
      tally.cases++;
      tally.ms += result.ms;
      tally.outcomes[result.outcome] = (tally.outcomes[result.outcome] ?? 0) + 1;
      for (const cls of [...c.classes, `envelope=${c.envelope}`]) {
        const byOutcome = (tally.classes[cls] ??= {});
        byOutcome[result.outcome] = (byOutcome[result.outcome] ?? 0) + 1;
      }
      if (result.ms > tally.slowest.ms) tally.slowest = { index, ms: result.ms };
      findings.push(...result.findings);
    }
    Atomics.store(position, 0, -1);
    port.postMessage({ type: 'done', upTo: batch.to, tally, findings } satisfies FromWorker);
  });
  port.postMessage({ type: 'ready' } satisfies FromWorker);
}
