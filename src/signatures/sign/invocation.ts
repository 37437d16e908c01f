/**
 * What a request invokes, read from its JSON-RPC body as the seller's verifier reads it
 * (security.mdx, "Protocol-method coverage"): an MCP `tools/call` invokes the AdCP operation its
 * `params.name` names; an A2A send invokes the skill its message's DataPart names; any other
 * JSON-RPC method is a protocol method (`tasks/get`, `tasks/cancel`). The two are never crossed.
 */
import { isObject, own } from '../../json/own.js';

/** One invocation: an AdCP operation, or a JSON-RPC protocol method. */
export interface Invocation {
  readonly kind: 'operation' | 'method';
  readonly name: string;
}

/** The A2A send methods (1.0 and 0.3 names): their operation is the skill of the message's DataPart. */
const A2A_SENDS: ReadonlySet<string> = new Set(['SendMessage', 'SendStreamingMessage', 'message/send', 'message/stream']);

/** The skills a message's DataParts name (1.0 `{ data }` and 0.3 `{ kind: 'data', data }` alike). */
function skillsOf(params: unknown): Invocation[] {
  const message = isObject(params) ? own(params, 'message') : undefined;
  const parts = isObject(message) ? own(message, 'parts') : undefined;
  if (!Array.isArray(parts)) return [];
  const found: Invocation[] = [];
  for (const part of parts) {
    const data = isObject(part) ? own(part, 'data') : undefined;
    const skill = isObject(data) ? own(data, 'skill') : undefined;
    if (typeof skill === 'string') found.push({ kind: 'operation', name: skill });
  }
  return found;
}

function ofCall(call: unknown): Invocation[] {
  const method = isObject(call) ? own(call, 'method') : undefined;
  if (typeof method !== 'string') return [];
  const params = own(call as Record<string, unknown>, 'params');
  if (method === 'tools/call') {
    const name = isObject(params) ? own(params, 'name') : undefined;
    return typeof name === 'string' ? [{ kind: 'operation', name }] : [];
  }
  if (A2A_SENDS.has(method)) return skillsOf(params);
  return [{ kind: 'method', name: method }];
}

/**
 * What a request body invokes.
 *
 * @param body - The body bytes as sent, or undefined for none.
 * @returns Its invocations (a JSON-RPC batch may hold several); none for a body that is not JSON-RPC.
 * @example
 * invocationsOf(bytes); // [{ kind: 'operation', name: 'create_media_buy' }]
 */
export function invocationsOf(body: Uint8Array | undefined): Invocation[] {
  if (body === undefined || body.length === 0) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return []; // not JSON: no JSON-RPC call to classify (an SSE GET, a form): only a seller's "all" posture signs it
  }
  return Array.isArray(parsed) ? parsed.flatMap(ofCall) : ofCall(parsed);
}
