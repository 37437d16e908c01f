/**
 * AdCP error extraction from transport envelopes, in transport-errors.mdx's "Client Detection Order":
 * MCP `structuredContent.adcp_error` (with `isError`), A2A artifact DataParts, A2A
 * `status.message` DataParts, JSON-RPC `error.data.adcp_error`, MCP text fallback (with `isError`).
 *
 * The returned `adcp_error` is a plain copy of the seller's object, read once and validated as
 * copied, with every field as sent: clamping `retry_after` or classifying `recovery` is the action layer's job
 * (see recovery.ts). Step 6 of the detection order (payload `errors[0]`) is not applied here: it
 * reads the task payload, not the envelope, and `errors[]` also carries non-fatal warnings.
 *
 * Reading rules: own properties only; an exception while reading the input (getter, Proxy) fails
 * the call with `MALFORMED_ENVELOPE`.
 */

import { type Bounds, DEFAULT_BOUNDS, storedIndexes } from '../bounds/bounds.js';
import { compactJsonBytes, copyJson } from '../bounds/snapshot.js';
import { type AdcpError, DecodeError, type ErrorContext, NO_CONTEXT, readInput } from '../errors/errors.js';
import { shownPointer } from '../errors/format.js';
import { hasOwn, isObject, own } from '../json/own.js';
import { readTextItem, type TextBudget } from '../json/text.js';
import { isFailedStatus } from '../schema/statuses.js';
import { classifyA2aState, isA2aDataPart, unwrapA2aEnvelope } from './a2a.js';
import { jsonRpcErrorData } from './json-rpc.js';
import { type McpExtractOptions, mcpWords, resolveMaxBytes, textItems } from './mcp.js';
import { a2aWords, jsonRpcWords, textWords } from './seller-words.js';

/** Longest accepted `adcp_error.code`, in UTF-16 code units (the spec's `code.length > 64` check). */
const MAX_ERROR_CODE_LENGTH = 64;

/** Largest accepted serialized `adcp_error` (`JSON.stringify`), in UTF-8 bytes. */
const MAX_ADCP_ERROR_BYTES = 4096;

/** Where an `adcp_error` was found, named as in the transport-error-mapping vectors' `path`. */
type AdcpErrorSource = 'structuredContent' | 'jsonrpc_error' | 'text_fallback' | 'artifact' | 'status_message';

/** Why a present `adcp_error` failed the spec's validation (and so counts as "no structured error"). */
type AdcpErrorInvalidReason =
  | 'not-object'
  | 'code-not-string'
  | 'code-empty'
  | 'code-too-long'
  | 'too-large'
  /** A circular reference: it has no JSON size to check. */
  | 'unserializable'
  /** It holds what JSON data cannot (`undefined`, a function, a class instance, a symbol key, a hole). */
  | 'not-json';

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
      /** What the seller said in words beside it (the result's text, the JSON-RPC message, the task's text part). */
      readonly words?: string | undefined;
    }
  | {
      /** The first `adcp_error` in detection order failed validation; detection stops there, as in the spec. */
      readonly kind: 'invalid';
      readonly source: AdcpErrorSource;
      readonly reason: AdcpErrorInvalidReason;
      readonly index?: number;
      readonly artifactIndex?: number;
      /** For `too-large`: the compact JSON's size in UTF-8 bytes (a lower bound when it holds more values than 4096 bytes of JSON can). */
      readonly bytes?: number;
      readonly words?: string | undefined;
    }
  /**
   * No `adcp_error`; when the answer signals a failure all the same (isError, a JSON-RPC error, a
   * failed A2A task), `words`, and for an `isError` result the first payload it carries
   * (structuredContent, else the first JSON object text), whose `errors[0]` may describe the failure.
   */
  | { readonly kind: 'none'; readonly words?: string | undefined; readonly payload?: Record<string, unknown> | undefined };

/** The verdict on an `adcp_error` that holds no prototype keys (see {@link checkAdcpError}). */
export type AdcpErrorVerdict =
  | { readonly ok: true; readonly error: AdcpError }
  | { readonly ok: false; readonly reason: AdcpErrorInvalidReason; readonly bytes?: number };

/** The outcome of {@link validateAdcpError}: a verdict, or `unsafe` with where the prototype key is. */
export type AdcpErrorValidation = AdcpErrorVerdict | { readonly ok: false; readonly reason: 'unsafe'; readonly path: string };

