/**
 * One process of the events row (bench/events.ts), spawned with bare `node`: callTask of the build
 * at `dist`, over an in-process MCP client that answers `payload` at once, once per arm (`listen`:
 * with a listener that does nothing, or without), the arms alternating call by call, each call
 * timed alone. Printed on stdout, as one JSON line: per arm, the median of each round's calls.
 *
 *   node bench/events-child.mjs '{"dist":"…/dist","payload":"…/payload.json","listen":[false,true],"rounds":41,"calls":200,"warmup":3}'
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const job = JSON.parse(process.argv[2]);
const payload = JSON.parse(readFileSync(job.payload, 'utf8'));
const { callTask } = await import(pathToFileURL(path.join(job.dist, 'mcp', 'index.js')).href);
const answer = { content: [{ type: 'text', text: 'ok' }], structuredContent: payload };
const client = { callTool: async () => answer };
const args = { buying_mode: 'brief', brief: 'Premium CTV, US, Q3' };
let told = 0;
const arms = job.listen.map((listen) =>
  listen
    ? () => callTask(client, 'get_products', args, { version: '3.1', onEvent: () => void told++ })
    : () => callTask(client, 'get_products', args, { version: '3.1' }),
);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// The process calls what it measures: every arm answers the products.
for (const arm of arms) {
  const data = await arm();
  if (data.products?.length !== payload.products.length) throw new Error('events-child: an arm answered differently');
}
const rounds = job.listen.map(() => []);
for (let r = -job.warmup; r < job.rounds; r++) {
  const calls = arms.map(() => []);
  for (let i = 0; i < job.calls; i++) {
    for (let k = 0; k < arms.length; k++) {
      const a = (k + i) % arms.length;
      const started = performance.now();
      await arms[a]();
      calls[a].push(performance.now() - started);
    }
  }
  if (r >= 0) for (const [a, list] of calls.entries()) rounds[a].push(median(list));
}
process.stdout.write(`${JSON.stringify({ rounds, told })}\n`);
