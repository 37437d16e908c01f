/**
 * The README's buyer path against the official SDK's non-guaranteed reference seller (@adcp/sdk
 * 6.11.0, examples/hello_seller_adapter_non_guaranteed.ts over its sales-non-guaranteed mock
 * upstream), over MCP and over the SDK's A2A mount: its capabilities, its products, and a buy that
 * completes at once, for which the SDK still posts a task webhook.
 */
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { decoderFor, isFinal, newIdempotencyKey } from '../../src/index.js';
import { createWebhookReceiver, webhookResponse } from '../../src/webhooks/index.js';
import { V3_0 } from '../fixtures/versions.js';
import { type Buyer, connectBuyer, type Transport } from './buyer.js';
import { asRequest, type HookEndpoint, startHookEndpoint } from './hooks.js';
import { actualServerModule, example, type Recorder, type ReferenceSeller, startReferenceSeller } from './sellers.js';

const recorder = vi.hoisted((): Recorder => ({ served: [], webhookKey: undefined }));
vi.mock('@adcp/sdk/server', async (importOriginal) => (await import('./sellers.js')).serverModule(await importOriginal<never>(), recorder));

const KEYID = 'sdk-lane-webhook-ng';
let publicJwk: Record<string, unknown>;
let seller: ReferenceSeller;
let hooks: HookEndpoint;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const marks = { kid: KEYID, alg: 'EdDSA', use: 'sig', adcp_use: 'webhook-signing' };
  publicJwk = { ...(await exportJWK(publicKey)), ...marks, key_ops: ['verify'] };
  recorder.webhookKey = {
    keyid: KEYID,
    alg: 'ed25519',
    privateKey: { ...(await exportJWK(privateKey)), ...marks, key_ops: ['sign'] } as never,
  };
  hooks = await startHookEndpoint();
  const path = example('hello_seller_adapter_non_guaranteed');
  seller = await startReferenceSeller(await actualServerModule(), recorder, 'sales-non-guaranteed', () => import(path));
}, 30_000);
afterAll(async () => {
  await seller?.close();
  await hooks?.close();
});

const account = { brand: { domain: 'remnant-network.example' }, operator: 'pinnacle-agency.example' };
const keys = (keyid: string) => (keyid === KEYID ? { jwk: publicJwk, agent: seller.mcpUrl } : undefined);

describe.each<Transport>(['mcp', 'a2a'])('the non-guaranteed reference seller over %s', (transport) => {
  let buyer: Buyer;
  beforeAll(async () => {
    buyer = await connectBuyer(seller, transport);
  });
  afterAll(() => buyer.close());

  test('decoderFor reads its get_adcp_capabilities: a 3.0 seller', async () => {
    const decoder = decoderFor(await buyer.raw('get_adcp_capabilities', {}));
    expect(decoder.version).toBe(V3_0);
  });

  test('a buy that completes at once; the webhook the SDK still posts names a task no answer gave', async () => {
    const found = await buyer.call('get_products', { buying_mode: 'brief', brief: 'remnant display, run of network', account });
    const product = (found.products as Array<{ product_id: string; pricing_options: Array<{ pricing_option_id: string }> }>)[0];
    expect(product).toBeDefined();
    const buy = await buyer.call('create_media_buy', {
      idempotency_key: newIdempotencyKey(),
      account,
      brand: account.brand,
      start_time: '2027-04-01T00:00:00Z',
      end_time: '2027-04-30T23:59:59Z',
      packages: [{ product_id: product!.product_id, pricing_option_id: product!.pricing_options[0]!.pricing_option_id, budget: 5_000 }],
      push_notification_config: { url: `${hooks.origin}/adcp/webhook/${transport}` },
    });
    // Final at once: the media buy, no task.
    expect(isFinal(buy as never)).toBe(true);
    expect(buy).toMatchObject({ media_buy_id: expect.stringMatching(/^ord_/), packages: [expect.objectContaining({ budget: 5_000 })] });
    expect(buy.task_id).toBeUndefined();

    // The SDK posts a completed task webhook for it anyway, under a task_id it invents ("sync-…") that
    // no answer gave the buyer. Webhooks report an async task's progress (webhooks.mdx): the buyer
    // registered push_notification_config for a task it may get, and a synchronous answer has none.
    const delivery = await hooks.next(
      (body) => (body as { result?: { media_buy_id?: unknown } }).result?.media_buy_id === buy.media_buy_id,
    );
    const hook = await createWebhookReceiver({ endpoint: hooks.origin, keys, version: '3.0' }).receive(asRequest(hooks.origin, delivery));
    expect(hook).toMatchObject({
      kind: 'delivered',
      taskType: 'create_media_buy',
      status: 'completed',
      taskId: expect.stringMatching(/^sync-/),
    });
    // Correlating to the buyer's tasks, the receiver refuses it as a task it does not know: 503,
    // blamed on no one, so it is never acted on as the buy's completion.
    const correlating = createWebhookReceiver({ endpoint: hooks.origin, keys, version: '3.0', handles: () => undefined });
    const refused = await correlating.receive(asRequest(hooks.origin, delivery)).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ webhookCode: 'webhook_task_unknown' });
    expect(webhookResponse(refused as never).status).toBe(503);
  });
});
