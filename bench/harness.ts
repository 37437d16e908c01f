/**
 * Measurement plumbing: paired hot loops on tinybench, fresh child processes, the statistics and
 * the table.
 *
 * The machine the benchmark runs on may be busy, so every ratio compares things measured side by
 * side: a hot comparison runs in many short rounds, each round one tinybench run of all its cases
 * (in rotated order), and its ratio is the median over rounds of (case median / baseline median)
 * in the same round, so that a change in machine load between rounds cancels out; child
 * processes of the compared modes are likewise interleaved.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Bench } from 'tinybench';

/** One figure of the table and of bench/results.json. */
export interface Measurement {
  readonly section: string;
  readonly name: string;
  readonly unit: 'ms' | 'MB' | 'files' | 'ratio';
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** Calls (hot) or processes (cold) behind the figure. */
  readonly runs: number;
  /** Hot loops: calls per timed sample (min and max are of batch means then). */
  readonly batch?: number;
  /** The measurement this one is divided by, in the same section. */
  readonly baseline?: string;
  readonly ratio?: number;
  /** The goal on the ratio, e.g. `<= 1.15`, and whether it holds in this run. */
  readonly goal?: string;
  readonly holds?: boolean;
  readonly note?: string;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface Case {
  readonly name: string;
  readonly fn: () => unknown;
}

export interface HotOptions {
  readonly rounds: number;
  /** Time budget per case and round, ms. */
  readonly time: number;
  /** Minimum iterations per case and round. */
  readonly iterations: number;
}

/**
 * The hot loops' clock: CPU time of this process (user + system, `process.cpuUsage()`), so that
 * time the scheduler gives to other processes on a busy machine is not counted; `BENCH_CLOCK=wall`
 * switches to `performance.now()`. Work V8 does on its own threads for the code (concurrent
 * marking, compilation) is CPU time of this process too, and is counted.
 */
export const CLOCK: 'cpu' | 'wall' = process.env.BENCH_CLOCK === 'wall' ? 'wall' : 'cpu';

const cpuNow = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** One iteration lasts at least this long (ms of the clock): short calls are batched. */
const MIN_ITERATION_MS = 0.5;

export interface HotResult {
  readonly name: string;
  /** Per-call times (ms): each the mean of a batch of `batch` calls. */
  readonly samples: number[];
  readonly roundMedians: number[];
  readonly batch: number;
}

/** Calls per iteration so that the fastest case's iteration lasts about MIN_ITERATION_MS. */
function batchSize(cases: readonly Case[]): number {
  let fastest = Infinity;
  for (const c of cases) {
    for (let i = 0; i < 3; i++) c.fn();
    const t = performance.now();
    let n = 0;
    while (performance.now() - t < 5 || n < 3) {
      c.fn();
      n++;
    }
    fastest = Math.min(fastest, (performance.now() - t) / n);
  }
  return Math.max(1, Math.min(1000, Math.ceil(MIN_ITERATION_MS / fastest)));
}

/**
 * Runs `cases` in `rounds` tinybench runs (the first case is usually the baseline). Calls shorter
 * than MIN_ITERATION_MS run in batches of the same size for every case of the call, so that the
 * clock's own cost (a system call for the CPU clock) stays small and equal; figures are per call.
 */
export function hot(cases: readonly Case[], options: HotOptions): HotResult[] {
  const batch = batchSize(cases);
  const results = cases.map((c) => ({ name: c.name, samples: [] as number[], roundMedians: [] as number[], batch }));
  const fns = cases.map(({ fn }) =>
    batch === 1
      ? fn
      : () => {
          for (let i = 0; i < batch; i++) fn();
        },
  );
  for (let round = 0; round < options.rounds; round++) {
    // Warm up in the first round only; later rounds continue where it left off.
    const bench = new Bench({
      ...(CLOCK === 'cpu' ? { now: cpuNow } : {}),
      time: options.time,
      iterations: options.iterations,
      warmup: round === 0,
      warmupTime: Math.max(100, options.time),
      warmupIterations: Math.max(2, options.iterations),
      retainSamples: true,
      throws: true,
    });
    const order = cases.map((_, i) => (i + round) % cases.length);
    for (const i of order) bench.add(cases[i]!.name, fns[i]!);
    bench.runSync();
    for (const [i, c] of cases.entries()) {
      const result = bench.getTask(c.name)?.result;
      if (result === undefined || !('latency' in result)) throw new Error(`bench: ${c.name} has no result (${result?.state ?? 'missing'})`);
      results[i]!.samples.push(...(result.latency.samples ?? []).map((x) => x / batch));
      results[i]!.roundMedians.push(result.latency.p50 / batch);
    }
  }
  return results;
}

/** Median over rounds of the per-round ratio of medians. */
export function pairedRatio(subject: HotResult, baseline: HotResult): number {
  return median(subject.roundMedians.map((m, i) => m / baseline.roundMedians[i]!));
}

export function summarize(section: string, result: HotResult, extra: Partial<Measurement> = {}): Measurement {
  const s = result.samples;
  return {
    section,
    name: result.name,
    unit: 'ms',
    median: median(s),
    min: s.reduce((a, b) => Math.min(a, b), Infinity),
    max: s.reduce((a, b) => Math.max(a, b), -Infinity),
    runs: s.length * result.batch,
    ...(result.batch > 1 ? { batch: result.batch } : {}),
    ...extra,
  };
}

/**
 * A measurement of one value per run (a process, a compile), where {@link summarize} takes a hot loop's samples.
 *
 * @param section - The table section.
 * @param name - The row.
 * @param values - One value per run.
 * @param unit - The values' unit.
 * @param extra - Baseline, ratio, goal, note; or `runs` and `batch` when a value is a mean over calls.
 * @returns The measurement: median, min, max of the values and their count as runs.
 * @example
 * measurements.push(measure('cold start', 'adcp-decode', [41.2, 39.8, 40.5], 'ms'));
 */
export function measure(
  section: string,
  name: string,
  values: readonly number[],
  unit: Measurement['unit'],
  extra: Partial<Measurement> = {},
): Measurement {
  return {
    section,
    name,
    unit,
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
    runs: values.length,
    ...extra,
  };
}

/**
 * The last line of a child process's stdout, parsed as JSON: children print their result last.
 *
 * @param stdout - What the child printed.
 * @returns The parsed line.
 * @throws {SyntaxError} When the last line is not JSON.
 * @example
 * const result = lastJsonLine<{ ms: number }>('warming up\n{"ms":12}\n'); // { ms: 12 }
 */
export function lastJsonLine<T>(stdout: string): T {
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}

/** A goal `<= x` on a ratio. */
export function goal(limit: number, ratio: number): { goal: string; holds: boolean } {
  return { goal: `<= ${limit}`, holds: ratio <= limit };
}

/** A goal `>= x` on a ratio (a peer's time ÷ ours: we are to be the faster). */
export function goalAtLeast(limit: number, ratio: number): { goal: string; holds: boolean } {
  return { goal: `>= ${limit}`, holds: ratio >= limit };
}

/** Runs a process to its end; resolves with stdout, rejects with stderr on a non-zero exit. */
export function run(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<{ stdout: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, args, { env: options.env ?? process.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      if (code === 0) resolve({ stdout, ms });
      else reject(new Error(`${command} ${args.join(' ').slice(0, 200)} exited ${code}: ${stderr.slice(-2000) || stdout.slice(-2000)}`));
    });
  });
}

