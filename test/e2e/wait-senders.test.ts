/**
 * waitForTask's webhooks scoped to the verified sender, end to end: a real MCP seller on 127.0.0.1
 * answering its polls `working`, one webhook receiver serving two sellers (each key resolved to its
 * own agent), and a hostile seller B signing deliveries with its own key that name seller A's task.
 * Only a delivery signed by the handle's agent and naming its task ends A's wait; B's never
 * resolves it and never ends it. The wait reads `receiver.deliveries(handle)`, which also keeps a
 * delivery that came before the wait started.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type TaskHandleFields, TaskMismatchError } from '../../src/index.js';
import { waitForTask } from '../../src/mcp/index.js';
import type { ResolvedKey } from '../../src/signatures/verify/keys.js';
import { createWebhookReceiver, type WebhookOutcome } from '../../src/webhooks/index.js';
import { heldClock } from '../fixtures/clocks.js';
import { pollResponse, type ServedPollSeller, serveMcpPollSeller } from '../fixtures/poll-sellers.js';
import { V3_1 } from '../fixtures/versions.js';
import { BUYER_ORIGIN, completedResult, ed25519, es256, publicJwks } from '../webhooks/fixtures.js';
import { signWebhook, type TestKey } from '../webhooks/signer.js';

const SELLER_A = 'https://seller-a.example/adcp/mcp';
const SELLER_B = 'https://seller-b.example/adcp/mcp';
const HOOK = `${BUYER_ORIGIN}/adcp/webhook`;
/** Each seller's key, resolved to its own agent: B holds a valid key of its own, not A's. */
const AGENT_OF: Record<string, string> = { [ed25519.kid]: SELLER_A, [es256.kid]: SELLER_B };

const handleA = {
  task: 'create_media_buy',
  taskId: 'task_cmb_4821',
  version: V3_1,
  operationId: 'op_a_1',
  agent: SELLER_A,
} as const satisfies TaskHandleFields;

function receiverOfTwoSellers() {
  return createWebhookReceiver({
    endpoint: BUYER_ORIGIN,
    keys: (kid): ResolvedKey | undefined => {
      const jwk = publicJwks.find((k) => k.kid === kid);
      const agent = AGENT_OF[kid];
      return jwk === undefined || agent === undefined ? undefined : { jwk, agent };
    },
    version: '3.1',
  });
}

/** A completed create_media_buy delivery, signed with `key`, naming `ids`, carrying `mediaBuyId`. */
async function delivery(key: TestKey, ids: Record<string, unknown>, mediaBuyId: string): Promise<Request> {
  const body = JSON.stringify({
    idempotency_key: `whk_${crypto.randomUUID()}`,
    task_type: 'create_media_buy',
    protocol: 'media-buy',
    status: 'completed',
    timestamp: '2026-04-18T09:59:58Z',
    result: { ...completedResult, media_buy_id: mediaBuyId },
    ...ids,
  });
  const signed = await signWebhook({ key, url: HOOK, body, created: Math.floor(Date.now() / 1000) });
  return new Request(HOOK, { method: 'POST', headers: signed.headers, body: signed.body });
}

let seller: ServedPollSeller & { client: Parameters<typeof waitForTask>[0] };
beforeAll(async () => {
  seller = await serveMcpPollSeller(() => ({ payload: pollResponse('working', { progress: { percentage: 10 } }) }));
});
afterAll(() => seller?.close());

