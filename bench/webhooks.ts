/**
 * The webhook rows of the bench (issues 13 and 19):
 * - a signed create_media_buy webhook through receiver.receive() (every check: size, content type,
 *   RFC 9421 checklist, replay claim, duplicate keys, parse, envelope, result) against its floor:
 *   WebCrypto's bare Ed25519 verify of the same signature base, SHA-256 of the same body, JSON.parse
 *   and a bare call of the same precompiled validator on the result; at a 10 KB and a 20 KB body,
 *   so the ratio is seen to hold as the input doubles; beside them, in the same rounds, what the
 *   ratio is made of: the floor's WebCrypto part alone, the signature checklist alone
 *   (verifyWebhookSignature) and a receiver that keeps no recent outcome for deliveries();
 * - the verifier's pre-authentication work (headers read, parsed and checked, key looked up,
 *   signature base built; WebCrypto stubbed to answer at once) on a `Signature-Input` at the
 *   header bound ÷ on a normal one, at the default bound (8 KiB) and at twice it.
 * Both are async, so the rounds are awaited loops timed by the bench's clock (CPU time of the
 * process, WebCrypto's threads included; BENCH_CLOCK=wall for wall time), alternating the cases; a
 * ratio is the median of per-round ratios.
 *
 *   npx tsx bench/webhooks.ts        (against dist/: npm run compile first)
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { completedBodyOfSize, ed25519, HOOK_URL, resolver } from '../test/webhooks/fixtures.js';
import { signWebhook } from '../test/webhooks/signer.js';
import { CLOCK, goal, type Measurement, measure, median } from './harness.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ORIGIN = new URL(HOOK_URL).origin;

type Request = { method: string; url: string; headers: Record<string, string>; body: Uint8Array };
type Receiver = { receive(request: Request): Promise<unknown> };
interface Webhooks {
  createWebhookReceiver: (o: unknown) => Receiver;
  verifyWebhookSignature: (request: unknown, options: unknown) => Promise<unknown>;
  createMemoryReplayStore: () => unknown;
}
interface Options {
  readonly rounds: number;
  readonly calls: number;
}

async function load(): Promise<Webhooks> {
  // The main entry first, as bench/run.ts has it: the webhooks entry alone does not yet load its validators in Node (issue 19 item 1).
  await import(pathToFileURL(path.join(ROOT, 'dist', 'index.js')).href);
  return (await import(pathToFileURL(path.join(ROOT, 'dist', 'webhooks', 'index.js')).href)) as Webhooks;
}

/** Milliseconds of the bench's clock: the process's CPU time (WebCrypto's worker threads included) unless BENCH_CLOCK=wall. */
function clock(): number {
  if (CLOCK === 'wall') return performance.now();
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Alternating rounds of async cases (the order rotated each round): each one's per-call times and its per-round ratios to the first. */
async function rounds(cases: ReadonlyArray<() => Promise<void>>, options: Options) {
  for (let i = 0; i < options.calls; i++) for (const fn of cases) await fn();
  const times: number[][] = cases.map(() => []);
  const ratios: number[][] = cases.map(() => []);
  for (let round = 0; round < options.rounds; round++) {
    const perCall = cases.map(() => 0);
    for (let k = 0; k < cases.length; k++) {
      const which = (round + k) % cases.length;
      const fn = cases[which]!;
      const t = clock();
      for (let i = 0; i < options.calls; i++) await fn();
      perCall[which] = (clock() - t) / options.calls;
    }
    perCall.forEach((ms, which) => {
      times[which]!.push(ms);
      ratios[which]!.push(ms / perCall[0]!);
    });
  }
  return { times, ratios: ratios.map((r) => median(r)) };
}

/** receiver.receive() of a genuine delivery with a body of about `size` bytes, ÷ its floor. */
async function deliveryRows(lib: Webhooks, size: number, options: Options): Promise<Measurement[]> {
  const section = `webhook: verify + decode a signed ${size / 1000} KB create_media_buy (÷ floor)`;
  const require = createRequire(import.meta.url);
  const validate = (
    require(path.join(ROOT, 'dist', 'generated', 'v3_1', 'validators', 'create_media_buy.js')) as { response: (d: unknown) => boolean }
  ).response;
  const body = completedBodyOfSize(size);
  const created = Math.floor(Date.now() / 1000);
  // One signed request per call and case (distinct nonces: the replay store is part of what is measured).
  const total = (options.rounds + 1) * options.calls;
  const signed = await Promise.all(Array.from({ length: 3 * total }, () => signWebhook({ key: ed25519, url: HOOK_URL, body, created })));
  const requests = signed.map((s) => ({
    method: 'POST',
    url: HOOK_URL,
    headers: { host: 'buyer.example.com', ...s.headers },
    body: s.body,
  }));
  const receiver = lib.createWebhookReceiver({ endpoint: ORIGIN, keys: resolver });
  const keepsNone = lib.createWebhookReceiver({ endpoint: ORIGIN, keys: resolver, recent: { count: 0 } });
  const replayStore = lib.createMemoryReplayStore();
  const first = signed[0]!;
  const jwk = resolver(ed25519.kid)!.jwk;
  const key = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: jwk.x as string }, { name: 'Ed25519' }, false, [
    'verify',
  ]);
  const base = new TextEncoder().encode(first.base);
  const signature = new Uint8Array(Buffer.from(/:([^:]+):/.exec(first.headers.signature!)![1]!, 'base64url'));
  const text = new TextDecoder().decode(first.body);
  const webCrypto = async (): Promise<void> => {
    if (!(await crypto.subtle.verify({ name: 'Ed25519' }, key, signature, base))) throw new Error('floor: signature does not verify');
    await crypto.subtle.digest('SHA-256', first.body as Uint8Array<ArrayBuffer>);
  };
  const floor = async (): Promise<void> => {
    await webCrypto();
    // The envelope's status stands in for the result's, as decode() judges it.
    const parsed = JSON.parse(text) as { status: string; result: Record<string, unknown> };
    if (!validate({ ...parsed.result, status: parsed.status })) throw new Error('floor: result fails the validator');
  };
  const next = [0, total, 2 * total];
  const ours = async (): Promise<void> => {
    await receiver.receive(requests[next[0]!++]!);
  };
  const checklist = async (): Promise<void> => {
    const request = requests[next[1]!++]!;
    const headers = new Map(Object.entries(request.headers));
    await lib.verifyWebhookSignature({ ...request, headers }, { keys: resolver, replayStore, endpoint: ORIGIN });
  };
  const keepingNone = async (): Promise<void> => {
    await keepsNone.receive(requests[next[2]!++]!);
  };
  const { times, ratios } = await rounds([floor, ours, webCrypto, checklist, keepingNone], options);
  const row = (name: string, which: number, extra: Partial<Measurement> = {}): Measurement =>
    measure(section, name, times[which]!, 'ms', {
      runs: options.rounds * options.calls,
      batch: options.calls,
      ...(which === 0 ? {} : { baseline: 'floor', ratio: ratios[which]! }),
      ...extra,
    });
  return [
    row('floor: Ed25519 verify + SHA-256 + JSON.parse + validator (WebCrypto)', 0),
    row(`receiver.receive, ${text.length} B body`, 1, goal(1.3, ratios[1]!)),
    row('  of the floor: its WebCrypto verify + SHA-256 alone', 2),
    row('  of receive: the signature checklist alone (verifyWebhookSignature, steps 1-13, in-memory replay store)', 3),
    row('  receiver.receive keeping no recent outcome (recent: { count: 0 }; the default keeps 64 for deliveries())', 4),
  ];
}

