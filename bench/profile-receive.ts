/**
 * The receiver's case of bench/profile.ts: signs the deliveries first (outside the profile), warms
 * the receiver up, then profiles only the `receive()` loop with the inspector and writes the
 * .cpuprofile. The deliveries are bench/webhooks.ts's: a signed create_media_buy of about `size`
 * bytes to HOOK_URL, each with its own nonce, through a receiver with the default options.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { completedBodyOfSize, ed25519, HOOK_URL, resolver } from '../test/webhooks/fixtures.js';
import { signWebhook } from '../test/webhooks/signer.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WARM_UP = 500;

/**
 * Profiles `receive()` of `count` deliveries of about `size` bytes into `file`.
 *
 * @param size - The body's size in bytes (bench/webhooks.ts: 10,000 and 20,000).
 * @param count - Deliveries profiled, after WARM_UP unprofiled ones.
 * @param file - Where the .cpuprofile goes.
 * @returns Milliseconds per delivery while profiled (wall time, profiler included).
 */
export async function profileReceive(size: number, count: number, file: string): Promise<number> {
  // The main entry first, as bench/webhooks.ts loads it.
  await import(pathToFileURL(path.join(ROOT, 'dist', 'index.js')).href);
  const lib = (await import(pathToFileURL(path.join(ROOT, 'dist', 'webhooks', 'index.js')).href)) as {
    createWebhookReceiver: (o: unknown) => { receive(request: unknown): Promise<unknown> };
  };
  const body = completedBodyOfSize(size);
  const created = Math.floor(Date.now() / 1000);
  const signed = await Promise.all(
    Array.from({ length: WARM_UP + count }, () => signWebhook({ key: ed25519, url: HOOK_URL, body, created })),
  );
  const requests = signed.map((s) => ({
    method: 'POST',
    url: HOOK_URL,
    headers: { host: 'buyer.example.com', ...s.headers },
    body: s.body,
  }));
  const receiver = lib.createWebhookReceiver({ endpoint: new URL(HOOK_URL).origin, keys: resolver });
  for (const request of requests.slice(0, WARM_UP)) await receiver.receive(request);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const started = performance.now();
  for (const request of requests.slice(WARM_UP)) await receiver.receive(request);
  const elapsed = performance.now() - started;
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  writeFileSync(file, JSON.stringify(profile));
  return elapsed / count;
}