/**
 * The bounds an `adcp_error` is copied under: no more values than 4096 bytes of JSON can hold, any
 * depth; its size is measured on the copy, so that a prototype key is refused as such wherever it is.
 */
const ADCP_ERROR_BOUNDS: Bounds = { maxBytes: Infinity, maxDepth: Infinity, maxNodes: MAX_ADCP_ERROR_BYTES };

/**
 * Applies the spec's `validate()` to a candidate `adcp_error`, on a plain copy read once under a bound: the copy is what is returned.
 * The rule, its unit and why the copy is bounded: docs/robustness.md, "The seller's adcp_error".
 *
 * @param candidate - The value found under an `adcp_error` key.
 * @param at - JSON Pointer of the candidate in the input, prefixed to an `unsafe` outcome's `path`.
 * @returns `{ ok: true, error }` with the copy, or `{ ok: false, reason }`; `reason: 'unsafe'`
 *   (with `path`) when the candidate holds a `__proto__` key or a `constructor` object with a
 *   `prototype` key.
 * @throws Whatever reading the candidate throws (getter, Proxy); callers wrap it.
 * @example
 * validateAdcpError({ code: 'RATE_LIMITED', recovery: 'transient' }); // { ok: true, error: { code: 'RATE_LIMITED', recovery: 'transient' } }
 */
export function validateAdcpError(candidate: unknown, at = ''): AdcpErrorValidation {
  if (!isObject(candidate)) return { ok: false, reason: 'not-object' };
  const copied = copyJson(candidate, ADCP_ERROR_BOUNDS);
  if (!copied.ok) {
    const { finding } = copied;
    switch (finding.kind) {
      case 'unsafe':
        return { ok: false, reason: 'unsafe', path: `${at}${copied.path}` };
      case 'nodes':
        return { ok: false, reason: 'too-large', bytes: finding.nodes };
      case 'not-json':
        return { ok: false, reason: 'not-json' };
      default:
        return { ok: false, reason: 'unserializable' };
    }
  }
  const bytes = compactJsonBytes(copied.copy);
  if (bytes > MAX_ADCP_ERROR_BYTES) return { ok: false, reason: 'too-large', bytes };
  const error = copied.copy as AdcpError;
  const code: unknown = error.code;
  if (typeof code !== 'string') return { ok: false, reason: 'code-not-string' };
  if (code.length === 0) return { ok: false, reason: 'code-empty' };
  if (code.length > MAX_ERROR_CODE_LENGTH) return { ok: false, reason: 'code-too-long' };
  return { ok: true, error };
}

/**
 * {@link validateAdcpError}, refusing a candidate that holds prototype keys as hostile (as a text
 * item holding them is), so the caller gets a verdict on a safe candidate or an error.
 *
 * @param candidate - The value found under an `adcp_error` key.
 * @param at - JSON Pointer of the candidate in the input, for the error's `path`.
 * @param context - The call the input was given to (decode's task and version), for the error.
 * @returns The verdict: `{ ok: true, error }` or `{ ok: false, reason }`.
 * @throws {DecodeError} `UNSAFE_JSON` for a `__proto__` key or a `constructor` object with a `prototype` key.
 * @throws Whatever reading the candidate throws (getter, Proxy); callers wrap it.
 * @example
 * checkAdcpError({ code: 'RATE_LIMITED' }); // { ok: true, error: { code: 'RATE_LIMITED' } } (a copy)
 */
export function checkAdcpError(candidate: unknown, at = '', context: ErrorContext = NO_CONTEXT): AdcpErrorVerdict {
  const result = validateAdcpError(candidate, at);
  if (!result.ok && result.reason === 'unsafe') {
    throw new DecodeError(
      'UNSAFE_JSON',
      `expected an adcp_error without __proto__ or constructor.prototype keys at ${shownPointer(result.path)}, but found one`,
      { ...context, path: result.path },
    );
  }
  return result;
}

function locationOf(
  candidate: unknown,
  source: AdcpErrorSource,
  where: { index?: number; artifactIndex?: number; words: string | undefined },
  at: string,
  context: ErrorContext,
): AdcpErrorLocation {
  const result = checkAdcpError(candidate, at, context);
  if (result.ok) return { kind: 'found', error: result.error, source, ...where };
  return {
    kind: 'invalid',
    source,
    reason: result.reason,
    ...where,
    ...(result.bytes === undefined ? {} : { bytes: result.bytes }),
  };
}

