/**
 * decodeWebhook and the webhook payload layer: the 12 extraction vectors, the receiver-envelope
 * vectors, the envelope tables against the synced schemas, and result decoding by task type and status.
 */
import { describe, expect, test } from 'vitest';
import { SchemaMismatchError, TaskFailedError } from '../../src/errors/errors.js';
import { versions } from '../../src/schema/versions.js';
import {
  validateWebhookEnvelope,
  WEBHOOK_PROTOCOLS,
  WEBHOOK_REQUIRED,
  WEBHOOK_STATUSES,
  WEBHOOK_TASK_TYPES,
} from '../../src/webhooks/envelope.js';
import {
  createWebhookReceiver,
  decodeWebhook,
  detectWebhookFormat,
  extractWebhookPayload,
  WebhookError,
} from '../../src/webhooks/index.js';
import { payload } from '../fixtures/payloads.js';
import { readSchema, readVector } from '../fixtures/vectors.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { caughtAs } from '../helpers.js';
import { BUYER_ORIGIN, completedBody, ed25519, HOOK_URL, resolver } from './fixtures.js';
import { signWebhook } from './signer.js';

interface ExtractionVector {
  id: string;
  format: 'mcp' | 'a2a';
  payload: Record<string, unknown>;
  expected_format: 'mcp' | 'a2a';
  expected_data: unknown;
}

const extraction = readVector<{ vectors: ExtractionVector[] }>('webhook-payload-extraction.json').vectors;

describe('webhook-payload-extraction.json', () => {
  test('holds the 12 vectors the issue counts', () => expect(extraction).toHaveLength(12));
  for (const v of extraction) {
    test(`${v.id}: detected format and extracted data`, () => {
      expect(detectWebhookFormat(v.payload)).toBe(v.expected_format);
      expect(extractWebhookPayload(v.payload)).toEqual({ format: v.expected_format, data: v.expected_data });
      // With the format known from the registration, the same data comes out.
      expect(extractWebhookPayload(v.payload, v.format).data).toEqual(v.expected_data);
    });
  }
  test('a body that is neither format is refused with webhook_envelope_invalid', () => {
    const error = caughtAs(Error, () => extractWebhookPayload({ media_buy_id: 'mb_1' }));
    expect(error).toBeInstanceOf(WebhookError);
    expect((error as WebhookError).webhookCode).toBe('webhook_envelope_invalid');
    expect((error as WebhookError).httpStatus).toBe(400);
  });
});

interface EnvelopeVector {
  id: string;
  payload: Record<string, unknown>;
  expected_error?: string;
}

const envelopes = readVector<{ positive: EnvelopeVector[]; negative: EnvelopeVector[] }>('webhook-receiver-envelope.json');

/** The vector's error names, as the field our error names: each negative vector says what is wrong where. */
const EXPECTED_PATH: Record<string, string> = {
  missing_envelope_fields: '/idempotency_key',
  missing_idempotency_key: '/idempotency_key',
  invalid_envelope_status: '/status',
};

describe('webhook-receiver-envelope.json', () => {
  for (const v of envelopes.positive) {
    test(`${v.id}: accepted, result decoded as a delivery report`, () => {
      const hook = decodeWebhook(JSON.stringify(v.payload), { format: 'mcp' });
      expect(hook.taskType).toBe('media_buy_delivery');
      expect(hook.idempotencyKey).toBe(v.payload.idempotency_key);
      expect(hook.status).toBe('completed');
      expect(hook.data).toStrictEqual(JSON.parse(JSON.stringify(v.payload.result)));
    });
  }
  test('the retry keeps the same idempotency_key as the event it repeats', () => {
    const [first, retry] = envelopes.positive;
    expect(decodeWebhook(retry!.payload).idempotencyKey).toBe(decodeWebhook(first!.payload).idempotencyKey);
  });
  for (const v of envelopes.negative) {
    test(`${v.id}: refused before dispatch (${v.expected_error})`, () => {
      const error = caughtAs(Error, () => decodeWebhook(JSON.stringify(v.payload), { format: 'mcp' }));
      expect(error).toBeInstanceOf(WebhookError);
      expect((error as WebhookError).webhookCode).toBe('webhook_envelope_invalid');
      expect((error as WebhookError).path).toBe(EXPECTED_PATH[v.expected_error ?? '']);
      if (v.expected_error === 'missing_envelope_fields') expect((error as Error).message).toContain('a bare task result');
    });
  }
});

