/**
 * A buyer speaks AdCP 3.2.0-beta.6 (wire pin "3.2-beta.6": a superseded 3.2 pre-release, never
 * "3.2") end to end with the release module `adcp-decode generate` writes, over real MCP: Harborline's
 * seller (the official SDK's Server, Streamable HTTP on 127.0.0.1) lists ["3.1", "3.2-beta.6"],
 * serves a request in 3.2-beta.6 only when it is pinned exactly (versioning.mdx: a pre-release is
 * matched exactly) and its capabilities in its default, 3.2-beta.6, whatever the pin. Its
 * webhooks are signed under the RFC 9421 profile with the test vectors' key and POSTed to the
 * buyer's receiver, also on 127.0.0.1.
 *
 * First the buyer has not loaded the module: the seller's beta.6 capabilities are RELEASE_NOT_LOADED,
 * the buyer's configuration, and its beta.6 delivery is answered 500 (retry); a "3.1" pin it
 * answers in beta.6 is the seller's VERSION_MISMATCH. Then the module is
 * imported: decoderFor picks 3.2-beta.6 from the capabilities, list_products decodes by its schemas,
 * buy_products answers `submitted`, and waitForTask ends one buy by polling get_task_status and
 * the other by the seller's signed webhook, read from the receiver by the task's handle.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  classifyRecovery,
  type DecodeError,
  decoderFor,
  knownReleases,
  newIdempotencyKey,
  type TaskHandleFields,
  taskHandle,
} from '../../src/index.js';
import { type AdcpEvent, type CallOptions, callTask, safeCallTask, waitForTask } from '../../src/mcp/index.js';
import { createWebhookReceiver, type WebhookReceiver, webhookResponse } from '../../src/webhooks/index.js';
import { type Beta6Module, GENERATING_MS, loadBeta6Module } from '../fixtures/beta6-module.js';
import { BETA6_PIN, BETA6_VERSION, schemaOf, terminalSchemaOf, validateBeta6 } from '../fixtures/beta6-schemas.js';
import { heldClock, instantClock } from '../fixtures/clocks.js';
import { type Seller, type ServedSellers, serveSellers } from '../fixtures/mcp-sellers.js';
import { beta6Fixture } from '../fixtures/payloads-beta6.js';
import { deliver } from '../fixtures/webhook-buyer.js';
import { thrown } from '../helpers.js';
import { publicJwks } from '../webhooks/fixtures.js';

type Json = Record<string, unknown>;

/**
 * beta.6's calls, typed by hand: its task names and types are the generated module's, which this
 * repository's typecheck does not see (test/package/generate.test.ts type-checks them). The file's one widening.
 */
type Beta6CallOptions = Omit<CallOptions, 'version'> & { version?: string };
const beta6 = { callTask, safeCallTask, taskHandle } as unknown as {
  callTask(client: Client, task: string, args: Json, options: Beta6CallOptions): Promise<Json>;
  safeCallTask(
    client: Client,
    task: string,
    args: Json,
    options: Beta6CallOptions,
  ): Promise<{ success: true; data: Json; version: string } | { success: false; error: DecodeError }>;
  taskHandle(task: string, answer: Json, options: { agent: string }): TaskHandleFields | undefined;
};

const fixture = (id: string): Json => beta6Fixture(id).payload;
const TRACE = { buyer_trace_id: 'mw-buy-0922-r' };
const OPERATION = 'op_mw_buy_recipes_0922';
const PLAN = 'op_mw_plan_kestrel_autumn';

// --- Harborline's seller --------------------------------------------------------------------

