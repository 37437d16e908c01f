/**
 * What the seller said when a task failed is kept (TaskFailedError.sellerText) and quoted in the
 * message, escaped and bounded: the MCP isError text (not a JSON text item, without the MCP SDK's
 * `MCP error -N:` prefix), a JSON-RPC error's message, the A2A artifact's text part, else the
 * status message's. The end state of a task without a usable adcp_error decides its recovery: a
 * deliberate `rejected` or `canceled` is never `transient` (a retry loop would resend it); the
 * table pins each state, over A2A, polling and webhooks.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decode } from '../../src/decode/decode.js';
import { decodeEnclosed } from '../../src/decode/enclosed.js';
import { type Recovery, TaskFailedError } from '../../src/errors/errors.js';
import { shownText } from '../../src/errors/format.js';
import { MAX_SELLER_TEXT } from '../../src/extract/seller-words.js';
import { DEFAULT_OPTIONS } from '../../src/options/resolve-options.js';
import { END_STATE_RECOVERY } from '../../src/schema/recovery.js';
import { versions } from '../../src/schema/versions.js';
import { a2a03, a2a10, jsonRpc, mcpError } from '../fixtures/envelopes.js';
import { caughtAs } from '../helpers.js';

type Json = Record<string, unknown>;

const SEED = 20_260_430;

function failure(input: unknown, options?: Parameters<typeof decode>[2]): TaskFailedError {
  return caughtAs(TaskFailedError, () => decode('create_media_buy', input, options));
}

/** An A2A 1.0 failed task whose artifact and status message say different things. */
function a2aFailed(state: string, artifactText: string | undefined, statusText: string | undefined): Json {
  return {
    task: {
      id: 'a2a-task-9f0e',
      contextId: 'a2a-ctx-11aa',
      status: {
        state,
        ...(statusText === undefined ? {} : { message: { messageId: 'm-1', role: 'ROLE_AGENT', parts: [{ text: statusText }] } }),
      },
      artifacts: artifactText === undefined ? [] : [{ artifactId: 'a-1', parts: [{ text: artifactText }] }],
    },
  };
}

describe("the seller's words, by transport", () => {
  test.each([
    [
      'MCP isError: the first text that is not JSON',
      {
        isError: true,
        content: [
          { type: 'text', text: '{"note":1}' },
          { type: 'text', text: 'Inventory system is down for maintenance.' },
        ],
      },
      'Inventory system is down for maintenance.',
    ],
    ['MCP isError: only JSON text, so no words', { isError: true, content: [{ type: 'text', text: '  [1,2]' }] }, undefined],
    [
      'MCP isError: a tool handler’s McpError, the SDK prefix dropped',
      { isError: true, content: [{ type: 'text', text: 'MCP error -32029: Rate limit exceeded' }] },
      'Rate limit exceeded',
    ],
    ['a raw JSON-RPC error', jsonRpc.error(-32603, 'Ad server unreachable'), 'Ad server unreachable'],
    [
      'an McpError, the SDK prefix (doubled by a server on the same SDK) dropped',
      mcpError(-32001, 'MCP error -32001: Upstream timed out'),
      'Upstream timed out',
    ],
    [
      'A2A: the artifact’s text part first',
      a2aFailed('TASK_STATE_FAILED', 'Creative review service failed.', 'ignored'),
      'Creative review service failed.',
    ],
    [
      'A2A: else the status message’s',
      a2aFailed('TASK_STATE_REJECTED', undefined, 'Buyer is not onboarded for guaranteed deals.'),
      'Buyer is not onboarded for guaranteed deals.',
    ],
    ['A2A: no text at all', a2aFailed('TASK_STATE_CANCELED', undefined, undefined), undefined],
  ])('%s', (_name, input, words) => {
    const e = failure(input);
    expect(e.sellerText).toBe(words);
    if (words === undefined) expect(e.message).not.toContain('the seller said');
    else expect(e.message.endsWith(`; the seller said "${words}"`)).toBe(true);
  });

  test('an adcp_error’s own message is quoted first, so one error reads the same over every transport; the transport’s words stay on sellerText', () => {
    const adcpError = { code: 'PRODUCT_UNAVAILABLE', message: 'ctv_prime sold out for Q3' };
    const viaRpc = failure(jsonRpc.error(-32602, 'Invalid params', { adcp_error: adcpError }));
    const viaA2a = failure(a2a03.task('failed', { adcp_error: adcpError }));
    expect(viaRpc.message).toBe(viaA2a.message);
    expect(viaRpc.message).toContain('; the seller said "ctv_prime sold out for Q3"');
    expect([viaRpc.sellerText, viaA2a.sellerText]).toEqual(['Invalid params', 'Task finished.']);
  });

  test('hostile words are escaped and bounded, in the message and on the error (property)', () => {
    const unsafe = fc.constantFrom('\u001b[2J', '\u202e', '\r\n', '\u2028', '\ud800', '\u0000', 'é', '😀', ' ', 'x');
    fc.assert(
      fc.property(fc.array(unsafe, { minLength: 1, maxLength: 3000 }), (pieces) => {
        const text = `Seller: ${pieces.join('')}`;
        const e = failure(jsonRpc.error(-32603, text));
        expect(e.sellerText).toBe(shownText(text, MAX_SELLER_TEXT));
        expect((e.sellerText ?? '').length).toBeLessThanOrEqual(MAX_SELLER_TEXT);
        expect(e.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028-\u202e]/);
        expect(e.message.length).toBeLessThan(400);
      }),
      { seed: SEED, numRuns: 100 },
    );
  });

  test("a failing decode reads the seller's answer once: its words come back with the error the extractor found", () => {
    for (const [answer, words] of [
      [{ isError: true, text: 'Budget below the floor.', structured: undefined }, 'Budget below the floor.'],
      [{ isError: true, text: '{"errors":[{"code":"BUDGET_TOO_LOW","message":"below floor"}]}', structured: undefined }, undefined],
      [
        { isError: true, text: 'Rate limited, come back later.', structured: { adcp_error: { code: 'RATE_LIMITED', retry_after: 5 } } },
        'Rate limited, come back later.',
      ],
    ] as const) {
      let reads = 0;
      const result = {
        isError: answer.isError,
        get content() {
          reads += 1;
          return [{ type: 'text', text: answer.text }];
        },
        ...(answer.structured === undefined ? {} : { structuredContent: answer.structured }),
      };
      // The transport named, so that detection (which reads the shape first) is not counted.
      const error = caughtAs(TaskFailedError, () => decode('create_media_buy', result, { transport: 'mcp' }));
      expect(error.sellerText).toBe(words);
      expect(reads).toBe(1);
    }
  });
});

