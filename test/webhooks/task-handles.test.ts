/**
 * Task handles on the webhook side (issue 21, item 5): the receiver's `handles` lookup correlates
 * each MCP delivery to the handle of the task it names. A webhook and a poll of the same task are
 * both correlated to its handle; a delivery naming another task_type, task_id or operation_id is
 * TASK_MISMATCH (400, the delivery's fault); an unknown task is 503 (the sender retries); a lookup
 * that fails, hangs or answers nonsense is never the sender's fault.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DecodeError, decode, decodeTaskStatus, type TaskHandle, taskHandle } from '../../src/index.js';
import { WEBHOOK_TASK_TYPES } from '../../src/webhooks/envelope.js';
import {
  createMemoryReplayStore,
  createWebhookReceiver,
  decodeWebhook,
  type HandleLookup,
  TaskMismatchError,
  WebhookError,
  type WebhookReceiverOptions,
} from '../../src/webhooks/index.js';
import { mcp } from '../fixtures/envelopes.js';
import { V3_1 } from '../fixtures/versions.js';
import { caughtAs } from '../helpers.js';
import { completedBody, es256, publicJwks, SELLER } from './fixtures.js';
import { nowMs, outcome, RECEIVER_BASE, signedRequest } from './outcomes.js';

/** The buyer's side: create_media_buy answered submitted, with the operation id its request registered. */
const request = {
  task: 'create_media_buy',
  args: { push_notification_config: { url: 'https://buyer.example.com/adcp/webhook', operation_id: 'op_7d1e' } },
};
const answer = decode(
  'create_media_buy',
  mcp.structured({ adcp_version: '3.1', status: 'submitted', task_id: 'task_cmb_4821', message: 'Awaiting sales approval.' }),
  { request },
);
const handle = taskHandle('create_media_buy', answer, { agent: SELLER }) as TaskHandle<'create_media_buy'>;

/** The buyer's store of handles: by sender and task_id, and by sender and operation_id. */
function store(handles: readonly TaskHandle[]): HandleLookup {
  const mine = (agent: string) => handles.filter((h) => h.agent === agent);
  return ({ agent, taskId, operationId }) =>
    mine(agent).find((h) => h.taskId === taskId) ?? mine(agent).find((h) => operationId !== undefined && h.operationId === operationId);
}

/** A store that ignores the sender (by task_id alone): the receiver's own check still scopes it. */
function unscoped(handles: readonly TaskHandle[]): HandleLookup {
  return ({ taskId }) => handles.find((h) => h.taskId === taskId);
}

function receiver(extra: Partial<WebhookReceiverOptions> = {}) {
  return createWebhookReceiver({
    ...RECEIVER_BASE,
    replayStore: createMemoryReplayStore({ now: nowMs }),
    handles: store([handle]),
    ...extra,
  });
}

