/**
 * TASK_FAILED: a seller's failure, whichever way it arrives (McpError, raw JSON-RPC error, MCP
 * isError results, an adcp_error without the flag, failed / rejected / canceled A2A tasks, a
 * payload carrying adcp_error), with the extracted adcpError as sent and its recovery
 * classification per the version's manifest, the unknown-code policy and the seller's own
 * `recovery`; and the payload's errors[0] as the error when the envelope has no adcp_error
 * (transport-errors.mdx detection step 6).
 */
import { describe, expect, test } from 'vitest';
import { type DecodeOptions, decode, safeDecode } from '../../src/decode/decode.js';
import { TaskFailedError } from '../../src/errors/errors.js';
import { a2a03, a2a10, jsonRpc, mcp, mcpError } from '../fixtures/envelopes.js';
import { payload } from '../fixtures/payloads.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { failureOf } from '../helpers.js';

function failure(task: Parameters<typeof decode>[0], input: unknown, options?: DecodeOptions): TaskFailedError {
  const error = failureOf(task, input, options);
  expect(error).toBeInstanceOf(TaskFailedError);
  return error as TaskFailedError;
}

const budgetTooLow = {
  code: 'BUDGET_TOO_LOW',
  message: 'Package budget 5000 USD is below the 25000 USD minimum.',
  field: 'packages[0].budget',
};

describe('JSON-RPC errors', () => {
  test('McpError -32029 with data.adcp_error', () => {
    const adcpError = { code: 'RATE_LIMITED', message: 'Too many get_products calls', retry_after: 30, recovery: 'transient' };
    const e = failure('get_products', mcpError(-32029, 'Rate limit exceeded', { adcp_error: adcpError }));
    expect(e).toMatchObject({ task: 'get_products', version: V3_1, recovery: { recovery: 'transient', retryAfterSeconds: 30 } });
    expect(e.adcpError).toEqual(adcpError);
  });

  test('McpError without data: no adcp_error, classified by the unknown-code policy', () => {
    const e = failure('get_media_buys', mcpError(-32603, 'Internal error'));
    expect(e).toMatchObject({ adcpError: undefined, recovery: { recovery: 'transient' }, version: V3_1 });
    expect(e.message).toMatchInlineSnapshot(
      `"get_media_buys failed: the seller answered with JSON-RPC error -32603 with no adcp_error (transient); the seller said "Internal error""`,
    );
    expect(failure('get_media_buys', mcpError(-32603, 'Internal error'), { unknownRecovery: 'terminal' }).recovery).toEqual({
      recovery: 'terminal',
    });
  });

  test('a raw JSON-RPC error response with adcp_error (-32028 AUTH_MISSING)', () => {
    const e = failure(
      'list_accounts',
      jsonRpc.error(-32028, 'Unauthorized', { adcp_error: { code: 'AUTH_MISSING', message: 'No bearer token' } }),
    );
    expect(e).toMatchObject({ adcpError: { code: 'AUTH_MISSING', message: 'No bearer token' }, recovery: { recovery: 'correctable' } });
    expect(e.message).toMatchInlineSnapshot(
      `"list_accounts failed: the seller answered with an AdCP error with error code "AUTH_MISSING" (correctable); the seller said "No bearer token""`,
    );
  });

  test('a raw JSON-RPC error whose data is a string', () => {
    const e = failure('list_accounts', {
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32027, message: 'Service unavailable', data: 'upstream down' },
    });
    expect(e.adcpError).toBeUndefined();
  });

  test('a JSON-RPC error under an explicit 3.0 is judged by the 3.0 manifest', () => {
    // AUTH_INVALID is in the 3.1 manifest (terminal) but not in 3.0's: there it is an unknown code.
    const rpc = jsonRpc.error(-32028, 'Unauthorized', { adcp_error: { code: 'AUTH_INVALID' } });
    expect(failure('list_accounts', rpc)).toMatchObject({ version: V3_1, recovery: { recovery: 'terminal' } });
    expect(failure('list_accounts', rpc, { version: '3.0' })).toMatchObject({ version: V3_0, recovery: { recovery: 'transient' } });
    expect(failure('list_accounts', rpc, { version: '3.0', unknownRecovery: 'terminal' }).recovery).toEqual({ recovery: 'terminal' });
  });
});

