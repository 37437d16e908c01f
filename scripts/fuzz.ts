/**
 * The fuzzer: runs seeded, reproducible cases (scripts/fuzz-cases.ts) against decode(),
 * safeDecode() and the extractors, on worker threads, each watched by a watchdog.
 *
 *   npm run fuzz -- --seed 1 --runs 1000000        a run (default: 10,000 cases, a random seed)
 *   npm run fuzz -- --seed 1 --case 4242           one case, in-process, with every step shown
 *
 * Options: --from N (first case index, 0), --workers N (default: the cores), --batch N (cases per message, 1000), --hang-ms N (a case
 * that runs longer is killed and reported, 10000), --slow-ms N (reported, 2000), --profile full|ci,
 * --out DIR (.fuzz), --max-old-mb N (a worker's heap, 2048).
 *
 * Every finding (a crash, safeDecode throwing, an extractor throwing a non-DecodeError, two calls
 * disagreeing, a polluted prototype, a slow case, a hang, a worker out of memory) is written to
 * DIR/<kind>-s<seed>-c<index>.json with the steps that built the input, a rendering of it, and the
 * command that reproduces it. The summary (DIR/summary-s<seed>.json, and printed) tallies every
 * class of input tried and its outcomes. Exit status 1 when anything but `slow` was found.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { describeInput, makeCase, runCase, type Finding, type Profile } from './fuzz-cases.js';
import { emptyTally, type Batch, type FromWorker, type Tally } from './fuzz-worker.js';

interface Args {
  seed: number;
  runs: number;
  /** The first case index (cases from .. from + runs). */
  from: number;
  workers: number;
  batch: number;
  hangMs: number;
  slowMs: number;
  profile: Profile;
  out: string;
  maxOldMb: number;
  case: number | undefined;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = {
    seed: Math.floor(Math.random() * 2 ** 31),
    runs: 10_000,
    from: 0,
    workers: availableParallelism(),
    batch: 1_000,
    hangMs: 10_000,
    slowMs: 2_000,
    profile: 'full',
    out: '.fuzz',
    maxOldMb: 2_048,
    case: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    const number = (): number => {
      const n = Number(value);
      if (value === undefined || !Number.isInteger(n) || n < 0)
        throw new Error(`${flag} expects a non-negative integer, got ${String(value)}`);
      i++;
      return n;
    };
    switch (flag) {
      case '--seed':
        args.seed = number();
        break;
      case '--runs':
        args.runs = number();
        break;
      case '--from':
        args.from = number();
        break;
      case '--workers':
        args.workers = Math.max(1, number());
        break;
      case '--batch':
        args.batch = Math.max(1, number());
        break;
      case '--hang-ms':
        args.hangMs = number();
        break;
      case '--slow-ms':
        args.slowMs = number();
        break;
      case '--max-old-mb':
        args.maxOldMb = number();
        break;
      case '--case':
        args.case = number();
        break;
      case '--profile':
        if (value !== 'full' && value !== 'ci') throw new Error(`--profile expects full or ci, got ${String(value)}`);
        args.profile = value;
        i++;
        break;
      case '--out':
        if (value === undefined) throw new Error('--out expects a directory');
        args.out = value;
        i++;
        break;
      default:
        throw new Error(`unknown option ${String(flag)}; see the header of scripts/fuzz.ts`);
    }
  }
  return args;
}

// ---------------------------------------------------------------------------------------------

function reproduce(args: Args, index: number): string {
  return `npm run fuzz -- --seed ${args.seed} --case ${index}${args.profile === 'ci' ? ' --profile ci' : ''}`;
}