/** Starts A's wait on the receiver's deliveries; settles to its result or what it threw. */
function waitOfA(receiver: ReturnType<typeof receiverOfTwoSellers>, handle: TaskHandleFields = handleA) {
  const controller = new AbortController();
  const settled = waitForTask(seller.client, handle, {
    webhooks: receiver.deliveries(handle),
    clock: heldClock,
    signal: controller.signal,
  }).then(
    (data) => ({ data }),
    (error: unknown) => ({ error }),
  );
  return { settled, stop: () => controller.abort(new Error('test over')) };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("waitForTask's webhooks belong to the handle's agent", () => {
  test("seller B's delivery naming A's task_id and operation_id never resolves A's wait; A's own does", async () => {
    const receiver = receiverOfTwoSellers();
    const wait = waitOfA(receiver);
    await tick();
    const forged = await receiver.receive(await delivery(es256, { task_id: 'task_cmb_4821', operation_id: 'op_a_1' }, 'mb_forged_by_b'));
    // The receiver verified it: it is B's genuine delivery, of B's own words.
    expect(forged).toMatchObject({ kind: 'delivered', signer: { agent: SELLER_B } });
    await tick();
    const genuine = await receiver.receive(await delivery(ed25519, { task_id: 'task_cmb_4821', operation_id: 'op_a_1' }, 'mb_4821'));
    expect(genuine).toMatchObject({ kind: 'delivered', signer: { agent: SELLER_A } });
    const outcome = await wait.settled;
    expect(outcome).toEqual({ data: expect.objectContaining({ media_buy_id: 'mb_4821' }) });
  });

  test("B's delivery contradicting A's handle (its operation_id) does not end A's wait", async () => {
    const receiver = receiverOfTwoSellers();
    const wait = waitOfA(receiver);
    await tick();
    await receiver.receive(await delivery(es256, { task_id: 'task_cmb_4821', operation_id: 'op_b_9' }, 'mb_b'));
    await tick();
    let ended = false;
    void wait.settled.then(() => {
      ended = true;
    });
    await tick();
    expect(ended).toBe(false);
    await receiver.receive(await delivery(ed25519, { task_id: 'task_cmb_4821', operation_id: 'op_a_1' }, 'mb_4821'));
    expect(await wait.settled).toEqual({ data: expect.objectContaining({ media_buy_id: 'mb_4821' }) });
  });

  test("A's delivery of another task (neither its task_id nor its operation_id) is passed over", async () => {
    const receiver = receiverOfTwoSellers();
    const wait = waitOfA(receiver);
    await tick();
    await receiver.receive(await delivery(ed25519, { task_id: 'task_cmb_0007', operation_id: 'op_a_7' }, 'mb_0007'));
    await tick();
    await receiver.receive(await delivery(ed25519, { task_id: 'task_cmb_4821', operation_id: 'op_a_1' }, 'mb_4821'));
    expect(await wait.settled).toEqual({ data: expect.objectContaining({ media_buy_id: 'mb_4821' }) });
  });

  test("A's own delivery contradicting its handle (this task_id, another operation_id) ends the wait: TASK_MISMATCH", async () => {
    const receiver = receiverOfTwoSellers();
    const wait = waitOfA(receiver);
    await tick();
    await receiver.receive(await delivery(ed25519, { task_id: 'task_cmb_4821', operation_id: 'op_a_2' }, 'mb_4821'));
    const { error } = (await wait.settled) as { error: unknown };
    expect(error).toBeInstanceOf(TaskMismatchError);
    expect(error).toMatchObject({ code: 'TASK_MISMATCH', path: '/operation_id' });
  });

  test('a delivery that came before the wait started is kept and ends it; B’s kept one is not', async () => {
    const receiver = receiverOfTwoSellers();
    await receiver.receive(await delivery(es256, { task_id: 'task_cmb_4821', operation_id: 'op_a_1' }, 'mb_forged_by_b'));
    await receiver.receive(await delivery(ed25519, { task_id: 'task_cmb_4821', operation_id: 'op_a_1' }, 'mb_4821'));
    const polls = seller.calls.length;
    const wait = waitOfA(receiver);
    expect(await wait.settled).toEqual({ data: expect.objectContaining({ media_buy_id: 'mb_4821' }) });
    expect(seller.calls.length - polls).toBeLessThanOrEqual(1);
  });

  test('recent: 0 keeps nothing: an early delivery is left to the polls', async () => {
    const receiver = createWebhookReceiver({
      endpoint: BUYER_ORIGIN,
      keys: (kid) => {
        const jwk = publicJwks.find((k) => k.kid === kid);
        return jwk === undefined ? undefined : { jwk, agent: SELLER_A };
      },
      version: '3.1',
      recent: { count: 0 },
    });
    await receiver.receive(await delivery(ed25519, { task_id: 'task_cmb_4821', operation_id: 'op_a_1' }, 'mb_4821'));
    const wait = waitOfA(receiver as ReturnType<typeof receiverOfTwoSellers>);
    await tick();
    wait.stop();
    expect(await wait.settled).toEqual({ error: new Error('test over') });
  });

  test('a handle without its agent: INVALID_OPTION from deliveries() and from the wait, before any poll', async () => {
    const receiver = receiverOfTwoSellers();
    const { agent: _agent, ...anonymous } = handleA;
    expect(() => receiver.deliveries(anonymous)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    const polls = seller.calls.length;
    const error = await waitForTask(seller.client, anonymous, { webhooks: receiver.deliveries(handleA), clock: heldClock }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'INVALID_OPTION', message: expect.stringContaining('handle.agent') });
    expect(seller.calls.length).toBe(polls);
  });

  test("a source whose return() throws synchronously leaves the wait's result standing", async () => {
    const receiver = receiverOfTwoSellers();
    const inner = receiver.deliveries(handleA);
    const source: AsyncIterable<WebhookOutcome> = {
      [Symbol.asyncIterator]: () => ({
        next: () => inner.next(),
        return: () => {
          throw new Error('the source cannot close');
        },
      }),
    };
    const settled = waitForTask(seller.client, handleA, { webhooks: source, clock: heldClock });
    await tick();
    await receiver.receive(await delivery(ed25519, { task_id: 'task_cmb_4821', operation_id: 'op_a_1' }, 'mb_4821'));
    await expect(settled).resolves.toMatchObject({ media_buy_id: 'mb_4821' });
  });
});
