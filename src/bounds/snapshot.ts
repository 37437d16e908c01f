/**
 * snapshot: the one walk over an already-parsed value from the caller (MCP `structuredContent`,
 * A2A `data`, a bare payload, an `adcp_error`), which reads it once into the plain copy decode()
 * validates and returns, checking the bounds, JSON data and prototype keys on the way.
 */

import { DecodeError, describeThrown } from '../errors/errors.js';
import { shownPointer as shown } from '../errors/format.js';
import { hasOwn, prototypeKey, prototypeMember, prototypePolluted } from '../json/own.js';
import { jsonStringBytes } from '../json/utf8.js';
import type { Bounds } from './bounds.js';
import { type Finding, findingError, type Place, placePointer, rootPlace, type WalkOptions } from './findings.js';

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

const objectProto = Object.prototype;
const arrayProto = Array.prototype;

const { getPrototypeOf, getOwnPropertyNames, getOwnPropertySymbols } = Object;

type Container = Record<string, unknown> | unknown[];

/**
 * A plain copy of an already-parsed (in-process) value, bounded and checked in the one walk that reads each value once.
 * What it accepts and how it counts: docs/robustness.md, "The snapshot walk".
 *
 * @param root - The value, e.g. MCP `structuredContent` or A2A DataPart `data`.
 * @param bounds - The bounds to check.
 * @param options - `what` names the value in messages; the call's `task`, `version` and `standInFor` go on the error.
 * @returns The plain copy.
 * @throws {LimitError} `TOO_DEEP` (depth), `TOO_MANY_VALUES` (node count), `TOO_LARGE` (compact JSON over `maxBytes`)
 * @throws {DecodeError} `UNSAFE_JSON` for `__proto__` or `constructor.prototype` keys;
 *   `MALFORMED_ENVELOPE` for what is not JSON data, circular references, or values that cannot
 *   be read (a getter or trap that throws)
 * @example
 * const data = snapshot(result.structuredContent, DEFAULT_BOUNDS, { what: 'structuredContent' });
 */
export function snapshot(root: unknown, bounds: Bounds, options: WalkOptions): unknown {
  const place = rootPlace();
  let outcome: CopyOutcome;
  try {
    outcome = copyAt(root, bounds, place);
  } catch (cause) {
    const at = placePointer(place);
    throw new DecodeError(
      'MALFORMED_ENVELOPE',
      `${options.what} could not be read at ${shown(at)}: ${describeThrown(cause)} thrown while reading it; expected plain JSON data`,
      { task: options.task, version: options.version, standInFor: options.standInFor, path: at, cause },
    );
  }
  if (outcome.ok) return outcome.copy;
  throw findingError(outcome.finding, bounds, options, outcome.path);
}

/** The outcome of {@link copyJson}: the plain copy, or what was found and where (a JSON Pointer). */
export type CopyOutcome =
  | { readonly ok: true; readonly copy: unknown }
  | { readonly ok: false; readonly finding: Finding; readonly path: string };

/**
 * {@link snapshot}'s walk for a caller that maps what it finds itself (an `adcp_error`'s
 * validation): the copy, or the first finding and its JSON Pointer; nothing is thrown for a finding.
 *
 * @param root - The value.
 * @param bounds - The bounds to check.
 * @returns The outcome.
 * @throws Whatever reading the value throws (a getter, a Proxy trap); callers wrap it.
 * @example
 * copyJson({ code: 'X' }, { maxBytes: 4096, maxDepth: Infinity, maxNodes: 4096 }); // { ok: true, copy: { code: 'X' } }
 */
export function copyJson(root: unknown, bounds: Bounds): CopyOutcome {
  return copyAt(root, bounds, rootPlace());
}

function copyAt(root: unknown, bounds: Bounds, place: Place): CopyOutcome {
  const walk = new CopyWalk(bounds, place);
  let finding = walk.run(root);
  if (finding === undefined) return { ok: true, copy: walk.holder.copy };
  if (finding.kind === 'depth' && new Set(place.objects.slice(0, place.depth + 1)).size < place.depth + 1) finding = { kind: 'cycle' };
  return { ok: false, finding, path: placePointer(place) };
}

/**
 * The one walk: containers are visited from a stack (iterative, any depth) in document order, each
 * copied where its parent's copy holds it; the compact JSON's bytes are kept as a lower and an upper bound.
 */
