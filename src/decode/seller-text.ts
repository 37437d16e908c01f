/**
 * What a seller said in words when a task failed, kept on the TaskFailedError (escaped and
 * bounded by shownText) so a log says more than "failed": the MCP `isError` result's text (the
 * first item that is not JSON data), a JSON-RPC error's `message`, or an A2A task's text part (the
 * first artifact's, else the status message's, as a2a-response-format.mdx's extraction reads it).
 */
import { storedIndexes } from '../bounds/bounds.js';
import { shownText } from '../errors/format.js';
import { unwrapA2aEnvelope } from '../extract/a2a.js';
import { looksLikeJsonRpcError } from '../extract/json-rpc.js';
import { isObject, own } from '../json/own.js';

/** Longest seller text kept on an error. */
export const MAX_SELLER_TEXT = 1000;

/** How many stored content items or parts are looked at for text (a sparse list costs what it holds); a failure's words come first. */
const MAX_SCANNED = 64;

/**
 * The MCP SDK's prefix on an McpError's message (`MCP error -32603: `), not the seller's words; a
 * server on the same SDK adds its own before sending, so it can come twice.
 */
const SDK_PREFIX = /^(?:MCP error -?\d{1,6}: ){1,4}/;

/** `text` shown, or undefined when there is nothing to show. */
function shown(text: unknown): string | undefined {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  return shownText(text, MAX_SELLER_TEXT);
}

/** A JSON-RPC error's message, from a raw response (`error.message`) or an error object (McpError's own `message`). */
function jsonRpcMessage(input: Record<string, unknown>): string | undefined {
  const error = own(input, 'error');
  if (isObject(error)) return shown(own(error, 'message'));
  const message = input instanceof Error ? input.message : own(input, 'message');
  return shown(typeof message === 'string' ? message.replace(SDK_PREFIX, '') : message);
}

/** The first text item of a CallToolResult that is words, not JSON data (`{` or `[` first). */
function mcpText(input: Record<string, unknown>): string | undefined {
  const content = own(input, 'content');
  if (!Array.isArray(content)) return undefined;
  for (const i of storedIndexes(content).slice(0, MAX_SCANNED)) {
    const item: unknown = content[i];
    if (!isObject(item) || own(item, 'type') !== 'text') continue;
    const text = own(item, 'text');
    if (typeof text === 'string' && !/^\s*[{[]/.test(text)) {
      // A tool handler's thrown McpError reaches the result's text with the SDK's prefix.
      const words = shown(text.replace(SDK_PREFIX, ''));
      if (words !== undefined) return words;
    }
  }
  return undefined;
}

/** The first part with a string `text` (an A2A TextPart, 0.3 or 1.0) among `parts`. */
function textPart(parts: unknown): string | undefined {
  if (!Array.isArray(parts)) return undefined;
  for (const i of storedIndexes(parts).slice(0, MAX_SCANNED)) {
    const part: unknown = parts[i];
    const words = isObject(part) ? shown(own(part, 'text')) : undefined;
    if (words !== undefined) return words;
  }
  return undefined;
}

/** An A2A task's text: the first artifact's text part, else the status message's. */
function a2aText(input: unknown): string | undefined {
  const unwrapped = unwrapA2aEnvelope(input);
  if (unwrapped.kind !== 'object') return undefined;
  const task = unwrapped.value;
  const artifacts = own(task, 'artifacts');
  const first: unknown = Array.isArray(artifacts) ? artifacts[0] : undefined;
  const fromArtifact = isObject(first) ? textPart(own(first, 'parts')) : undefined;
  if (fromArtifact !== undefined) return fromArtifact;
  const status = own(task, 'status');
  const message = isObject(status) ? own(status, 'message') : undefined;
  return isObject(message) ? textPart(own(message, 'parts')) : undefined;
}

/**
 * The seller's words in a failed answer, shown (escaped, at most {@link MAX_SELLER_TEXT}
 * characters). Best effort: the failure is already established, so an input that cannot be read
 * here yields `undefined` rather than a second error.
 *
 * @param input - The answer, as decode() was given it.
 * @param transport - Which transport it came over.
 * @returns The text, or `undefined` when the seller said nothing in words.
 * @throws Never.
 * @example
 * sellerText({ isError: true, content: [{ type: 'text', text: 'Budget too low' }] }, 'mcp'); // 'Budget too low'
 */
export function sellerText(input: unknown, transport: 'mcp' | 'a2a'): string | undefined {
  try {
    if (transport === 'a2a') return a2aText(input);
    if (!isObject(input)) return undefined;
    return looksLikeJsonRpcError(input) ? jsonRpcMessage(input) : mcpText(input);
  } catch {
    return undefined;
  }
}
