/**
 * A seller agent on the line: the official client of its transport (the user's installed SDK),
 * every request through one bounded fetch carrying the user's headers, each call made with
 * safeCallTask and recorded as the reports need it (the client's answer as returned, the bytes
 * that came back, the time it took).
 *
 * Transport `auto`: the URL is tried as an MCP endpoint (`initialize`); when that is refused (an
 * HTTP error status, a JSON-RPC error, an answer that is not MCP), the A2A agent card is read from
 * it (`.well-known/agent-card.json` resolved against the URL, as the A2A SDK resolves it) and, if
 * there is one, A2A is spoken. A URL ending in `.json` is the card itself. A failed connection or
 * a bound passed ends there.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type A2aClient, type A2aV03Client, a2aV03Client } from '../a2a/index.js';
import { classify } from '../call/classify.js';
import { TransportError } from '../call/transport-error.js';
import type { EncodedRequest } from '../encode/request.js';
import { DecodeError, describeThrown, LimitError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { boundedFetch } from '../fetch/index.js';
import { isObject, own } from '../json/own.js';
import { parseStrict } from '../json/text.js';
import type { McpClient } from '../mcp/index.js';
import type { Version } from '../schema/versions.js';
import { a2aCallNamed, mcpCallNamed, type NamedCall } from './named.js';
import { type A2aSdk, loadA2a, loadMcp, type McpSdk, type SdkImports } from './sdk.js';

/** The transports a seller agent speaks. */
export type Wire = 'mcp' | 'a2a';

/** A fetch as both SDKs take it. */
type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** How to reach the agent, and the bounds of every exchange with it. */
export interface AgentOptions {
  readonly url: URL;
  readonly transport: 'auto' | Wire;
  /** Sent with every request (`Authorization`, ...); never printed. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** Largest payload text (decode's `maxBytes`); a response may be 2 × that + 1 MiB (a text copy beside structuredContent). */
  readonly maxBytes: number;
  /** Deadline of each call (callTask's `timeoutMs`) and of each other request (connect, listing, the card). */
  readonly timeoutMs: number;
  readonly sdks: SdkImports;
  /** The client's name and version, as `initialize` states them. */
  readonly client: { readonly name: string; readonly version: string };
}

/** One call to the seller, as the reports need it. */
export interface Exchange {
  readonly task: string;
  /** What safeCallTask resolved to. */
  readonly outcome: NamedCall;
  /** What the client returned: the seller's answer as the SDK hands it (absent when it threw). */
  readonly answer?: unknown;
  /** What the client threw, if it did (a seller's JSON-RPC error among others). */
  readonly thrown?: unknown;
  /** Bytes of the answer's body(ies) received. */
  readonly bytes: number;
  /** Milliseconds from the request sent to the client's answer or throw; absent when nothing was sent (encode refused the arguments). */
  readonly ms?: number;
}

/** A connected seller agent. */
export interface Agent {
  readonly transport: Wire;
  /** The tool names (MCP `tools/list`) or skill ids (A2A agent card) it lists, as listed: seller text, at most {@link MAX_LISTED}. */
  list(): Promise<string[]>;
  /**
   * Calls a task with safeCallTask: a task and arguments (encoded in `version`), or what encode returned.
   * `version` pins the release both speak; without it the request's release judges an answer announcing none.
   */
  call(what: EncodedRequest | { readonly task: string; readonly args: unknown }, version?: Version): Promise<Exchange>;
  close(): Promise<void>;
}

/** Most names a listing keeps: pages of `tools/list` read, and names kept. */
const MAX_PAGES = 20;
const MAX_LISTED = 1000;
/** Longest name kept (AdCP task names are a few dozen characters). */
const MAX_NAME = 256;

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

/** An MCP `initialize` the URL refused or did not answer as MCP: with `auto`, A2A is tried next. */
class NotMcp extends Error {
  constructor(readonly reason: DecodeError) {
    super(reason.message);
  }
}

/**
 * What an SDK request other than a call ended with, typed: a bound, a refusal, a failed
 * connection, the agent's JSON-RPC error, or what the client threw (its words shown, escaped).
 * `answered`: something came back (a refusal, an error, an answer the client could not take).
 */
