/**
 * waitForTask's events (option `onEvent`): started, then each poll with the status it answered or
 * its failure (a transient failure the wait swallowed says when the next poll comes), then ended,
 * saying what ended it: a poll, a webhook outcome, your abort or the deadline. The client is an
 * in-process stand-in with the MCP SDK's `callTool`, on a clock whose sleeps resolve at once.
 */
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, test } from 'vitest';
import { shownText } from '../../src/errors/format.js';
import { type AdcpEvent, type McpClient, type WaitClock, type WebhookDelivery, waitForTask } from '../../src/mcp/index.js';
import { payload } from '../fixtures/payloads.js';
import { pollResponse } from '../fixtures/poll-sellers.js';
import { V3_1 } from '../fixtures/versions.js';

const AGENT = 'https://seller.example.com/adcp/mcp';
const HANDLE = { task: 'create_media_buy', taskId: 'task_cmb_4821', version: V3_1, agent: AGENT } as const;
const mediaBuy = payload('3.1/create_media_buy.valid');

/** A clock whose sleeps resolve at once (or reject with the signal's reason), and what it was asked to sleep. */
function instantClock(): WaitClock & { readonly slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms, signal) => {
      signal.throwIfAborted();
      slept.push(ms);
      now += ms;
    },
  };
}

const result = (structured: Record<string, unknown>) => ({ content: [{ type: 'text', text: 'ok' }], structuredContent: structured });

/** A client answering the n-th poll with `script(n)` (from 1): a value, or an error to throw. */
function polled(script: (n: number) => unknown): McpClient & { readonly polls: () => number } {
  let n = 0;
  return {
    polls: () => n,
    callTool: async () => {
      n += 1;
      const next = script(n);
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

function recorder() {
  const events: AdcpEvent[] = [];
  return { events, onEvent: (event: AdcpEvent) => void events.push(event) };
}

describe('a wait told step by step', () => {
  test('a 503 swallowed, working, completed: each poll with its status or failure and the delay before the next', async () => {
    const { events, onEvent } = recorder();
    const hostile = 'busy \u0007\u202e';
    const client = polled((n) =>
      n === 1
        ? new StreamableHTTPError(503, `Error POSTing to endpoint: ${hostile}`)
        : n === 2
          ? result(pollResponse('working', { progress: { percentage: 40 } }))
          : result(pollResponse('completed', { result: mediaBuy })),
    );
    const clock = instantClock();
    await expect(waitForTask(client, HANDLE, { clock, onEvent, random: () => 0.5 })).resolves.toEqual(mediaBuy);
    const facts = { id: expect.any(Number), task: 'create_media_buy', taskId: 'task_cmb_4821', agent: AGENT, version: V3_1 };
    expect(events).toEqual([
      { type: 'wait-started', ...facts, method: 'get_task_status', webhooks: false },
      {
        type: 'poll',
        ...facts,
        poll: 1,
        durationMs: expect.any(Number),
        failures: 1,
        maxFailures: 5,
        delayMs: clock.slept[0],
        ok: false,
        failure: expect.objectContaining({
          code: 'TRANSPORT_FAILED',
          blame: 'seller',
          recovery: 'transient',
          httpStatus: 503,
          sellerText: shownText(hostile, 1000),
        }),
      },
      {
        type: 'poll',
        ...facts,
        poll: 2,
        durationMs: expect.any(Number),
        failures: 0,
        maxFailures: 5,
        delayMs: clock.slept[1],
        ok: true,
        status: 'working',
      },
      {
        type: 'poll',
        ...facts,
        poll: 3,
        durationMs: expect.any(Number),
        failures: 0,
        maxFailures: 5,
        delayMs: undefined,
        ok: true,
        status: 'completed',
      },
      { type: 'wait-ended', ...facts, polls: 3, durationMs: expect.any(Number), by: 'poll', ok: true, status: 'completed' },
    ]);
    expect(clock.slept).toEqual([2000, 4000]);
    expect(new Set(events.map((e) => ('id' in e ? e.id : 0))).size).toBe(1);
  });

  test('maxFailures transient failures in a row: the last poll has no next, and the wait ends by the poll with its refusal', async () => {
    const { events, onEvent } = recorder();
    const client = polled(() => new TypeError('fetch failed', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) }));
    await expect(waitForTask(client, HANDLE, { clock: instantClock(), onEvent, maxFailures: 2 })).rejects.toMatchObject({
      code: 'TRANSPORT_FAILED',
    });
    expect(events.filter((e) => e.type === 'poll').map((e) => (e.type === 'poll' ? [e.failures, e.delayMs === undefined] : []))).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(events.at(-1)).toMatchObject({
      type: 'wait-ended',
      by: 'poll',
      ok: false,
      polls: 2,
      refusal: { blame: 'network', recovery: 'transient' },
    });
  });

  test('the deadline: ended by it, with the TIMEOUT', async () => {
    const { events, onEvent } = recorder();
    const client = polled(() => result(pollResponse('working')));
    await expect(waitForTask(client, HANDLE, { clock: instantClock(), onEvent, timeoutMs: 5_000 })).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
    expect(events.at(-1)).toMatchObject({ type: 'wait-ended', by: 'deadline', ok: false, refusal: { code: 'TIMEOUT', blame: 'network' } });
  });

  test('your abort: ended by it, the reason as is and no refusal', async () => {
    const { events, onEvent } = recorder();
    const controller = new AbortController();
    const reason = new Error('buyer gave up');
    const client = polled(() => {
      controller.abort(reason);
      return result(pollResponse('working'));
    });
    await expect(waitForTask(client, HANDLE, { clock: instantClock(), onEvent, signal: controller.signal })).rejects.toBe(reason);
    expect(events.at(-1)).toMatchObject({ type: 'wait-ended', by: 'abort', ok: false, refusal: undefined, error: reason });
  });

  test("a webhook outcome settles it: ended by the webhook; the handle's task id as the seller wrote it, shown", async () => {
    const { events, onEvent } = recorder();
    const taskId = 'task_\u202ecmb';
    const delivered: WebhookDelivery = {
      kind: 'delivered',
      signer: { agent: AGENT },
      format: 'mcp',
      taskType: 'create_media_buy',
      taskId,
      operationId: undefined,
      status: 'completed',
      data: mediaBuy,
      version: V3_1,
    };
    async function* webhooks(): AsyncGenerator<WebhookDelivery> {
      yield delivered;
    }
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const client = polled(() => gate.then(() => result(pollResponse('working', {}, taskId))));
    const waiting = waitForTask(client, { ...HANDLE, taskId }, { clock: instantClock(), onEvent, webhooks: webhooks() });
    await expect(waiting).resolves.toEqual(mediaBuy);
    release();
    expect(events[0]).toMatchObject({ type: 'wait-started', webhooks: true, taskId: shownText(taskId, 64) });
    expect(events.at(-1)).toMatchObject({ type: 'wait-ended', by: 'webhook', ok: true, polls: 1 });
  });
});

describe('the option', () => {
  test('onEvent must be a function: INVALID_OPTION before any poll', async () => {
    const client = polled(() => result(pollResponse('working')));
    // @ts-expect-error wrong on purpose
    await expect(waitForTask(client, HANDLE, { onEvent: 'log' })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    expect(client.polls()).toBe(0);
  });
});
