/**
 * The schema literals of Ajv's module (`const schema31 = {...}`: whole schemas, which Ajv's code
 * reads at a few paths, such as `schema31.properties.status.enum` for an enum error's
 * `allowedValues`) cut down to the values the code reads: each literal read only through property
 * paths becomes one declaration per distinct value read. The values and so every verdict and error
 * stay the same; the rest of the schema (its `$id`, its other keywords), which nothing reads, is
 * not shipped (0.6 MB of the two releases' code, most of it in the listings a first failure loads).
 */
import { type AjvModule, type Declaration, identifiers } from './declarations.js';

/** One read of a literal: where its name starts and its property path ends in the reader's code, and the value read. */
interface Read {
  readonly at: number;
  readonly end: number;
  readonly value: unknown;
}

const KEY = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/y;

/** The property path read after a literal's name at `from`: each step an own property of the value, as far as it goes. */
function readAt(code: string, from: number, literal: unknown): { end: number; value: unknown; steps: number } {
  let value = literal;
  let end = from;
  let steps = 0;
  for (;;) {
    KEY.lastIndex = end;
    const m = KEY.exec(code);
    if (m === null || value === null || typeof value !== 'object') break;
    const key = m[1] ?? m[2] ?? (JSON.parse(`"${m[3]!}"`) as string);
    if (!Object.hasOwn(value, key)) break;
    value = (value as Record<string, unknown>)[key];
    end = KEY.lastIndex;
    steps++;
  }
  return { end, value, steps };
}

/** The literal's value, when its declaration is `const <name> = <JSON>;`. */
function literalValue(d: Declaration): unknown {
  const prefix = `const ${d.name} = `;
  if (!d.code.startsWith(prefix) || !d.code.endsWith(';')) return undefined;
  try {
    return JSON.parse(d.code.slice(prefix.length, -1)) as unknown;
  } catch {
    return undefined;
  }
}

/** The names a declaration's code uses, in order of first use (as declarations.ts reads them). */
function usesIn(name: string, code: string, known: ReadonlySet<string>): string[] {
  const uses = new Set<string>();
  for (const n of identifiers(code, name).names) if (n.name !== name && known.has(n.name)) uses.add(n.name);
  return [...uses];
}

/**
 * Ajv's module with each schema literal that is read only through property paths replaced by the
 * values read, one `const schemaN = <JSON>;` per distinct value; a literal read whole stays.
 *
 * @param module Ajv's module as declarations (declarations.ts).
 * @returns The module, its readers' code reading the new declarations.
 * @example
 * splitSchemaLiterals(declarations(rewrite(code, 'listing'))).declarations.get('schema40')?.code; // 'const schema40 = ["a","b"];'
 */
export function splitSchemaLiterals(module: AjvModule): AjvModule {
  const literals = new Map<string, unknown>();
  for (const d of module.declarations.values()) {
    const value = /^schema\d+$/.test(d.name) ? literalValue(d) : undefined;
    if (value !== undefined) literals.set(d.name, value);
  }
  // Every read of each literal; a read with no property path keeps that literal whole.
  const reads = new Map<string, Map<string, Read[]>>();
  const whole = new Set<string>();
  for (const d of module.declarations.values()) {
    for (const { at, name } of identifiers(d.code, d.name).names) {
      const literal = literals.get(name);
      if (literal === undefined || name === d.name) continue;
      const { end, value, steps } = readAt(d.code, at + name.length, literal);
      if (steps === 0) whole.add(name);
      const byReader = reads.get(name) ?? new Map<string, Read[]>();
      byReader.set(d.name, [...(byReader.get(d.name) ?? []), { at, end, value }]);
      reads.set(name, byReader);
    }
  }
  let next = Math.max(0, ...[...module.declarations.keys()].map((n) => Number(/\d+$/.exec(n)?.[0] ?? 0))) + 1;
  const out = new Map<string, Declaration>();
  const added = new Map<string, Declaration[]>();
  const edits = new Map<string, Read[]>();
  const names = new Map<string, string>();
  for (const [literal, byReader] of reads) {
    if (whole.has(literal)) continue;
    const values = new Map<string, string>();
    for (const [reader, list] of byReader) {
      for (const r of list) {
        const json = JSON.stringify(r.value);
        if (!values.has(json)) values.set(json, `schema${next++}`);
        names.set(`${reader}\0${r.at}`, values.get(json)!);
      }
      edits.set(reader, [...(edits.get(reader) ?? []), ...list]);
    }
    added.set(
      literal,
      [...values].map(([json, name]) => ({ name, code: `const ${name} = ${json};`, uses: [], runtime: [] })),
    );
  }
  const known = new Set([...module.declarations.keys()].filter((n) => !added.has(n)));
  for (const list of added.values()) for (const d of list) known.add(d.name);
  for (const d of module.declarations.values()) {
    const replacements = added.get(d.name);
    if (replacements !== undefined) {
      for (const r of replacements) out.set(r.name, r);
      continue;
    }
    const list = edits.get(d.name);
    if (list === undefined) {
      out.set(d.name, d);
      continue;
    }
    let code = d.code;
    for (const r of [...list].sort((a, b) => b.at - a.at))
      code = code.slice(0, r.at) + names.get(`${d.name}\0${r.at}`)! + code.slice(r.end);
    out.set(d.name, { ...d, code, uses: usesIn(d.name, code, known) });
  }
  return { exports: module.exports, declarations: out };
}