describe('the recovery of a task that ends without a usable adcp_error, by its state', () => {
  /** The table: each end state's recovery under the manifest policy (transient for an unknown code) and under unknownRecovery 'terminal'. */
  const TABLE: ReadonlyArray<readonly [state: 'failed' | 'rejected' | 'canceled', manifest: Recovery, terminalPolicy: Recovery]> = [
    ['failed', 'transient', 'terminal'], // says nothing about why: the unknown-code policy
    ['rejected', 'terminal', 'terminal'], // "rejected by the agent and was not started": deliberate
    ['canceled', 'terminal', 'terminal'], // "canceled by the user": deliberate
  ];

  test('the table is the one recovery.ts holds', () => {
    expect(Object.fromEntries(TABLE.map(([state, manifest]) => [state, manifest === 'transient' ? 'policy' : manifest]))).toEqual(
      END_STATE_RECOVERY,
    );
  });

  const a2aState = { failed: 'TASK_STATE_FAILED', rejected: 'TASK_STATE_REJECTED', canceled: 'TASK_STATE_CANCELED' } as const;

  test.each(TABLE)('%s: %s, or %s under unknownRecovery terminal', (state, manifest, terminalPolicy) => {
    const inputs = [a2a10.taskEnvelope(a2aState[state]), a2a03.task(state), a2a10.task(a2aState[state], { errors: [] })];
    for (const input of inputs) {
      expect(failure(input).recovery).toEqual({ recovery: manifest });
      expect(failure(input, { unknownRecovery: 'terminal' }).recovery).toEqual({ recovery: terminalPolicy });
    }
    // A webhook or polled task: the envelope's status, without a payload; a failure in every bundled release (3.2 reads `rejected` as an answer).
    for (const version of versions) {
      const enclosed = caughtAs(TaskFailedError, () =>
        decodeEnclosed('create_media_buy', undefined, { status: state, what: 'webhook result' }, { ...DEFAULT_OPTIONS, version }),
      );
      expect(enclosed.recovery, version).toEqual({ recovery: manifest });
    }
  });

  test('with a usable adcp_error, the error classifies it, whatever the state', () => {
    const adcpError = { code: 'SERVICE_UNAVAILABLE', message: 'down' };
    expect(failure(a2a03.task('canceled', { adcp_error: adcpError })).recovery).toEqual({ recovery: 'transient' });
    expect(failure(a2a03.task('rejected', { adcp_error: { code: 'POLICY_VIOLATION', message: 'alcohol' } })).recovery).toEqual({
      recovery: 'correctable',
    });
  });
});