/** The capabilities, served in 3.2-beta.6 (no pin: the seller's default). */
const capabilities = (): Json => fixture('get_adcp_capabilities.valid');
const listing = (context: unknown): Json => ({ ...fixture('list_products.valid'), ...(context === undefined ? {} : { context }) });
const submitted = (taskId: string, context: unknown): Json => ({
  ...fixture('buy_products.submitted'),
  task_id: taskId,
  adcp_version: BETA6_PIN,
  context,
});
/** get_task_status while the buy is in credit review. */
function working(taskId: string, hooked: boolean, taskType = 'buy_products'): Json {
  const { result: _result, completed_at: _completed, ...status } = fixture('get_task_status.valid');
  return {
    ...status,
    task_id: taskId,
    task_type: taskType,
    status: 'working',
    has_webhook: hooked,
    progress: { percentage: 30, current_step: 'Credit review' },
  };
}
const completed = (taskId: string): Json => ({ ...fixture('get_task_status.valid'), task_id: taskId });
/** The seller's webhook of a buy: its progress (announcing its release) or its booked result. */
function hook(status: 'working' | 'completed', taskId: string): Json {
  const body = fixture(`webhooks/buy_products.${status}`);
  const result = status === 'working' ? { ...(body['result'] as Json), adcp_version: BETA6_PIN } : body['result'];
  return { ...body, idempotency_key: `whk_hl_${taskId}_${status}`, task_id: taskId, operation_id: OPERATION, result };
}
const accountMoved = {
  code: 'ACCOUNT_MOVED',
  message: 'This account was rekeyed; use the current account reference.',
  details: { current_account: { account_id: 'acct_meridian_kestrel' } },
};
const versionUnsupported = (pin: unknown): Json => ({
  code: 'VERSION_UNSUPPORTED',
  message: `adcp_version ${JSON.stringify(pin)} is not served here`,
  details: { supported_versions: ['3.1', BETA6_PIN] },
});

/** What the seller received, in order, and the buys it holds (a task registered for webhooks is finished by one). */
const received: { name: string; args: Json }[] = [];
const tasks = new Map<string, { polls: number; hooked: boolean; taskType: string }>();

function respond(name: string, args: Json): Json | { adcp_error: Json } {
  if (name === 'get_adcp_capabilities') return capabilities();
  if (args['adcp_version'] !== BETA6_PIN) return { adcp_error: versionUnsupported(args['adcp_version']) };
  if (name === 'list_products') return listing(args['context']);
  if (name === 'buy_products') {
    if ((args['account'] as Json)['account_id'] === 'acct_kestrel_legacy') return { adcp_error: accountMoved };
    const taskId = `task_bp_kestrel_${tasks.size + 1}`;
    tasks.set(taskId, { polls: 0, hooked: args['push_notification_config'] !== undefined, taskType: name });
    return submitted(taskId, args['context']);
  }
  if (name === 'get_products') {
    // A brief for a planner: queued, and finished by a webhook.
    const taskId = `task_gp_kestrel_${tasks.size + 1}`;
    tasks.set(taskId, { polls: 0, hooked: true, taskType: name });
    return { ...fixture('get_products.submitted'), task_id: taskId, adcp_version: BETA6_PIN, context: args['context'] };
  }
  const taskId = String(args['task_id']);
  const task = tasks.get(taskId);
  if (task === undefined) return { adcp_error: { code: 'REFERENCE_NOT_FOUND', message: 'no such task' } };
  task.polls += 1;
  return task.hooked || task.polls === 1 ? working(taskId, task.hooked, task.taskType) : completed(taskId);
}