describe('the receiver correlates deliveries to handles', () => {
  test('a webhook and a poll of the same task are both correlated to its handle', async () => {
    const hook = await receiver().receive(await signedRequest(completedBody()));
    expect(hook.handle).toBe(handle);
    expect(hook).toMatchObject({ taskId: 'task_cmb_4821', taskType: 'create_media_buy', version: V3_1 });
    const polled = decodeTaskStatus(
      mcp.structured({
        task_id: 'task_cmb_4821',
        task_type: 'create_media_buy',
        protocol: 'media-buy',
        status: 'working',
        created_at: '2026-04-18T09:55:00Z',
        updated_at: '2026-04-18T09:59:58Z',
      }),
      { handle: hook.handle as TaskHandle<'create_media_buy'> },
    );
    expect(polled).toMatchObject({ taskId: handle.taskId, taskType: handle.task });
  });
  test('found by operation_id, but another task_id: TASK_MISMATCH, 400, the delivery’s fault', async () => {
    const result = await outcome(receiver().receive(await signedRequest(completedBody({ task_id: 'task_other_1' }))));
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'TASK_MISMATCH', path: '/task_id', expected: 'task_cmb_4821', received: 'task_other_1' },
      answer: { status: 400, blame: 'delivery' },
    });
  });
  test('any other task_type, or another operation_id: TASK_MISMATCH at its path', async () => {
    const others = WEBHOOK_TASK_TYPES[V3_1].filter((t) => t !== 'create_media_buy');
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom(...others).map((t) => ({ field: 'task_type', value: t })),
          fc
            .stringMatching(/^[A-Za-z0-9_.:-]{1,64}$/)
            .filter((v) => v !== 'op_7d1e')
            .map((v) => ({ field: 'operation_id', value: v })),
        ),
        async ({ field, value }) => {
          // Found by task_id; the envelope's result is left out so that the mismatch alone can refuse it.
          const body = completedBody({ [field]: value, status: 'working', result: undefined });
          const result = await outcome(receiver().receive(await signedRequest(body)));
          expect(result).toMatchObject({ ok: false, error: { code: 'TASK_MISMATCH', path: `/${field}` }, answer: { status: 400 } });
        },
      ),
      { numRuns: 40 },
    );
  });
  test('no handle known: webhook_task_unknown, 503 so that the sender retries; a malformed envelope is still 400', async () => {
    const unknown = await outcome(
      receiver({ handles: () => undefined }).receive(await signedRequest(completedBody({ task_id: 't_unknown' }))),
    );
    expect(unknown).toMatchObject({ ok: false, error: { webhookCode: 'webhook_task_unknown' }, answer: { status: 503, blame: 'none' } });
    const malformed = await outcome(
      receiver({ handles: () => undefined }).receive(await signedRequest(completedBody({ timestamp: undefined }))),
    );
    expect(malformed).toMatchObject({ ok: false, error: { webhookCode: 'webhook_envelope_invalid' }, answer: { status: 400 } });
  });
  test('a lookup that throws or passes storeTimeoutMs: 503, the dependency’s; one that answers nonsense: 500, the configuration’s', async () => {
    const failing = await outcome(
      receiver({
        handles: () => {
          throw new Error('db down');
        },
      }).receive(await signedRequest(completedBody())),
    );
    expect(failing).toMatchObject({ ok: false, error: { webhookCode: 'webhook_handles_unavailable' }, answer: { status: 503 } });
    const hanging = await outcome(
      receiver({ handles: () => new Promise(() => {}), storeTimeoutMs: 20 }).receive(await signedRequest(completedBody())),
    );
    expect(hanging).toMatchObject({ ok: false, answer: { status: 503, blame: 'dependency' } });
    const nonsense = await outcome(
      receiver({ handles: () => ({ task: 'create_media_buy' }) as never }).receive(await signedRequest(completedBody())),
    );
    expect(nonsense).toMatchObject({ ok: false, error: { webhookCode: 'webhook_receiver_misconfigured' }, answer: { status: 500 } });
  });
  test('options: handles must be a function, not on an A2A route; a single handle is decodeWebhook’s', () => {
    for (const extra of [{ handles: 'x' as never }, { handles: store([]), format: 'a2a' as const, taskType: 'create_media_buy' as const }])
      expect(caughtAs(DecodeError, () => receiver(extra))).toMatchObject({ code: 'INVALID_OPTION' });
    expect(caughtAs(DecodeError, () => receiver({ handle } as never))).toMatchObject({ code: 'INVALID_OPTION' });
  });
  test('an A2A push body on a correlating route is refused: it names the A2A transport task', async () => {
    const a2a = JSON.stringify({ id: 'a2a-task-1', contextId: 'c', status: { state: 'working' }, kind: 'task' });
    const result = await outcome(receiver().receive(await signedRequest(a2a)));
    expect(result).toMatchObject({ ok: false, error: { webhookCode: 'webhook_envelope_invalid' }, answer: { status: 400 } });
  });
});

