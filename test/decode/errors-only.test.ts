/**
 * An errors-only answer without a failed status (issue 19, item 15), e.g. get_products
 * `{ errors: [...] }`: the task's schema rejects it (it lacks the response's members), and
 * transport-errors.mdx's detection order ends in `payload.errors[0]` ("used when the transport
 * envelope does not surface adcp_error but the payload carries an errors[] array"). So such an
 * answer is TASK_FAILED with the seller's `errors[0]` (its code, its recovery), not a
 * SCHEMA_MISMATCH that loses the code; where a schema's own error arm accepts it, it is data as
 * before. An answer that is a response (its required members there) and fails for another reason
 * stays SCHEMA_MISMATCH, warnings or not.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { safeDecode } from '../../src/decode/decode.js';
import { decodeTaskStatus } from '../../src/decode/polling.js';
import { TaskFailedError } from '../../src/errors/errors.js';
import { tasks, versions } from '../../src/schema/versions.js';
import { fastValidator } from '../../src/validate/validators.js';
import { decodeWebhook, WebhookTaskFailedError } from '../../src/webhooks/index.js';
import { a2a10, mcp } from '../fixtures/envelopes.js';
import { payload } from '../fixtures/payloads.js';
import { caughtAs } from '../helpers.js';

type Json = Record<string, unknown>;

const sellerError = fc.record(
  {
    code: fc.constantFrom('INVALID_REQUEST', 'BUDGET_TOO_LOW', 'RATE_LIMITED', 'PRODUCT_NOT_FOUND', 'SELLER_SPECIFIC_CODE'),
    message: fc.constantFrom('The brief is empty.', 'Too many requests.', 'No such product.'),
    field: fc.constantFrom('brief', 'packages[0].budget'),
    recovery: fc.constantFrom('transient', 'correctable', 'terminal'),
  },
  { requiredKeys: ['code', 'message'] },
);

const errorsOnly = fc.record(
  {
    errors: fc.array(sellerError, { minLength: 1, maxLength: 3 }),
    context: fc.constant({ trace_id: 'trc_71b2' }),
    adcp_version: fc.constantFrom('3.1', '3.0'),
  },
  { requiredKeys: ['errors'] },
);

const TRANSPORTS: ReadonlyArray<readonly [string, (p: Json) => Json]> = [
  ['MCP structuredContent', (p) => mcp.structured(p)],
  ['MCP text', (p) => mcp.text(p)],
  ['A2A completed task', (p) => a2a10.taskEnvelope('TASK_STATE_COMPLETED', p)],
];

describe('an errors-only answer, for every task of every version', () => {
  const table = versions.flatMap((version) => tasks(version).map((task) => [version, task] as const));

  test.each(table)("%s %s: data where the schema takes it, else TASK_FAILED with the seller's errors[0]", (version, task) => {
    fc.assert(
      fc.property(errorsOnly, fc.constantFrom(...TRANSPORTS), (body, [via, wrap]) => {
        const { adcp_version: _announced, ...asSent } = body;
        const accepted =
          fastValidator(version, task, 'response')!(asSent) ||
          fastValidator(version, task, 'response')!({ ...asSent, status: 'completed' });
        const result = safeDecode(task as 'get_products', wrap(asSent), { version });
        if (accepted) {
          expect(result.success, via).toBe(true);
          return;
        }
        if (result.success) return expect.fail(`${via}: decoded an answer its schema rejects`);
        expect(result.error, via).toBeInstanceOf(TaskFailedError);
        const failed = result.error as TaskFailedError;
        expect(failed.adcpError).toEqual(body.errors[0]);
        expect(failed.message).toContain("from the payload's errors[0]");
        // Its recovery: the seller's own, else the manifest's for the code.
        if (body.errors[0]!.recovery !== undefined) expect(failed.recovery.recovery).toBe(body.errors[0]!.recovery);
      }),
      { numRuns: 6 },
    );
  });

  test("get_products { errors } (the issue's case): TASK_FAILED with the code, both releases", () => {
    for (const version of versions) {
      const result = safeDecode('get_products', mcp.structured({ errors: [{ code: 'INVALID_REQUEST', message: 'The brief is empty.' }] }), {
        version,
      });
      expect(result).toMatchObject({ success: false, error: { code: 'TASK_FAILED', adcpError: { code: 'INVALID_REQUEST' } } });
      if (!result.success) expect((result.error as TaskFailedError).recovery.recovery).toBe('correctable');
    }
  });

  test('a response with its members and warnings that fails for another reason stays SCHEMA_MISMATCH', () => {
    const broken = {
      ...payload('3.1/get_products.valid'),
      products: 'none',
      errors: [{ code: 'PARTIAL_RESULTS', message: 'one feed timed out' }],
    };
    expect(safeDecode('get_products', mcp.structured(broken))).toMatchObject({ success: false, error: { code: 'SCHEMA_MISMATCH' } });
  });

  test('an errors-only async payload (warnings of an input-required task) is no failure', () => {
    const warning = { status: 'input-required', errors: [{ code: 'APPROVAL_REQUIRED', message: 'needs approval' }] };
    expect(safeDecode('create_media_buy', mcp.structured(warning))).toMatchObject({ success: true, data: warning });
  });
});

describe('the same answer enclosed: a webhook result, a polled result', () => {
  const errors = [{ code: 'PRODUCT_NOT_FOUND', message: 'No such product.', recovery: 'correctable' }];
  test('a completed webhook whose result holds only errors: WebhookTaskFailedError with the code', () => {
    const hook = {
      idempotency_key: 'whk_01J9Z6Q2V8W4X7Y3B5C1D9E2F0',
      operation_id: 'op_7d1e',
      task_id: 'task_gp_1',
      task_type: 'get_products',
      status: 'completed',
      timestamp: '2026-04-18T10:00:00Z',
      result: { errors },
    };
    const error = caughtAs(WebhookTaskFailedError, () => decodeWebhook(hook));
    expect(error.adcpError?.code).toBe('PRODUCT_NOT_FOUND');
    expect(error.webhook).toMatchObject({ taskType: 'get_products', status: 'completed' });
  });
  test('a completed 3.0 poll whose result holds only errors: TaskFailedError with the code', () => {
    const poll = {
      task_id: 'task_gs_1',
      task_type: 'get_signals',
      protocol: 'media-buy',
      status: 'completed',
      created_at: '2026-04-18T09:55:00Z',
      updated_at: '2026-04-18T09:59:58Z',
      result: { errors },
    };
    expect(caughtAs(TaskFailedError, () => decodeTaskStatus(poll, { version: '3.0' })).adcpError?.code).toBe('PRODUCT_NOT_FOUND');
  });
});
