/**
 * createRedisDedupStore against a real redis-server this file starts: the states webhooks.mdx
 * names, atomic among concurrent claims (exactly one owner), fenced completion and release,
 * leases taken over after a crash, the per-sender cap, bindings kept at least their retention,
 * and two receivers sharing the store (a retry at a sibling endpoint is a duplicate, 200).
 */

import type { RedisClientType } from 'redis';
import { describe, expect, test } from 'vitest';
import { createRedisDedupStore, createWebhookReceiver, type DedupClaimRequest } from '../../src/webhooks/index.js';
import { completedBody, SELLER } from './fixtures.js';
import { delivered, outcome, RECEIVER_BASE, signedRequest } from './outcomes.js';
import { withRedis } from './redis-server.js';

let client: RedisClientType;
let prefixes = 0;
const prefix = () => `{dedup-test-${++prefixes}}:`;
const DAY = 86_400_000;

withRedis((c) => {
  client = c;
});

const claim = (key: string, fingerprint: string, owner: string, leaseMs = 60_000): DedupClaimRequest => ({
  sender: SELLER,
  key,
  fingerprint,
  owner,
  leaseMs,
  retentionMs: DAY,
});
const settle = (key: string, owner: string) => ({ sender: SELLER, key, owner, retentionMs: DAY });

describe('createRedisDedupStore', () => {
  test('claimed, processing, completed, conflict', async () => {
    const store = createRedisDedupStore({ client, prefix: prefix() });
    expect(await store.claim(claim('k1', 'fp', 'o1'))).toBe('claimed');
    expect(await store.claim(claim('k1', 'fp', 'o2'))).toBe('processing');
    expect(await store.claim(claim('k1', 'other', 'o2'))).toBe('conflict');
    expect(await store.complete(settle('k1', 'o1'))).toBe(true);
    expect(await store.claim(claim('k1', 'fp', 'o3'))).toBe('completed');
    expect(await store.claim(claim('k1', 'other', 'o3'))).toBe('conflict');
  });
  test('twenty concurrent claims of one delivery: exactly one owner', async () => {
    const store = createRedisDedupStore({ client, prefix: prefix() });
    const states = await Promise.all(Array.from({ length: 20 }, (_, i) => store.claim(claim('k1', 'fp', `o${i}`))));
    expect(states.filter((s) => s === 'claimed')).toHaveLength(1);
    expect(states.filter((s) => s === 'processing')).toHaveLength(19);
  });
  test('only the owner completes or releases; a released claim is claimed again', async () => {
    const store = createRedisDedupStore({ client, prefix: prefix() });
    await store.claim(claim('k1', 'fp', 'owner'));
    expect(await store.complete(settle('k1', 'intruder'))).toBe(false);
    expect(await store.release(settle('k1', 'intruder'))).toBe(false);
    expect(await store.release(settle('k1', 'owner'))).toBe(true);
    expect(await store.claim(claim('k1', 'fp', 'next'))).toBe('claimed');
    expect(await store.complete(settle('k1', 'next'))).toBe(true);
    expect(await store.release(settle('k1', 'next'))).toBe(false);
  });
  test('a lease that ran out is taken over, and the crashed owner is fenced off', async () => {
    const store = createRedisDedupStore({ client, prefix: prefix() });
    await store.claim(claim('k1', 'fp', 'crashed', 1));
    // Redis judges the lease by its own clock: wait past it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await store.claim(claim('k1', 'fp', 'retry'))).toBe('claimed');
    expect(await store.complete(settle('k1', 'crashed'))).toBe(false);
    expect(await store.complete(settle('k1', 'retry'))).toBe(true);
  });
  test('a binding lives at least its retention, counted again from completion', async () => {
    const p = prefix();
    const store = createRedisDedupStore({ client, prefix: p });
    await store.claim(claim('k1', 'fp', 'o1'));
    const key = `${p}{s:${SELLER}}:b:k1`;
    expect(Number(await client.sendCommand(['PTTL', key]))).toBeGreaterThan(DAY - 60_000);
    await store.complete(settle('k1', 'o1'));
    expect(Number(await client.sendCommand(['PTTL', key]))).toBeGreaterThan(DAY - 60_000);
  });
  test('the per-sender cap refuses new keys (429 upstream), never evicts', async () => {
    const store = createRedisDedupStore({ client, prefix: prefix(), perSenderCap: 2 });
    await store.claim(claim('k1', 'fp', 'o'));
    await store.claim(claim('k2', 'fp', 'o'));
    expect(await store.claim(claim('k3', 'fp', 'o'))).toBe('rate_abuse');
    expect(await store.claim(claim('k1', 'fp', 'o'))).toBe('processing');
    expect(await store.claim({ ...claim('k3', 'fp', 'o'), sender: 'https://other.example/mcp' })).toBe('claimed');
  });
  test('two receivers (two endpoints, two processes) share the keyspace: the retry at the sibling is a duplicate', async () => {
    const store = createRedisDedupStore({ client, prefix: prefix() });
    const a = createWebhookReceiver({ ...RECEIVER_BASE, dedup: { store } });
    const b = createWebhookReceiver({ ...RECEIVER_BASE, dedup: { store } });
    await (await delivered(a.receive(await signedRequest(completedBody())))).dedup?.complete();
    const retry = await outcome(b.receive(await signedRequest(completedBody())));
    expect(retry.ok ? retry.hook : retry.error).toMatchObject({ kind: 'duplicate', idempotencyKey: 'whk_01J9Z6Q2V8W4X7Y3B5C1D9E2F0' });
    expect(retry.answer.status).toBe(200);
  });
});
