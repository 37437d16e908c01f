/**
 * A listener never changes what it observes: one that throws, or returns a promise that rejects,
 * leaves callTask's, waitForTask's and receive()'s results as they would be without it; the
 * failure is reported once per listener, as a process warning whose `cause` is what it threw.
 * Without a listener nothing of the telling runs: no event is built (tell.ts is counted here).
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { type AdcpEvent, type McpClient, safeCallTask, waitForTask } from '../../src/mcp/index.js';
import { createMemoryReplayStore, createWebhookReceiver } from '../../src/webhooks/index.js';
import { PRODUCTS_BRIEF } from '../encode/requests.js';
import { payload } from '../fixtures/payloads.js';
import { pollResponse } from '../fixtures/poll-sellers.js';
import { V3_1 } from '../fixtures/versions.js';
import { completedBody } from '../webhooks/fixtures.js';
import { nowMs, RECEIVER_BASE, signedRequest } from '../webhooks/outcomes.js';

const told = vi.hoisted(() => ({ events: 0, ids: 0 }));
vi.mock('../../src/events/tell.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/events/tell.js')>();
  return {
    ...actual,
    tell: (...args: Parameters<typeof actual.tell>) => {
      told.events += 1;
      actual.tell(...args);
    },
    nextEventId: () => {
      told.ids += 1;
      return actual.nextEventId();
    },
  };
});

const products = {
  content: [{ type: 'text', text: 'ok' }],
  structuredContent: { ...payload('3.1/get_products.valid'), context: PRODUCTS_BRIEF.context },
};
const client: McpClient = { callTool: async () => products };
const completed = {
  content: [{ type: 'text', text: 'ok' }],
  structuredContent: pollResponse('completed', { result: payload('3.1/create_media_buy.valid') }),
};
const poller: McpClient = { callTool: async () => completed };
const HANDLE = { task: 'create_media_buy', taskId: 'task_cmb_4821', version: V3_1 } as const;

/** Each entry run once with `onEvent` (or none), its result in a form to compare. */
async function runAll(onEvent: ((event: AdcpEvent) => unknown) | undefined) {
  const options = onEvent === undefined ? {} : { onEvent: onEvent as (event: AdcpEvent) => void };
  const call = await safeCallTask(client, 'get_products', PRODUCTS_BRIEF, { version: '3.1', ...options });
  const failed = await safeCallTask(
    client,
    'get_products',
    { buying_mode: 'brief', brief: 'x', context: { trace_id: 'other' } },
    { version: '3.1', ...options },
  );
  const waited = await waitForTask(poller, HANDLE, { clock: { now: () => 0, sleep: async () => undefined }, ...options });
  const receiver = createWebhookReceiver({ ...RECEIVER_BASE, replayStore: createMemoryReplayStore({ now: nowMs }), ...options });
  const received = await receiver.receive(await signedRequest(completedBody()));
  const refused = await receiver.receive(await signedRequest('{')).catch((e: unknown) => e);
  return {
    call: call.success ? call.data : call.error.code,
    failed: failed.success ? 'resolved' : failed.error.code,
    waited,
    received: received.kind === 'delivered' ? received.data : received.kind,
    refused: refused instanceof Error ? refused.message : refused,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('without a listener', () => {
  test('no event is built and no call or wait is numbered; with one, each step is', async () => {
    told.events = 0;
    told.ids = 0;
    await runAll(undefined);
    expect(told).toEqual({ events: 0, ids: 0 });
    await runAll(() => undefined);
    expect(told.events).toBeGreaterThanOrEqual(4 + 2 + 3 + 2);
    expect(told.ids).toBe(3);
  });
});

describe('a listener that fails', () => {
  test('that throws, or rejects: every result is as without it; reported once per listener, the cause kept', async () => {
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const expected = await runAll(undefined);
    const thrown = new Error('exporter down');
    const throwing = () => {
      throw thrown;
    };
    expect(await runAll(throwing)).toEqual(expected);
    const rejected = new RangeError('queue full');
    const rejecting = async () => {
      throw rejected;
    };
    expect(await runAll(rejecting)).toEqual(expected);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.mock.calls.map(([warning]) => warning)).toEqual([
      expect.objectContaining({ name: 'AdcpEventListenerWarning', message: expect.stringContaining('threw Error'), cause: thrown }),
      expect.objectContaining({ name: 'AdcpEventListenerWarning', message: expect.stringContaining('threw RangeError'), cause: rejected }),
    ]);
  });
});
