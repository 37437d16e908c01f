/**
 * JSON-RPC 2.0 around a seller's answer: the framing of a success, how an error is recognised and
 * read, the codes transport-errors.mdx reserves, and the code the MCP SDK raises for its own timeout.
 */
import { hasOwn, isObject, own } from '../json/own.js';
import { isA2aJsonRpcError } from './thrown.js';

/** The JSON-RPC code the MCP SDK's Protocol uses for its own request timeout (ErrorCode.RequestTimeout). */
export const SDK_REQUEST_TIMEOUT = -32001;

/**
 * The `result` of a raw JSON-RPC 2.0 success response (the CallToolResult or A2A task inside it),
 * or the input unchanged when it is not one.
 *
 * @param input Anything.
 * @returns `input.result` for `{ jsonrpc: '2.0', result }` without an own `error`; otherwise `input`.
 * @throws Whatever a getter or Proxy trap on `input` throws.
 * @example
 * unwrapJsonRpcResult({ jsonrpc: '2.0', id: 1, result: { content: [] } }); // { content: [] }
 */
export function unwrapJsonRpcResult(input: unknown): unknown {
  if (isObject(input) && hasOwn(input, 'jsonrpc') && input.jsonrpc === '2.0' && hasOwn(input, 'result') && !hasOwn(input, 'error')) {
    return input.result;
  }
  return input;
}

function isCallToolResult(value: Record<string, unknown>): boolean {
  return hasOwn(value, 'content') || hasOwn(value, 'structuredContent') || hasOwn(value, 'isError');
}

/**
 * The `data` of a JSON-RPC error, whether given the whole response or the error object (McpError,
 * or @a2a-js/sdk's JsonRpcTransportError, its code in `envelopeCode`).
 */
export function jsonRpcErrorData(value: Record<string, unknown>): { found: boolean; data: unknown } {
  // A CallToolResult is a JSON-RPC *result*; a seller-controlled `error` key inside it is not an error.
  if (isCallToolResult(value) || hasOwn(value, 'result')) return { found: false, data: undefined };
  const error = own(value, 'error');
  if (isObject(error) && typeof own(error, 'code') === 'number') return { found: true, data: own(error, 'data') };
  if (typeof own(value, 'code') === 'number' || isA2aJsonRpcError(value)) return { found: true, data: own(value, 'data') };
  return { found: false, data: undefined };
}

/**
 * The numeric JSON-RPC error code of a JSON-RPC error response (`error.code`) or a bare error
 * object such as the MCP SDK's `McpError` (`code`), or undefined when the input is neither.
 *
 * @param input - Anything.
 * @returns The code, or `undefined`; reading never throws out of this function.
 * @throws Never.
 * @example
 * jsonRpcErrorCode({ jsonrpc: '2.0', id: 1, error: { code: -32029, message: 'Rate limit exceeded' } }); // -32029
 */
export function jsonRpcErrorCode(input: unknown): number | undefined {
  try {
    if (!isObject(input) || !jsonRpcErrorData(input).found) return undefined;
    const error = own(input, 'error');
    const code = isObject(error) ? own(error, 'code') : isA2aJsonRpcError(input) ? own(input, 'envelopeCode') : own(input, 'code');
    return typeof code === 'number' ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * transport-errors.mdx "Reserved JSON-RPC Codes": the AdCP error code each reserved JSON-RPC code
 * stands for, used to classify a JSON-RPC error that arrives without `data.adcp_error`.
 */
export const RESERVED_JSON_RPC_CODES: Readonly<Record<number, string>> = {
  [-32029]: 'RATE_LIMITED',
  [-32028]: 'AUTH_MISSING',
  [-32027]: 'SERVICE_UNAVAILABLE',
};

/**
 * Tells whether a value is a JSON-RPC error: a response `{ jsonrpc?, id?, error: { code: number, ... } }`
 * or a bare error object with a numeric `code` (e.g. the MCP SDK's `McpError`), and not a CallToolResult.
 *
 * @param input - Anything.
 * @returns `true` for a JSON-RPC error; `false` otherwise, including when reading throws.
 * @throws Never.
 * @example
 * looksLikeJsonRpcError({ jsonrpc: '2.0', id: 1, error: { code: -32029, message: 'Rate limit exceeded' } }); // true
 */
export function looksLikeJsonRpcError(input: unknown): boolean {
  try {
    return typeof input === 'object' && input !== null && !Array.isArray(input) && jsonRpcErrorData(input as Record<string, unknown>).found;
  } catch {
    return false;
  }
}
