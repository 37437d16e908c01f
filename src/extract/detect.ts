/**
 * Which transport a seller's answer came over, read from its shape: the one rule decode()'s
 * `transport: 'auto'` and the command line share.
 */
import { looksLikeA2a } from './a2a.js';
import { looksLikeJsonRpcError } from './json-rpc.js';
import { looksLikeMcp } from './mcp.js';

/**
 * The transport an input's shape says it came over: `mcp` for a CallToolResult or a JSON-RPC
 * error (raw, or the MCP SDK's McpError), `a2a` for an A2A task, event or envelope; `undefined`
 * for anything else (a bare payload). A raw JSON-RPC success is unwrapped by the caller first
 * (`unwrapJsonRpcResult`), since its `result` is the answer.
 *
 * @param input - The answer, its JSON-RPC success framing removed.
 * @returns `'mcp'`, `'a2a'`, or `undefined`.
 * @throws Never: the shape checks catch what reading throws.
 * @example
 * detectTransport({ content: [{ type: 'text', text: '{}' }] }); // 'mcp'
 * detectTransport({ products: [] }); // undefined
 */
export function detectTransport(input: unknown): 'mcp' | 'a2a' | undefined {
  if (looksLikeJsonRpcError(input) || looksLikeMcp(input)) return 'mcp';
  if (looksLikeA2a(input)) return 'a2a';
  return undefined;
}
