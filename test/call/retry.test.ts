/**
 * callTask's retry policy and refusal reading, by themselves: which ends are retried and after
 * how long (error-handling.mdx: the seller's retry_after, else 2 s doubling with ±25% jitter up
 * to 60 s), the option checked before anything is sent, and security.mdx's
 * `WWW-Authenticate: Signature error="<code>"` read among other challenges and parameters.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { refusalOf, signatureError } from '../../src/call/refusal.js';
import { readRetry, retryDelayMs } from '../../src/call/retry.js';
import { TransportError } from '../../src/call/transport-error.js';
import { DecodeError, LimitError, RequestError, TaskFailedError } from '../../src/errors/errors.js';
import { safeCallTask } from '../../src/mcp/index.js';

const transient = (retryAfterSeconds?: number) =>
  new TaskFailedError('x', {
    adcpError: { code: 'RATE_LIMITED' },
    recovery: retryAfterSeconds === undefined ? { recovery: 'transient' } : { recovery: 'transient', retryAfterSeconds },
  });

describe('which ends are retried, and after how long', () => {
  test("the seller's retry_after is waited as given (already rounded up and clamped)", () => {
    expect(retryDelayMs(transient(5), 1)).toBe(5000);
    expect(retryDelayMs(transient(3600), 4)).toBe(3_600_000);
    const inFlight = new TaskFailedError('x', {
      adcpError: { code: 'IDEMPOTENCY_IN_FLIGHT' },
      recovery: { recovery: 'correctable' },
      known: { code: 'IDEMPOTENCY_IN_FLIGHT', retryAfterSeconds: 2 },
    });
    expect(retryDelayMs(inFlight, 1)).toBe(2000);
  });

  test('without one: 2 s doubling to 60 s, ±25% jitter, never past 60 s', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (retry, r) => {
        const base = Math.min(60_000, 2000 * 2 ** (retry - 1));
        const delay = retryDelayMs(transient(), retry, () => r) as number;
        expect(delay).toBeGreaterThanOrEqual(Math.floor(base * 0.75));
        expect(delay).toBeLessThanOrEqual(Math.min(60_000, Math.ceil(base * 1.25)));
      }),
      { seed: 20261202, numRuns: 300 },
    );
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(transient(), n, () => 0.5))).toEqual([2000, 4000, 8000, 16_000, 32_000, 60_000]);
  });

  test('retried: a failed connection, a 5xx, a 429, a timeout; never correctable, terminal, or the caller', () => {
    const connection = new TransportError('x', {});
    const refused = (status: number, signature?: string) => new TransportError('x', { refusal: { status, signatureError: signature } });
    for (const error of [
      connection,
      refused(503),
      refused(500),
      refused(429),
      refused(408),
      new LimitError('TIMEOUT', 'x', { unit: 'ms', limit: 1, actual: 2 }),
    ])
      expect(retryDelayMs(error, 1)).toBeTypeOf('number');
    const never = [
      refused(401, 'request_signature_required'),
      refused(401),
      refused(403),
      refused(400),
      new TaskFailedError('x', { adcpError: { code: 'BUDGET_TOO_LOW' }, recovery: { recovery: 'correctable' } }),
      new TaskFailedError('x', { adcpError: { code: 'ACCOUNT_SUSPENDED' }, recovery: { recovery: 'terminal' } }),
      new RequestError('x', { fault: 'schema' }),
      new DecodeError('INVALID_OPTION', 'x'),
      new DecodeError('SCHEMA_MISMATCH', 'x'),
      new LimitError('TOO_LARGE', 'x', { unit: 'bytes', limit: 1, actual: 2 }),
    ];
    for (const error of never) expect(retryDelayMs(error, 1)).toBeUndefined();
  });

  test('option retry: attempts an integer from 1 to 10, sleep a function; refused before anything is sent', async () => {
    expect(readRetry({ attempts: 3 }, 'callTask').attempts).toBe(3);
    const sent: unknown[] = [];
    const client = { callTool: async (params: unknown) => void sent.push(params) };
    for (const retry of [{ attempts: 0 }, { attempts: 11 }, { attempts: 2.5 }, { attempts: '3' }, { attempts: 2, sleep: 5 }, 3]) {
      // @ts-expect-error wrong on purpose
      const result = await safeCallTask(client, 'get_products', { buying_mode: 'brief', brief: 'x' }, { retry });
      expect(result).toMatchObject({
        success: false,
        error: { code: 'INVALID_OPTION', message: expect.stringMatching(/^safeCallTask: option retry/) },
      });
    }
    expect(sent).toEqual([]);
  });
});

describe('a refusal read from its head', () => {
  test.each([
    ['Signature error="request_signature_required"', 'request_signature_required'],
    ['Bearer realm="x", Signature error="request_signature_replayed"', 'request_signature_replayed'],
    ['signature   error=request_signature_invalid', 'request_signature_invalid'],
    ['Signature foo="a, b", error="request_body_malformed", bar=1', 'request_body_malformed'],
    ['Bearer error="invalid_token"', undefined],
    ['Signature error="<script>"', undefined],
    ['Signature', undefined],
  ])('%s → %s', (header, code) => {
    expect(signatureError(header)).toBe(code);
  });

  test('Retry-After in seconds is rounded and clamped; a date or another status is left out', () => {
    expect(refusalOf(503, { status: 503, wwwAuthenticate: null, retryAfter: '7200' })).toMatchObject({ retryAfterSeconds: 3600 });
    expect(
      refusalOf(503, { status: 503, wwwAuthenticate: null, retryAfter: 'Wed, 21 Oct 2026 07:28:00 GMT' }).retryAfterSeconds,
    ).toBeUndefined();
    expect(refusalOf(401, { status: 503, wwwAuthenticate: 'Signature error="request_signature_required"', retryAfter: '1' })).toEqual({
      status: 401,
    });
  });
});
