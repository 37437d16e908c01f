/**
 * The OpenTelemetry adapter of docs/observability.md, run as the page shows it: its block written
 * to a folder of its own (with @opentelemetry/api beside it, a devDependency, never the package's)
 * and imported, then given as `onEvent` to callTask, waitForTask and a webhook receiver, against the
 * OpenTelemetry SDK's in-memory span exporter and a metric reader. A call with a retry is a span
 * with its two attempts as children, the refused one marked with its code and HTTP status; a wait
 * is a span with its polls as span events; each received webhook a span; the metrics count by
 * outcome. readme.test.ts compiles the same block strict.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Meter, Tracer } from '@opentelemetry/api';
import { AggregationTemporality, MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../../scripts/schema-paths.js';
import { type AdcpEventListener, callTask, type McpClient, safeCallTask, waitForTask } from '../../src/mcp/index.js';
import { createMemoryReplayStore, createWebhookReceiver } from '../../src/webhooks/index.js';
import { PRODUCTS_BRIEF } from '../encode/requests.js';
import { payload } from '../fixtures/payloads.js';
import { pollResponse } from '../fixtures/poll-sellers.js';
import { V3_1 } from '../fixtures/versions.js';
import { completedBody, SELLER } from '../webhooks/fixtures.js';
import { nowMs, RECEIVER_BASE, signedRequest } from '../webhooks/outcomes.js';

/** The adapter: the first ```ts block after its heading. */
const page = readFileSync(path.join(REPO_ROOT, 'docs/observability.md'), 'utf8');
const heading = page.indexOf('\n## The OpenTelemetry adapter\n');
const block = heading < 0 ? '' : (/^```ts\n([\s\S]*?)^```$/m.exec(page.slice(heading))?.[1] ?? '');

/** A reader whose collect() the test calls. */
class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const work = mkdtempSync(path.join(tmpdir(), 'adcp-decode-otel-'));
let listener: AdcpEventListener;
const spans = new InMemorySpanExporter();
const reader = new TestReader();

beforeAll(async () => {
  mkdirSync(path.join(work, 'node_modules'));
  symlinkSync(path.join(REPO_ROOT, 'node_modules', '@opentelemetry'), path.join(work, 'node_modules', '@opentelemetry'), 'dir');
  writeFileSync(path.join(work, 'adapter.ts'), block);
  const adapter = (await import(pathToFileURL(path.join(work, 'adapter.ts')).href)) as {
    openTelemetryListener: (tracer: Tracer, meter: Meter) => AdcpEventListener;
  };
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }).getTracer('adcp-decode-test');
  const meter = new MeterProvider({ readers: [reader] }).getMeter('adcp-decode-test');
  listener = adapter.openTelemetryListener(tracer, meter);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const result = (structured: Record<string, unknown>) => ({ content: [{ type: 'text', text: 'ok' }], structuredContent: structured });
const products = () => result({ ...payload('3.1/get_products.valid'), context: PRODUCTS_BRIEF.context });

