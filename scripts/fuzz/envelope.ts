/** The envelopes: how each transport carries a payload to decode(). */
import type { Ctx, Json } from './context.js';
import { stringify } from './stringify.js';

/** The envelopes and their weights. */
const ENVELOPES = [
  [14, 'mcp-structured'],
  [14, 'mcp-text'],
  [5, 'mcp-prose-then-text'],
  [4, 'mcp-both'],
  [6, 'mcp-error'],
  [4, 'mcp-error-text'],
  [4, 'rpc-result'],
  [5, 'rpc-error'],
  [8, 'a2a03-task'],
  [8, 'a2a10-task'],
  [6, 'a2a10-envelope'],
  [6, 'a2a10-status'],
  [2, 'a2a-nested'],
  [6, 'payload'],
  [2, 'garbage'],
] as const;

/** A wrapped payload, and the JSON texts in it that the text mutators may damage. */
export interface Wrapped {
  readonly kind: string;
  readonly input: unknown;
  readonly transport?: string;
  readonly texts: Array<{ holder: Json; key: string }>;
}

/**
 * Wraps a payload the way one transport carries it (MCP, JSON-RPC, A2A 0.3 and 1.0, bare, garbage).
 *
 * @param ctx - The case's context.
 * @param payload - The payload.
 * @returns The envelope, with the texts to damage.
 * @throws What a hostile value in the payload throws (the case then sends the bare payload).
 * @example
 * const env = envelope(ctx, payload);
 */
export function envelope(ctx: Ctx, payload: Json): Wrapped {
  const { rng } = ctx;
  const kind = rng.weighted(ENVELOPES);
  ctx.steps.push(`envelope ${kind}`);
  const textItem = (text: string): Json => ({ type: 'text', text });
  const state = rng.pick([
    'completed',
    'TASK_STATE_COMPLETED',
    'failed',
    'TASK_STATE_FAILED',
    'working',
    'TASK_STATE_WORKING',
    'input-required',
    'TASK_STATE_INPUT_REQUIRED',
    'submitted',
    'rejected',
    'canceled',
    'TASK_STATE_AUTH_REQUIRED',
    'TASK_STATE_PAUSED',
    'COMPLETED',
  ]);
  switch (kind) {
    case 'mcp-structured':
      return { kind, input: { content: [textItem('Done.')], structuredContent: payload }, texts: [] };
    case 'mcp-text': {
      const item = textItem(stringify(payload));
      return { kind, input: { content: [item] }, texts: [{ holder: item, key: 'text' }] };
    }
    case 'mcp-prose-then-text': {
      const item = textItem(stringify(payload));
      return { kind, input: { content: [textItem('Here is what I found.'), item] }, texts: [{ holder: item, key: 'text' }] };
    }
    case 'mcp-both': {
      const item = textItem(stringify(payload));
      return { kind, input: { content: [item], structuredContent: payload }, texts: [{ holder: item, key: 'text' }] };
    }
    case 'mcp-error': {
      const item = textItem(stringify({ adcp_error: payload['adcp_error'] ?? { code: 'RATE_LIMITED' } }));
      return {
        kind,
        input: {
          isError: rng.pick([true, 'false', 1, {}, 'true']),
          content: [item],
          structuredContent: rng.chance(0.5) ? payload : { adcp_error: payload },
        },
        texts: [{ holder: item, key: 'text' }],
      };
    }
    case 'mcp-error-text': {
      const item = textItem(stringify({ adcp_error: payload }));
      return { kind, input: { isError: true, content: [item] }, texts: [{ holder: item, key: 'text' }] };
    }
    case 'rpc-result':
      return { kind, input: { jsonrpc: '2.0', id: 1, result: { content: [], structuredContent: payload } }, texts: [] };
    case 'rpc-error':
      return {
        kind,
        input: {
          jsonrpc: '2.0',
          id: 'r',
          error: {
            code: rng.pick([-32029, -32000, -32603, 5, '5']),
            message: 'x',
            data: rng.chance(0.7) ? { adcp_error: payload } : payload,
          },
        },
        texts: [],
      };
    case 'a2a03-task':
      return {
        kind,
        input: {
          kind: 'task',
          id: 't',
          status: { state },
          artifacts: [
            {
              parts: [
                { kind: 'text', text: 'x' },
                { kind: 'data', data: payload },
              ],
            },
          ],
        },
        texts: [],
      };
    case 'a2a10-task':
      return {
        kind,
        input: {
          id: 't',
          status: { state, message: { parts: [{ data: payload }] } },
          artifacts: rng.chance(0.7) ? [{ parts: [{ data: payload }] }] : [],
        },
        texts: [],
      };
    case 'a2a10-envelope':
      return {
        kind,
        input: { task: { id: 't', status: { state }, artifacts: [{ parts: [{ text: 'x' }, { data: payload }] }] } },
        texts: [],
      };
    case 'a2a10-status':
      return { kind, input: { statusUpdate: { taskId: 't', status: { state, message: { parts: [{ data: payload }] } } } }, texts: [] };
    case 'a2a-nested':
      return { kind, input: { task: { task: { status: { state }, artifacts: [{ parts: [{ data: payload }] }] } } }, texts: [] };
    case 'payload':
      return { kind, input: payload, transport: 'payload', texts: [] };
    default:
      return { kind, input: rng.pick<unknown>([null, 0, '', 'completed', [], [payload], payload, true]), texts: [] };
  }
}
