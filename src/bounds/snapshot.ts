/**
 * snapshot: the one walk over an already-parsed value from the caller (MCP `structuredContent`,
 * A2A `data`, a bare payload), which reads it once into the plain copy decode() validates and
 * returns, checking the bounds, JSON data and prototype keys on the way.
 */
import type { Bounds } from './bounds.js';
import { DecodeError, describeThrown } from '../errors/errors.js';
import { shownPointer as shown } from '../errors/format.js';
import { utf8Length } from '../json/utf8.js';
import { findingError, placePointer, rootPlace, type Finding, type Place, type WalkOptions } from './findings.js';

const hasOwn = Object.prototype.hasOwnProperty;
const objectProto = Object.prototype;

/**
 * Below this depth a cycle is left to the depth bound; from it on, the walk keeps the objects on
 * the current path, so a circular value ends the walk even with `maxDepth` and `maxNodes` set to
 * `Infinity`. A cycle of length L is seen at most 2L levels past it.
 */
const CYCLE_CHECK_DEPTH = 256;

/**
 * Above this `maxNodes` the node bound no longer bounds the work on an in-process value whose
 * objects are shared (`x = [y, y]`, `y = [z, z]`, ...: 2^60 values from 60 arrays), so the walk
 * then refuses an object met twice. JSON text never parses to shared objects.
 */
const SHARED_CHECK_NODES = 100_000_000;

const arrayProto = Array.prototype;

/** Why an object or array is not JSON data, or undefined when it is. */
function badContainer(value: object): string | undefined {
  if (Array.isArray(value)) return undefined;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === objectProto || proto === null) return undefined;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return `an object of class ${typeof name === 'string' ? name.slice(0, 40) : 'unknown'}`;
}

/** A string JSON.stringify writes as is: printable ASCII but `"` and `\`. */
const PLAIN_JSON_STRING = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * The UTF-8 size of `JSON.stringify(value)` for a snapshot (plain JSON data, no cycles): the
 * exact count, used only when the bounds the snapshot walk keeps cannot decide.
 */
function jsonUtf8Size(root: unknown): number {
  let bytes = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') bytes += stringSize(value);
    else if (typeof value === 'number') bytes += String(value).length;
    else if (typeof value === 'boolean') bytes += value ? 4 : 5;
    else if (value === null) bytes += 4;
    else if (Array.isArray(value)) {
      bytes += value.length === 0 ? 2 : value.length + 1;
      for (const child of value) stack.push(child);
    } else {
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj);
      bytes += keys.length === 0 ? 2 : keys.length + 1;
      for (const key of keys) {
        bytes += stringSize(key) + 1;
        stack.push(obj[key]);
      }
    }
  }
  return bytes;
}

/** UTF-8 size of a string as JSON.stringify writes it (quotes, escapes, `\uXXXX` for a lone surrogate). */
function stringSize(text: string): number {
  return PLAIN_JSON_STRING.test(text) ? text.length + 2 : utf8Length(JSON.stringify(text));
}

/** Why a container is not plain JSON data, by its prototype, or undefined when it is. */
function foreign(value: object, isArray: boolean): string | undefined {
  const proto: unknown = Object.getPrototypeOf(value);
  if (isArray) return proto === arrayProto ? undefined : 'an array with a foreign prototype (an Array subclass?)';
  if (proto === objectProto || proto === null) return undefined;
  return badContainer(value);
}

