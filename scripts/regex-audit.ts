/**
 * The regex audit: every regular expression that runs on a seller's string, judged for
 * super-linear backtracking by recheck (a ReDoS checker built on automata theory and fuzzing):
 *
 * - every `pattern` and `patternProperties` key in the pinned AdCP schemas (compiled as Ajv does,
 *   `new RegExp(pattern, "u")`), and the regexes behind the `format`s they use (ajv-formats, full
 *   mode);
 * - every regex literal and `RegExp` construction in src/ (not src/generated, whose regexes are the
 *   schemas' patterns), found by parsing the source with the TypeScript compiler.
 *
 *   npm run regex-audit                      print the table, write .fuzz/regex-audit.md
 *   npm run regex-audit -- --max-length N    time V8 up to N characters (default 4 MiB)
 *
 * The script also times V8 itself at 64 KiB, 1 MiB and the size limit on recheck's attack string
 * (when it finds one) and on long runs of each character the pattern names, then a character that
 * makes it fail. test/regex-audit.test.ts runs the same judge in `npm test`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkSync, type Diagnostics } from 'recheck';
import ts from 'typescript';
import { listFiles, readLockVersions, REPO_ROOT, schemaDir } from './schema-paths.js';

const requireHere = createRequire(import.meta.url);

const jsonFiles = (dir: string): string[] => listFiles(dir).filter((f) => f.endsWith('.json'));

/** A regex that runs on seller strings, with where it comes from. */
export interface AuditedRegex {
  readonly name: string;
  readonly source: string;
  readonly flags: string;
  /** `pattern`, `patternProperties` (run on keys), `format`, or `source` (src/). */
  readonly kind: 'pattern' | 'patternProperties' | 'format' | 'source';
  /** Schema files (per version) that use it; 1 for a place in src/. */
  readonly uses: number;
}

/** A `RegExp` in src/ whose pattern is only known at run time, so it cannot be audited. */
export interface DynamicRegex {
  /** `file:line`. */
  readonly at: string;
  /** The construction, as written. */
  readonly code: string;
}

/** Keywords whose values are instances, not schemas: patterns there are data. */
const INSTANCE_KEYWORDS = new Set(['examples', 'enum', 'const', 'default']);

/**
 * Every pattern and patternProperties key of the pinned versions' schemas, and the formats they use.
 *
 * @returns Patterns (distinct), and format names with their use counts.
 * @throws If the lock or a schema cannot be read.
 * @example
 * const { patterns, formats } = collectSchemaRegexes();
 */
export function collectSchemaRegexes(): { patterns: AuditedRegex[]; formats: Map<string, number> } {
  const found = new Map<string, { kind: 'pattern' | 'patternProperties'; uses: number }>();
  const formats = new Map<string, number>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (INSTANCE_KEYWORDS.has(key)) continue;
      if (key === 'pattern' && typeof value === 'string') {
        const entry = found.get(`pattern\u0000${value}`) ?? { kind: 'pattern' as const, uses: 0 };
        entry.uses++;
        found.set(`pattern\u0000${value}`, entry);
      } else if (key === 'format' && typeof value === 'string') {
        formats.set(value, (formats.get(value) ?? 0) + 1);
      } else if (key === 'patternProperties' && typeof value === 'object' && value !== null) {
        for (const p of Object.keys(value)) {
          const entry = found.get(`patternProperties\u0000${p}`) ?? { kind: 'patternProperties' as const, uses: 0 };
          entry.uses++;
          found.set(`patternProperties\u0000${p}`, entry);
        }
      }
      visit(value);
    }
  };
  for (const version of readLockVersions().versions)
    for (const file of jsonFiles(schemaDir(version))) visit(JSON.parse(readFileSync(file, 'utf8')));
  const patterns = [...found.entries()].map(([key, { kind, uses }]) => {
    const source = key.slice(key.indexOf('\u0000') + 1);
    return { name: source, source, flags: 'u', kind, uses };
  });
  return { patterns, formats };
}

