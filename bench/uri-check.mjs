/**
 * One fresh process of the first-`uri`-check measurement (spawned by bench/run.ts with bare
 * `node`): ajv-formats' full `uri` format, whose regex V8 compiles on its first use, or isUri
 * (dist/validate/runtime/uri-format.js), the scan the generated validators can call instead.
 *
 *   node bench/uri-check.mjs '{"impl":"ajv-formats"|"isUri","dist":"<path to dist/validate/runtime/uri-format.js>"}'
 *
 * Printed on stdout, as one JSON line: importMs (loading the function), firstMs (its first call),
 * hundredMs and thousandMs (the first 100 and all 1,000 of the calls that follow, on distinct URIs:
 * a 100 KB get_products checks 108), and ok (every call accepted its URI). Each time is given as
 * `{ wall, cpu }`: wall time, and CPU time of the process (user + system: V8's background
 * compiles count, and on a busy machine preemptions do not).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const job = JSON.parse(process.argv[2]);
// Built before the clock starts, so that both sides time only their checks.
const uris = Array.from(
  { length: 1000 },
  (_, i) => `https://cdn${i % 7}.example.com/creatives/${i}/banner-300x250.png${i % 3 === 0 ? `?v=${i}&utm_source=adcp#f${i}` : ''}`,
);
const first = 'https://publisher.example.com/.well-known/adagents.json';

const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
/** Both clocks at once: [wall, cpu] in ms. */
const now = () => [performance.now(), cpu()];
const since = (t) => {
  const [wall, cpuMs] = now();
  return { wall: wall - t[0], cpu: cpuMs - t[1] };
};

const t0 = now();
let check;
if (job.impl === 'ajv-formats') check = createRequire(import.meta.url)('ajv-formats/dist/formats.js').fullFormats.uri;
else if (job.impl === 'isUri') check = (await import(pathToFileURL(job.dist).href)).isUri;
else throw new Error(`unknown impl ${job.impl}`);
const importMs = since(t0);
const t1 = now();
let ok = check(first);
const firstMs = since(t1);
const t2 = now();
let hundredMs;
for (let i = 0; i < uris.length; i++) {
  ok = check(uris[i]) && ok;
  if (i === 99) hundredMs = since(t2);
}
const thousandMs = since(t2);
process.stdout.write(`${JSON.stringify({ importMs, firstMs, hundredMs, thousandMs, ok })}\n`);
