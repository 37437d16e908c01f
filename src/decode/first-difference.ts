/**
 * The first place two JSON values differ, for telling a buyer where a seller altered what it was
 * to echo unchanged. Values are compared as JSON data: object members in any order, array items
 * in order, numbers by value. The walk is iterative (the seller chooses the depth) and stops at
 * a difference; the answer side is already bounded by decode().
 */
import { describeValue } from '../errors/errors.js';
import { hasOwn, isObject } from '../json/own.js';

/** Where two values first differ, and what each side holds there (described, never shown). */
export interface Difference {
  /** JSON Pointer relative to the compared values (`''` is the values themselves). */
  readonly path: string;
  /** The expected side, described: `string (12 chars)`, `object`, `absent`. */
  readonly expected: string;
  /** The received side, described the same way. */
  readonly received: string;
}

function escapeSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function kindOf(value: unknown): 'array' | 'object' | 'leaf' {
  return Array.isArray(value) ? 'array' : isObject(value) ? 'object' : 'leaf';
}

/** The difference between two leaves or containers of different kinds, or undefined when equal so far. */
function shallow(expected: unknown, received: unknown, path: string): Difference | undefined {
  const kind = kindOf(expected);
  if (kind !== kindOf(received)) return { path, expected: describeValue(expected), received: describeValue(received) };
  if (kind === 'leaf' && expected !== received) {
    const [e, r] = [describeValue(expected), describeValue(received)];
    return { path, expected: e, received: e === r ? `${r}, not the same` : r };
  }
  if (Array.isArray(expected) && Array.isArray(received) && expected.length !== received.length)
    return { path, expected: describeValue(expected), received: describeValue(received) };
  return undefined;
}

/**
 * Compares two JSON values.
 *
 * @param expected - What was sent (plain JSON data).
 * @param received - What came back (plain JSON data).
 * @returns A difference, or `undefined` when the two are equal as JSON. Level by level: a
 *   member missing or added at one level is reported before a difference deeper down.
 * @throws Never, for plain data.
 * @example
 * firstDifference({ trace: 't-1' }, { trace: 't-2' }); // { path: '/trace', expected: 'string (3 chars)', received: 'string (3 chars), not the same' }
 */
export function firstDifference(expected: unknown, received: unknown): Difference | undefined {
  const stack: Array<readonly [unknown, unknown, string]> = [[expected, received, '']];
  while (stack.length > 0) {
    const [e, r, path] = stack.pop() as readonly [unknown, unknown, string];
    const found = shallow(e, r, path);
    if (found !== undefined) return found;
    const pairs: Array<readonly [unknown, unknown, string]> = [];
    if (Array.isArray(e) && Array.isArray(r)) {
      for (let i = 0; i < e.length; i++) pairs.push([e[i], r[i], `${path}/${i}`]);
    } else if (isObject(e) && isObject(r)) {
      for (const key of Object.keys(e)) {
        const at = `${path}/${escapeSegment(key)}`;
        if (!hasOwn(r, key)) return { path: at, expected: describeValue(e[key]), received: 'absent' };
        pairs.push([e[key], r[key], at]);
      }
      for (const key of Object.keys(r)) {
        if (!hasOwn(e, key)) return { path: `${path}/${escapeSegment(key)}`, expected: 'absent', received: describeValue(r[key]) };
      }
    }
    // Reversed, so the stack visits members in document order.
    for (let i = pairs.length - 1; i >= 0; i--) stack.push(pairs[i] as readonly [unknown, unknown, string]);
  }
  return undefined;
}