function mcpLocate(input: unknown, maxBytes: number, cursor: { at: string }, context: ErrorContext): AdcpErrorLocation {
  // McpError and other Error instances are objects too; only own properties are read.
  if (!isObject(input)) return { kind: 'none' };

  cursor.at = '/isError';
  const isError = Boolean(own(input, 'isError'));

  // 1. structuredContent.adcp_error, only with a truthy isError. Presence is truthiness, as in the
  //    spec's `structuredContent?.adcp_error`; a present-but-invalid error ends detection.
  let payload: Record<string, unknown> | undefined;
  if (isError) {
    cursor.at = '/structuredContent';
    const structured = own(input, 'structuredContent');
    if (isObject(structured)) payload = structured;
    if (typeof structured === 'object' && structured !== null) {
      cursor.at = '/structuredContent/adcp_error';
      const candidate = own(structured, 'adcp_error');
      if (candidate) {
        const at = cursor.at;
        return locationOf(candidate, 'structuredContent', { words: mcpWords(input, cursor) }, at, context);
      }
    }
  }

  // 4. JSON-RPC error.data.adcp_error (raw response or McpError), never for a CallToolResult.
  cursor.at = '/error/data/adcp_error';
  const rpc = jsonRpcErrorData(input);
  if (rpc.found) {
    const candidate = isObject(rpc.data) ? own(rpc.data, 'adcp_error') : undefined;
    cursor.at = hasOwn(input, 'error') ? '/error/message' : '/message';
    const words = jsonRpcWords(input);
    return candidate
      ? locationOf(candidate, 'jsonrpc_error', { words }, hasOwn(input, 'error') ? '/error/data/adcp_error' : '/data/adcp_error', context)
      : { kind: 'none', words };
  }

  // 5. Text fallback, only for isError results, items in order; the first JSON object holding a
  //    truthy adcp_error decides. Items are size-checked against the same limit as success text.
  if (!isError) return { kind: 'none' };
  cursor.at = '/content';
  const content = own(input, 'content');
  if (!Array.isArray(content)) return { kind: 'none' };
  const budget: TextBudget = { used: 0, context };
  let words: string | undefined;
  for (const { index, text } of textItems(content, cursor)) {
    words ??= textWords(text);
    if (typeof text !== 'string' || text === '') continue;
    const parsed = readTextItem(budget, text, maxBytes, cursor.at);
    if (!parsed.ok || !isObject(parsed.value)) continue;
    payload ??= parsed.value;
    const candidate = own(parsed.value, 'adcp_error');
    if (candidate) {
      const at = `${cursor.at}/adcp_error`;
      // Words after the error's item are read only when none came before it.
      return locationOf(candidate, 'text_fallback', { index, words: words ?? mcpWords(input, cursor) }, at, context);
    }
  }
  return { kind: 'none', words, payload };
}

/**
 * Finds the AdCP error in an MCP tool result or JSON-RPC error, reporting where it was found or why
 * a present `adcp_error` was rejected.
 *
 * @param resultOrJsonRpcError - A `CallToolResult`, a JSON-RPC error response, or an `McpError`.
 * @param maxBytes - The largest text item, in UTF-8 bytes (resolved by the edge).
 * @param context - The call the input was given to (decode's task and version), for the errors.
 * @returns A {@link AdcpErrorLocation}.
 * @throws {DecodeError} `UNSAFE_JSON` for prototype keys in a text item or in the `adcp_error`;
 *   `DUPLICATE_KEY` for a text item that repeats a key; `MALFORMED_ENVELOPE` when reading the input
 *   throws; `TOO_LARGE` when the text items examined
 *   hold more than 4 × `maxBytes` together.
 * @throws {DecodeError} `INVALID_OPTION` when `maxBytes` is not a non-negative safe integer or `Infinity`.
 * @example
 * locateMcpError({ isError: true, content: [], structuredContent: { adcp_error: { code: 'RATE_LIMITED' } } }, 4_194_304);
 * // { kind: 'found', error: { code: 'RATE_LIMITED' }, source: 'structuredContent' }
 */
export function locateMcpError(
  resultOrJsonRpcError: unknown,
  maxBytes: number = DEFAULT_BOUNDS.maxBytes,
  context: ErrorContext = NO_CONTEXT,
): AdcpErrorLocation {
  return readInput((cursor) => mcpLocate(resultOrJsonRpcError, maxBytes, cursor, context), context);
}

