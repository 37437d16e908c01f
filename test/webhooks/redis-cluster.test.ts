/**
 * The Redis replay and dedup stores on a real three-node Redis Cluster this file starts (node-redis
 * `createCluster`): each script's keys in one slot, the keyids and senders spread over the nodes,
 * the aggregate counted on one slot with no per-entry data; replays, duplicates and conflicts seen
 * across two receivers on two cluster clients; the byte budgets held per keyid and in all under
 * concurrent claims on keyids of several nodes; and a node stopped: 503 while it is down, deliveries
 * accepted again once it is back, with what it held before.
 */

import { createHash } from 'node:crypto';
import type { RedisClusterType } from 'redis';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  createMemoryReplayStore,
  createRedisDedupStore,
  createRedisReplayStore,
  createWebhookReceiver,
  type ReplayStore,
} from '../../src/webhooks/index.js';
import { completedBody, ed25519 } from './fixtures.js';
import { delivered, type Outcome, outcome, RECEIVER_BASE, signedRequest } from './outcomes.js';
import { type RedisClusterNodes, withRedisCluster } from './redis-cluster.js';

let cluster: RedisClusterNodes;
/** Two cluster clients: the connections of two receiver processes. */
let a: RedisClusterType;
let b: RedisClusterType;

withRedisCluster((c) => {
  cluster = c;
});
beforeAll(async () => {
  [a, b] = await Promise.all([cluster.connect(), cluster.connect()]);
});