describe('correlation is scoped to the verified sender (issue 28, item 5)', () => {
  const OTHER = 'https://other-seller.example/adcp/mcp';
  /** Two sellers on one receiver: the Ed25519 key is SELLER's, the ES256 key OTHER's. */
  const twoSellers = (kid: string) => {
    const jwk = publicJwks.find((k) => k.kid === kid);
    return jwk === undefined ? undefined : { jwk, agent: kid === es256.kid ? OTHER : SELLER };
  };
  const bySeller = (agent: string, taskId: string, media: string) => {
    const a = decode(
      'create_media_buy',
      mcp.structured({ adcp_version: '3.1', status: 'submitted', task_id: taskId, message: `submitted to ${media}` }),
    );
    return taskHandle('create_media_buy', a, { agent }) as TaskHandle<'create_media_buy'>;
  };
  const asOther = { key: es256 };
  test('the lookup is asked with the signer’s agent, from key resolution', async () => {
    const asked: unknown[] = [];
    const rx = receiver({
      keys: twoSellers,
      handles: (ids) => {
        asked.push(ids);
        return store([handle])(ids);
      },
    });
    await rx.receive(await signedRequest(completedBody()));
    await outcome(rx.receive(await signedRequest(completedBody(), asOther)));
    expect(asked).toEqual([
      { agent: SELLER, taskId: 'task_cmb_4821', operationId: 'op_7d1e' },
      { agent: OTHER, taskId: 'task_cmb_4821', operationId: 'op_7d1e' },
    ]);
  });
  test('seller B’s signed delivery naming seller A’s task_id, with a store keyed by sender: unknown to B (503), A accepted', async () => {
    const rx = receiver({ keys: twoSellers, handles: store([handle]) });
    const injected = await outcome(rx.receive(await signedRequest(completedBody(), asOther)));
    expect(injected).toMatchObject({ ok: false, error: { webhookCode: 'webhook_task_unknown' }, answer: { status: 503 } });
    expect((await rx.receive(await signedRequest(completedBody()))).handle).toBe(handle);
  });
  test('a store that ignores the sender: B’s delivery is TASK_MISMATCH (400, the delivery’s fault), A is not denied', async () => {
    const rx = receiver({ keys: twoSellers, handles: unscoped([handle]) });
    const injected = await outcome(rx.receive(await signedRequest(completedBody(), asOther)));
    expect(injected).toMatchObject({
      ok: false,
      error: { code: 'TASK_MISMATCH', path: '/task_id', expected: SELLER, received: OTHER },
      answer: { status: 400, blame: 'delivery' },
    });
    expect((await rx.receive(await signedRequest(completedBody()))).handle).toBe(handle);
  });
  test('two sellers whose task_ids collide: each delivery is correlated to its own seller’s task, neither refused', async () => {
    const mine = bySeller(SELLER, 'task_1', 'A');
    const theirs = bySeller(OTHER, 'task_1', 'B');
    const rx = receiver({ keys: twoSellers, handles: store([mine, theirs]) });
    const body = completedBody({ task_id: 'task_1', operation_id: 'op_shared' });
    const fromA = await rx.receive(await signedRequest(body));
    const fromB = await rx.receive(await signedRequest(body, asOther));
    expect(fromA.handle).toBe(mine);
    expect(fromB.handle).toBe(theirs);
    expect([fromA.signer.agent, fromB.signer.agent]).toEqual([SELLER, OTHER]);
  });
  test('a handle that records no agent cannot be scoped: 500, the configuration’s, never accepted', async () => {
    const bare = taskHandle('create_media_buy', answer) as TaskHandle;
    expect(bare.agent).toBeUndefined();
    const stored = { task: 'create_media_buy', taskId: 'task_cmb_4821', version: V3_1, operationId: 'op_7d1e' };
    for (const found of [bare, stored]) {
      const result = await outcome(receiver({ handles: () => found }).receive(await signedRequest(completedBody())));
      expect(result).toMatchObject({ ok: false, error: { webhookCode: 'webhook_receiver_misconfigured' }, answer: { status: 500 } });
    }
  });
  test('agent URLs compare as URLs; a stored agent is read back; a wrong agent is INVALID_OPTION', async () => {
    const spelled = taskHandle('create_media_buy', answer, { agent: 'HTTPS://SELLER.example.com/adcp/mcp' }) as TaskHandle;
    expect((await receiver({ handles: () => spelled }).receive(await signedRequest(completedBody()))).handle).toBe(spelled);
    const stored = JSON.parse(JSON.stringify(handle)) as TaskHandle;
    expect((await receiver({ handles: () => stored }).receive(await signedRequest(completedBody()))).handle?.agent).toBe(SELLER);
    for (const agent of ['', 42, null])
      expect(caughtAs(DecodeError, () => taskHandle('create_media_buy', answer, { agent: agent as never }))).toMatchObject({
        code: 'INVALID_OPTION',
      });
    const wrongStored = await outcome(
      receiver({ handles: () => ({ ...stored, agent: 7 }) as never }).receive(await signedRequest(completedBody())),
    );
    expect(wrongStored).toMatchObject({ ok: false, error: { webhookCode: 'webhook_receiver_misconfigured' } });
  });
});

describe('decodeWebhook with a handle', () => {
  test('typed by the handle’s task and version; another task_id refused', () => {
    const hook = decodeWebhook(completedBody(), { handle });
    expect(hook.taskType).toBe('create_media_buy');
    if (hook.data === null || !('media_buy_id' in hook.data)) throw new Error('expected the result');
    expect(hook.data.media_buy_id).toBe('mb_4821');
    expect(caughtAs(TaskMismatchError, () => decodeWebhook(completedBody({ task_id: 'nope' }), { handle }))).toMatchObject({
      path: '/task_id',
    });
  });
  test('a taskType or version option that contradicts the handle: INVALID_OPTION', () => {
    expect(caughtAs(DecodeError, () => decodeWebhook(completedBody(), { handle, taskType: 'sync_creatives' }))).toMatchObject({
      code: 'INVALID_OPTION',
    });
    expect(caughtAs(DecodeError, () => decodeWebhook(completedBody(), { handle, version: '3.0' }))).toMatchObject({
      code: 'INVALID_OPTION',
    });
  });
  test('the WebhookError class is not used for a mismatch: it is a DecodeError the answer table blames on the delivery', () => {
    const error = caughtAs(DecodeError, () => decodeWebhook(completedBody({ task_id: 'nope' }), { handle }));
    expect(error).not.toBeInstanceOf(WebhookError);
    expect(error.code).toBe('TASK_MISMATCH');
  });
});
