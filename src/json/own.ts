/**
 * Reads of untrusted objects that see only their own properties, never an inherited or
 * prototype-polluted one.
 */

/**
 * Whether `obj` has `key` as an own property (inherited keys such as `toString` do not count).
 *
 * @param obj The object to look in.
 * @param key The property name.
 * @returns `true` when `key` is an own property of `obj`.
 * @throws Whatever a Proxy's `getOwnPropertyDescriptor` trap throws.
 * @example
 * hasOwn({ a: 1 }, 'a'); // true
 * hasOwn({}, 'toString'); // false
 */
export function hasOwn(obj: object, key: string): boolean {
  return Object.hasOwn(obj, key);
}

/**
 * The value of an own property of `obj`, or `undefined` when `key` is absent or only inherited.
 *
 * @param obj The object to read.
 * @param key The property name.
 * @returns The own property's value, or `undefined`.
 * @throws Whatever a getter or a Proxy trap on `obj` throws.
 * @example
 * own({ a: 1 }, 'a'); // 1
 * own({}, 'constructor'); // undefined
 */
export function own(obj: object, key: string): unknown {
  return hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}

/**
 * Whether a value is a non-null, non-array object (what a JSON object parses to).
 *
 * @param value Any value.
 * @returns `true` for objects other than `null` and arrays.
 * @throws Nothing (`Array.isArray` on a revoked Proxy throws a `TypeError`, which propagates).
 * @example
 * isObject({}); // true
 * isObject([]); // false
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
