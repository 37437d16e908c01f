/**
 * checkTree: which bound a value our own JSON parser produced passes (depth, node count, finite
 * numbers), and where; asked only when the shape measured while parsing is out of bounds.
 */
import type { Bounds } from './bounds.js';
import type { WalkOptions } from './findings.js';
import { snapshot } from './snapshot.js';

/**
 * Throws the first bound that a value our own JSON parser produced passes (depth, node count),
 * or its first non-finite number (`JSON.parse` turns `1e400` into `Infinity`, which is not JSON
 * data), with the JSON Pointer of where. decode() asks only when the shape measured while parsing
 * is out of bounds ({@link withinBounds}). The walk is {@link snapshot}'s, so a parsed text and the
 * same value in-process meet the same rules in the same order; its copy is dropped, and `maxBytes`
 * is not asked again (the text was measured before it was parsed).
 *
 * @param root - A value `JSON.parse` returned.
 * @param bounds - The bounds to check.
 * @param options - `what` names the value in messages; the call's `task`, `version` and `standInFor` go on the error.
 * @throws {LimitError} `TOO_DEEP` (depth) or `TOO_MANY_VALUES` (node count)
 * @throws {DecodeError} `MALFORMED_ENVELOPE` for a non-finite number
 * @example
 * checkTree(JSON.parse(text), DEFAULT_BOUNDS, { what: 'content[0].text' });
 */
export function checkTree(root: unknown, bounds: Bounds, options: WalkOptions): void {
  snapshot(root, { maxBytes: Infinity, maxDepth: bounds.maxDepth, maxNodes: bounds.maxNodes }, options);
}
