/**
 * A fuzzer worker (started by pool.ts): runs the batches of cases it is sent, writes the index of
 * the case it is on, and whether it is building or running it, into shared memory (the parent's
 * watchdog reads it, and terminates the worker when it stops moving), and posts tallies and
 * findings as it goes.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type A2aCase, makeA2aCase, runA2aCase } from './a2a-lane.js';
import { makeCase } from './case.js';
import { type Finding, runCase } from './oracle.js';
import { type Batch, emptyTally, type FromWorker, REPORT_EVERY } from './protocol.js';
import { laneSeeds, webhookCase } from './webhook-lane.js';
import { runWebhookCase } from './webhook-oracle.js';

const isA2a = (c: { kind: string }): c is A2aCase => c.kind === 'stream' || c.kind === 'sdk-error';

const port = parentPort;
if (port !== null) {
  const position = new Int32Array(workerData.position as SharedArrayBuffer);
  port.on('message', async (batch: Batch) => {
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
      const c =
        batch.lane === 'webhooks'
          ? await webhookCase(batch.seed, index, batch.profile)
          : batch.lane === 'a2a-stream'
            ? makeA2aCase(batch.seed, index, batch.profile)
            : makeCase(batch.seed, index, batch.profile);
      Atomics.store(position, 1, 1); // running
      const result = !('kind' in c)
        ? runCase(c, batch.slowMs)
        : isA2a(c)
          ? await runA2aCase(c, batch.slowMs)
          : await runWebhookCase(c, batch.slowMs);
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
  // The webhook lane signs and checks its seeds first (seconds on a loaded machine): not a hang of case 0.
  if (workerData.lane === 'webhooks') await laneSeeds();
  port.postMessage({ type: 'ready' } satisfies FromWorker);
}