function requestFailure(thrown: unknown, what: string, hint = ''): { error: DecodeError; answered: boolean } {
  const classed = classify(thrown, undefined, { task: what });
  if (classed.kind === 'error') {
    const silent = classed.error instanceof LimitError || (classed.error instanceof TransportError && classed.error.status === undefined);
    return { error: classed.error, answered: !silent };
  }
  const code = thrown instanceof Error ? own(thrown, 'code') : undefined;
  const said =
    classed.kind === 'answer'
      ? `the agent answered with JSON-RPC error ${typeof code === 'number' ? code : '(no code)'}`
      : `the client failed (${describeThrown(thrown)}: ${shownText(thrown instanceof Error ? thrown.message : '', 160)})`;
  return { error: new TransportError(`${what}: ${said}${hint}`, {}, { task: what }), answered: true };
}

async function connectMcp(options: AgentOptions, fetch: Fetch, meter: { bytes: number }): Promise<Agent> {
  const sdk = await loadMcp(options.sdks);
  const client = new sdk.Client(options.client);
  try {
    await client.connect(new sdk.StreamableHTTPClientTransport(options.url, { fetch }), { timeout: options.timeoutMs });
  } catch (thrown) {
    await client.close().catch(() => undefined);
    const { error, answered } = requestFailure(thrown, 'initialize', '; expected an MCP endpoint (or --transport a2a)');
    // Something answered, but not as an MCP server: with `auto`, the URL may be an A2A agent's.
    throw answered ? new NotMcp(error) : error;
  }
  const timeout = options.timeoutMs;
  return {
    transport: 'mcp',
    list: async () => {
      try {
        return await listTools(client, sdk.ListToolsResultSchema, timeout);
      } catch (thrown) {
        throw requestFailure(thrown, 'tools/list').error;
      }
    },
    call: (what, version) =>
      recorded(what.task, meter, (seen) => {
        const recording: McpClient = {
          callTool: async (params, _schema, callOptions) => seen(() => client.callTool(params, undefined, callOptions)),
        };
        const bounds = { maxBytes: options.maxBytes, timeoutMs: options.timeoutMs, ...(version === undefined ? {} : { version }) };
        return 'version' in what ? mcpCallNamed(recording, what, bounds) : mcpCallNamed(recording, what.task, what.args, bounds);
      }),
    close: () => client.close().catch(() => undefined),
  };
}

/**
 * The tool names, page by page. Through `request`, not `listTools`: listTools makes the client
 * check every later answer against the tool's outputSchema and throw what it refuses as if the
 * seller had sent a JSON-RPC error, where the probe judges the answer itself.
 */
async function listTools(client: Client, schema: McpListSchema, timeout: number): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES && names.length < MAX_LISTED; page++) {
    const listed = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, schema, { timeout });
    for (const tool of listed.tools.slice(0, MAX_LISTED - names.length)) names.push(tool.name.slice(0, MAX_NAME));
    cursor = listed.nextCursor;
    if (cursor === undefined) break;
  }
  return names.slice(0, MAX_LISTED);
}

/** The SDK's schema of a `tools/list` result. */
type McpListSchema = McpSdk['ListToolsResultSchema'];

/** Whether the SDK's client has the methods callTask sends with (on its class: inherited members are read). */
function sends(client: unknown): client is object {
  return (
    isObject(client) &&
    typeof Reflect.get(client, 'sendMessage') === 'function' &&
    typeof Reflect.get(client, 'sendMessageStream') === 'function'
  );
}

/** A 1.x client, which callTask takes as it is. */
function isA2aClient(client: unknown): client is A2aClient {
  return sends(client);
}

/** A 0.3.x client, whose messages a2aV03Client turns into v0.3's form. */
function isA2aV03Client(client: unknown): client is A2aV03Client {
  return sends(client);
}

/** The agent card, read through the bounded fetch: a JSON object, else why the URL has none. */
async function readCard(url: URL, fetch: Fetch): Promise<Record<string, unknown>> {
  const where = shownText(url.href, 200);
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' } });
    text = await response.text();
  } catch (thrown) {
    const classed = classify(thrown, undefined, { task: 'agent card' });
    if (classed.kind === 'error') throw classed.error;
    throw new TransportError(`reading the A2A agent card at ${where} failed (${describeThrown(thrown)})`, {}, { task: 'agent card' });
  }
  if (!response.ok)
    throw new TransportError(
      `no A2A agent card at ${where}: HTTP ${response.status}`,
      { refusal: { status: response.status } },
      { task: 'agent card' },
    );
  const parsed = parseStrict(text);
  if (!parsed.ok || !isObject(parsed.value))
    throw new TransportError(`the A2A agent card at ${where} is not a JSON object`, {}, { task: 'agent card' });
  return parsed.value;
}

