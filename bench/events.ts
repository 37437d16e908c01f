/**
 * The events row of the bench (issue 43): what option `onEvent` costs callTask, and that a call
 * without a listener pays nothing for it. `callTask(client, 'get_products', args)` against an
 * in-process MCP client that answers the 2 KB get_products at once, so that only callTask's own
 * work is timed (bench/events-child.mjs, bare `node`): with and without a listener that does
 * nothing, the arms alternating call by call in one process; and, when BENCH_BEFORE names the
 * dist/ of a build without events (the commit before them, built), that build's call against this
 * one's, each without a listener in processes of their own, alternating process by process: the
 * row's goal, ≤ 1.02. Two builds are never timed in one process: the copy imported second ran
 * 7-8% slower there, an identical copy too. A call takes tens of µs, so each is timed alone (wall
 * time); a round's figure per arm is the median of its calls, which leaves out those the scheduler
 * or a collection interrupted; a process's is its lowest round, the least disturbed by the other
 * processes of a shared machine; a ratio is the median of the processes' (of the pairs').
 *
 *   npx tsx bench/run.ts --only=events                                      (against dist/)
 *   BENCH_BEFORE=/tmp/before/dist npx tsx bench/run.ts --only=events         (and against that build)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { goal, lastJsonLine, type Measurement, measure, median, run } from './harness.js';
import { benchPayloads } from './payloads.js';

const SECTION = "callTask's events, in-process client answering at once, get_products 2KB (÷ callTask without a listener)";
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHILD = path.join(ROOT, 'bench', 'events-child.mjs');

/** One process: per arm, the median of each round's calls (ms), and the events its listener was told. */
interface ChildResult {
  readonly rounds: number[][];
  readonly told: number;
}

/** The per-process figure of each arm: its least disturbed round (the lowest round median). */
async function child(job: { dist: string; payload: string; listen: boolean[]; rounds: number }): Promise<number[]> {
  const { stdout } = await run(process.execPath, [CHILD, JSON.stringify({ ...job, calls: 200, warmup: 3 })], { cwd: ROOT });
  const result = lastJsonLine<ChildResult>(stdout);
  // The benchmark measures what it claims: a call with a listener tells it 4 events (started, attempt started and ended, ended).
  if (job.listen.includes(true) && result.told % 4 !== 0) throw new Error(`bench: the listener was told ${result.told} events`);
  return result.rounds.map((xs) => Math.min(...xs));
}

/**
 * Measures the events row against dist/ (and the build at BENCH_BEFORE, when set).
 *
 * @param processes Processes per arm (fewer with --quick).
 * @returns Without a listener, with one (÷ without); with BENCH_BEFORE, the build before events and the goal row.
 */
export async function eventsBench(processes: number): Promise<Measurement[]> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'adcp-bench-events-'));
  try {
    const payload = path.join(tmp, 'payload.json');
    writeFileSync(payload, JSON.stringify(benchPayloads()['get_products 2KB']!.payload));
    const dist = path.join(ROOT, 'dist');
    const before = process.env.BENCH_BEFORE === undefined ? undefined : path.resolve(process.env.BENCH_BEFORE);
    const rounds = 41;
    const without: number[] = [];
    const withListener: number[] = [];
    const alone: number[] = [];
    const old: number[] = [];
    for (let p = 0; p < processes; p++) {
      const [a, b] = await child({ dist, payload, listen: [false, true], rounds });
      without.push(a!);
      withListener.push(b!);
      if (before === undefined) continue;
      // This build and the one before, each alone in a process, alternating which goes first.
      const pair = [
        () => child({ dist, payload, listen: [false], rounds }).then(([x]) => alone.push(x!)),
        () => child({ dist: before, payload, listen: [false], rounds }).then(([x]) => old.push(x!)),
      ];
      for (const k of p % 2 === 0 ? [0, 1] : [1, 0]) await pair[k]!();
    }
    const ratioTo = (xs: number[], base: number[]) => median(xs.map((x, i) => x / base[i]!));
    const runs = processes * rounds * 200;
    const out = [
      measure(SECTION, 'callTask without a listener', without, 'ms', { runs }),
      measure(SECTION, 'callTask with a listener that does nothing (4 events a call)', withListener, 'ms', {
        runs,
        baseline: 'without a listener',
        ratio: ratioTo(withListener, without),
      }),
    ];
    if (old.length > 0) {
      const ratio = ratioTo(alone, old);
      out.push(measure(SECTION, 'callTask of the build before events (BENCH_BEFORE), a process alone', old, 'ms', { runs }));
      out.push(
        measure(SECTION, 'callTask without a listener, a process alone, ÷ the build before events', alone, 'ms', {
          runs,
          baseline: 'the build before events',
          ratio,
          ...goal(1.02, ratio),
        }),
      );
    }
    return out;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
