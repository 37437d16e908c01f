/**
 * waitForTask's schedule (error-handling.mdx): the first interval doubling per poll, ±25% jitter,
 * capped at maxIntervalMs; a seller's retry_after in its place; never under 1 ms, whatever the
 * caller's random returns.
 */
import { describe, expect, test } from 'vitest';
import { nextDelay, readWaitOptions } from '../../src/call/wait-options.js';

describe('nextDelay', () => {
  test('doubling from intervalMs to maxIntervalMs, without jitter at random 0.5', () => {
    const settings = readWaitOptions({ random: () => 0.5 });
    expect([1, 2, 3, 4, 5, 6, 7, 50].map((polls) => nextDelay(settings, polls, undefined))).toEqual([
      2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000,
    ]);
  });
  test('±25% at the extremes of random, and a random outside [0, 1) or NaN held to it', () => {
    const at = (r: number) => nextDelay(readWaitOptions({ random: () => r }), 2, undefined);
    expect([at(0), at(0.999999), at(-5), at(7), at(Number.NaN)].map(Math.round)).toEqual([3000, 5000, 3000, 5000, 4000]);
  });
  test("the seller's retry_after wins (already classified: whole seconds)", () => {
    expect(nextDelay(readWaitOptions({ random: () => 0 }), 9, 7)).toBe(7000);
  });
  test('the cap holds after the jitter', () => {
    expect(nextDelay(readWaitOptions({ random: () => 0.99, maxIntervalMs: 10_000 }), 20, undefined)).toBe(10_000);
  });
});
