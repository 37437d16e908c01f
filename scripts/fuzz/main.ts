/**
 * The fuzzer's CLI: runs seeded, reproducible cases (case.ts and the mutators) against decode(),
 * safeDecode() and the extractors, on worker threads, each watched by a watchdog.
 *
 *   npm run fuzz -- --seed 1 --runs 1000000        a run (default: 10,000 cases, a random seed)
 *   npm run fuzz -- --seed 1 --case 4242           one case, in-process, with every step shown
 *   npm run fuzz -- --lane webhooks --seed 1       the webhook lane: signed deliveries mutated, replays, polls
 *   npm run fuzz -- --lane a2a-stream --seed 1     the A2A lane: event sequences folded (foldA2aStream), then decoded;
 *                                                  and hostile answers read by the real @a2a-js/sdk clients (safeCallTask)
 *
 * Options: --from N (first case index, 0), --workers N (default: the cores), --batch N (cases per message, 1000), --hang-ms N (a case
 * that runs longer is killed and reported, 10000), --slow-ms N (reported, 2000), --profile full|ci,
 * --out DIR (.fuzz), --max-old-mb N (a worker's heap, 2048), --lane decode|webhooks|a2a-stream (decode).
 *
 * Every finding (a crash, safeDecode throwing, an extractor throwing a non-DecodeError, two calls
 * disagreeing, a polluted prototype, a slow case, a hang, a worker out of memory) is written to
 * DIR/<kind>-s<seed>-c<index>.json with the steps that built the input, a rendering of it, and the
 * command that reproduces it. The summary (DIR/summary-s<seed>.json, and printed) tallies every
 * class of input tried and its outcomes. Exit status 1 when anything but `slow` was found.
 */
import { a2aViewOf, makeA2aCase, runA2aCase } from './a2a-lane.js';
import { type Args, parseArgs } from './args.js';
import { makeCase } from './case.js';
import { runCase } from './oracle.js';
import { run } from './pool.js';
import { viewOf, webhookCase } from './webhook-lane.js';
import { runWebhookCase } from './webhook-oracle.js';

/** One case of the webhook lane, in-process, every step shown. */
async function runOneWebhook(args: Args, index: number): Promise<number> {
  const c = await webhookCase(args.seed, index, args.profile);
  const view = viewOf(c);
  console.log(`case ${index} of seed ${args.seed}, webhook lane (${args.profile}): ${c.kind}, ${c.envelope}`);
  console.log(`  options  ${JSON.stringify(view.options)}`);
  for (const step of c.steps) console.log(`  - ${step.length > 300 ? `${step.slice(0, 300)}…` : step}`);
  const result = await runWebhookCase(c, args.slowMs);
  console.log(`  outcome  ${result.outcome} in ${result.ms.toFixed(1)} ms`);
  for (const f of result.findings) console.log(`  FINDING  ${f.kind}: ${f.detail}`);
  return result.findings.some((f) => f.kind !== 'slow') ? 1 : 0;
}

/** One case of the A2A lane (a stream, or a hostile answer to a real SDK client), in-process, every step shown. */
async function runOneA2a(args: Args, index: number): Promise<number> {
  const c = makeA2aCase(args.seed, index, args.profile);
  console.log(`case ${index} of seed ${args.seed}, A2A lane (${args.profile}): ${c.envelope}`);
  for (const step of c.steps) console.log(`  - ${step}`);
  const view = a2aViewOf(c);
  const shown = c.kind === 'stream' ? c.events.slice(0, 20) : [view.input];
  for (const item of shown)
    console.log(`  ${c.kind === 'stream' ? 'event' : 'answer'} ${(JSON.stringify(item) ?? 'undefined').slice(0, 300)}`);
  const result = await runA2aCase(c, args.slowMs);
  console.log(`  outcome  ${result.outcome} in ${result.ms.toFixed(1)} ms`);
  for (const f of result.findings) console.log(`  FINDING  ${f.kind}: ${f.detail}`);
  return result.findings.some((f) => f.kind !== 'slow') ? 1 : 0;
}

/** One case, in-process, every step shown: how a finding is reproduced and debugged. */
function runOne(args: Args, index: number): number {
  const c = makeCase(args.seed, index, args.profile);
  console.log(`case ${index} of seed ${args.seed} (${args.profile})`);
  console.log(`  task     ${JSON.stringify(c.task)}`);
  console.log(`  options  ${JSON.stringify(c.options)}`);
  for (const step of c.steps) console.log(`  - ${step}`);
  const result = runCase(c, args.slowMs);
  console.log(`  outcome  ${result.outcome} in ${result.ms.toFixed(1)} ms`);
  for (const f of result.findings) console.log(`  FINDING  ${f.kind}: ${f.detail}`);
  return result.findings.some((f) => f.kind !== 'slow') ? 1 : 0;
}

const args = parseArgs(process.argv.slice(2));
const lanes = { decode: runOne, webhooks: runOneWebhook, 'a2a-stream': runOneA2a } as const;
process.exitCode = args.case === undefined ? await run(args) : await lanes[args.lane](args, args.case);
