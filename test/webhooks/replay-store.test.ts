/**
 * createMemoryReplayStore: TTL expiry, caps that refuse rather than evict, and the new-keyid
 * admission tracking security.mdx ("Webhook replay dedup sizing") makes a MUST: first entries of
 * previously-unseen keyids counted in a rolling window, reported to `onNewKeyid`.
 */
import { describe, expect, test } from 'vitest';
import { createMemoryReplayStore, createWebhookReceiver, type NewKeyidAdmission } from '../../src/webhooks/index.js';
import { BUYER_ORIGIN, completedBody, ed25519, es256, HOOK_URL, resolver } from './fixtures.js';
import { signWebhook } from './signer.js';

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe('createMemoryReplayStore: caps and expiry', () => {
  test('a nonce is claimed once, and again only after its TTL', () => {
    const c = clock();
    const store = createMemoryReplayStore({ now: c.now });
    expect(store.claim('kid-a', 'n1', 360)).toBe('claimed');
    expect(store.claim('kid-a', 'n1', 360)).toBe('replayed');
    c.advance(360_000);
    expect(store.claim('kid-a', 'n1', 360)).toBe('claimed');
  });
  test('a full per-keyid cap refuses (rate_abuse) without evicting', () => {
    const store = createMemoryReplayStore({ perKeyidCap: 2 });
    expect(store.claim('kid-a', 'n1', 360)).toBe('claimed');
    expect(store.claim('kid-a', 'n2', 360)).toBe('claimed');
    expect(store.capReached('kid-a')).toBe(true);
    expect(store.claim('kid-a', 'n3', 360)).toBe('rate_abuse');
    expect(store.claim('kid-a', 'n1', 360)).toBe('replayed');
  });
});

describe('createMemoryReplayStore: new-keyid admission pressure', () => {
  test('counts first entries of unseen keyids in the rolling window, not further entries of a known one', () => {
    const c = clock();
    const seen: NewKeyidAdmission[] = [];
    const store = createMemoryReplayStore({ now: c.now, admissionWindowMs: 60_000, onNewKeyid: (a) => seen.push(a) });
    store.claim('kid-a', 'n1', 360);
    store.claim('kid-a', 'n2', 360);
    store.claim('kid-b', 'n1', 360);
    expect(store.newKeyidAdmissions()).toBe(2);
    expect(seen).toEqual([
      { keyid: 'kid-a', admissionsInWindow: 1, windowMs: 60_000 },
      { keyid: 'kid-b', admissionsInWindow: 2, windowMs: 60_000 },
    ]);
    c.advance(30_000);
    store.claim('kid-c', 'n1', 360);
    expect(store.newKeyidAdmissions()).toBe(3);
    c.advance(30_000);
    // kid-a and kid-b left the window; kid-c (30 s old) is still in it.
    expect(store.newKeyidAdmissions()).toBe(1);
  });
  test('a keyid stays known across the expiry of its entries, until keyidMemoryMs passes without it', () => {
    const c = clock();
    const store = createMemoryReplayStore({ now: c.now, admissionWindowMs: 1_000, keyidMemoryMs: 3_600_000 });
    store.claim('kid-a', 'n1', 360);
    c.advance(1_800_000);
    store.claim('kid-a', 'n2', 360);
    expect(store.newKeyidAdmissions()).toBe(0);
    c.advance(3_600_000);
    store.claim('kid-a', 'n3', 360);
    expect(store.newKeyidAdmissions()).toBe(1);
  });
  test('refused and replayed claims are not admissions', () => {
    const store = createMemoryReplayStore({ perKeyidCap: 1, aggregateCap: 1 });
    store.claim('kid-a', 'n1', 360);
    expect(store.claim('kid-a', 'n1', 360)).toBe('replayed');
    expect(store.claim('kid-b', 'n1', 360)).toBe('rate_abuse');
    expect(store.newKeyidAdmissions()).toBe(1);
  });
  test('past maxKnownKeyids the least recently admitted keyid is forgotten and counts as new again', () => {
    const c = clock();
    const store = createMemoryReplayStore({ now: c.now, maxKnownKeyids: 2, admissionWindowMs: 1 });
    for (const kid of ['kid-a', 'kid-b', 'kid-c']) {
      store.claim(kid, 'n1', 360);
      c.advance(1);
    }
    expect(store.newKeyidAdmissions()).toBe(0);
    store.claim('kid-b', 'n2', 360);
    expect(store.newKeyidAdmissions()).toBe(0);
    store.claim('kid-a', 'n2', 360);
    expect(store.newKeyidAdmissions()).toBe(1);
  });
  test('the count stays bounded by maxKnownKeyids however many keyids arrive in one window', () => {
    const store = createMemoryReplayStore({ maxKnownKeyids: 100 });
    for (let i = 0; i < 5_000; i++) store.claim(`kid-${i}`, 'n', 360);
    expect(store.newKeyidAdmissions()).toBe(100);
  });
  test('invalid tracking options are refused', () => {
    expect(() => createMemoryReplayStore({ admissionWindowMs: 0 })).toThrow(/admissionWindowMs must be a positive integer/);
    expect(() => createMemoryReplayStore({ keyidMemoryMs: 1.5 })).toThrow(TypeError);
    expect(() => createMemoryReplayStore({ maxKnownKeyids: -1 })).toThrow(TypeError);
  });
  test('the receiver reports a verified webhook from each new keyid, once', async () => {
    const seen: string[] = [];
    const replayStore = createMemoryReplayStore({ onNewKeyid: (a) => seen.push(a.keyid) });
    const receiver = createWebhookReceiver({ endpoint: BUYER_ORIGIN, keys: resolver, replayStore });
    const created = Math.floor(Date.now() / 1000);
    for (const key of [ed25519, ed25519, es256]) {
      const signed = await signWebhook({ key, url: HOOK_URL, body: completedBody(), created });
      await receiver.receive({ method: 'POST', url: HOOK_URL, headers: signed.headers, body: signed.body });
    }
    expect(seen).toEqual([ed25519.kid, es256.kid]);
    expect(replayStore.newKeyidAdmissions()).toBe(2);
  });
  test('a webhook that fails verification admits nothing', async () => {
    const seen: string[] = [];
    const replayStore = createMemoryReplayStore({ onNewKeyid: (a) => seen.push(a.keyid) });
    const receiver = createWebhookReceiver({ endpoint: BUYER_ORIGIN, keys: resolver, replayStore });
    const signed = await signWebhook({ key: ed25519, url: HOOK_URL, body: completedBody(), created: Math.floor(Date.now() / 1000) });
    await expect(receiver.receive({ method: 'POST', url: HOOK_URL, headers: signed.headers, body: `${signed.body} ` })).rejects.toThrow(
      /digest/,
    );
    expect(seen).toEqual([]);
    expect(replayStore.newKeyidAdmissions()).toBe(0);
  });
});

