/**
 * createMemoryReplayStore: TTL expiry, caps that refuse rather than evict, and the new-keyid
 * admission tracking security.mdx ("Webhook replay dedup sizing") makes a MUST: first entries of
 * previously-unseen keyids counted in a rolling window, reported to `onNewKeyid`.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MAP_ENTRY_BYTES, QUEUED_NUMBER_BYTES } from '../../src/signatures/replay/memory-bytes.js';
import { DEFAULT_REPLAY_MAX_BYTES, replayEntryBytes } from '../../src/signatures/replay/replay.js';
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
    expect(() => createMemoryReplayStore({ admissionWindowMs: 0 })).toThrow(/admissionWindowMs must be a positive safe integer/);
    expect(() => createMemoryReplayStore({ keyidMemoryMs: 1.5 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    expect(() => createMemoryReplayStore({ maxKnownKeyids: -1 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
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

describe('createMemoryReplayStore: bounded in bytes (the spec bounds no nonce or keyid length)', () => {
  /** What the store must count for `entries` live entries of one keyid, tracked once: our own accounting, recomputed. */
  const expectedBytes = (keyid: string, nonces: readonly string[], destination?: string): number =>
    nonces.reduce((sum, nonce) => sum + replayEntryBytes(keyid, nonce, destination), 0) +
    (nonces.length === 0 ? 0 : 2 * MAP_ENTRY_BYTES + 2 * keyid.length) +
    (nonces.length === 0 ? 0 : MAP_ENTRY_BYTES + 2 * keyid.length + QUEUED_NUMBER_BYTES);
  const sizes = fc.record({
    nonceLength: fc.integer({ min: 22, max: 15_000 }),
    keyidLength: fc.integer({ min: 1, max: 300 }),
    scoped: fc.boolean(),
    maxBytes: fc.integer({ min: 4_096, max: 1 << 20 }),
  });
  test('filled with maximal entries until it refuses: it holds what it counts, never more than maxBytes, and was really full', () => {
    fc.assert(
      fc.property(sizes, ({ nonceLength, keyidLength, scoped, maxBytes }) => {
        // One keyid given the whole budget, so that the budget itself is what refuses.
        const store = createMemoryReplayStore({ maxBytes, perKeyidMaxBytes: maxBytes, now: () => 1_000 });
        const keyid = 'k'.repeat(keyidLength);
        const destination = scoped ? `https://buyer.example/${'p'.repeat(200)}` : undefined;
        const nonces: string[] = [];
        for (let i = 0; ; i++) {
          // Nonces cut from one long header-like string: the store must keep copies, not the whole.
          const nonce = `${String(i).padStart(8, '0')}${'n'.repeat(nonceLength - 8)}`;
          const claim = store.claim(keyid, nonce, 360, destination);
          if (claim === 'rate_abuse') break;
          expect(claim).toBe('claimed');
          nonces.push(nonce);
        }
        expect(store.bytesHeld()).toBe(expectedBytes(keyid, nonces, destination));
        expect(store.bytesHeld()).toBeLessThanOrEqual(maxBytes);
        // Full: one more entry of the same size (with the keyid's count and tracking, when first) would not fit.
        const next = expectedBytes(keyid, [...nonces, 'n'.repeat(nonceLength)], destination) - store.bytesHeld();
        expect(store.bytesHeld() + next).toBeGreaterThan(maxBytes);
        // Nothing was evicted to make room: the first nonce is still a replay.
        if (nonces[0] !== undefined) expect(store.claim(keyid, nonces[0], 360, destination)).toBe('replayed');
      }),
      { numRuns: 60 },
    );
  });
  test('a 14.7 KB nonce costs its bytes: a signer that sends them is refused at the budget, never grows past it', () => {
    const store = createMemoryReplayStore({ maxBytes: DEFAULT_REPLAY_MAX_BYTES, perKeyidMaxBytes: DEFAULT_REPLAY_MAX_BYTES });
    const big = (i: number) => `${String(i).padStart(8, '0')}${'n'.repeat(14_700 - 8)}`;
    let claimed = 0;
    while (store.claim('kid-hostile', big(claimed), 360) === 'claimed') claimed++;
    expect(claimed).toBe(
      Math.floor((DEFAULT_REPLAY_MAX_BYTES - 3 * MAP_ENTRY_BYTES - 2 * 22 - QUEUED_NUMBER_BYTES) / replayEntryBytes('kid-hostile', big(0))),
    );
    expect(store.bytesHeld()).toBeLessThanOrEqual(DEFAULT_REPLAY_MAX_BYTES);
    // What is left is less than one more such entry; a profile-sized nonce still fits in it.
    expect(store.claim('kid-hostile', 'bm9uY2Utbm9uY2Utbm9uY2U', 360)).toBe('claimed');
  });
  test('expired entries give their bytes back', () => {
    const c = clock();
    const store = createMemoryReplayStore({ maxBytes: 10_000, perKeyidMaxBytes: 10_000, now: c.now });
    while (store.claim('kid-a', `n${c.now()}-${Math.random()}`, 1) === 'claimed');
    const full = store.bytesHeld();
    c.advance(1_000);
    expect(store.claim('kid-b', 'n-after-expiry', 360)).toBe('claimed');
    expect(store.bytesHeld()).toBeLessThan(full);
  });
  test('to make room it forgets new-keyid tracking (an alarm later), never a live entry', () => {
    const store = createMemoryReplayStore({ maxBytes: 2_000, perKeyidMaxBytes: 2_000 });
    expect(store.claim('kid-a', 'n0', 360)).toBe('claimed');
    let i = 0;
    while (store.claim('kid-b', `nonce-${i}`, 360) === 'claimed') i++;
    expect(i).toBeGreaterThan(0);
    expect(store.claim('kid-a', 'n0', 360)).toBe('replayed');
    expect(store.bytesHeld()).toBeLessThanOrEqual(2_000);
    // kid-a's tracking was forgotten to fit kid-b's entries: its next entry counts as a new keyid.
    expect(store.newKeyidAdmissions()).toBe(2);
  });
});

