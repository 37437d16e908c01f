/**
 * waitForTask's own work per poll, counted (the bench times it: `npx tsx bench/run.ts --only=waitfortask`):
 * the poll request is encoded once per wait when it carries no key, and the wait's signals are made
 * once per wait, not per poll; a poll's send is handed one signal, the call's own.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { waitForTask } from '../../src/mcp/index.js';
import { payload } from '../fixtures/payloads.js';
import { pollResponse } from '../fixtures/poll-sellers.js';
import { V3_1 } from '../fixtures/versions.js';

const POLLS = 12;
const HANDLE = { task: 'create_media_buy', taskId: 'task_cmb_4821', version: V3_1 } as const;
const CLOCK = { now: () => performance.now(), sleep: () => Promise.resolve() };

/** An in-process client: `working` until the last poll, which completes; it records the signals it is handed. */
function seller() {
  const signals: AbortSignal[] = [];
  const sent: unknown[] = [];
  const tool = (structured: Record<string, unknown>) => ({ content: [{ type: 'text', text: 'ok' }], structuredContent: structured });
  let n = 0;
  const client = {
    callTool: async (params: { arguments?: unknown }, _schema: undefined, options?: { signal?: AbortSignal }) => {
      sent.push(params.arguments);
      if (options?.signal !== undefined) signals.push(options.signal);
      n += 1;
      return n === POLLS
        ? tool(pollResponse('completed', { result: payload('3.1/create_media_buy.valid') }))
        : tool(pollResponse('working', { progress: { percentage: 40 } }));
    },
  };
  return { client, signals, sent, polls: () => n };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each([
  ['without a signal of the caller', undefined],
  ['with a signal of the caller', new AbortController().signal],
])('waitForTask %s', (_, signal) => {
  test(`${POLLS} polls combine signals a fixed number of times, not once per poll`, async () => {
    const any = vi.spyOn(AbortSignal, 'any');
    const { client, signals, polls } = seller();
    const buy = await waitForTask(client, HANDLE, { clock: CLOCK, ...(signal === undefined ? {} : { signal }) });
    expect(polls()).toBe(POLLS);
    expect(buy).toMatchObject({ media_buy_id: expect.any(String) });
    // The poll's signal (with the caller's) and the sleep's: made once each per wait.
    expect(any.mock.calls.length).toBeLessThanOrEqual(2);
    expect(new Set(signals).size).toBe(POLLS);
  });
});

test('the poll request, which carries no key, is encoded once per wait: every poll sends the same checked arguments', async () => {
  const { client, sent, polls } = seller();
  await waitForTask(client, HANDLE, { clock: CLOCK });
  expect(polls()).toBe(POLLS);
  expect(sent[0]).toMatchObject({ task_id: HANDLE.taskId, include_result: true });
  expect(new Set(sent).size).toBe(1);
});
