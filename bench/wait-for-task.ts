/**
 * The waitForTask row of the bench (issue 29): waitForTask's own cost per poll, against a poll loop
 * written by hand over the same client: `callTool` of get_task_status, `decodeTaskStatus` with the
 * handle, the status checked, a sleep. The client is in-process and answers at once (`working`
 * 19 times, then `completed` with the result), and both arms sleep on the same zero-delay clock,
 * so only the loops' own work is timed: waitForTask's encode of each poll, its deadline and
 * signals, its transient-failure bookkeeping. Wall time (the loops await promises); the arms
 * alternate wait by wait in each round, and the ratio is the median of the rounds'.
 *
 *   npx tsx bench/run.ts --only=waitfortask     (against dist/: npm run compile first)
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { payload } from '../test/fixtures/payloads.js';
import { pollResponse } from '../test/fixtures/poll-sellers.js';
import { V3_1 } from '../test/fixtures/versions.js';
import { goal, type Measurement, measure, median } from './harness.js';

const SECTION = "waitForTask's own cost per poll, in-process client, zero-delay clock (÷ a hand-written poll loop)";
const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Polls per wait: `working` until the last, which completes. */
const POLLS = 20;

type Handle = { readonly task: 'create_media_buy'; readonly taskId: string; readonly version: V3_1 };
type Clock = { now(): number; sleep(ms: number, signal: AbortSignal): Promise<void> };
type Client = { callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown> };
type WaitFn = (client: Client, handle: Handle, options: object) => Promise<unknown>;
type DecodeTaskStatusFn = (input: unknown, options: { handle: Handle }) => { status: string; data: unknown };
type Polled = { status: string; result?: unknown; task_id: string };
type CallTaskFn = (client: Client, task: 'get_task_status', args: object, options: object) => Promise<Polled>;

const HANDLE: Handle = { task: 'create_media_buy', taskId: 'task_cmb_4821', version: V3_1 };
/** The zero-delay clock both arms sleep on. */
const CLOCK: Clock = { now: () => performance.now(), sleep: () => Promise.resolve() };

/** An in-process MCP client whose n-th poll of each wait answers at once: `working`, then `completed` on the last. */
function instantClient(): Client & { reset(): void; readonly calls: number } {
  const tool = (structured: Record<string, unknown>) => ({ content: [{ type: 'text', text: 'ok' }], structuredContent: structured });
  const working = tool(pollResponse('working', { progress: { percentage: 40 } }));
  const completed = tool(pollResponse('completed', { result: payload('3.1/create_media_buy.valid') }));
  let n = 0;
  let calls = 0;
  return {
    callTool: async () => {
      calls += 1;
      n += 1;
      return n % POLLS === 0 ? completed : working;
    },
    reset: () => {
      n = 0;
    },
    get calls() {
      return calls;
    },
  };
}

/** The hand-written loop a buyer would write: poll, decode for the handle, stop when completed, sleep. */
async function handLoop(client: Client, decodeTaskStatus: DecodeTaskStatusFn, signals = 0): Promise<unknown> {
  const signal = new AbortController().signal;
  const done = new AbortController().signal;
  for (;;) {
    // The attribution arm: the combined signals waitForTask makes per poll (the poll's, callTask's deadline, the sleep's).
    for (let i = 0; i < signals; i++) AbortSignal.any([signal, done]);
    const answer = await client.callTool({
      name: 'get_task_status',
      arguments: { task_id: HANDLE.taskId, include_result: true, adcp_version: '3.1', adcp_major_version: 3 },
    });
    const polled = decodeTaskStatus(answer, { handle: HANDLE });
    if (polled.status === 'completed') return polled.data;
    if (polled.status === 'failed' || polled.status === 'canceled' || polled.status === 'rejected') throw new Error(polled.status);
    await CLOCK.sleep(2_000, signal);
  }
}

/**
 * The loop written by hand to waitForTask's contract: each poll a callTask (its request checked,
 * sent within a per-poll deadline and the caller's signal, its bytes bounded, what the client
 * throws typed), the task's id compared, the status checked, a sleep under the same signal.
 */
