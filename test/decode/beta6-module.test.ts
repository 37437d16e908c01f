/**
 * Every beta.6 fixture through the release module `adcp-decode generate` writes, as a buyer decodes
 * with it: before it is imported an answer announcing "3.2-beta.6" is RELEASE_NOT_LOADED (the
 * buyer's to load, never the seller's fault); after, each valid payload decodes unchanged from a
 * bare payload, MCP structuredContent and MCP text, judged by beta.6 (pinned, or announced); each
 * invalid one is SCHEMA_MISMATCH with its expected issue, naming beta.6's schema of its arm; each
 * webhook body decodes by the arm its status names, or for a terminal status by
 * task_result_resolution; and `rejected`, a failure in 3.1, is beta.6's answer.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { safeDecode } from '../../src/decode/decode.js';
import { decodeTaskStatus } from '../../src/decode/polling.js';
import { type DecodeError, SchemaMismatchError } from '../../src/errors/errors.js';
import { knownVersions, tasks, versions } from '../../src/schema/versions.js';
import { decodeWebhook } from '../../src/webhooks/decode-webhook.js';
import { type Beta6Module, GENERATING_MS, loadBeta6Module } from '../fixtures/beta6-module.js';
import { BETA6_BASE, BETA6_PIN, BETA6_VERSION, schemaOf, terminalSchemaOf } from '../fixtures/beta6-schemas.js';
import { mcp } from '../fixtures/envelopes.js';
import { BETA6_INVALID, beta6Fixtures, beta6Webhooks } from '../fixtures/payloads-beta6.js';
import { thrown } from '../helpers.js';

type Json = Record<string, unknown>;
type Decoded = { success: true; data: unknown; version: string } | { success: false; error: DecodeError };

/**
 * beta.6's entries, typed by hand: its task names are the generated module's, which this
 * repository's typecheck does not see (test/package/generate.test.ts type-checks them). The file's one widening.
 */
const entries = { safeDecode, decodeWebhook, decodeTaskStatus } as unknown as {
  safeDecode(task: string, input: unknown, options?: { version?: string; transport?: 'payload' }): Decoded;
  decodeWebhook(body: Json, options: { version: string }): { status: string; taskType: string; version: string; data: unknown };
  decodeTaskStatus(answer: unknown, options: { version: string }): { status: string; data: unknown };
};

const valid = beta6Fixtures.filter((f) => f.valid);
const invalid = beta6Fixtures.filter((f) => !f.valid);
/** The invalid ones decode() refuses: all but a final answer that only lacks its status (read as completed). */
const refused = invalid.filter((f) => f.id !== 'get_products.invalid-missing-status');
const announcing = valid.filter((f) => f.payload['adcp_version'] === BETA6_PIN);
/** beta.6's tasks the bundled releases have too (get_products…), and those they lack (list_products…). */
const bundledTask = (task: string) => versions.some((v) => tasks(v).includes(task));

describe('before the module is imported', () => {
  test('an answer announcing "3.2-beta.6" is RELEASE_NOT_LOADED, naming the command that makes the module', () => {
    expect(knownVersions()).not.toContain(BETA6_VERSION);
    const shared = announcing.filter((f) => bundledTask(f.task));
    expect(shared.length).toBeGreaterThan(0);
    for (const f of shared) {
      const result = entries.safeDecode(f.task, mcp.structured(f.payload));
      if (result.success) return expect.fail(`${f.id} decoded`);
      expect(result.error, f.id).toMatchObject({
        code: 'RELEASE_NOT_LOADED',
        message: expect.stringContaining('npx adcp-decode generate'),
      });
    }
  });

  test("a task only beta.6 has is UNKNOWN_TASK, the caller's, pointing at the generator", () => {
    const only = announcing.filter((f) => !bundledTask(f.task));
    expect(only.length).toBeGreaterThan(0);
    for (const f of only) {
      const result = entries.safeDecode(f.task, mcp.structured(f.payload));
      if (result.success) return expect.fail(`${f.id} decoded`);
      expect(result.error, f.id).toMatchObject({ code: 'UNKNOWN_TASK', message: expect.stringContaining('npx adcp-decode generate') });
    }
  });
});

