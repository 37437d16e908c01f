/**
 * End to end over A2A: a real seller agent built with @a2a-js/sdk (an AgentExecutor behind
 * DefaultRequestHandler and the Express JSON-RPC handler) on 127.0.0.1, called by a real SDK
 * Client (ClientFactory, JSON-RPC transport); what the client returns goes into adcp-decode.
 *
 * The SDK client (1.x, A2A 1.0) returns its in-memory protobuf objects: numeric `status.state`
 * (3, not `TASK_STATE_COMPLETED`) and parts as `{ content: { $case: 'data', value } }`. decode
 * reads them as the wire form they stand for (ProtoJSON), the same as the SDK's own
 * `Task.toJSON` / `StreamResponse.toJSON` yields; the tests below decode that wire form.
 *
 * The user message's text picks the scenario: completed, working, failed, streamed.
 */
import { readFileSync } from 'node:fs';
import { Message, Role, StreamResponse, Task, TaskState } from '@a2a-js/sdk-v1';
import type { Client } from '@a2a-js/sdk-v1/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { foldA2aStream } from '../../src/a2a/fold-stream.js';
import { decode, safeDecode, TaskFailedError } from '../../src/index.js';
import { dataPart, executor, type ServedAgent, serveAgent, taskEvents, textPart } from '../fixtures/a2a-sellers.js';
import { V3_1 } from '../fixtures/versions.js';

/** A valid AdCP 3.1 get_products payload with 3 products. */
const payload = (
  JSON.parse(readFileSync(new URL('../../examples/get-products.mcp.json', import.meta.url), 'utf8')) as {
    structuredContent: { products: unknown[] };
  }
).structuredContent;
/** A valid first draft with one product, which a later DataPart supersedes. */
const draft = { ...payload, products: payload.products.slice(0, 1) };
const adcpError = { code: 'RATE_LIMITED', message: 'Too many requests for this account.', recovery: 'transient', retry_after: 30 };

/** An AdCP seller agent: get_products answered in the way the user message names. */
const seller = executor(async (ctx, bus) => {
  const first = ctx.userMessage.parts[0]?.content;
  const scenario = first?.$case === 'text' ? first.value : '';
  const { submitted, status, artifact } = taskEvents(ctx, bus);
  submitted();
  switch (scenario) {
    case 'completed':
      artifact([textPart('Found 3 products for your brief.'), dataPart(payload)], false, true);
      status(TaskState.TASK_STATE_COMPLETED);
      break;
    case 'working':
      // Still searching: an interim DataPart; the executor returns and the task stays working.
      status(TaskState.TASK_STATE_WORKING, [
        textPart('Searching inventory'),
        dataPart({ status: 'working', percentage: 40, current_step: 'searching_inventory' }),
      ]);
      break;
    case 'failed':
      status(TaskState.TASK_STATE_FAILED, [textPart('Rate limited'), dataPart({ adcp_error: adcpError })]);
      break;
    case 'streamed':
      status(TaskState.TASK_STATE_WORKING, [dataPart({ status: 'working', percentage: 10, current_step: 'searching_inventory' })]);
      artifact([dataPart(draft)], false, false);
      status(TaskState.TASK_STATE_WORKING, [dataPart({ status: 'working', percentage: 80, current_step: 'validating_availability' })]);
      artifact([dataPart(payload)], true, true);
      status(TaskState.TASK_STATE_COMPLETED);
      break;
  }
  bus.finished();
});

let served: ServedAgent;
let client: Client;

beforeAll(async () => {
  served = await serveAgent(seller);
  client = await served.client();
});

afterAll(() => served.close());