describe('envelope tables match core/mcp-webhook-payload.json of every bundled version', () => {
  for (const version of versions) {
    test(version, () => {
      const schema = readSchema<{ required: string[] }>(version, 'core/mcp-webhook-payload.json');
      expect([...WEBHOOK_REQUIRED[version]]).toEqual(schema.required);
      expect([...WEBHOOK_TASK_TYPES[version]]).toEqual(readSchema<{ enum: string[] }>(version, 'enums/task-type.json').enum);
      expect([...WEBHOOK_PROTOCOLS[version]]).toEqual(readSchema<{ enum: string[] }>(version, 'enums/adcp-protocol.json').enum);
      expect([...WEBHOOK_STATUSES]).toEqual(readSchema<{ enum: string[] }>(version, 'enums/task-status.json').enum);
    });
  }
});

const base = {
  idempotency_key: 'whk_9f2c1e7a4b8d4c0e',
  operation_id: 'op_7d1e',
  task_id: 'task_create_001',
  task_type: 'create_media_buy',
  timestamp: '2026-04-18T10:00:00Z',
};
const confirmed = {
  media_buy_id: 'mb_42',
  media_buy_status: 'active',
  confirmed_at: '2026-04-18T09:59:00Z',
  revision: 1,
  packages: [{ package_id: 'pkg_1', status: 'active' }],
};

