/**
 * createRedisReplayStore against a real redis-server this file starts (Debian's redis-server;
 * .ci/run installs it): atomic claims, replays seen across receivers sharing the store, per-keyid
 * and aggregate caps refusing rather than evicting, TTLs set from the signature's expiry, and
 * Redis down answered as our fault (503).
 */

import { createClient, type RedisClientType } from 'redis';
import { describe, expect, test } from 'vitest';
import { createRedisReplayStore } from '../../src/signatures/replay/redis.js';
import { createWebhookReceiver, type NewKeyidAdmission, type RedisCommandClient, WebhookError } from '../../src/webhooks/index.js';
import { BUYER_ORIGIN, completedBody, ed25519, HOOK_URL, resolver } from './fixtures.js';
import { startRedis, withRedis } from './redis-server.js';
import { signWebhook } from './signer.js';

let client: RedisClientType;
let prefixes = 0;
const prefix = () => `{test-${++prefixes}}:`;

withRedis((c) => {
  client = c;
});

describe('createRedisReplayStore', () => {
  test('claims a nonce once; the second claim is a replay', async () => {
    const store = createRedisReplayStore({ client, prefix: prefix() });
    expect(await store.claim('kid-a', 'nonce-1', 360)).toBe('claimed');
    expect(await store.claim('kid-a', 'nonce-1', 360)).toBe('replayed');
    expect(await store.claim('kid-b', 'nonce-1', 360)).toBe('claimed');
  });
  test('concurrent claims of one nonce: exactly one wins', async () => {
    const store = createRedisReplayStore({ client, prefix: prefix() });
    const results = await Promise.all(Array.from({ length: 20 }, () => store.claim('kid-a', 'same-nonce', 360)));
    expect(results.filter((r) => r === 'claimed')).toHaveLength(1);
    expect(results.filter((r) => r === 'replayed')).toHaveLength(19);
  });
  test('the nonce key lives for the TTL the verifier asks ((expires − now) + 60 s)', async () => {
    const p = prefix();
    const store = createRedisReplayStore({ client, prefix: p });
    await store.claim('kid-a', 'nonce-ttl', 345);
    const pttl = Number(await client.sendCommand(['PTTL', `${p}{k:kid-a}:n:nonce-ttl`]));
    expect(pttl).toBeGreaterThan(300_000);
    expect(pttl).toBeLessThanOrEqual(345_000);
  });
  test('a full per-keyid cap refuses new nonces (no eviction) and capReached reports it; other keyids go on', async () => {
    const store = createRedisReplayStore({ client, prefix: prefix(), perKeyidCap: 3 });
    for (let i = 0; i < 3; i++) expect(await store.claim('kid-a', `n${i}`, 360)).toBe('claimed');
    expect(await store.capReached('kid-a')).toBe(true);
    expect(await store.claim('kid-a', 'n3', 360)).toBe('rate_abuse');
    expect(await store.claim('kid-a', 'n0', 360)).toBe('replayed');
    expect(await store.capReached('kid-b')).toBe(false);
    expect(await store.claim('kid-b', 'n0', 360)).toBe('claimed');
  });
  test('the aggregate cap spans keyids', async () => {
    const store = createRedisReplayStore({ client, prefix: prefix(), aggregateCap: 2 });
    expect(await store.claim('kid-a', 'n0', 360)).toBe('claimed');
    expect(await store.claim('kid-b', 'n0', 360)).toBe('claimed');
    expect(await store.capReached('kid-c')).toBe(true);
    expect(await store.claim('kid-c', 'n0', 360)).toBe('rate_abuse');
  });
  test('a claim the aggregate cap refuses is given back in its keyid: its nonce unseen, its count not taken', async () => {
    const p = prefix();
    const full = createRedisReplayStore({ client, prefix: p, aggregateCap: 2, perKeyidCap: 1 });
    expect(await full.claim('kid-a', 'n0', 360)).toBe('claimed');
    expect(await full.claim('kid-b', 'n0', 360)).toBe('claimed');
    expect(await full.claim('kid-c', 'n0', 360)).toBe('rate_abuse');
    // With room in all, the same nonce is a first claim, and kid-c's one entry is still free.
    const roomier = createRedisReplayStore({ client, prefix: p, aggregateCap: 3, perKeyidCap: 1 });
    expect(await roomier.claim('kid-c', 'n0', 360)).toBe('claimed');
    expect(await roomier.claim('kid-c', 'n0', 360)).toBe('replayed');
  });
  test("the aggregate's step failing after the keyid's hold: the claim rejects (503 upstream) and gives the hold back", async () => {
    const p = prefix();
    let aggregateDown = true;
    // The aggregate counters' slot on a node that fails (a cluster's other node), the keyid's slot fine.
    const flaky: RedisCommandClient = {
      eval: (script, o) =>
        aggregateDown && o.keys[0]?.includes('{all}')
          ? Promise.reject(new Error('CLUSTERDOWN The cluster is down'))
          : client.eval(script, o),
    };
    await expect(createRedisReplayStore({ client: flaky, prefix: p }).claim('kid-a', 'n0', 360)).rejects.toThrow('CLUSTERDOWN');
    aggregateDown = false;
    // The sender's retry of the same signature is a first claim: the refused one left nothing behind.
    expect(await createRedisReplayStore({ client: flaky, prefix: p }).claim('kid-a', 'n0', 360)).toBe('claimed');
    expect(await client.zCard(`${p}{k:kid-a}:set`)).toBe(1);
  });
  test('keyids and nonces holding braces, colons and backslashes never share a key (the hash tag escapes them)', async () => {
    const store = createRedisReplayStore({ client, prefix: prefix() });
    expect(await store.claim('a}:n:b', 'c', 360)).toBe('claimed');
    expect(await store.claim('a', 'b}:n:c', 360)).toBe('claimed');
    expect(await store.claim('a\\', '}:n:c', 360)).toBe('claimed');
    expect(await store.claim('a\\}:n:', 'c', 360)).toBe('claimed');
    expect(await store.claim('a}:n:', 'c', 360)).toBe('claimed');
    expect(await store.claim('a}:n:b', 'c', 360)).toBe('replayed');
  });
  test('new-keyid admissions: counted atomically in the claim, in a rolling window, once per keyid', async () => {
    const seen: NewKeyidAdmission[] = [];
    const store = createRedisReplayStore({ client, prefix: prefix(), admissionWindowMs: 60_000, onNewKeyid: (a) => seen.push(a) });
    await Promise.all(Array.from({ length: 10 }, (_, i) => store.claim('kid-a', `n${i}`, 360)));
    await store.claim('kid-b', 'n0', 360);
    expect(await store.claim('kid-b', 'n0', 360)).toBe('replayed');
    expect(await store.newKeyidAdmissions()).toBe(2);
    // Ten concurrent first claims of kid-a: the script admits it once.
    expect(seen).toEqual([
      { keyid: 'kid-a', admissionsInWindow: 1, windowMs: 60_000 },
      { keyid: 'kid-b', admissionsInWindow: 2, windowMs: 60_000 },
    ]);
  });
  test('new-keyid admissions leave the window, and a keyid is known again only after keyidMemoryMs', async () => {
    const store = createRedisReplayStore({ client, prefix: prefix(), admissionWindowMs: 1_000, keyidMemoryMs: 3_000 });
    // Redis judges time by its own clock (TIME), so the test waits; the margins absorb a slow machine.
    await store.claim('kid-a', 'n0', 360);
    expect(await store.newKeyidAdmissions()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    expect(await store.newKeyidAdmissions()).toBe(0);
    await store.claim('kid-a', 'n1', 360);
    expect(await store.newKeyidAdmissions()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 3_050));
    await store.claim('kid-a', 'n2', 360);
    expect(await store.newKeyidAdmissions()).toBe(1);
  });
  test('the known-keyid set is bounded by maxKnownKeyids; refused claims admit nothing', async () => {
    const p = prefix();
    const store = createRedisReplayStore({ client, prefix: p, maxKnownKeyids: 3, aggregateCap: 5 });
    for (let i = 0; i < 5; i++) expect(await store.claim(`kid-${i}`, 'n', 360)).toBe('claimed');
    expect(await store.claim('kid-9', 'n', 360)).toBe('rate_abuse');
    expect(Number(await client.sendCommand(['ZCARD', `${p}{all}:known`]))).toBe(3);
    expect(await store.newKeyidAdmissions()).toBe(3);
  });
  test('a destination-scoped claim is keyed by (keyid, destination, nonce); caps count every entry of the keyid', async () => {
    const store = createRedisReplayStore({ client, prefix: prefix(), perKeyidCap: 3 });
    expect(await store.claim('kid-a', 'n1', 360, 'https://buyer.example/a')).toBe('claimed');
    expect(await store.claim('kid-a', 'n1', 360, 'https://buyer.example/b')).toBe('claimed');
    expect(await store.claim('kid-a', 'n1', 360, 'https://buyer.example/a')).toBe('replayed');
    expect(await store.claim('kid-a', 'n1', 360)).toBe('claimed');
    expect(await store.capReached('kid-a')).toBe(true);
  });
  test('two receivers sharing the store: a webhook replayed to the second is refused', async () => {
    const store = createRedisReplayStore({ client, prefix: prefix() });
    const now = Date.now();
    const signed = await signWebhook({ key: ed25519, url: HOOK_URL, body: completedBody(), created: Math.floor(now / 1000) });
    const request = { method: 'POST', url: HOOK_URL, headers: signed.headers, body: signed.body };
    const a = createWebhookReceiver({ endpoint: BUYER_ORIGIN, keys: resolver, replayStore: store });
    const b = createWebhookReceiver({ endpoint: BUYER_ORIGIN, keys: resolver, replayStore: store });
    expect((await a.receive(request)).status).toBe('completed');
    const error = await b.receive(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookError);
    expect((error as WebhookError).webhookCode).toBe('webhook_signature_replayed');
  });
  test('Redis unreachable: webhook_replay_store_unavailable, 503 (our fault, the sender retries)', async () => {
    const down = await startRedis();
    const lost = createClient({ url: down.url, socket: { reconnectStrategy: false } });
    lost.on('error', () => undefined);
    await lost.connect();
    await down.stop();
    const receiver = createWebhookReceiver({
      endpoint: BUYER_ORIGIN,
      keys: resolver,
      replayStore: createRedisReplayStore({ client: lost }),
    });
    const signed = await signWebhook({ key: ed25519, url: HOOK_URL, body: completedBody(), created: Math.floor(Date.now() / 1000) });
    const error = await receiver
      .receive({ method: 'POST', url: HOOK_URL, headers: signed.headers, body: signed.body })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ webhookCode: 'webhook_replay_store_unavailable', httpStatus: 503 });
  });
  test('invalid caps are configuration errors (INVALID_OPTION at creation)', () => {
    expect(() => createRedisReplayStore({ client, perKeyidCap: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });
});

describe('one keyid cannot fill the Redis store every signer shares (issue 28, item 6)', () => {
  /** An entry's weight as the store documents it: its aggregate member (keyid, line feed, nonce) plus 256. */
  const weight = (keyid: string, nonce: string) => keyid.length + 1 + nonce.length + 256;
  const long = (i: number, length: number) => `${String(i).padStart(8, '0')}${'n'.repeat(length - 8)}`;
  test('5,900-byte nonces of one keyid stop at its byte share; other keyids are still admitted', async () => {
    const maxBytes = 1024 * 1024;
    const store = createRedisReplayStore({ client, prefix: prefix(), maxBytes });
    let claimed = 0;
    while ((await store.claim('kid-hostile', long(claimed, 5_900), 360)) === 'claimed') claimed++;
    // Counted: a tenth of the budget, in whole entries.
    expect(claimed).toBe(Math.floor(Math.floor(maxBytes / 10) / weight('kid-hostile', long(0, 5_900))));
    for (let k = 0; k < 9; k++) for (let i = 0; i < 5; i++) expect(await store.claim(`kid-${k}`, long(i, 5_900), 360)).toBe('claimed');
  });
  test('the byte budget bounds all keyids together, and expired entries give their bytes back', async () => {
    const p = prefix();
    const store = createRedisReplayStore({ client, prefix: p, maxBytes: 40_000, perKeyidMaxBytes: 40_000 });
    let claimed = 0;
    while ((await store.claim('kid-a', long(claimed, 1_000), 1)) === 'claimed') claimed++;
    expect(claimed).toBe(Math.floor(40_000 / weight('kid-a', long(0, 1_000))));
    expect(Number(await client.hGet(`${p}{all}:totals`, 'bytes'))).toBe(claimed * weight('kid-a', long(0, 1_000)));
    // The aggregate counts an entry until the end of the second it expires in: 1 s of TTL, at most 2 s.
    await new Promise((resolve) => setTimeout(resolve, 2_050));
    expect(await store.claim('kid-b', long(0, 1_000), 360)).toBe('claimed');
    expect(Number(await client.hGet(`${p}{all}:totals`, 'bytes'))).toBe(weight('kid-b', long(0, 1_000)));
  });
  test('the byte options are checked', () => {
    for (const options of [{ maxBytes: 0 }, { maxBytes: 1_000, perKeyidMaxBytes: 2_000 }, { perKeyidMaxBytes: Number.NaN }])
      expect(() => createRedisReplayStore({ client, ...options })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });
});