describe('replay key scoping (security.mdx, "Cross-endpoint scoping")', () => {
  test('the store keys a destination-scoped claim by (keyid, destination, nonce)', () => {
    const store = createMemoryReplayStore({ perKeyidCap: 3 });
    expect(store.claim('kid-a', 'n1', 360, 'https://buyer.example/a')).toBe('claimed');
    expect(store.claim('kid-a', 'n1', 360, 'https://buyer.example/b')).toBe('claimed');
    expect(store.claim('kid-a', 'n1', 360, 'https://buyer.example/a')).toBe('replayed');
    expect(store.claim('kid-a', 'n1', 360)).toBe('claimed');
    // The per-keyid cap still counts every entry of the keyid, whatever its destination.
    expect(store.capReached('kid-a')).toBe(true);
  });
  const OTHER_URL = 'https://buyer.example.com/adcp/webhook/create_media_buy/agent_123/op_other';
  async function twoEndpoints(replayScope: 'keyid' | 'destination' | undefined): Promise<unknown[]> {
    const replayStore = createMemoryReplayStore();
    const receiver = createWebhookReceiver({
      endpoint: BUYER_ORIGIN,
      keys: resolver,
      replayStore,
      ...(replayScope === undefined ? {} : { replayScope }),
    });
    const created = Math.floor(Date.now() / 1000);
    const nonce = 'c2FtZS1ub25jZS1ib3RoLWVuZHBvaW50cw';
    const results: unknown[] = [];
    for (const url of [HOOK_URL, OTHER_URL, OTHER_URL]) {
      const signed = await signWebhook({ key: ed25519, url, body: completedBody(), created, nonce });
      results.push(
        await receiver.receive({ method: 'POST', url, headers: signed.headers, body: signed.body }).then(
          (hook) => hook.status,
          (e: unknown) => (e as { webhookCode?: string }).webhookCode,
        ),
      );
    }
    return results;
  }
  test("default 'keyid': a nonce seen at one endpoint is a replay at any other sharing the store", async () => {
    expect(await twoEndpoints(undefined)).toEqual(['completed', 'webhook_signature_replayed', 'webhook_signature_replayed']);
  });
  test("'destination': the same nonce signed for another endpoint URL is accepted once there", async () => {
    expect(await twoEndpoints('destination')).toEqual(['completed', 'completed', 'webhook_signature_replayed']);
  });
  test('an unknown scope is refused', () => {
    // @ts-expect-error: not a ReplayScope.
    expect(() => createWebhookReceiver({ endpoint: BUYER_ORIGIN, keys: resolver, replayScope: 'url' })).toThrow(/replayScope/);
  });
});