async function guardedLoop(client: Client, callTask: CallTaskFn): Promise<unknown> {
  const signal = new AbortController().signal;
  for (;;) {
    const polled = await callTask(
      client,
      'get_task_status',
      { task_id: HANDLE.taskId, include_result: true },
      { timeoutMs: 60_000, signal },
    );
    if (polled.task_id !== HANDLE.taskId) throw new Error('another task answered');
    if (polled.status === 'completed') return polled.result;
    if (polled.status === 'failed' || polled.status === 'canceled' || polled.status === 'rejected') throw new Error(polled.status);
    await CLOCK.sleep(2_000, signal);
  }
}

/**
 * Measures the waitForTask row against dist/ (the built package).
 *
 * @param rounds Rounds (fewer with --quick).
 * @returns The hand-written loop per poll, waitForTask per poll with its ratio and the 1.05 goal, and the
 *   hand loop plus the signals waitForTask combines per poll (where its time goes).
 */
export async function waitForTaskBench(rounds: number): Promise<Measurement[]> {
  const dist = (file: string) => pathToFileURL(path.join(ROOT, 'dist', file)).href;
  const { decodeTaskStatus } = (await import(dist('index.js'))) as { decodeTaskStatus: DecodeTaskStatusFn };
  const { waitForTask, callTask } = (await import(dist('mcp/index.js'))) as { waitForTask: WaitFn; callTask: CallTaskFn };
  const client = instantClient();
  const arms: Array<() => Promise<unknown>> = [
    () => handLoop(client, decodeTaskStatus),
    () => waitForTask(client, HANDLE, { clock: CLOCK, intervalMs: 2_000 }),
    () => handLoop(client, decodeTaskStatus, 3),
    () => guardedLoop(client, callTask),
  ];
  // The benchmark runs what it measures: both arms poll POLLS times and return the same buy.
  for (const arm of arms) {
    client.reset();
    const before = client.calls;
    const buy = (await arm()) as { media_buy_id?: unknown };
    if (client.calls - before !== POLLS || typeof buy.media_buy_id !== 'string')
      throw new Error('bench: a wait arm did not poll as scripted');
  }
  const waits = 50;
  const times: number[][] = arms.map(() => []);
  for (let r = 0; r < rounds; r++) {
    const totals = arms.map(() => 0);
    for (let i = 0; i < waits; i++) {
      for (let k = 0; k < arms.length; k++) {
        const a = (k + i) % arms.length;
        client.reset();
        const started = performance.now();
        await arms[a]!();
        totals[a]! += performance.now() - started;
      }
    }
    for (const [a, t] of totals.entries()) times[a]!.push(t / (waits * POLLS));
  }
  const [hand, ours, signalled, guarded] = times as [number[], number[], number[], number[]];
  const ratioTo = (base: number[]) => median(ours.map((x, i) => x / base[i]!));
  const ratio = ratioTo(guarded);
  const runs = rounds * waits * POLLS;
  return [
    measure(SECTION, 'hand-written loop to the same contract: callTask + task id checked + sleep, per poll', guarded, 'ms', { runs }),
    measure(SECTION, 'waitForTask, per poll', ours, 'ms', { runs, baseline: 'the same-contract loop', ratio, ...goal(1.05, ratio) }),
    measure(SECTION, 'bare hand-written loop: callTool + decodeTaskStatus + sleep (no deadline, abort, bounds), per poll', hand, 'ms', {
      runs,
    }),
    measure(SECTION, 'waitForTask against the bare loop', ours, 'ms', { runs, baseline: 'bare loop', ratio: ratioTo(hand) }),
    measure(SECTION, 'the bare loop plus 3 AbortSignal.any per poll (what waitForTask combined before)', signalled, 'ms', {
      runs,
      baseline: 'bare loop',
      ratio: median(signalled.map((x, i) => x / hand[i]!)),
    }),
  ];
}
