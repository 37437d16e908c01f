/**
 * The fuzzer's CLI: runs seeded, reproducible cases (case.ts and the mutators) against decode(),
 * safeDecode() and the extractors, on worker threads, each watched by a watchdog.
 *
 *   npm run fuzz -- --seed 1 --runs 1000000        a run (default: 10,000 cases, a random seed)
 *   npm run fuzz -- --seed 1 --case 4242           one case, in-process, with every step shown
 *
 * Options: --from N (first case index, 0), --workers N (default: the cores), --batch N (cases per message, 1000), --hang-ms N (a case
 * that runs longer is killed and reported, 10000), --slow-ms N (reported, 2000), --profile full|ci,
 * --out DIR (.fuzz), --max-old-mb N (a worker's heap, 2048).
 *
 * Every finding (a crash, safeDecode throwing, an extractor throwing a non-DecodeError, two calls
 * disagreeing, a polluted prototype, a slow case, a hang, a worker out of memory) is written to
 * DIR/<kind>-s<seed>-c<index>.json with the steps that built the input, a rendering of it, and the
 * command that reproduces it. The summary (DIR/summary-s<seed>.json, and printed) tallies every
 * class of input tried and its outcomes. Exit status 1 when anything but `slow` was found.
 */
import { type Args, parseArgs } from './args.js';
import { makeCase } from './case.js';
import { runCase } from './oracle.js';
import { run } from './pool.js';

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
process.exitCode = args.case !== undefined ? runOne(args, args.case) : await run(args);
