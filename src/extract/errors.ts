/**
 * AdCP error extraction from transport envelopes, in transport-errors.mdx's "Client Detection Order":
 * MCP `structuredContent.adcp_error` (with `isError`), A2A artifact DataParts, A2A
 * `status.message` DataParts, JSON-RPC `error.data.adcp_error`, MCP text fallback (with `isError`).
 *
 * The located `adcp_error` is the seller's object itself; the public extractors hand back a plain
 * copy of it, every field as sent: clamping `retry_after` or classifying `recovery` is the action layer's job
 * (see recovery.ts). Step 6 of the detection order (payload `errors[0]`) is not applied here: it
 * reads the task payload, not the envelope, and `errors[]` also carries non-fatal warnings.
 *
 * Reading rules: own properties only; an exception while reading the input (getter, Proxy) fails
 * the call with `MALFORMED_ENVELOPE`.
 */
import type { AdcpError } from '../errors/errors.js';
import { DecodeError, readInput } from '../errors/errors.js';
import { readTextItem, resolveMaxBytes, textItems, type McpExtractOptions, type TextBudget } from './mcp.js';
import { isA2aDataPart, unwrapA2aEnvelope } from './a2a.js';
import { shownPointer } from '../errors/format.js';
import { storedIndexes } from '../bounds/bounds.js';
import { snapshot } from '../bounds/snapshot.js';
import { utf8Length } from '../json/utf8.js';
import { hasOwn, own, isObject } from '../json/own.js';
import { jsonRpcErrorData } from './json-rpc.js';

/** Longest accepted `adcp_error.code`, in UTF-16 code units (the spec's `code.length > 64` check). */
const MAX_ERROR_CODE_LENGTH = 64;

/** Largest accepted serialized `adcp_error` (`JSON.stringify`), in UTF-8 bytes. */
export const MAX_ADCP_ERROR_BYTES = 4096;

/** Where an `adcp_error` was found, named as in the transport-error-mapping vectors' `path`. */
type AdcpErrorSource = 'structuredContent' | 'jsonrpc_error' | 'text_fallback' | 'artifact' | 'status_message';

/** Why a present `adcp_error` failed the spec's validation (and so counts as "no structured error"). */
type AdcpErrorInvalidReason =
  | 'not-object'
  | 'code-not-string'
  | 'code-empty'
  | 'code-too-long'
  | 'too-large'
  /** `JSON.stringify` threw (cycle, BigInt, throwing toJSON), so the size rule cannot be checked. */
  | 'unserializable';

/** The outcome of {@link locateMcpError} / {@link locateA2aError}. */
export type AdcpErrorLocation =
  | {
      readonly kind: 'found';
      readonly error: AdcpError;
      readonly source: AdcpErrorSource;
      /** `content[]` index (text_fallback), or part index (artifact / status_message). */
      readonly index?: number;
      /** Artifact index (artifact only). */
      readonly artifactIndex?: number;
    }
  | {
      /** The first `adcp_error` in detection order failed validation; detection stops there, as in the spec. */
      readonly kind: 'invalid';
      readonly source: AdcpErrorSource;
      readonly reason: AdcpErrorInvalidReason;
      readonly index?: number;
      readonly artifactIndex?: number;
      /** For `too-large`: serialized size in UTF-8 bytes. */
      readonly bytes?: number;
    }
  | { readonly kind: 'none' };

/** The verdict on an `adcp_error` that holds no prototype keys (see {@link checkAdcpError}). */
export type AdcpErrorVerdict =
  | { readonly ok: true; readonly error: AdcpError }
  | { readonly ok: false; readonly reason: AdcpErrorInvalidReason; readonly bytes?: number };

/** The outcome of {@link validateAdcpError}: a verdict, or `unsafe` with where the prototype key is. */
export type AdcpErrorValidation = AdcpErrorVerdict | { readonly ok: false; readonly reason: 'unsafe'; readonly path: string };

