/**
 * waitForTask (adcp-decode/mcp and adcp-decode/a2a, issue 29 items 1-2) end to end, over a real
 * MCP seller and a real A2A seller on 127.0.0.1, each answering its polls by a script: the task
 * followed to its typed result; a seller that answers `working` forever (the wait ends at its
 * deadline after a bounded number of polls), one that answers for another task (TASK_MISMATCH),
 * one that drops the connection (bounded transient failures), one that rate-limits with
 * `retry_after` (honoured); its webhooks ending the wait before the polls do. The clock is
 * virtual: no test waits in real time, and every sleep the wait asked for is recorded.
 */
import { afterEach, describe, expect, expectTypeOf, test } from 'vitest';
import { callTask as a2aCall, waitForTask as a2aWait } from '../../src/a2a/index.js';
import { type decode, type Final, LimitError, TaskFailedError, type TaskHandleFields, TaskMismatchError } from '../../src/index.js';
import { callTask as mcpCall, waitForTask as mcpWait, TransportError, type WaitClock, type WaitOptions } from '../../src/mcp/index.js';
import { decodeWebhook } from '../../src/webhooks/decode-webhook.js';
import { WebhookTaskFailedError } from '../../src/webhooks/errors.js';
import { payload } from '../fixtures/payloads.js';
import { type PollAnswer, type PollCall, pollResponse, serveA2aPollSeller, serveMcpPollSeller } from '../fixtures/poll-sellers.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';

type Json = Record<string, unknown>;

const handle31 = { task: 'create_media_buy', taskId: 'task_cmb_4821', version: V3_1 } as const;
const handle30 = { task: 'create_media_buy', taskId: 'task_cmb_4821', version: V3_0 } as const;
/** The seller agent the handle's call went to, as the receiver names a delivery's verified signer. */
const AGENT = 'https://seller.example.com/adcp/mcp';
const hooked31 = { ...handle31, agent: AGENT } as const;
const signer = { keyid: 'test-ed25519-webhook-2026', alg: 'ed25519', agent: AGENT } as const;
const completed = (version: V3_1 | V3_0): PollAnswer => ({
  payload: pollResponse('completed', { completed_at: '2026-04-18T10:04:00Z', result: payload(`${version}/create_media_buy.valid`) }),
});
const working = (percentage = 40): PollAnswer => ({ payload: pollResponse('working', { progress: { percentage } }) });
const rateLimited: PollAnswer = { adcpError: { code: 'RATE_LIMITED', message: 'Slow down.', recovery: 'transient', retry_after: 7 } };

/** A virtual clock: each sleep advances it at once (or, with `hold`, waits for its signal), and is recorded. */
function virtualClock(hold = false): { clock: WaitClock; sleeps: number[]; now: () => number } {
  let t = 0;
  const sleeps: number[] = [];
  const clock: WaitClock = {
    now: () => t,
    sleep: (ms, signal) => {
      sleeps.push(ms);
      if (!hold) {
        t += ms;
        return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve();
      }
      if (signal.aborted) return Promise.reject(signal.reason);
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    },
  };
  return { clock, sleeps, now: () => t };
}

/** A scripted seller over one transport, and waitForTask over a client of it. */
interface Lane {
  wait(handle: TaskHandleFields<'create_media_buy', V3_1 | V3_0>, options?: WaitOptions): Promise<unknown>;
  /** callTask over the same client. */
  call(task: 'get_task_status' | 'tasks/get'): Promise<unknown>;
  readonly calls: PollCall[];
  close(): Promise<void>;
}

const LANES: ReadonlyArray<readonly [string, (script: (n: number) => PollAnswer) => Promise<Lane>]> = [
  [
    'MCP',
    async (script) => {
      const seller = await serveMcpPollSeller(script);
      return {
        wait: (h, o) => mcpWait(seller.client, h, o),
        call: (task) =>
          task === 'tasks/get'
            ? mcpCall(seller.client, 'tasks/get', { task_id: 'task_cmb_4821' }, { version: '3.0' })
            : mcpCall(seller.client, 'get_task_status', { task_id: 'task_cmb_4821' }, { version: '3.1' }),
        calls: seller.calls,
        close: seller.close,
      };
    },
  ],
  [
    'A2A',
    async (script) => {
      const seller = await serveA2aPollSeller(script);
      const client = await seller.agent.client();
      return {
        wait: (h, o) => a2aWait(client, h, o),
        call: (task) =>
          task === 'tasks/get'
            ? a2aCall(client, 'tasks/get', { task_id: 'task_cmb_4821' }, { version: '3.0' })
            : a2aCall(client, 'get_task_status', { task_id: 'task_cmb_4821' }, { version: '3.1' }),
        calls: seller.calls,
        close: seller.close,
      };
    },
  ],
];

