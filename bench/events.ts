/**
 * The events row of the bench (issue 43): what option `onEvent` costs callTask, and that a call
 * without a listener pays nothing for it. `callTask(client, 'get_products', args)` against an
 * in-process MCP client that answers at once (the 2 KB get_products), so that only callTask's own
 * work is timed: without a listener, with a listener that does nothing, and, when BENCH_BEFORE
 * names the dist/ of a build without events (a worktree of the commit before them, built), that
 * build's callTask, whose goal is the one of the row: without a listener, ≤ 1.02 of it. A call
 * takes tens of µs, so each is timed alone (wall time) and the arms alternate call by call in
 * rotated order: a round's figure per arm is the median of its calls, which leaves out the calls
 * the scheduler or a collection interrupted, and each ratio is the median of the rounds'.
 *
 *   npx tsx bench/run.ts --only=events                                      (against dist/)
 *   BENCH_BEFORE=/tmp/before/dist npx tsx bench/run.ts --only=events         (and against that build)
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { goal, type Measurement, measure, median } from './harness.js';
import { benchPayloads } from './payloads.js';

const SECTION = "callTask's events, in-process client answering at once, get_products 2KB (÷ callTask without a listener)";
const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Calls per arm and round. */
const CALLS = 200;
/** Rounds run first and not kept, so that every arm is compiled and warm. */
const WARMUP = 3;

type Client = { callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown> };
type CallTaskFn = (client: Client, task: string, args: object, options?: object) => Promise<unknown>;

const ARGS = { buying_mode: 'brief', brief: 'Premium CTV, US, Q3' };

/** callTask of the build at `dist`. */
async function callTaskOf(dist: string): Promise<CallTaskFn> {
  return ((await import(pathToFileURL(path.join(dist, 'mcp', 'index.js')).href)) as { callTask: CallTaskFn }).callTask;
}

/**
 * Measures the events row against dist/ (and the build at BENCH_BEFORE, when set).
 *
 * @param rounds Rounds (fewer with --quick).
 * @returns Without a listener, with one (÷ without), and with BENCH_BEFORE the build before events and the goal row.
 */
export async function eventsBench(rounds: number): Promise<Measurement[]> {
  const payload = benchPayloads()['get_products 2KB']!.payload;
  const answer = { content: [{ type: 'text', text: 'ok' }], structuredContent: payload };
  const client: Client = { callTool: async () => answer };
  const callTask = await callTaskOf(path.join(ROOT, 'dist'));
  const before = process.env.BENCH_BEFORE;
  let told = 0;
  const onEvent = (): void => {
    told += 1;
  };
  const arms: Array<{ readonly name: string; readonly call: () => Promise<unknown> }> = [
    { name: 'without a listener', call: () => callTask(client, 'get_products', ARGS, { version: '3.1' }) },
    { name: 'with a listener that does nothing', call: () => callTask(client, 'get_products', ARGS, { version: '3.1', onEvent }) },
  ];
  if (before !== undefined) {
    const old = await callTaskOf(path.resolve(before));
    arms.push({ name: 'the build before events (BENCH_BEFORE)', call: () => old(client, 'get_products', ARGS, { version: '3.1' }) });
  }
  // The benchmark calls what it measures: every arm answers the same products, and the listener is told.
  for (const arm of arms) {
    const data = (await arm.call()) as { products?: unknown[] };
    if (data.products?.length !== (payload.products as unknown[]).length) throw new Error(`bench: ${arm.name} answered differently`);
  }
  if (told !== 4) throw new Error(`bench: the listener was told ${told} events of one call, not 4`);
  const times: number[][] = arms.map(() => []);
  for (let r = -WARMUP; r < rounds; r++) {
    const calls: number[][] = arms.map(() => []);
    for (let i = 0; i < CALLS; i++) {
      for (let k = 0; k < arms.length; k++) {
        const a = (k + i) % arms.length;
        const started = performance.now();
        await arms[a]!.call();
        calls[a]!.push(performance.now() - started);
      }
    }
    if (r >= 0) for (const [a, list] of calls.entries()) times[a]!.push(median(list));
  }
  const [without, withListener, old] = times as [number[], number[], number[] | undefined];
  const ratioTo = (xs: number[], base: number[]) => median(xs.map((x, i) => x / base[i]!));
  const runs = rounds * CALLS;
  const out = [
    measure(SECTION, 'callTask without a listener', without, 'ms', { runs }),
    measure(SECTION, 'callTask with a listener that does nothing (4 events a call)', withListener, 'ms', {
      runs,
      baseline: 'without a listener',
      ratio: ratioTo(withListener, without),
    }),
  ];
  if (old !== undefined && old.length > 0) {
    const ratio = ratioTo(without, old);
    out.push(measure(SECTION, 'callTask of the build before events (BENCH_BEFORE)', old, 'ms', { runs }));
    out.push(
      measure(SECTION, 'callTask without a listener ÷ the build before events', without, 'ms', {
        runs,
        baseline: 'the build before events',
        ratio,
        ...goal(1.02, ratio),
      }),
    );
  }
  return out;
}
