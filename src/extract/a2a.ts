/**
 * The AdCP A2A response-extraction algorithm (a2a-response-extraction.mdx), for both A2A 1.0
 * (ProtoJSON: `TASK_STATE_*`, Parts without `kind`) and v0.3 (lowercase states, `kind: 'data'`).
 *
 * Reading rules shared by every function here:
 * - Only own properties are read, so a polluted `Object.prototype` cannot inject a state or parts.
 * - If reading the input throws (a getter, a Proxy trap, a revoked Proxy) the call fails with
 *   `MALFORMED_ENVELOPE` rather than guessing.
 */
import { DEFAULT_BOUNDS, storedIndexes } from '../bounds/bounds.js';
import { snapshot } from '../bounds/snapshot.js';
import { DecodeError, type ErrorContext, NO_CONTEXT, readInput } from '../errors/errors.js';
import { hasOwn, isObject, own } from '../json/own.js';
import type { FoundPayload } from './found.js';

/** The single-key envelopes unwrapped (once) before extraction: A2A 1.0 `SendMessageResponse` / `StreamResponse` branches. */
const A2A_ENVELOPE_KEYS = ['task', 'message', 'statusUpdate', 'artifactUpdate'] as const;

/** One of {@link A2A_ENVELOPE_KEYS}. */
type A2aEnvelopeKey = (typeof A2A_ENVELOPE_KEYS)[number];

/** Final A2A transport states (normalized): data comes from `artifacts[0]`, last DataPart. */
type A2aFinalState = 'completed' | 'failed' | 'canceled' | 'rejected';

/** Interim A2A transport states (normalized): data comes from `status.message`, first DataPart. */
type A2aInterimState = 'working' | 'submitted' | 'input-required' | 'auth-required';

/** A recognised, normalized A2A transport state. */
export type A2aState = A2aFinalState | A2aInterimState;

const FINAL_STATES: readonly string[] = ['completed', 'failed', 'canceled', 'rejected'];
const INTERIM_STATES: readonly string[] = ['working', 'submitted', 'input-required', 'auth-required'];

/** Part fields that A2A 1.0 §4.1.6 makes a strict oneof (`file` is v0.3's equivalent of url/raw). */
const CONTENT_FIELDS = ['text', 'raw', 'url', 'data', 'file'] as const;

/** Where an A2A payload was found: `artifacts[0].parts[]` or `status.message.parts[]`. */
type A2aPayloadSource = 'artifact' | 'status-message';

/** Why no A2A payload was found. */
type A2aNoneReason =
  /** The input is not a non-array object. */
  | 'input-not-object'
  /** An envelope wrapped another envelope (`{ task: { task: … } }`): a smuggling attempt, rejected. */
  | 'nested-envelope'
  /** No `status.state` (e.g. `{ message }` or `{ artifactUpdate }` deliveries). */
  | 'no-state'
  /** `status.state` is present but not a recognised state after normalization. */
  | 'unknown-state'
  /** The state's location(s) hold no DataPart. */
  | 'no-data-part'
  /** A scanned Part sets more than one of `text` / `raw` / `url` / `data` / `file` (A2A 1.0 §4.1.6). */
  | 'malformed-part';

/** Where the A2A algorithm found the payload. */
interface A2aFoundPayload extends FoundPayload {
  readonly state: A2aState;
  /** `status.state` as sent, e.g. `TASK_STATE_COMPLETED`. */
  readonly rawState: string;
  readonly source: A2aPayloadSource;
  /** Index in the source `parts[]` of the chosen DataPart. */
  readonly partIndex: number;
  /** Set when a single-key envelope was unwrapped. */
  readonly envelope?: A2aEnvelopeKey;
}

/** The outcome of {@link locateA2aPayload}. */
export type A2aPayloadLocation =
  | A2aFoundPayload
  | {
      /** The authoritative artifact DataPart is a `{ response: {...} }` framework wrapper. */
      readonly kind: 'wrapper';
      readonly state: A2aFinalState;
      readonly rawState: string;
      readonly source: 'artifact';
      readonly partIndex: number;
      readonly envelope?: A2aEnvelopeKey;
    }
  | {
      readonly kind: 'none';
      readonly reason: A2aNoneReason;
      readonly state?: A2aState;
      /** `status.state` as sent, when present (any type). */
      readonly rawState?: unknown;
      readonly envelope?: A2aEnvelopeKey;
      /** For `malformed-part`: which list and index. */
      readonly source?: A2aPayloadSource;
      readonly partIndex?: number;
    };

/** The outcome of {@link unwrapA2aEnvelope}. */
export type A2aUnwrapResult =
  | { readonly kind: 'object'; readonly value: Record<string, unknown>; readonly envelope?: A2aEnvelopeKey }
  | { readonly kind: 'nested-envelope'; readonly envelope: A2aEnvelopeKey }
  | { readonly kind: 'not-object' };

