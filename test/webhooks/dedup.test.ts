/**
 * The `idempotency_key` dedup webhooks.mdx makes a MUST ("Reliability"): the canonical payload
 * fingerprint (JCS), the in-memory store's states (claimed, processing, completed, conflict, the
 * per-sender cap, its byte budget, leases and fenced owners), and the receiver applying it after
 * the signature verified: 200 for a completed duplicate (a fresh signature, the same event), 409
 * for the same key with another payload, 503 while an identical delivery is processed, and a
 * failed processing that never swallows the retry.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { dedupEntryBytes } from '../../src/signatures/replay/dedup.js';
import { canonicalJson, payloadFingerprint } from '../../src/signatures/replay/fingerprint.js';
import {
  createMemoryDedupStore,
  createMemoryReplayStore,
  createWebhookReceiver,
  type DedupClaimRequest,
  type WebhookReceiverOptions,
  WebhookTaskFailedError,
} from '../../src/webhooks/index.js';
import { completedBody, failedBody, SELLER } from './fixtures.js';
import { delivered, NOW, nowMs, outcome, outcomeOf, RECEIVER_BASE, signedRequest } from './outcomes.js';

const DAY = 86_400_000;

describe('the canonical payload fingerprint (RFC 8785 JCS, SHA-256)', () => {
  test('known JCS forms', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], c: { z: 1.5, y: -0 } })).toBe('{"a":[true,null,"x"],"b":1,"c":{"y":0,"z":1.5}}');
    expect(canonicalJson({ '\u00e9': 1, z: 2, A: 3 })).toBe('{"A":3,"z":2,"\u00e9":1}');
    expect(canonicalJson(1e21)).toBe('1e+21');
  });
  test('member order and whitespace do not change it; any changed value does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }), fc.jsonValue(), async (payload, other) => {
        const reordered = Object.fromEntries(Object.entries(payload).reverse());
        const spaced = JSON.parse(JSON.stringify(reordered, null, 2)) as unknown;
        expect(await payloadFingerprint(spaced)).toBe(await payloadFingerprint(payload));
        const key = Object.keys(payload)[0] as string;
        if (canonicalJson(other) !== canonicalJson(payload[key])) {
          expect(await payloadFingerprint({ ...payload, [key]: other })).not.toBe(await payloadFingerprint(payload));
        }
      }),
      { numRuns: 200 },
    );
  });
  test('nesting costs no stack', () => {
    let deep: unknown = 0;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(canonicalJson(deep)).toHaveLength(400_001);
  });
});

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const claim = (key: string, fingerprint: string, owner: string): DedupClaimRequest => ({
  sender: SELLER,
  key,
  fingerprint,
  owner,
  leaseMs: 60_000,
  retentionMs: DAY,
});

describe('createMemoryDedupStore: the states webhooks.mdx names', () => {
  test('claimed, then processing for an identical delivery, completed once the owner completes', () => {
    const store = createMemoryDedupStore({ now: clock().now });
    expect(store.claim(claim('k1', 'fp', 'owner-1'))).toBe('claimed');
    expect(store.claim(claim('k1', 'fp', 'owner-2'))).toBe('processing');
    expect(store.complete({ sender: SELLER, key: 'k1', owner: 'owner-1', retentionMs: DAY })).toBe(true);
    expect(store.claim(claim('k1', 'fp', 'owner-3'))).toBe('completed');
  });
  test('the same key with another fingerprint is a conflict, whatever the state; the first binding is kept', () => {
    const store = createMemoryDedupStore();
    store.claim(claim('k1', 'fp-a', 'o1'));
    expect(store.claim(claim('k1', 'fp-b', 'o2'))).toBe('conflict');
    store.complete({ sender: SELLER, key: 'k1', owner: 'o1', retentionMs: DAY });
    expect(store.claim(claim('k1', 'fp-b', 'o3'))).toBe('conflict');
    expect(store.claim(claim('k1', 'fp-a', 'o4'))).toBe('completed');
  });
  test('keys are scoped to the sender', () => {
    const store = createMemoryDedupStore();
    store.claim(claim('k1', 'fp', 'o1'));
    expect(store.claim({ ...claim('k1', 'other-fp', 'o2'), sender: 'https://other-seller.example/mcp' })).toBe('claimed');
  });
  test('a lease that runs out (a crash) lets the next delivery take over; the old owner is fenced off', () => {
    const c = clock();
    const store = createMemoryDedupStore({ now: c.now });
    store.claim(claim('k1', 'fp', 'crashed'));
    c.advance(60_000);
    expect(store.claim(claim('k1', 'fp', 'retry'))).toBe('claimed');
    expect(store.complete({ sender: SELLER, key: 'k1', owner: 'crashed', retentionMs: DAY })).toBe(false);
    expect(store.release({ sender: SELLER, key: 'k1', owner: 'crashed', retentionMs: DAY })).toBe(false);
    expect(store.complete({ sender: SELLER, key: 'k1', owner: 'retry', retentionMs: DAY })).toBe(true);
  });
  test('release forgets an unfinished claim so the retry processes it; a completed one cannot be released', () => {
    const store = createMemoryDedupStore();
    store.claim(claim('k1', 'fp', 'o1'));
    expect(store.release({ sender: SELLER, key: 'k1', owner: 'o1', retentionMs: DAY })).toBe(true);
    expect(store.claim(claim('k1', 'fp', 'o2'))).toBe('claimed');
    store.complete({ sender: SELLER, key: 'k1', owner: 'o2', retentionMs: DAY });
    expect(store.release({ sender: SELLER, key: 'k1', owner: 'o2', retentionMs: DAY })).toBe(false);
  });
  test('a completed binding is kept for its retention from completion, then forgotten', () => {
    const c = clock();
    const store = createMemoryDedupStore({ now: c.now });
    store.claim(claim('k1', 'fp', 'o1'));
    c.advance(DAY / 2);
    store.complete({ sender: SELLER, key: 'k1', owner: 'o1', retentionMs: DAY });
    c.advance(DAY - 1);
    expect(store.claim(claim('k1', 'fp', 'o2'))).toBe('completed');
    c.advance(1);
    expect(store.claim(claim('k1', 'fp', 'o3'))).toBe('claimed');
  });
  test('the per-sender cap refuses (rate_abuse) without evicting; other senders go on', () => {
    const store = createMemoryDedupStore({ perSenderCap: 2 });
    store.claim(claim('k1', 'fp', 'o'));
    store.claim(claim('k2', 'fp', 'o'));
    expect(store.claim(claim('k3', 'fp', 'o'))).toBe('rate_abuse');
    expect(store.claim(claim('k1', 'fp', 'o'))).toBe('processing');
    expect(store.claim({ ...claim('k3', 'fp', 'o'), sender: 'https://other.example/mcp' })).toBe('claimed');
  });
  test('the byte budget: full is refused, never evicted, and it holds what it counts', () => {
    const store = createMemoryDedupStore({ maxBytes: 8_192, perSenderMaxBytes: 8_192 });
    const claimed: DedupClaimRequest[] = [];
    for (let i = 0; ; i++) {
      const request = claim(`whk_${String(i).padStart(20, '0')}`, 'f'.repeat(43), 'o'.repeat(32));
      const state = store.claim(request);
      if (state === 'full') break;
      claimed.push(request);
    }
    const senderBytes = 2 * 128 + 2 * SELLER.length;
    expect(store.bytesHeld()).toBe(claimed.reduce((sum, r) => sum + dedupEntryBytes(r), senderBytes));
    expect(store.bytesHeld()).toBeLessThanOrEqual(8_192);
    expect(store.claim(claimed[0] as DedupClaimRequest)).toBe('processing');
  });
});

describe('one sender cannot fill the dedup store every sender shares (issue 28, item 6)', () => {
  test('the default store: one sender’s long keys stop at its share (429 rate_abuse), another sender is still claimed', () => {
    const store = createMemoryDedupStore({ now: clock().now });
    const request = (sender: string, i: number) => ({
      ...claim(`whk_${String(i).padStart(8, '0')}${'k'.repeat(240)}`, 'f'.repeat(43), 'o'.repeat(32)),
      sender,
    });
    let claimed = 0;
    let state = store.claim(request(SELLER, claimed));
    while (state === 'claimed') state = store.claim(request(SELLER, ++claimed));
    expect(state).toBe('rate_abuse');
    // Counted: the sender's bindings and counts fit its share (a tenth of 64 MiB), one more would not.
    const share = Math.floor((64 * 1024 * 1024) / 10);
    expect(claimed).toBe(Math.floor((share - (2 * 128 + 2 * SELLER.length)) / dedupEntryBytes(request(SELLER, 0))));
    for (let s = 0; s < 20; s++) expect(store.claim(request(`https://seller-${s}.example/mcp`, 0))).toBe('claimed');
  });
  test('perSenderMaxBytes is checked: a positive safe integer, at most maxBytes', () => {
    for (const value of [0, 1.5, '10', 2_000_000])
      expect(() => createMemoryDedupStore({ maxBytes: 1_000_000, perSenderMaxBytes: value as number })).toThrow(
        expect.objectContaining({ code: 'INVALID_OPTION' }),
      );
  });
});

function receiverWith(store = createMemoryDedupStore({ now: nowMs }), extra: Partial<WebhookReceiverOptions> = {}) {
  return createWebhookReceiver({
    ...RECEIVER_BASE,
    replayStore: createMemoryReplayStore({ now: nowMs }),
    dedup: { store },
    ...extra,
  });
}

/** The same event as completedBody(), its members in another order and spaced: JCS-equivalent. */
const reordered = JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(completedBody()) as object).reverse()), null, 1);

