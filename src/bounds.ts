/**
 * Bounds checked before validation: text size in UTF-8 bytes before parsing, and depth, node
 * count and string volume of a parsed value before any recursive code (Ajv's validators
 * recurse) touches it. Values that arrive already parsed (MCP `structuredContent`, A2A `data`)
 * are also checked for what JSON cannot produce and for prototype-polluting keys.
 */
import { DecodeError, LimitError, type DecodeErrorOptions } from './errors.js';

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
  return Buffer.byteLength(text, 'utf8');
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
  const bytes = Buffer.byteLength(text, 'utf8');
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
  | { kind: 'not-json'; found: string };

/**
 * Walks `root` iteratively (no recursion, so no stack overflow at any depth) and throws at the
 * first bound passed or bad value found, with the JSON Pointer of where.
 *
 * @throws {LimitError} `TOO_DEEP` (depth or node count), `TOO_LARGE` (string volume, untrusted only)
 * @throws {DecodeError} `UNSAFE_JSON`, `MALFORMED_ENVELOPE` (not JSON data, unreadable), untrusted only
 */
export function checkTree(root: unknown, bounds: Bounds, options: WalkOptions): void {
  let finding: Finding | undefined;
  try {
    finding = walk(root, bounds, options.untrusted, null);
  } catch (cause) {
    // A getter or proxy trap threw while we read the value.
    const path: string[] = [];
    locate(root, bounds, options.untrusted, path);
    throw new DecodeError(
      'MALFORMED_ENVELOPE',
      `${options.what} could not be read at ${pointer(path)}: ${cause instanceof Error ? cause.name : typeof cause} thrown while reading it; expected plain JSON data`,
      { ...options, path: pointer(path), cause },
    );
  }
  if (finding === undefined) return;
  const path: string[] = [];
  locate(root, bounds, options.untrusted, path);
  throw toError(finding, bounds, options, pointer(path));
}

function toError(finding: Finding, bounds: Bounds, options: WalkOptions, at: string): DecodeError {
  const opts = { task: options.task, version: options.version, path: at };
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
  }
}

/** JSON Pointer (RFC 6901) from path segments. */
export function pointer(segments: readonly string[]): string {
  return segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

const hasOwn = Object.prototype.hasOwnProperty;
const objectProto = Object.prototype;

function badValue(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : String(value);
    case 'object': {
      if (value === null || Array.isArray(value)) return undefined;
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto === objectProto || proto === null) return undefined;
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      return `an object of class ${typeof name === 'string' ? name.slice(0, 40) : 'unknown'}`;
    }
    default:
      return `a value of type ${typeof value}`;
  }
}

/**
 * The fast pass: two parallel stacks, no path bookkeeping. Returns the first finding.
 * `trail`, when given, receives the path of the finding (slow pass, see {@link locate}).
 */
function walk(root: unknown, bounds: Bounds, untrusted: boolean, trail: string[][] | null): Finding | undefined {
  const values: unknown[] = [root];
  const depths: number[] = [0];
  const paths: string[][] = trail === null ? [] : [[]];
  let nodes = 0;
  let chars = 0;
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop() as number;
    const path = trail === null ? undefined : (paths.pop() as string[]);
    if (path !== undefined) trail![0] = path;
    if (++nodes > bounds.maxNodes) return { kind: 'nodes', nodes };
    if (untrusted) {
      const bad = badValue(value);
      if (bad !== undefined) return { kind: 'not-json', found: bad };
      if (typeof value === 'string') {
        chars += value.length;
        if (chars > bounds.maxBytes) return { kind: 'bytes', chars };
        continue;
      }
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth + 1 > bounds.maxDepth) return { kind: 'depth', depth: depth + 1 };
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        values.push(value[i]);
        depths.push(depth + 1);
        if (path !== undefined) paths.push([...path, String(i)]);
      }
      continue;
    }
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      const child = obj[key];
      if (untrusted) {
        chars += key.length;
        if (key === '__proto__') {
          if (path !== undefined) trail![0] = [...path, key];
          return { kind: 'unsafe', key: '__proto__' };
        }
        if (key === 'constructor' && typeof child === 'object' && child !== null && hasOwn.call(child, 'prototype')) {
          if (path !== undefined) trail![0] = [...path, key];
          return { kind: 'unsafe', key: 'constructor.prototype' };
        }
      }
      values.push(child);
      depths.push(depth + 1);
      if (path !== undefined) paths.push([...path, key]);
    }
    if (untrusted && chars > bounds.maxBytes) return { kind: 'bytes', chars };
  }
  return undefined;
}

/** The slow pass, run only after a finding: the same walk, keeping paths, to name the place. */
function locate(root: unknown, bounds: Bounds, untrusted: boolean, out: string[]): void {
  const trail: string[][] = [[]];
  try {
    walk(root, bounds, untrusted, trail);
  } catch {
    // The place where reading threw is the last path visited.
  }
  out.push(...(trail[0] ?? []));
}
