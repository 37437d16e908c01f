/**
 * The regex audit: every `pattern` and `patternProperties` key in the pinned AdCP schemas, and
 * every regular expression behind the `format`s they use (ajv-formats, full mode), checked for
 * catastrophic backtracking.
 *
 *   npm run regex-audit                      print the table, write .fuzz/regex-audit.md
 *   npm run regex-audit -- --max-length N    time V8 up to N characters (default 4 MiB)
 *
 * For each regex (compiled as Ajv compiles it: `new RegExp(pattern, "u")`; formats with their own
 * flags), scripts/regex-engine.ts generates attack strings from the pattern itself (what leads to
 * each quantifier, pumped with strings its body matches, then a character that makes it fail),
 * picks the one that costs a backtracking matcher the most steps, and measures how the step count
 * grows as the input doubles (growth ~1: linear; ~2: quadratic; a step limit hit: catastrophic).
 * It then times V8 itself on that attack at 64 KiB, 1 MiB and the size limit.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { auditPattern, build, type Attack, type Audit } from './regex-engine.js';
import { listFiles, readLockVersions, schemaDir } from './schema-paths.js';

const requireHere = createRequire(import.meta.url);

const jsonFiles = (dir: string): string[] => listFiles(dir).filter((f) => f.endsWith('.json'));

/** A regex the validators run on seller strings, with where it comes from. */
export interface AuditedRegex {
  readonly name: string;
  readonly source: string;
  readonly flags: string;
  /** `pattern`, `patternProperties` (run on keys) or `format`. */
  readonly kind: 'pattern' | 'patternProperties' | 'format';
  /** Schema files (per version) that use it. */
  readonly uses: number;
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
    if (Array.isArray(node)) return node.forEach(visit);
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
  for (const version of readLockVersions().versions) for (const file of jsonFiles(schemaDir(version))) visit(JSON.parse(readFileSync(file, 'utf8')));
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
  const inside: Record<string, string[]> = { uri: ['NOT_URI_FRAGMENT', 'URI'], date: ['DATE'], 'date-time': ['DATE_TIME_SEPARATOR', 'DATE', 'TIME'], time: ['TIME'] };
  const regexes: AuditedRegex[] = [];
  const functions: string[] = [];
  for (const [name, uses] of [...used.entries()].sort()) {
    const def = full[name];
    const re = def instanceof RegExp ? def : (def as { validate?: unknown } | undefined)?.validate instanceof RegExp ? ((def as { validate: RegExp }).validate) : undefined;
    if (re !== undefined) {
      regexes.push({ name: `format ${name}`, source: re.source, flags: re.flags, kind: 'format', uses });
    } else if (inside[name] !== undefined) {
      functions.push(name);
      for (const constName of inside[name]!) {
        const r = privateRegex(constName);
        if (!regexes.some((x) => x.source === r.source && x.flags === r.flags)) regexes.push({ name: `format ${name} (${constName})`, source: r.source, flags: r.flags, kind: 'format', uses });
      }
    } else {
      throw new Error(`regex-audit: format ${name} is neither a regex nor a known function format; audit it by hand`);
    }
  }
  return { regexes, functions };
}

// ---------------------------------------------------------------------------------------------

const MiB = 1024 * 1024;

function describeAttack(a: Attack): string {
  const show = (s: string): string => JSON.stringify(s).slice(1, -1);
  return `${show(a.prefix)}(${show(a.pump)})×k${show(a.suffix)}`;
}

