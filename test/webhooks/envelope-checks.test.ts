/**
 * The envelope checks are the schemas' own (issue 19, "Generate the envelope checks"): the MCP
 * webhook envelope of every release and 3.0's tasks/get response are judged by modules generated
 * like the tasks' validators, held here to Ajv compiling the same schemas at run time over
 * generated envelopes (valid ones and ones with one member made wrong), and their first issue is
 * the refusal's path. The date-time rule is the validators' one (the hand-written regex disagreed
 * with it on 5 of 7 inputs).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { schemaDir } from '../../scripts/schema-paths.js';
import { decodeTaskStatus } from '../../src/decode/polling.js';
import { DecodeError } from '../../src/errors/errors.js';
import { envelopeModules } from '../../src/generate/envelopes.js';
import { loadSchemas, readManifest } from '../../src/generate/load.js';
import { createAjv, stripAnnotations } from '../../src/generate/validators.js';
import { type Version, versions } from '../../src/schema/versions.js';
import { isDateTime } from '../../src/validate/runtime/date-formats.js';
import { validateWebhookEnvelope, WEBHOOK_TASK_TYPES } from '../../src/webhooks/envelope.js';
import { WebhookError } from '../../src/webhooks/index.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { thrown } from '../helpers.js';

type Json = Record<string, unknown>;

/** Ajv, at run time, on the schema an envelope module was generated from. */
function runtimeCheck(version: Version, module: string): (value: unknown) => { valid: boolean; path: string | undefined } {
  const root = schemaDir(version);
  const schemas = loadSchemas(version, root);
  const extra = envelopeModules(readManifest(version, root), schemas).find((m) => m.name === module);
  if (extra === undefined) throw new Error(`${version} has no envelope module ${module}`);
  const ajv = createAjv(false);
  for (const file of schemas.values()) ajv.addSchema(stripAnnotations(file.schema) as object, file.id);
  if (extra.derived !== undefined) ajv.addSchema(stripAnnotations(extra.derived.schema) as object, extra.derived.id);
  const validate = ajv.getSchema(extra.root);
  if (validate === undefined) throw new Error(`no schema ${extra.root}`);
  return (value) => {
    const valid = validate(value) === true;
    const first = validate.errors?.[0];
    const missing = first?.keyword === 'required' ? `/${String(first.params['missingProperty'])}` : '';
    return { valid, path: valid || first === undefined ? undefined : `${first.instancePath}${missing}` };
  };
}

/** Values a member may be sent as: right ones and wrong ones of every kind. */
const memberValue = fc.oneof(
  fc.constantFrom(
    'whk_01J9Z6Q2V8W4X7Y3B5C1D9E2F0',
    'short',
    'whk 9f2c1e7a4b8d4c0e',
    '2026-04-18T10:00:00Z',
    '2026-12-01 14:30:00Z',
    '2026-04-18T14:30:00+0530',
    '2026-04-18T12:00:60Z',
    '2026-02-30T10:00:00Z',
    'completed',
    'working',
    'not-a-status',
    'create_media_buy',
    'media_buy_delivery',
    'media-buy',
    'x'.repeat(300),
  ),
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
);

const webhookBase: Json = {
  idempotency_key: 'whk_01J9Z6Q2V8W4X7Y3B5C1D9E2F0',
  operation_id: 'op_7d1e',
  task_id: 'task_cmb_4821',
  task_type: 'create_media_buy',
  status: 'completed',
  timestamp: '2026-04-18T10:00:00Z',
  result: { media_buy_id: 'mb_1' },
};

/** An envelope with up to three members set to generated values or removed. */
function mutated(base: Json, members: readonly string[]): fc.Arbitrary<Json> {
  return fc.array(fc.tuple(fc.constantFrom(...members), fc.option(memberValue, { nil: undefined })), { maxLength: 3 }).map((edits) => {
    const body: Json = { ...base };
    for (const [key, value] of edits) {
      if (value === undefined) delete body[key];
      else body[key] = value;
    }
    return body;
  });
}

const WEBHOOK_MEMBERS = [
  'idempotency_key',
  'operation_id',
  'task_id',
  'task_type',
  'status',
  'timestamp',
  'protocol',
  'message',
  'context_id',
  'notification_id',
  'token',
  'result',
];