/** A case of {@link firstCalls}: its name (for the error), and the job bench/child.mjs runs. */
export interface FirstCallCase {
  readonly name: string;
  readonly job: object;
}

/**
 * Fresh processes of bench/child.mjs, one per case in turn for `runs` rounds (interleaved, so that
 * a change in machine load hits every case): each process's import + first call, in ms, per case.
 *
 * @param root - The repository, whose bench/child.mjs runs and which is the children's cwd.
 * @param cases - The cases, each with its child job (calls: 1 is enough).
 * @param runs - Processes per case.
 * @returns Per case, in the cases' order, one figure a process.
 * @throws Error when a child's first call does not come back as its job expects (`ok`), or a child fails.
 * @example
 * const [bundled, fallback] = await firstCalls(ROOT, cases, 9);
 */
export async function firstCalls(root: string, cases: readonly FirstCallCase[], runs: number): Promise<number[][]> {
  const child = path.join(root, 'bench', 'child.mjs');
  const firsts = cases.map((): number[] => []);
  for (let i = 0; i < runs; i++) {
    for (const [k, c] of cases.entries()) {
      const { stdout } = await run(process.execPath, [child, JSON.stringify(c.job)], { cwd: root });
      const r = lastJsonLine<{ importMs: number; calls: number[]; ok: boolean }>(stdout);
      if (r.ok !== true) throw new Error(`${c.name}: the first call did not come back as expected`);
      firsts[k]!.push(r.importMs + r.calls[0]!);
    }
  }
  return firsts;
}