describe('decodeWebhook decodes result by task_type and status', () => {
  test('completed create_media_buy: typed data', () => {
    const hook = decodeWebhook({ ...base, status: 'completed', result: confirmed });
    expect(hook.format).toBe('mcp');
    if (hook.taskType !== 'create_media_buy') throw new Error('narrowing failed');
    expect(hook.data).toEqual(confirmed);
    expect(hook.taskId).toBe('task_create_001');
    expect(hook.operationId).toBe('op_7d1e');
  });
  test('working: the async working variant validates the progress result', () => {
    const hook = decodeWebhook({ ...base, status: 'working', result: { percentage: 40, current_step: 'trafficking' } });
    expect(hook.status).toBe('working');
    expect(hook.data).toEqual({ percentage: 40, current_step: 'trafficking' });
  });
  test('working without a result: data null', () => {
    expect(decodeWebhook({ ...base, status: 'working' }).data).toBeNull();
  });
  test('failed with adcp_error: TaskFailedError with the seller error and its recovery', () => {
    const error = caughtAs(Error, () =>
      decodeWebhook({ ...base, status: 'failed', result: { adcp_error: { code: 'BUDGET_TOO_LOW', message: 'raise the budget' } } }),
    );
    expect(error).toBeInstanceOf(TaskFailedError);
    expect((error as TaskFailedError).adcpError?.code).toBe('BUDGET_TOO_LOW');
    expect((error as TaskFailedError).recovery.recovery).toBe('correctable');
    expect((error as TaskFailedError).task).toBe('create_media_buy');
  });
  test('completed without a result: NO_PAYLOAD', () => {
    expect(caughtAs(Error, () => decodeWebhook({ ...base, status: 'completed' }))).toMatchObject({ code: 'NO_PAYLOAD' });
  });
  test('a result that does not match the task schema: SCHEMA_MISMATCH with a path into the result', () => {
    const error = caughtAs(Error, () => decodeWebhook({ ...base, status: 'completed', result: { ...confirmed, revision: 'one' } }));
    expect(error).toBeInstanceOf(SchemaMismatchError);
    expect((error as SchemaMismatchError).issues.some((i) => i.path.startsWith('/'))).toBe(true);
  });
  test('a route registered for another task refuses the envelope', () => {
    const error = caughtAs(Error, () => decodeWebhook({ ...base, status: 'completed', result: confirmed }, { taskType: 'sync_creatives' }));
    expect(error).toMatchObject({ webhookCode: 'webhook_envelope_invalid', path: '/task_type' });
  });
  test('3.0 does not require operation_id; 3.1 does', () => {
    const { operation_id: _, ...without } = base;
    expect(caughtAs(Error, () => validateWebhookEnvelope({ ...without, status: 'completed' }, V3_1))).toMatchObject({
      path: '/operation_id',
    });
    expect(validateWebhookEnvelope({ ...without, status: 'completed' }, V3_0).operationId).toBeUndefined();
  });
  test('envelope field types, idempotency_key charset and timestamp are checked', () => {
    expect(caughtAs(Error, () => validateWebhookEnvelope({ ...base, status: 'completed', idempotency_key: 'short' }, V3_1))).toMatchObject({
      path: '/idempotency_key',
    });
    expect(
      caughtAs(Error, () => validateWebhookEnvelope({ ...base, status: 'completed', idempotency_key: 'whk 9f2c1e7a4b8d4c0e' }, V3_1)),
    ).toMatchObject({ path: '/idempotency_key' });
    expect(
      caughtAs(Error, () => validateWebhookEnvelope({ ...base, status: 'completed', timestamp: '2026-02-30T10:00:00Z' }, V3_1)),
    ).toMatchObject({ path: '/timestamp' });
    expect(
      caughtAs(Error, () => validateWebhookEnvelope({ ...base, status: 'completed', task_type: 'get_media_buys' }, V3_1)),
    ).toMatchObject({ path: '/task_type' });
    expect(caughtAs(Error, () => validateWebhookEnvelope({ ...base, status: 'completed', result: [] }, V3_1))).toMatchObject({
      path: '/result',
    });
  });
  test('raw text: duplicate keys refused before parsing, with sanitized names', () => {
    const text = `{"idempotency_key":"whk_9f2c1e7a4b8d4c0e","status":"completed","status":"failed","task_id":"t","task_id":"u"}`;
    const error = caughtAs(Error, () => decodeWebhook(text));
    expect(error).toMatchObject({ webhookCode: 'webhook_body_malformed', duplicateKeys: ['status', 'task_id'] });
  });
  test('raw text: __proto__ keys are UNSAFE_JSON, invalid UTF-8 and invalid JSON are INVALID_JSON', () => {
    expect(caughtAs(Error, () => decodeWebhook('{"__proto__":{"x":1}}'))).toMatchObject({ code: 'UNSAFE_JSON' });
    expect(caughtAs(Error, () => decodeWebhook(new Uint8Array([0x7b, 0xff, 0x7d])))).toMatchObject({ code: 'INVALID_JSON' });
    expect(caughtAs(Error, () => decodeWebhook('{"task_id":'))).toMatchObject({ code: 'INVALID_JSON' });
  });
  test('raw text over maxBytes: webhook_body_too_large (413) before parsing', () => {
    const text = JSON.stringify({ ...base, status: 'completed', result: confirmed });
    expect(caughtAs(Error, () => decodeWebhook(text, { maxBytes: 64 }))).toMatchObject({
      webhookCode: 'webhook_body_too_large',
      httpStatus: 413,
    });
  });
  test('A2A push bodies go through the A2A extraction and need the registered task type', () => {
    const task = {
      id: 'task_a2a',
      status: { state: 'completed' },
      artifacts: [{ artifactId: 'r', parts: [{ kind: 'data', data: confirmed }] }],
    };
    expect(caughtAs(Error, () => decodeWebhook(task))).toMatchObject({ code: 'INVALID_OPTION' });
    const hook = decodeWebhook({ task }, { taskType: 'create_media_buy' });
    expect(hook).toMatchObject({ format: 'a2a', taskId: 'task_a2a', status: 'completed', idempotencyKey: undefined, data: confirmed });
    const working = decodeWebhook({ id: 'task_a2a', status: { state: 'working' } }, { taskType: 'create_media_buy' });
    expect(working.data).toBeNull();
    const failed = caughtAs(Error, () =>
      decodeWebhook(
        {
          id: 't',
          status: { state: 'failed' },
          artifacts: [{ artifactId: 'e', parts: [{ kind: 'data', data: { adcp_error: { code: 'RATE_LIMITED' } } }] }],
        },
        { taskType: 'create_media_buy' },
      ),
    );
    expect(failed).toBeInstanceOf(TaskFailedError);
  });
});

