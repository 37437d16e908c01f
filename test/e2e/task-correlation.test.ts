/**
 * A task's later answers tied to the call that started it, end to end over the real SDKs on
 * 127.0.0.1: callTask (MCP, A2A) sends create_media_buy with a push_notification_config, the
 * seller answers `submitted` with its task_id, and the buyer keeps the task's handle. The poll
 * (`get_task_status`, decodeTaskStatus with the handle) and the signed webhook the seller
 * delivers to the buyer's real receiver (`handles`) both resolve to that handle, typed by its
 * task; a poll or a webhook naming another task_id or task_type is TASK_MISMATCH. Over A2A the
 * poll is the `get_task_status` skill, not native GetTask, which observes the A2A transport task
 * (a2a-response-format.mdx: "Native GetTask ... does not replace get_task_status").
 */
import { TaskState } from '@a2a-js/sdk-v1';
import type { Client as A2aSdkClient } from '@a2a-js/sdk-v1/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from 'vitest';
import { a2aRequest, callTask as callA2a } from '../../src/a2a/index.js';
import { boundedFetch } from '../../src/fetch/index.js';
import type { CreateMediaBuyRequest } from '../../src/generated/v3_1/pinned.js';
import {
  decodeTaskStatus,
  encode,
  newIdempotencyKey,
  type PolledTaskOf,
  type TaskHandle,
  TaskMismatchError,
  taskHandle,
} from '../../src/index.js';
import { type Called, callTask as callMcp } from '../../src/mcp/index.js';
import { mediaBuyRequest } from '../encode/requests.js';
import { dataPart, executor, type ServedAgent, serveAgent, taskEvents } from '../fixtures/a2a-sellers.js';
import { lowLevelSeller, type ServedSellers, serveSellers } from '../fixtures/mcp-sellers.js';
import { type V3_0, V3_1 } from '../fixtures/versions.js';
import { type BuyerService, deliver, serveBuyer } from '../fixtures/webhook-buyer.js';
import { caughtAs } from '../helpers.js';
import { SELLER } from '../webhooks/fixtures.js';

/** The create_media_buy result of a task, once approved. */
function mediaBuyResult(taskId: string): Record<string, unknown> {
  return {
    media_buy_id: `mb_${taskId.slice(-4)}`,
    media_buy_status: 'active',
    confirmed_at: '2026-04-18T09:59:50Z',
    revision: 1,
    packages: [{ package_id: 'pkg_ctv_sports', status: 'active' }],
  };
}

/** A create_media_buy the seller accepted: what it must echo in every webhook of the task. */
interface SellerTask {
  readonly taskId: string;
  readonly operationId: string;
  readonly url: string;
}

/**
 * One seller's books, whatever its transport: the tasks it queued, and the answer to a poll,
 * which a test may misroute (another task's id or type), as a confused seller or a proxy would.
 */
class SellerBooks {
  readonly tasks: SellerTask[] = [];
  misroute: Record<string, unknown> = {};
  /** @param next - The seller's next task number (sellers number their tasks apart). */
  constructor(private next: number) {}

  /** create_media_buy: queued for approval, `submitted` with a fresh task_id, the context echoed. */
  created(args: Record<string, unknown>): Record<string, unknown> {
    const config = args.push_notification_config as { url: string; operation_id: string };
    const taskId = `task_cmb_${this.next++}`;
    this.tasks.push({ taskId, operationId: config.operation_id, url: config.url });
    return { status: 'submitted', task_id: taskId, adcp_version: '3.1', message: 'Awaiting sales approval.', context: args.context };
  }

  /** get_task_status: the task completed, its result enclosed. */
  polled(args: Record<string, unknown>): Record<string, unknown> {
    return {
      task_id: args.task_id,
      task_type: 'create_media_buy',
      protocol: 'media-buy',
      status: 'completed',
      created_at: '2026-04-18T09:55:00Z',
      updated_at: '2026-04-18T09:59:58Z',
      completed_at: '2026-04-18T09:59:58Z',
      result: mediaBuyResult(String(args.task_id)),
      adcp_version: '3.1',
      ...this.misroute,
    };
  }