/** A client answering its n-th call (from 1) with `script(n)`: a value, or an error to throw. */
function scripted(script: (n: number) => unknown): McpClient {
  let n = 0;
  return {
    callTool: async () => {
      n += 1;
      const next = script(n);
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

/** The finished spans named `name`. */
const named = (name: string): ReadableSpan[] => spans.getFinishedSpans().filter((s) => s.name === name);

/** A metric's data points, by name, as [attributes, value] (a histogram's value is its count). */
async function points(name: string): Promise<Array<[Record<string, unknown>, number]>> {
  const { resourceMetrics }: { resourceMetrics: ResourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
  return (metric?.dataPoints ?? []).map((p) => [p.attributes, typeof p.value === 'number' ? p.value : p.value.count]);
}

describe('the adapter of docs/observability.md, run', () => {
  test('the page has the block, and it exports the listener', () => {
    expect(block).toMatch(/export function openTelemetryListener/);
    expect(typeof listener).toBe('function');
  });

  test('a call with a retry: a span, its attempts as children, the refused one marked; a retry event; attempts counted by outcome', async () => {
    const client = scripted((n) => (n === 1 ? new StreamableHTTPError(503, 'Error POSTing to endpoint: overloaded') : products()));
    const sleep = async () => undefined;
    await callTask(client, 'get_products', PRODUCTS_BRIEF, {
      version: '3.1',
      onEvent: listener,
      agent: SELLER,
      retry: { attempts: 3, sleep },
    });
    const [call] = named('adcp get_products');
    const [first] = named('adcp get_products attempt 1');
    const [second] = named('adcp get_products attempt 2');
    expect(call?.attributes).toMatchObject({ 'adcp.task': 'get_products', 'adcp.agent': SELLER, 'adcp.attempts.max': 3 });
    expect(call?.status.code).toBe(0);
    expect(call?.events.map((e) => [e.name, e.attributes?.['error.type'], e.attributes?.['http.response.status_code']])).toEqual([
      ['retry', 'TRANSPORT_FAILED', 503],
    ]);
    for (const attempt of [first, second]) expect(attempt?.parentSpanContext?.spanId).toBe(call?.spanContext().spanId);
    expect(first?.status).toEqual({ code: 2, message: 'TRANSPORT_FAILED' });
    expect(first?.attributes).toMatchObject({
      'error.type': 'TRANSPORT_FAILED',
      'http.response.status_code': 503,
      'adcp.error.blame': 'seller',
    });
    expect(first?.events.map((e) => e.name)).toEqual(['exception']);
    expect(second?.attributes).toMatchObject({ 'adcp.attempt': 2, 'adcp.version': V3_1 });
    expect(second?.status.code).toBe(0);
    expect(await points('adcp.call.attempts')).toEqual(
      expect.arrayContaining([
        [{ 'adcp.task': 'get_products', 'adcp.outcome': 'TRANSPORT_FAILED' }, 1],
        [{ 'adcp.task': 'get_products', 'adcp.outcome': 'ok' }, 1],
      ]),
    );
  });

  test('arguments refused before anything is sent: the call span, marked INVALID_REQUEST, and no attempt', async () => {
    spans.reset();
    const options = { version: '3.1', onEvent: listener } as const;
    // @ts-expect-error idempotency_key, account and the dates are required: refused by encode
    await safeCallTask(scripted(products), 'create_media_buy', { brand: { domain: 'acme.example' } }, options);
    expect(spans.getFinishedSpans().map((s) => [s.name, s.status.code, s.attributes['error.type']])).toEqual([
      ['adcp create_media_buy', 2, 'INVALID_REQUEST'],
    ]);
  });

  test('a wait: a span whose polls are span events, the swallowed failure among them; polls counted', async () => {
    spans.reset();
    const client = scripted((n) =>
      n === 1
        ? new TypeError('fetch failed', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) })
        : n === 2
          ? result(pollResponse('working'))
          : result(pollResponse('completed', { result: payload('3.1/create_media_buy.valid') })),
    );
    const handle = { task: 'create_media_buy', taskId: 'task_cmb_4821', version: V3_1, agent: SELLER } as const;
    await waitForTask(client, handle, { clock: { now: () => 0, sleep: async () => undefined }, onEvent: listener });
    const [wait] = named('adcp wait create_media_buy');
    expect(wait?.attributes).toMatchObject({ 'adcp.task_id': 'task_cmb_4821', 'adcp.polls': 3, 'adcp.ended_by': 'poll' });
    expect(wait?.events.map((e) => [e.name, e.attributes?.['adcp.status'] ?? e.attributes?.['error.type']])).toEqual([
      ['poll', 'TRANSPORT_FAILED'],
      ['poll', 'working'],
      ['poll', 'completed'],
    ]);
    expect(await points('adcp.wait.polls')).toEqual(
      expect.arrayContaining([
        [{ 'adcp.task': 'create_media_buy', 'adcp.outcome': 'TRANSPORT_FAILED' }, 1],
        [{ 'adcp.task': 'create_media_buy', 'adcp.outcome': 'working' }, 1],
        [{ 'adcp.task': 'create_media_buy', 'adcp.outcome': 'completed' }, 1],
      ]),
    );
  });

  test('webhooks: a span each, the refused one marked with its webhook code and status; deliveries counted by outcome and status', async () => {
    spans.reset();
    const receiver = createWebhookReceiver({ ...RECEIVER_BASE, replayStore: createMemoryReplayStore({ now: nowMs }), onEvent: listener });
    await receiver.receive(await signedRequest(completedBody()));
    const tampered = { ...(await signedRequest(completedBody())), body: new TextEncoder().encode(completedBody({ message: 'x' })) };
    await receiver.receive(tampered).catch(() => undefined);
    expect(
      named('adcp webhook').map((s) => [s.attributes['adcp.webhook.outcome'], s.attributes['http.response.status_code'], s.status.code]),
    ).toEqual([
      ['delivered', 200, 0],
      ['refused', 401, 2],
    ]);
    expect(named('adcp webhook')[1]?.attributes).toMatchObject({
      'adcp.error.detail': 'webhook_signature_digest_mismatch',
      'adcp.error.blame': 'delivery',
    });
    expect(await points('adcp.webhook.deliveries')).toEqual(
      expect.arrayContaining([
        [{ 'adcp.webhook.outcome': 'delivered', 'http.response.status_code': 200 }, 1],
        [{ 'adcp.webhook.outcome': 'refused', 'http.response.status_code': 401, 'error.type': 'WEBHOOK_REJECTED' }, 1],
      ]),
    );
    expect((await points('adcp.duration')).length).toBeGreaterThanOrEqual(3);
  });
});
