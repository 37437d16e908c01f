/**
 * How `status` picks the schema and what decode() returns: async variants by `status`, A2A
 * interim (first DataPart) vs final (last DataPart), a missing status judged as sent first and
 * only then as `completed` (or the A2A state), returned unchanged either way, so that a payload
 * valid as sent is never rejected (a table over every task of both versions); an async status for
 * a task without that async schema, the A2A profile's `submitted` in a completed task, and where
 * a schema leaves `status` open, the envelope's task-status enum.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { decode, safeDecode } from '../../src/decode/decode.js';
import { SchemaMismatchError, type TaskFailedError } from '../../src/errors/errors.js';
import { tablesFor, tasks, type Version, versions } from '../../src/schema/versions.js';
import { fastValidator } from '../../src/validate/validators.js';
import { a2a03, a2a10, mcp } from '../fixtures/envelopes.js';
import { armsWithoutStatus } from '../fixtures/minimal-instances.js';
import { fixtures, payload } from '../fixtures/payloads.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { caughtAs } from '../helpers.js';

function mismatch(fn: () => unknown): SchemaMismatchError {
  return caughtAs(SchemaMismatchError, fn);
}

describe('async variants are selected by status', () => {
  test.each([
    ['working', '3.1/create_media_buy.working', `/schemas/${V3_1}/media-buy/create-media-buy-async-response-working.json`],
    ['submitted', '3.1/create_media_buy.submitted', `/schemas/${V3_1}/media-buy/create-media-buy-async-response-submitted.json`],
    [
      'input-required',
      '3.1/create_media_buy.input-required',
      `/schemas/${V3_1}/media-buy/create-media-buy-async-response-input-required.json`,
    ],
  ])('%s', (status, id, schemaId) => {
    const body = payload(id);
    const data = decode('create_media_buy', mcp.structured(body));
    expect(data).toEqual(body);
    expect(data.status).toBe(status);
    // A broken payload of that variant names the async schema it failed.
    const broken = { ...payload(id), percentage: 'half', reason: 42, task_id: 7 };
    expect(mismatch(() => decode('create_media_buy', mcp.structured(broken))).schemaId).toBe(schemaId);
  });

  test('a working payload is not held to the final response schema', () => {
    // No media_buy_id, packages or confirmed_at: fine for progress, fatal for a final response.
    expect(decode('create_media_buy', mcp.structured(payload('3.1/create_media_buy.working'))).status).toBe('working');
    const final = mismatch(() =>
      decode('create_media_buy', mcp.structured({ ...payload('3.1/create_media_buy.working'), status: 'completed' })),
    );
    expect(final.schemaId).toBe(`/schemas/${V3_1}/media-buy/create-media-buy-response.json`);
  });
});

describe('A2A: interim first DataPart, final last DataPart', () => {
  test('a working status update uses the first DataPart of status.message', () => {
    const first = payload('3.1/get_signals.working');
    const later = { status: 'working', percentage: 90, current_step: 'stale snapshot' };
    expect(decode('get_signals', a2a03.statusUpdate('working', first, later))).toEqual(first);
    expect(decode('get_signals', a2a10.statusUpdate('TASK_STATE_WORKING', first, later))).toEqual(first);
  });

  test('a completed task uses the last DataPart of artifacts[0]', () => {
    const progress = { status: 'working', percentage: 25 };
    const final = payload('3.1/get_signals.valid');
    expect(decode('get_signals', a2a03.task('completed', progress, final))).toEqual(final);
    expect(decode('get_signals', a2a10.taskEnvelope('TASK_STATE_COMPLETED', progress, final))).toEqual(final);
  });

  test('a completed task with no artifact falls back to the status message', () => {
    const final = payload('3.1/list_accounts.valid');
    const task = {
      ...a2a10.task('TASK_STATE_COMPLETED'),
      artifacts: [],
      status: { state: 'TASK_STATE_COMPLETED', message: { messageId: 'm-9', role: 'ROLE_AGENT', parts: [{ data: final }] } },
    };
    expect(decode('list_accounts', { task })).toEqual(final);
  });

  test('a final 0.3 status-update event carries the result in its status message', () => {
    const final = payload('3.1/list_accounts.valid');
    const event = { ...a2a03.statusUpdate('completed', final), final: true };
    expect(decode('list_accounts', event)).toEqual(final);
  });

  test('an { artifactUpdate } carries no task state: NO_PAYLOAD', () => {
    const update = {
      artifactUpdate: {
        taskId: 'a2a-task-5c1e9b70',
        contextId: 'a2a-ctx-0f44d2aa',
        artifact: { artifactId: 'artifact-result-1', parts: [{ data: payload('3.1/list_accounts.valid') }] },
      },
    };
    expect(safeDecode('list_accounts', update)).toMatchObject({ success: false, error: { code: 'NO_PAYLOAD' } });
  });

  test('a progress snapshot without status is judged by the A2A state and returned as sent', () => {
    const snapshot = { percentage: 40, current_step: 'reserving inventory' };
    const data = decode('create_media_buy', a2a10.statusUpdate('TASK_STATE_WORKING', snapshot));
    expect(data).toEqual(snapshot);
    expect('status' in data).toBe(false);
    // The same snapshot with an impossible percentage fails the working schema, not the final one.
    const e = mismatch(() => decode('create_media_buy', a2a10.statusUpdate('TASK_STATE_WORKING', { percentage: 400 })));
    expect(e.schemaId).toBe(`/schemas/${V3_1}/media-buy/create-media-buy-async-response-working.json`);
    expect(e.issues).toContainEqual(expect.objectContaining({ path: '/percentage', keyword: 'maximum' }));
  });

  test("the DataPart's own status wins over the A2A state (two status layers)", () => {
    // The A2A profile: an AdCP `submitted` result travels in a completed A2A task.
    const submitted = payload('3.1/update_media_buy.submitted');
    expect(decode('update_media_buy', a2a10.taskEnvelope('TASK_STATE_COMPLETED', submitted))).toEqual(submitted);
    // A business rejection: A2A completed, DataPart status rejected, returned unchanged.
    const rejected = { ...payload('3.1/create_media_buy.errors'), status: 'rejected' };
    const data = decode('create_media_buy', a2a03.task('completed', rejected));
    expect(data).toEqual(rejected);
    expect(data.status).toBe('rejected');
  });
});

describe('a missing status is judged completed and returned unchanged', () => {
  test('MCP structuredContent, 3.1', () => {
    const body = payload('3.1/get_media_buys.valid');
    delete body['status'];
    const data = decode('get_media_buys', mcp.structured(body));
    expect(data).toEqual(body);
    expect(Object.keys(data)).not.toContain('status');
  });

  test('MCP text, 3.1', () => {
    const body = payload('3.1/get_products.valid');
    delete body['status'];
    const data = decode('get_products', mcp.text(body));
    expect(data).toEqual(body);
    expect('status' in data).toBe(false);
  });

  test('3.0 payloads, which never carried status', () => {
    const body = payload('3.0/get_media_buy_delivery.valid');
    expect('status' in body).toBe(false);
    expect(decode('get_media_buy_delivery', mcp.structured(body))).toEqual(body);
  });

  test('a completed A2A task without a DataPart status', () => {
    const body = payload('3.0/list_accounts.valid');
    expect(decode('list_accounts', a2a10.taskEnvelope('TASK_STATE_COMPLETED', body))).toEqual(body);
  });

  test('the stand-in status never shows up as an issue', () => {
    const body = payload('3.1/get_products.invalid-missing-cache-scope');
    delete body['status'];
    const e = mismatch(() => decode('get_products', mcp.structured(body)));
    expect(e.issues.map((i) => i.path)).not.toContain('/status');
    expect(e.issues[0]).toMatchObject({ path: '', keyword: 'required', params: { missingProperty: 'cache_scope' } });
  });

  test("where the schema's status is not the task status (3.0 check_governance), the issue says status is missing", () => {
    const body = {
      adcp_version: '3.0',
      check_id: 'chk_20260304_0017',
      plan_id: 'plan_summit_q2',
      explanation: 'Within budget and policy.',
      expires_at: '2026-03-05T00:00:00Z',
    };
    const e = mismatch(() => decode('check_governance', mcp.structured(body)));
    expect(e).toMatchObject({ version: V3_0 });
    expect(e.issues).toEqual([expect.objectContaining({ path: '', keyword: 'required', params: { missingProperty: 'status' } })]);
    expect(e.message).toMatchInlineSnapshot(
      `"check_governance response does not match the AdCP ${V3_0} schema (1 issue); first: (root) must have required property 'status'"`,
    );
    // With its verdict it decodes.
    expect(decode('check_governance', mcp.structured({ ...body, status: 'approved' })).status).toBe('approved');
  });
});

describe('an async status for a task without that async schema', () => {
  test('get_media_buys (no async schemas) with status working is judged by its response schema', () => {
    const body = { ...payload('3.1/get_media_buys.valid'), status: 'working' };
    expect(decode('get_media_buys', mcp.structured(body))).toEqual(body);
    const e = mismatch(() => decode('get_media_buys', mcp.structured({ status: 'working', message: 'Still compiling the report' })));
    expect(e.schemaId).toBe(`/schemas/${V3_1}/media-buy/get-media-buys-response.json`);
    expect(e.issues[0]).toMatchObject({ path: '', keyword: 'required', params: { missingProperty: 'media_buys' } });
    expect(e.message).toMatchInlineSnapshot(
      `"get_media_buys response does not match the AdCP ${V3_1} schema (1 issue); first: (root) must have required property 'media_buys'"`,
    );
  });

  test('get_signals (working and submitted only) with status input-required', () => {
    expect(tablesFor(V3_1).schemaIds['get_signals']?.async['input-required']).toBeUndefined();
    const e = mismatch(() =>
      decode('get_signals', a2a10.statusUpdate('TASK_STATE_INPUT_REQUIRED', { status: 'input-required', reason: 'Which countries?' })),
    );
    expect(e.schemaId).toBe(`/schemas/${V3_1}/signals/get-signals-response.json`);
  });
});

describe("where a schema leaves status open, it is the envelope's task status", () => {
  const taskStatuses = (version: string): string[] =>
    (
      JSON.parse(readFileSync(new URL(`../../schemas/synced/schemas/${version}/enums/task-status.json`, import.meta.url), 'utf8')) as {
        enum: string[];
      }
    ).enum;

  test.each([...versions])('every %s task status is accepted on a 3.0 response without a status property', (version) => {
    for (const status of taskStatuses(version)) {
      if (status === 'working' || status === 'submitted' || status === 'input-required') continue;
      const body = { ...payload('3.0/get_media_buys.valid'), status };
      expect(safeDecode('get_media_buys', mcp.structured(body)), status).toMatchObject({ success: true, version: V3_0 });
    }
  });

  test.each([
    ['a number', 42],
    ['an unknown word', 'done'],
    ['a media-buy status on a report', 'active'],
    ['null', null],
  ])('%s is rejected', (_name, status) => {
    const body = { ...payload('3.0/get_media_buys.valid'), status };
    const e = mismatch(() => decode('get_media_buys', mcp.structured(body)));
    expect(e).toMatchObject({ version: V3_0, schemaId: `/schemas/${V3_0}/media-buy/get-media-buys-response.json` });
    expect(e.issues).toEqual([
      {
        path: '/status',
        keyword: 'enum',
        params: { allowedValues: taskStatuses(V3_0) },
        schemaPath: `/schemas/${V3_0}/core/protocol-envelope.json#/properties/status`,
        message: 'must be equal to one of the allowed values',
      },
    ]);
  });

  test('the message', () => {
    const e = mismatch(() => decode('get_media_buys', mcp.structured({ ...payload('3.0/get_media_buys.valid'), status: 42 })));
    expect(e.message).toMatchInlineSnapshot(
      `"get_media_buys response does not match the AdCP ${V3_0} schema (1 issue); first: /status must be equal to one of the allowed values"`,
    );
  });

  test('a status the schema itself lists passes (3.0 media-buy status, 3.0 governance verdict)', () => {
    const created = payload('3.0/create_media_buy.valid');
    expect(created['status']).toBe('pending_creatives');
    expect(decode('create_media_buy', mcp.structured(created))).toEqual(created);
    const verdict = {
      check_id: 'chk_1',
      plan_id: 'plan_1',
      status: 'denied',
      explanation: 'Over the daily cap.',
      findings: [{ category_id: 'budget', severity: 'critical', explanation: 'Over cap' }],
    };
    const r = safeDecode('check_governance', mcp.structured(verdict), { version: '3.0' });
    if (!r.success) expect.fail(r.error.message);
  });

  test('3.1 check_governance has no status of its own: a 3.0 verdict there is not a task status', () => {
    const body = {
      check_id: 'chk_1',
      verdict: 'approved',
      status: 'approved',
      plan_id: 'plan_1',
      explanation: 'ok',
      expires_at: '2026-03-05T00:00:00Z',
    };
    const e = mismatch(() => decode('check_governance', mcp.structured(body)));
    expect(e).toMatchObject({ version: V3_1 });
    expect(e.issues[0]).toMatchObject({ path: '/status', keyword: 'enum' });
    expect(decode('check_governance', mcp.structured({ ...body, status: 'completed' })).status).toBe('completed');
  });
});

/** An answer holding a seller error in errors[0] and nothing of a response: only the version and the caller's context besides. */
function errorsOnly(body: Record<string, unknown>): boolean {
  return typeof firstErrorCode(body) === 'string' && Object.keys(body).every((k) => ['errors', 'adcp_version', 'context'].includes(k));
}