/**
 * The regular expressions behind the formats in use, from ajv-formats' full mode: regex formats
 * directly, and the module-private regexes the function formats (`uri`, `date`, `date-time`)
 * run, read from its source (they are not exported).
 *
 * @param used - Format name → use count.
 * @returns The regexes, and the names of formats with no regex to audit.
 * @throws If ajv-formats cannot be read.
 * @example
 * formatRegexes(new Map([['email', 18]]));
 */
export function formatRegexes(used: ReadonlyMap<string, number>): { regexes: AuditedRegex[]; functions: string[] } {
  const formatsFile = requireHere.resolve('ajv-formats/dist/formats.js');
  const full = (requireHere(formatsFile) as { fullFormats: Record<string, unknown> }).fullFormats;
  const text = readFileSync(formatsFile, 'utf8');
  const privateRegex = (name: string): RegExp => {
    const m = new RegExp(`^const ${name} = /(.*)/([a-z]*);$`, 'm').exec(text);
    if (m === null) throw new Error(`regex-audit: ajv-formats no longer declares ${name}; update scripts/regex-audit.ts`);
    return new RegExp(m[1] as string, m[2]);
  };
  /** What each function format runs, besides simple string operations. */
  const inside: Record<string, string[]> = {
    uri: ['NOT_URI_FRAGMENT', 'URI'],
    date: ['DATE'],
    'date-time': ['DATE_TIME_SEPARATOR', 'DATE', 'TIME'],
    time: ['TIME'],
  };
  const regexes: AuditedRegex[] = [];
  const functions: string[] = [];
  for (const [name, uses] of [...used.entries()].sort()) {
    const def = full[name];
    const re =
      def instanceof RegExp
        ? def
        : (def as { validate?: unknown } | undefined)?.validate instanceof RegExp
          ? (def as { validate: RegExp }).validate
          : undefined;
    if (re !== undefined) {
      regexes.push({ name: `format ${name}`, source: re.source, flags: re.flags, kind: 'format', uses });
    } else if (inside[name] !== undefined) {
      functions.push(name);
      for (const constName of inside[name]!) {
        const r = privateRegex(constName);
        if (!regexes.some((x) => x.source === r.source && x.flags === r.flags))
          regexes.push({ name: `format ${name} (${constName})`, source: r.source, flags: r.flags, kind: 'format', uses });
      }
    } else {
      throw new Error(`regex-audit: format ${name} is neither a regex nor a known function format; audit it by hand`);
    }
  }
  return { regexes, functions };
}

const SOURCE_DIR = path.join(REPO_ROOT, 'src');

/** Methods that turn a string argument into a RegExp. */
const STRING_TO_REGEXP = new Set(['match', 'matchAll', 'search']);

/**
 * Every regular expression in the TypeScript sources under `dir` (src/generated excluded): regex
 * literals, `new RegExp(...)` / `RegExp(...)` with literal arguments, and, as {@link DynamicRegex},
 * constructions whose pattern is not a literal (including `.match`, `.matchAll` and `.search`
 * called with something other than a regex literal, which build a RegExp from a string).
 *
 * @param dir The folder to scan; default src/.
 * @returns The regexes (named `file:line`), and the constructions that cannot be audited.
 * @throws If a file cannot be read.
 * @example
 * const { regexes, dynamic } = collectSourceRegexes();
 */
export function collectSourceRegexes(dir: string = SOURCE_DIR): { regexes: AuditedRegex[]; dynamic: DynamicRegex[] } {
  const regexes: AuditedRegex[] = [];
  const dynamic: DynamicRegex[] = [];
  const files = listFiles(dir).filter((f) => f.endsWith('.ts') && !path.relative(dir, f).startsWith('generated'));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const found = collectRegexesIn(path.relative(REPO_ROOT, file), text);
    regexes.push(...found.regexes);
    dynamic.push(...found.dynamic);
  }
  return { regexes, dynamic };
}