/**
 * A plain copy of an already-parsed (in-process) value, built in one walk that reads each value
 * once: the copy is what decode() validates and returns, so a getter or Proxy that answers
 * differently on a second read has no second read to answer. The same walk checks:
 *
 * - Cost follows content, never a claimed size: an array's `length` (and an object's key count)
 *   is charged against `maxNodes` and `maxBytes` before anything proportional to it is allocated
 *   or iterated, and a sparse array (holes) is refused as not JSON data.
 * - Only JSON data passes: plain objects (prototype `Object.prototype` or null) and arrays
 *   (prototype `Array.prototype`: no subclass, no foreign prototype) whose own members are all
 *   enumerable string keys (no symbol keys, no non-enumerable members, no named members on an
 *   array), finite numbers, strings, booleans, null. Getters are not told from data properties
 *   (that costs a descriptor per member): each is called once and its answer is the data.
 * - `maxBytes` counts the UTF-8 bytes of the value's compact JSON (`JSON.stringify(value)`),
 *   the same unit as for text: a walk keeps a lower and an upper bound, and only when the limit
 *   falls between them is the copy measured exactly.
 *
 * Nothing in the copy is shared with the input but strings. Object keys keep their order.
 *
 * @param root - The value, e.g. MCP `structuredContent` or A2A DataPart `data`.
 * @param bounds - The bounds to check.
 * @param options - `what` names the value in messages; `task` and `version` go on the error.
 * @returns The plain copy.
 * @throws {LimitError} `TOO_DEEP` (depth or node count), `TOO_LARGE` (compact JSON over `maxBytes`)
 * @throws {DecodeError} `UNSAFE_JSON` for `__proto__` or `constructor.prototype` keys;
 *   `MALFORMED_ENVELOPE` for what is not JSON data, circular references, or values that cannot
 *   be read (a getter or trap that throws)
 * @example
 * const data = snapshot(result.structuredContent, DEFAULT_BOUNDS, { what: 'structuredContent' });
 */
export function snapshot(root: unknown, bounds: Bounds, options: WalkOptions): unknown {
  const place = rootPlace();
  let result: { copy: unknown } | Finding;
  try {
    result = copyWalk(root, bounds, place);
  } catch (cause) {
    const at = placePointer(place);
    throw new DecodeError(
      'MALFORMED_ENVELOPE',
      `${options.what} could not be read at ${shown(at)}: ${describeThrown(cause)} thrown while reading it; expected plain JSON data`,
      { task: options.task, version: options.version, path: at, cause },
    );
  }
  if ('copy' in result) return result.copy;
  let finding = result;
  if (finding.kind === 'depth' && new Set(place.objects.slice(0, place.depth + 1)).size < place.depth + 1) finding = { kind: 'cycle' };
  throw findingError(finding, bounds, options, placePointer(place));
}

type Container = Record<string, unknown> | unknown[];

