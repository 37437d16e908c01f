/**
 * `adcp-decode probe` and `adcp-decode call` against the official SDK's reference sellers (@adcp/sdk
 * 6.11.0's non-guaranteed sales and signals marketplace examples, over MCP and over the SDK's A2A
 * mount, with the MCP and A2A SDKs installed here: @a2a-js/sdk 0.3.x, the major @adcp/sdk runs on,
 * which the CLI speaks through a2aV03Client). The non-guaranteed seller answers every read-only
 * task it lists as the spec allows (exit 0); the signals seller's capabilities break the spec (exit 1).
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { runCli } from '../fixtures/cli-run.js';
import { V3_0 } from '../fixtures/versions.js';
import { actualServerModule, example, type Recorder, type ReferenceSeller, startReferenceSeller } from './sellers.js';

const recorder = vi.hoisted((): Recorder => ({ served: [], webhookKey: undefined }));
vi.mock('@adcp/sdk/server', async (importOriginal) => (await import('./sellers.js')).serverModule(await importOriginal<never>(), recorder));

let sales: ReferenceSeller;
let signals: ReferenceSeller;
beforeAll(async () => {
  const real = await actualServerModule();
  const salesPath = example('hello_seller_adapter_non_guaranteed');
  sales = await startReferenceSeller(real, recorder, 'sales-non-guaranteed', () => import(salesPath));
  const signalsPath = example('hello_signals_adapter_marketplace');
  signals = await startReferenceSeller(real, recorder, 'signal-marketplace', () => import(signalsPath));
}, 60_000);
afterAll(async () => {
  await sales?.close();
  await signals?.close();
});

interface Answer {
  readonly task: string;
  readonly verdict: string;
  readonly path: string;
  readonly judgedBy: string | null;
  readonly error: { readonly code: string; readonly adcpError?: { readonly code: string } } | null;
}

describe.each(['mcp', 'a2a'] as const)('the reference sellers over %s', (transport) => {
  const url = (seller: ReferenceSeller): string => (transport === 'mcp' ? seller.mcpUrl : seller.a2aUrl);
  const auth = (seller: ReferenceSeller): string[] => ['--header', `Authorization: Bearer ${seller.token}`];

  test('probe, the non-guaranteed seller: 3.0 negotiated, every read-only task it lists answered as the spec allows (exit 0)', async () => {
    const r = await runCli(['probe', url(sales), ...auth(sales), '--json']);
    const report = JSON.parse(r.stdout) as { transport: string; version: string; listed: { readOnly: string[] }; answers: Answer[] };
    expect(report).toMatchObject({ transport, version: V3_0, negotiation: { ok: true, sellerVersions: ['3'] } });
    expect(report.listed.readOnly).toEqual(expect.arrayContaining(['get_products', 'list_creative_formats']));
    // The seller's handlers need an account the minimal requests do not carry: they answer with an AdCP error, a valid answer.
    expect(report.answers.map((a) => [a.task, a.verdict])).toEqual([
      ['get_adcp_capabilities', 'ok'],
      ...report.listed.readOnly.filter((t) => t !== 'get_adcp_capabilities').map((t) => [t, expect.stringMatching(/^(ok|refused)$/)]),
    ]);
    expect(report.answers.find((a) => a.task === 'list_creative_formats')).toMatchObject({
      verdict: 'ok',
      path: transport === 'mcp' ? 'structuredContent' : 'artifacts[0].parts[0] (completed)',
      judgedBy: V3_0,
    });
    expect(r).toMatchObject({ exit: 0, stderr: '' });
  });

  test('probe, the signals seller: its capabilities break the spec (exit 1), the issue at its pointer', async () => {
    const r = await runCli(['probe', url(signals), ...auth(signals)]);
    expect(r.exit).toBe(1);
    expect(r.stdout).toMatch(/\n✖ get_adcp_capabilities +SCHEMA_MISMATCH +3\.0\.26 /);
    expect(r.stdout).toContain('    ✖ must NOT have fewer than 1 items\n      → at /compliance_testing/scenarios\n');
    // decoderFor still negotiates from the version members.
    expect(r.stdout).toContain(`negotiation   AdCP ${V3_0} (the seller lists major 3; adcp-decode speaks 3.0 with it)`);
    expect(r.stdout).toContain('signing       unknown (the capabilities did not validate)');
  });

  test('call: a task decoded (exit 0), and the capabilities refused by their schema (exit 1)', async () => {
    const formats = await runCli(['call', url(sales), 'list_creative_formats', ...auth(sales)]);
    expect(formats.stdout).toMatch(new RegExp(`^✔ list_creative_formats \\(AdCP ${V3_0}, no status\\): \\d+ formats\\n`));
    expect(formats.exit).toBe(0);
    const capabilities = await runCli(['call', url(signals), 'get_adcp_capabilities', ...auth(signals)]);
    expect(capabilities.stderr).toContain(`✖ get_adcp_capabilities: SCHEMA_MISMATCH (AdCP ${V3_0})`);
    expect(capabilities.exit).toBe(1);
  });
});

test('without the bearer token: the seller refuses, no answer (exit 3)', async () => {
  const r = await runCli(['probe', sales.mcpUrl]);
  expect(r.exit).toBe(3);
  expect(r.stdout).toContain('initialize: the seller refused the request with HTTP 401');
});
