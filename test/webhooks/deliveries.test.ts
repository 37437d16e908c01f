/**
 * The receiver's delivery hub on its own: what it keeps of the recent outcomes (count, bytes, age),
 * which outcomes reach which reader (the handle's agent and task only), a reader that falls behind
 * (a typed error, nothing dropped unsaid), and the option's checks.
 */
import { describe, expect, test } from 'vitest';
import { LimitError } from '../../src/errors/errors.js';
import { createDeliveryHub, type RoutedOutcome, recentBounds } from '../../src/webhooks/deliveries.js';
import { V3_1 } from '../fixtures/versions.js';

const A = 'https://seller-a.example/mcp';
const handle = { task: 'create_media_buy', taskId: 'task_1', version: V3_1, agent: A } as const;

function outcome(taskId: string, agent = A, kind: RoutedOutcome['kind'] = 'delivered'): RoutedOutcome {
  return { kind, format: 'mcp', taskType: 'create_media_buy', taskId, operationId: undefined, signer: { agent }, data: { taskId } };
}

async function read(iterator: AsyncIterator<RoutedOutcome>, count: number): Promise<RoutedOutcome[]> {
  const out: RoutedOutcome[] = [];
  for (let i = 0; i < count; i++) {
    const next = await iterator.next();
    if (next.done === true) break;
    out.push(next.value);
  }
  return out;
}

describe('the recent outcomes a receiver keeps', () => {
  test('a reader opened later gets the kept outcomes of its task, oldest first, then the live ones', async () => {
    const hub = createDeliveryHub<RoutedOutcome>(recentBounds(undefined), () => 0);
    const first = outcome('task_1');
    hub.publish(first, 100);
    hub.publish(outcome('task_2'), 100);
    hub.publish(outcome('task_1', 'https://seller-b.example/mcp'), 100);
    hub.publish(outcome('task_1', A, 'duplicate'), 100);
    const reader = hub.deliveries(handle);
    const live = outcome('task_1');
    hub.publish(live, 100);
    expect(await read(reader, 2)).toEqual([first, live]);
    await reader.return?.();
    expect(await reader.next()).toEqual({ done: true, value: undefined });
  });

  test.each([
    ['count', { count: 2 }, 10, 0],
    ['bytes', { maxBytes: 250 }, 100, 0],
    ['age', { ageMs: 1_000 }, 10, 400],
  ])('bounded by %s: the oldest go first', async (_, options, bytes, step) => {
    let now = 0;
    const hub = createDeliveryHub<RoutedOutcome>(recentBounds(options), () => now);
    const sent = ['task_1', 'task_1', 'task_1'].map(() => outcome('task_1'));
    for (const o of sent) {
      hub.publish(o, bytes);
      now += step;
    }
    const reader = hub.deliveries(handle);
    hub.publish(outcome('task_end'), 1); // unblocks nothing: another task's
    const kept: RoutedOutcome[] = [];
    const next = reader.next();
    const end = outcome('task_1');
    hub.publish(end, 1);
    kept.push((await next).value as RoutedOutcome);
    expect(kept[0]).toBe(sent[1]);
    await reader.return?.();
  });

  test('a body larger than the whole byte budget is handed to open readers, never kept', async () => {
    const hub = createDeliveryHub<RoutedOutcome>(recentBounds({ maxBytes: 50 }), () => 0);
    const open = hub.deliveries(handle);
    const big = outcome('task_1');
    hub.publish(big, 51);
    expect(await read(open, 1)).toEqual([big]);
    const later = hub.deliveries(handle);
    const pending = later.next();
    const next = outcome('task_1');
    hub.publish(next, 1);
    expect((await pending).value).toBe(next);
  });

  test('a reader that leaves more than 1,000 outcomes unread ends with TOO_MANY_VALUES after reading what it holds', async () => {
    const hub = createDeliveryHub<RoutedOutcome>(recentBounds({ count: 0 }), () => 0);
    const reader = hub.deliveries(handle);
    for (let i = 0; i < 1_001; i++) hub.publish(outcome('task_1'), 1);
    expect(await read(reader, 1_000)).toHaveLength(1_000);
    const error = await reader.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ code: 'TOO_MANY_VALUES', limit: 1_000, task: 'create_media_buy' });
  });

  test.each([
    [null, 'recent'],
    [{ count: -1 }, 'recent.count'],
    [{ maxBytes: 0 }, 'recent.maxBytes'],
    [{ ageMs: 0.5 }, 'recent.ageMs'],
  ])('recent %o: INVALID_OPTION naming %s', (value, name) => {
    expect(() => recentBounds(value as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining(name) }),
    );
  });
});
