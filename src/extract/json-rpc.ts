/**
 * JSON-RPC 2.0 framing around a seller's answer.
 */
import { hasOwn, isObject } from '../json/own.js';

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
