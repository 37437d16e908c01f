/**
 * checkTree: the bounds of a value our own JSON parser produced (depth, node count, finite numbers),
 * walked only when the shape measured while parsing is out of bounds, to say which bound and where.
 */
import type { Bounds } from './bounds.js';
import { findingError, placePointer, rootPlace, type Finding, type Place, type WalkOptions } from './findings.js';

/**
 * Throws the first bound that a value our own JSON parser produced passes (depth, node count),
 * or its first non-finite number (`JSON.parse` turns `1e400` into `Infinity`, which is not JSON
 * data), with the JSON Pointer of where. Such a value is a tree of plain objects and arrays, its
 * text already measured against `maxBytes`; decode() walks it only when the shape measured while
 * parsing is out of bounds ({@link withinBounds}), to say where. Iterative: any depth.
 * Already-parsed input from the caller goes through {@link snapshot} instead.
 *
 * @param root - A value `JSON.parse` returned.
 * @param bounds - The bounds to check.
 * @param options - `what` names the value in messages; `task` and `version` go on the error.
 * @throws {LimitError} `TOO_DEEP` (depth or node count)
 * @throws {DecodeError} `MALFORMED_ENVELOPE` for a non-finite number
 * @example
 * checkTree(JSON.parse(text), DEFAULT_BOUNDS, { what: 'content[0].text' });
 */
export function checkTree(root: unknown, bounds: Bounds, options: WalkOptions): void {
  const place = rootPlace();
  const finding = walk(root, bounds, place);
  if (finding !== undefined) throw findingError(finding, bounds, options, placePointer(place));
}

/** One iterative pass over a parsed value, three parallel stacks (value, depth, key); `place` is filled in at a finding. */
function walk(root: unknown, bounds: Bounds, place: Place): Finding | undefined {
  const { maxDepth, maxNodes } = bounds;
  const pathKeys = place.keys;
  const values: unknown[] = [root];
  const depths: number[] = [0];
  const keys: Array<string | number> = [''];
  let nodes = 0;
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop() as number;
    pathKeys[depth] = keys.pop() as string | number;
    place.depth = depth;
    if (++nodes > maxNodes) return { kind: 'nodes', nodes };
    if (typeof value !== 'object' || value === null) {
      if (typeof value === 'number' && value - value !== 0) return { kind: 'not-json', found: String(value) }; // NaN, ±Infinity
      continue;
    }
    if (depth + 1 > maxDepth) return { kind: 'depth', depth: depth + 1 };
    const next = depth + 1;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        values.push(value[i]);
        depths.push(next);
        keys.push(i);
      }
      continue;
    }
    const obj = value as Record<string, unknown>;
    const names = Object.keys(obj);
    for (let i = names.length - 1; i >= 0; i--) {
      const key = names[i] as string;
      values.push(obj[key]);
      depths.push(next);
      keys.push(key);
    }
  }
  return undefined;
}