/** One case, in-process, every step shown: how a finding is reproduced and debugged. */
function runOne(args: Args, index: number): number {
  const c = makeCase(args.seed, index, args.profile);
  console.log(`case ${index} of seed ${args.seed} (${args.profile})`);
  console.log(`  task     ${JSON.stringify(c.task)}`);
  console.log(`  options  ${JSON.stringify(c.options)}`);
  for (const step of c.steps) console.log(`  - ${step}`);
  const result = runCase(c, args.slowMs);
  console.log(`  outcome  ${result.outcome} in ${result.ms.toFixed(1)} ms`);
  for (const f of result.findings) console.log(`  FINDING  ${f.kind}: ${f.detail}`);
  return result.findings.some((f) => f.kind !== 'slow') ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------

const FILES_PER_KIND = 200;

class Report {
  readonly tally: Tally = emptyTally();
  readonly findings: Finding[] = [];
  private readonly files = new Map<string, number>();

  constructor(private readonly args: Args) {}

  merge(t: Tally): void {
    const into = this.tally;
    into.cases += t.cases;
    into.ms += t.ms;
    for (const [k, n] of Object.entries(t.outcomes)) into.outcomes[k] = (into.outcomes[k] ?? 0) + n;
    for (const [cls, byOutcome] of Object.entries(t.classes)) {
      const target = (into.classes[cls] ??= {});
      for (const [k, n] of Object.entries(byOutcome)) target[k] = (target[k] ?? 0) + n;
    }
    if (t.slowest.ms > into.slowest.ms) into.slowest = t.slowest;
  }

  add(finding: Finding): void {
    this.findings.push(finding);
    const written = this.files.get(finding.kind) ?? 0;
    if (written >= FILES_PER_KIND) return;
    this.files.set(finding.kind, written + 1);
    const c = makeCase(finding.seed, finding.index, this.args.profile);
    const file = path.join(this.args.out, `${finding.kind}-s${finding.seed}-c${finding.index}.json`);
    const body = {
      ...finding,
      reproduce: reproduce(this.args, finding.index),
      profile: this.args.profile,
      task: c.task,
      options: describeInput(c.options),
      envelope: c.envelope,
      classes: c.classes,
      steps: c.steps,
      input: describeInput(c.input),
    };
    writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
    console.log(`  ${finding.kind} at case ${finding.index}: ${finding.detail} → ${file}`);
  }
}

function summarize(report: Report, args: Args, wallMs: number): string {
  const { tally, findings } = report;
  const lines: string[] = [];
  const pct = (n: number, of: number): string => `${((100 * n) / Math.max(1, of)).toFixed(1)}%`;
  lines.push(
    `seed ${args.seed}, ${tally.cases.toLocaleString('en-US')} cases (${args.profile}), ${(wallMs / 1000).toFixed(1)} s wall on ${args.workers} workers, ${Math.round(tally.cases / (wallMs / 1000)).toLocaleString('en-US')} cases/s`,
  );
  lines.push(`slowest case ${tally.slowest.index}: ${tally.slowest.ms.toFixed(0)} ms`);
  lines.push('');
  lines.push('outcomes:');
  for (const [k, n] of Object.entries(tally.outcomes).sort((a, b) => b[1] - a[1]))
    lines.push(`  ${k.padEnd(20)} ${String(n).padStart(9)}  ${pct(n, tally.cases)}`);
  lines.push('');
  lines.push('classes of input tried (cases; most frequent outcomes):');
  for (const [cls, byOutcome] of Object.entries(tally.classes).sort((a, b) => a[0].localeCompare(b[0]))) {
    const total = Object.values(byOutcome).reduce((a, b) => a + b, 0);
    const top = Object.entries(byOutcome)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([k, n]) => `${k} ${pct(n, total)}`)
      .join(', ');
    lines.push(`  ${cls.padEnd(26)} ${String(total).padStart(9)}  ${top}`);
  }
  lines.push('');
  const byKind = new Map<string, Finding[]>();
  for (const f of findings) byKind.set(f.kind, [...(byKind.get(f.kind) ?? []), f]);
  if (byKind.size === 0) lines.push('findings: none');
  for (const [kind, list] of byKind) {
    lines.push(`findings: ${kind} × ${list.length} (first at case ${list[0]!.index}: ${list[0]!.detail}; files in ${args.out}/)`);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------

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

async function run(args: Args): Promise<number> {
  mkdirSync(args.out, { recursive: true });
  const report = new Report(args);
  const queue: Array<[number, number]> = [];
  const end = args.from + args.runs;
  for (let from = args.from; from < end; from += args.batch) queue.push([from, Math.min(end, from + args.batch)]);
  const started = performance.now();
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./fuzz-worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  console.log(
    `fuzzing: seed ${args.seed}, ${args.runs.toLocaleString('en-US')} cases from ${args.from}, ${args.workers} workers, hang bound ${args.hangMs} ms; findings go to ${args.out}/`,
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
      const batch: Batch = { type: 'batch', seed: args.seed, from: range[0], to: range[1], profile: args.profile, slowMs: args.slowMs };
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
        workerData: { position: position.buffer },
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

const args = parseArgs(process.argv.slice(2));
process.exitCode = args.case !== undefined ? runOne(args, args.case) : await run(args);