function isEnvelopeKey(key: string | undefined): key is A2aEnvelopeKey {
  return key !== undefined && (A2A_ENVELOPE_KEYS as readonly string[]).includes(key);
}

/**
 * Normalizes a raw A2A `status.state` the spec's way: strip a `TASK_STATE_` prefix, lowercase
 * ASCII letters only, turn `_` into `-`.
 *
 * Lowercasing is ASCII-only on purpose: JavaScript's `toLowerCase` folds e.g. the Kelvin sign
 * (U+212A) to `k`, which would let `WOR\u212AING` pass as `working`; the spec forbids Unicode folding.
 *
 * @param raw - The `status.state` value as sent.
 * @returns The normalized string (recognised or not), or `null` when `raw` is not a string.
 * @throws Never.
 * @example
 * normalizeA2aState('TASK_STATE_INPUT_REQUIRED'); // 'input-required'
 */
export function normalizeA2aState(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const stripped = raw.startsWith('TASK_STATE_') ? raw.slice('TASK_STATE_'.length) : raw;
  return stripped.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32)).replace(/_/g, '-');
}

/**
 * Maps a raw A2A `status.state` to a recognised state by exact string equality after normalization.
 *
 * @param raw - The `status.state` value as sent.
 * @returns The state and whether it is final, or `null` for absent, non-string, or unknown values
 *   (including novel `TASK_STATE_*` values and `TASK_STATE_CANCELLED`, which normalizes to `cancelled`).
 * @throws Never.
 * @example
 * classifyA2aState('TASK_STATE_COMPLETED'); // { state: 'completed', final: true }
 */
export function classifyA2aState(raw: unknown): { state: A2aState; final: boolean } | null {
  const normalized = normalizeA2aState(raw);
  if (normalized === null) return null;
  if (FINAL_STATES.includes(normalized)) return { state: normalized as A2aFinalState, final: true };
  if (INTERIM_STATES.includes(normalized)) return { state: normalized as A2aInterimState, final: false };
  return null;
}

/**
 * Unwraps one A2A 1.0 single-key envelope (`{ task }`, `{ message }`, `{ statusUpdate }`,
 * `{ artifactUpdate }`) exactly once; anything else passes through unchanged.
 *
 * @param input - Anything.
 * @returns The object to extract from (and the envelope key, if unwrapped), `nested-envelope` when the
 *   unwrapped value itself has an envelope key among its top-level keys, or `not-object`.
 * @throws Whatever reading the input throws (getter, Proxy); callers wrap it.
 * @example
 * unwrapA2aEnvelope({ task: { id: 't1', status: { state: 'completed' } } });
 * // { kind: 'object', value: { id: 't1', ... }, envelope: 'task' }
 */
export function unwrapA2aEnvelope(input: unknown): A2aUnwrapResult {
  if (!isObject(input)) return { kind: 'not-object' };
  const keys = Object.keys(input);
  const key = keys[0];
  if (keys.length !== 1 || !isEnvelopeKey(key)) return { kind: 'object', value: input };
  const inner = own(input, key);
  if (!isObject(inner)) return { kind: 'object', value: input };
  // Unwrap exactly once: an inner value carrying any envelope key is a smuggling attempt.
  if (Object.keys(inner).some((k) => isEnvelopeKey(k))) return { kind: 'nested-envelope', envelope: key };
  return { kind: 'object', value: inner, envelope: key };
}

/** Counts a Part's set content fields; `null` counts as unset, as in ProtoJSON. */
function contentFieldCount(part: Record<string, unknown>): number {
  let count = 0;
  for (const field of CONTENT_FIELDS) {
    const value = own(part, field);
    if (value !== undefined && value !== null) count++;
  }
  return count;
}

/**
 * Tells whether a Part sets more than one content field (`text`, `raw`, `url`, `data`, or v0.3 `file`),
 * which A2A 1.0 §4.1.6 makes a malformed Part.
 *
 * @param part - A Part (anything is accepted).
 * @returns `true` for an object Part with two or more content fields.
 * @throws Whatever reading the part throws (getter, Proxy); callers wrap it.
 * @example
 * isMalformedA2aPart({ text: 'hi', data: { a: 1 } }); // true
 */
function isMalformedA2aPart(part: unknown): boolean {
  return isObject(part) && contentFieldCount(part) > 1;
}

/**
 * Tells whether a Part is a DataPart: its own `data` is a non-null, non-array object, whatever its
 * `kind` (1.0 has none, v0.3 has `kind: 'data'`), and it is not a malformed multi-content Part.
 *
 * @param part - A Part (anything is accepted).
 * @returns `true` for a usable DataPart.
 * @throws Whatever reading the part throws (getter, Proxy); callers wrap it.
 * @example
 * isA2aDataPart({ kind: 'data', data: { products: [] } }); // true
 */