describe('the receiver applies the dedup after the signature verified', () => {
  test('a completed delivery, then a retry (fresh signature, reordered members): resolved as a duplicate, answered 200', async () => {
    const rx = receiverWith();
    const first = await delivered(rx.receive(await signedRequest(completedBody())));
    expect(first.dedup).toMatchObject({ sender: SELLER, idempotencyKey: 'whk_01J9Z6Q2V8W4X7Y3B5C1D9E2F0' });
    await first.dedup?.complete();
    const retry = await outcome(rx.receive(await signedRequest(reordered)));
    expect(retry.answer).toEqual({ status: 200, headers: {}, blame: 'none' });
    expect(retry.ok ? retry.hook : retry.error).toEqual({
      kind: 'duplicate',
      format: 'mcp',
      taskType: 'create_media_buy',
      taskId: 'task_cmb_4821',
      operationId: 'op_7d1e',
      idempotencyKey: 'whk_01J9Z6Q2V8W4X7Y3B5C1D9E2F0',
      status: 'completed',
      signer: first.signer,
      handle: undefined,
    });
  });
  test('a duplicate takes no claim of its own: the store is claimed once per delivery and completed once', async () => {
    const store = createMemoryDedupStore({ now: nowMs });
    const acts: string[] = [];
    const counted = {
      claim: (request: DedupClaimRequest) => (acts.push('claim'), store.claim(request)),
      complete: (request: Parameters<typeof store.complete>[0]) => (acts.push('complete'), store.complete(request)),
      release: (request: Parameters<typeof store.release>[0]) => (acts.push('release'), store.release(request)),
    };
    const rx = receiverWith(store, { dedup: { store: counted } });
    await (await delivered(rx.receive(await signedRequest(completedBody())))).dedup?.complete();
    const retry = outcomeOf('duplicate', await rx.receive(await signedRequest(completedBody())));
    expect('dedup' in retry).toBe(false);
    expect(acts).toEqual(['claim', 'complete', 'claim']);
    // The binding stands: a third delivery is a duplicate still.
    expect((await rx.receive(await signedRequest(reordered))).kind).toBe('duplicate');
  });
  test('the same key with a different payload: 409 webhook_idempotency_conflict, not processed', async () => {
    const rx = receiverWith();
    await (await delivered(rx.receive(await signedRequest(completedBody())))).dedup?.complete();
    const changed = await outcome(rx.receive(await signedRequest(completedBody({ message: 'Media buy created (edited)' }))));
    expect(changed.ok ? undefined : changed.answer).toMatchObject({ status: 409, blame: 'delivery' });
  });
  test('while the first is still processing, an identical delivery is 503 (the sender retries), never a second owner', async () => {
    const rx = receiverWith();
    const first = await delivered(rx.receive(await signedRequest(completedBody())));
    const second = await outcome(rx.receive(await signedRequest(completedBody())));
    expect(second.ok ? undefined : second.error).toMatchObject({ webhookCode: 'webhook_duplicate_in_progress', httpStatus: 503 });
    await first.dedup?.complete();
  });
  test('a processing that failed and released its claim does not swallow the retry', async () => {
    const rx = receiverWith();
    const first = await delivered(rx.receive(await signedRequest(completedBody())));
    await first.dedup?.release();
    const retry = await delivered(rx.receive(await signedRequest(completedBody())));
    expect(retry.dedup).toBeDefined();
  });
  test('a processor that crashed (no word): the retry takes over once the lease ran out; the late complete() is refused', async () => {
    const c = clock(NOW * 1000);
    const store = createMemoryDedupStore({ now: c.now });
    const rx = receiverWith(store, { dedup: { store, leaseSeconds: 30 } });
    const crashed = await delivered(rx.receive(await signedRequest(completedBody())));
    c.advance(30_000);
    const retry = await delivered(rx.receive(await signedRequest(completedBody())));
    await expect(crashed.dedup?.complete()).rejects.toMatchObject({ webhookCode: 'webhook_dedup_lease_expired', blame: 'configuration' });
    await retry.dedup?.complete();
  });
  test('complete() and release(): the first decides', async () => {
    const rx = receiverWith();
    const hook = await delivered(rx.receive(await signedRequest(completedBody())));
    await hook.dedup?.complete();
    await hook.dedup?.release();
    const retry = await outcome(rx.receive(await signedRequest(completedBody())));
    expect(retry.ok ? retry.hook.kind : retry.error).toBe('duplicate');
    expect(retry.answer.status).toBe(200);
  });
  test('a delivered failed task is claimed too: the failure is recorded once, its retry a duplicate', async () => {
    const rx = receiverWith();
    const first = outcomeOf('task-failed', await rx.receive(await signedRequest(failedBody())));
    expect(first.error).toBeInstanceOf(WebhookTaskFailedError);
    expect(first.dedup).toMatchObject({ sender: SELLER, idempotencyKey: 'whk_01J9Z6Q2V8W4X7Y3B5C1D9E2F1' });
    await first.dedup?.complete();
    const retry = outcomeOf('duplicate', await rx.receive(await signedRequest(failedBody())));
    expect(retry).toMatchObject({ idempotencyKey: 'whk_01J9Z6Q2V8W4X7Y3B5C1D9E2F1', status: 'failed', taskId: 'task_cmb_4821' });
  });
  test('a delivery the receiver refuses claims nothing', async () => {
    const store = createMemoryDedupStore({ now: nowMs });
    const rx = receiverWith(store);
    const bad = await signedRequest(completedBody());
    await outcome(rx.receive({ ...bad, body: bad.body.slice(1) }));
    expect(store.bytesHeld()).toBe(0);
  });
  test('without the option there is no claim', async () => {
    const rx = createWebhookReceiver(RECEIVER_BASE);
    expect((await delivered(rx.receive(await signedRequest(completedBody())))).dedup).toBeUndefined();
  });
});
