// @ts-check
/**
 * Deep equality of JSON values, for the validators' `const`, `enum` and `uniqueItems`: what they
 * compare is always plain JSON data (decode parses text, or copies an in-process value into plain
 * objects and arrays, before validating), so no other kind of object needs an answer.
 */

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Whether two JSON values are equal: the same primitive (`0` equals `-0`), or arrays with equal
 * items in the same order, or objects with the same keys in any order and equal values.
 * Recursive: decode has checked the depth (`maxDepth`) before any validator runs.
 *
 * @param {unknown} a A JSON value (null, boolean, finite number, string, array, plain object).
 * @param {unknown} b Another JSON value.
 * @returns {boolean} `true` when they are equal as JSON.
 * @throws Never, for JSON values.
 * @example
 * jsonEqual({ a: [1, { b: null }], c: 'x' }, { c: 'x', a: [1, { b: null }] }); // true
 * jsonEqual([1, 2], [2, 1]); // false
 */
export function jsonEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = /** @type {Record<string, unknown>} */ (a);
  const right = /** @type {Record<string, unknown>} */ (b);
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  // Own keys only: an own `__proto__` member on one side must not meet the other's inherited one.
  for (const key of keys) if (!hasOwn.call(right, key) || !jsonEqual(left[key], right[key])) return false;
  return true;
}