const harborline: Seller = () => {
  const server = new Server({ name: 'harborline', version: '1.0.0' }, { capabilities: { tools: {} } });
  const tools = ['get_adcp_capabilities', 'list_products', 'buy_products', 'get_products', 'get_task_status'];
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((name) => ({ name, inputSchema: { type: 'object' as const } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, ({ params }): CallToolResult => {
    const args = params.arguments ?? {};
    received.push({ name: params.name, args });
    const payload = respond(params.name, args);
    return {
      ...('adcp_error' in payload ? { isError: true } : {}),
      content: [{ type: 'text', text: JSON.stringify(payload) }],
      structuredContent: payload,
    };
  });
  return server;
};

// --- The buyer's webhook endpoint -----------------------------------------------------------

/** The buyer's receiver behind Node http: what it answered each delivery, and what it made of it. */
interface Endpoint {
  readonly origin: string;
  readonly receiver: WebhookReceiver;
  readonly answered: {
    status: number;
    code?: string | undefined;
    blame: string;
    webhookStatus?: string | undefined;
    version?: string | undefined;
  }[];
  close(): Promise<void>;
}

async function serveEndpoint(agent: string): Promise<Endpoint> {
  const answered: Endpoint['answered'] = [];
  let receiver: WebhookReceiver | undefined;
  const http = createServer(async (req, res) => {
    const outcome = await (receiver as WebhookReceiver)
      .receive({ method: req.method ?? '', url: req.url ?? '/', headers: req.headers, body: req })
      .catch((error: unknown) => error);
    const { status, blame } = webhookResponse(outcome);
    const o = outcome as { kind?: string; code?: string; status?: string; version?: string };
    answered.push(
      o.kind === 'delivered' ? { status, blame, webhookStatus: o.status, version: o.version } : { status, blame, code: o.code },
    );
    res.writeHead(status).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  // Every test key is the seller's, published under its agent URL; no version: each delivery is judged by its release.
  receiver = createWebhookReceiver({
    endpoint: origin,
    keys: (kid) => {
      const jwk = publicJwks.find((k) => k.kid === kid);
      return jwk === undefined ? undefined : { jwk, agent };
    },
  });
  return {
    origin,
    receiver,
    answered,
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

// --- The buyer ------------------------------------------------------------------------------

/** A buy of Harborline News display for Kestrel's autumn recipes, as the accepted terms say it. */
function buyRequest(extra: Json = {}): Json {
  const proposal = (fixture('buy_products.valid')['accepted_proposal'] as Json)['commercial_terms'] as Json;
  return {
    idempotency_key: newIdempotencyKey(),
    account: { account_id: 'acct_meridian_kestrel' },
    brand: proposal['brand'],
    feed_version: proposal['source_feed_version'],
    pricing_version: proposal['source_pricing_version'],
    purchases: (proposal['purchases'] as Json[]).map(({ pricing: _pricing, ...purchase }) => purchase),
    start_time: proposal['start_time'],
    end_time: proposal['end_time'],
    total_budget: proposal['total_budget'],
    context: TRACE,
    ...extra,
  };
}

let sellers: ServedSellers;
let agent: string;
let client: Client;
let endpoint: Endpoint;
let module: Beta6Module | undefined;

beforeAll(async () => {
  sellers = await serveSellers({ harborline });
  agent = new URL('harborline', sellers.base).href;
  client = new Client({ name: 'meridian-works', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(agent)));
  endpoint = await serveEndpoint(agent);
});
afterAll(async () => {
  module?.remove();
  await client?.close();
  await sellers?.close();
  await endpoint?.close();
});

const pollsOf = (taskId: string) => received.filter((c) => c.name === 'get_task_status' && c.args['task_id'] === taskId);

describe("the seller's payloads", () => {
  test("are beta.6's own: each accepted by the schema that judges it (run-time Ajv, apart from the module)", () => {
    const judged: [string, unknown][] = [
      [schemaOf('get_adcp_capabilities', 'response') as string, capabilities()],
      [schemaOf('list_products', 'response') as string, listing(TRACE)],
      [schemaOf('buy_products', 'submitted') as string, submitted('task_bp_kestrel_1', TRACE)],
      [schemaOf('get_task_status', 'response') as string, working('task_bp_kestrel_1', true)],
      [schemaOf('get_task_status', 'response') as string, completed('task_bp_kestrel_1')],
      ['core/mcp-webhook-payload.json', hook('working', 'task_bp_kestrel_2')],
      ['core/mcp-webhook-payload.json', hook('completed', 'task_bp_kestrel_2')],
      [schemaOf('buy_products', 'working') as string, hook('working', 'task_bp_kestrel_2')['result']],
      [terminalSchemaOf('buy_products'), hook('completed', 'task_bp_kestrel_2')['result']],
      ['core/error.json', accountMoved],
      ['core/error.json', versionUnsupported('3.2')],
    ];
    for (const [schema, payload] of judged) expect([schema, validateBeta6(schema, payload)]).toEqual([schema, []]);
  });
});

describe('a buyer that has not loaded the beta.6 module', () => {
  test('its capabilities, served in 3.2-beta.6 to an unpinned request, are RELEASE_NOT_LOADED: the configuration’s, naming the command', async () => {
    expect(knownReleases().map((r) => r.release)).not.toContain(BETA6_PIN);
    const raw = await client.callTool({ name: 'get_adcp_capabilities', arguments: {} });
    expect(thrown(() => decoderFor(raw))).toMatchObject({
      code: 'RELEASE_NOT_LOADED',
      message: expect.stringMatching(/"3\.2-beta\.6", a release this buyer has not loaded.*npx adcp-decode generate/),
    });
  });

  test('a "3.1" pin answered in 3.2-beta.6 is the seller’s VERSION_MISMATCH: a release pin is never served by a pre-release', async () => {
    const events: AdcpEvent[] = [];
    const called = await safeCallTask(client, 'get_adcp_capabilities', {}, { agent, onEvent: (e) => events.push(e) });
    // The outcome first: were the call to fail before it reached the seller, this says how.
    if (called.success) return expect.fail('decoded');
    expect([called.error.code, called.error.message]).toEqual(['VERSION_MISMATCH', expect.any(String)]);
    expect(received.at(-1)).toEqual({ name: 'get_adcp_capabilities', args: { adcp_version: '3.1', adcp_major_version: 3 } });
    expect(called.error.message).toContain('"3.2-beta.6", a pre-release, which never serves a release pin');
    expect(events.at(-1)).toMatchObject({ type: 'call-ended', ok: false, refusal: { code: 'VERSION_MISMATCH', blame: 'seller' } });
  });

  test('its signed delivery announcing 3.2-beta.6 is answered 500, the configuration’s: the seller retries', async () => {
    const url = `${endpoint.origin}/adcp/webhooks/buy_products`;
    expect(await deliver(url, hook('working', 'task_bp_kestrel_0'))).toBe(500);
    expect(endpoint.answered.at(-1)).toEqual({ status: 500, blame: 'configuration', code: 'RELEASE_NOT_LOADED' });
  });
});

describe('with the generated beta.6 module imported', () => {
  beforeAll(async () => {
    module = await loadBeta6Module();
  }, GENERATING_MS);

  test('decoderFor picks 3.2-beta.6 from the capabilities; list_products is judged by its schemas, the request pinned exactly', async () => {
    const seller = decoderFor(await client.callTool({ name: 'get_adcp_capabilities', arguments: {} }));
    expect(seller).toMatchObject({ version: BETA6_VERSION, release: BETA6_PIN, majorVersion: 3, sellerVersions: ['3.1', BETA6_PIN] });
    expect(seller.check).toEqual({ valid: true });
    const criteria = { offer_filters: { channels: ['ctv', 'podcast'], countries: ['US'] } };
    const listed = await beta6.safeCallTask(client, 'list_products', { criteria, context: TRACE }, { version: seller.version, agent });
    expect(listed).toMatchObject({ success: true, version: BETA6_VERSION, data: { outcome: 'listed', context: TRACE } });
    const products = ((listed as { data: Json }).data['products'] as Json[]).map((p) => p['product_id']);
    expect(products).toEqual(['harborline_ctv_primetime', 'harborline_podcast_morning']);
    expect(received.at(-1)).toEqual({
      name: 'list_products',
      args: { criteria, context: TRACE, adcp_version: BETA6_PIN, adcp_major_version: 3 },
    });
  });

  test('buy_products answers submitted; waitForTask polls get_task_status until the buy is booked', async () => {
    const bought = await beta6.safeCallTask(client, 'buy_products', buyRequest(), { version: BETA6_VERSION, agent });
    if (!bought.success) return expect.fail(bought.error.message);
    expect(bought).toMatchObject({ version: BETA6_VERSION, data: { status: 'submitted', adcp_version: BETA6_PIN } });
    const handle = beta6.taskHandle('buy_products', bought.data, { agent });
    const taskId = String(bought.data['task_id']);
    expect(handle).toMatchObject({ task: 'buy_products', taskId, version: BETA6_VERSION, release: BETA6_PIN, agent });
    const seen: string[] = [];
    const booked = await waitForTask(client, handle as TaskHandleFields, { clock: instantClock, onStatus: (p) => seen.push(p.status) });
    expect(seen).toEqual(['working']);
    expect(booked).toMatchObject({
      status: 'completed',
      media_buy_id: 'mb_kestrel_recipes_display_2026',
      media_buy_status: 'pending_start',
    });
    const poll = { task_id: taskId, include_result: true, adcp_version: BETA6_PIN, adcp_major_version: 3 };
    expect(pollsOf(taskId).map((c) => c.args)).toEqual([poll, poll]);
  });

  test("a buy registered for webhooks ends by the seller's signed delivery, read from the receiver by its handle", async () => {
    const url = `${endpoint.origin}/adcp/webhooks/buy_products`;
    const request = buyRequest({ push_notification_config: { url, operation_id: OPERATION } });
    const bought = await beta6.safeCallTask(client, 'buy_products', request, { version: BETA6_VERSION, agent });
    if (!bought.success) return expect.fail(bought.error.message);
    const handle = beta6.taskHandle('buy_products', bought.data, { agent }) as TaskHandleFields;
    expect(handle).toMatchObject({ operationId: OPERATION, agent });
    const waited = waitForTask(client, handle, { webhooks: endpoint.receiver.deliveries(handle), clock: heldClock }).then(
      (data) => ({ data }),
      (error: unknown) => ({ error }),
    );
    // Progress first (the delivery a buyer without the module refused): passed over; then the result.
    expect(await deliver(url, hook('working', handle.taskId))).toBe(200);
    expect(await deliver(url, hook('completed', handle.taskId))).toBe(200);
    expect(await waited).toEqual({
      data: expect.objectContaining({ status: 'completed', media_buy_id: 'mb_kestrel_recipes_display_2026' }),
    });
    expect(endpoint.answered.slice(-2)).toEqual([
      { status: 200, blame: 'none', webhookStatus: 'working', version: BETA6_VERSION },
      { status: 200, blame: 'none', webhookStatus: 'completed', version: BETA6_VERSION },
    ]);
    // Its polls only ever said working: the delivery ended the wait.
    expect(pollsOf(handle.taskId).length).toBeGreaterThanOrEqual(1);
  });

  test("a brief the planner declines ends the wait with beta.6's rejected answer, its reason kept (3.1 would fail the task)", async () => {
    const url = `${endpoint.origin}/adcp/webhooks/get_products`;
    const brief = { buying_mode: 'brief', brief: 'Prime-time CTV for the autumn launch', context: TRACE };
    const asked = await beta6.safeCallTask(
      client,
      'get_products',
      { ...brief, push_notification_config: { url, operation_id: PLAN } },
      { version: BETA6_VERSION, agent },
    );
    if (!asked.success) return expect.fail(asked.error.message);
    expect(asked.data).toMatchObject({ status: 'submitted', adcp_version: BETA6_PIN });
    const handle = beta6.taskHandle('get_products', asked.data, { agent }) as TaskHandleFields;
    const waited = waitForTask(client, handle, { webhooks: endpoint.receiver.deliveries(handle), clock: heldClock }).then(
      (data) => ({ data }),
      (error: unknown) => ({ error }),
    );
    const declined = fixture('webhooks/get_products.rejected');
    const reason = (declined['result'] as Json)['reason'];
    const body = { ...declined, idempotency_key: `whk_hl_${handle.taskId}_rejected`, task_id: handle.taskId, operation_id: PLAN };
    expect(await deliver(url, body)).toBe(200);
    expect(await waited).toEqual({ data: expect.objectContaining({ status: 'rejected', reason }) });
    expect(endpoint.answered.at(-1)).toEqual({ status: 200, blame: 'none', webhookStatus: 'rejected', version: BETA6_VERSION });
  });

  test("callTask's retry reads beta.6's error table: ACCOUNT_MOVED is correctable there, so it is not resent", async () => {
    const request = buyRequest({ account: { account_id: 'acct_kestrel_legacy' } });
    const before = received.length;
    const refused = await beta6.safeCallTask(client, 'buy_products', request, {
      version: BETA6_VERSION,
      retry: { attempts: 3, sleep: async () => {} },
    });
    if (refused.success) return expect.fail('bought');
    expect(refused.error).toMatchObject({ code: 'TASK_FAILED', version: BETA6_VERSION, recovery: { recovery: 'correctable' } });
    expect(received.length - before).toBe(1);
    // 3.1 does not list the code: its unknown-code policy (transient) would have resent it.
    expect(classifyRecovery(accountMoved, '3.1').recovery).toBe('transient');
  });
});
