/**
 * The regex audit's CLI: collects every regex that runs on a seller's string (collect.ts), has
 * recheck judge each (judge.ts), times V8 on the attacks (v8-timing.ts), prints the table and
 * writes it as Markdown; exit status 1 when a regex is super-linear, unjudged or built at run time.
 *
 *   npm run regex-audit                      print the table, write .fuzz/regex-audit.md
 *   npm run regex-audit -- --max-length N    time V8 up to N characters (default 4 MiB)
 *   npm run regex-audit -- --out FILE        write the table there
 *
 * test/scripts/regex-audit.test.ts runs the same collection and judge in `npm test`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { readLockVersions } from '../schema-paths.js';
import { type AuditedRegex, collectSchemaRegexes, collectSourceRegexes, formatRegexes } from './collect.js';
import { describeAttack, judge, type Verdict } from './judge.js';
import { runAttacks, worstTimes } from './v8-timing.js';

const requireHere = createRequire(import.meta.url);
const MiB = 1024 * 1024;

interface Row {
  readonly regex: AuditedRegex;
  readonly verdict: Verdict;
  readonly ms: readonly number[];
  readonly attack: string;
}

function main(): void {
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--max-length');
  const maxLength = at >= 0 ? Number(argv[at + 1]) : 4 * MiB;
  const outAt = argv.indexOf('--out');
  const out = outAt >= 0 ? (argv[outAt + 1] as string) : '.fuzz/regex-audit.md';
  const lengths = [64 * 1024, MiB, maxLength];

  const started = performance.now();
  const { patterns, formats } = collectSchemaRegexes();
  const { regexes: formatRes, functions } = formatRegexes(formats);
  const { regexes: sourceRes, dynamic } = collectSourceRegexes();
  const all = [...patterns, ...formatRes, ...sourceRes];
  console.log(
    `auditing ${patterns.length} patterns and patternProperties keys, ${formatRes.length} format regexes (formats in use: ${[...formats.keys()].sort().join(', ')}) and ${sourceRes.length} regexes in src/`,
  );

  const rows: Row[] = [];
  for (const regex of all) {
    const verdict = judge(regex.source, regex.flags);
    const attacks = [...(verdict.attack === undefined ? [] : [verdict.attack]), ...runAttacks(regex.source)];
    rows.push({ regex, verdict, ...worstTimes(new RegExp(regex.source, regex.flags), attacks, lengths) });
  }
  const rank = { exponential: 3, polynomial: 2, unknown: 1, linear: 0 } as const;
  rows.sort((a, b) => rank[b.verdict.verdict] - rank[a.verdict.verdict] || (b.ms[2] as number) - (a.ms[2] as number));

  const fmt = (ms: number): string => (Number.isFinite(ms) ? (ms < 10 ? ms.toFixed(2) : ms.toFixed(0)) : '> 1 s before');
  const header = `| regex | kind | uses | recheck | checker | slowest input at ${(maxLength / MiB).toFixed(0)} MiB | V8 ms @64 KiB | @1 MiB | @${(maxLength / MiB).toFixed(0)} MiB |`;
  const lines = [header, `|${'---|'.repeat(9)}`];
  for (const { regex, verdict, ms, attack } of rows) {
    const name = regex.name.length > 70 ? `${regex.name.slice(0, 70)}…` : regex.name;
    lines.push(
      `| \`${name.replace(/\|/g, '\\|')}\` | ${regex.kind} | ${regex.uses} | ${verdict.summary} | ${verdict.checker ?? '-'} | \`${attack.slice(0, 50).replace(/\|/g, '\\|')}\` | ${fmt(ms[0] as number)} | ${fmt(ms[1] as number)} | ${fmt(ms[2] as number)} |`,
    );
  }
  const formatsFile = requireHere('ajv-formats/dist/formats.js') as { fullFormats: Record<string, unknown> };
  const fnLines = functions.map((name) => {
    const def = formatsFile.fullFormats[name];
    const fn = (typeof def === 'function' ? def : (def as { validate: (s: string) => boolean }).validate) as (s: string) => boolean;
    const related = rows.filter((r) => r.regex.name.startsWith(`format ${name} `));
    const attacks = related.flatMap((r) => [...(r.verdict.attack === undefined ? [] : [r.verdict.attack]), ...runAttacks(r.regex.source)]);
    const { ms, attack } = worstTimes(fn, attacks, [maxLength]);
    return `- format \`${name}\` (a function: splits, then the regexes above): worst ${fmt(ms[0] as number)} ms at ${(maxLength / MiB).toFixed(0)} MiB, on \`${attack.slice(0, 60)}\``;
  });
  const failing = rows.filter((r) => r.verdict.verdict !== 'linear');
  const verdict =
    failing.length === 0 && dynamic.length === 0
      ? 'No regex backtracks super-linearly (recheck: constant, linear or safe for every one), so no input within the size limit is catastrophic. No code.regExp engine is needed.'
      : [
          ...failing.map(
            (r) =>
              `SUPER-LINEAR OR UNJUDGED: \`${r.regex.name}\`: ${r.verdict.summary}${r.verdict.attack === undefined ? '' : ` on \`${describeAttack(r.verdict.attack).slice(0, 80)}\``}`,
          ),
          ...dynamic.map((d) => `NOT AUDITABLE (pattern built at run time): ${d.at} \`${d.code.slice(0, 80)}\``),
        ].join('\n');
  const report = [
    '# Regex audit',
    '',
    `${all.length} regexes: ${patterns.length} distinct \`pattern\`s and \`patternProperties\` keys from the pinned AdCP schemas (${readLockVersions().versions.join(', ')}), compiled with the \`u\` flag as Ajv does; ${formatRes.length} regexes behind the formats in use (ajv-formats, full mode); ${sourceRes.length} regex literals and RegExp constructions in src/. Judged by recheck (no time limits, seed 0); V8 times are the best of three runs of \`RegExp.prototype.test\`, worst over recheck's attack string (if any) and runs of each character the pattern names.`,
    '',
    verdict,
    '',
    ...lines,
    '',
    ...fnLines,
    '',
    `Audit time ${((performance.now() - started) / 1000).toFixed(1)} s.`,
    '',
  ].join('\n');
  console.log(`\n${report}`);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, report);
  console.log(`written to ${out}`);
  process.exitCode = failing.length === 0 && dynamic.length === 0 ? 0 : 1;
}

main();