/** WebCrypto that answers at once (the signature "invalid"): what is timed is the verifier's own work. */
const instant = {
  importKey: () => Promise.resolve({}),
  verify: () => Promise.resolve(false),
  digest: () => Promise.resolve(new ArrayBuffer(32)),
  sign: () => Promise.resolve(new ArrayBuffer(64)),
};

/** A `Signature-Input` of exactly `length` characters: covered headers (the request carries them) for half, a long parameter for the rest. */
function headerOfLength(signed: Awaited<ReturnType<typeof signWebhook>>, length: number): Record<string, string> {
  const input = signed.headers['signature-input']!;
  const close = input.indexOf(')');
  const extra: Record<string, string> = {};
  let components = '';
  for (let i = 0; input.length + components.length < length / 2; i++) {
    components += ` "x-h${i}"`;
    extra[`x-h${i}`] = 'v';
  }
  const withComponents = input.slice(0, close) + components + input.slice(close);
  const pad = length - withComponents.length - ';x=""'.length;
  return { ...signed.headers, ...extra, 'signature-input': `${withComponents};x="${'a'.repeat(pad)}"` };
}

/** Pre-authentication work on a header at `bound` ÷ on the signed (normal) header. */
async function preAuthRows(lib: Webhooks, bound: number, options: Options): Promise<Measurement[]> {
  const section = `webhook: pre-authentication, Signature-Input at the ${bound / 1024} KiB bound (÷ a normal header)`;
  const signed = await signWebhook({
    key: ed25519,
    url: HOOK_URL,
    body: completedBodyOfSize(1_000),
    created: Math.floor(Date.now() / 1000),
  });
  const big = headerOfLength(signed, bound);
  if (big['signature-input']!.length !== bound) throw new Error(`pre-auth: a header of ${big['signature-input']!.length} B, not ${bound}`);
  const verify = (headers: Record<string, string>) => {
    const request = { method: 'POST', url: new URL(HOOK_URL).pathname, headers: new Map(Object.entries(headers)), body: signed.body };
    return async (): Promise<void> => {
      const options = {
        keys: resolver,
        replayStore: lib.createMemoryReplayStore(),
        endpoint: ORIGIN,
        subtle: instant,
        maxSignatureHeaderBytes: bound,
      };
      const outcome = await lib.verifyWebhookSignature(request, options).then(
        () => 'accepted',
        (e: { webhookCode?: string }) => e.webhookCode,
      );
      if (outcome !== 'webhook_signature_invalid') throw new Error(`pre-auth: expected the stubbed signature check, got ${outcome}`);
    };
  };
  // A call is tens of microseconds: ten times the calls per round.
  const { times, ratios } = await rounds([verify(signed.headers), verify(big)], { ...options, calls: options.calls * 10 });
  const ratio = ratios[1]!;
  const row = (name: string, samples: number[], extra: Partial<Measurement> = {}): Measurement =>
    measure(section, name, samples, 'ms', { runs: options.rounds * options.calls * 10, batch: options.calls * 10, ...extra });
  return [
    row(`normal Signature-Input, ${signed.headers['signature-input']!.length} B`, times[0]!),
    row(`Signature-Input at the bound, ${big['signature-input']!.length} B`, times[1]!, { baseline: 'normal', ratio }),
  ];
}