function firstErrorCode(body: Record<string, unknown>): unknown {
  const errors = body['errors'];
  return Array.isArray(errors) && typeof errors[0] === 'object' && errors[0] !== null
    ? (errors[0] as Record<string, unknown>)['code']
    : undefined;
}

describe('a payload valid as sent, without status, is never rejected', () => {
  const release = (version: Version): string => version.split('.').slice(0, 2).join('.');
  /**
   * Payloads without status for a task: one generated per arm of its response schema (only
   * required members, see minimal-instances.ts), error-only payloads, and every fixture of the
   * task with its status taken out. Whether each is valid as sent, or only with the stand-in
   * status, is the generated validator's word.
   */
  function candidates(version: Version, task: string): Array<Record<string, unknown>> {
    const errorOnly = [
      { errors: [{ code: 'INVALID_REQUEST', message: 'The brief is empty.' }] },
      {
        adcp_version: release(version),
        errors: [{ code: 'SERVICE_UNAVAILABLE', message: 'Inventory service is down.', recovery: 'transient', retry_after: 30 }],
        context: { trace_id: 'trc_71b2' },
      },
    ];
    const fromFixtures = fixtures
      .filter((f) => f.version === version && f.task === task)
      .map((f) => {
        const body = f.payload;
        delete body['status'];
        return body;
      });
    return [...armsWithoutStatus(tablesFor(version).schemaIds[task]!.response), ...errorOnly, ...fromFixtures];
  }
  const table = versions.flatMap((version) => tasks(version).map((task) => [version, task] as const));
  const judge = (version: Version, task: string, body: Record<string, unknown>) => {
    const validate = fastValidator(version, task, 'response')!;
    return { asSent: validate(body), withStandIn: validate({ ...body, status: 'completed' }) };
  };

  test.each(table)('%s %s: accepted exactly when valid as sent or with the stand-in, and returned as sent', (version, task) => {
    for (const body of candidates(version, task)) {
      const { asSent, withStandIn } = judge(version, task, body);
      for (const input of [mcp.structured(body), mcp.text(body), a2a10.taskEnvelope('TASK_STATE_COMPLETED', body)]) {
        const result = safeDecode(task as 'get_products', input, { version });
        const shown = JSON.stringify(body).slice(0, 160);
        if (asSent || withStandIn) {
          if (!result.success) expect.fail(`${shown} (valid ${asSent ? 'as sent' : 'with the stand-in'}): ${result.error.message}`);
          expect(result.data).toEqual(body);
        } else if (!result.success) {
          // An answer that is not the response but carries errors[] reports the seller's errors[0]
          // (transport-errors.mdx, detection step 6); an errors-only answer always does.
          if (errorsOnly(body)) expect(result.error.code, shown).toBe('TASK_FAILED');
          if (result.error.code === 'TASK_FAILED') expect((result.error as TaskFailedError).adcpError?.code).toBe(firstErrorCode(body));
          else expect(result.error.code, shown).toBe('SCHEMA_MISMATCH');
        } else expect.fail(`${shown}: decoded, but its schema rejects it`);
      }
      if (asSent || withStandIn) {
        // structuredContent comes back as the plain copy that was validated, equal to what was sent.
        const data = decode(task as 'get_products', mcp.structured(body), { version });
        expect(data).toEqual(body);
        expect(data).not.toBe(body);
      }
    }
  });

  test('the table reaches every arm that forbids status, and nearly every task', () => {
    const reached = (which: 'asSent' | 'withStandIn') =>
      table
        .filter(([version, task]) => candidates(version, task).some((body) => judge(version, task, body)[which]))
        .map(([v, t]) => `${v} ${t}`);
    const asSent = reached('asSent');
    const eitherWay = new Set([...asSent, ...reached('withStandIn')]);
    expect(asSent).toEqual(expect.arrayContaining([`${V3_0} acquire_rights`, `${V3_0} creative_approval`]));
    // 3.1 requires status in nearly every response: valid as sent is mostly a 3.0 matter.
    expect(asSent.filter((t) => t.startsWith(V3_0)).length).toBeGreaterThanOrEqual(54);
    expect(eitherWay.size).toBeGreaterThanOrEqual(115);
  });

  /**
   * Our own error-only answers of arms that forbid status (test/fixtures/no-status, kept apart from
   * test/fixtures/payloads so that the fuzzer's seeded cases, drawn from that folder, stay the same).
   */
  const noStatus = (task: 'acquire_rights' | 'creative_approval'): Record<string, unknown> =>
    JSON.parse(readFileSync(new URL(`../fixtures/no-status/3.0/${task}.errors.json`, import.meta.url), 'utf8')) as Record<string, unknown>;

  test.each([['acquire_rights'], ['creative_approval']] as const)(
    `${V3_0} %s: an error-only answer of an arm that forbids status`,
    (task) => {
      const body = noStatus(task);
      expect('status' in body).toBe(false);
      const validate = fastValidator(V3_0, task, 'response')!;
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
      // With the stand-in status the arm fails: that payload was rejected before.
      expect(validate({ ...body, status: 'completed' })).toBe(false);
      expect(safeDecode(task, mcp.structured(body))).toEqual({ success: true, data: body, version: V3_0 });
      expect(decode(task, a2a03.task('completed', body))).toEqual(body);
      expect(decode(task, mcp.text(body))).toEqual(body);
    },
  );

  test('an invalid error-only answer reports the payload as sent: no issue about a status it never sent', () => {
    const body = { ...noStatus('acquire_rights'), errors: [{ message: 'no code' }] };
    const e = mismatch(() => decode('acquire_rights', mcp.structured(body)));
    expect(e.issues).toContainEqual(
      expect.objectContaining({ path: '/errors/0', keyword: 'required', params: { missingProperty: 'code' } }),
    );
    expect(e.issues.filter((i) => i.path === '/status')).toEqual([]);
  });
});
