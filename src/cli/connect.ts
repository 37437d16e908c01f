/**
 * Connecting to a seller agent: one bounded fetch for every request, carrying the user's headers and
 * counting the bytes of answers, and the transport given or detected.
 *
 * Transport `auto`: the URL is tried as an MCP endpoint (`initialize`); when something answers but
 * not as MCP (an HTTP error status, a JSON-RPC error, an answer that is not MCP), the A2A agent card
 * is read from it (`.well-known/agent-card.json` resolved against the URL, as the A2A SDK resolves
 * it) and, if there is one, A2A is spoken. A URL ending in `.json` is the card itself. A failed
 * connection or a bound passed ends there.
 */
import { DecodeError, LimitError } from '../errors/errors.js';
import { boundedFetch } from '../fetch/index.js';
import { connectA2a, readCard } from './a2a-agent.js';
import { type Agent, type AgentOptions, type Fetch, NotMcp } from './agent.js';
import { connectMcp } from './mcp-agent.js';

/** Room above the payload bound for an envelope, a text copy of the payload, and escaping (as for a saved answer). */
const RESPONSE_SLACK_BYTES = 1024 * 1024;

/** Counts the bytes of the bodies of POST responses (the answers) as the client reads them. */
function metered(inner: Fetch, meter: { bytes: number }): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (method !== 'POST' || response.body === null) return response;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        meter.bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(counter), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** The user's headers on every request, over those the SDK sets. */
function withHeaders(headers: AgentOptions['headers']): Fetch {
  return (input, init) => {
    const merged = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((value, name) => {
      merged.set(name, value);
    });
    for (const [name, value] of headers) merged.set(name, value);
    return fetch(input, { ...init, headers: merged });
  };
}

/** The fetch every request goes through, bounded, and the meter it counts answers on. */
function wire(options: AgentOptions): { fetch: Fetch; meter: { bytes: number } } {
  const meter = { bytes: 0 };
  const bounded = boundedFetch({
    fetch: withHeaders(options.headers),
    maxBytes: 2 * options.maxBytes + RESPONSE_SLACK_BYTES,
    timeoutMs: options.timeoutMs,
  });
  return { fetch: metered(bounded, meter), meter };
}

/**
 * Connects to the agent over its transport (`auto`: see the module's comment).
 *
 * @param options - Where, how and within which bounds.
 * @returns The connected agent.
 * @throws {UsageError} The transport's SDK is not installed.
 * @throws {DecodeError} A `TransportError` when the agent cannot be reached or is not an agent of
 *   the transport; a `LimitError` for a bound passed.
 * @example
 * const agent = await connect({ url, transport: 'auto', headers: [], maxBytes, timeoutMs, sdks: INSTALLED, client });
 */
export async function connect(options: AgentOptions): Promise<Agent> {
  const { fetch, meter } = wire(options);
  const cardUrl = options.url.pathname.endsWith('.json') ? options.url : new URL('.well-known/agent-card.json', options.url);
  const a2a = (card: Record<string, unknown>): Promise<Agent> => connectA2a(options, card, cardUrl, fetch, meter);
  if (options.transport === 'a2a' || (options.transport === 'auto' && cardUrl === options.url)) return a2a(await readCard(cardUrl, fetch));
  if (options.transport === 'mcp') {
    try {
      return await connectMcp(options, fetch, meter);
    } catch (error) {
      throw error instanceof NotMcp ? error.reason : error;
    }
  }
  try {
    return await connectMcp(options, fetch, meter);
  } catch (error) {
    if (!(error instanceof NotMcp)) throw error;
    let card: Record<string, unknown>;
    try {
      card = await readCard(cardUrl, fetch);
    } catch (cardError) {
      // No card either: the MCP endpoint's refusal says what is wrong with the URL.
      if (cardError instanceof DecodeError && !(cardError instanceof LimitError)) throw error.reason;
      throw cardError;
    }
    return a2a(card);
  }
}
