/**
 * The patch fallback row of the bench (issue 27, item 4): fresh processes (bench/child.mjs), import
 * + first decode of a 3.0 sales seller's `get_adcp_capabilities` answer that the bundled 3.0.26
 * accepts, against the same answer as a 3.0.6 seller sends it (no `account`), which 3.0.26 refuses
 * and the patch fallback accepts (its validators of the capabilities schema load only then).
 *
 *   npx tsx bench/run.ts --only=patches     (against dist/: npm run compile first)
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstCalls, type Measurement, measure, median } from './harness.js';

const SECTION = 'patch fallback: fresh node, import + first get_adcp_capabilities decode, 3.0 (÷ an answer 3.0.26 accepts)';
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A 3.0 sales seller's capabilities as 3.0.26 wants them (with `account`). */
const withAccount = {
  adcp: { major_versions: [3], idempotency: { supported: true, replay_ttl_seconds: 86400 } },
  supported_protocols: ['media_buy'],
  account: { require_operator_auth: false, supported_billing: ['operator', 'agent'] },
  media_buy: {
    supported_pricing_models: ['cpm', 'vcpm'],
    reporting_delivery_methods: ['webhook'],
    portfolio: { publisher_domains: ['harborline-news.example'], primary_channels: ['olv', 'display'], primary_countries: ['US'] },
  },
  last_updated: '2026-05-04T08:00:00Z',
};

/**
 * Measures the row against dist/ (the built package).
 *
 * @param tmp A scratch folder for the inputs.
 * @param runs Processes per case (interleaved).
 * @returns The bundled patch's first decode, and the fallback's with its ratio to it.
 */
export async function patchBench(tmp: string, runs: number): Promise<Measurement[]> {
  const { account: _account, ...sdk306 } = withAccount;
  const cases = [
    { key: 'bundled', input: withAccount, patch: null },
    { key: 'fallback', input: sdk306, patch: '3.0.11' },
  ].map((c) => {
    const input = path.join(tmp, `capabilities-${c.key}.json`);
    writeFileSync(input, JSON.stringify({ content: [{ type: 'text', text: JSON.stringify(c.input) }] }));
    const job = { mode: 'ours-version', task: 'get_adcp_capabilities', version: '3.0', patch: c.patch, input, calls: 1 };
    return { name: `patches ${c.key}`, job: { ...job, dist: path.join(ROOT, 'dist', 'index.js') } };
  });
  const firsts = await firstCalls(ROOT, cases, runs);
  const [bundled = [], fallback = []] = firsts;
  const ratio = median(fallback) / median(bundled);
  return [
    measure(SECTION, 'adcp-decode: import + first decode, 3.0.26 accepts', bundled, 'ms'),
    measure(SECTION, 'adcp-decode: import + first decode, 3.0.26 refuses, the 3.0.6 schema accepts (patch: 3.0.11)', fallback, 'ms', {
      baseline: 'adcp-decode: import + first decode, 3.0.26 accepts',
      ratio,
      note: "the bundled verdict, then the capabilities' patch validators load and judge (newest first)",
    }),
  ];
}
