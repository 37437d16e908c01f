/**
 * Faults that are not the seller's: what decode() may be handed that never came over the wire (a
 * DecodeError raised earlier, a Promise, the MCP SDK client's own request timeout), and whether a
 * caller's input can run the caller's code when read (so that an exception escaping decode() is
 * blamed on the input or on adcp-decode, never on the seller).
 */

import { DecodeError, describeThrown, LimitError } from '../errors/errors.js';
import { SDK_REQUEST_TIMEOUT } from '../extract/json-rpc.js';
import { isA2aJsonRpcError, isAbortError, thrownRefusal } from '../extract/thrown.js';
import { hasOwn, own } from '../json/own.js';
import type { Version } from '../schema/versions.js';

/**
 * The error decode() must throw for an input that is no seller's answer, or undefined for any other input.
 * Which inputs, and how the SDK's own timeout is told from a seller's: docs/robustness.md, "Inputs that are no seller's answer".
 *
 * @param input - What decode() was given.
 * @param task - The task, for the new errors.
 * @param version - The requested version, if any, for the new errors.
 * @returns The error to throw, or undefined.
 * @throws Never.
 * @example
 * localFault(client.callTool(params), 'get_products', undefined)?.code; // 'INVALID_INPUT'
 */
export function localFault(input: unknown, task: string | undefined, version: Version | undefined): DecodeError | undefined {
  try {
    if (typeof input !== 'object' || input === null) return undefined;
    if (input instanceof Error)
      return input instanceof DecodeError ? input : (sdkTimeout(input, task, version) ?? thrownFault(input, task, version));
    if (isAbortError(input)) return thrownFault(input, task, version);
    const then: unknown = (input as { then?: unknown }).then;
    if (typeof then === 'function') {
      const what = input instanceof Promise ? 'a Promise' : 'a thenable';
      return new DecodeError(
        'INVALID_INPUT',
        `expected the seller's answer (an MCP CallToolResult, a JSON-RPC error or an A2A task); got ${what}: did you forget await?`,
        { task, version },
      );
    }
  } catch {
    // Reading the input threw: not a local fault; the extractors report the input itself.
  }
  return undefined;
}

/**
 * An error a client threw that cannot be a seller's JSON-RPC error: the caller's abort, an HTTP
 * refusal (a status, not a JSON-RPC code), or any Error without a JSON-RPC code (own integer
 * `code`, or @a2a-js/sdk's `envelopeCode`): a failed connection, a client bug. INVALID_INPUT:
 * decode reads answers, and blaming the seller's envelope for one of these would misreport.
 */
function thrownFault(error: object, task: string | undefined, version: Version | undefined): DecodeError | undefined {
  const opts = { task, version, cause: error };
  const name = describeThrown(error);
  if (isAbortError(error) || sdkWrappedAbort(error))
    return new DecodeError(
      'INVALID_INPUT',
      `expected the seller's answer; got the caller's own abort (${name}): rethrow it, it is no answer`,
      opts,
    );
  const refusal = thrownRefusal(error);
  if (refusal !== undefined)
    return new DecodeError(
      'INVALID_INPUT',
      `expected the seller's answer; got an HTTP refusal the client threw (${refusal.status === undefined ? 'an unexpected content type' : `status ${refusal.status}`}), no JSON-RPC error: callTask types it (TransportError)`,
      opts,
    );
  if (Number.isInteger(own(error, 'code')) || isA2aJsonRpcError(error)) return undefined;
  return new DecodeError(
    'INVALID_INPUT',
    `expected the seller's answer; got ${name} thrown on the client's side, with no JSON-RPC error code: no answer to decode`,
    opts,
  );
}

/** The MCP SDK's wrap of an aborted request's reason: McpError -32001 `MCP error -32001: AbortError: …`, no data. */
function sdkWrappedAbort(error: object): boolean {
  if (own(error, 'code') !== SDK_REQUEST_TIMEOUT || own(error, 'data') !== undefined) return false;
  const { message } = error as { message?: unknown };
  return typeof message === 'string' && /^MCP error -32001: (?:AbortError|TimeoutError)\b/.test(message);
}

function sdkTimeout(error: Error, task: string | undefined, version: Version | undefined): LimitError | undefined {
  if (!hasOwn(error, 'code') || (error as { code?: unknown }).code !== SDK_REQUEST_TIMEOUT) return undefined;
  if (hasOwn(error, 'error') || hasOwn(error, 'result') || !hasOwn(error, 'data')) return undefined;
  const data: unknown = (error as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const fields = data as Record<string, unknown>;
  const keys = Object.keys(fields).sort().join(',');
  const message = error.message;
  const opts = { task, version, cause: error };
  if (message === `MCP error ${SDK_REQUEST_TIMEOUT}: Request timed out` && keys === 'timeout' && isMs(fields.timeout)) {
    const limit = fields.timeout;
    // The SDK's timer fires no earlier than the limit and reports no elapsed time: `actual` is that lower bound.
    return new LimitError(
      'TIMEOUT',
      `${task ?? 'the call'} got no answer within ${limit} ms: the MCP client's own request timeout (McpError -32001 raised by the SDK, not sent by the seller)`,
      { unit: 'ms', limit, actual: limit },
      opts,
    );
  }
  if (
    message === `MCP error ${SDK_REQUEST_TIMEOUT}: Maximum total timeout exceeded` &&
    keys === 'maxTotalTimeout,totalElapsed' &&
    isMs(fields.maxTotalTimeout) &&
    isMs(fields.totalElapsed)
  ) {
    return new LimitError(
      'TIMEOUT',
      `${task ?? 'the call'} got no final answer within ${fields.maxTotalTimeout} ms (${fields.totalElapsed} ms elapsed): the MCP client's own maxTotalTimeout (McpError -32001 raised by the SDK, not sent by the seller)`,
      { unit: 'ms', limit: fields.maxTotalTimeout, actual: fields.totalElapsed },
      opts,
    );
  }
  return undefined;
}

function isMs(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** How many members {@link inputMayThrow} looks at before it stops and answers "it may". */
const PROBE_LIMIT = 1_000_000;

/**
 * Whether reading `input` can run the caller's code (an accessor, a read that throws, too many members to look at);
 * asked only after an exception.
 * What it sees and what it cannot: docs/robustness.md, "Exceptions that escape decoding".
 *
 * @param input - What decode() was given.
 * @returns True when a throw met while reading it may have been the input's; false for plain data, whose reading cannot throw.
 * @throws Never.
 * @example
 * inputMayThrow({ content: [] }); // false
 * inputMayThrow(Object.defineProperty({}, 'content', { get: () => [] })); // true
 */
export function inputMayThrow(input: unknown): boolean {
  try {
    const seen = new Set<object>();
    const stack: unknown[] = [input];
    let members = 0;
    while (stack.length > 0) {
      const value = stack.pop();
      if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) continue;
      seen.add(value);
      const isError = value instanceof Error;
      for (const key of Reflect.ownKeys(value)) {
        if (++members > PROBE_LIMIT) return true;
        // An Error's stack may be an accessor (newer V8); decode never reads it.
        if (isError && key === 'stack') continue;
        const descriptor = Reflect.getOwnPropertyDescriptor(value, key);
        if (descriptor === undefined) continue;
        if (descriptor.get !== undefined || descriptor.set !== undefined) return true;
        // Read as decode reads it, so that a Proxy's get trap runs (a trap that throws now may have thrown before).
        stack.push((value as Record<PropertyKey, unknown>)[key]);
      }
    }
    return false;
  } catch {
    return true;
  }
}
