/**
 * The oracle of the A2A lane's SDK-error half: the case's seller answers through an in-process
 * fetch (a real `Response`, read by boundedFetch and the real @a2a-js/sdk client, 1.x or 0.3), and
 * safeCallTask must resolve, never reject; end in one of the outcomes the case allows, never
 * `INTERNAL`; show the seller's text only escaped and bounded (the message one line of at most 500
 * characters, `sellerText` at most 1,000, nothing raw through `cause`); send the request twice
 * exactly when `retry` is on and the end is retryable (transient, or `IDEMPOTENCY_IN_FLIGHT`);
 * pollute no prototype; and finish within the slow bound.
 */
import type { AgentCard as CardV03 } from '@a2a-js/sdk';
import {
  A2AClient,
  ClientFactory as FactoryV03,
  ClientFactoryOptions as OptionsV03,
  JsonRpcTransportFactory as TransportV03,
} from '@a2a-js/sdk/client';
import type { AgentCard as CardV1 } from '@a2a-js/sdk-v1';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk-v1/client';
import { type A2aClient, a2aV03Client, safeCallTask } from '../../src/a2a/index.js';
import { DecodeError } from '../../src/errors/errors.js';
import { boundedFetch } from '../../src/fetch/bounded-fetch.js';
import type { Received, Reply, SdkCase, SdkClient } from './a2a-sdk-case.js';
import { type CaseResult, describeThrown, type Finding, pollutionSinceStart } from './oracle.js';

/** Where the in-process seller sends its requests (never dialled: the fetch below answers). */
const ENDPOINT = 'http://seller.invalid/a2a';

/** The seller's answer to the request in flight, and how many requests the case sent. */
const seller: { reply: (request: Received) => Reply; requests: number } = {
  reply: () => ({ status: 500, statusText: '', headers: {}, body: '' }),
  requests: 0,
};

/** The fetch every client is given: the case's answer as a real Response, under boundedFetch. */
const fetchImpl = boundedFetch({
  fetch: async (_input, init) => {
    seller.requests++;
    const request = JSON.parse(String(init?.body)) as Received;
    const reply = seller.reply(request);
    return new Response(reply.body, { status: reply.status, statusText: reply.statusText, headers: reply.headers });
  },
});

const CARD_V1: CardV1 = {
  name: 'AdCP seller',
  description: 'A hostile AdCP seller (fuzzer double)',
  supportedInterfaces: [{ url: ENDPOINT, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
  provider: undefined,
  version: '1.0.0',
  capabilities: { streaming: true, pushNotifications: false, extensions: [] },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ['application/json'],
  defaultOutputModes: ['application/json'],
  skills: [],
  signatures: [],
};

const CARD_V03: CardV03 = {
  name: 'AdCP seller',
  description: 'A hostile AdCP seller (fuzzer double)',
  url: ENDPOINT,
  protocolVersion: '0.3.0',
  version: '1.0.0',
  capabilities: { streaming: true },
  defaultInputModes: ['application/json'],
  defaultOutputModes: ['application/json'],
  skills: [],
};

let made: Promise<Readonly<Record<SdkClient, A2aClient>>> | undefined;

/** The three clients, made once per process over the in-process fetch. */
function clients(): Promise<Readonly<Record<SdkClient, A2aClient>>> {
  made ??= (async () => ({
    '1.x': await new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl })] }),
    ).createFromAgentCard(CARD_V1),
    '0.3': a2aV03Client(
      await new FactoryV03(
        OptionsV03.createFrom(OptionsV03.default, { transports: [new TransportV03({ fetchImpl })] }),
      ).createFromAgentCard(CARD_V03),
    ),
    '0.3-legacy': a2aV03Client(new A2AClient(CARD_V03, { fetchImpl })),
  }))();
  return made;
}

