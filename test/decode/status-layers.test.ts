/**
 * Envelope and result disagree (issue 19, item 10; issue 27, item 1): the result's own status picks
 * the schema that judges it, and where both statuses are AdCP's (MCP webhooks, 3.1 and 3.0 polls)
 * a contradiction is refused. The rule, from the spec: both layers may say "final" differently (a
 * business rejection: envelope `completed`, result `rejected`, a2a-response-extraction "Two status
 * layers"); an async status names its own schema, so a final envelope with an async result, an
 * async envelope with a final result, and two different async statuses contradict each other.
 * An A2A task state is the transport's layer, "not an alias" of the DataPart's status: it
 * contradicts nothing (A2A webhooks, A2A answers to decode()), and a failed one ends the call.
 */
import { describe, expect, test } from 'vitest';
import { decode } from '../../src/decode/decode.js';
import { decodeTaskStatus } from '../../src/decode/polling.js';
import { contradicts } from '../../src/decode/status-layers.js';
import { DecodeError, TaskFailedError } from '../../src/errors/errors.js';
import { TASK_STATUSES } from '../../src/schema/statuses.js';
import { decodeWebhook } from '../../src/webhooks/decode-webhook.js';
import { a2a10, mcp } from '../fixtures/envelopes.js';
import { payload } from '../fixtures/payloads.js';
import { thrown } from '../helpers.js';

type Json = Record<string, unknown>;
type Verdict = 'refused' | 'decoded' | 'failed';

/** A create_media_buy result (3.1) that says `status` itself, or none when `own` is undefined. */
function result(own: string | undefined): Json {
  const base =
    own === 'working'
      ? payload('3.1/create_media_buy.working')
      : own === 'submitted'
        ? payload('3.1/create_media_buy.submitted')
        : own === 'input-required'
          ? payload('3.1/create_media_buy.input-required')
          : own === 'rejected' || own === 'failed'
            ? payload('3.1/create_media_buy.errors')
            : payload('3.1/create_media_buy.valid');
  const { status: _status, ...rest } = base;
  return own === undefined ? rest : { ...rest, status: own };
}

/**
 * The table: envelope status, the result's own status (`undefined`: none), and the verdict under an
 * AdCP envelope (MCP webhook, poll) and under an A2A task state.
 */
const TABLE: ReadonlyArray<readonly [string, string | undefined, Verdict, Verdict | null]> = [
  ['completed', 'working', 'refused', 'decoded'],
  ['completed', 'input-required', 'refused', 'decoded'],
  ['completed', 'submitted', 'refused', 'decoded'],
  ['completed', 'completed', 'decoded', 'decoded'],
  ['completed', 'rejected', 'decoded', 'decoded'],
  ['completed', undefined, 'decoded', 'decoded'],
  ['working', 'working', 'decoded', 'decoded'],
  ['working', undefined, 'decoded', 'decoded'],
  ['working', 'completed', 'refused', 'decoded'],
  ['working', 'input-required', 'refused', 'decoded'],
  ['input-required', 'input-required', 'decoded', 'decoded'],
  ['input-required', 'working', 'refused', 'decoded'],
  ['submitted', 'submitted', 'decoded', 'decoded'],
  ['submitted', 'completed', 'refused', 'decoded'],
  ['failed', 'working', 'refused', 'failed'],
  ['failed', 'failed', 'failed', 'failed'],
  ['failed', 'completed', 'failed', 'failed'],
  ['canceled', undefined, 'failed', null],
  ['auth-required', 'completed', 'refused', null],
];

/** What a call came to: refused for the contradiction, decoded, the task's failure, or another error (shown). */
function verdictOf(fn: () => unknown): Verdict | string {
  const error = thrown(fn);
  if (error === undefined) return 'decoded';
  if (error instanceof TaskFailedError) return 'failed';
  if (error instanceof DecodeError && error.code === 'MALFORMED_ENVELOPE' && error.path === '/status' && /own status/.test(error.message))
    return 'refused';
  return `${(error as Error).name}: ${(error as Error).message}`;
}

const hook = (status: string, res: Json): Json => ({
  idempotency_key: 'whk_01J9Z6Q2V8W4X7Y3B5C1D9E2F0',
  operation_id: 'op_7d1e',
  task_id: 'task_cmb_4821',
  task_type: 'create_media_buy',
  status,
  timestamp: '2026-04-18T10:00:00Z',
  result: res,
});

