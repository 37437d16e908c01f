/**
 * The transcripts of a live seller (`console` blocks of the README's Command line section and of
 * docs/cli.md) are what the built bin prints against the official SDK's reference sellers: the
 * non-guaranteed sales seller and the signals marketplace (@adcp/sdk 6.11.0), served on 127.0.0.1
 * over MCP and A2A as test/sdk/sellers.ts serves them. The pages name them by fixed origins, which
 * become the origins they were served on, and the bearer token they accept is `$TOKEN`. Latencies
 * differ run to run: a time (`12 ms`) is compared as a time, not as the number. Needs a build.
 */
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { actualServerModule, example, type Recorder, type ReferenceSeller, startReferenceSeller } from '../sdk/sellers.js';
import { binShell, pageTranscripts } from './transcripts.js';

const recorder = vi.hoisted((): Recorder => ({ served: [], webhookKey: undefined }));
vi.mock('@adcp/sdk/server', async (importOriginal) =>
  (await import('../sdk/sellers.js')).serverModule(await importOriginal<never>(), recorder),
);

const { inReadme, inDocs } = pageTranscripts('console');
const shell = binShell();

/** The origins the pages show, by seller and transport. */
const SHOWN = {
  salesMcp: 'http://127.0.0.1:4100',
  salesA2a: 'http://127.0.0.1:4101',
  signalsMcp: 'http://127.0.0.1:4200',
  signalsA2a: 'http://127.0.0.1:4201',
} as const;

let sellers: ReferenceSeller[] = [];
let served: ReadonlyArray<readonly [string, string]> = [];
beforeAll(async () => {
  const real = await actualServerModule();
  const salesPath = example('hello_seller_adapter_non_guaranteed');
  const sales = await startReferenceSeller(real, recorder, 'sales-non-guaranteed', () => import(salesPath));
  const signalsPath = example('hello_signals_adapter_marketplace');
  const signals = await startReferenceSeller(real, recorder, 'signal-marketplace', () => import(signalsPath));
  sellers = [sales, signals];
  const origin = (url: string): string => new URL(url).origin;
  served = [
    [SHOWN.salesMcp, origin(sales.mcpUrl)],
    [SHOWN.salesA2a, origin(sales.a2aUrl)],
    [SHOWN.signalsMcp, origin(signals.mcpUrl)],
    [SHOWN.signalsA2a, origin(signals.a2aUrl)],
  ];
}, 60_000);
afterAll(async () => {
  shell.close();
  await Promise.all(sellers.map((seller) => seller.close()));
});

/** A line as compared: the origin served put in the shown one's place, a time's digits (and the column's padding) left out. */
function comparable(line: string, direction: 'shown' | 'served'): string {
  let out = line;
  for (const [shown, actual] of served) out = direction === 'served' ? out.replaceAll(actual, shown) : out;
  return out.replace(/ +\d+ ms$/, ' … ms').replace(/ +time$/, ' time');
}

test('the pages show call and probe at work, against both reference sellers, over MCP and A2A', () => {
  const all = [...inReadme, ...inDocs];
  expect(inReadme.filter((t) => t.command.startsWith('adcp-decode probe ')).length).toBeGreaterThanOrEqual(1);
  for (const origin of Object.values(SHOWN)) expect(all.some((t) => t.command.includes(origin))).toBe(true);
  expect(all.some((t) => t.command.startsWith('adcp-decode call '))).toBe(true);
  expect(all.every((t) => t.printed.length > 0)).toBe(true);
});

test.each([...inReadme, ...inDocs].map((t) => [t.command, t] as const))(
  '`$ %s` prints what the page shows',
  { timeout: 60_000 },
  async (_, t) => {
    let command = t.command;
    for (const [shown, actual] of served) command = command.replaceAll(shown, actual);
    const printed = await shell.printed(command, { TOKEN: sellers[0]?.token ?? '' });
    expect(printed.map((line) => comparable(line, 'served'))).toEqual(t.printed.map((line) => comparable(line, 'shown')));
  },
);
