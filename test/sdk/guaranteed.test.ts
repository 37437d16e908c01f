/**
 * The README's buyer path against the official SDK's guaranteed reference seller (@adcp/sdk 6.11.0,
 * examples/hello_seller_adapter_guaranteed.ts over its sales-guaranteed mock upstream), over MCP and
 * over the SDK's A2A mount: get_adcp_capabilities → decoderFor → every task it serves, with
 * realistic arguments → a `submitted` create_media_buy followed to its end by polling (tasks_get)
 * and by the SDK's own signed webhook into an adcp-decode receiver with default options.
 */
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { decoderFor, decodeTaskStatus, newIdempotencyKey } from '../../src/index.js';
import { createWebhookReceiver } from '../../src/webhooks/index.js';
import { V3_0 } from '../fixtures/versions.js';
import { type Buyer, connectBuyer, type Transport } from './buyer.js';
import { asRequest, type HookEndpoint, startHookEndpoint } from './hooks.js';
import { actualServerModule, example, type Recorder, type ReferenceSeller, startReferenceSeller } from './sellers.js';

const recorder = vi.hoisted((): Recorder => ({ served: [], webhookKey: undefined }));
vi.mock('@adcp/sdk/server', async (importOriginal) => (await import('./sellers.js')).serverModule(await importOriginal<never>(), recorder));

const KEYID = 'sdk-lane-webhook-1';
let publicJwk: Record<string, unknown>;
let seller: ReferenceSeller;
let hooks: HookEndpoint;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  // The SDK's emitter takes only a key marked webhook-signing (its verifier refuses request-signing ones).
  const marks = { kid: KEYID, alg: 'EdDSA', use: 'sig', key_ops: ['verify'], adcp_use: 'webhook-signing' };
  publicJwk = { ...(await exportJWK(publicKey)), ...marks };
  recorder.webhookKey = {
    keyid: KEYID,
    alg: 'ed25519',
    privateKey: { ...(await exportJWK(privateKey)), ...marks, key_ops: ['sign'] } as never,
  };
  hooks = await startHookEndpoint();
  const path = example('hello_seller_adapter_guaranteed');
  seller = await startReferenceSeller(await actualServerModule(), recorder, 'sales-guaranteed', () => import(path));
}, 30_000);
afterAll(async () => {
  await seller?.close();
  await hooks?.close();
});

/** The advertiser the mock upstream knows (its seeded network), and the agency acting for it. */
const account = { brand: { domain: 'acmeoutdoor.example' }, operator: 'pinnacle-agency.example' };

describe.each<Transport>(['mcp', 'a2a'])('the guaranteed reference seller over %s', (transport) => {
  let buyer: Buyer;
  beforeAll(async () => {
    buyer = await connectBuyer(seller, transport);
  });
  afterAll(() => buyer.close());

  test('decoderFor reads its get_adcp_capabilities: a 3.0 seller', async () => {
    const capabilities = await buyer.raw('get_adcp_capabilities', {});
    const decoder = decoderFor(capabilities);
    // It announces its major alone (adcp.major_versions [3]); built on 3.0.6, its capabilities lack
    // the `account` 3.0 requires of a media-buy seller, so an earlier 3.0 patch judged them.
    expect(decoder).toMatchObject({ version: V3_0, release: '3.0', sellerVersions: ['3'], check: { valid: true } });
    expect(decoder.check.valid && decoder.check.patch).toMatch(/^3\.0\.\d+$/);
  });

  test('get_products, list_accounts and sync_accounts decode', async () => {
    const products = await buyer.call('get_products', { buying_mode: 'brief', brief: 'DOOH video, Q2, outdoor', account });
    expect(products.products).toEqual([expect.objectContaining({ product_id: 'acme_dooh_billboards_q2' })]);
    const accounts = await buyer.call('list_accounts', {});
    expect(accounts.accounts).toContainEqual(expect.objectContaining({ account_id: 'net_acmeoutdoor' }));
    const synced = await buyer.call('sync_accounts', {
      idempotency_key: newIdempotencyKey(),
      accounts: [{ brand: account.brand, operator: account.operator, billing: 'operator' }],
    });
    expect(synced.accounts).toEqual([expect.objectContaining({ account_id: 'net_acmeoutdoor' })]);
  });
});

test("over A2A, get_adcp_capabilities is left off the agent card's skills, yet it answers when invoked", async () => {
  // versioning.mdx: a seller whose A2A skill list lacks get_adcp_capabilities is a pre-v3 one, which a
  // buyer SHOULD treat as v2. The SDK's A2A adapter (6.11) lists every tool but this one, so a buyer
  // reading its card would take this 3.0 seller for v2; adcp-decode reads no card, and invokes the
  // skill as the a2a-guide defines (the tests above decode its answer).
  const card = (await (await fetch(`${seller.a2aUrl}/.well-known/agent-card.json`)).json()) as { skills: Array<{ id: string }> };
  const skills = card.skills.map((skill) => skill.id);
  expect(skills).toContain('get_products');
  expect(skills).not.toContain('get_adcp_capabilities');
});

