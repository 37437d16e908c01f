/**
 * The limits a decode runs under, checked before validation so that no recursive code (Ajv's
 * validators recurse) meets an unbounded value: the defaults, the `TOO_LARGE` of a text measured
 * before parsing, whether a parsed value's measured shape is within them, and loops over an
 * in-process array that cost what it stores. The walks that say which bound a value passes, and
 * where, are checkTree (check-tree.ts) and snapshot (snapshot.ts).
 */
import { type DecodeErrorOptions, LimitError } from '../errors/errors.js';

/** The limits a decode runs under. */
export interface Bounds {
  /** Largest text accepted, in UTF-8 bytes. */
  readonly maxBytes: number;
  /** Deepest nesting of objects and arrays accepted (the root object is depth 1). */
  readonly maxDepth: number;
  /** Most values (objects, arrays, and primitives, the root included) accepted. */
  readonly maxNodes: number;
}

/** The defaults: the spec's 4 MiB, a depth no AdCP payload comes near, and a node count a 4 MiB payload cannot honestly reach. */
export const DEFAULT_BOUNDS: Bounds = { maxBytes: 4 * 1024 * 1024, maxDepth: 64, maxNodes: 1_000_000 };

/**
 * The `TOO_LARGE` error for a text already measured (e.g. by the MCP extractor), so that the
 * caller's text is not read again to say how large it was.
 *
 * @param bytes - Its UTF-8 size, or a lower bound when `exact` is false.
 * @param exact - Whether `bytes` is exact.
 * @param maxBytes - The limit it exceeds.
 * @param what - What the text is, for the message: `content[0].text`.
 * @param options - Task, version and path for the error.
 * @returns The error, to throw.
 * @throws Never.
 * @example
 * throw textTooLarge(5_000_000, false, 4 * 1024 * 1024, 'content[0].text', { path: '/content/0/text' });
 */
export function textTooLarge(bytes: number, exact: boolean, maxBytes: number, what: string, options: DecodeErrorOptions): LimitError {
  return tooLarge(bytes, maxBytes, what, options, exact ? '' : 'at least ');
}

function tooLarge(actual: number, limit: number, what: string, options: DecodeErrorOptions, qualifier: string): LimitError {
  return new LimitError(
    'TOO_LARGE',
    `${what} is ${qualifier}${actual} UTF-8 bytes; expected at most ${limit} (maxBytes)`,
    { unit: 'bytes', limit, actual },
    options,
  );
}
/**
 * Whether the shape our JSON parser measured of a value is within the bounds, so that checkTree would find nothing in it.
 * Why the shape is enough: docs/robustness.md, "Parsed text: the shape, then checkTree".
 *
 * @param shape - Its shape, measured by the parser's own prototype-key scan (`ParsedShape` in src/json/text.ts).
 * @param bounds - The bounds to check; not `maxBytes`, which the text was measured against before it was parsed.
 * @returns True when within; false when checkTree must run to say which bound, and where.
 * @throws Never.
 * @example
 * if (!withinBounds(parsed.shape, DEFAULT_BOUNDS)) checkTree(parsed.value, DEFAULT_BOUNDS, { what: 'content[0].text' });
 */
export function withinBounds(
  shape: { readonly levels: number; readonly nodes: number; readonly finite: boolean },
  bounds: Bounds,
): boolean {
  return shape.finite && shape.levels <= bounds.maxDepth && shape.nodes <= bounds.maxNodes;
}

/**
 * The indexes of the elements an array actually stores, in order: every index of a dense array,
 * only the stored ones of a sparse one. A loop over an in-process list (`content[]`, `parts[]`)
 * then costs what the list holds, not the `length` it claims (`list.length = 2 ** 32 - 1` costs
 * its sender nothing). A hole reads as `undefined` either way, which every such loop skips.
 *
 * @param list - An array (or a Proxy of one); its named members are not indexes.
 * @returns The indexes, ascending.
 * @throws Whatever listing the array's keys throws (a Proxy trap); callers wrap it.
 * @example
 * const list = [1]; list.length = 2 ** 32 - 1;
 * storedIndexes(list); // [0]
 */
export function storedIndexes(list: readonly unknown[]): number[] {
  const length = list.length;
  const keys = Object.keys(list);
  const out: number[] = [];
  if (keys.length >= length) {
    for (let i = 0; i < length; i++) out.push(i);
    return out;
  }
  for (const key of keys) {
    const i = Number(key);
    if (i < length && String(i) === key) out.push(i);
  }
  return out.sort((a, b) => a - b);
}
