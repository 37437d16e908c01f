/**
 * Bounds checked before validation: text size in UTF-8 bytes before parsing, and depth, node
 * count and string volume of a parsed value before any recursive code (Ajv's validators
 * recurse) touches it. Values that arrive already parsed (MCP `structuredContent`, A2A `data`)
 * are also checked for what JSON cannot produce and for prototype-polluting keys.
 */
import { DecodeError, LimitError, type DecodeErrorOptions } from './errors.js';
import { shownPointer as shown } from './format.js';

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
 * The exact UTF-8 length of `text` if it might exceed `max`, else a cheap bound: a UTF-16 code
 * unit takes 1 to 3 UTF-8 bytes (a surrogate pair 4 bytes for 2 units), so `length <= max / 3`
 * settles most texts without counting.
 */
export function utf8ByteLength(text: string, max: number): number {
  if (text.length * 3 <= max) return text.length; // a lower bound; enough to say "fits"
  return utf8Length(text);
}

/** Node's native UTF-8 count where there is one (10x the loop below); feature-detected, so no bundler sees it. */
const nativeByteLength = (globalThis as { Buffer?: { byteLength(text: string, encoding: 'utf8'): number } }).Buffer?.byteLength;

/**
 * The UTF-8 length of `text` in bytes, counted without encoding it (web-standard; Node's native
 * count where present); a lone surrogate counts 3, as TextEncoder writes it as U+FFFD.
 * @param text Any string.
 * @example utf8Length('é') // 2
 */
