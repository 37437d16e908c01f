/**
 * JSON data as JavaScript source: what a generated release object's tables are written as, one
 * member a line, keys bare where they are identifiers, short lists of strings on one line. The
 * same value always gives the same text.
 */
import type { Json } from './load.js';

/** A list of scalars this short stays on one line. */
const INLINE = 100;

/** A key as written: bare when it is an identifier, else quoted. */
function key(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

/**
 * A JSON value as a JavaScript expression.
 *
 * @param value The value (objects keep their key order).
 * @param indent The indentation of the line the value starts on.
 * @returns Its source text.
 * @example
 * literal({ a: ['x', 'y'], 'b-c': { d: 1 } }); // '{\n  a: ["x", "y"],\n  "b-c": {\n    d: 1,\n  },\n}'
 */
export function literal(value: Json | undefined, indent = ''): string {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((v) => v === null || typeof v !== 'object')) {
      const flat = `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
      if (flat.length <= INLINE) return flat;
    }
    return `[\n${value.map((v) => `${inner}${literal(v, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${key(k)}: ${literal(v, inner)},`).join('\n')}\n${indent}}`;
}