/**
 * Extracts a validated `adcp_error` from an MCP tool result (`isError` results only) or a JSON-RPC
 * error (`error.data.adcp_error`, including the MCP SDK's `McpError`), or `null`.
 *
 * @param resultOrJsonRpcError - A `CallToolResult`, a JSON-RPC error response, or an `McpError`.
 * @param options - `maxBytes` for each text item (default 4 MiB, UTF-8 bytes).
 * @returns A plain copy of the seller's `adcp_error` (read once, fields as sent), or `null`.
 * @throws {DecodeError} `UNSAFE_JSON` for prototype keys in a text item or in the `adcp_error`;
 *   `DUPLICATE_KEY` for a text item that repeats a key; `MALFORMED_ENVELOPE` when reading the input
 *   throws; `TOO_LARGE` when the text items examined
 *   hold more than 4 × `maxBytes` together.
 * @throws {DecodeError} `INVALID_OPTION` when `maxBytes` is not a non-negative safe integer or `Infinity`.
 * @example
 * extractMcpError({ jsonrpc: '2.0', id: 1, error: { code: -32029, message: 'x', data: { adcp_error: { code: 'RATE_LIMITED' } } } });
 * // { code: 'RATE_LIMITED' }
 */
export function extractMcpError(resultOrJsonRpcError: unknown, options?: McpExtractOptions): AdcpError | null {
  const location = locateMcpError(resultOrJsonRpcError, resolveMaxBytes('extractMcpError', options));
  return location.kind === 'found' ? location.error : null;
}

function a2aLocate(input: unknown, cursor: { at: string }, context: ErrorContext): AdcpErrorLocation {
  // Same single unwrap as success extraction, so `{ task: {...} }` deliveries work and nested
  // envelopes stay rejected.
  const unwrapped = unwrapA2aEnvelope(input);
  if (unwrapped.kind !== 'object') return { kind: 'none' };
  const task = unwrapped.value;
  const prefix = unwrapped.envelope === undefined ? '' : `/${unwrapped.envelope}`;
  const words = () => {
    cursor.at = prefix;
    return a2aWords(task);
  };

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
          { index: found.index, artifactIndex, words: words() },
          `${prefix}/artifacts/${artifactIndex}/parts/${found.index}/data/adcp_error`,
          context,
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
      { index: found.index, words: words() },
      `${prefix}/status/message/parts/${found.index}/data/adcp_error`,
      context,
    );
  // A task that ended failed without an adcp_error: its words are all the seller said.
  const state = isObject(status) ? classifyA2aState(own(status, 'state')) : null;
  return state !== null && isFailedStatus(state.state) ? { kind: 'none', words: words() } : { kind: 'none' };
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
 * @param context - The call the input was given to (decode's task and version), for the errors.
 * @returns A {@link AdcpErrorLocation}.
 * @throws {DecodeError} `UNSAFE_JSON` for prototype keys in the `adcp_error`; `MALFORMED_ENVELOPE`
 *   when reading the input throws.
 * @example
 * locateA2aError({ status: { state: 'failed' }, artifacts: [{ parts: [{ kind: 'data', data: { adcp_error: { code: 'X' } } }] }] });
 * // { kind: 'found', error: { code: 'X' }, source: 'artifact', index: 0, artifactIndex: 0 }
 */
export function locateA2aError(input: unknown, context: ErrorContext = NO_CONTEXT): AdcpErrorLocation {
  return readInput((cursor) => a2aLocate(input, cursor, context), context);
}

/**
 * Extracts a validated `adcp_error` from an A2A response: artifacts first (all of them, in order),
 * then `status.message.parts`, or `null`.
 *
 * @param input - A Task, TaskStatusUpdateEvent, or single-key envelope (anything is accepted).
 * @returns A plain copy of the seller's `adcp_error` (read once, fields as sent), or `null`.
 * @throws {DecodeError} `UNSAFE_JSON` for prototype keys in the `adcp_error`; `MALFORMED_ENVELOPE`
 *   when reading the input throws.
 * @example
 * extractA2aError({ status: { state: 'TASK_STATE_FAILED' }, artifacts: [{ parts: [{ data: { adcp_error: { code: 'X' } } }] }] });
 * // { code: 'X' }
 */
export function extractA2aError(input: unknown): AdcpError | null {
  const location = locateA2aError(input);
  return location.kind === 'found' ? location.error : null;
}