let open: Lane | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});
async function lane(make: (script: (n: number) => PollAnswer) => Promise<Lane>, script: (n: number) => PollAnswer): Promise<Lane> {
  open = await make(script);
  return open;
}

describe.each(LANES)('waitForTask over %s', (_, make) => {
  test('submitted, working, completed: the typed result, interim answers surfaced, the backoff doubling', async () => {
    const seller = await lane(make, (n) =>
      n === 0
        ? { payload: pollResponse('submitted') }
        : n === 1
          ? { payload: pollResponse('input-required') }
          : n < 3
            ? working(40)
            : completed(V3_1),
    );
    const { clock, sleeps } = virtualClock();
    const seen: string[] = [];
    const result = await seller.wait(handle31, { clock, random: () => 0.5, onStatus: (p) => seen.push(p.status) });
    expect(result).toMatchObject({ media_buy_id: payload('3.1/create_media_buy.valid').media_buy_id });
    expect(seen).toEqual(['submitted', 'input-required', 'working']);
    expect(sleeps).toEqual([2000, 4000, 8000]);
    expect(seller.calls.map((c) => c.name)).toEqual(Array(4).fill('get_task_status'));
    expect(seller.calls[0]?.args).toMatchObject({ task_id: 'task_cmb_4821', include_result: true });
  });

  test("the result is typed by the handle: its task and version, decode's final arms only (no isFinal to narrow)", () => {
    type Result = Awaited<ReturnType<typeof mcpWait<typeof handle31>>>;
    expectTypeOf<Result>().toEqualTypeOf<Final<ReturnType<typeof decode<'create_media_buy', '3.1'>>>>();
    expectTypeOf<Awaited<ReturnType<typeof a2aWait<typeof handle30>>>>().toEqualTypeOf<
      Final<ReturnType<typeof decode<'create_media_buy', '3.0'>>>
    >();
    // No working, submitted or input-required arm is left: the task's fields are read as they are.
    expectTypeOf<Extract<Result, { readonly status: 'working' | 'submitted' | 'input-required' }>>().toBeNever();
    expectTypeOf<Result['media_buy_id']>().toEqualTypeOf<string | undefined>();
  });

  test('a seller answering working forever: TIMEOUT at timeoutMs, after a bounded number of polls', async () => {
    const seller = await lane(make, () => working());
    const { clock, now } = virtualClock();
    const error = await seller.wait(handle31, { clock, timeoutMs: 600_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ code: 'TIMEOUT', limit: 600_000, task: 'create_media_buy' });
    expect(now()).toBe(600_000);
    // 2 s doubling to 60 s (±25%): at most 5 growing intervals, then one a minute or so.
    expect(seller.calls.length).toBeGreaterThanOrEqual(8);
    expect(seller.calls.length).toBeLessThanOrEqual(20);
  });

  test('a seller answering for another task: TASK_MISMATCH, on the first poll', async () => {
    const seller = await lane(make, () => ({ payload: pollResponse('working', {}, 'task_someone_else') }));
    const error = await seller.wait(handle31, { clock: virtualClock().clock }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskMismatchError);
    expect(error).toMatchObject({ code: 'TASK_MISMATCH', path: '/task_id' });
    expect(seller.calls).toHaveLength(1);
  });

  test('a dropped connection is transient: the wait goes on, then completes', async () => {
    const seller = await lane(make, (n) => (n < 2 ? 'drop' : completed(V3_1)));
    const result = await seller.wait(handle31, { clock: virtualClock().clock });
    expect(result).toMatchObject({ status: 'completed' });
    expect(seller.calls).toHaveLength(3);
  });

  test('a connection that always drops: the last failure, a TransportError blaming the network, after maxFailures polls', async () => {
    const seller = await lane(make, () => 'drop');
    const error = await seller.wait(handle31, { clock: virtualClock().clock, maxFailures: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'TRANSPORT_FAILED', blame: 'network', recovery: { recovery: 'transient' } });
    expect(seller.calls).toHaveLength(3);
  });

  test("a rate-limited poll waits the seller's retry_after, then goes on", async () => {
    const seller = await lane(make, (n) => (n < 2 ? rateLimited : completed(V3_1)));
    const { clock, sleeps } = virtualClock();
    await expect(seller.wait(handle31, { clock })).resolves.toMatchObject({ status: 'completed' });
    expect(sleeps).toEqual([7000, 7000]);
  });

  test('a failed task: TaskFailedError with its error, not the poll blamed', async () => {
    const seller = await lane(make, () => ({
      payload: pollResponse('failed', { error: { code: 'BUDGET_TOO_LOW', message: 'below floor' } }),
    }));
    const error = await seller.wait(handle31, { clock: virtualClock().clock }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect((error as TaskFailedError).adcpError?.code).toBe('BUDGET_TOO_LOW');
  });

  test(`3.0: tasks/get, invoked as tasks_get, judged by ${V3_0}`, async () => {
    const seller = await lane(make, (n) => (n === 0 ? working() : completed(V3_0)));
    const result = await seller.wait(handle30, { clock: virtualClock().clock });
    expect(result).toMatchObject({ media_buy_id: payload('3.0/create_media_buy.valid').media_buy_id });
    expect(seller.calls.map((c) => c.name)).toEqual(['tasks_get', 'tasks_get']);
    expect(seller.calls[0]?.args).toEqual({ task_id: 'task_cmb_4821', adcp_major_version: 3 });
  });

  test('your abort: rejected with its reason, as is, and no further poll', async () => {
    const seller = await lane(make, () => working());
    const controller = new AbortController();
    const reason = new Error('buyer gave up');
    const error = await seller
      .wait(handle31, { clock: virtualClock().clock, signal: controller.signal, onStatus: () => controller.abort(reason) })
      .catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(seller.calls).toHaveLength(1);
  });

  test('a completed webhook ends the wait while the polls still say working', async () => {
    const seller = await lane(make, () => working());
    const hook = decodeWebhook(mcpHook('completed', payload('3.1/create_media_buy.valid')), { handle: handle31 });
    const result = await seller.wait(hooked31, {
      clock: virtualClock(true).clock,
      webhooks: later([{ kind: 'delivered', ...hook, signer }]),
    });
    expect(result).toEqual(hook.data);
    // The webhook came during the first poll or the sleep after it: the wait asked no more.
    expect(seller.calls.length).toBeLessThanOrEqual(1);
  });

  test('a completed delivery without its result wakes the next poll at once, which fetches it', async () => {
    const seller = await lane(make, (n) => (n === 0 ? working() : completed(V3_1)));
    const bare = {
      kind: 'delivered',
      format: 'mcp',
      taskType: 'create_media_buy',
      taskId: 'task_cmb_4821',
      operationId: undefined,
      status: 'completed',
      data: null,
      version: V3_1,
      signer,
    } as const;
    // The held clock never ends a sleep by itself: only the delivery can.
    const result = await seller.wait(hooked31, { clock: virtualClock(true).clock, webhooks: later([bare]) });
    expect(result).toMatchObject({ status: 'completed' });
    expect(seller.calls).toHaveLength(2);
  });

  test("a webhook of another task: passed over; one naming this task_id with another operation_id: TASK_MISMATCH; a failed task's webhook: its TaskFailedError; a duplicate: passed over", async () => {
    const seller = await lane(make, () => working());
    const other = decodeWebhook({
      ...mcpHook('working', { status: 'working', task_id: 'task_x' }),
      task_id: 'task_x',
      operation_id: 'op_x',
    });
    const mine = decodeWebhook(mcpHook('completed', payload('3.1/create_media_buy.valid')), { handle: handle31 });
    const passed = await seller.wait(
      { ...hooked31, operationId: 'op_7d1e' },
      {
        clock: virtualClock(true).clock,
        webhooks: later([
          { kind: 'delivered', ...other, signer },
          // Another seller's genuine delivery naming this task: not this task's.
          { kind: 'delivered', ...mine, data: { media_buy_id: 'mb_forged' }, signer: { ...signer, agent: 'https://seller-b.example/mcp' } },
          // An A2A delivery whose result names no task_id cannot be tied to any task.
          {
            ...mine,
            kind: 'delivered',
            format: 'a2a',
            taskId: 'a2a-transport-task',
            operationId: undefined,
            data: { media_buy_id: 'mb_untied' },
            signer,
          },
          { kind: 'delivered', ...mine, signer },
        ]),
      },
    );
    expect(passed).toEqual(mine.data);
    const contradicting = decodeWebhook({ ...mcpHook('completed', payload('3.1/create_media_buy.valid')), operation_id: 'op_other' });
    const mismatch = await seller
      .wait(
        { ...hooked31, operationId: 'op_7d1e' },
        { clock: virtualClock(true).clock, webhooks: later([{ kind: 'delivered', ...contradicting, signer }]) },
      )
      .catch((e: unknown) => e);
    expect(mismatch).toMatchObject({ code: 'TASK_MISMATCH', path: '/operation_id' });
    let failure: unknown;
    try {
      decodeWebhook(mcpHook('failed', { errors: [{ code: 'POLICY_VIOLATION', message: 'refused' }] }), { handle: handle31 });
    } catch (error) {
      failure = error;
    }
    if (!(failure instanceof WebhookTaskFailedError)) throw new Error('expected the failed webhook to throw WebhookTaskFailedError');
    const failedOutcome = { kind: 'task-failed', ...failure.webhook, error: failure, signer } as const;
    const failed = await seller
      .wait(hooked31, { clock: virtualClock(true).clock, webhooks: later([{ kind: 'duplicate' }, failedOutcome]) })
      .catch((e: unknown) => e);
    expect(failed).toBe(failure);
    expect(failed).toBeInstanceOf(TaskFailedError);
    // What no receiver resolves (a decoded webhook without its kind or its signer, the error itself) is the buyer's plumbing.
    for (const value of [other, { kind: 'delivered', ...other }, failure])
      await expect(seller.wait(hooked31, { clock: virtualClock(true).clock, webhooks: later([value as never]) })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      });
  });
});

