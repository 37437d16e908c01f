/**
 * TaskFailedError.known: the seller errors the spec gives a meaning or data for, typed, whichever
 * way they arrive. A table per code (details that match their shape, details that do not, details
 * absent); VERSION_UNSUPPORTED's release to re-pin to; IDEMPOTENCY_IN_FLIGHT's wait; any other
 * code is `undefined`. The checker's table is compared with the synced error-details schemas, so
 * it cannot drift from them.
 */
import { describe, expect, test } from 'vitest';
import { decode, safeDecode } from '../../src/decode/decode.js';
import { type AdcpError, TaskFailedError } from '../../src/errors/errors.js';
import { DETAIL_SHAPES, type DetailKind, knownSellerError } from '../../src/extract/seller-errors.js';
import { decodeWebhook } from '../../src/webhooks/decode-webhook.js';
import { WebhookTaskFailedError } from '../../src/webhooks/errors.js';
import { a2a03, jsonRpc, mcp, mcpError } from '../fixtures/envelopes.js';
import { readSchema } from '../fixtures/vectors.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { caughtAs } from '../helpers.js';

type Json = Record<string, unknown>;

function known(error: AdcpError) {
  return knownSellerError(error);
}

describe('a table per code', () => {
  test.each([
    [
      'VERSION_UNSUPPORTED with details',
      {
        code: 'VERSION_UNSUPPORTED',
        message: 'adcp_version 4.0 is not supported',
        details: { adcp_version: '4.0', supported_versions: ['3.0', '3.1'], supported_majors: [3], build_version: '3.1.4+summit.212' },
      },
      { code: 'VERSION_UNSUPPORTED', details: { supported_versions: ['3.0', '3.1'] }, commonVersion: V3_1 },
    ],
    [
      'VERSION_UNSUPPORTED with its data under `data` (versioning.mdx)',
      { code: 'VERSION_UNSUPPORTED', message: 'no', data: { supported_versions: ['3.0'] } },
      { code: 'VERSION_UNSUPPORTED', details: { supported_versions: ['3.0'] }, commonVersion: V3_0 },
    ],
    [
      'VERSION_UNSUPPORTED listing no bundled release',
      { code: 'VERSION_UNSUPPORTED', message: 'no', details: { supported_versions: ['4.0', '3.2-beta'] } },
      { code: 'VERSION_UNSUPPORTED', details: { supported_versions: ['4.0', '3.2-beta'] }, commonVersion: undefined },
    ],
    [
      'VERSION_UNSUPPORTED without supported_versions',
      { code: 'VERSION_UNSUPPORTED', message: 'no', details: { supported_majors: [3] } },
      { code: 'VERSION_UNSUPPORTED', details: undefined, commonVersion: undefined },
    ],
    [
      'VERSION_UNSUPPORTED with a patch in supported_versions',
      { code: 'VERSION_UNSUPPORTED', message: 'no', details: { supported_versions: ['3.1.2'] } },
      { code: 'VERSION_UNSUPPORTED', details: undefined, commonVersion: undefined },
    ],
    [
      'IDEMPOTENCY_CONFLICT',
      { code: 'IDEMPOTENCY_CONFLICT', message: 'key reused', recovery: 'correctable' },
      { code: 'IDEMPOTENCY_CONFLICT' },
    ],
    ['IDEMPOTENCY_EXPIRED', { code: 'IDEMPOTENCY_EXPIRED', message: 'past the replay window' }, { code: 'IDEMPOTENCY_EXPIRED' }],
    [
      'IDEMPOTENCY_IN_FLIGHT with retry_after',
      { code: 'IDEMPOTENCY_IN_FLIGHT', message: 'still running', retry_after: 2.5 },
      { code: 'IDEMPOTENCY_IN_FLIGHT', retryAfterSeconds: 3 },
    ],
    [
      'IDEMPOTENCY_IN_FLIGHT without',
      { code: 'IDEMPOTENCY_IN_FLIGHT', message: 'still running' },
      { code: 'IDEMPOTENCY_IN_FLIGHT', retryAfterSeconds: undefined },
    ],
    [
      'RATE_LIMITED',
      { code: 'RATE_LIMITED', message: 'slow down', details: { limit: 100, remaining: 0, window_seconds: 60, scope: 'account' } },
      { code: 'RATE_LIMITED', details: { limit: 100, remaining: 0, window_seconds: 60, scope: 'account' } },
    ],
    [
      'RATE_LIMITED with an unknown scope',
      { code: 'RATE_LIMITED', message: 'slow down', details: { scope: 'planet' } },
      { code: 'RATE_LIMITED', details: undefined },
    ],
    [
      'CONFLICT',
      { code: 'CONFLICT', message: 'stale', details: { resource_id: 'mb_1', expected_version: 3, current_version: '4' } },
      { code: 'CONFLICT', details: { resource_id: 'mb_1', expected_version: 3, current_version: '4' } },
    ],
    [
      'BUDGET_TOO_LOW, with a member the shape does not list',
      { code: 'BUDGET_TOO_LOW', message: 'too low', details: { minimum_budget: 25000, currency: 'USD', per: 'package' } },
      { code: 'BUDGET_TOO_LOW', details: { minimum_budget: 25000, currency: 'USD', per: 'package' } },
    ],
    [
      'BUDGET_TOO_LOW with a string budget',
      { code: 'BUDGET_TOO_LOW', message: 'too low', details: { minimum_budget: '25000' } },
      { code: 'BUDGET_TOO_LOW', details: undefined },
    ],
    [
      'AUDIENCE_TOO_SMALL without details',
      { code: 'AUDIENCE_TOO_SMALL', message: 'too small' },
      { code: 'AUDIENCE_TOO_SMALL', details: undefined },
    ],
    ['a code the spec gives nothing for', { code: 'PRODUCT_UNAVAILABLE', message: 'sold out' }, undefined],
    ['a vendor code', { code: 'X_SUMMIT_FLOOR_NOT_MET', message: 'floor' }, undefined],
  ] as const)('%s', (_name, error, expected) => {
    const got = known(error as AdcpError);
    if (expected === undefined) expect(got).toBeUndefined();
    else expect(got).toMatchObject(expected);
  });
});