/**
 * The regexes of one TypeScript source text; see {@link collectSourceRegexes}.
 *
 * @param name The file's name, for `file:line`.
 * @param text Its TypeScript source.
 * @returns The regexes and the constructions that cannot be audited.
 * @throws Never (a syntax error only makes the parse partial).
 * @example
 * collectRegexesIn('x.ts', 'const re = /^a+$/u;'); // { regexes: [{ name: 'x.ts:1 /^a+$/u', ... }], dynamic: [] }
 */
export function collectRegexesIn(name: string, text: string): { regexes: AuditedRegex[]; dynamic: DynamicRegex[] } {
  const regexes: AuditedRegex[] = [];
  const dynamic: DynamicRegex[] = [];
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const at = (node: ts.Node): string => `${name}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`;
  const literal = (node: ts.Node | undefined): string | undefined =>
    node !== undefined && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;
  const add = (node: ts.Node, source: string, flags: string): void => {
    regexes.push({ name: `${at(node)} /${source}/${flags}`, source, flags, kind: 'source', uses: 1 });
  };
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const raw = node.getText(file);
      const end = raw.lastIndexOf('/');
      add(node, raw.slice(1, end), raw.slice(end + 1));
    } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && isRegExpName(node.expression)) {
      const [pattern, flags] = node.arguments ?? [];
      const source = literal(pattern);
      const flagText = flags === undefined ? '' : literal(flags);
      // `new RegExp(/re/, flags)`: the literal is audited where it stands, with these flags too.
      const from = pattern !== undefined && pattern.kind === ts.SyntaxKind.RegularExpressionLiteral ? pattern.getText(file) : undefined;
      if (source !== undefined && flagText !== undefined) add(node, source, flagText);
      else if (from !== undefined && flagText !== undefined) add(node, from.slice(1, from.lastIndexOf('/')), flagText);
      else dynamic.push({ at: at(node), code: node.getText(file) });
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      STRING_TO_REGEXP.has(node.expression.name.text)
    ) {
      const [argument] = node.arguments;
      if (argument === undefined || argument.kind !== ts.SyntaxKind.RegularExpressionLiteral)
        dynamic.push({ at: at(node), code: node.getText(file) });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { regexes, dynamic };
}

function isRegExpName(node: ts.Expression): boolean {
  if (ts.isIdentifier(node)) return node.text === 'RegExp';
  return ts.isPropertyAccessExpression(node) && node.name.text === 'RegExp';
}

/** recheck's parameters: no time limits (the verdict must not depend on the machine's load), a fixed seed. */
const RECHECK_PARAMS = {
  timeout: null,
  attackTimeout: null,
  incubationTimeout: null,
  seedingTimeout: null,
  recallTimeout: -1,
  randomSeed: 0,
} as const;

/** What the audit concludes about one regex. */
export interface Verdict {
  /** `linear`: at most linear backtracking (recheck: constant, linear or safe). */
  readonly verdict: 'linear' | 'polynomial' | 'exponential' | 'unknown';
  /** recheck's summary (`linear`, `2nd degree polynomial`, `exponential`) or why it could not judge. */
  readonly summary: string;
  /** How recheck judged it. */
  readonly checker: 'automaton' | 'fuzz' | undefined;
  /** A string that makes it backtrack, for super-linear ones: prefix + pump × n + suffix. */
  readonly attack?: Attack;
}

/** An attack string shape: each pump's `prefix + pump.repeat(n)`, in order, then `suffix`. */
export interface Attack {
  readonly pumps: ReadonlyArray<{ readonly prefix: string; readonly pump: string }>;
  readonly suffix: string;
}

/**
 * Judges one regex with recheck.
 *
 * @param source The pattern.
 * @param flags Its flags.
 * @returns The verdict; `unknown` when recheck cannot judge it (an unsupported feature).
 * @throws Never for a valid pattern.
 * @example
 * judge('^a*a*$', 'u').verdict; // 'polynomial'
 */