describe('MCP isError results', () => {
  test('adcp_error in structuredContent and text', () => {
    const e = failure('create_media_buy', mcp.error({ code: 'PRODUCT_UNAVAILABLE', message: 'trailhead_ctv_prime_q2 sold out for Q2' }));
    expect(e).toMatchObject({ adcpError: { code: 'PRODUCT_UNAVAILABLE' }, recovery: { recovery: 'correctable' } });
    expect(e.message).toMatchInlineSnapshot(
      `"create_media_buy failed: the seller answered with an AdCP error with error code "PRODUCT_UNAVAILABLE" (correctable); the seller said "trailhead_ctv_prime_q2 sold out for Q2""`,
    );
  });

  test('adcp_error only in the text (older server)', () => {
    const e = failure('create_media_buy', mcp.errorText({ code: 'ACCOUNT_SUSPENDED', message: 'Account on hold' }));
    expect(e).toMatchObject({ adcpError: { code: 'ACCOUNT_SUSPENDED' }, recovery: { recovery: 'terminal' } });
  });

  test.each([
    ['the string "true"', 'true'],
    ['the string "false" (truthy, as the spec guard reads it)', 'false'],
    ['the number 1', 1],
  ])('isError as %s', (_name, flag) => {
    const e = failure('create_media_buy', mcp.error({ code: 'SERVICE_UNAVAILABLE' }, flag));
    expect(e).toMatchObject({ adcpError: { code: 'SERVICE_UNAVAILABLE' }, recovery: { recovery: 'transient' } });
  });

  test('isError with a success payload is still a failure (type confusion guard)', () => {
    const e = failure('get_products', { isError: true, content: [], structuredContent: payload('3.1/get_products.valid') });
    expect(e).toMatchObject({ adcpError: undefined, recovery: { recovery: 'transient' } });
    expect(e.message).toMatchInlineSnapshot(`"get_products failed: the seller set isError with no adcp_error (transient)"`);
  });

  test('an adcp_error-only structuredContent without the isError flag', () => {
    const e = failure('get_signals', {
      content: [{ type: 'text', text: 'Rate limited' }],
      structuredContent: { adcp_error: { code: 'RATE_LIMITED', retry_after: 2 } },
    });
    expect(e).toMatchObject({
      adcpError: { code: 'RATE_LIMITED', retry_after: 2 },
      recovery: { recovery: 'transient', retryAfterSeconds: 2 },
    });
    expect(e.message).toMatchInlineSnapshot(
      `"get_signals failed: the seller answered with an adcp_error but no isError flag with error code "RATE_LIMITED" (transient, retry after 2 s); the seller said "Rate limited""`,
    );
  });

  test('an invalid adcp_error (numeric code) is "no structured error"', () => {
    const e = failure('get_signals', mcp.error({ code: 404, message: 'not found' }));
    expect(e.adcpError).toBeUndefined();
    expect(e.message).toMatchInlineSnapshot(
      `"get_signals failed: the seller set isError with an unusable adcp_error (code-not-string) (transient)"`,
    );
  });
});