/**
 * Applies the spec's `validate()` to a candidate `adcp_error`: a non-array object whose `code` is a
 * string of 1-64 UTF-16 code units and whose `JSON.stringify` is at most 4096 UTF-8 bytes.
 *
 * The spec's sample measures `JSON.stringify(error).length` (UTF-16 units) while its prose says
 * bytes; bytes are used, which is the stricter reading for non-ASCII text.
 *
 * The candidate is walked (iteratively, at most 4096 values) before it is serialized, so that an
 * already-parsed object cannot make the size check itself unbounded: a value shared many times
 * (`a = [x, x, ...]`, `x = [a, a, ...]`, ...) would serialize to gigabytes from a few kilobytes of
 * memory. JSON data of at most 4096 bytes holds fewer values, so the cap only changes the verdict
 * for values JSON cannot produce (`undefined` members, `toJSON`), which are then `too-large`. The
 * walk also refuses what would let the caller pollute a prototype by merging the error.
 *
 * @param candidate - The value found under an `adcp_error` key.
 * @param at - JSON Pointer of the candidate in the input, prefixed to an `unsafe` outcome's `path`.
 * @returns `{ ok: true, error }` with the same reference, or `{ ok: false, reason }`; `reason:
 *   'unsafe'` (with `path`) when the candidate holds a `__proto__` key or a `constructor` object
 *   with a `prototype` key.
 * @throws Whatever reading the candidate throws (getter, Proxy); callers wrap it.
 * @example
 * validateAdcpError({ code: 'RATE_LIMITED', recovery: 'transient' }); // { ok: true, error: <same object> }
 */
export function validateAdcpError(candidate: unknown, at = ''): AdcpErrorValidation {
  if (!isObject(candidate)) return { ok: false, reason: 'not-object' };
  const code = own(candidate, 'code');
  if (typeof code !== 'string') return { ok: false, reason: 'code-not-string' };
  if (code.length === 0) return { ok: false, reason: 'code-empty' };
  if (code.length > MAX_ERROR_CODE_LENGTH) return { ok: false, reason: 'code-too-long' };
  const shape = inspect(candidate);
  if (shape.kind === 'unsafe') return { ok: false, reason: 'unsafe', path: `${at}${shape.path}` };
  if (shape.kind === 'cycle') return { ok: false, reason: 'unserializable' };
  if (shape.kind === 'too-many') return { ok: false, reason: 'too-large', bytes: shape.atLeast };
  let serialized: string | undefined;
  try {
    serialized = JSON.stringify(candidate);
  } catch {
    // The spec discards payloads that fail validation; one whose size cannot be measured fails it.
    return { ok: false, reason: 'unserializable' };
  }
  if (typeof serialized !== 'string') return { ok: false, reason: 'unserializable' };
  // Cheap bounds first: UTF-8 is 1-3 bytes per UTF-16 unit, so most errors never need encoding.
  if (serialized.length * 3 > MAX_ADCP_ERROR_BYTES) {
    const bytes = utf8Length(serialized);
    if (bytes > MAX_ADCP_ERROR_BYTES) return { ok: false, reason: 'too-large', bytes };
  }
  return { ok: true, error: candidate as AdcpError };
}

/**
 * {@link validateAdcpError}, refusing a candidate that holds prototype keys as hostile (as a text
 * item holding them is), so the caller gets a verdict on a safe candidate or an error.
 *
 * @param candidate - The value found under an `adcp_error` key.
 * @param at - JSON Pointer of the candidate in the input, for the error's `path`.
 * @returns The verdict: `{ ok: true, error }` or `{ ok: false, reason }`.
 * @throws {DecodeError} `UNSAFE_JSON` for a `__proto__` key or a `constructor` object with a `prototype` key.
 * @throws Whatever reading the candidate throws (getter, Proxy); callers wrap it.
 * @example
 * checkAdcpError({ code: 'RATE_LIMITED' }); // { ok: true, error: <same object> }
 */
export function checkAdcpError(candidate: unknown, at = ''): AdcpErrorVerdict {
  const result = validateAdcpError(candidate, at);
  if (!result.ok && result.reason === 'unsafe') {
    throw new DecodeError(
      'UNSAFE_JSON',
      `expected an adcp_error without __proto__ or constructor.prototype keys at ${shownPointer(result.path)}, but found one`,
      {
        path: result.path,
      },
    );
  }
  return result;
}