describe('one keyid cannot fill the store every signer shares (issue 28, item 6)', () => {
  const long = (i: number, length: number) => `${String(i).padStart(8, '0')}${'n'.repeat(length - 8)}`;
  test('the default store: 5,900-byte nonces of one keyid stop at its share, and every other keyid is still admitted', () => {
    const store = createMemoryReplayStore({ now: () => 1_000 });
    let claimed = 0;
    while (store.claim('kid-hostile', long(claimed, 5_900), 360) === 'claimed') claimed++;
    // Counted: the keyid's entries and its counts fit its share (a tenth of 64 MiB), one more would not.
    const share = Math.floor(DEFAULT_REPLAY_MAX_BYTES / 10);
    const perEntry = replayEntryBytes('kid-hostile', long(0, 5_900));
    const ownerBytes = 2 * MAP_ENTRY_BYTES + 2 * 'kid-hostile'.length;
    expect(claimed).toBe(Math.floor((share - ownerBytes) / perEntry));
    expect(store.claim('kid-hostile', long(claimed, 5_900), 360)).toBe('rate_abuse');
    // Nine tenths are left for everyone else: each of 50 other signers is admitted, again and again.
    for (let k = 0; k < 50; k++) {
      expect(store.capReached(`kid-${k}`)).toBe(false);
      for (let i = 0; i < 20; i++) expect(store.claim(`kid-${k}`, `bm9uY2Utbm9uY2Utbm9uY2U-${i}`, 360)).toBe('claimed');
    }
  });
  test('for any sizes and budgets, a keyid past its share is refused while another still fits', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 22, max: 8_000 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 64 * 1024, max: 1 << 20 }),
        fc.integer({ min: 2, max: 20 }),
        (nonceLength, keyidLength, maxBytes, parts) => {
          const perKeyidMaxBytes = Math.floor(maxBytes / parts);
          const store = createMemoryReplayStore({ maxBytes, perKeyidMaxBytes, now: () => 1_000 });
          const hostile = 'h'.repeat(keyidLength);
          let i = 0;
          while (store.claim(hostile, long(i, nonceLength), 360) === 'claimed') i++;
          expect(store.bytesHeld()).toBeLessThanOrEqual(perKeyidMaxBytes + MAP_ENTRY_BYTES + 2 * keyidLength + QUEUED_NUMBER_BYTES);
          expect(store.claim('kid-genuine', 'bm9uY2Utbm9uY2Utbm9uY2U', 360)).toBe('claimed');
        },
      ),
      { numRuns: 60 },
    );
  });
  test('perKeyidMaxBytes is checked: a positive safe integer, at most maxBytes', () => {
    for (const value of [0, -1, Number.NaN, '1000', 2_000_000])
      expect(() => createMemoryReplayStore({ maxBytes: 1_000_000, perKeyidMaxBytes: value as number })).toThrow(
        expect.objectContaining({ code: 'INVALID_OPTION' }),
      );
  });
});

describe("docs/webhooks.md's memory figure is the store's own arithmetic", () => {
  const page = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
  test('budget, per-entry cost and the entries a typical signer fits', () => {
    const typical = replayEntryBytes('k'.repeat(25), 'n'.repeat(22));
    const match = /at most (\d+) MiB as it counts them .*?: (\d+) bytes per entry plus 2 per character .*?that is ([\d,]+) entries/s.exec(
      page,
    );
    expect(match).not.toBeNull();
    const [, mib, perEntry, entries] = match as RegExpExecArray;
    expect(Number(mib) * 1024 * 1024).toBe(DEFAULT_REPLAY_MAX_BYTES);
    expect(Number(perEntry)).toBe(MAP_ENTRY_BYTES);
    expect(Number((entries as string).replace(/,/g, ''))).toBe(Math.floor(DEFAULT_REPLAY_MAX_BYTES / typical));
  });
});
