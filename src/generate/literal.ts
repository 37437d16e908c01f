/**
 * JSON data as JavaScript source: what a generated release object's tables are written as, one
 * member a line, keys bare where they are identifiers, a short list or object (a tool's facts, a
 * request row) on one line. What repeats is declared once by the module: the release's `$id`
 * base (a string that starts with it is a template on it) and the lists of strings it holds four
 * times or more (a request's version fields), so that a buyer's bundle holds each once, not in each
 * of a release's few hundred rows. The same value always gives the same text.
 */
import type { Json } from './load.js';

/** A list or object this short, written on one line, stays on one line. */
const INLINE = 200;

/** A string the module declares once, and its name there. */
interface Prefix {
  readonly name: string;
  readonly value: string;
}

/** What a module declares once and a literal refers to: a string prefix, and lists of strings by their JSON text. */
export interface Declared {
  readonly prefix?: Prefix | undefined;
  /** A list's JSON text → the name of the constant that holds it. */
  readonly values?: ReadonlyMap<string, string> | undefined;
}

/** A list of strings held this many times or more is declared once (a request's version fields, a patch list). */
const REPEATED = 4;

/** Whether a value is a list that may be declared once: non-empty, of strings. */
function isShareable(node: Json): boolean {
  return Array.isArray(node) && node.length > 0 && node.every((v) => typeof v === 'string');
}

/**
 * The lists of strings a value repeats, each with a name (`value0`, `value1`, in order of first
 * appearance), and their declarations: what {@link literal} then writes by name.
 *
 * @param value The value.
 * @returns The values by JSON text, and the `const` lines that declare them.
 * @example
 * repeatedValues({ a: ['x'], b: ['x'], c: ['x'], d: ['x'] }).text; // 'const value0 = ["x"];\n'
 */
export function repeatedValues(value: Json): { values: Map<string, string>; text: string } {
  const counts = new Map<string, number>();
  const visit = (node: Json): void => {
    if (isShareable(node)) counts.set(JSON.stringify(node), (counts.get(JSON.stringify(node)) ?? 0) + 1);
    if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === 'object') Object.values(node).forEach(visit);
  };
  visit(value);
  const values = new Map<string, string>();
  for (const [json, n] of counts) if (n >= REPEATED) values.set(json, `value${values.size}`);
  const text = [...values].map(([json, name]) => `const ${name} = ${oneLine(JSON.parse(json) as Json, {})};\n`).join('');
  return { values, text };
}

/** A key as written: bare when it is an identifier, else quoted. */
function key(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

/**
 * A JSON value as a JavaScript expression.
 *
 * @param value The value (objects keep their key order).
 * @param declared What the module declares once: a prefix strings are written on, lists written by name.
 * @param indent The indentation of the line the value starts on.
 * @returns Its source text.
 * @example
 * literal({ a: ['x', 'y'], 'b-c': { d: 1 } }); // '{ a: ["x", "y"], "b-c": { d: 1 } }'
 * literal({ id: '/schemas/3.1.19/core/a.json' }, { prefix: { name: 'base', value: '/schemas/3.1.19/' } }); // '{ id: `${base}core/a.json` }'
 */
export function literal(value: Json | undefined, declared: Declared = {}, indent = ''): string {
  if (value === undefined) return 'undefined';
  const flat = oneLine(value, declared);
  if (flat.length <= INLINE || value === null || typeof value !== 'object') return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((v) => `${inner}${literal(v, declared, inner)},`).join('\n')}\n${indent}]`;
  return `{\n${Object.entries(value)
    .map(([k, v]) => `${inner}${key(k)}: ${literal(v, declared, inner)},`)
    .join('\n')}\n${indent}}`;
}

/** A string, on its prefix when it has it (a template: `${base}core/a.json`). */
function text(value: string, prefix: Prefix | undefined): string {
  if (prefix === undefined || value.length <= prefix.value.length || !value.startsWith(prefix.value)) return JSON.stringify(value);
  const rest = JSON.stringify(value.slice(prefix.value.length))
    .slice(1, -1)
    .replace(/[`$]/g, (c) => `\\${c}`);
  return `\`\${${prefix.name}}${rest}\``;
}

/** A value on one line: `["a", "b"]`, `{ a: 1, b: [] }`; a declared value by its name. */
function oneLine(value: Json, declared: Declared): string {
  if (typeof value === 'string') return text(value, declared.prefix);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const name = declared.values?.get(JSON.stringify(value));
  if (name !== undefined) return name;
  if (Array.isArray(value)) return `[${value.map((v) => oneLine(v, declared)).join(', ')}]`;
  const entries = Object.entries(value);
  return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${key(k)}: ${oneLine(v, declared)}`).join(', ')} }`;
}