/**
 * Measures the webhook rows.
 *
 * @param options - Rounds and calls per round.
 * @returns Each case's floor and measurement with its ratio; the doubling rows carry the goals.
 */
export async function webhookBench(options: Options = { rounds: 21, calls: 200 }): Promise<Measurement[]> {
  const lib = await load();
  const rows = [...(await deliveryRows(lib, 10_000, options)), ...(await deliveryRows(lib, 20_000, options))];
  const preAuth = [...(await preAuthRows(lib, 8192, options)), ...(await preAuthRows(lib, 16_384, options))];
  // Linear: a header twice as long costs at most about twice as much.
  const doubling = preAuth[3]!.median / preAuth[1]!.median;
  preAuth[3] = { ...preAuth[3]!, note: `×${doubling.toFixed(2)} the cost at 8 KiB for twice the header`, ...goal(2.2, doubling) };
  return [...rows, ...preAuth];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await webhookBench(process.argv.includes('--quick') ? { rounds: 7, calls: 100 } : undefined);
  for (const r of rows)
    process.stdout.write(
      `${r.name}: ${r.median.toFixed(4)} ms${r.ratio === undefined ? '' : ` (×${r.ratio.toFixed(2)}${r.goal === undefined || r.note !== undefined ? '' : ` ${r.goal} ${r.holds === true ? 'holds' : 'missed'}`})`}${r.note === undefined ? '' : `; ${r.note}, ${r.goal} ${r.holds === true ? 'holds' : 'missed'}`}\n`,
    );
}
