/**
 * streamTask folds each event as it arrives (issue 28 item 7): a stream is refused at the event
 * that passes a bound, not after it ended, and the stream is cut (the signal the client was given
 * is aborted). The client here is a stand-in with the SDK's `sendMessageStream` shape, counting the
 * events it was asked for.
 */
import { describe, expect, test } from 'vitest';
import { type A2aClient, streamTask } from '../../src/a2a/index.js';
import { DecodeError, LimitError } from '../../src/index.js';
import { PRODUCTS_BRIEF } from '../encode/requests.js';

const working = { statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } } };

/** A seller that streams `events(i)` for i = 0 .. total - 1, and what the client saw. */
function seller(total: number, events: (i: number) => unknown) {
  const seen = { pulled: 0, signal: undefined as AbortSignal | undefined };
  const client: A2aClient = {
    sendMessage: () => Promise.reject(new Error('not used')),
    async *sendMessageStream(_params, options) {
      seen.signal = options?.signal;
      for (let i = 0; i < total; i++) {
        seen.pulled++;
        yield events(i);
      }
    },
  };
  return { client, seen };
}

const task = { task: { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_SUBMITTED' } } };

describe('streamTask bounds the stream while it streams', () => {
  test('the 10,001st event: TOO_MANY_VALUES, nothing more is read, and the stream is cut', async () => {
    const { client, seen } = seller(50_000, (i) => (i === 0 ? task : working));
    const error: unknown = await streamTask(client, 'get_products', PRODUCTS_BRIEF, { version: '3.1', timeoutMs: 120_000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ code: 'TOO_MANY_VALUES', unit: 'nodes', limit: 10_000 });
    expect(seen.pulled).toBe(10_001);
    expect(seen.signal?.aborted).toBe(true);
  });

  test('an event the fold refuses ends the call at that event, not at the end of the stream', async () => {
    const { client, seen } = seller(20_000, (i) =>
      i === 0 ? task : i === 1 ? { statusUpdate: { ...working.statusUpdate, taskId: 't2' } } : working,
    );
    const error: unknown = await streamTask(client, 'get_products', PRODUCTS_BRIEF, { version: '3.1', timeoutMs: 120_000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DecodeError);
    expect(error).toMatchObject({ code: 'MALFORMED_ENVELOPE' });
    expect(seen.pulled).toBe(2);
    expect(seen.signal?.aborted).toBe(true);
  });

  test('a stream within the bounds is folded and decoded as before; its signal is left alone', async () => {
    const progress = { status: 'working', percentage: 40, context: PRODUCTS_BRIEF.context };
    const message = { messageId: 'm1', role: 'ROLE_AGENT', parts: [{ data: progress }] };
    const update = { statusUpdate: { ...working.statusUpdate, status: { state: 'TASK_STATE_WORKING', message } } };
    const { client, seen } = seller(3, (i) => (i === 0 ? task : i === 1 ? working : update));
    await expect(streamTask(client, 'get_products', PRODUCTS_BRIEF, { version: '3.1' })).resolves.toEqual(progress);
    expect(seen.pulled).toBe(3);
    expect(seen.signal?.aborted).toBe(false);
  });
});