/** The skill ids an agent card lists (strings only), at most MAX_LISTED. */
function skillIds(card: Record<string, unknown>): string[] {
  const skills = own(card, 'skills');
  if (!Array.isArray(skills)) return [];
  const ids: string[] = [];
  for (const skill of skills.slice(0, MAX_LISTED)) {
    const id = isObject(skill) ? own(skill, 'id') : undefined;
    if (typeof id === 'string') ids.push(id.slice(0, MAX_NAME));
  }
  return ids;
}

/** The A2A client of the card: 1.x as built (its v0.3 compatibility on), 0.3.x through a2aV03Client. */
async function a2aClientOf(sdk: A2aSdk, card: Record<string, unknown>, fetch: Fetch, url: URL): Promise<A2aClient> {
  const compat = { fetchImpl: fetch, legacyCompat: { enabled: true } };
  const factory = new sdk.ClientFactory({
    transports: [new sdk.JsonRpcTransportFactory(compat), new sdk.RestTransportFactory(compat)],
    cardResolver: new sdk.DefaultAgentCardResolver(compat),
  });
  let client: unknown;
  try {
    client = await factory.createFromAgentCard(card);
  } catch (thrown) {
    const said = shownText(thrown instanceof Error ? thrown.message : describeThrown(thrown), 200);
    throw new TransportError(
      `the installed @a2a-js/sdk cannot talk to the agent at ${shownText(url.href, 200)}: ${said}`,
      {},
      {
        task: 'agent card',
      },
    );
  }
  if (sdk.A2AClient !== undefined) {
    if (isA2aV03Client(client)) return a2aV03Client(client);
  } else if (isA2aClient(client)) return client;
  throw new TransportError(
    'the installed @a2a-js/sdk built a client without sendMessage; run npm install @a2a-js/sdk@^1.3.0',
    {},
    {
      task: 'agent card',
    },
  );
}

async function connectA2a(
  options: AgentOptions,
  card: Record<string, unknown>,
  cardUrl: URL,
  fetch: Fetch,
  meter: { bytes: number },
): Promise<Agent> {
  // Loaded once the card says the agent speaks A2A: with `auto`, an MCP endpoint's refusal is not blamed on a missing A2A SDK.
  const sdk = await loadA2a(options.sdks);
  const client = await a2aClientOf(sdk, card, fetch, cardUrl);
  return {
    transport: 'a2a',
    list: async () => skillIds(card),
    call: (what, version) =>
      recorded(what.task, meter, (seen) => {
        const recording: A2aClient = {
          sendMessage: (params, callOptions) => seen(() => client.sendMessage(params, callOptions)),
          sendMessageStream: (params, callOptions) => client.sendMessageStream(params, callOptions),
        };
        const bounds = { maxBytes: options.maxBytes, timeoutMs: options.timeoutMs, ...(version === undefined ? {} : { version }) };
        return 'version' in what ? a2aCallNamed(recording, what, bounds) : a2aCallNamed(recording, what.task, what.args, bounds);
      }),
    close: async () => undefined,
  };
}

/** Runs one call, recording what the client returned or threw, the bytes of the answer and how long the seller took. */
async function recorded(
  task: string,
  meter: { bytes: number },
  call: (seen: <T>(send: () => Promise<T>) => Promise<T>) => Promise<NamedCall>,
): Promise<Exchange> {
  const record: { answer?: unknown; thrown?: unknown; ms?: number } = {};
  // Timed around the client's send alone: decoding (and loading a task's validators the first time) is not the seller's latency.
  const seen = async <T>(send: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      const answer = await send();
      record.answer = answer;
      return answer;
    } catch (thrown) {
      record.thrown = thrown;
      throw thrown;
    } finally {
      record.ms = Math.round(performance.now() - started);
    }
  };
  meter.bytes = 0;
  const outcome = await call(seen);
  return { task, outcome, ...record, bytes: meter.bytes };
}