class CopyWalk {
  readonly holder: { copy: unknown } = { copy: undefined };
  private readonly maxBytes: number;
  private readonly maxDepth: number;
  private readonly maxNodes: number;
  /** Bytes of the compact JSON, counting every UTF-16 unit of a string as one byte and every number as one digit; exact for the rest. */
  private low = 0;
  /** UTF-16 units of the strings not measured exactly: each at most 6 bytes (`\u0000`), for the upper bound. */
  private units = 0;
  /** What the strings measured exactly add to `low` (escapes, multi-byte characters). */
  private extra = 0;
  /** Numbers counted in `low`: each at most 24 characters, for the upper bound. */
  private numbers = 0;
  private nodes = 1;
  private depth = 0;
  /** The member being read, for the path of what a getter or trap threw. */
  private reading: string | number | undefined;
  // Pending containers: the source, the copy that holds it (to be replaced by its own copy), its key there, its depth.
  private readonly sources: object[] = [];
  private readonly parents: Container[] = [];
  private readonly keys: Array<string | number> = [];
  private readonly depths: number[] = [];
  private readonly visited: Set<object> | undefined;
  private deep: Set<object> | undefined;
  private readonly deepPath: object[] = [];
  /** Whether someone put an enumerable member on Object.prototype, which a for...in over a copy would also yield. */
  private readonly polluted: boolean;

  constructor(
    bounds: Bounds,
    private readonly place: Place,
  ) {
    this.maxBytes = bounds.maxBytes;
    this.maxDepth = bounds.maxDepth;
    this.maxNodes = bounds.maxNodes;
    this.visited = bounds.maxNodes > SHARED_CHECK_NODES ? new Set() : undefined;
    this.polluted = prototypePolluted();
  }

  /** Copies `root` into `holder.copy`; a finding fills in `place`. */
  run(root: unknown): Finding | undefined {
    try {
      const bad = this.member(root, this.holder, 'copy', 0);
      if (bad !== undefined) {
        this.place.key = undefined;
        return bad;
      }
      const { sources, parents, keys, depths } = this;
      while (sources.length > 0) {
        const value = sources.pop() as object;
        const parent = parents.pop() as Container;
        const key = keys.pop() as string | number;
        const depth = depths.pop() as number;
        this.depth = depth;
        this.place.keys[depth] = depth === 0 ? '' : key;
        this.place.objects[depth] = value;
        this.reading = undefined;
        const mark = sources.length;
        const found = this.visit(value, parent, key);
        if (found !== undefined) return found;
        // Visit the containers just found in document order, so the first finding is the first in the text.
        if (sources.length - mark > 1) {
          reverseFrom(sources, mark);
          reverseFrom(parents, mark);
          reverseFrom(keys, mark);
          reverseFrom(depths, mark);
        }
      }
    } catch (cause) {
      this.place.depth = this.depth;
      this.place.key = this.reading;
      throw cause;
    }
    return this.exactBytes();
  }

  /** Checks one container (prototype, repetition, depth) and copies it into `parent[key]`. */
  private visit(value: object, parent: Container, key: string | number): Finding | undefined {
    const isArray = Array.isArray(value);
    const proto: unknown = getPrototypeOf(value);
    if (isArray ? proto !== arrayProto : proto !== objectProto && proto !== null) {
      return this.at({ kind: 'not-json', found: foreignContainer(value, isArray) });
    }
    if (this.visited !== undefined || this.depth >= CYCLE_CHECK_DEPTH) {
      const repeated = this.repeated(value);
      if (repeated !== undefined) return this.at(repeated);
    }
    if (this.depth + 1 > this.maxDepth) return this.at({ kind: 'depth', depth: this.depth + 1 });
    return isArray ? this.copyArray(value as unknown[], parent, key) : this.copyObject(value as Record<string, unknown>, parent, key);
  }

  /** A cycle, or (with `maxNodes` past {@link SHARED_CHECK_NODES}) an object met twice. */
  private repeated(value: object): Finding | undefined {
    const { depth, visited } = this;
    if (visited !== undefined) {
      if (visited.has(value)) {
        return this.place.objects.slice(0, depth).includes(value)
          ? { kind: 'cycle' }
          : { kind: 'not-json', found: 'an object met twice (a shared reference)' };
      }
      visited.add(value);
    }
    if (depth < CYCLE_CHECK_DEPTH) return undefined;
    this.deep ??= new Set();
    const deep = this.deep;
    const path = this.deepPath;
    while (path.length > depth - CYCLE_CHECK_DEPTH) deep.delete(path.pop() as object);
    if (deep.has(value)) return { kind: 'cycle' };
    path.push(value);
    deep.add(value);
    return undefined;
  }

