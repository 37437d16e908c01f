/**
 * The regexes the audit judges: every regular expression that runs on a seller's string.
 *
 * - every `pattern` and `patternProperties` key in the pinned AdCP schemas (compiled as Ajv does,
 *   `new RegExp(pattern, "u")`), and the regexes behind the `format`s they use (ajv-formats, full
 *   mode);
 * - every regex literal and `RegExp` construction in src/ (not src/generated, whose regexes are the
 *   schemas' patterns, nor src/generate, the generator, whose regexes read a release's schemas and
 *   Ajv's output, never a seller's string), found by parsing the source with the TypeScript compiler.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { listFiles, REPO_ROOT, readLockVersions, schemaDir } from '../schema-paths.js';

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
    if (m === null) throw new Error(`regex-audit: ajv-formats no longer declares ${name}; update scripts/regex-audit/collect.ts`);
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
 * Every regular expression in the TypeScript and JavaScript sources under `dir` (src/generated and
 * the generator, src/generate, excluded; the JSDoc-typed .js modules there are runtime code too): regex literals,
 * `new RegExp(...)` / `RegExp(...)` with literal arguments, and, as {@link DynamicRegex},
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
  const files = listFiles(dir).filter((f) => /\.[jt]s$/.test(f) && !/^generated?\//.test(path.relative(dir, f).split(path.sep).join('/')));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const found = collectRegexesIn(path.relative(REPO_ROOT, file), text);
    regexes.push(...found.regexes);
    dynamic.push(...found.dynamic);
  }
  return { regexes, dynamic };
}

/**
 * The regexes of one TypeScript or JavaScript source text (JavaScript when `name` ends in `.js`);
 * see {@link collectSourceRegexes}.
 *
 * @param name The file's name, for `file:line`.
 * @param text Its source.
 * @returns The regexes and the constructions that cannot be audited.
 * @throws Never (a syntax error only makes the parse partial).
 * @example
 * collectRegexesIn('x.ts', 'const re = /^a+$/u;'); // { regexes: [{ name: 'x.ts:1 /^a+$/u', ... }], dynamic: [] }
 */
export function collectRegexesIn(name: string, text: string): { regexes: AuditedRegex[]; dynamic: DynamicRegex[] } {
  const regexes: AuditedRegex[] = [];
  const dynamic: DynamicRegex[] = [];
  const kind = name.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, kind);
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
