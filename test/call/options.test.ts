/**
 * callTask's own options are checked before anything is sent, by the rules the bounded fetch
 * applies too (timeoutOption): a deadline is a positive number of ms a timer can hold, for any
 * value given (fast-check, seed 20260502); a wrong one is INVALID_OPTION, never the seller's.
 */
import { EventEmitter } from 'node:events';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MAX_TIMER_MS, timeoutOption } from '../../src/bounds/fetch-bounds.js';
import { safeCallTask } from '../../src/mcp/index.js';

const brief = { buying_mode: 'brief', brief: 'CTV in Q3' } as const;

/** A client that records what it was asked to send. */
function recordingClient() {
  const sent: unknown[] = [];
  return {
    sent,
    client: {
      callTool: async (params: unknown) => {
        sent.push(params);
        throw new Error('not answered');
      },
    },
  };
}

describe('a deadline option', () => {
  test('timeoutOption accepts exactly a number of ms in (0, 2^31 - 1], and undefined', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.double(), fc.integer(), fc.anything()),
        fc.option(fc.constantFrom('boundedFetch', 'createJwksResolver')),
        (value, where) => {
          const valid = value === undefined || (typeof value === 'number' && value > 0 && value <= MAX_TIMER_MS);
          if (valid) {
            expect(timeoutOption(value, where ?? undefined)).toBe(value);
            return;
          }
          const whose = where === null ? '' : ` of ${where}`;
          expect(() => timeoutOption(value, where ?? undefined)).toThrow(
            expect.objectContaining({
              code: 'INVALID_OPTION',
              message: expect.stringMatching(
                new RegExp(`^option timeoutMs${whose} must be a positive number of ms up to ${MAX_TIMER_MS}; got `),
              ) as string,
            }) as Error,
          );
        },
      ),
      { seed: 20260502, numRuns: 500 },
    );
  });

  test('callTask refuses a wrong timeoutMs with the number it got, before sending', async () => {
    const { client, sent } = recordingClient();
    for (const [timeoutMs, shown] of [
      [0, '0'],
      [-5, '-5'],
      [MAX_TIMER_MS + 1, String(MAX_TIMER_MS + 1)],
      [Number.NaN, 'NaN'],
      ['60000', '"60000"'],
    ] as const) {
      const result = await safeCallTask(client, 'get_products', brief, { timeoutMs: timeoutMs as number });
      expect(result).toEqual({ success: false, error: expect.objectContaining({ code: 'INVALID_OPTION' }) });
      if (!result.success)
        expect(result.error.message).toBe(`option timeoutMs must be a positive number of ms up to ${MAX_TIMER_MS}; got ${shown}`);
    }
    expect(sent).toEqual([]);
  });
});

describe("the caller's signal", () => {
  test('outlives many calls without gathering listeners: each call removes the one it added', async () => {
    const { client } = recordingClient();
    const controller = new AbortController();
    for (let i = 0; i < 50; i++) {
      await expect(safeCallTask(client, 'get_products', brief, { signal: controller.signal })).rejects.toThrow('not answered');
    }
    expect(EventEmitter.getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  test('an abort during the call rejects with the caller’s reason, even from a client that ignores the signal', async () => {
    const controller = new AbortController();
    const reason = new Error('buyer gave up');
    const deaf = { callTool: () => new Promise<never>(() => undefined) };
    const pending = safeCallTask(deaf, 'get_products', brief, { signal: controller.signal });
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});