/** The buyer's receiver, default options: its endpoint and the seller's key (published at onboarding). */
const receiverOptions = () => ({
  endpoint: hooks.origin,
  keys: (keyid: string) => (keyid === KEYID ? { jwk: publicJwk, agent: seller.mcpUrl } : undefined),
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each<Transport>(['mcp', 'a2a'])('a submitted create_media_buy over %s, followed to its end', (transport) => {
  let buyer: Buyer;
  let taskId = '';
  let pinned: ReturnType<typeof receivePinned> | undefined;
  /** The buy's completion webhook, through a receiver pinned to 3.0 (once). */
  const receivePinned = async () => {
    const delivery = await hooks.next((body) => (body as { task_id?: unknown }).task_id === taskId);
    const outcome = await createWebhookReceiver({ ...receiverOptions(), version: '3.0' }).receive(asRequest(hooks.origin, delivery));
    if (outcome.kind !== 'delivered') throw new Error(`expected the completion delivered; receive() resolved ${outcome.kind}`);
    return outcome;
  };
  const completion = () => (pinned ??= receivePinned());
  beforeAll(async () => {
    buyer = await connectBuyer(seller, transport);
    const buy = await buyer.call('create_media_buy', {
      idempotency_key: newIdempotencyKey(),
      account,
      brand: account.brand,
      start_time: '2027-04-01T00:00:00Z',
      end_time: '2027-06-30T23:59:59Z',
      packages: [{ product_id: 'acme_dooh_billboards_q2', pricing_option_id: 'cpm_guaranteed_fixed', budget: 20_000 }],
      // Asking for a webhook is what sends a guaranteed buy to the IO desk (the example's HITL path).
      push_notification_config: { url: `${hooks.origin}/adcp/webhook/${transport}` },
      context: { campaign: `sdk-lane-${transport}` },
    });
    expect(buy).toMatchObject({ status: 'submitted', context: { campaign: `sdk-lane-${transport}` } });
    taskId = String(buy.task_id);
  }, 15_000);
  afterAll(() => buyer.close());

  test('its signed webhook verifies and decodes in a receiver pinned to 3.0', async () => {
    const hook = await completion();
    expect(hook).toMatchObject({ taskType: 'create_media_buy', taskId, status: 'completed', signer: { keyid: KEYID, alg: 'ed25519' } });
    const data = hook.data as { media_buy_id?: unknown; context?: unknown };
    expect(data.media_buy_id).toEqual(expect.stringMatching(/^ord_/));
    // The SDK's task webhooks do not echo the request's `context` (the spec: a response echoes it
    // unchanged). adcp-decode hands the result over as sent: it neither refuses nor invents one.
    expect(data.context).toBeUndefined();
  });

  test('its webhook is received by a receiver with default options (a 3.0 delivery, judged by 3.0)', async () => {
    const delivery = await hooks.next((body) => (body as { task_id?: unknown }).task_id === taskId);
    const hook = await createWebhookReceiver(receiverOptions()).receive(asRequest(hooks.origin, delivery));
    expect(hook).toMatchObject({
      kind: 'delivered',
      taskType: 'create_media_buy',
      taskId,
      status: 'completed',
      version: expect.stringMatching(/^3\.0\./),
    });
  });

  test('polling tasks_get follows it to completed (decodeTaskStatus, 3.0)', async () => {
    let polled: ReturnType<typeof decodeTaskStatus> | undefined;
    for (let i = 0; i < 100 && polled?.status !== 'completed'; i++) {
      if (i > 0) await sleep(50);
      polled = decodeTaskStatus(await buyer.raw('tasks_get', { task_id: taskId }), { version: '3.0' });
      expect(polled).toMatchObject({ taskId, taskType: 'create_media_buy' });
    }
    expect(polled?.status).toBe('completed');
  });

  test('the bought media buy: get_media_buys, update_media_buy, get_media_buy_delivery, sync_creatives', async () => {
    const mediaBuyId = String(((await completion()).data as { media_buy_id?: unknown }).media_buy_id);
    const listed = await buyer.call('get_media_buys', { account, media_buy_ids: [mediaBuyId] });
    expect(listed.media_buys).toEqual([expect.objectContaining({ media_buy_id: mediaBuyId })]);
    const updated = await buyer.call('update_media_buy', {
      idempotency_key: newIdempotencyKey(),
      account,
      media_buy_id: mediaBuyId,
      paused: false,
    });
    expect(updated).toMatchObject({ media_buy_id: mediaBuyId });
    const delivery = await buyer.call('get_media_buy_delivery', { account, media_buy_ids: [mediaBuyId] });
    expect(delivery.media_buy_deliveries).toEqual(expect.any(Array));
    const creatives = await buyer.call('sync_creatives', {
      idempotency_key: newIdempotencyKey(),
      account,
      creatives: [
        {
          creative_id: `cr-${transport}-1`,
          name: 'Spring DOOH 30s',
          format_id: { agent_url: new URL(seller.mcpUrl).origin, id: 'video_30s' },
          assets: {
            video: {
              asset_type: 'video',
              url: 'https://cdn.acmeoutdoor.example/spring-30s.mp4',
              width: 1920,
              height: 1080,
              duration_ms: 30_000,
            },
          },
        },
      ],
    });
    expect(creatives.creatives).toEqual([expect.objectContaining({ creative_id: `cr-${transport}-1` })]);
  });
});