const poll = (status: string, res: Json): Json => ({
  task_id: 'task_cmb_4821',
  task_type: 'create_media_buy',
  protocol: 'media-buy',
  status,
  created_at: '2026-04-18T09:55:00Z',
  updated_at: '2026-04-18T09:59:58Z',
  result: res,
});

const A2A_STATE: Readonly<Record<string, string>> = {
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  working: 'TASK_STATE_WORKING',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  submitted: 'TASK_STATE_SUBMITTED',
};

/** An A2A push body: a final state carries the result in its artifact, an interim one in its status message. */
function a2a(state: string, res: Json): Json {
  const wire = A2A_STATE[state]!;
  return state === 'completed' || state === 'failed' ? a2a10.taskEnvelope(wire, res) : a2a10.statusUpdate(wire, res);
}

describe('the two status layers: the table, through every path', () => {
  test.each(TABLE)('envelope %s, result %s: %s (A2A: %s)', (envelope, own, verdict, a2aVerdict) => {
    const res = result(own);
    expect(
      verdictOf(() => decodeWebhook(hook(envelope, res))),
      'MCP webhook object',
    ).toBe(verdict);
    expect(
      verdictOf(() => decodeWebhook(JSON.stringify(hook(envelope, res)))),
      'MCP webhook text',
    ).toBe(verdict);
    expect(
      verdictOf(() => decodeTaskStatus(mcp.structured(poll(envelope, res)))),
      '3.1 get_task_status',
    ).toBe(verdict);
    if (a2aVerdict === null) return;
    expect(
      verdictOf(() => decodeWebhook(a2a(envelope, res), { taskType: 'create_media_buy' })),
      'A2A webhook',
    ).toBe(a2aVerdict);
    expect(
      verdictOf(() => decode('create_media_buy', a2a(envelope, res))),
      'decode() of an A2A answer',
    ).toBe(a2aVerdict);
  });

  test('3.0: a status of the result that is no task status (a media-buy status) is a final response of its own', () => {
    // 3.0 create_media_buy's `status` is the media buy's (`pending_creatives`), not the task's.
    const confirmed = payload('3.0/create_media_buy.valid');
    const working = payload('3.0/update_media_buy.working');
    const poll30 = (status: string, type: string, res: Json) => ({ ...poll(status, res), task_type: type });
    const hook30 = (status: string, res: Json) => decodeWebhook(hook(status, res), { version: '3.0' });
    expect(verdictOf(() => decodeTaskStatus(poll30('completed', 'create_media_buy', confirmed), { version: '3.0' }))).toBe('decoded');
    expect(verdictOf(() => hook30('completed', confirmed))).toBe('decoded');
    expect(verdictOf(() => hook30('working', confirmed))).toBe('refused');
    expect(verdictOf(() => decodeTaskStatus(poll30('working', 'create_media_buy', confirmed), { version: '3.0' }))).toBe('refused');
    expect(verdictOf(() => decodeTaskStatus(poll30('completed', 'update_media_buy', working), { version: '3.0' }))).toBe('refused');
    expect(verdictOf(() => decodeTaskStatus(poll30('working', 'update_media_buy', working), { version: '3.0' }))).toBe('decoded');
  });

  test('the message says both statuses and which layer stated the first', () => {
    const error = thrown(() => decodeWebhook(hook('completed', result('working'))));
    expect(error).toMatchObject({ code: 'MALFORMED_ENVELOPE', path: '/status', task: 'create_media_buy' });
    expect((error as Error).message).toBe(
      `expected the webhook result's own status to agree with its envelope status "completed"; it says "working", which the two layers cannot both be`,
    );
  });

  test('every pair of task statuses has a verdict, symmetric under an AdCP envelope; an A2A state contradicts none', () => {
    for (const stated of TASK_STATUSES) {
      for (const own of TASK_STATUSES) {
        const envelope = contradicts({ status: stated, layer: 'envelope' }, own);
        expect(contradicts({ status: own, layer: 'envelope' }, stated), `${stated}/${own}`).toBe(envelope);
        expect(contradicts({ status: stated, layer: 'a2a' }, own), `${stated}/${own} over A2A`).toBe(false);
      }
      expect(contradicts({ status: stated, layer: 'envelope' }, undefined)).toBe(false);
    }
  });
});
