/**
 * The callTask row of the bench (issue 21): `callTask(client, 'get_products', args)` (encode,
 * callTool inside withFetchBounds and the call's deadline, decode with the request) against the
 * same call by hand, `decode('get_products', await client.callTool(...))`, over loopback: a real
 * MCP seller (the SDK's low-level Server, Streamable HTTP, stateless) on 127.0.0.1 in this
 * process and a real SDK Client whose transport fetch is boundedFetch(), as the README wires it,
 * for both arms. Wall time (the call waits on sockets); the arms alternate call by call in each
 * round, so that load on the machine falls on both, and the ratio is the median of the rounds'.
 *
 *   npx tsx bench/run.ts --only=calltask     (against dist/: npm run compile first)
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { lowLevelSeller, serveSellers } from '../test/fixtures/mcp-sellers.js';
import { goal, type Measurement, measure, median } from './harness.js';
import { benchPayloads } from './payloads.js';

const SECTION = 'callTask over loopback MCP (÷ callTool + decode by hand)';
const ROOT = fileURLToPath(new URL('..', import.meta.url));

type DecodeFn = (task: string, input: unknown, options?: object) => unknown;
type CallTaskFn = (client: Client, task: string, args: object, options?: object) => Promise<unknown>;
type BoundedFetchFn = () => (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
type WithFetchBoundsFn = <T>(bounds: { timeoutMs: number }, fn: (signal: AbortSignal) => Promise<T>) => Promise<T>;

/** What the buyer asks; what the seller receives from callTask (stamped), which the hand arm sends as is. */
const ARGS = { buying_mode: 'brief', brief: 'Premium CTV, US, Q3' };
const STAMPED = { ...ARGS, adcp_version: '3.1', adcp_major_version: 3 };

/** Total wall time of `calls` sequential calls of each arm, alternating arm by arm. */
async function round(arms: ReadonlyArray<() => Promise<unknown>>, calls: number): Promise<number[]> {
  const totals = arms.map(() => 0);
  for (let i = 0; i < calls; i++) {
    // Alternate which arm goes first, so that neither always follows the other's garbage.
    for (let k = 0; k < arms.length; k++) {
      const a = (k + i) % arms.length;
      const started = performance.now();
      await arms[a]!();
      totals[a]! += performance.now() - started;
    }
  }
  return totals.map((t) => t / calls);
}

/** The calls the row times, over one loopback seller answering `label`'s payload; `close` ends both sides. */
interface LoopbackCalls {
  readonly byHand: () => Promise<unknown>;
  readonly typed: () => Promise<unknown>;
  /** The by-hand call given what callTask adds around callTool: a signal and the SDK's timeout. */
  readonly withOptions: () => Promise<unknown>;
  /** The same inside the scope that bounds every fetch of the call (withFetchBounds). */
  readonly scoped: () => Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Serves a real MCP seller answering the bench payload `label` and connects a real SDK client to
 * it through boundedFetch() from dist/.
 *
 * @param label A bench payload (benchPayloads()).
 * @returns The calls, checked to answer alike.
 */
async function loopbackCalls(label: string): Promise<LoopbackCalls> {
  const dist = (file: string) => pathToFileURL(path.join(ROOT, 'dist', file)).href;
  const { decode } = (await import(dist('index.js'))) as { decode: DecodeFn };
  const { callTask } = (await import(dist('mcp/index.js'))) as { callTask: CallTaskFn };
  const { boundedFetch, withFetchBounds } = (await import(dist('fetch/index.js'))) as {
    boundedFetch: BoundedFetchFn;
    withFetchBounds: WithFetchBoundsFn;
  };
  const payload = benchPayloads()[label]!.payload;
  const served = await serveSellers({
    seller: lowLevelSeller({ call: () => ({ content: [{ type: 'text', text: 'ok' }], structuredContent: payload }) }),
  });
  const client = new Client({ name: 'bench-buyer', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('seller', served.base), { fetch: boundedFetch() }));
  const call = (options?: { signal: AbortSignal; timeout: number }) =>
    client.callTool({ name: 'get_products', arguments: STAMPED }, undefined, options);
  const calls: LoopbackCalls = {
    byHand: async () => decode('get_products', await call(), { version: '3.1' }),
    typed: () => callTask(client, 'get_products', ARGS, { version: '3.1' }),
    withOptions: async () =>
      decode('get_products', await call({ signal: new AbortController().signal, timeout: 60_000 }), { version: '3.1' }),
    scoped: () =>
      withFetchBounds({ timeoutMs: 60_000 }, async (signal) =>
        decode('get_products', await call({ signal, timeout: 60_000 }), { version: '3.1' }),
      ),
    close: async () => {
      await client.close();
      await served.close();
    },
  };
  // The benchmark calls what it measures: both arms answer the same products.
  const [a, b] = [(await calls.byHand()) as { products: unknown[] }, (await calls.typed()) as { products: unknown[] }];
  if (a.products.length !== b.products.length) throw new Error(`bench: the two ${label} calls answered differently`);
  return calls;
}

/**
 * Measures the callTask row against dist/ (the built package).
 *
 * @param rounds Rounds per size (fewer with --quick).
 * @returns Per answer size: callTool + decode by hand, and callTask with its ratio and the 1.05 goal,
 *   and the by-hand call with callTask's signal and timeout, then inside withFetchBounds.
 */
export async function callTaskBench(rounds: number): Promise<Measurement[]> {
  const out: Measurement[] = [];
  for (const label of ['get_products 2KB', 'get_products 100KB']) {
    const { byHand, typed, withOptions, scoped, close } = await loopbackCalls(label);
    try {
      const calls = label.endsWith('100KB') ? 10 : 30;
      const arms = [byHand, typed, withOptions, scoped];
      const times: number[][] = arms.map(() => []);
      for (let r = 0; r < rounds; r++) {
        const totals = await round(arms, calls);
        for (const [i, t] of totals.entries()) times[i]!.push(t);
      }
      const [hand, ours, optioned, inScope] = times as [number[], number[], number[], number[]];
      const ratioOf = (xs: number[]) => median(xs.map((x, i) => x / hand[i]!));
      const ratio = ratioOf(ours);
      const runs = rounds * calls;
      out.push(measure(SECTION, `callTool + decode by hand, ${label}`, hand, 'ms', { runs }));
      out.push(measure(SECTION, `callTask, ${label}`, ours, 'ms', { runs, baseline: 'callTool + decode', ratio, ...goal(1.05, ratio) }));
      out.push(
        measure(SECTION, `by hand with a signal and timeout, ${label}`, optioned, 'ms', {
          runs,
          baseline: 'callTool + decode',
          ratio: ratioOf(optioned),
        }),
      );
      out.push(
        measure(SECTION, `the same inside withFetchBounds, ${label}`, inScope, 'ms', {
          runs,
          baseline: 'callTool + decode',
          ratio: ratioOf(inScope),
        }),
      );
    } finally {
      await close();
    }
  }
  return out;
}
