/**
 * The README's buyer path against the official SDK's signals reference seller (@adcp/sdk 6.11.0,
 * examples/hello_signals_adapter_marketplace.ts over its signal-marketplace mock upstream), over MCP
 * and over the SDK's A2A mount: get_adcp_capabilities → decoderFor → get_signals → activate_signal.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { decoderFor, newIdempotencyKey, SchemaMismatchError, safeDecode } from '../../src/index.js';
import { V3_0 } from '../fixtures/versions.js';
import { type Buyer, connectBuyer, type Transport } from './buyer.js';
import { actualServerModule, example, type Recorder, type ReferenceSeller, startReferenceSeller } from './sellers.js';

const recorder = vi.hoisted((): Recorder => ({ served: [], webhookKey: undefined }));
vi.mock('@adcp/sdk/server', async (importOriginal) => (await import('./sellers.js')).serverModule(await importOriginal<never>(), recorder));

let seller: ReferenceSeller;
beforeAll(async () => {
  const path = example('hello_signals_adapter_marketplace');
  seller = await startReferenceSeller(await actualServerModule(), recorder, 'signal-marketplace', () => import(path));
}, 30_000);
afterAll(() => seller?.close());

/** The operator the mock upstream knows (its principal mapping), buying for an advertiser. */
const account = { brand: { domain: 'tridentmotors.example' }, operator: 'pinnacle-agency.example' };

describe.each<Transport>(['mcp', 'a2a'])('the signals reference seller over %s', (transport) => {
  let buyer: Buyer;
  beforeAll(async () => {
    buyer = await connectBuyer(seller, transport);
  });
  afterAll(() => buyer.close());

  test('its get_adcp_capabilities breaks the spec: compliance_testing.scenarios is empty (minItems 1)', async () => {
    // The seller declares compliance_testing with no scenario; every 3.0 patch requires at least one
    // ("Omit the block entirely if the agent does not support compliance testing"). decode says so.
    const capabilities = await buyer.raw('get_adcp_capabilities', {});
    const refused = safeDecode('get_adcp_capabilities', capabilities, { version: '3.0' });
    expect(refused.success).toBe(false);
    expect(refused.success ? undefined : refused.error).toBeInstanceOf(SchemaMismatchError);
    if (!refused.success && refused.error instanceof SchemaMismatchError)
      expect(refused.error.issues.map((issue) => issue.path)).toContain('/compliance_testing/scenarios');
  });

  test('decoderFor still negotiates 3.0 from its version members (the full check is beside the decoder)', async () => {
    const decoder = decoderFor(await buyer.raw('get_adcp_capabilities', {}));
    expect(decoder).toMatchObject({ version: V3_0, sellerVersions: ['3'], check: { valid: false } });
    expect(decoder.check.valid ? undefined : decoder.check.error).toBeInstanceOf(SchemaMismatchError);
  });

  test('get_signals, then activate_signal on a platform of the marketplace', async () => {
    const found = await buyer.call('get_signals', { signal_spec: 'EV intenders in the US, next 90 days', account });
    const signals = found.signals as Array<{ signal_agent_segment_id: string; pricing_options: Array<{ pricing_option_id: string }> }>;
    expect(signals.length).toBeGreaterThan(0);
    const signal = signals[0]!;
    const activated = await buyer.call('activate_signal', {
      idempotency_key: newIdempotencyKey(),
      account,
      signal_agent_segment_id: signal.signal_agent_segment_id,
      pricing_option_id: signal.pricing_options[0]!.pricing_option_id,
      destinations: [{ type: 'platform', platform: 'the-trade-desk' }],
    });
    expect(activated.deployments).toEqual([expect.objectContaining({ type: 'platform', platform: 'the-trade-desk' })]);
  });
});