export function isA2aDataPart(part: unknown): part is { data: Record<string, unknown> } {
  return isObject(part) && isObject(own(part, 'data')) && contentFieldCount(part) === 1;
}

/** `{ response: {...} }` and nothing else: the spec's framework-wrapper bug. */
function isWrapper(data: Record<string, unknown>): boolean {
  const keys = Object.keys(data);
  return keys.length === 1 && keys[0] === 'response' && isObject(own(data, 'response'));
}

type PartScan =
  | { readonly kind: 'found'; readonly value: Record<string, unknown>; readonly partIndex: number }
  | { readonly kind: 'none' }
  | { readonly kind: 'malformed'; readonly partIndex: number };

/** Scans a parts list for the first or last DataPart; any multi-content Part makes the list malformed. */
function scanParts(parts: unknown, pick: 'first' | 'last', cursor: { at: string }, base: string): PartScan {
  if (!Array.isArray(parts)) return { kind: 'none' };
  let chosen: PartScan = { kind: 'none' };
  for (const index of storedIndexes(parts)) {
    cursor.at = `${base}/${index}`;
    const part: unknown = parts[index];
    if (isMalformedA2aPart(part)) return { kind: 'malformed', partIndex: index };
    if (!isA2aDataPart(part)) continue;
    if (pick === 'first' && chosen.kind === 'found') continue;
    chosen = { kind: 'found', value: part.data, partIndex: index };
  }
  return chosen;
}

function locate(input: unknown, cursor: { at: string }): A2aPayloadLocation {
  // 0. Unwrap a supported single-key envelope, exactly once.
  const unwrapped = unwrapA2aEnvelope(input);
  if (unwrapped.kind === 'not-object') return { kind: 'none', reason: 'input-not-object' };
  if (unwrapped.kind === 'nested-envelope') {
    return { kind: 'none', reason: 'nested-envelope', envelope: unwrapped.envelope };
  }
  const task = unwrapped.value;
  const env = unwrapped.envelope === undefined ? {} : { envelope: unwrapped.envelope };
  const prefix = unwrapped.envelope === undefined ? '' : `/${unwrapped.envelope}`;

  // 1. Read and normalize status.state.
  cursor.at = `${prefix}/status`;
  const status = own(task, 'status');
  cursor.at = `${prefix}/status/state`;
  const rawState = isObject(status) ? own(status, 'state') : undefined;
  if (rawState === undefined) return { kind: 'none', reason: 'no-state', ...env };
  const classified = classifyA2aState(rawState);
  if (classified === null) return { kind: 'none', reason: 'unknown-state', rawState, ...env };
  const { state, final } = classified;
  const stateText = rawState as string;
  const located = (source: A2aPayloadSource, scan: Exclude<PartScan, { kind: 'none' }>): A2aPayloadLocation =>
    scan.kind === 'malformed'
      ? { kind: 'none', reason: 'malformed-part', state, rawState, source, partIndex: scan.partIndex, ...env }
      : { kind: 'payload', value: scan.value, state, rawState: stateText, source, partIndex: scan.partIndex, ...env };

  const fromMessage = (): A2aPayloadLocation => {
    cursor.at = `${prefix}/status/message`;
    const message = isObject(status) ? own(status, 'message') : undefined;
    cursor.at = `${prefix}/status/message/parts`;
    const parts = isObject(message) ? own(message, 'parts') : undefined;
    const scan = scanParts(parts, 'first', cursor, `${prefix}/status/message/parts`);
    if (scan.kind === 'none') return { kind: 'none', reason: 'no-data-part', state, rawState, ...env };
    return located('status-message', scan);
  };

  // 3. Interim states: first DataPart of status.message.parts, no wrapper check.
  if (!final) return fromMessage();

  // 2. Final states: last DataPart of artifacts[0].parts, wrapper check, else fall back to 3.
  cursor.at = `${prefix}/artifacts`;
  const artifacts = own(task, 'artifacts');
  cursor.at = `${prefix}/artifacts/0`;
  const first: unknown = Array.isArray(artifacts) && artifacts.length > 0 ? artifacts[0] : undefined;
  cursor.at = `${prefix}/artifacts/0/parts`;
  const parts = isObject(first) ? own(first, 'parts') : undefined;
  const scan = scanParts(parts, 'last', cursor, `${prefix}/artifacts/0/parts`);
  if (scan.kind === 'malformed') return located('artifact', scan);
  if (scan.kind === 'found') {
    cursor.at = `${prefix}/artifacts/0/parts/${scan.partIndex}/data`;
    if (isWrapper(scan.value)) {
      return {
        kind: 'wrapper',
        state: state as A2aFinalState,
        rawState: stateText,
        source: 'artifact',
        partIndex: scan.partIndex,
        ...env,
      };
    }
    return located('artifact', scan);
  }
  return fromMessage();
}