  answer(task: string, args: Record<string, unknown>): Record<string, unknown> {
    if (task === 'create_media_buy') return this.created(args);
    if (task === 'get_task_status') return this.polled(args);
    throw new Error(`this seller has no task ${task}`);
  }
}

/** The webhook a seller sends for one of its tasks (mcp-webhook-payload), with `extra` over it. */
function webhookOf(task: SellerTask, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    idempotency_key: `whk_${crypto.randomUUID()}`,
    operation_id: task.operationId,
    task_id: task.taskId,
    task_type: 'create_media_buy',
    protocol: 'media-buy',
    status: 'completed',
    timestamp: new Date().toISOString(),
    message: 'Media buy approved',
    result: mediaBuyResult(task.taskId),
    ...extra,
  };
}

/** What a test needs of a transport: the typed call, and the raw poll answer for decodeTaskStatus. */
interface Transport {
  readonly books: SellerBooks;
  create(plan: CreateMediaBuyRequest): Promise<Called<'create_media_buy', { readonly version: '3.1' }>>;
  poll(taskId: string): Promise<unknown>;
}

let buyer: BuyerService;
let mcpSellers: ServedSellers;
let mcpClient: Client;
let a2aSeller: ServedAgent;
let a2aClient: A2aSdkClient;
const mcpBooks = new SellerBooks(4821);
const a2aBooks = new SellerBooks(7310);

beforeAll(async () => {
  buyer = await serveBuyer();
  mcpSellers = await serveSellers({
    seller: lowLevelSeller({
      call: (params) => {
        const payload = mcpBooks.answer(params.name, params.arguments ?? {});
        return { content: [{ type: 'text', text: JSON.stringify(payload) }], structuredContent: payload };
      },
    }),
  });
  mcpClient = new Client({ name: 'buyer', version: '1.0.0' });
  await mcpClient.connect(
    new StreamableHTTPClientTransport(new URL('seller', mcpSellers.base), { fetch: boundedFetch({ maxBytes: 1024 * 1024 }) }),
  );
  a2aSeller = await serveAgent(
    executor(async (ctx, bus) => {
      const first = ctx.userMessage.parts[0]?.content;
      const invocation = (first?.$case === 'data' ? first.value : {}) as { skill: string; input: Record<string, unknown> };
      const { submitted, status, artifact } = taskEvents(ctx, bus);
      submitted();
      // An AdCP `submitted` answer ends the handler: the A2A task completes, the DataPart says submitted.
      artifact([dataPart(a2aBooks.answer(invocation.skill, invocation.input))], false, true);
      status(TaskState.TASK_STATE_COMPLETED);
      bus.finished();
    }),
  );
  a2aClient = await a2aSeller.client(boundedFetch({ maxBytes: 1024 * 1024 }));
});
afterAll(async () => {
  await mcpClient?.close();
  await mcpSellers?.close();
  await a2aSeller?.close();
  await buyer?.close();
});

const transports: Record<'MCP' | 'A2A', () => Transport> = {
  MCP: () => ({
    books: mcpBooks,
    create: (plan) => callMcp(mcpClient, 'create_media_buy', plan, { version: '3.1' }),
    poll: (taskId) => mcpClient.callTool({ name: 'get_task_status', arguments: { task_id: taskId } }),
  }),
  A2A: () => ({
    books: a2aBooks,
    create: (plan) => callA2a(a2aClient, 'create_media_buy', plan, { version: '3.1' }),
    poll: (taskId) => a2aClient.sendMessage(a2aRequest(encode('get_task_status', { task_id: taskId }, { version: '3.1' }))),
  }),
};

/** A buyer's create_media_buy with a webhook registration of its own operation id. */
function planWithWebhook(operationId: string): CreateMediaBuyRequest {
  return {
    ...mediaBuyRequest(2, newIdempotencyKey()),
    push_notification_config: { url: `${buyer.origin}/adcp/webhook/create_media_buy/${operationId}`, operation_id: operationId },
  };
}