function copyWalk(root: unknown, bounds: Bounds, place: Place): { copy: unknown } | Finding {
  const { maxBytes, maxDepth, maxNodes } = bounds;
  const { keys: pathKeys, objects: pathObjects } = place;
  // Bytes of the compact JSON: `low` counts every UTF-16 unit of a string as one byte and every
  // number as one digit; `units` and `numbers` give the upper bound (a unit is at most 6 bytes,
  // `\u0000`; a number at most 24 characters).
  let low = 0;
  let units = 0;
  let numbers = 0;
  let nodes = 1;
  let depth = 0;
  let reading: string | number | undefined;
  const at = (finding: Finding, key?: string | number): Finding => {
    place.depth = depth;
    place.key = key;
    return finding;
  };
  // for...in on a copy would also yield members someone else put on Object.prototype.
  let polluted = false;
  for (const _ in objectProto) {
    polluted = true;
    break;
  }
  const holder: Record<string, unknown> = { copy: root };
  // Pending containers: the source, the copy that holds it (to be replaced by its own copy), its key there, its depth.
  const sources: object[] = [];
  const parents: Container[] = [];
  const keys: Array<string | number> = [];
  const depths: number[] = [];
  const visited = maxNodes > SHARED_CHECK_NODES ? new Set<object>() : undefined;
  const deepPath: object[] = [];
  let deep: Set<object> | undefined;

  /** Checks a member's value, now in `target[key]`; a container is queued to be copied in its place. */
  const check = (child: unknown, target: Container, key: string | number, next: number): Finding | undefined => {
    switch (typeof child) {
      case 'string':
        low += child.length + 2;
        units += child.length;
        return low > maxBytes ? at({ kind: 'bytes', chars: low, json: 'at least' }, key) : undefined;
      case 'number':
        if (child - child !== 0) return at({ kind: 'not-json', found: String(child) }, key); // NaN, ±Infinity
        low += 1;
        numbers++;
        return undefined;
      case 'boolean':
        low += child ? 4 : 5;
        return undefined;
      case 'object':
        if (child === null) low += 4;
        else {
          sources.push(child);
          parents.push(target);
          keys.push(key);
          depths.push(next);
        }
        return undefined;
      default:
        return at({ kind: 'not-json', found: `a value of type ${typeof child}` }, key);
    }
  };

  try {
    const bad = check(root, holder, 'copy', 0);
    if (bad !== undefined) {
      place.key = undefined;
      return bad;
    }
    while (sources.length > 0) {
      const value = sources.pop() as object;
      const parent = parents.pop() as Container;
      const key = keys.pop() as string | number;
      depth = depths.pop() as number;
      pathKeys[depth] = depth === 0 ? '' : key;
      pathObjects[depth] = value;
      reading = undefined;
      const isArray = Array.isArray(value);
      const foreignProto = foreign(value, isArray);
      if (foreignProto !== undefined) return at({ kind: 'not-json', found: foreignProto });
      if (visited !== undefined) {
        if (visited.has(value)) {
          return at(
            pathObjects.slice(0, depth).includes(value)
              ? { kind: 'cycle' }
              : { kind: 'not-json', found: 'an object met twice (a shared reference)' },
          );
        }
        visited.add(value);
      }
      if (depth + 1 > maxDepth) return at({ kind: 'depth', depth: depth + 1 });
      if (depth >= CYCLE_CHECK_DEPTH) {
        deep ??= new Set();
        while (deepPath.length > depth - CYCLE_CHECK_DEPTH) deep.delete(deepPath.pop() as object);
        if (deep.has(value)) return at({ kind: 'cycle' });
        deepPath.push(value);
        deep.add(value);
      }
      if (hasOwn.call(value, '__proto__')) return at({ kind: 'unsafe', key: '__proto__' }, '__proto__');
      const next = depth + 1;
      const mark = sources.length;
      let copy: Container;
      if (isArray) {
        const source = value as unknown[];
        const length = source.length;
        // Charge the claimed length before anything proportional to it is allocated or iterated:
        // bytes first (each element is at least a digit and a comma), as text is measured before parsing.
        if (low + 2 * length > maxBytes) return at({ kind: 'bytes', chars: low + 2 * length, json: 'at least' });
        if (nodes + length > maxNodes) return at({ kind: 'nodes', nodes: nodes + length });
        nodes += length;
        low += length === 0 ? 2 : length + 1;
        // Own keys are the indexes in order, then `length`, then named members, then symbols: so
        // exactly `length + 1` keys ending the indexes at `length - 1` means no hole, no extra member.
        const own = Reflect.ownKeys(source);
        if (own.length !== length + 1 || (length > 0 && own[length - 1] !== String(length - 1))) {
          const culprit = arrayCulprit(source, own, length);
          if (culprit === 'constructor') {
            const ctor: unknown = (source as unknown as { constructor: unknown }).constructor;
            if (typeof ctor === 'object' && ctor !== null && hasOwn.call(ctor, 'prototype'))
              return at({ kind: 'unsafe', key: 'constructor.prototype' }, culprit);
          }
          return at(arrayFinding(culprit), culprit);
        }
        const list: unknown[] = [];
        copy = list;
        for (let i = 0; i < length; i++) {
          reading = i;
          const child = source[i];
          list.push(child);
          const found = check(child, list, i, next);
          if (found !== undefined) return found;
        }
      } else {
        const source = value as Record<string, unknown>;
        // One read of each member, by the engine's own object copy (the fast path for plain objects).
        let object: Record<string, unknown>;
        try {
          object = { ...source };
        } catch (cause) {
          reading = throwingMember(source);
          throw cause;
        }
        copy = object;
        let count = 0;
        for (const member in object) {
          if (polluted && !hasOwn.call(object, member)) continue;
          count++;
          low += member.length + 3;
          units += member.length;
          const child = object[member];
          if (member === 'constructor' && typeof child === 'object' && child !== null && hasOwn.call(child, 'prototype'))
            return at({ kind: 'unsafe', key: 'constructor.prototype' }, member);
          const found = check(child, object, member, next);
          if (found !== undefined) return found;
        }
        low += count === 0 ? 2 : count + 1;
        if (low > maxBytes) return at({ kind: 'bytes', chars: low, json: 'at least' });
        if (nodes + count > maxNodes) return at({ kind: 'nodes', nodes: nodes + count });
        nodes += count;
        // What the copy left out: members JSON cannot see (non-enumerable or symbol-keyed).
        if (Object.getOwnPropertyNames(source).length !== count || Object.getOwnPropertySymbols(source).length !== 0) {
          const hidden = Reflect.ownKeys(source).find(
            (k) => typeof k === 'symbol' || !Object.prototype.propertyIsEnumerable.call(source, k),
          );
          return at(
            { kind: 'not-json', found: typeof hidden === 'symbol' ? 'a symbol-keyed member' : 'a non-enumerable member' },
            typeof hidden === 'string' ? hidden : undefined,
          );
        }
      }
      (parent as Record<string | number, unknown>)[key] = copy;
      if (low > maxBytes) return at({ kind: 'bytes', chars: low, json: 'at least' });
      // Visit the containers just found in document order, so the first finding is the first in the text.
      if (sources.length - mark > 1) {
        reverseFrom(sources, mark);
        reverseFrom(parents, mark);
        reverseFrom(keys, mark);
        reverseFrom(depths, mark);
      }
    }
  } catch (cause) {
    place.depth = depth;
    place.key = reading;
    throw cause;
  }
  // The bounds decide unless the limit falls between them; then the copy (ours) is measured.
  if (low + 5 * units + 23 * numbers > maxBytes) {
    const exact = jsonUtf8Size(holder.copy);
    if (exact > maxBytes) {
      place.depth = 0;
      place.key = undefined;
      return { kind: 'bytes', chars: exact, json: 'exact' };
    }
  }
  return { copy: holder.copy };
}