const fmt = (n: number, unit: string): string => {
  if (!Number.isFinite(n)) return '-';
  if (unit === 'MB') return n >= 10 ? n.toFixed(1) : n.toFixed(2);
  if (unit === 'files') return n.toFixed(0);
  if (n >= 100) return n.toFixed(0);
  if (n >= 10) return n.toFixed(1);
  if (n >= 1) return n.toFixed(2);
  return n.toFixed(4);
};

/**
 * The same figures as a Markdown table for docs/benchmarks.md: one row a measurement, a bold row a
 * section; min, max and runs stay in bench/results.json.
 */
export function markdownTable(measurements: readonly Measurement[]): string {
  const out = ['| measurement | median | ratio | ÷ | goal |', '|---|---|---|---|---|'];
  let section = '';
  for (const m of measurements) {
    if (m.section !== section) {
      section = m.section;
      out.push(`| **${section}** | | | | |`);
    }
    const ratio = m.ratio === undefined ? '' : m.ratio.toFixed(m.ratio >= 10 ? 1 : 3);
    const verdict = m.goal === undefined ? '' : `${m.goal} ${m.holds ? 'holds' : 'missed'}`;
    // A note says what a goal is on when it is not the row's ratio (e.g. a doubling's cost).
    const name = m.note === undefined ? m.name : `${m.name} (${m.note})`;
    const cells = [name, `${fmt(m.median, m.unit)} ${m.unit}`, ratio, m.baseline ?? '', verdict];
    out.push(`| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`);
  }
  return out.join('\n');
}

/** The printed table: one block per section. */
export function table(measurements: readonly Measurement[]): string {
  const header = ['measurement', 'unit', 'median', 'min', 'max', 'runs', 'ratio', 'vs', 'goal'];
  const rows: string[][] = [];
  let section = '';
  for (const m of measurements) {
    if (m.section !== section) {
      section = m.section;
      rows.push([`## ${section}`]);
    }
    const verdict = m.goal === undefined ? '' : `${m.goal} ${m.holds ? 'holds' : 'MISSED'}`;
    rows.push([
      m.name,
      m.unit,
      fmt(m.median, m.unit),
      fmt(m.min, m.unit),
      fmt(m.max, m.unit),
      String(m.runs),
      m.ratio === undefined ? '' : m.ratio.toFixed(m.ratio >= 10 ? 1 : 3),
      m.baseline ?? '',
      verdict,
    ]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.filter((r) => r.length > 1).map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('  ')];
  for (const r of rows) out.push(r.length === 1 ? `\n${r[0]}` : line(r));
  return out.join('\n');
}