/** Below this many values the candidate is serialized; JSON data of 4096 bytes holds at most 2048. */
const MAX_ADCP_ERROR_VALUES = MAX_ADCP_ERROR_BYTES;

type Shape =
  | { readonly kind: 'ok' }
  | { readonly kind: 'unsafe'; readonly path: string }
  | { readonly kind: 'cycle' }
  /** More values than any 4096-byte JSON text holds; `atLeast` is a lower bound of its size. */
  | { readonly kind: 'too-many'; readonly atLeast: number };

/**
 * Walks own enumerable members (an array's named ones too), without recursion, counting values
 * (a shared value once per occurrence, as serialization would), and stops at the first
 * prototype-polluting key, cycle, or value past the cap.
 */
function inspect(root: object): Shape {
  const values: unknown[] = [root];
  const depths: number[] = [0];
  const paths: string[] = [''];
  // Objects on the current path, by depth: a value met again among them is a cycle.
  const path: object[] = [];
  let count = 0;
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop() as number;
    const at = paths.pop() as string;
    if (++count > MAX_ADCP_ERROR_VALUES) return { kind: 'too-many', atLeast: count };
    if (typeof value !== 'object' || value === null) continue;
    path.length = depth;
    if (path.includes(value)) return { kind: 'cycle' };
    path.push(value);
    if (hasOwn(value, '__proto__')) return { kind: 'unsafe', path: `${at}/__proto__` };
    if (hasOwn(value, 'constructor')) {
      const ctor = own(value, 'constructor');
      if (typeof ctor === 'object' && ctor !== null && hasOwn(ctor, 'prototype')) return { kind: 'unsafe', path: `${at}/constructor` };
    }
    // Arrays too: JSON.stringify skips an array's named members, a caller's for...in merge does not.
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      values.push((value as Record<string, unknown>)[key]);
      depths.push(depth + 1);
      paths.push(`${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  }
  return { kind: 'ok' };
}

function locationOf(
  candidate: unknown,
  source: AdcpErrorSource,
  where: { index?: number; artifactIndex?: number },
  at: string,
): AdcpErrorLocation {
  const result = checkAdcpError(candidate, at);
  if (result.ok) return { kind: 'found', error: result.error, source, ...where };
  return {
    kind: 'invalid',
    source,
    reason: result.reason,
    ...where,
    ...(result.bytes === undefined ? {} : { bytes: result.bytes }),
  };
}

function mcpLocate(input: unknown, maxBytes: number, cursor: { at: string }): AdcpErrorLocation {
  // McpError and other Error instances are objects too; only own properties are read.
  if (!isObject(input)) return { kind: 'none' };

  cursor.at = '/isError';
  const isError = Boolean(own(input, 'isError'));

  // 1. structuredContent.adcp_error, only with a truthy isError. Presence is truthiness, as in the
  //    spec's `structuredContent?.adcp_error`; a present-but-invalid error ends detection.
  if (isError) {
    cursor.at = '/structuredContent';
    const structured = own(input, 'structuredContent');
    if (typeof structured === 'object' && structured !== null) {
      cursor.at = '/structuredContent/adcp_error';
      const candidate = own(structured, 'adcp_error');
      if (candidate) return locationOf(candidate, 'structuredContent', {}, cursor.at);
    }
  }

  // 4. JSON-RPC error.data.adcp_error (raw response or McpError), never for a CallToolResult.
  cursor.at = '/error/data/adcp_error';
  const rpc = jsonRpcErrorData(input);
  if (rpc.found) {
    const candidate = isObject(rpc.data) ? own(rpc.data, 'adcp_error') : undefined;
    return candidate
      ? locationOf(candidate, 'jsonrpc_error', {}, hasOwn(input, 'error') ? '/error/data/adcp_error' : '/data/adcp_error')
      : { kind: 'none' };
  }

  // 5. Text fallback, only for isError results, items in order; the first JSON object holding a
  //    truthy adcp_error decides. Items are size-checked against the same limit as success text.
  if (!isError) return { kind: 'none' };
  cursor.at = '/content';
  const content = own(input, 'content');
  if (!Array.isArray(content)) return { kind: 'none' };
  const budget: TextBudget = { used: 0 };
  for (const { index, text } of textItems(content, cursor)) {
    if (typeof text !== 'string' || text === '') continue;
    const parsed = readTextItem(budget, text, maxBytes, cursor.at);
    if (!parsed.ok || !isObject(parsed.value)) continue;
    const candidate = own(parsed.value, 'adcp_error');
    if (candidate) return locationOf(candidate, 'text_fallback', { index }, `${cursor.at}/adcp_error`);
  }
  return { kind: 'none' };
}

/**
 * Finds the AdCP error in an MCP tool result or JSON-RPC error, reporting where it was found or why
 * a present `adcp_error` was rejected.
 *
 * @param resultOrJsonRpcError - A `CallToolResult`, a JSON-RPC error response, or an `McpError`.
 * @param options - `maxBytes` for each text item (default 4 MiB, UTF-8 bytes).
 * @returns A {@link AdcpErrorLocation}.
 * @throws {DecodeError} `UNSAFE_JSON` for prototype keys in a text item or in the `adcp_error`;
 *   `MALFORMED_ENVELOPE` when reading the input throws; `TOO_LARGE` when the text items examined
 *   hold more than 4 × `maxBytes` together.
 * @throws {RangeError} When `maxBytes` is not a non-negative number.
 * @example
 * locateMcpError({ isError: true, content: [], structuredContent: { adcp_error: { code: 'RATE_LIMITED' } } });
 * // { kind: 'found', error: { code: 'RATE_LIMITED' }, source: 'structuredContent' }
 */
export function locateMcpError(resultOrJsonRpcError: unknown, options?: McpExtractOptions): AdcpErrorLocation {
  const maxBytes = resolveMaxBytes(options);
  return readInput((cursor) => mcpLocate(resultOrJsonRpcError, maxBytes, cursor));
}

/**
 * Extracts a validated `adcp_error` from an MCP tool result (`isError` results only) or a JSON-RPC
 * error (`error.data.adcp_error`, including the MCP SDK's `McpError`), or `null`.
 *
 * @param resultOrJsonRpcError - A `CallToolResult`, a JSON-RPC error response, or an `McpError`.
 * @param options - `maxBytes` for each text item (default 4 MiB, UTF-8 bytes).
 * @returns The seller's `adcp_error` (fields as sent) as a plain copy, or `null`.
 * @throws {DecodeError} `UNSAFE_JSON` for prototype keys in a text item or in the `adcp_error`;
 *   `MALFORMED_ENVELOPE` when reading the input throws; `TOO_LARGE` when the text items examined
 *   hold more than 4 × `maxBytes` together.
 * @throws {RangeError} When `maxBytes` is not a non-negative number.
 * @example
 * extractMcpError({ jsonrpc: '2.0', id: 1, error: { code: -32029, message: 'x', data: { adcp_error: { code: 'RATE_LIMITED' } } } });
 * // { code: 'RATE_LIMITED' }
 */
export function extractMcpError(resultOrJsonRpcError: unknown, options?: McpExtractOptions): AdcpError | null {
  const location = locateMcpError(resultOrJsonRpcError, options);
  return location.kind === 'found' ? plainCopy(location.error) : null;
}

/**
 * A validated adcp_error handed back as a plain copy read once (the caller's object may have
 * getters), validated again as copied; a copy that is no longer valid is no error (the spec:
 * "treat as no structured error found").
 */
function plainCopy(error: AdcpError): AdcpError | null {
  const bounds = { maxBytes: MAX_ADCP_ERROR_BYTES, maxDepth: Infinity, maxNodes: MAX_ADCP_ERROR_BYTES };
  const valid = checkAdcpError(snapshot(error, bounds, { what: 'adcp_error' }));
  return valid.ok ? valid.error : null;
}

function a2aLocate(input: unknown, cursor: { at: string }): AdcpErrorLocation {
  // Same single unwrap as success extraction, so `{ task: {...} }` deliveries work and nested
  // envelopes stay rejected.
  const unwrapped = unwrapA2aEnvelope(input);
  if (unwrapped.kind !== 'object') return { kind: 'none' };
  const task = unwrapped.value;
  const prefix = unwrapped.envelope === undefined ? '' : `/${unwrapped.envelope}`;

  // 2. Every artifact's DataParts, in order (not only artifacts[0]), whatever the state.
  cursor.at = `${prefix}/artifacts`;
  const artifacts = own(task, 'artifacts');
  if (Array.isArray(artifacts)) {
    for (const artifactIndex of storedIndexes(artifacts)) {
      cursor.at = `${prefix}/artifacts/${artifactIndex}`;
      const artifact: unknown = artifacts[artifactIndex];
      const parts = isObject(artifact) ? own(artifact, 'parts') : undefined;
      const found = scanForError(parts, cursor, `${prefix}/artifacts/${artifactIndex}/parts`);
      if (found !== null) {
        return locationOf(
          found.candidate,
          'artifact',
          { index: found.index, artifactIndex },
          `${prefix}/artifacts/${artifactIndex}/parts/${found.index}/data/adcp_error`,
        );
      }
    }
  }

  // 3. status.message.parts.
  cursor.at = `${prefix}/status`;
  const status = own(task, 'status');
  const message = isObject(status) ? own(status, 'message') : undefined;
  const parts = isObject(message) ? own(message, 'parts') : undefined;
  const found = scanForError(parts, cursor, `${prefix}/status/message/parts`);
  if (found !== null)
    return locationOf(
      found.candidate,
      'status_message',
      { index: found.index },
      `${prefix}/status/message/parts/${found.index}/data/adcp_error`,
    );
  return { kind: 'none' };
}

/** First DataPart (by field presence, 1.0 or v0.3) whose `data.adcp_error` is truthy. */
function scanForError(parts: unknown, cursor: { at: string }, base: string): { candidate: unknown; index: number } | null {
  if (!Array.isArray(parts)) return null;
  for (const index of storedIndexes(parts)) {
    cursor.at = `${base}/${index}`;
    const part: unknown = parts[index];
    if (!isA2aDataPart(part)) continue;
    const candidate = own(part.data, 'adcp_error');
    if (candidate) return { candidate, index };
  }
  return null;
}

/**
 * Finds the AdCP error in an A2A Task / status event (or single-key envelope), reporting where it
 * was found or why a present `adcp_error` was rejected.
 *
 * @param input - A Task, TaskStatusUpdateEvent, or single-key envelope (anything is accepted).
 * @returns A {@link AdcpErrorLocation}.
 * @throws {DecodeError} `UNSAFE_JSON` for prototype keys in the `adcp_error`; `MALFORMED_ENVELOPE`
 *   when reading the input throws.
 * @example
 * locateA2aError({ status: { state: 'failed' }, artifacts: [{ parts: [{ kind: 'data', data: { adcp_error: { code: 'X' } } }] }] });
 * // { kind: 'found', error: { code: 'X' }, source: 'artifact', index: 0, artifactIndex: 0 }
 */
export function locateA2aError(input: unknown): AdcpErrorLocation {
  return readInput((cursor) => a2aLocate(input, cursor));
}

/**
 * Extracts a validated `adcp_error` from an A2A response: artifacts first (all of them, in order),
 * then `status.message.parts`, or `null`.
 *
 * @param input - A Task, TaskStatusUpdateEvent, or single-key envelope (anything is accepted).
 * @returns The seller's `adcp_error` (fields as sent) as a plain copy, or `null`.
 * @throws {DecodeError} `UNSAFE_JSON` for prototype keys in the `adcp_error`; `MALFORMED_ENVELOPE`
 *   when reading the input throws.
 * @example
 * extractA2aError({ status: { state: 'TASK_STATE_FAILED' }, artifacts: [{ parts: [{ data: { adcp_error: { code: 'X' } } }] }] });
 * // { code: 'X' }
 */
export function extractA2aError(input: unknown): AdcpError | null {
  const location = locateA2aError(input);
  return location.kind === 'found' ? plainCopy(location.error) : null;
}