export function utf8Length(text: string): number {
  if (nativeByteLength !== undefined) return nativeByteLength(text, 'utf8');
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // 4 bytes for the pair's 2 units
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * Throws `TOO_LARGE` when `text` is longer than `maxBytes` UTF-8 bytes. Nothing is truncated.
 *
 * @throws {LimitError} `TOO_LARGE`
 */
export function checkTextSize(text: string, maxBytes: number, what: string, options: DecodeErrorOptions): void {
  if (text.length <= maxBytes / 3) return;
  if (text.length > maxBytes) {
    // Each UTF-16 unit is at least one UTF-8 byte: too large without counting.
    throw tooLarge(text.length, maxBytes, what, options, 'at least ');
  }
  const bytes = utf8Length(text);
  if (bytes > maxBytes) throw tooLarge(bytes, maxBytes, what, options, '');
}

function tooLarge(actual: number, limit: number, what: string, options: DecodeErrorOptions, qualifier: string): LimitError {
  return new LimitError(
    'TOO_LARGE',
    `${what} is ${qualifier}${actual} UTF-8 bytes; expected at most ${limit} (maxBytes)`,
    { unit: 'bytes', limit, actual },
    options,
  );
}

/** How much a walk trusts its input. */
export interface WalkOptions extends DecodeErrorOptions {
  /**
   * `true` for values that did not come out of our own JSON parser: check that every value is
   * JSON data (plain objects and arrays, finite numbers, strings, booleans, null), refuse
   * `__proto__` and `constructor.prototype` keys, and count string volume against `maxBytes`.
   */
  readonly untrusted: boolean;
  /** What the value is, for messages: `structuredContent`, `A2A DataPart data`. */
  readonly what: string;
}

type Finding =
  | { kind: 'depth'; depth: number }
  | { kind: 'nodes'; nodes: number }
  | { kind: 'bytes'; chars: number }
  | { kind: 'unsafe'; key: string }
  | { kind: 'not-json'; found: string }
  | { kind: 'cycle' };

/**
 * Walks `root` iteratively (no recursion, so no stack overflow at any depth) and throws at the
 * first bound passed or bad value found, with the JSON Pointer of where.
 *
 * Every value is checked to be a finite number where it is a number: `JSON.parse` turns `1e400`
 * into `Infinity`, which is not JSON data and would come back as `null` from `JSON.stringify`.
 *
 * @throws {LimitError} `TOO_DEEP` (depth or node count), `TOO_LARGE` (string volume, untrusted only)
 * @throws {DecodeError} `UNSAFE_JSON` (untrusted only); `MALFORMED_ENVELOPE` for a non-finite
 *   number, and (untrusted only) for values that are not JSON data, circular references, or
 *   values that cannot be read
 */
export function checkTree(root: unknown, bounds: Bounds, options: WalkOptions): void {
  if (quickPass(root, bounds, options.untrusted)) return;
  const place: Place = { keys: [], objects: [], depth: 0, key: undefined };
  let finding: Finding | undefined;
  try {
    finding = walk(root, bounds, options.untrusted, place);
  } catch (cause) {
    // A getter or proxy trap threw while we read the value.
    const at = pointer(segments(place));
    throw new DecodeError(
      'MALFORMED_ENVELOPE',
      `${options.what} could not be read at ${shown(at)}: ${describeThrown(cause)} thrown while reading it; expected plain JSON data`,
      { ...options, path: at, cause },
    );
  }
  if (finding === undefined) return;
  // A depth finding along a path that meets the same object twice is a cycle, not just depth.
  if (finding.kind === 'depth' && new Set(place.objects.slice(0, place.depth + 1)).size < place.depth + 1) finding = { kind: 'cycle' };
  throw toError(finding, bounds, options, pointer(segments(place)));
}

/** What was thrown, named without trusting it (a thrown Proxy can throw again from `instanceof`). */
function describeThrown(cause: unknown): string {
  try {
    if (cause instanceof Error) return typeof cause.name === 'string' ? cause.name.slice(0, 64) : 'an Error';
    return cause === null ? 'null' : typeof cause;
  } catch {
    return 'an unreadable value';
  }
}

function toError(finding: Finding, bounds: Bounds, options: WalkOptions, path: string): DecodeError {
  const opts = { task: options.task, version: options.version, path };
  const at = shown(path);
  switch (finding.kind) {
    case 'depth':
      return new LimitError(
        'TOO_DEEP',
        `${options.what} nests deeper than ${bounds.maxDepth} levels (maxDepth) at ${at}`,
        { unit: 'depth', limit: bounds.maxDepth, actual: finding.depth },
        opts,
      );
    case 'nodes':
      return new LimitError(
        'TOO_DEEP',
        `${options.what} has more than ${bounds.maxNodes} values (maxNodes); counting stopped at ${at}`,
        { unit: 'nodes', limit: bounds.maxNodes, actual: finding.nodes },
        opts,
      );
    case 'bytes':
      return new LimitError(
        'TOO_LARGE',
        `${options.what} holds at least ${finding.chars} UTF-8 bytes of strings; expected at most ${bounds.maxBytes} (maxBytes)`,
        { unit: 'bytes', limit: bounds.maxBytes, actual: finding.chars },
        opts,
      );
    case 'unsafe':
      return new DecodeError(
        'UNSAFE_JSON',
        `${options.what} has a ${finding.key} key at ${at}; prototype-polluting keys are refused`,
        opts,
      );
    case 'not-json':
      return new DecodeError(
        'MALFORMED_ENVELOPE',
        `${options.what} holds ${finding.found} at ${at}; expected JSON data (plain objects, arrays, strings, finite numbers, booleans, null)`,
        opts,
      );
    case 'cycle':
      return new DecodeError(
        'MALFORMED_ENVELOPE',
        `${options.what} holds a circular reference at ${at}; expected JSON data (a tree of plain objects and arrays)`,
        opts,
      );
  }
}

/** JSON Pointer (RFC 6901) from path segments. */
export function pointer(segments: readonly string[]): string {
  return segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

const hasOwn = Object.prototype.hasOwnProperty;
const objectProto = Object.prototype;

/**
 * Below this depth a cycle is left to the depth bound; from it on, the walk keeps the objects on
 * the current path, so a circular value ends the walk even with `maxDepth` and `maxNodes` set to
 * `Infinity`. A cycle of length L is seen at most 2L levels past it.
 */
const CYCLE_CHECK_DEPTH = 256;

/**
 * Above this `maxNodes` the node bound no longer bounds the work on an untrusted value whose
 * objects are shared (`x = [y, y]`, `y = [z, z]`, ...: 2^60 values from 60 arrays), so the walk
 * then refuses an object met twice. JSON text never parses to shared objects.
 */
const SHARED_CHECK_NODES = 100_000_000;

/**
 * Whether a value our JSON parser produced, of the given size (measured by the parser's own
 * prototype-key walk: `ParsedShape` in extract-mcp.ts), is within the bounds, so that checkTree
 * would find nothing: a parsed value is a tree of plain objects and arrays (no cycles, getters or
 * class instances), and its text was already measured against `maxBytes`. When this says false,
 * checkTree runs and says which bound, and where.
 */
export function withinBounds(shape: { readonly levels: number; readonly nodes: number; readonly finite: boolean }, bounds: Bounds): boolean {
  return shape.finite && shape.levels <= bounds.maxDepth && shape.nodes <= bounds.maxNodes;
}

/** Why an object or array is not JSON data, or undefined when it is. */
function badContainer(value: object): string | undefined {
  if (Array.isArray(value)) return undefined;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === objectProto || proto === null) return undefined;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return `an object of class ${typeof name === 'string' ? name.slice(0, 40) : 'unknown'}`;
}

/** `__proto__` as an own key (enumerable or not), or `constructor` holding an object with an own `prototype`. */
function unsafeKey(value: object): string | undefined {
  if (hasOwn.call(value, '__proto__')) return '__proto__';
  if (hasOwn.call(value, 'constructor')) {
    const ctor: unknown = (value as { constructor: unknown }).constructor;
    if (typeof ctor === 'object' && ctor !== null && hasOwn.call(ctor, 'prototype')) return 'constructor.prototype';
  }
  return undefined;
}

/**
 * The common case, fast: true only when {@link walk} would find nothing, so that checkTree can
 * skip it. The same checks on the same values, but no paths, only containers on the stack, and
 * members read with `for...in` (served from V8's enumeration cache) rather than `Object.keys`:
 * about a third of the walk's cost on the benchmark payloads. Whenever the answer is not a plain
 * yes it says false and the walk decides, with paths: a finding, a primitive root, a container at
 * CYCLE_CHECK_DEPTH or deeper, an own `constructor` key (the walk tells a harmless one from
 * `constructor.prototype`), an enumerable property on Object.prototype (`for...in` would see it),
 * or anything thrown while reading. (`for...in` enumerates the keys `Object.keys` returns, in the
 * same order, for objects whose prototype is Object.prototype or null; only an object whose
 * getters add or delete its own keys while it is read can be seen differently, and what is
 * returned is validated either way.)
 */
function quickPass(root: unknown, bounds: Bounds, untrusted: boolean): boolean {
  if (typeof root !== 'object' || root === null) return false;
  if (untrusted && bounds.maxNodes > SHARED_CHECK_NODES) return false;
  for (const _ in objectProto) return false;
  const { maxBytes, maxDepth, maxNodes } = bounds;
  const stack: object[] = [root];
  const depths: number[] = [0];
  let nodes = 1;
  let chars = 0;
  try {
    while (stack.length > 0) {
      const value = stack.pop() as Record<string, unknown>;
      const depth = depths.pop() as number;
      if (depth + 1 > maxDepth || depth >= CYCLE_CHECK_DEPTH) return false;
      if (untrusted && (hasOwn.call(value, '__proto__') || hasOwn.call(value, 'constructor'))) return false;
      const next = depth + 1;
      if (Array.isArray(value)) {
        const length = value.length;
        // A named member (or a hole): the walk tells which.
        if (untrusted && Object.keys(value).length !== length) return false;
        nodes += length;
        for (let i = 0; i < length; i++) {
          const child: unknown = value[i];
          if (typeof child === 'object') {
            if (child !== null) {
              stack.push(child);
              depths.push(next);
            }
          } else if (typeof child === 'string') chars += child.length;
          else if (typeof child === 'number') {
            if (child - child !== 0) return false; // NaN, ±Infinity
          } else if (untrusted && typeof child !== 'boolean') return false;
        }
      } else {
        if (untrusted) {
          const proto: unknown = Object.getPrototypeOf(value);
          if (proto !== objectProto && proto !== null) return false;
        }
        for (const key in value) {
          nodes++;
          chars += key.length;
          const child = value[key];
          if (typeof child === 'object') {
            if (child !== null) {
              stack.push(child);
              depths.push(next);
            }
          } else if (typeof child === 'string') chars += child.length;
          else if (typeof child === 'number') {
            if (child - child !== 0) return false;
          } else if (untrusted && typeof child !== 'boolean') return false;
        }
      }
      if (nodes > maxNodes || (untrusted && chars > maxBytes)) return false;
    }
  } catch {
    return false;
  }
  return true;
}

/**
 * Where the walk is: `keys[1..depth]` are the keys (or indexes) from the root to the value being
 * visited, `objects[0..depth]` the containers along that path (the value itself included when it
 * is one), and `key` the member being read or refused, if any.
 */
interface Place {
  readonly keys: Array<string | number>;
  readonly objects: unknown[];
  depth: number;
  key: string | number | undefined;
}

function segments(place: Place): string[] {
  const out = place.keys.slice(1, place.depth + 1).map(String);
  if (place.key !== undefined) out.push(String(place.key));
  return out;
}

/**
 * One iterative pass, three parallel stacks (value, depth, key). The keys and containers on the
 * path to the value being visited are kept by depth (one store per value), so that a finding or a
 * throw is located without a second walk; `place` is filled in only then.
 */
function walk(root: unknown, bounds: Bounds, untrusted: boolean, place: Place): Finding | undefined {
  const { maxBytes, maxDepth, maxNodes } = bounds;
  const { keys: pathKeys, objects: pathObjects } = place;
  const values: unknown[] = [root];
  const depths: number[] = [0];
  const keys: Array<string | number> = [''];
  // Every container seen, when the node bound is lifted (see SHARED_CHECK_NODES).
  const visited = untrusted && maxNodes > SHARED_CHECK_NODES ? new Set<object>() : undefined;
  // The containers on the current path from CYCLE_CHECK_DEPTH down, in order and as a set.
  const deepPath: object[] = [];
  let deep: Set<object> | undefined;
  let nodes = 0;
  let chars = 0;
  let depth = 0;
  // The member being read, so that a throwing getter or trap is blamed on it.
  let reading: string | number | undefined;
  const at = (finding: Finding, key?: string): Finding => {
    place.depth = depth;
    place.key = key;
    return finding;
  };
  try {
    while (values.length > 0) {
      const value = values.pop();
      depth = depths.pop() as number;
      pathKeys[depth] = keys.pop() as string | number;
      reading = undefined;
      if (++nodes > maxNodes) return at({ kind: 'nodes', nodes });
      if (typeof value !== 'object' || value === null) {
        if (typeof value === 'string') {
          if (untrusted) {
            chars += value.length;
            if (chars > maxBytes) return at({ kind: 'bytes', chars });
          }
        } else if (typeof value === 'number') {
          if (value - value !== 0) return at({ kind: 'not-json', found: String(value) }); // NaN, ±Infinity
        } else if (untrusted && typeof value !== 'boolean' && value !== null) {
          return at({ kind: 'not-json', found: `a value of type ${typeof value}` });
        }
        continue;
      }
      pathObjects[depth] = value;
      if (untrusted) {
        const bad = badContainer(value);
        if (bad !== undefined) return at({ kind: 'not-json', found: bad });
      }
      if (visited !== undefined) {
        if (visited.has(value)) {
          return at(pathObjects.slice(0, depth).includes(value) ? { kind: 'cycle' } : { kind: 'not-json', found: 'an object met twice (a shared reference)' });
        }
        visited.add(value);
      }
      if (depth + 1 > maxDepth) return at({ kind: 'depth', depth: depth + 1 });
      if (depth >= CYCLE_CHECK_DEPTH) {
        deep ??= new Set();
        // Drop what is no longer on the path (anything at this depth or deeper), then look.
        while (deepPath.length > depth - CYCLE_CHECK_DEPTH) deep.delete(deepPath.pop() as object);
        if (deep.has(value)) return at({ kind: 'cycle' });
        deepPath.push(value);
        deep.add(value);
      }
      if (untrusted) {
        const key = unsafeKey(value);
        if (key !== undefined) return at({ kind: 'unsafe', key }, key === '__proto__' ? key : 'constructor');
      }
      const next = depth + 1;
      if (Array.isArray(value)) {
        // A named member of an array is invisible to JSON and to the walk below, but not to a
        // caller's for...in merge: refuse it. (A hole makes the counts differ too; it is found below.)
        if (untrusted) {
          const names = Object.keys(value);
          if (names.length !== value.length) {
            const named = names.find((name, i) => name !== String(i));
            if (named !== undefined && !/^(0|[1-9]\d*)$/.test(named)) return at({ kind: 'not-json', found: 'an array with a named member' }, named);
          }
        }
        for (let i = value.length - 1; i >= 0; i--) {
          reading = i;
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
        reading = key;
        values.push(obj[key]);
        depths.push(next);
        keys.push(key);
        if (untrusted) chars += key.length;
      }
      if (untrusted && chars > maxBytes) return at({ kind: 'bytes', chars });
    }
  } catch (cause) {
    place.depth = depth;
    place.key = reading;
    throw cause;
  }
  return undefined;
}