describe.each(LANES)('callTask polls over %s (issue 27, items 1-2)', (_, make) => {
  test('get_task_status, the task still working: decoded (over A2A the invocation completed)', async () => {
    const seller = await lane(make, () => working(60));
    await expect(seller.call('get_task_status')).resolves.toMatchObject({ status: 'working', task_id: 'task_cmb_4821' });
    expect(seller.calls.map((c) => c.name)).toEqual(['get_task_status']);
  });
  test('tasks/get for 3.0: sent as tasks_get, resolved to the polled task', async () => {
    const seller = await lane(make, () => working(60));
    await expect(seller.call('tasks/get')).resolves.toMatchObject({
      taskId: 'task_cmb_4821',
      taskType: 'create_media_buy',
      status: 'working',
      version: V3_0,
    });
    expect(seller.calls).toEqual([{ name: 'tasks_get', args: { task_id: 'task_cmb_4821', adcp_major_version: 3 } }]);
  });
});

describe('waitForTask options', () => {
  test.each([
    [{ intervalMs: 0 }, 'intervalMs'],
    [{ maxIntervalMs: 10, intervalMs: 100 }, 'maxIntervalMs'],
    [{ maxFailures: 0 }, 'maxFailures'],
    [{ webhooks: [] as never }, 'webhooks'],
    [{ webhooks: later([]) }, 'handle.agent'],
    [{ maxDepth: -1 }, 'maxDepth'],
  ])('%o: INVALID_OPTION naming %s, before anything is sent', async (options, name) => {
    const seller = await lane(LANES[0]![1], () => working());
    const error = await seller.wait(handle31, options as WaitOptions).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_OPTION', message: expect.stringContaining(name) });
    expect(seller.calls).toHaveLength(0);
  });
});

/** The MCP webhook body of the handle's task. */
function mcpHook(status: string, result: Json): Json {
  return {
    idempotency_key: 'whk_01J9Z6Q2V8W4X7Y3B5C1D9E2F0',
    operation_id: 'op_7d1e',
    task_id: 'task_cmb_4821',
    task_type: 'create_media_buy',
    status,
    timestamp: '2026-04-18T10:04:00Z',
    result,
  };
}

/** Deliveries that arrive after the wait has started polling (a macrotask later). */
async function* later<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    yield item;
  }
}
