/**
 * callTask's own options are checked before anything is sent, by the shared deadline rule
 * (test/options/rules.test.ts holds it for every entry); a wrong one is INVALID_OPTION, never the seller's.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { MAX_TIMER_MS } from '../../src/errors/option-rules.js';
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
  test('callTask refuses a wrong timeoutMs with the number it got, before sending', async () => {
    const { client, sent } = recordingClient();
    for (const [timeoutMs, shown] of [
      [0, '0'],
      [-5, '-5'],
      [1.5, '1.5'],
      [MAX_TIMER_MS + 1, String(MAX_TIMER_MS + 1)],
      [Number.NaN, 'NaN'],
      ['60000', '"60000"'],
    ] as const) {
      const result = await safeCallTask(client, 'get_products', brief, { timeoutMs: timeoutMs as number });
      expect(result).toEqual({ success: false, error: expect.objectContaining({ code: 'INVALID_OPTION' }) });
      if (!result.success)
        expect(result.error.message).toBe(
          `safeCallTask: option timeoutMs must be a positive safe integer of ms up to ${MAX_TIMER_MS}; got ${shown}`,
        );
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
