/**
 * The webhook receiver's events (option `onEvent`): one per `receive()`, the delivery received (a
 * result, or the task's failure), the duplicate, or the refusal with the code, the HTTP status and
 * the blame `webhookResponse` answers, refusals before the signature is verified included (which
 * the official SDK's `onActivity` never sees). Signed with the test vectors' keys, at a fixed clock.
 */
import { describe, expect, test } from 'vitest';
import { shownText } from '../../src/errors/format.js';
import {
  type AdcpEvent,
  createMemoryDedupStore,
  createMemoryReplayStore,
  createWebhookReceiver,
  type WebhookReceiverOptions,
  webhookResponse,
} from '../../src/webhooks/index.js';
import { V3_1 } from '../fixtures/versions.js';
import { completedBody, failedBody, SELLER } from '../webhooks/fixtures.js';
import { nowMs, RECEIVER_BASE, signedRequest } from '../webhooks/outcomes.js';

function receiverTelling(extra: Partial<WebhookReceiverOptions> = {}) {
  const events: AdcpEvent[] = [];
  const receiver = createWebhookReceiver({
    ...RECEIVER_BASE,
    replayStore: createMemoryReplayStore({ now: nowMs }),
    onEvent: (event) => void events.push(event),
    ...extra,
  });
  return { receiver, events };
}

describe('each receive() is told once', () => {
  test('a delivery: its signer, task, status, version and body size', async () => {
    const { receiver, events } = receiverTelling();
    const body = completedBody();
    await receiver.receive(await signedRequest(body));
    expect(events).toEqual([
      {
        type: 'delivery-received',
        kind: 'delivered',
        agent: SELLER,
        format: 'mcp',
        taskType: 'create_media_buy',
        taskId: 'task_cmb_4821',
        status: 'completed',
        version: V3_1,
        bytes: Buffer.byteLength(body),
        durationMs: expect.any(Number),
      },
    ]);
  });

  test("a delivered failure: the seller's code and words, answered 200, no one's fault", async () => {
    const { receiver, events } = receiverTelling();
    await receiver.receive(await signedRequest(failedBody()));
    expect(events).toEqual([
      expect.objectContaining({
        type: 'delivery-received',
        kind: 'task-failed',
        status: 'failed',
        failure: expect.objectContaining({
          code: 'TASK_FAILED',
          detail: 'BUDGET_TOO_LOW',
          blame: 'none',
          recovery: 'correctable',
          httpStatus: 200,
        }),
      }),
    ]);
  });

  test('a duplicate (option dedup)', async () => {
    const { receiver, events } = receiverTelling({ dedup: { store: createMemoryDedupStore({ now: nowMs }) } });
    const first = await receiver.receive(await signedRequest(completedBody()));
    if (first.kind === 'delivered') await first.dedup?.complete();
    await receiver.receive(await signedRequest(completedBody()));
    expect(events.map((e) => e.type)).toEqual(['delivery-received', 'delivery-duplicate']);
    expect(events[1]).toMatchObject({ agent: SELLER, taskId: 'task_cmb_4821', status: 'completed' });
  });
});

describe('refusals', () => {
  test('a signature that does not verify: 401, the delivery to blame, no agent (nothing was verified), the code as detail', async () => {
    const { receiver, events } = receiverTelling();
    const request = await signedRequest(completedBody());
    const tampered = { ...request, body: new TextEncoder().encode(completedBody({ message: 'tampered' })) };
    const error: unknown = await receiver.receive(tampered).catch((e: unknown) => e);
    expect(events).toEqual([
      {
        type: 'delivery-refused',
        agent: undefined,
        bytes: tampered.body.byteLength,
        durationMs: expect.any(Number),
        refusal: expect.objectContaining({
          code: 'WEBHOOK_REJECTED',
          detail: 'webhook_signature_digest_mismatch',
          httpStatus: 401,
          blame: 'delivery',
        }),
        error,
      },
    ]);
    const { status, blame } = webhookResponse(error);
    expect(events[0]).toMatchObject({ refusal: { httpStatus: status, blame } });
  });

  test('a body over the bound: 413 before it is read whole (no size told), before anything is verified', async () => {
    const { receiver, events } = receiverTelling({ maxBodyBytes: 256 });
    await receiver.receive(await signedRequest(completedBody())).catch(() => undefined);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'delivery-refused',
        bytes: undefined,
        refusal: expect.objectContaining({ detail: 'webhook_body_too_large', httpStatus: 413 }),
      }),
    ]);
  });

  test("a verified delivery whose result the schema refuses: the signer is known, 400, the error's own message", async () => {
    const { receiver, events } = receiverTelling();
    const body = completedBody({ result: { media_buy_id: 42 } });
    const error: unknown = await receiver.receive(await signedRequest(body)).catch((e: unknown) => e);
    expect(events[0]).toMatchObject({
      type: 'delivery-refused',
      agent: SELLER,
      bytes: Buffer.byteLength(body),
      refusal: { code: 'SCHEMA_MISMATCH', detail: undefined, httpStatus: 400, blame: 'delivery', message: (error as Error).message },
    });
  });

  test("the seller's task id is told as the errors show it: escaped and cut", async () => {
    const { receiver, events } = receiverTelling();
    const taskId = `task_\u202e\u0007${'x'.repeat(100)}`;
    await receiver.receive(await signedRequest(completedBody({ task_id: taskId })));
    expect(events[0]).toMatchObject({ type: 'delivery-received', taskId: shownText(taskId, 64) });
    expect(JSON.stringify(events[0])).not.toMatch(/\u202e|\u0007/);
  });
});

describe('the option', () => {
  test('onEvent must be a function: INVALID_OPTION at creation', () => {
    // @ts-expect-error wrong on purpose
    expect(() => createWebhookReceiver({ ...RECEIVER_BASE, onEvent: 'log' })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });
});