/** What a log must never get raw: C0, DEL, C1, bidi and invisible marks, line separators, the BOM, a lone surrogate. */
const RAW =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Every text of the error a caller may print, with what is wrong with it. */
function unshown(error: DecodeError): string | undefined {
  const { message } = error;
  if (/[\r\n]/.test(message) || message.length > 500) return `a message of ${message.length} characters or more than one line`;
  if (RAW.test(message)) return 'a raw control character in the message';
  const { sellerText } = error as { sellerText?: unknown };
  if (typeof sellerText === 'string' && (sellerText.length > 1_000 || RAW.test(sellerText)))
    return 'sellerText raw or past 1,000 characters';
  for (let cause: unknown = error.cause, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++)
    if (RAW.test(cause.message) || cause.message.length > 1_000) return `a cause (${cause.name}) holding the seller's text raw`;
  return undefined;
}

/** Whether the call's `retry` resends after this end: transient, or `IDEMPOTENCY_IN_FLIGHT` (the error's own verdict). */
function retryable(error: DecodeError): boolean {
  const { recovery, known } = error as { recovery?: { recovery?: unknown }; known?: { code?: unknown } };
  return recovery?.recovery === 'transient' || known?.code === 'IDEMPOTENCY_IN_FLIGHT' || error.code === 'TIMEOUT';
}

/** A brief of 3.1, as a buyer sends it. */
const BRIEF = { buying_mode: 'brief', brief: 'CTV, Q3, adults 25-54', context: { trace_id: 'fuzz-a2a-sdk' } } as const;

/** The longest deadline callTask takes: every wait the seller asks (at most an hour) is started. */
const NO_DEADLINE = 2 ** 31 - 1;

/**
 * Runs one SDK-error case under the oracle.
 *
 * @param c - The case.
 * @param slowMs - Above this a case is reported `slow` (the watchdog reports a `hang`).
 * @returns `sdk decoded` or `sdk <code>`, the time, and any findings.
 * @throws Never (the oracle turns every failure into a finding).
 * @example
 * const { outcome, findings } = await runSdkCase(makeSdkCase(1, 0));
 */
export async function runSdkCase(c: SdkCase, slowMs = 2_000): Promise<CaseResult> {
  const findings: Finding[] = [];
  const found = (kind: Finding['kind'], detail: string, ms?: number): void =>
    void findings.push({ kind, seed: c.seed, index: c.index, detail, ...(ms === undefined ? {} : { ms }) });
  const client = (await clients())[c.client];
  seller.reply = c.reply;
  seller.requests = 0;
  const start = performance.now();
  let outcome = 'sdk threw';
  try {
    const retry = c.retry ? { attempts: 2, sleep: async () => undefined } : undefined;
    const result = await safeCallTask(client, 'get_products', BRIEF, { version: '3.1', stream: c.stream, timeoutMs: NO_DEADLINE, retry });
    const end = result.success ? 'decoded' : result.error.code;
    outcome = `sdk ${end}`;
    if (!c.expected.includes(end)) found('unexpected-outcome', `ended ${end}, expected ${c.expected.join(' or ')}`);
    if (!result.success) {
      if (!(result.error instanceof DecodeError)) found('crash', `safeCallTask failed with ${describeThrown(result.error)}`);
      else {
        const wrong = unshown(result.error);
        if (wrong !== undefined) found('raw-text', `${result.error.code}: ${wrong}`);
        const sent = c.retry && retryable(result.error) ? 2 : 1;
        if (seller.requests !== sent) found('retry-mismatch', `${seller.requests} requests for ${result.error.code}; expected ${sent}`);
      }
    }
  } catch (error) {
    found('crash', `safeCallTask rejected with ${describeThrown(error)}`);
  }
  const ms = performance.now() - start;
  const polluted = pollutionSinceStart();
  if (polluted.length > 0) found('pollution', `added ${polluted.join(', ')}`);
  if (ms > slowMs) found('slow', `the call took ${Math.round(ms)} ms`, ms);
  return { outcome, ms, findings };
}