/**
 * Runs the A2A extraction algorithm and reports the state, the location and the part used, or
 * exactly why there is no payload; a `{ response: {...} }` wrapper is reported, not thrown.
 *
 * @param input - A Task, TaskStatusUpdateEvent, Message, or single-key envelope (anything is accepted).
 * @param context - The call the input was given to (decode's task and version), for the error.
 * @returns A {@link A2aPayloadLocation}; a returned payload is the seller's object itself, not a copy.
 * @throws {DecodeError} `MALFORMED_ENVELOPE` when reading the input throws (getter, Proxy).
 * @example
 * locateA2aPayload({ status: { state: 'TASK_STATE_WORKING', message: { parts: [{ data: { percentage: 5 } }] } } });
 * // { kind: 'payload', value: { percentage: 5 }, state: 'working', source: 'status-message', partIndex: 0, ... }
 */
export function locateA2aPayload(input: unknown, context: ErrorContext = NO_CONTEXT): A2aPayloadLocation {
  return readInput((cursor) => locate(input, cursor), context);
}

/**
 * Extracts the AdCP payload from an A2A response per the spec's algorithm, or `null`.
 *
 * @param input - A Task, TaskStatusUpdateEvent, Message, or single-key envelope (anything is accepted).
 * @returns The authoritative DataPart's `data` as a plain copy read once (`status` untouched, never
 *   the caller's object), or `null` for no state, an unknown state, no DataPart, a nested envelope,
 *   or a malformed Part.
 * @throws {DecodeError} `WRAPPER_DETECTED` when the final artifact DataPart is `{ response: {...} }`;
 *   `MALFORMED_ENVELOPE` when reading the input throws or the data is not JSON data; `UNSAFE_JSON`,
 *   `TOO_LARGE`, `TOO_DEEP`, `TOO_MANY_VALUES` as decode() says them for the data, under the default bounds.
 * @example
 * extractA2aResponse({ task: { status: { state: 'completed' }, artifacts: [{ parts: [{ data: { products: [] } }] }] } });
 * // { products: [] }
 */
export function extractA2aResponse(input: unknown): Record<string, unknown> | null {
  const location = locateA2aPayload(input);
  if (location.kind === 'wrapper') {
    const prefix = location.envelope === undefined ? '' : `/${location.envelope}`;
    throw new DecodeError(
      'WRAPPER_DETECTED',
      `expected the AdCP payload directly in the DataPart, but found a { response: {...} } framework wrapper (server-side bug)`,
      { path: `${prefix}/artifacts/0/parts/${location.partIndex}/data` },
    );
  }
  if (location.kind !== 'payload') return null;
  return snapshot(location.value, DEFAULT_BOUNDS, { what: 'A2A DataPart data' }) as Record<string, unknown>;
}

/** A2A object shapes: Task / status event (status.state), artifact event, or Message. */
function looksLikeA2aObject(value: Record<string, unknown>): boolean {
  const status = own(value, 'status');
  if (isObject(status) && hasOwn(status, 'state')) return true;
  if (Array.isArray(own(value, 'artifacts'))) return true;
  if (isObject(own(value, 'artifact')) && hasOwn(value, 'taskId')) return true;
  const kind = own(value, 'kind');
  if (kind === 'task' || kind === 'status-update' || kind === 'artifact-update' || kind === 'message') return true;
  return Array.isArray(own(value, 'parts')) && hasOwn(value, 'role');
}

/**
 * Tells whether a value looks like an A2A response: a Task or TaskStatusUpdateEvent (`status.state`),
 * an artifact update, a Message, a v0.3 `kind`-tagged object, or a single-key 1.0 envelope around one.
 * An MCP Tasks `{ task: {...} }` result (string `status`) does not match. Used for transport auto-detection.
 *
 * @param input - Anything.
 * @returns `true` for a likely A2A object; `false` otherwise, including when reading throws.
 * @throws Never.
 * @example
 * looksLikeA2a({ statusUpdate: { taskId: 't', status: { state: 'TASK_STATE_WORKING' } } }); // true
 */
export function looksLikeA2a(input: unknown): boolean {
  try {
    if (!isObject(input)) return false;
    const keys = Object.keys(input);
    const key = keys[0];
    if (keys.length === 1 && isEnvelopeKey(key)) {
      const inner = own(input, key);
      return isObject(inner) && looksLikeA2aObject(inner);
    }
    return looksLikeA2aObject(input);
  } catch {
    return false;
  }
}