describe.each([...versions])('the MCP webhook envelope of %s', (version) => {
  const ajv = runtimeCheck(version, 'mcp-webhook-payload');

  test('accepted exactly when Ajv at run time accepts it; refused at the first issue, with its path', () => {
    let refused = 0;
    fc.assert(
      fc.property(mutated(webhookBase, WEBHOOK_MEMBERS), (body) => {
        const expected = ajv(body);
        const error = thrown(() => validateWebhookEnvelope(body, version));
        if (expected.valid) {
          expect(error, JSON.stringify(body)).toBeUndefined();
          return;
        }
        refused++;
        expect(error, JSON.stringify(body)).toBeInstanceOf(WebhookError);
        expect(error).toMatchObject({ webhookCode: 'webhook_envelope_invalid', path: expected.path });
        expect((error as Error).message).not.toMatch(/[\r\n]/);
      }),
      { numRuns: 400 },
    );
    expect(refused).toBeGreaterThan(50);
  });

  test('every task type of the version passes; another release only task type is refused at /task_type', () => {
    for (const taskType of WEBHOOK_TASK_TYPES[version]) {
      expect(validateWebhookEnvelope({ ...webhookBase, task_type: taskType }, version).taskType).toBe(taskType);
    }
    const other = versions
      .flatMap((v) => WEBHOOK_TASK_TYPES[v])
      .find((t) => !(WEBHOOK_TASK_TYPES[version] as readonly string[]).includes(t));
    if (other !== undefined) {
      expect(thrown(() => validateWebhookEnvelope({ ...webhookBase, task_type: other }, version))).toMatchObject({
        path: '/task_type',
        message: expect.stringContaining(`to be one of the values of AdCP ${version} enums/task-type.json; got "${other}"`),
      });
    }
  });
});

describe("the date-time rule is the validators' own", () => {
  // The inputs on which the hand-written regex and the validators disagreed (code review A.1), and two they agreed on.
  test.each([
    '2026-12-01 14:30:00Z',
    '2026-12-01T14:30:00+0530',
    '2026-12-01T14:30:00+05',
    '2026-12-01T12:00:60Z',
    '2026-12-01T14:30:00+24:00',
    '2026-12-01T14:30:00Z',
    '2026-02-30T10:00:00Z',
  ])('%s', (timestamp) => {
    for (const version of versions) {
      const error = thrown(() => validateWebhookEnvelope({ ...webhookBase, timestamp }, version));
      expect(error === undefined, version).toBe(isDateTime(timestamp));
      if (error !== undefined) expect(error).toMatchObject({ path: '/timestamp', message: expect.stringContaining('format "date-time"') });
    }
  });
});

describe("3.0's tasks/get response", () => {
  const ajv = runtimeCheck(V3_0, 'tasks-get-response');
  const base: Json = {
    task_id: 'task_cmb_4821',
    task_type: 'create_media_buy',
    protocol: 'media-buy',
    status: 'working',
    created_at: '2026-04-18T09:55:00Z',
    updated_at: '2026-04-18T09:59:58Z',
    has_webhook: true,
    progress: { percentage: 30 },
  };
  const members = [
    'task_id',
    'task_type',
    'protocol',
    'status',
    'created_at',
    'updated_at',
    'completed_at',
    'has_webhook',
    'progress',
    'history',
  ];

  test('accepted exactly when Ajv at run time accepts it; refused as MALFORMED_ENVELOPE at the first issue', () => {
    let refused = 0;
    fc.assert(
      fc.property(mutated(base, members), fc.boolean(), (body, wrapped) => {
        const expected = ajv(body);
        const input = wrapped ? { jsonrpc: '2.0', id: 7, result: body } : body;
        const error = thrown(() => decodeTaskStatus(input, { version: '3.0' }));
        if (expected.valid) {
          expect(error, JSON.stringify(body)).toBeUndefined();
          return;
        }
        refused++;
        expect(error, JSON.stringify(body)).toBeInstanceOf(DecodeError);
        expect(error).toMatchObject({ code: 'MALFORMED_ENVELOPE', task: 'tasks/get', version: V3_0, path: expected.path });
      }),
      { numRuns: 300 },
    );
    expect(refused).toBeGreaterThan(50);
  });

  test('3.1 has no tasks/get module: its polls are get_task_status answers; its delivery reports have a module of their own', () => {
    const root = schemaDir(V3_1);
    const names = envelopeModules(readManifest(V3_1, root), loadSchemas(V3_1, root)).map((m) => m.name);
    expect(names).toEqual(['mcp-webhook-payload', 'result-media_buy_delivery']);
  });
});