/**
 * Which member of an object that could not be copied threw when read, for the error's path: on
 * that error path only, members are read one by one (a second read, of a value already refused).
 */
function throwingMember(source: Record<string, unknown>): string | undefined {
  let names: string[];
  try {
    names = Object.keys(source);
  } catch {
    return undefined;
  }
  for (const name of names) {
    try {
      void source[name];
    } catch {
      return name;
    }
  }
  return undefined;
}

function reverseFrom(list: unknown[], from: number): void {
  for (let i = from, j = list.length - 1; i < j; i++, j--) {
    const t = list[i];
    list[i] = list[j];
    list[j] = t;
  }
}

/** What is wrong with an array whose own keys are not exactly its indexes and `length`, given its {@link arrayCulprit}. */
function arrayFinding(culprit: string | number | undefined): Finding {
  if (typeof culprit === 'number') return { kind: 'not-json', found: 'a sparse array (a hole)' };
  if (culprit === undefined) return { kind: 'not-json', found: 'an array with a symbol-keyed member' };
  return { kind: 'not-json', found: 'an array with a named member' };
}

/** The first hole's index, else the first named member, else undefined (a symbol key). Bounded by the keys present. */
function arrayCulprit(source: unknown[], own: ReadonlyArray<string | symbol>, length: number): string | number | undefined {
  let i = 0;
  while (i < length && i < own.length && own[i] === String(i)) i++;
  if (i < length && !hasOwn.call(source, i)) return i;
  return own.find((key): key is string => typeof key === 'string' && key !== 'length' && !/^(0|[1-9]\d*)$/.test(key));
}
