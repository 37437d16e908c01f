/**
 * Deep freezing of the value encode() returns: the request a network retry resends must be the
 * request first sent, byte for byte, so nothing in it can be changed after the check.
 */
import { prototypePolluted } from '../json/own.js';

/**
 * Freezes a JSON tree encode() built (plain objects and arrays, no cycles) and every object and
 * array in it, without recursion, so that its depth is bounded by the caller's `maxDepth` only.
 *
 * @param root The tree; encode()'s own copy, never the caller's object.
 * @returns The same tree, frozen.
 * @throws Never for a JSON tree.
 * @example
 * deepFreeze({ packages: [{ budget: 5000 }] }).packages[0]; // frozen too
 */
export function deepFreeze<T>(root: T): T {
  // for...in also yields what someone put on Object.prototype; then own keys are checked one by one.
  const polluted = prototypePolluted();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    Object.freeze(value);
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) stack.push(item);
    } else {
      for (const key in value) {
        if (polluted && !Object.hasOwn(value, key)) continue;
        const item = (value as Record<string, unknown>)[key];
        if (typeof item === 'object' && item !== null) stack.push(item);
      }
    }
  }
  return root;
}
