/**
 * callTask and streamTask (adcp-decode/a2a) end to end: a real @a2a-js/sdk seller agent on
 * 127.0.0.1 (JSON-RPC), called through a real SDK Client. The seller reads the skill and its input
 * from the message's DataPart, as the a2a-guide defines the invocation, and answers by the brief.
 */
import { readFileSync } from 'node:fs';
import { TaskState } from '@a2a-js/sdk-v1';
import type { Client } from '@a2a-js/sdk-v1/client';
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from 'vitest';
import { callTask, foldA2aStream, safeCallTask, streamTask } from '../../src/a2a/index.js';
import { boundedFetch } from '../../src/fetch/index.js';
import { type decode, LimitError, RequestError, TaskFailedError } from '../../src/index.js';
import { PRODUCTS_BRIEF } from '../encode/requests.js';
import { dataPart, executor, type ServedAgent, serveAgent, taskEvents, textPart } from '../fixtures/a2a-sellers.js';

const payload = (
  JSON.parse(readFileSync(new URL('../../examples/get-products.mcp.json', import.meta.url), 'utf8')) as {
    structuredContent: Record<string, unknown> & { products: Array<Record<string, unknown>> };
  }
).structuredContent;
const adcpError = { code: 'RATE_LIMITED', message: 'Too many requests for this account.', recovery: 'transient', retry_after: 30 };

/** The DataParts the seller received, in order. */
const invocations: unknown[] = [];

const seller = executor(async (ctx, bus) => {
  const first = ctx.userMessage.parts[0]?.content;
  const invocation = (first?.$case === 'data' ? first.value : undefined) as { skill?: string; input?: Record<string, unknown> } | undefined;
  invocations.push(invocation);
  const input = invocation?.input ?? {};
  const { submitted, status, artifact } = taskEvents(ctx, bus);
  submitted();
  const answer = { ...payload, context: input.context };
  switch (input.brief) {
    case 'failed':
      status(TaskState.TASK_STATE_FAILED, [textPart('Rate limited'), dataPart({ adcp_error: adcpError })]);
      break;
    case 'streamed':
      status(TaskState.TASK_STATE_WORKING, [dataPart({ status: 'working', percentage: 10 })]);
      artifact([dataPart({ ...answer, products: answer.products.slice(0, 1) })], false, false);
      artifact([dataPart(answer)], true, true);
      status(TaskState.TASK_STATE_COMPLETED);
      break;
    case 'oversized': {
      const products = Array.from({ length: 1500 }, (_, i) => ({
        ...payload.products[0],
        product_id: `p-${i}`,
        description: 'x'.repeat(1000),
      }));
      artifact([dataPart({ ...answer, products })], false, true);
      status(TaskState.TASK_STATE_COMPLETED);
      break;
    }
    case 'silent':
      return new Promise(() => undefined); // never finishes
    default:
      artifact([textPart('Found 3 products.'), dataPart(answer)], false, true);
      status(TaskState.TASK_STATE_COMPLETED);
  }
  bus.finished();
});

let served: ServedAgent;
let agent: Client;
/** The same agent through boundedFetch (1 MiB), as the README wires it. */
let bounded: Client;

beforeAll(async () => {
  served = await serveAgent(seller);
  agent = await served.client();
  bounded = await served.client(boundedFetch({ maxBytes: 1024 * 1024 }));
});
afterAll(() => served.close());

const brief = (text: string) => ({ ...PRODUCTS_BRIEF, brief: text });

