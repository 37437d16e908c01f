/**
 * What the bounds walks (checkTree, snapshot) report: a finding (a bound passed, a value that is
 * not JSON data, a prototype key), the place in the value where it was found, and the DecodeError
 * that says both.
 */
import { DecodeError, type ErrorContext, LimitError } from '../errors/errors.js';
import { shownPointer as shown } from '../errors/format.js';
import type { Bounds } from './bounds.js';

/** What a walk needs besides the bounds: what the value is, for messages, and the call, for the error. */
export interface WalkOptions extends ErrorContext {
  /** What the value is, for messages: `structuredContent`, `A2A DataPart data`. */
  readonly what: string;
}

/** What a walk found wrong with a value. */
export type Finding =
  | { kind: 'depth'; depth: number }
  | { kind: 'nodes'; nodes: number }
  | { kind: 'bytes'; chars: number; json: 'at least' | 'exact' }
  | { kind: 'unsafe'; key: string }
  | { kind: 'not-json'; found: string }
  | { kind: 'cycle' };

/**
 * Where the walk is: `keys[1..depth]` are the keys (or indexes) from the root to the value being
 * visited, `objects[0..depth]` the containers along that path (the value itself included when it
 * is one), and `key` the member being read or refused, if any.
 */
export interface Place {
  readonly keys: Array<string | number>;
  readonly objects: unknown[];
  depth: number;
  key: string | number | undefined;
}

/** A place at the root, for a walk to fill in. */
export function rootPlace(): Place {
  return { keys: [], objects: [], depth: 0, key: undefined };
}

/** The JSON Pointer (RFC 6901) of a place. */
export function placePointer(place: Place): string {
  return segments(place)
    .map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`)
    .join('');
}

function segments(place: Place): string[] {
  const out = place.keys.slice(1, place.depth + 1).map(String);
  if (place.key !== undefined) out.push(String(place.key));
  return out;
}
/**
 * The error that says what a walk found, and where.
 *
 * @param finding - What the walk found.
 * @param bounds - The bounds it walked under, for the message.
 * @param options - `what` names the value; the call's `task`, `version` and `standInFor` go on the error.
 * @param path - The JSON Pointer of where.
 * @returns The error, to throw.
 * @throws Never.
 * @example
 * throw findingError({ kind: 'depth', depth: 65 }, DEFAULT_BOUNDS, { what: 'structuredContent' }, '/a/b');
 */
export function findingError(finding: Finding, bounds: Bounds, options: WalkOptions, path: string): DecodeError {
  const opts = { task: options.task, version: options.version, standInFor: options.standInFor, path };
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
        'TOO_MANY_VALUES',
        `${options.what} has more than ${bounds.maxNodes} values (maxNodes); counting stopped at ${at}`,
        { unit: 'nodes', limit: bounds.maxNodes, actual: finding.nodes },
        opts,
      );
    case 'bytes':
      return new LimitError(
        'TOO_LARGE',
        `${options.what} is ${finding.json === 'exact' ? '' : 'at least '}${finding.chars} UTF-8 bytes as compact JSON; expected at most ${bounds.maxBytes} (maxBytes)`,
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