describe("the payload's errors[0] when the envelope has no adcp_error (detection step 6)", () => {
  test('isError with a failed create_media_buy in structuredContent', () => {
    const body = payload('3.1/create_media_buy.errors');
    const e = failure('create_media_buy', {
      isError: true,
      content: [{ type: 'text', text: 'Media buy rejected.' }],
      structuredContent: body,
    });
    expect(e.adcpError).toEqual((body['errors'] as unknown[])[0]); // a plain copy, read once
    // Correctable, as the seller said, not the unknown-code default (transient: retry as is).
    expect(e.recovery).toEqual({ recovery: 'correctable' });
    expect(e).toMatchObject({ version: V3_1 });
    expect(e.message).toMatchInlineSnapshot(
      `"create_media_buy failed: the seller set isError with error code "BUDGET_TOO_LOW" from the payload's errors[0] (correctable); the seller said "Package pkg_ctv_prime_01 budget 5000 USD is below the 25000 USD minimum for this product.""`,
    );
  });

  test('isError with the failed payload only in the text', () => {
    const e = failure('create_media_buy', {
      isError: true,
      content: [
        { type: 'text', text: 'Rejected.' },
        { type: 'text', text: JSON.stringify({ status: 'failed', errors: [budgetTooLow] }) },
      ],
    });
    expect(e.adcpError).toEqual(budgetTooLow);
    expect(e.recovery).toEqual({ recovery: 'correctable' });
  });

  test('a failed A2A task whose DataPart has errors[] but no adcp_error', () => {
    const e = failure('activate_signal', a2a10.taskEnvelope('TASK_STATE_FAILED', payload('3.0/activate_signal.errors')), {
      version: '3.0',
    });
    expect(e).toMatchObject({ version: V3_0, adcpError: { code: 'SIGNAL_NOT_FOUND' }, recovery: { recovery: 'correctable' } });
    expect(e.message).toMatchInlineSnapshot(
      `"activate_signal failed: the A2A task ended in state failed with error code "SIGNAL_NOT_FOUND" from the payload's errors[0] (correctable); the seller said "Segment hhi_parents_5_17_uk is not available to this account.""`,
    );
  });

  test('an errors[0] without a string code is not used', () => {
    const e = failure('create_media_buy', { isError: true, content: [], structuredContent: { errors: [{ message: 'no code' }] } });
    expect(e.adcpError).toBeUndefined();
  });

  test('a present but invalid adcp_error ends detection before errors[0]', () => {
    const e = failure('create_media_buy', {
      isError: true,
      content: [],
      structuredContent: { adcp_error: { code: '' }, errors: [budgetTooLow] },
    });
    expect(e.adcpError).toBeUndefined();
  });

  test('errors[] in a successful payload are warnings, not a failure', () => {
    const body = {
      ...payload('3.1/get_products.valid'),
      errors: [{ code: 'PRODUCT_EXPIRED', message: 'One product dropped: expired.' }],
    };
    expect(decode('get_products', mcp.structured(body))).toEqual(body);
  });
});

describe('A2A failures', () => {
  test('a failed 0.3 task with an adcp_error artifact', () => {
    const e = failure(
      'create_media_buy',
      a2a03.task('failed', { adcp_error: { code: 'BUDGET_EXHAUSTED', message: 'Account budget fully spent' } }),
    );
    expect(e).toMatchObject({ adcpError: { code: 'BUDGET_EXHAUSTED' }, recovery: { recovery: 'terminal' } });
  });

  test('a rejected 1.0 task with adcp_error', () => {
    const e = failure(
      'create_media_buy',
      a2a10.taskEnvelope('TASK_STATE_REJECTED', { adcp_error: { code: 'POLICY_VIOLATION', message: 'Category not accepted' } }),
    );
    expect(e).toMatchObject({ adcpError: { code: 'POLICY_VIOLATION' }, recovery: { recovery: 'correctable' } });
  });

  test('a canceled task without data', () => {
    const e = failure('build_creative', a2a10.taskEnvelope('TASK_STATE_CANCELED'));
    expect(e.adcpError).toBeUndefined();
    expect(e.message).toMatchInlineSnapshot(
      `"build_creative failed: the A2A task ended in state canceled with no adcp_error (terminal); the seller said "Task finished.""`,
    );
  });

  test('a failed task whose adcp_error is unusable, with errors[] beside it', () => {
    const e = failure('create_media_buy', a2a03.task('failed', { adcp_error: { code: 'x'.repeat(65) }, errors: [budgetTooLow] }));
    expect(e.adcpError).toBeUndefined();
    expect(e.message).toMatchInlineSnapshot(
      `"create_media_buy failed: the A2A task ended in state failed with an unusable adcp_error (code-too-long) (transient); the seller said "Task finished.""`,
    );
  });

  test('an adcp_error in an interim status message', () => {
    const e = failure(
      'sync_creatives',
      a2a10.statusUpdate('TASK_STATE_INPUT_REQUIRED', { adcp_error: { code: 'CREATIVE_REJECTED', message: 'Logo too small' } }),
    );
    expect(e).toMatchObject({ adcpError: { code: 'CREATIVE_REJECTED' }, recovery: { recovery: 'correctable' } });
  });
});