describe('on a three-node Redis Cluster', () => {
  /** The port of the master serving `key`'s slot. */
  const nodeOf = async (key: string): Promise<number> => {
    const slot = Number(await a.sendCommand(undefined, true, ['CLUSTER', 'KEYSLOT', key]));
    return a.getSlotMaster(slot).port;
  };

  test('keyids and senders spread over the three nodes; the aggregate slot holds its four keys, however many entries', async () => {
    const replay = createRedisReplayStore({ client: a, prefix: 'spread:' });
    const dedup = createRedisDedupStore({ client: b, prefix: 'spread-dedup:' });
    // Keyids as JWK thumbprints often are, senders on hosts of their own (names alike but for a digit hash close by).
    const ids = Array.from({ length: 30 }, (_, i) => createHash('sha256').update(String(i)).digest('base64url').slice(0, 16));
    const sender = (id: string) => `https://${id.toLowerCase()}.seller.example/mcp`;
    for (const id of ids) {
      expect(await replay.claim(id, 'nonce-0', 360)).toBe('claimed');
      const claim = {
        sender: sender(id),
        key: 'whk_spread_00000001',
        fingerprint: 'fp',
        owner: 'o',
        leaseMs: 60_000,
        retentionMs: 86_400_000,
      };
      expect(await dedup.claim(claim)).toBe('claimed');
    }
    const keyidNodes = await Promise.all(ids.map((id) => nodeOf(`spread:{k:${id}}:n:nonce-0`)));
    const senderNodes = await Promise.all(ids.map((id) => nodeOf(`spread-dedup:{s:${sender(id)}}:set`)));
    expect(new Set(keyidNodes).size).toBe(3);
    expect(new Set(senderNodes).size).toBe(3);
    // The entries are where their slots are: read back through the cluster, each from its own node.
    for (const id of ids) expect(await a.exists(`spread:{k:${id}}:n:nonce-0`)).toBe(1);
    for (const id of ids) expect(await b.exists(`spread-dedup:{s:${sender(id)}}:b:whk_spread_00000001`)).toBe(1);
    const slot = Number(await a.sendCommand(undefined, true, ['CLUSTER', 'KEYSLOT', 'spread:{all}:totals']));
    const aggregate = await a.nodeClient(a.getSlotMaster(slot));
    expect(Number(await aggregate.sendCommand(['CLUSTER', 'COUNTKEYSINSLOT', String(slot)]))).toBe(4);
    expect(await a.hGet('spread:{all}:totals', 'count')).toBe('30');
  });

  const receivers = (prefix?: string) =>
    [a, b].map((client) =>
      createWebhookReceiver({
        ...RECEIVER_BASE,
        storeTimeoutMs: 500,
        replayStore: createRedisReplayStore({ client, ...(prefix === undefined ? {} : { prefix }) }),
        dedup: { store: createRedisDedupStore({ client, ...(prefix === undefined ? {} : { prefix: `${prefix}dedup:` }) }) },
      }),
    ) as [ReturnType<typeof createWebhookReceiver>, ReturnType<typeof createWebhookReceiver>];

  test('two receivers: a delivery replayed to the second is refused (401 webhook_signature_replayed)', async () => {
    const [first, second] = receivers();
    const request = await signedRequest(completedBody({ idempotency_key: 'whk_cluster_replay_0001' }));
    await (await delivered(first.receive(request))).dedup?.complete();
    const replay = await outcome(second.receive(request));
    expect(replay.ok ? replay.hook : replay.error).toMatchObject({ webhookCode: 'webhook_signature_replayed', httpStatus: 401 });
  });

  test('two receivers: the retry of a processed delivery at the second is a duplicate (200), its processing not repeated', async () => {
    const [first, second] = receivers();
    const body = completedBody({ idempotency_key: 'whk_cluster_duplicate_0001' });
    await (await delivered(first.receive(await signedRequest(body)))).dedup?.complete();
    const retry = await outcome(second.receive(await signedRequest(body)));
    expect(retry.ok ? retry.hook : retry.error).toMatchObject({ kind: 'duplicate', idempotencyKey: 'whk_cluster_duplicate_0001' });
    expect(retry.answer.status).toBe(200);
  });

  test('two receivers: the same idempotency_key with another payload at the second is a conflict (409)', async () => {
    const [first, second] = receivers();
    const key = 'whk_cluster_conflict_0001';
    await (await delivered(first.receive(await signedRequest(completedBody({ idempotency_key: key }))))).dedup?.complete();
    const other = await outcome(second.receive(await signedRequest(completedBody({ idempotency_key: key, message: 'Media buy revised' }))));
    expect(other.ok ? other.hook : other.error).toMatchObject({ webhookCode: 'webhook_idempotency_conflict', httpStatus: 409 });
  });

  describe('the budgets hold per keyid and in all, with the keyids on several nodes', () => {
    const keyids = ['kid-0', 'kid-1', 'kid-2', 'kid-3', 'kid-4'];
    /** Every entry here weighs the same: keyid, line feed, nonce, plus 256 bytes. */
    const weight = 'kid-0'.length + 1 + 'nonce-00'.length + 256;

    test('bytes: 60 concurrent claims through two clients; each keyid stops at its share, all of them at the budget', async () => {
      expect(new Set(await Promise.all(keyids.map((k) => nodeOf(`budget:{k:${k}}:set`)))).size).toBeGreaterThan(1);
      const options = { prefix: 'budget:', maxBytes: 20 * weight, perKeyidMaxBytes: 8 * weight };
      const stores: ReplayStore[] = [createRedisReplayStore({ client: a, ...options }), createRedisReplayStore({ client: b, ...options })];
      const attempts = keyids.flatMap((keyid, k) =>
        Array.from({ length: 12 }, (_, i) => ({
          keyid,
          nonce: `nonce-${String(i).padStart(2, '0')}`,
          store: stores[(k + i) % 2] as ReplayStore,
        })),
      );
      const results = await Promise.all(attempts.map(({ keyid, nonce, store }) => store.claim(keyid, nonce, 360)));
      const claimed = keyids.map((keyid) => attempts.filter((t, i) => t.keyid === keyid && results[i] === 'claimed').length);
      expect(results.every((r) => r === 'claimed' || r === 'rate_abuse')).toBe(true);
      expect(Math.max(...claimed)).toBeLessThanOrEqual(8);
      expect(claimed.reduce((x, y) => x + y)).toBe(20);
      expect(Number(await a.hGet('budget:{all}:totals', 'bytes'))).toBe(20 * weight);
      // Each claim the aggregate refused was given back in its keyid's slot: the keyids hold what was claimed.
      const held = await Promise.all(keyids.map((k) => a.zCard(`budget:{k:${k}}:set`)));
      expect(held).toEqual(claimed);
    });

    test('entries: the aggregate cap spans keyids on three nodes; capReached sees it for a fourth', async () => {
      const spread: string[] = [];
      const seen = new Set<number>();
      for (let i = 0; spread.length < 3; i++) {
        const node = await nodeOf(`entries:{k:kid-${i}}:set`);
        if (seen.has(node)) continue;
        seen.add(node);
        spread.push(`kid-${i}`);
      }
      const store = createRedisReplayStore({ client: a, prefix: 'entries:', aggregateCap: 3 });
      for (const keyid of spread) expect(await store.claim(keyid, 'nonce-00', 360)).toBe('claimed');
      expect(await store.capReached('kid-other')).toBe(true);
      expect(await store.claim('kid-other', 'nonce-00', 360)).toBe('rate_abuse');
    });
  });

  test('a node stopped: 503 while it is down (both stores), deliveries accepted again once it is back, with what it held', async () => {
    const [first, second] = receivers('stop:');
    const dedupOnly = createWebhookReceiver({
      ...RECEIVER_BASE,
      storeTimeoutMs: 500,
      replayStore: createMemoryReplayStore(),
      dedup: { store: createRedisDedupStore({ client: b, prefix: 'stop:dedup:' }) },
    });
    let keys = 0;
    const fresh = async () => signedRequest(completedBody({ idempotency_key: `whk_cluster_stop_${String(++keys).padStart(4, '0')}` }));
    const before = await fresh();
    await (await delivered(first.receive(before))).dedup?.complete();

    const port = await nodeOf(`stop:{k:${ed25519.kid}}:set`);
    const survivor = cluster.ports.find((p) => p !== port) as number;
    await cluster.stop(port);
    try {
      const down = await outcome(first.receive(await fresh()));
      expect(down.ok ? down.hook : down.error).toMatchObject({ webhookCode: 'webhook_replay_store_unavailable', httpStatus: 503 });
      // Once the others mark it failed, the whole cluster refuses (every slot must be served): the dedup store too.
      await until(async () => (await cluster.state(survivor)) === 'fail');
      const dedupDown = await outcome(dedupOnly.receive(await fresh()));
      expect(dedupDown.ok ? dedupDown.hook : dedupDown.error).toMatchObject({
        webhookCode: 'webhook_dedup_store_unavailable',
        httpStatus: 503,
      });
    } finally {
      await cluster.start(port);
    }
    // Back: each try is a fresh delivery (the sender's retry is signed anew); 503s until the cluster is whole again.
    let back: Outcome | undefined;
    await until(async () => (back = await outcome(second.receive(await fresh()))).ok);
    expect(back?.ok ? back.hook : back?.error).toMatchObject({ kind: 'delivered' });
    expect((await outcome(dedupOnly.receive(await fresh()))).ok).toBe(true);
    // The node kept its nonces (append-only file): the delivery accepted before the stop is still a replay.
    const replay = await outcome(second.receive(before));
    expect(replay.ok ? replay.hook : replay.error).toMatchObject({ webhookCode: 'webhook_signature_replayed' });
  });
});

/** Polls `check` every 100 ms until it holds; fails after 20 s. */
async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the cluster did not reach the awaited state within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
