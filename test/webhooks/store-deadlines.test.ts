/**
 * The store command deadline (`storeTimeoutMs`) against real Redis servers this file starts and
 * pauses with SIGSTOP (a blocked Redis: the connection stays up, no command is answered). The
 * receiver fails closed, 503 and blamed on the dependency, while Redis is stopped; it works again
 * once Redis is continued. Nothing here asserts how long anything took, only what the outcome was
 * and that it came while Redis was stopped (its process state, read from /proc, still `T`).
 */
import { readFileSync } from 'node:fs';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRedisDedupStore, createRedisReplayStore, createWebhookReceiver, type ReceivedWebhook } from '../../src/webhooks/index.js';
import { completedBody } from './fixtures.js';
import { delivered, type Outcome, outcome, RECEIVER_BASE, signedRequest } from './outcomes.js';
import { type RedisServer, startRedis } from './redis-server.js';

let replayServer: RedisServer;
let dedupServer: RedisServer;
let replayClient: RedisClientType;
let dedupClient: RedisClientType;

async function connected(server: RedisServer): Promise<RedisClientType> {
  const client: RedisClientType = createClient({ url: server.url });
  // Without a listener node-redis ends the process when the connection errs.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

beforeAll(async () => {
  [replayServer, dedupServer] = await Promise.all([startRedis(), startRedis()]);
  [replayClient, dedupClient] = await Promise.all([connected(replayServer), connected(dedupServer)]);
});
afterAll(async () => {
  await Promise.all([replayClient?.quit(), dedupClient?.quit()]);
  await Promise.all([replayServer?.stop(), dedupServer?.stop()]);
});

/** The state letter of a Linux process (/proc/<pid>/stat): `T` while it is stopped. */
function processState(pid: number | undefined): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}

/**
 * Runs `work` while `server` is stopped (SIGSTOP), and continues it after, whatever happened;
 * `stateWhenDone` is the server's process state when `work` settled (`T`: still stopped).
 */
async function whileStopped<T>(server: RedisServer, work: () => Promise<T>): Promise<{ result: T; stateWhenDone: string }> {
  server.process.kill('SIGSTOP');
  try {
    const result = await work();
    return { result, stateWhenDone: processState(server.process.pid) };
  } finally {
    server.process.kill('SIGCONT');
  }
}

function receiver() {
  return createWebhookReceiver({
    ...RECEIVER_BASE,
    storeTimeoutMs: 200,
    replayStore: createRedisReplayStore({ client: replayClient, prefix: `{deadline-${Math.random()}}:` }),
    dedup: { store: createRedisDedupStore({ client: dedupClient, prefix: `{deadline-${Math.random()}}:` }) },
  });
}

describe('a blocked Redis fails closed at the command deadline', () => {
  test('the replay store: 503 webhook_replay_store_unavailable, blamed on the dependency', async () => {
    const rx = receiver();
    const request = await signedRequest(completedBody());
    const { result, stateWhenDone } = await whileStopped(replayServer, () => outcome(rx.receive(request)));
    expect(stateWhenDone).toBe('T');
    expect(result.ok ? undefined : result.answer).toMatchObject({ status: 503, blame: 'dependency' });
    expect(result.ok ? undefined : result.error).toMatchObject({
      webhookCode: 'webhook_replay_store_unavailable',
      message: expect.stringMatching(/did not answer within 200 ms \(storeTimeoutMs\); the receiver fails closed/),
    });
    // Continued, the same receiver takes a new delivery (the sender's retry has a fresh signature).
    expect((await outcome(rx.receive(await signedRequest(completedBody())))).ok).toBe(true);
  });
  test('the dedup store: 503 webhook_dedup_store_unavailable, nothing handed to the application', async () => {
    const rx = receiver();
    const request = await signedRequest(completedBody());
    const { result, stateWhenDone } = await whileStopped(dedupServer, () => outcome(rx.receive(request)));
    expect(stateWhenDone).toBe('T');
    expect(result.ok ? undefined : result.error).toMatchObject({
      webhookCode: 'webhook_dedup_store_unavailable',
      httpStatus: 503,
      blame: 'dependency',
    });
  });
  test("the application's complete() while the dedup store is blocked: it rejects (answer 503), it does not hang", async () => {
    const rx = receiver();
    const hook = await delivered(rx.receive(await signedRequest(completedBody())));
    const { result, stateWhenDone } = await whileStopped(dedupServer, () =>
      (hook.dedup as NonNullable<ReceivedWebhook['dedup']>).complete().then(
        () => 'completed',
        (error: unknown) => (error as { webhookCode?: string }).webhookCode,
      ),
    );
    expect([result, stateWhenDone]).toEqual(['webhook_dedup_store_unavailable', 'T']);
  });
  test('after SIGCONT the stores answer again', async () => {
    const result: Outcome = await outcome(receiver().receive(await signedRequest(completedBody())));
    expect(result.ok).toBe(true);
  });
});