describe('an adcp_error inside the payload', () => {
  test('a completed payload carrying adcp_error (two-layer model)', () => {
    const body = { ...payload('3.1/create_media_buy.errors'), adcp_error: budgetTooLow };
    const e = failure('create_media_buy', mcp.structured(body));
    expect(e).toMatchObject({ adcpError: budgetTooLow, recovery: { recovery: 'correctable' }, version: V3_1 });
    expect(e.message).toMatchInlineSnapshot(
      `"create_media_buy failed: the structuredContent carries an adcp_error with error code "BUDGET_TOO_LOW" (correctable); the seller said "Package budget 5000 USD is below the 25000 USD minimum.""`,
    );
  });

  test('judged by the version the payload announces', () => {
    const body = { adcp_version: '3.0', errors: [budgetTooLow], adcp_error: { code: 'AUTH_INVALID' } };
    expect(failure('create_media_buy', mcp.structured(body))).toMatchObject({ version: V3_0, recovery: { recovery: 'transient' } });
  });

  test('reported even when the announced version is not bundled', () => {
    const body = { adcp_version: '4.0', adcp_error: { code: 'VERSION_UNSUPPORTED', message: 'Pin 3.x' } };
    expect(failure('create_media_buy', mcp.structured(body))).toMatchObject({ version: V3_1, recovery: { recovery: 'correctable' } });
  });

  test('with transport: payload', () => {
    const e = failure('get_signals', { adcp_error: { code: 'SIGNAL_NOT_FOUND' }, status: 'failed' }, { transport: 'payload' });
    expect(e.adcpError).toEqual({ code: 'SIGNAL_NOT_FOUND' });
  });
});

describe('recovery classification', () => {
  test('an unknown code without recovery: the manifest default (transient), or terminal on request', () => {
    const input = mcp.error({ code: 'SELLER_SPECIFIC_QUOTA', message: 'Daily quota used' });
    expect(failure('get_products', input).recovery).toEqual({ recovery: 'transient' });
    expect(failure('get_products', input, { unknownRecovery: 'terminal' }).recovery).toEqual({ recovery: 'terminal' });
    expect(failure('get_products', input, { unknownRecovery: 'correctable' }).recovery).toEqual({ recovery: 'correctable' });
  });

  test("the seller's own recovery wins over the table", () => {
    expect(failure('get_products', mcp.error({ code: 'RATE_LIMITED', recovery: 'terminal' })).recovery).toEqual({ recovery: 'terminal' });
  });

  test('an unknown recovery value is kept as sent and classified terminal', () => {
    const e = failure('get_products', mcp.error({ code: 'RATE_LIMITED', recovery: 'retry-later', retry_after: 5 }));
    expect(e.adcpError?.recovery).toBe('retry-later');
    expect(e.recovery).toEqual({ recovery: 'terminal' });
    expect(e.message).toMatchInlineSnapshot(
      `"get_products failed: the seller answered with an AdCP error with error code "RATE_LIMITED" (terminal)"`,
    );
  });

  test('retry_after is clamped for the action, kept as sent on the error', () => {
    const e = failure('get_products', mcp.error({ code: 'RATE_LIMITED', retry_after: 86400 }));
    expect(e.adcpError?.retry_after).toBe(86400);
    expect(e.recovery).toEqual({ recovery: 'transient', retryAfterSeconds: 3600 });
  });
});

describe('a JSON-RPC error without adcp_error', () => {
  test.each([
    [-32029, 'transient', 'RATE_LIMITED'],
    [-32028, 'correctable', 'AUTH_MISSING'],
    [-32027, 'transient', 'SERVICE_UNAVAILABLE'],
  ])('reserved code %i is classified as the AdCP error it stands for', (code, recovery, adcpCode) => {
    const r = safeDecode('get_products', { jsonrpc: '2.0', id: 7, error: { code, message: 'rejected before dispatch' } });
    expect(r.success).toBe(false);
    if (r.success || !(r.error instanceof TaskFailedError)) throw new Error('expected TASK_FAILED');
    expect(r.error.adcpError).toBeUndefined();
    expect(r.error.recovery).toEqual({ recovery });
    expect(r.error.message).toContain(adcpCode);
  });

  test('any other code follows the unknown-code policy', () => {
    const r = safeDecode(
      'get_products',
      { jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'internal' } },
      { unknownRecovery: 'terminal' },
    );
    if (r.success || !(r.error instanceof TaskFailedError)) throw new Error('expected TASK_FAILED');
    expect(r.error.recovery).toEqual({ recovery: 'terminal' });
    expect(r.error.message).toMatchInlineSnapshot(
      `"get_products failed: the seller answered with JSON-RPC error -32603 with no adcp_error (terminal); the seller said "internal""`,
    );
  });
});