describe("3.1's delivery reports are judged by the schema its task-type enum names for them", () => {
  /** A scheduled report of one media buy: get_media_buy_delivery's slices, without the API-only totals. */
  function report(edit: (result: Record<string, unknown>) => void = () => undefined): string {
    const { aggregated_totals: _api, status: _status, adcp_version: _version, ...slices } = payload('3.1/get_media_buy_delivery.valid');
    const result: Record<string, unknown> = { notification_type: 'scheduled', sequence_number: 7, ...slices };
    edit(result);
    return completedBody({ task_type: 'media_buy_delivery', task_id: 'rep_trailhead_weekly', result });
  }

  test('a report is accepted as sent and names its notification type', () => {
    const hook = decodeWebhook(report(), { version: '3.1' });
    expect(hook).toMatchObject({ taskType: 'media_buy_delivery', status: 'completed', version: V3_1 });
    expect(hook.data).toMatchObject({ notification_type: 'scheduled', sequence_number: 7, currency: 'USD' });
  });

  test('a report without notification_type is refused, naming the task type and what is missing', () => {
    const error = caughtAs(SchemaMismatchError, () =>
      decodeWebhook(
        report((r) => delete r.notification_type),
        { version: '3.1' },
      ),
    );
    expect(error).toMatchObject({ code: 'SCHEMA_MISMATCH', task: 'media_buy_delivery', version: V3_1 });
    expect(error.issues[0]).toMatchObject({ path: '', keyword: 'required', params: { missingProperty: 'notification_type' } });
    expect(error.schemaId).toBe(`/schemas/${V3_1}/media-buy/media-buy-delivery-webhook-result.json`);
    expect(error.message).toMatch(/^media_buy_delivery response does not match the AdCP 3\.1\.\d+ schema/);
  });

  test('a notification type the enum does not list is refused', () => {
    const error = caughtAs(SchemaMismatchError, () =>
      decodeWebhook(
        report((r) => (r.notification_type = 'hourly')),
        { version: '3.1' },
      ),
    );
    expect(error.issues[0]).toMatchObject({ path: '/notification_type', keyword: 'enum' });
  });
});

describe('a pinned version judges the webhook by that version alone', () => {
  test(`version '3.0' judges the envelope and the result by ${V3_0} and says so`, () => {
    const hook = decodeWebhook(completedBody(), { version: '3.0' });
    expect(hook.version).toBe(V3_0);
    expect(decodeWebhook(completedBody(), { version: '3.1' }).version).toBe(V3_1);
  });
  test("under version '3.0', a 3.1-only task type is refused", () => {
    expect(() => decodeWebhook(completedBody({ task_type: 'media_buy_delivery' }), { version: '3.0' })).toThrow(
      /AdCP 3\.0\.\d+ enums\/task-type\.json/,
    );
  });
  test('the receiver takes the same version option', async () => {
    const receiver = createWebhookReceiver({ endpoint: BUYER_ORIGIN, keys: resolver, version: '3.0' });
    const signed = await signWebhook({ key: ed25519, url: HOOK_URL, body: completedBody(), created: Math.floor(Date.now() / 1000) });
    const hook = await receiver.receive({ method: 'POST', url: HOOK_URL, headers: signed.headers, body: signed.body });
    expect(hook.kind === 'delivered' ? hook.version : hook.kind).toBe(V3_0);
  });
});
