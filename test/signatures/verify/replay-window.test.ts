/**
 * Issue 19 item 3: a replay accepted at the end of the window. The verifier's last accepting
 * instant and the replay entry's lifetime come from one rule (window.ts), and the claim is checked
 * against that instant once the store answers; so, for any created / expires / skew and any time
 * of delivery, once the `(keyid, nonce)` entry has expired the verifier refuses the signature.
 * Checked on the rule itself, through the verifier with the memory store on a generated clock, with
 * a store slower than the window, and with the memory and Redis stores on the real clock at the
 * very end of a window (where 3 replays of 3 used to be accepted).
 */
import fc from 'fast-check';
import type { RedisClientType } from 'redis';
import { describe, expect, test } from 'vitest';
import { lastAcceptedAt, PROFILE_WINDOW, replayTtlSeconds, windowRefusal } from '../../../src/signatures/http/window.js';
import { createRedisReplayStore } from '../../../src/signatures/replay/redis.js';
import { createMemoryReplayStore, type ReplayStore } from '../../../src/signatures/replay/replay.js';
import { verifyWebhookSignature } from '../../../src/signatures/verify/verify.js';
import { BUYER_ORIGIN, completedBody, ed25519, HOOK_URL, resolver } from '../../webhooks/fixtures.js';
import { withRedis } from '../../webhooks/redis-server.js';
import { signWebhook } from '../../webhooks/signer.js';

const T0 = 1_776_520_800;

describe('the rule: the entry outlives acceptance', () => {
  test('for any created, expires, skew, longest validity and claim instant inside the window', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_000_000_000 }),
        fc.integer({ min: 1, max: 3_600 }),
        fc.integer({ min: 0, max: 600 }),
        fc.integer({ min: 0, max: 3_600 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 5_000 }),
        (created, validity, skewSeconds, extra, at, claimDelay) => {
          const rules = { skewSeconds, maxValiditySeconds: validity + extra };
          const times = { created, expires: created + validity };
          const first = (created - skewSeconds) * 1000;
          const last = lastAcceptedAt(times, rules);
          const now = Math.floor(first + at * (last - first));
          expect(windowRefusal(times, now, rules)).toBeUndefined();
          // The store sets the entry at its own instant, no earlier than the verifier's reading.
          const entryExpires = now + claimDelay + replayTtlSeconds(times, now, rules) * 1000;
          expect(entryExpires).toBeGreaterThan(last);
          expect(windowRefusal(times, entryExpires, rules)).toBe('the signature has expired');
          expect(windowRefusal(times, last, rules)).toBeUndefined();
          expect(windowRefusal(times, last + 1, rules)).toBe('the signature has expired');
        },
      ),
      { numRuns: 2_000 },
    );
  });
  test('the spec’s TTL, (expires − now) + 60 s, read to the second, is what the rule refines', () => {
    expect(replayTtlSeconds({ created: T0, expires: T0 + 300 }, T0 * 1000, PROFILE_WINDOW)).toBe(361);
    expect(replayTtlSeconds({ created: T0, expires: T0 + 300 }, (T0 + 359) * 1000 + 999, PROFILE_WINDOW)).toBe(1);
    expect(replayTtlSeconds({ created: T0, expires: T0 + 300 }, (T0 + 360) * 1000, PROFILE_WINDOW)).toBe(1);
  });
});

/** A signed request and the verifier over `store` at the clock `clock.t`. */
async function delivery(created: number, validity: number) {
  const signed = await signWebhook({ key: ed25519, url: HOOK_URL, body: completedBody(), created, expires: created + validity });
  const request = { method: 'POST', url: HOOK_URL, headers: new Map(Object.entries(signed.headers)), body: signed.body };
  return (store: ReplayStore, now: () => number) =>
    verifyWebhookSignature(request, { keys: resolver, replayStore: store, endpoint: BUYER_ORIGIN, now }).then(
      () => 'accepted',
      (e: unknown) => (e as { webhookCode?: string }).webhookCode ?? String(e),
    );
}

describe('through the verifier, memory store, generated clock', () => {
  test('after a first acceptance, no replay at any later instant is accepted', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: -60_000, max: 360_000 }),
        fc.array(fc.integer({ min: 0, max: 400_000 }), { minLength: 1, maxLength: 6 }),
        async (validity, firstOffset, laters) => {
          const created = T0;
          const last = (created + validity + 60) * 1000;
          const first = created * 1000 + firstOffset;
          fc.pre(first <= last);
          let t = first;
          const store = createMemoryReplayStore({ now: () => t });
          const deliver = await delivery(created, validity);
          expect(await deliver(store, () => t)).toBe('accepted');
          const ttl = replayTtlSeconds({ created, expires: created + validity }, first, PROFILE_WINDOW);
          // Generated instants, and the edges: the last accepting instant and the entry's expiry.
          const edges = [last - 1, last, last + 1, first + ttl * 1000 - 1, first + ttl * 1000, first + ttl * 1000 + 1];
          for (const at of [...laters.map((d) => first + d), ...edges].filter((x) => x >= first).sort((a, b) => a - b)) {
            t = at;
            expect(['webhook_signature_replayed', 'webhook_signature_window_invalid'], `replay at ${at - last} ms from the end`).toContain(
              await deliver(store, () => t),
            );
          }
        },
      ),
      { numRuns: 60 },
    );
  });
  test('a claim that comes back after the window closed is refused (the entry of a first delivery may have expired by then)', async () => {
    const created = T0;
    const last = (created + 300 + 60) * 1000;
    let t = last;
    const inner = createMemoryReplayStore({ now: () => t });
    const slow: ReplayStore = {
      capReached: (keyid) => inner.capReached(keyid),
      newKeyidAdmissions: () => inner.newKeyidAdmissions(),
      claim: (...args) => {
        const answer = inner.claim(...args);
        t = last + 1;
        return answer;
      },
    };
    expect(await (await delivery(created, 300))(slow, () => t)).toBe('webhook_signature_window_invalid');
  });
});

describe('on the real clock, at the end of a window (the reported case)', () => {
  let client: RedisClientType;
  withRedis((c) => {
    client = c;
  });

  /** A signature whose window closes 1.5-2.5 s from now, delivered, then replayed until refused for its window. */
  async function replayUntilClosed(store: ReplayStore): Promise<string[]> {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const created = nowSeconds - 300 - 60 + 2;
    const deliver = await delivery(created, 300);
    const results = [await deliver(store, Date.now)];
    while (results.at(-1) !== 'webhook_signature_window_invalid' && results.length < 200) {
      await new Promise((r) => setTimeout(r, 25));
      results.push(await deliver(store, Date.now));
    }
    return results;
  }

  for (const [name, store] of [
    ['memory', () => createMemoryReplayStore()],
    ['Redis', () => createRedisReplayStore({ client, prefix: `{window-${Date.now()}}:` })],
  ] as const) {
    test(`${name} store: accepted once, every replay refused up to and past the window's end`, async () => {
      const results = await replayUntilClosed(store());
      expect(results[0]).toBe('accepted');
      expect(results.at(-1)).toBe('webhook_signature_window_invalid');
      expect(new Set(results.slice(1))).toEqual(new Set(['webhook_signature_replayed', 'webhook_signature_window_invalid']));
    });
  }
});
