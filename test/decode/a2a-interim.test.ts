/**
 * An A2A task in an interim state without a DataPart (issue 19, item 14): a text-only progress
 * event, the normal streaming case. a2a-response-format makes the data optional there ("Schema
 * Required? Yes (if present)"), so decode() answers with the state alone, `{ status }`, judged by
 * the schema that state selects like any payload: returned where that schema needs no data, and
 * otherwise NO_PAYLOAD that says the seller sent what the spec allows; never SCHEMA_MISMATCH,
 * never a final response. decodeWebhook reports such an update with `data: null`.
 */
import { describe, expect, test } from 'vitest';
import { decode, safeDecode } from '../../src/decode/decode.js';
import { isFinal } from '../../src/decode/final.js';
import { ASYNC_STATUSES } from '../../src/schema/statuses.js';
import { tasks, type Version, versions } from '../../src/schema/versions.js';
import { fastValidator } from '../../src/validate/validators.js';
import { decodeWebhook } from '../../src/webhooks/index.js';
import { a2a03, a2a10 } from '../fixtures/envelopes.js';

type Json = Record<string, unknown>;

const WIRE: Readonly<Record<string, string>> = {
  working: 'TASK_STATE_WORKING',
  submitted: 'TASK_STATE_SUBMITTED',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
};

/** Updates that carry no DataPart: a text-only status message, none at all, v0.3 and 1.0, bare and enveloped. */
const TEXT_ONLY: ReadonlyArray<readonly [string, (state: string) => Json]> = [
  ['1.0 { statusUpdate } with a text part', (state) => a2a10.statusUpdate(WIRE[state]!)],
  ['1.0 bare status update with a text part', (state) => a2a10.statusUpdateEvent(WIRE[state]!)],
  ['0.3 status-update with a text part', (state) => a2a03.statusUpdate(state)],
  ['1.0 task without a message', (state) => ({ task: { id: 't-1', status: { state: WIRE[state]! } } })],
];

/** Whether a task's schema for `status` takes the state alone: the generated validator's word. */
function takesStateAlone(version: Version, task: string, status: string): boolean {
  const validate = fastValidator(version, task, status as 'working') ?? fastValidator(version, task, 'response')!;
  return validate({ status });
}

describe('an interim A2A update without a DataPart, every task of every version', () => {
  const table = versions.flatMap((version) =>
    tasks(version).flatMap((task) => ASYNC_STATUSES.map((status) => [version, task, status] as const)),
  );

  test.each(table)('%s %s %s', (version, task, status) => {
    const alone = takesStateAlone(version, task, status);
    for (const [form, make] of TEXT_ONLY) {
      const result = safeDecode(task as 'get_products', make(status), { version });
      if (alone) {
        expect(result, form).toEqual({ success: true, data: { status }, version });
        if (result.success) expect(isFinal(result.data), form).toBe(false);
      } else {
        if (result.success) expect.fail(`${form}: decoded ${JSON.stringify(result.data)}`);
        expect(result.error.code, form).toBe('NO_PAYLOAD');
        expect(result.error.message, form).toContain('optional in an interim state');
      }
    }
  });

  test('the normal streaming case decodes: every task with a working or input-required schema takes the state alone', () => {
    const reached = table.filter(([v, t, s]) => s !== 'submitted' && takesStateAlone(v, t, s));
    expect(reached.length).toBeGreaterThanOrEqual(20);
    expect(decode('get_products', a2a10.statusUpdate('TASK_STATE_WORKING'))).toEqual({ status: 'working' });
    expect(decode('create_media_buy', a2a10.statusUpdate('TASK_STATE_INPUT_REQUIRED'), { version: '3.0' })).toEqual({
      status: 'input-required',
    });
  });

  test('native A2A submitted in 3.1, whose submitted schemas need a task_id: NO_PAYLOAD, not a schema mismatch', () => {
    const result = safeDecode('get_products', a2a10.statusUpdate('TASK_STATE_SUBMITTED'));
    expect(result).toMatchObject({ success: false, error: { code: 'NO_PAYLOAD' } });
  });

  test('a final state without a DataPart is still NO_PAYLOAD (completed) or the failure (failed)', () => {
    expect(safeDecode('get_products', { task: { id: 't', status: { state: 'TASK_STATE_COMPLETED' } } })).toMatchObject({
      success: false,
      error: { code: 'NO_PAYLOAD' },
    });
    expect(safeDecode('get_products', { task: { id: 't', status: { state: 'TASK_STATE_FAILED' } } })).toMatchObject({
      success: false,
      error: { code: 'TASK_FAILED' },
    });
  });

  test('decodeWebhook reports such an update with data null, as it did', () => {
    for (const status of ASYNC_STATUSES) {
      for (const [form, make] of TEXT_ONLY) {
        const hook = decodeWebhook(make(status), { taskType: 'get_products' });
        expect(hook, form).toMatchObject({ format: 'a2a', status, data: null });
      }
    }
  });
});