function request(scenario: string) {
  return {
    tenant: '',
    message: {
      messageId: crypto.randomUUID(),
      contextId: '',
      taskId: '',
      role: Role.ROLE_USER,
      parts: [textPart(scenario)],
      metadata: { adcp_task: 'get_products' },
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  };
}

/** sendMessage, asserting the seller answered with a Task (not a bare Message). */
async function send(scenario: string): Promise<Task> {
  const result = await client.sendMessage(request(scenario));
  if (!('status' in result)) throw new Error(`expected a Task, got a Message for ${scenario}`);
  return result;
}

function outcome(input: unknown): Record<string, unknown> {
  const result = safeDecode('get_products', input);
  if (!result.success) {
    const e = result.error;
    return { code: e.code, message: e.message, ...(e instanceof TaskFailedError ? { adcpError: e.adcpError, recovery: e.recovery } : {}) };
  }
  const data = result.data as Record<string, unknown>;
  return {
    ok: true,
    version: result.version,
    status: data.status,
    ...(Array.isArray(data.products) ? { products: data.products.length } : { percentage: data.percentage }),
  };
}

describe('A2A JSON-RPC, real SDK client and server', () => {
  test('the SDK client returns protobuf objects; decode reads them as the wire form they stand for (Task.toJSON)', async () => {
    const task = await send('completed');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts[0]?.parts[1]?.content?.$case).toBe('data');
    expect((Task.toJSON(task) as { status: { state: string } }).status.state).toBe('TASK_STATE_COMPLETED');
    expect(outcome(task)).toStrictEqual(outcome(Task.toJSON(task)));
    expect(outcome(task)).toMatchObject({ ok: true, status: 'completed', products: 3 });
    for (const scenario of ['working', 'failed']) {
      const other = await send(scenario);
      expect(outcome(other)).toStrictEqual(outcome(Task.toJSON(other)));
    }
    // A state outside the SDK's enum is still no known state.
    expect(outcome({ ...task, status: { ...task.status, state: 42 } })).toMatchInlineSnapshot(`
      {
        "code": "MALFORMED_ENVELOPE",
        "message": "expected a known A2A task state; got number 42, outside the A2A TaskState enum (0 to 8)",
      }
    `);
  });

  test('completed: the result is the artifact DataPart', async () => {
    const task = Task.toJSON(await send('completed'));
    expect(outcome(task)).toMatchInlineSnapshot(`
      {
        "ok": true,
        "products": 3,
        "status": "completed",
        "version": "${V3_1}",
      }
    `);
    const data = decode('get_products', task);
    if (data.status === 'working' || data.status === 'submitted' || data.status === 'input-required')
      throw new Error('expected the final response');
    expect(data.products?.map((p) => p.product_id)).toEqual(['ctv-prime-time-us', 'news-display-ros', 'podcast-midroll-tech']);
  });

  test('working: the interim DataPart in status.message decodes as the working variant', async () => {
    const task = Task.toJSON(await send('working'));
    expect(task).toMatchObject({ status: { state: 'TASK_STATE_WORKING' } });
    expect(outcome(task)).toMatchInlineSnapshot(`
      {
        "ok": true,
        "percentage": 40,
        "status": "working",
        "version": "${V3_1}",
      }
    `);
    const data = decode('get_products', task);
    if (data.status !== 'working') throw new Error('expected the working variant');
    expect(data.percentage).toBe(40);
  });

  test('failed: the client returns the task (no throw); adcp_error in status.message is TASK_FAILED', async () => {
    const task = Task.toJSON(await send('failed'));
    expect(task).toMatchObject({ status: { state: 'TASK_STATE_FAILED' } });
    expect(outcome(task)).toMatchInlineSnapshot(`
      {
        "adcpError": {
          "code": "RATE_LIMITED",
          "message": "Too many requests for this account.",
          "recovery": "transient",
          "retry_after": 30,
        },
        "code": "TASK_FAILED",
        "message": "get_products failed: the seller answered with an AdCP error with error code "RATE_LIMITED" (transient, retry after 30 s); the seller said "Too many requests for this account."",
        "recovery": {
          "recovery": "transient",
          "retryAfterSeconds": 30,
        },
      }
    `);
  });

  test('streamed: each event decodes as it comes, and the last DataPart of the final task is authoritative', async () => {
    const events: unknown[] = [];
    for await (const event of client.sendMessageStream(request('streamed'))) events.push(StreamResponse.toJSON(event));
    // Single-key envelopes, as on the wire: { task }, { statusUpdate }, { artifactUpdate }.
    expect(events.map((e) => Object.keys(e as object)[0])).toMatchInlineSnapshot(`
      [
        "task",
        "statusUpdate",
        "artifactUpdate",
        "statusUpdate",
        "artifactUpdate",
        "statusUpdate",
      ]
    `);
    expect(events.map((e) => outcome(e))).toMatchInlineSnapshot(`
      [
        {
          "code": "NO_PAYLOAD",
          "message": "found no DataPart with the get_products payload in the A2A submitted update (optional in an interim state), and the submitted schema of get_products needs data the state alone does not give; decode a later update that carries it",
        },
        {
          "ok": true,
          "percentage": 10,
          "status": "working",
          "version": "${V3_1}",
        },
        {
          "code": "NO_PAYLOAD",
          "message": "expected an A2A task with status.state; got an artifactUpdate envelope without one",
        },
        {
          "ok": true,
          "percentage": 80,
          "status": "working",
          "version": "${V3_1}",
        },
        {
          "code": "NO_PAYLOAD",
          "message": "expected an A2A task with status.state; got an artifactUpdate envelope without one",
        },
        {
          "code": "NO_PAYLOAD",
          "message": "expected an A2A DataPart holding the get_products payload for state completed; found none",
        },
      ]
    `);
    const taskId = (events[0] as { task: { id: string } }).task.id;
    const final = Task.toJSON(await client.getTask({ tenant: '', id: taskId }));
    expect((final as { artifacts: Array<{ parts: unknown[] }> }).artifacts[0]?.parts).toHaveLength(2);
    expect(outcome(final)).toMatchInlineSnapshot(`
      {
        "ok": true,
        "products": 3,
        "status": "completed",
        "version": "${V3_1}",
      }
    `);
  });

  test('streamed: foldA2aStream folds the events, as sent or as the SDK objects, into the task getTask returns', async () => {
    const sdkEvents: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(request('streamed'))) sdkEvents.push(event);
    const folded = foldA2aStream(sdkEvents);
    expect(foldA2aStream(sdkEvents.map((e) => StreamResponse.toJSON(e)))).toStrictEqual(folded);
    const final = Task.toJSON(await client.getTask({ tenant: '', id: String(folded.id) })) as Record<string, unknown>;
    // What the server's own reducer built, but the history and timestamps a buyer does not fold.
    expect({ ...folded, status: { ...(folded.status as object), timestamp: 0 } }).toStrictEqual({
      id: final.id,
      contextId: final.contextId,
      status: { ...(final.status as object), timestamp: 0 },
      artifacts: final.artifacts,
      history: (sdkEvents[0]?.payload?.value as Task | undefined)?.history.map((m) => Message.toJSON(m)),
    });
    const data = decode('get_products', folded);
    if (data.status !== 'completed') throw new Error('expected the final response');
    expect(data.products).toHaveLength(3);
  });
});
