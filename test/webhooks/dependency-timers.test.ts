/**
 * The dependency deadlines (keysTimeoutMs, storeTimeoutMs) arm a timer only for an answer that is
 * still to come: a key resolver or store that answers synchronously (the in-memory stores, a
 * static key map) cannot be late, so no timer is set for it; one that answers with a promise is
 * raced against its deadline, and the timer is cleared once it answers. What each resolves to is
 * the same either way.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createMemoryReplayStore, createWebhookReceiver, type ReplayStore } from '../../src/webhooks/index.js';
import { completedBody, resolver } from './fixtures.js';
import { delivered, outcome, RECEIVER_BASE, signedRequest } from './outcomes.js';

const KEYS_MS = 4_321;
const STORE_MS = 1_234;

/** The delays of the timers set while `work` runs that are the receiver's deadlines. */
async function deadlineTimers(work: () => Promise<unknown>): Promise<number[]> {
  const spy = vi.spyOn(globalThis, 'setTimeout');
  try {
    await work();
    return spy.mock.calls.map((call) => call[1] ?? 0).filter((ms) => ms === KEYS_MS || ms === STORE_MS);
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a dependency deadline is armed only for an answer still to come', () => {
  test('a synchronous key resolver and replay store: no deadline timer, the delivery decoded', async () => {
    const receiver = createWebhookReceiver({ ...RECEIVER_BASE, keysTimeoutMs: KEYS_MS, storeTimeoutMs: STORE_MS });
    const request = await signedRequest(completedBody());
    let hook: Awaited<ReturnType<typeof delivered>> | undefined;
    const timers = await deadlineTimers(async () => {
      hook = await delivered(receiver.receive(request));
    });
    expect(timers).toEqual([]);
    expect(hook?.taskType).toBe('create_media_buy');
  });

  test('an asynchronous resolver and store: each call raced against its deadline, every timer cleared', async () => {
    const memory = createMemoryReplayStore({ now: RECEIVER_BASE.now });
    const replayStore: ReplayStore = {
      capReached: async (keyid) => memory.capReached(keyid),
      claim: async (keyid, nonce, ttl) => memory.claim(keyid, nonce, ttl),
      newKeyidAdmissions: () => memory.newKeyidAdmissions(),
    };
    const receiver = createWebhookReceiver({
      ...RECEIVER_BASE,
      keys: async (kid: string) => resolver(kid),
      replayStore,
      keysTimeoutMs: KEYS_MS,
      storeTimeoutMs: STORE_MS,
    });
    const request = await signedRequest(completedBody());
    const cleared = vi.spyOn(globalThis, 'clearTimeout');
    const timers = await deadlineTimers(() => delivered(receiver.receive(request)));
    // The key lookup, then the replay store's capReached and claim.
    expect(timers).toEqual([KEYS_MS, STORE_MS, STORE_MS]);
    expect(cleared.mock.calls.length).toBeGreaterThanOrEqual(3);
  });

  test('a synchronous answer out of contract is still refused as the dependency’s, a replay still as the sender’s', async () => {
    const broken: ReplayStore = { capReached: () => false, claim: () => 'maybe' as never, newKeyidAdmissions: () => 0 };
    const request = await signedRequest(completedBody());
    const refused = await outcome(createWebhookReceiver({ ...RECEIVER_BASE, replayStore: broken }).receive(request));
    expect(refused.ok ? undefined : refused.error).toMatchObject({ webhookCode: 'webhook_receiver_misconfigured', httpStatus: 500 });
    const receiver = createWebhookReceiver(RECEIVER_BASE);
    await delivered(receiver.receive(request));
    const again = await outcome(receiver.receive(request));
    expect(again.ok ? undefined : again.error).toMatchObject({ webhookCode: 'webhook_signature_replayed', httpStatus: 401 });
  });
});
