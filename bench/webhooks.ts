/**
 * The webhook row of the bench (issue 13): a signed ~10 KB create_media_buy webhook through
 * receiver.receive() (every check: size, content type, RFC 9421 checklist, replay claim, duplicate
 * keys, parse, envelope, result) against its floor: WebCrypto's bare Ed25519 verify of the same
 * signature base, SHA-256 of the same body, JSON.parse and a bare call of the same precompiled
 * validator on the result. Both are async (WebCrypto), so the rounds here are awaited loops in
 * wall time, alternating the two cases; the ratio is the median of per-round ratios.
 *
 *   npx tsx bench/webhooks.ts        (against dist/: npm run compile first)
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { goal, measure, median, type Measurement } from './harness.js';
import { completedBodyOfSize, ed25519, HOOK_URL, resolver } from '../test/webhooks/fixtures.js';
import { signWebhook } from '../test/webhooks/signer.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SECTION = 'webhook: verify + decode a signed 10 KB create_media_buy (÷ floor)';

type Receiver = { receive(request: { method: string; url: string; headers: Record<string, string>; body: Uint8Array }): Promise<unknown> };

/**
 * Measures the webhook row.
 *
 * @param options - Rounds and calls per round.
 * @returns The floor's and the receiver's measurements (the latter with its ratio and the 1.3 goal).
 */
export async function webhookBench(options: { rounds: number; calls: number } = { rounds: 21, calls: 200 }): Promise<Measurement[]> {
  const { createWebhookReceiver } = (await import(pathToFileURL(path.join(ROOT, 'dist', 'webhooks', 'index.js')).href)) as {
    createWebhookReceiver: (o: unknown) => Receiver;
  };
  const require = createRequire(import.meta.url);
  const validate = (
    require(path.join(ROOT, 'dist', 'generated', 'v3_1_19', 'validators', 'create_media_buy.js')) as { response: (d: unknown) => boolean }
  ).response;
  const body = completedBodyOfSize(10_000);
  const created = Math.floor(Date.now() / 1000);
  // One signed request per call (distinct nonces: the replay store is part of what is measured).
  const total = options.rounds * options.calls + options.calls;
  const signed = await Promise.all(Array.from({ length: total }, () => signWebhook({ key: ed25519, url: HOOK_URL, body, created })));
  const requests = signed.map((s) => ({
    method: 'POST',
    url: HOOK_URL,
    headers: { host: 'buyer.example.com', ...s.headers },
    body: s.body,
  }));
  const receiver = createWebhookReceiver({ endpoint: new URL(HOOK_URL).origin, keys: resolver });
  const first = signed[0]!;
  const jwk = resolver(ed25519.kid)!.jwk;
  const key = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: jwk.x as string }, { name: 'Ed25519' }, false, [
    'verify',
  ]);
  const base = new TextEncoder().encode(first.base);
  const signature = new Uint8Array(Buffer.from(/:([^:]+):/.exec(first.headers.signature!)![1]!, 'base64url'));
  const text = new TextDecoder().decode(first.body);
  const floor = async (): Promise<void> => {
    if (!(await crypto.subtle.verify({ name: 'Ed25519' }, key, signature, base))) throw new Error('floor: signature does not verify');
    await crypto.subtle.digest('SHA-256', first.body as Uint8Array<ArrayBuffer>);
    // The envelope's status stands in for the result's, as decode() judges it.
    const parsed = JSON.parse(text) as { status: string; result: Record<string, unknown> };
    if (!validate({ ...parsed.result, status: parsed.status })) throw new Error('floor: result fails the validator');
  };
  let next = 0;
  const ours = async (): Promise<void> => {
    await receiver.receive(requests[next++]!);
  };
  // Warm up both (JIT, key import, validator load).
  for (let i = 0; i < options.calls; i++) {
    await floor();
    await ours();
  }
  const floorMs: number[] = [];
  const oursMs: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? [floor, ours] : [ours, floor];
    const times = new Map<unknown, number>();
    for (const fn of order) {
      const t = performance.now();
      for (let i = 0; i < options.calls; i++) await fn();
      times.set(fn, (performance.now() - t) / options.calls);
    }
    floorMs.push(times.get(floor)!);
    oursMs.push(times.get(ours)!);
    ratios.push(times.get(ours)! / times.get(floor)!);
  }
  const ratio = median(ratios);
  // Each sample is the mean of `calls` awaited calls.
  const row = (name: string, samples: number[], extra: Partial<Measurement> = {}): Measurement =>
    measure(SECTION, name, samples, 'ms', { runs: options.rounds * options.calls, batch: options.calls, ...extra });
  return [
    row('floor: Ed25519 verify + SHA-256 + JSON.parse + validator (WebCrypto, wall time)', floorMs),
    row(`receiver.receive, ${text.length} B body`, oursMs, { baseline: 'floor', ratio, ...goal(1.3, ratio) }),
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await webhookBench(process.argv.includes('--quick') ? { rounds: 7, calls: 100 } : undefined);
  for (const r of rows)
    process.stdout.write(
      `${r.name}: ${r.median.toFixed(4)} ms${r.ratio === undefined ? '' : ` (×${r.ratio.toFixed(2)} ${r.goal} ${r.holds === true ? 'holds' : 'missed'})`}\n`,
    );
}
