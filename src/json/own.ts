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

/**
 * Whether a member would let a caller who merges the data into `{}` (spread, `Object.assign`, a
 * naive recursive merge) change a prototype: a `__proto__` key, or a `constructor` key holding an
 * object with an own `prototype` key (what secure-json-parse refuses with both actions set to
 * `'error'`). The one statement of the rule; every walk over untrusted data asks it.
 *
 * @param key The member's key.
 * @param value The member's value (only looked at under `constructor`).
 * @returns `true` for a prototype-polluting member.
 * @throws Whatever a Proxy's `getOwnPropertyDescriptor` trap on `value` throws.
 * @example
 * prototypeMember('constructor', { prototype: {} }); // true
 * prototypeMember('constructor', 'x'); // false
 */
export function prototypeMember(key: string, value: unknown): boolean {
  if (key === '__proto__') return true;
  return key === 'constructor' && typeof value === 'object' && value !== null && hasOwn(value, 'prototype');
}

/**
 * The prototype-polluting key ({@link prototypeMember}) an object or array holds as an own
 * property, enumerable or not, or `undefined`.
 *
 * @param node The object or array.
 * @returns `'__proto__'`, `'constructor'`, or `undefined`.
 * @throws Whatever a getter or a Proxy trap on `node` throws.
 * @example
 * prototypeKey(JSON.parse('{"__proto__":{}}')); // '__proto__'
 */
export function prototypeKey(node: object): '__proto__' | 'constructor' | undefined {
  if (hasOwn(node, '__proto__')) return '__proto__';
  return hasOwn(node, 'constructor') && prototypeMember('constructor', own(node, 'constructor')) ? 'constructor' : undefined;
}

/**
 * Whether someone has put an enumerable member on `Object.prototype` (pollution by other code in
 * the process), which every `for...in` then yields too: the walks that use `for...in` for speed
 * skip inherited keys only when this is true. Checked once per walk, not once per object.
 *
 * @returns `true` when `for (const key in {})` would yield a key.
 * @throws Never.
 * @example
 * const polluted = prototypePolluted(); // false in a clean process
 */
export function prototypePolluted(): boolean {
  for (const _ in Object.prototype) return true;
  return false;
}