  private copyArray(source: unknown[], parent: Container, key: string | number): Finding | undefined {
    const length = source.length;
    // Charge the claimed length before anything proportional to it is allocated or iterated:
    // bytes first (each element is at least a digit and a comma), as text is measured before parsing.
    if (this.low + 2 * length > this.maxBytes) return this.at({ kind: 'bytes', chars: this.low + 2 * length, json: 'at least' });
    if (this.nodes + length > this.maxNodes) return this.at({ kind: 'nodes', nodes: this.nodes + length });
    this.nodes += length;
    this.low += length === 0 ? 2 : length + 1;
    // Own keys are the indexes in order, then `length`, then named members, then symbols: so
    // exactly `length + 1` keys ending the indexes at `length - 1` means no hole, no extra member.
    const own = Reflect.ownKeys(source);
    if (own.length !== length + 1 || (length > 0 && own[length - 1] !== String(length - 1))) return this.arrayExtra(source, own, length);
    const list: unknown[] = [];
    (parent as Record<string | number, unknown>)[key] = list;
    const next = this.depth + 1;
    for (let i = 0; i < length; i++) {
      this.reading = i;
      const child = source[i];
      list.push(child);
      const found = this.member(child, list, i, next);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  private copyObject(source: Record<string, unknown>, parent: Container, key: string | number): Finding | undefined {
    // One read of each member, by the engine's own object copy (one builtin call, not a read and a store per member).
    let copy: Record<string, unknown>;
    try {
      copy = { ...source };
    } catch (cause) {
      this.reading = throwingMember(source);
      throw cause;
    }
    (parent as Record<string | number, unknown>)[key] = copy;
    const next = this.depth + 1;
    let count = 0;
    for (const name in copy) {
      if (this.polluted && !hasOwn(copy, name)) continue;
      count++;
      this.low += 1; // its colon
      this.text(name);
      const child = copy[name];
      if ((name === '__proto__' || name === 'constructor') && prototypeMember(name, child)) return this.at(unsafe(name), name);
      const found = this.member(child, copy, name, next);
      if (found !== undefined) return found;
    }
    this.low += count === 0 ? 2 : count + 1;
    if (this.low > this.maxBytes) return this.at({ kind: 'bytes', chars: this.low, json: 'at least' });
    if (this.nodes + count > this.maxNodes) return this.at({ kind: 'nodes', nodes: this.nodes + count });
    this.nodes += count;
    // What the copy left out: members JSON cannot see (non-enumerable or symbol-keyed).
    if (getOwnPropertyNames(source).length !== count || getOwnPropertySymbols(source).length !== 0) return this.hidden(source);
    return undefined;
  }

  /**
   * Counts a key or string in `low`, one byte a unit and its quotes; and in `units` (each at most 6
   * bytes) until the upper bound passes half the limit, exactly (`extra`) from then on. The bound
   * runs at about six times the real size, so a small value is never measured (the common case),
   * and one of up to about half the limit is decided without a second walk over its copy.
   */
  private text(text: string): void {
    this.low += text.length + 2;
    if (2 * this.upper() > this.maxBytes) this.extra += jsonStringBytes(text) - text.length - 2;
    else this.units += text.length;
  }

  /** The upper bound of the compact JSON's bytes so far. */
  private upper(): number {
    return this.low + this.extra + 5 * this.units + 23 * this.numbers;
  }

  /** Checks a member's value, now in `target[key]`; a container is queued to be copied in its place. */
  private member(child: unknown, target: Container, key: string | number, next: number): Finding | undefined {
    // typeof compared in place: a switch on it makes V8 build the type's name.
    if (typeof child === 'string') {
      this.text(child);
      return this.low > this.maxBytes ? this.at({ kind: 'bytes', chars: this.low, json: 'at least' }, key) : undefined;
    }
    if (typeof child === 'object') {
      if (child === null) this.low += 4;
      else {
        this.sources.push(child);
        this.parents.push(target);
        this.keys.push(key);
        this.depths.push(next);
      }
      return undefined;
    }
    if (typeof child === 'number') {
      if (child - child !== 0) return this.at({ kind: 'not-json', found: String(child) }, key); // NaN, ±Infinity
      this.low += 1;
      this.numbers++;
      return undefined;
    }
    if (typeof child === 'boolean') {
      this.low += child ? 4 : 5;
      return undefined;
    }
    return this.at({ kind: 'not-json', found: `a value of type ${typeof child}` }, key);
  }

  /** What is wrong with an array whose own keys are not exactly its indexes and `length`. */
  private arrayExtra(source: unknown[], own: ReadonlyArray<string | symbol>, length: number): Finding {
    const polluting = prototypeKey(source);
    if (polluting !== undefined) return this.at(unsafe(polluting), polluting);
    const culprit = arrayCulprit(source, own, length);
    if (typeof culprit === 'number') return this.at({ kind: 'not-json', found: 'a sparse array (a hole)' }, culprit);
    if (culprit === undefined) return this.at({ kind: 'not-json', found: 'an array with a symbol-keyed member' });
    return this.at({ kind: 'not-json', found: 'an array with a named member' }, culprit);
  }

  /** What an object's copy left out: a hidden prototype key, else the first symbol-keyed or non-enumerable member. */
  private hidden(source: object): Finding {
    const polluting = prototypeKey(source);
    if (polluting !== undefined) return this.at(unsafe(polluting), polluting);
    const hidden = Reflect.ownKeys(source).find((k) => typeof k === 'symbol' || !Object.prototype.propertyIsEnumerable.call(source, k));
    return this.at(
      { kind: 'not-json', found: typeof hidden === 'symbol' ? 'a symbol-keyed member' : 'a non-enumerable member' },
      typeof hidden === 'string' ? hidden : undefined,
    );
  }

  /** The bounds decide unless the limit falls between them; then the copy (ours, plain) is measured. */
  private exactBytes(): Finding | undefined {
    if (this.upper() <= this.maxBytes) return undefined;
    const exact = compactJsonBytes(this.holder.copy);
    if (exact <= this.maxBytes) return undefined;
    this.place.depth = 0;
    this.place.key = undefined;
    return { kind: 'bytes', chars: exact, json: 'exact' };
  }

  /** Records where a finding is: the container being visited, and the member if any. */
  private at(finding: Finding, key?: string | number): Finding {
    this.place.depth = this.depth;
    this.place.key = key;
    return finding;
  }
}

/**
 * The UTF-8 size of `JSON.stringify(value)` for a snapshot's copy: plain JSON data without cycles
 * (ours), so an iterative walk with no checks.
 *
 * @param root - A copy {@link snapshot} or {@link copyJson} returned.
 * @returns Its compact JSON's size in UTF-8 bytes.
 * @throws Never, for such a copy.
 * @example
 * compactJsonBytes({ a: ['é'] }); // 12
 */
export function compactJsonBytes(root: unknown): number {
  let bytes = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') bytes += jsonStringBytes(value);
    else if (typeof value === 'number') bytes += String(value).length;
    else if (typeof value === 'boolean') bytes += value ? 4 : 5;
    else if (value === null) bytes += 4;
    else if (Array.isArray(value)) {
      bytes += value.length === 0 ? 2 : value.length + 1;
      for (let i = 0; i < value.length; i++) stack.push(value[i]); // by index: no iterator someone could have replaced
    } else {
      const object = value as Record<string, unknown>;
      const names = Object.keys(object);
      bytes += names.length === 0 ? 2 : 2 * names.length + 1;
      for (const name of names) {
        bytes += jsonStringBytes(name);
        stack.push(object[name]);
      }
    }
  }
  return bytes;
}

function unsafe(key: string): Finding {
  return { kind: 'unsafe', key: key === '__proto__' ? '__proto__' : 'constructor.prototype' };
}

/** Why a container whose prototype is not its kind's is not JSON data. */
function foreignContainer(value: object, isArray: boolean): string {
  if (isArray) return 'an array with a foreign prototype (an Array subclass?)';
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return `an object of class ${typeof name === 'string' ? name.slice(0, 40) : 'unknown'}`;
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

/** The first hole's index, else the first named member, else undefined (a symbol key). Bounded by the keys present. */
function arrayCulprit(source: unknown[], own: ReadonlyArray<string | symbol>, length: number): string | number | undefined {
  let i = 0;
  while (i < length && i < own.length && own[i] === String(i)) i++;
  if (i < length && !hasOwn(source, String(i))) return i;
  return own.find((key): key is string => typeof key === 'string' && key !== 'length' && !/^(0|[1-9]\d*)$/.test(key));
}