describe('on the TaskFailedError, whichever way the error arrives', () => {
  const versionUnsupported = {
    code: 'VERSION_UNSUPPORTED',
    message: 'adcp_version 3.2 is not supported',
    details: { supported_versions: ['3.0', '3.1'] },
  };

  test.each([
    ['an MCP isError result', () => mcp.error(versionUnsupported)],
    ['a JSON-RPC error', () => jsonRpc.error(-32602, 'Invalid params', { adcp_error: versionUnsupported })],
    ['an McpError', () => mcpError(-32602, 'Invalid params', { adcp_error: versionUnsupported })],
    ['a failed A2A task', () => a2a03.task('failed', { adcp_error: versionUnsupported })],
  ])('%s', (_name, input) => {
    const e = caughtAs(TaskFailedError, () => decode('get_products', input()));
    expect(e.known).toEqual({ code: 'VERSION_UNSUPPORTED', details: versionUnsupported.details, commonVersion: V3_1 });
    expect(e.recovery).toEqual({ recovery: 'correctable' });
  });

  test('IDEMPOTENCY_IN_FLIGHT under 3.0 (a code 3.0 does not list): still typed, classified by the unknown-code policy', () => {
    const e = caughtAs(TaskFailedError, () =>
      decode('create_media_buy', mcp.error({ code: 'IDEMPOTENCY_IN_FLIGHT', message: 'running', retry_after: 4 }), { version: '3.0' }),
    );
    expect(e.known).toEqual({ code: 'IDEMPOTENCY_IN_FLIGHT', retryAfterSeconds: 4 });
    expect(e.recovery).toEqual({ recovery: 'transient', retryAfterSeconds: 4 });
  });

  test("a webhook's failure keeps it (WebhookTaskFailedError), with its recovery", () => {
    const body = {
      idempotency_key: 'whk_3b7e0c12d9a44f61',
      operation_id: 'op_cmb_55a1',
      task_id: 'task_cmb_88d1e0',
      task_type: 'create_media_buy',
      timestamp: '2026-07-02T14:05:00Z',
      status: 'failed',
      result: { adcp_error: { code: 'IDEMPOTENCY_EXPIRED', message: 'idempotency_key is past the 86400 s replay window' } },
    };
    const e = caughtAs(WebhookTaskFailedError, () => decodeWebhook(body));
    expect(e.known).toEqual({ code: 'IDEMPOTENCY_EXPIRED' });
    expect(e.recovery).toEqual({ recovery: 'correctable' });
  });

  test('a failure without an adcp_error knows nothing', () => {
    const r = safeDecode('get_products', jsonRpc.error(-32603, 'Internal error'));
    expect(r.success ? undefined : (r.error as TaskFailedError).known).toBeUndefined();
  });
});

describe('the shapes are the synced schemas’ own', () => {
  const files: Record<keyof typeof DETAIL_SHAPES, string> = {
    VERSION_UNSUPPORTED: 'version-unsupported.json',
    RATE_LIMITED: 'rate-limited.json',
    CONFLICT: 'conflict.json',
    BUDGET_TOO_LOW: 'budget-too-low.json',
    AUDIENCE_TOO_SMALL: 'audience-too-small.json',
  };

  /** The kind a schema member is, in the checker's terms. */
  function kindOf(member: Json): DetailKind {
    if (Array.isArray(member.enum)) return member.enum as string[];
    if (Array.isArray(member.type)) return 'number-or-string';
    if (member.type === 'array') {
      const items = member.items as Json;
      return items.type === 'integer' ? 'majors' : 'releases';
    }
    if (member.type === 'string' && typeof member.pattern === 'string') return member.pattern.includes('\\+') ? 'build' : 'release';
    if (member.type === 'integer') return 'major';
    return member.type as DetailKind;
  }

  test.each(Object.entries(files))(`%s (${V3_1}, and ${V3_0} where it has the file)`, (code, file) => {
    const shape = DETAIL_SHAPES[code as keyof typeof DETAIL_SHAPES];
    const schema = readSchema<Json>(V3_1, `error-details/${file}`);
    const members = { ...(schema.properties as Record<string, Json>) };
    // version-unsupported.json composes version-envelope.json's two members.
    if (code === 'VERSION_UNSUPPORTED') Object.assign(members, readSchema<Json>(V3_1, 'core/version-envelope.json').properties);
    expect(Object.fromEntries(Object.entries(members).map(([name, member]) => [name, kindOf(member)]))).toEqual(shape.members);
    expect(schema.required ?? []).toEqual(shape.required);
    if (code !== 'VERSION_UNSUPPORTED') expect(readSchema<Json>(V3_0, `error-details/${file}`).properties).toEqual(schema.properties);
  });
});
