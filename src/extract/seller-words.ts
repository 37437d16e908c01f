/**
 * What a seller said in words when a task failed, read by the extractors during the scan they
 * already make and handed back with the location they found, so that a failure never reads the
 * answer again: the MCP `isError` result's text (the first item that is not JSON data), a JSON-RPC
 * error's `message`, or an A2A task's text part (the first artifact's, else the status message's,
 * as a2a-response-format.mdx's extraction reads it). Kept on the TaskFailedError, escaped and bounded.
 */
import { storedIndexes } from '../bounds/bounds.js';
import { shownText } from '../errors/format.js';
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

/**
 * A JSON-RPC error's message, from a raw response (`error.message`) or an error object (McpError's own `message`), shown.
 *
 * @param input - The JSON-RPC error response or error object.
 * @returns The words, or `undefined`.
 * @throws Whatever reading the input throws; the extractors run under readInput.
 * @example
 * jsonRpcWords({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'Budget too low' } }); // 'Budget too low'
 */
export function jsonRpcWords(input: Record<string, unknown>): string | undefined {
  const error = own(input, 'error');
  if (isObject(error)) return shown(own(error, 'message'));
  const message = input instanceof Error ? input.message : own(input, 'message');
  return shown(typeof message === 'string' ? message.replace(SDK_PREFIX, '') : message);
}

/**
 * The words of one MCP text item, when they are words, not JSON data (`{` or `[` first), shown.
 *
 * @param text - The item's `text`, as stored.
 * @returns The words, or `undefined`.
 * @throws Never.
 * @example
 * textWords('Budget too low'); // 'Budget too low'
 */
export function textWords(text: unknown): string | undefined {
  // A tool handler's thrown McpError reaches the result's text with the SDK's prefix.
  return typeof text === 'string' && !/^\s*[{[]/.test(text) ? shown(text.replace(SDK_PREFIX, '')) : undefined;
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

/**
 * An A2A task's words: the first artifact's text part, else the status message's, shown.
 *
 * @param task - The task, unwrapped from its envelope.
 * @returns The words, or `undefined`.
 * @throws Whatever reading the task throws; the extractors run under readInput.
 * @example
 * a2aWords({ status: { state: 'failed', message: { parts: [{ kind: 'text', text: 'Out of stock' }] } } }); // 'Out of stock'
 */
export function a2aWords(task: Record<string, unknown>): string | undefined {
  const artifacts = own(task, 'artifacts');
  const first: unknown = Array.isArray(artifacts) ? artifacts[0] : undefined;
  const fromArtifact = isObject(first) ? textPart(own(first, 'parts')) : undefined;
  if (fromArtifact !== undefined) return fromArtifact;
  const status = own(task, 'status');
  const message = isObject(status) ? own(status, 'message') : undefined;
  return isObject(message) ? textPart(own(message, 'parts')) : undefined;
}

/** Most text items looked at for words (a sparse list costs what it holds), as for A2A parts. */
export const MAX_WORDS_SCANNED = MAX_SCANNED;
