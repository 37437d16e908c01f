/**
 * The fuzzer's report: tallies merged from the workers, one file per finding (up to 200 of a kind)
 * with the steps that built the input, a rendering of it and the command that reproduces it, and
 * the summary printed at the end.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Args } from './args.js';
import { makeCase } from './case.js';
import type { CaseView } from './context.js';
import { describeInput } from './describe-input.js';
import type { Finding } from './oracle.js';
import { emptyTally, type Tally } from './protocol.js';

/**
 * The command that reruns one case, in-process, with every step shown.
 *
 * @param args - The run's options (seed, profile).
 * @param index - The case.
 * @returns An `npm run fuzz` command line.
 * @throws Never.
 * @example
 * reproduce(args, 4242); // 'npm run fuzz -- --seed 1 --case 4242'
 */
export function reproduce(args: Args, index: number): string {
  return `npm run fuzz -- --seed ${args.seed} --case ${index}${args.profile === 'ci' ? ' --profile ci' : ''}${args.lane === 'decode' ? '' : ` --lane ${args.lane}`}`;
}

const FILES_PER_KIND = 200;

/** The run's tallies and findings; writes a file per finding as it arrives. */
export class Report {
  readonly tally: Tally = emptyTally();
  readonly findings: Finding[] = [];
  private readonly files = new Map<string, number>();

  /**
   * @param args - The run's options.
   * @param rebuild - How a finding's case is rebuilt for its file (default: the decode lane's).
   */
  constructor(
    private readonly args: Args,
    private readonly rebuild: (index: number) => CaseView = (index) => makeCase(args.seed, index, args.profile),
  ) {}

  merge(t: Tally): void {
    const into = this.tally;
    into.cases += t.cases;
    into.ms += t.ms;
    for (const [k, n] of Object.entries(t.outcomes)) into.outcomes[k] = (into.outcomes[k] ?? 0) + n;
    for (const [cls, byOutcome] of Object.entries(t.classes)) {
      const target = (into.classes[cls] ??= {});
      for (const [k, n] of Object.entries(byOutcome)) target[k] = (target[k] ?? 0) + n;
    }
    if (t.slowest.ms > into.slowest.ms) into.slowest = t.slowest;
  }

  add(finding: Finding): void {
    this.findings.push(finding);
    const written = this.files.get(finding.kind) ?? 0;
    if (written >= FILES_PER_KIND) return;
    this.files.set(finding.kind, written + 1);
    const c = this.rebuild(finding.index);
    const file = path.join(this.args.out, `${finding.kind}-s${finding.seed}-c${finding.index}.json`);
    const body = {
      ...finding,
      reproduce: reproduce(this.args, finding.index),
      profile: this.args.profile,
      task: c.task,
      options: describeInput(c.options),
      envelope: c.envelope,
      classes: c.classes,
      steps: c.steps,
      input: describeInput(c.input),
    };
    writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
    console.log(`  ${finding.kind} at case ${finding.index}: ${finding.detail} → ${file}`);
  }
}

/**
 * The summary printed at the end of a run: speed, outcomes, every class of input tried with its
 * most frequent outcomes, and the findings by kind.
 *
 * @param report - The run's report.
 * @param args - The run's options.
 * @param wallMs - The run's wall time.
 * @returns The text.
 * @throws Never.
 * @example
 * console.log(summarize(report, args, performance.now() - started));
 */
export function summarize(report: Report, args: Args, wallMs: number): string {
  const { tally, findings } = report;
  const lines: string[] = [];
  const pct = (n: number, of: number): string => `${((100 * n) / Math.max(1, of)).toFixed(1)}%`;
  lines.push(
    `seed ${args.seed}, ${tally.cases.toLocaleString('en-US')} cases (${args.profile}), ${(wallMs / 1000).toFixed(1)} s wall on ${args.workers} workers, ${Math.round(tally.cases / (wallMs / 1000)).toLocaleString('en-US')} cases/s`,
  );
  lines.push(`slowest case ${tally.slowest.index}: ${tally.slowest.ms.toFixed(0)} ms`);
  lines.push('');
  lines.push('outcomes:');
  for (const [k, n] of Object.entries(tally.outcomes).sort((a, b) => b[1] - a[1]))
    lines.push(`  ${k.padEnd(20)} ${String(n).padStart(9)}  ${pct(n, tally.cases)}`);
  lines.push('');
  lines.push('classes of input tried (cases; most frequent outcomes):');
  for (const [cls, byOutcome] of Object.entries(tally.classes).sort((a, b) => a[0].localeCompare(b[0]))) {
    const total = Object.values(byOutcome).reduce((a, b) => a + b, 0);
    const top = Object.entries(byOutcome)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([k, n]) => `${k} ${pct(n, total)}`)
      .join(', ');
    lines.push(`  ${cls.padEnd(26)} ${String(total).padStart(9)}  ${top}`);
  }
  lines.push('');
  const byKind = new Map<string, Finding[]>();
  for (const f of findings) byKind.set(f.kind, [...(byKind.get(f.kind) ?? []), f]);
  if (byKind.size === 0) lines.push('findings: none');
  for (const [kind, list] of byKind) {
    lines.push(`findings: ${kind} × ${list.length} (first at case ${list[0]!.index}: ${list[0]!.detail}; files in ${args.out}/)`);
  }
  return lines.join('\n');
}