/** Milliseconds V8 takes for `test` on the attack at a length (best of three, so noise only adds). */
function v8Time(regex: AuditedRegex, attack: Attack, length: number): number {
  const re = new RegExp(regex.source, regex.flags);
  const input = build(attack, length);
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    re.test(input);
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/** How a function format (uri, date, date-time) fares on long inputs built from its regexes' attacks. */
function functionTimes(name: string, attacks: readonly Attack[], maxLength: number): { ms: number; attack: string } {
  const def = (requireHere('ajv-formats/dist/formats.js') as { fullFormats: Record<string, unknown> }).fullFormats[name];
  const fn = (typeof def === 'function' ? def : (def as { validate: (s: string) => boolean }).validate) as (s: string) => boolean;
  let worst = { ms: 0, attack: '' };
  for (const attack of [...attacks, { prefix: '', pump: 't', suffix: '' }, { prefix: 'a:', pump: 'a', suffix: '\n' }]) {
    const input = build(attack, maxLength);
    const t0 = performance.now();
    fn(input);
    const ms = performance.now() - t0;
    if (ms > worst.ms) worst = { ms, attack: describeAttack(attack) };
  }
  return worst;
}

interface Row {
  readonly regex: AuditedRegex;
  readonly audit: Audit;
  readonly ms: readonly number[];
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
  const all = [...patterns, ...formatRes];
  console.log(`auditing ${patterns.length} patterns and patternProperties keys and ${formatRes.length} format regexes (formats in use: ${[...formats.keys()].sort().join(', ')})`);

  const rows: Row[] = [];
  for (const regex of all) {
    const audit = auditPattern(regex.source, regex.flags, [256, 512, 1024, 2048]);
    const catastrophic = audit.steps.some(([, s]) => !Number.isFinite(s));
    const ms = catastrophic ? lengths.map(() => Infinity) : lengths.map((n) => v8Time(regex, audit.worst, n));
    rows.push({ regex, audit, ms });
  }
  rows.sort((a, b) => b.audit.growth - a.audit.growth || (b.ms[2] as number) - (a.ms[2] as number));

  const fmt = (ms: number): string => (Number.isFinite(ms) ? (ms < 10 ? ms.toFixed(2) : ms.toFixed(0)) : '∞');
  const header = `| pattern | kind | uses | attacks | worst attack | steps @1024 | steps @2048 | growth | V8 ms @64 KiB | @1 MiB | @${(maxLength / MiB).toFixed(0)} MiB |`;
  const lines = [header, `|${'---|'.repeat(11)}`];
  for (const { regex, audit, ms } of rows) {
    const steps = new Map(audit.steps);
    lines.push(
      `| \`${regex.name.length > 70 ? `${regex.name.slice(0, 70)}…` : regex.name}\` | ${regex.kind} | ${regex.uses} | ${audit.tried} | \`${describeAttack(audit.worst).slice(0, 60)}\` | ${steps.get(1024)} | ${steps.get(2048)} | ${Number.isFinite(audit.growth) ? audit.growth.toFixed(2) : '∞'} | ${fmt(ms[0] as number)} | ${fmt(ms[1] as number)} | ${fmt(ms[2] as number)} |`,
    );
  }
  const fnLines = functions.map((name) => {
    const related = rows.filter((r) => r.regex.name.startsWith(`format ${name} `)).map((r) => r.audit.worst);
    const { ms, attack } = functionTimes(name, related, maxLength);
    return `- format \`${name}\` (a function: splits, then the regexes above): worst ${fmt(ms)} ms at ${(maxLength / MiB).toFixed(0)} MiB, on \`${attack.slice(0, 60)}\``;
  });
  const worst = rows[0];
  const exploitable = rows.filter((r) => r.audit.growth > 1.5 || !Number.isFinite(r.audit.growth));
  const verdict =
    exploitable.length === 0
      ? `No pattern backtracks super-linearly: the worst step growth is ${worst === undefined ? '-' : worst.audit.growth.toFixed(2)} (1.00 is linear), so no input within the size limit is catastrophic. No code.regExp engine is needed.`
      : `EXPLOITABLE: ${exploitable.map((r) => `\`${r.regex.name}\``).join(', ')} backtrack super-linearly; make validation safe (code.regExp with a linear-time engine, or a length guard).`;
  const report = [
    '# Regex audit',
    '',
    `${all.length} regexes: ${patterns.length} distinct \`pattern\`s and \`patternProperties\` keys from the pinned AdCP schemas (${readLockVersions().versions.join(', ')}), compiled with the \`u\` flag as Ajv does, and ${formatRes.length} regexes behind the formats in use (ajv-formats, full mode). Worst attack per regex chosen by step count at 256 characters; steps counted by scripts/regex-engine.ts; V8 times are the best of three runs of \`RegExp.prototype.test\`.`,
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
  process.exitCode = exploitable.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
