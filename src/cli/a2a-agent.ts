/**
 * A seller agent over A2A: its agent card read through the bounded fetch, the client the user's
 * `@a2a-js/sdk` builds from it (1.x with its v0.3 compatibility on, 0.3.x through a2aV03Client),
 * its skills listed, each call made with A2A's safeCallTask and recorded.
 */
import { type A2aClient, type A2aV03Client, a2aV03Client } from '../a2a/index.js';
import { classify } from '../call/classify.js';
import { TransportError } from '../call/transport-error.js';
import { describeThrown } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { isObject, own } from '../json/own.js';
import { parseStrict } from '../json/text.js';
import { type Agent, type AgentOptions, type Fetch, MAX_LISTED, MAX_NAME, recorded } from './agent.js';
import { a2aCallNamed } from './named.js';
import { type A2aSdk, loadA2a } from './sdk.js';

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
export async function readCard(url: URL, fetch: Fetch): Promise<Record<string, unknown>> {
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

/**
 * Connects over A2A, given the agent's card.
 *
 * @param options - The bounds and the SDK imports.
 * @param card - The agent card (readCard).
 * @param cardUrl - Where it was read, for messages.
 * @param fetch - The bounded fetch every request goes through.
 * @param meter - Where the bytes of answers are counted.
 * @returns The connected agent.
 * @throws {UsageError} The A2A SDK is not installed.
 * @throws {DecodeError} A `TransportError` when the SDK cannot build a client from the card.
 * @example
 * const agent = await connectA2a(options, await readCard(cardUrl, fetch), cardUrl, fetch, meter);
 */
export async function connectA2a(
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