/** Calls create_media_buy, expects `submitted`, and returns the task's handle and the seller's record of it. */
async function submitted(transport: Transport, operationId: string): Promise<{ handle: TaskHandle<'create_media_buy'>; task: SellerTask }> {
  const answer = await transport.create(planWithWebhook(operationId));
  if (answer.status !== 'submitted') throw new Error(`expected submitted, got ${answer.status}`);
  // The answer does not say which seller sent it; the buyer does: the agent it called, as its receiver names the signer.
  const handle = taskHandle('create_media_buy', answer, { agent: SELLER });
  if (handle === undefined) throw new Error('expected a handle for a submitted answer with a task_id');
  const task = transport.books.tasks.at(-1) as SellerTask;
  return { handle, task };
}

/** The fields a handle is stored and compared by. */
const fieldsOf = (h: TaskHandle | undefined) => h && { task: h.task, taskId: h.taskId, version: h.version, operationId: h.operationId };

describe.each(Object.keys(transports) as Array<keyof typeof transports>)('over %s', (name) => {
  const transport = transports[name]();

  test('a poll and a signed webhook for the task resolve to its handle, typed by its task', async () => {
    const op = `op_${name.toLowerCase()}_1`;
    const { handle, task } = await submitted(transport, op);
    expect(fieldsOf(handle)).toEqual({ task: 'create_media_buy', taskId: task.taskId, version: V3_1, operationId: op });

    // The seller is quick: its first delivery arrives before the buyer stored the handle. 503, so it retries.
    expect(await deliver(task.url, webhookOf(task))).toBe(503);
    expect(buyer.log.at(-1)).toMatchObject({ status: 503, code: 'webhook_task_unknown' });
    buyer.store(handle);

    const polled = decodeTaskStatus(await transport.poll(handle.taskId), { handle });
    expectTypeOf(polled).toEqualTypeOf<PolledTaskOf<'create_media_buy', V3_0 | V3_1>>();
    expect(polled).toMatchObject({ taskId: handle.taskId, taskType: 'create_media_buy', status: 'completed', version: V3_1 });
    expect(polled.data).toMatchObject({ media_buy_id: `mb_${task.taskId.slice(-4)}` });

    expect(await deliver(task.url, webhookOf(task))).toBe(200);
    expect(buyer.log.at(-1)).toEqual({
      status: 200,
      handle: expect.objectContaining(fieldsOf(handle)),
      taskType: 'create_media_buy',
      taskId: task.taskId,
      webhookStatus: 'completed',
      mediaBuyId: `mb_${task.taskId.slice(-4)}`,
    });
  });

  test('a poll answer naming another task_id or task_type: TASK_MISMATCH, before its result is read', async () => {
    const { handle } = await submitted(transport, `op_${name.toLowerCase()}_2`);
    const cases = [
      { misroute: { task_id: 'task_cmb_9999' }, path: '/task_id', received: 'task_cmb_9999' },
      {
        misroute: { task_type: 'sync_creatives', protocol: 'creative', result: undefined },
        path: '/task_type',
        received: 'sync_creatives',
      },
    ];
    for (const { misroute, path, received } of cases) {
      transport.books.misroute = misroute;
      try {
        const answer = await transport.poll(handle.taskId);
        const error = caughtAs(TaskMismatchError, () => decodeTaskStatus(answer, { handle }));
        expect(error).toMatchObject({ code: 'TASK_MISMATCH', path, received, task: 'create_media_buy' });
      } finally {
        transport.books.misroute = {};
      }
    }
  });

  test('a webhook naming another task_id or task_type: TASK_MISMATCH, 400, and the application never sees it', async () => {
    const { handle, task } = await submitted(transport, `op_${name.toLowerCase()}_3`);
    buyer.store(handle);
    const before = buyer.log.filter((d) => d.status === 200).length;
    // Found by its operation_id, but another task's id.
    expect(await deliver(task.url, webhookOf(task, { task_id: 'task_cmb_0001' }))).toBe(400);
    expect(buyer.log.at(-1)).toEqual({ status: 400, code: 'TASK_MISMATCH', path: '/task_id' });
    // Found by its task_id, but another task type (a working update, so that the mismatch alone refuses it).
    expect(await deliver(task.url, webhookOf(task, { task_type: 'sync_creatives', status: 'working', result: undefined }))).toBe(400);
    expect(buyer.log.at(-1)).toEqual({ status: 400, code: 'TASK_MISMATCH', path: '/task_type' });
    expect(buyer.log.filter((d) => d.status === 200).length).toBe(before);
  });
});