export function judge(source: string, flags: string): Verdict {
  const diagnostics: Diagnostics = checkSync(source, flags, RECHECK_PARAMS);
  switch (diagnostics.status) {
    case 'safe':
      return { verdict: 'linear', summary: diagnostics.complexity.summary, checker: diagnostics.checker };
    case 'vulnerable': {
      const attack = { pumps: diagnostics.attack.pumps.map(({ prefix, pump }) => ({ prefix, pump })), suffix: diagnostics.attack.suffix };
      return { verdict: diagnostics.complexity.type, summary: diagnostics.complexity.summary, checker: diagnostics.checker, attack };
    }
    case 'unknown': {
      const why = 'message' in diagnostics.error ? `${diagnostics.error.kind}: ${diagnostics.error.message}` : diagnostics.error.kind;
      return { verdict: 'unknown', summary: why, checker: diagnostics.checker };
    }
  }
}

// ---------------------------------------------------------------------------------------------

const MiB = 1024 * 1024;

function describeAttack(a: Attack): string {
  const show = (s: string): string => JSON.stringify(s).slice(1, -1);
  return `${a.pumps.map((p) => `${show(p.prefix)}(${show(p.pump)})×k`).join('')}${show(a.suffix)}`;
}

/**
 * The attack at about `length` characters: every pump repeated the same number of times.
 *
 * @param attack The shape.
 * @param length The wanted length.
 * @returns The string.
 * @throws Never.
 * @example
 * build({ pumps: [{ prefix: 'a', pump: ' ' }], suffix: 'b' }, 6); // 'a    b'
 */
export function build(attack: Attack, length: number): string {
  const fixed = attack.pumps.reduce((n, p) => n + p.prefix.length, attack.suffix.length);
  const perRound = attack.pumps.reduce((n, p) => n + p.pump.length, 0);
  const rounds = perRound === 0 ? 0 : Math.max(1, Math.floor((length - fixed) / perRound));
  return `${attack.pumps.map((p) => p.prefix + p.pump.repeat(rounds)).join('')}${attack.suffix}`;
}

/** Characters that are syntax in a pattern, not characters it names. */
const SYNTAX = new Set('\\^$.|?*+()[]{}-');

/**
 * Strings on which a linear regex shows its constant factor: after the pattern's literal lead
 * (`https://` of `^https://...`), a long run of each character the pattern names, then NUL.
 */
function runAttacks(source: string): Attack[] {
  let lead = '';
  for (const c of source.startsWith('^') ? source.slice(1) : source) {
    if (SYNTAX.has(c)) break;
    lead += c;
  }
  const chars = new Set([...source].filter((c) => !SYNTAX.has(c)));
  for (const c of ' a0-./:') chars.add(c);
  return [...chars].map((c) => ({ pumps: [{ prefix: lead, pump: c }], suffix: '\u0000' }));
}

/** Milliseconds V8 takes for `test` on the input (best of three, so noise only adds). */
function v8Time(re: RegExp | ((s: string) => unknown), input: string): number {
  const run = typeof re === 'function' ? re : (s: string) => re.test(s);
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    run(input);
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/**
 * The worst V8 time at each length over the attacks, longest length last; once a time passes 1 s
 * the longer lengths are not tried (`Infinity`).
 */
function worstTimes(
  run: RegExp | ((s: string) => unknown),
  attacks: readonly Attack[],
  lengths: readonly number[],
): { ms: number[]; attack: string } {
  const ms = lengths.map(() => 0);
  let worst = '';
  for (const attack of attacks) {
    for (let i = 0; i < lengths.length; i++) {
      if ((ms[i - 1] ?? 0) > 1000) {
        ms[i] = Infinity;
        continue;
      }
      const t = v8Time(run, build(attack, lengths[i] as number));
      if (i === lengths.length - 1 && t > (ms[i] as number)) worst = describeAttack(attack);
      ms[i] = Math.max(ms[i] as number, t);
    }
  }
  return { ms, attack: worst };
}

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

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