describe('callTask over the real A2A SDK', () => {
  test('typed in and out: the message is a DataPart { skill, input } with the stamped request; the task decodes', async () => {
    const response = await callTask(agent, 'get_products', PRODUCTS_BRIEF, { version: '3.1' });
    expectTypeOf(response).toEqualTypeOf<ReturnType<typeof decode<'get_products', '3.1'>>>();
    if (response.status !== 'completed') throw new Error(`expected completed, got ${response.status}`);
    expect(response.products?.map((p) => p.product_id)).toEqual(['ctv-prime-time-us', 'news-display-ros', 'podcast-midroll-tech']);
    expect(invocations.at(-1)).toEqual({ skill: 'get_products', input: { ...PRODUCTS_BRIEF, adcp_version: '3.1', adcp_major_version: 3 } });
  });

  test('a failed task: TaskFailedError with the seller error, the seller words kept', async () => {
    const result = await safeCallTask(agent, 'get_products', brief('failed'));
    if (result.success) throw new Error('expected a failure');
    expect(result.error).toBeInstanceOf(TaskFailedError);
    expect(result.error).toMatchObject({ code: 'TASK_FAILED', adcpError, recovery: { recovery: 'transient', retryAfterSeconds: 30 } });
  });

  test('arguments the schema refuses: RequestError, and nothing is sent', async () => {
    const before = invocations.length;
    // @ts-expect-error buying_mode is required by the request type
    const call = callTask(agent, 'get_products', { brief: 'no mode' }, { version: '3.1' });
    await expect(call).rejects.toBeInstanceOf(RequestError);
    expect(invocations.length).toBe(before);
  });

  test('an oversize answer through boundedFetch: TOO_LARGE, from the fetch bound callTask wires', async () => {
    const call = callTask(bounded, 'get_products', brief('oversized'), { timeoutMs: 120_000 });
    await expect(call).rejects.toBeInstanceOf(LimitError);
    await expect(call).rejects.toMatchObject({ code: 'TOO_LARGE', unit: 'bytes', limit: 1024 * 1024 });
  });

  test('a seller that never finishes: TIMEOUT at the call deadline, sent or streamed', async () => {
    for (const call of [callTask, streamTask]) {
      const error: unknown = await call(agent, 'get_products', brief('silent'), { timeoutMs: 300 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(LimitError);
      expect(error).toMatchObject({ code: 'TIMEOUT', unit: 'ms', limit: 300 });
    }
  });
});

describe('streamTask: the stream folded into its final task, then decoded', () => {
  test('appended artifact chunks: the last DataPart of the folded artifact is the answer', async () => {
    const response = await streamTask(agent, 'get_products', brief('streamed'), { version: '3.1' });
    if (response.status !== 'completed') throw new Error(`expected completed, got ${response.status}`);
    expect(response.products).toHaveLength(3);
    expect(response.context).toEqual(PRODUCTS_BRIEF.context);
  });

  test('foldA2aStream refuses an event of another task, and a stream with no event', () => {
    const task = { task: { id: 't1', contextId: 'c', status: { state: 'TASK_STATE_SUBMITTED' } } };
    const other = { statusUpdate: { taskId: 't2', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } } };
    expect(() => foldA2aStream([task, other])).toThrow(expect.objectContaining({ code: 'MALFORMED_ENVELOPE', path: '/1' }));
    expect(() => foldA2aStream([])).toThrow(expect.objectContaining({ code: 'NO_PAYLOAD' }));
    expect(() => foldA2aStream([task, 42])).toThrow(expect.objectContaining({ code: 'MALFORMED_ENVELOPE', path: '/1' }));
  });

  test('foldA2aStream returns a fresh plain copy: a prototype key anywhere is UNSAFE_JSON, never handed back', () => {
    const update = (data: string) =>
      JSON.parse(`{"artifactUpdate":{"taskId":"t1","contextId":"c","artifact":{"artifactId":"a","parts":[{"data":${data}}]}}}`) as unknown;
    const task = { task: { id: 't1', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } } };
    for (const data of ['{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}'])
      expect(() => foldA2aStream([task, update(data)])).toThrow(expect.objectContaining({ code: 'UNSAFE_JSON' }));
    const folded = foldA2aStream([task, update('{"products":[]}')]);
    expect(folded).toEqual({ ...task.task, artifacts: [{ artifactId: 'a', parts: [{ data: { products: [] } }] }] });
    expect(folded.status).not.toBe(task.task.status);
    expect(Object.getPrototypeOf(folded)).toBe(Object.prototype);
  });
  test('foldA2aStream: past 10,000 events is TOO_MANY_VALUES', () => {
    const task = { task: { id: 't1', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } } };
    expect(() => foldA2aStream(Array.from({ length: 10_001 }, () => task))).toThrow(
      expect.objectContaining({ code: 'TOO_MANY_VALUES', limit: 10_000 }),
    );
  });
});