describe('with the generated module imported', () => {
  let module: Beta6Module | undefined;
  beforeAll(async () => {
    module = await loadBeta6Module();
  }, GENERATING_MS);
  afterAll(() => module?.remove());

  test('the release is known, under its own pin', () => {
    expect(knownVersions()).toContain(BETA6_VERSION);
    expect(module?.release).toMatchObject({ version: BETA6_VERSION, release: BETA6_PIN });
  });

  test.each(valid.map((f) => [f.id, f] as const))('%s decodes unchanged, bare, structured and as text', (_id, f) => {
    const payload = f.payload;
    for (const input of [payload, mcp.structured(payload), mcp.text(f.text)]) {
      const result = entries.safeDecode(f.task, input, {
        version: BETA6_VERSION,
        ...(input === payload ? { transport: 'payload' as const } : {}),
      });
      if (!result.success) return expect.fail(`${f.id}: ${result.error.message}`);
      expect(result).toEqual({ success: true, version: BETA6_VERSION, data: payload });
    }
    // Unpinned, an answer announcing the pre-release is judged by it.
    if (f.payload['adcp_version'] === BETA6_PIN)
      expect(entries.safeDecode(f.task, mcp.structured(f.payload))).toMatchObject({ success: true, version: BETA6_VERSION });
  });

  test("a final answer without its required status is read as completed: the MCP guide's receiver rule, not a refusal", () => {
    const f = invalid.find((x) => x.id === 'get_products.invalid-missing-status')!;
    expect(BETA6_INVALID[f.id]).toMatchObject({ keyword: 'required', params: { missingProperty: 'status' } });
    expect(entries.safeDecode(f.task, mcp.structured(f.payload), { version: BETA6_VERSION })).toMatchObject({
      success: true,
      data: f.payload,
    });
  });

  test.each(refused.map((f) => [f.id, f] as const))('%s is SCHEMA_MISMATCH with its issue, naming its schema', (id, f) => {
    const expected = BETA6_INVALID[id]!;
    const result = entries.safeDecode(f.task, mcp.structured(f.payload), { version: BETA6_VERSION });
    if (result.success) return expect.fail(`${id} decoded`);
    expect(result.error).toBeInstanceOf(SchemaMismatchError);
    const error = result.error as SchemaMismatchError;
    expect(error).toMatchObject({ task: f.task, version: BETA6_VERSION, schemaId: `${BETA6_BASE}${schemaOf(f.task, f.arm)}` });
    expect(error.issues[0]).toMatchObject({ path: expected.path, keyword: expected.keyword, params: expected.params });
  });

  test.each(beta6Webhooks.map((w) => [w.id, w] as const))('%s decodes by its arm or its terminal schema', (_id, w) => {
    const hook = entries.decodeWebhook(w.payload, { version: BETA6_VERSION });
    expect(hook).toMatchObject({ status: w.status, taskType: w.taskType, version: BETA6_VERSION, data: w.payload['result'] });
  });

  test('a delivery report is judged by the override task_result_resolution names, not by get_media_buy_delivery', () => {
    const w = beta6Webhooks.find((x) => x.taskType === 'media_buy_delivery')!;
    expect(terminalSchemaOf('media_buy_delivery')).toBe('media-buy/media-buy-delivery-webhook-result.json');
    const { notification_type: _dropped, ...result } = w.payload['result'] as Json;
    const error = thrown(() => entries.decodeWebhook({ ...w.payload, result }, { version: BETA6_VERSION }));
    expect(error).toMatchObject({
      code: 'SCHEMA_MISMATCH',
      task: 'media_buy_delivery',
      schemaId: `${BETA6_BASE}media-buy/media-buy-delivery-webhook-result.json`,
    });
  });

  test('"rejected" is an answer in beta.6 ("a structured AdCP task outcome"), by webhook and by poll, with its reason', () => {
    const w = beta6Webhooks.find((x) => x.status === 'rejected')!;
    const reason = (w.payload['result'] as Json)['reason'];
    expect(entries.decodeWebhook(w.payload, { version: BETA6_VERSION })).toMatchObject({
      status: 'rejected',
      data: { status: 'rejected', reason },
    });
    const polled = {
      ...beta6Fixtures.find((f) => f.id === 'get_task_status.valid')!.payload,
      task_id: w.payload['task_id'],
      task_type: 'get_products',
      status: 'rejected',
      result: w.payload['result'],
    };
    expect(entries.decodeTaskStatus(mcp.structured(polled), { version: BETA6_VERSION })).toMatchObject({
      status: 'rejected',
      data: { reason },
    });
  });
});
