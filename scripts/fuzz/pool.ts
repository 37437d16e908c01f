/**
 * The fuzzer's pool: worker threads (worker.ts) fed batches of cases, a watchdog that terminates a
 * worker stuck on one case (a hang) and queues the rest of its batch, and a replacement for every
 * worker lost (a hang, running out of memory, dying).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { a2aViewOf, makeA2aCase } from './a2a-lane.js';
import type { Args } from './args.js';
import type { Finding } from './oracle.js';
import type { Batch, FromWorker } from './protocol.js';
import { Report, reproduce, summarize } from './report.js';
import { makeWebhookCase } from './webhook-case.js';
import { laneSeeds, viewOf } from './webhook-lane.js';

interface Slot {
  worker: Worker;
  position: Int32Array;
  batch: Batch | undefined;
  /** Cases of the batch before this one are tallied (reported by the worker). */
  reported: number;
  lastIndex: number;
  lastChange: number;
  retired: boolean;
}

/**
 * Runs `args.runs` cases from `args.from` on worker threads, each watched by a watchdog that kills
 * a worker stuck on one case; writes the findings and the summary.
 *
 * @param args - The run's options.
 * @returns The exit status: 1 when anything but `slow` was found.
 * @throws If the output folder cannot be written.
 * @example
 * process.exitCode = await run(parseArgs(['--seed', '1', '--runs', '1000']));
 */
export async function run(args: Args): Promise<number> {
  mkdirSync(args.out, { recursive: true });
  const seeds = args.lane === 'webhooks' ? await laneSeeds() : undefined;
  const report = new Report(
    args,
    args.lane === 'a2a-stream'
      ? (index) => a2aViewOf(makeA2aCase(args.seed, index, args.profile))
      : seeds && ((index) => viewOf(makeWebhookCase(args.seed, index, seeds, args.profile))),
  );
  const queue: Array<[number, number]> = [];
  const end = args.from + args.runs;
  for (let from = args.from; from < end; from += args.batch) queue.push([from, Math.min(end, from + args.batch)]);
  const started = performance.now();
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  console.log(
    `fuzzing (${args.lane} lane): seed ${args.seed}, ${args.runs.toLocaleString('en-US')} cases from ${args.from}, ${args.workers} workers, hang bound ${args.hangMs} ms; findings go to ${args.out}/`,
  );

  return new Promise((resolve) => {
    const slots = new Set<Slot>();
    let lastProgress = performance.now();

    const next = (slot: Slot): void => {
      const range = queue.shift();
      if (range === undefined) {
        slot.retired = true;
        void slot.worker.terminate();
        slots.delete(slot);
        if (slots.size === 0) finish();
        return;
      }
      const batch: Batch = {
        type: 'batch',
        seed: args.seed,
        from: range[0],
        to: range[1],
        profile: args.profile,
        lane: args.lane,
        slowMs: args.slowMs,
      };
      slot.batch = batch;
      slot.reported = batch.from;
      slot.lastIndex = -1;
      slot.lastChange = performance.now();
      slot.worker.postMessage(batch);
    };

    /** The worker died or was killed on a case: report it, queue the rest of its batch, replace it. */
    const lose = (slot: Slot, kind: Finding['kind'], detail: string): void => {
      if (slot.retired) return;
      slot.retired = true;
      slots.delete(slot);
      const index = Atomics.load(slot.position, 0);
      const batch = slot.batch;
      if (batch !== undefined && index >= 0) {
        // The case it died on is the finding (counted once, as a case); what it finished but had
        // not reported yet is run again by another worker, deterministically.
        report.add({ kind, seed: args.seed, index, detail });
        report.tally.cases++;
        report.tally.outcomes[kind] = (report.tally.outcomes[kind] ?? 0) + 1;
        if (index + 1 < batch.to) queue.unshift([index + 1, batch.to]);
        if (slot.reported < index) queue.unshift([slot.reported, index]);
      } else if (batch !== undefined) {
        queue.unshift([slot.reported, batch.to]);
      }
      void slot.worker.terminate();
      spawn();
    };

    const spawn = (): void => {
      // [case index, 0 while the case is built / 1 while it runs]
      const position = new Int32Array(new SharedArrayBuffer(8));
      position[0] = -1;
      const worker = new Worker(bootstrap, {
        eval: true,
        workerData: { position: position.buffer, lane: args.lane },
        resourceLimits: { maxOldGenerationSizeMb: args.maxOldMb },
      });
      const slot: Slot = { worker, position, batch: undefined, reported: 0, lastIndex: -1, lastChange: performance.now(), retired: false };
      slots.add(slot);
      worker.on('message', (message: FromWorker) => {
        if (message.type === 'ready') return next(slot);
        report.merge(message.tally);
        for (const f of message.findings) report.add(f);
        slot.reported = message.upTo;
        if (message.type === 'done') next(slot);
      });
      worker.on('error', (error: Error & { code?: string }) => {
        lose(
          slot,
          error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out-of-memory' : 'worker-died',
          `${error.code ?? error.name}: ${error.message.slice(0, 200)}`,
        );
      });
      worker.on('exit', (code) => {
        if (!slot.retired) lose(slot, 'worker-died', `exit code ${code}`);
      });
    };

    const watchdog = setInterval(() => {
      const now = performance.now();
      for (const slot of slots) {
        if (slot.batch === undefined) continue;
        const index = Atomics.load(slot.position, 0);
        if (index !== slot.lastIndex) {
          slot.lastIndex = index;
          slot.lastChange = now;
        } else if (index >= 0 && now - slot.lastChange > args.hangMs) {
          // A case that takes this long to build is the fuzzer's problem, not decode()'s.
          const phase = Atomics.load(slot.position, 1) === 0 ? 'being built' : 'still running';
          lose(slot, 'hang', `${phase} after ${args.hangMs} ms; the worker was terminated`);
        }
      }
      if (now - lastProgress > 15_000) {
        lastProgress = now;
        const done = report.tally.cases;
        console.log(
          `  ${done.toLocaleString('en-US')} / ${args.runs.toLocaleString('en-US')} cases, ${((now - started) / 1000).toFixed(0)} s, ${report.findings.length} findings`,
        );
      }
    }, 250);

    const finish = (): void => {
      clearInterval(watchdog);
      const wall = performance.now() - started;
      const text = summarize(report, args, wall);
      console.log(`\n${text}`);
      writeFileSync(
        path.join(args.out, `summary-s${args.seed}.json`),
        `${JSON.stringify({ seed: args.seed, runs: args.runs, profile: args.profile, workers: args.workers, wallMs: Math.round(wall), tally: report.tally, findings: report.findings.map((f) => ({ ...f, reproduce: reproduce(args, f.index) })) }, null, 2)}\n`,
      );
      writeFileSync(path.join(args.out, `summary-s${args.seed}.txt`), `${text}\n`);
      resolve(report.findings.some((f) => f.kind !== 'slow') ? 1 : 0);
    };

    for (let i = 0; i < Math.min(args.workers, queue.length); i++) spawn();
    if (queue.length === 0) finish();
  });
}
