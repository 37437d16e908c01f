/**
 * checkTree: which bound a value our own JSON parser produced passes (depth, node count, finite
 * numbers), and where; asked only when the shape measured while parsing is out of bounds.
 */
import type { Bounds } from './bounds.js';
import type { WalkOptions } from './findings.js';
import { snapshot } from './snapshot.js';

/**
 * Throws the first bound (depth, node count) or non-finite number of a value our own JSON parser produced, with the JSON Pointer of where.
 * When decode() asks, and why the walk is {@link snapshot}'s: docs/robustness.md, "Parsed text: the shape, then checkTree".
 *
 * @param root - A value `JSON.parse` returned.
 * @param bounds - The bounds to check.
 * @param options - `what` names the value in messages; the call's `task`, `version` and `standInFor` go on the error.
 * @throws {LimitError} `TOO_DEEP` (depth) or `TOO_MANY_VALUES` (node count)
 * @throws {DecodeError} `MALFORMED_ENVELOPE` for a non-finite number (`JSON.parse` turns `1e400` into `Infinity`)
 * @example
 * checkTree(JSON.parse(text), DEFAULT_BOUNDS, { what: 'content[0].text' });
 */
export function checkTree(root: unknown, bounds: Bounds, options: WalkOptions): void {
  snapshot(root, { maxBytes: Infinity, maxDepth: bounds.maxDepth, maxNodes: bounds.maxNodes }, options);
}
