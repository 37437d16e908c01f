/**
 * What @a2a-js/sdk throws from a hostile seller's bytes, over both majors (1.x `Client`, 0.3
 * `Client` and legacy `A2AClient` through a2aV03Client), each a real client against a seller on
 * 127.0.0.1 that answers each JSON-RPC request with what a test gives it: every such error ends
 * typed (MALFORMED_ENVELOPE for a broken frame or id, TaskFailedError for a JSON-RPC error with its
 * adcp_error and retry_after read, TransportError for an HTTP refusal), with the seller's text
 * escaped and cut, and never raw through `cause`; safeCallTask resolves; `retry` resends on a 0.3
 * stream's transient error as on 1.x's.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  A2AClient,
  ClientFactory as ClientFactoryV03,
  ClientFactoryOptions as OptionsV03,
  JsonRpcTransportFactory as TransportV03,
} from '@a2a-js/sdk/client';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk-v1/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type A2aClient, a2aV03Client, safeCallTask, TransportError } from '../../src/a2a/index.js';
import { boundedFetch } from '../../src/fetch/index.js';
import { DecodeError, LimitError, TaskFailedError } from '../../src/index.js';
import { PRODUCTS_BRIEF } from '../encode/requests.js';
import { HOSTILE_BODY, HOSTILE_LINE, hasRawControl } from '../fixtures/hostile-sellers.js';

type Major = '1.x' | '0.3';

/** A JSON-RPC request as the seller received it. */
interface Rpc {
  readonly id: unknown;
  readonly method: string;
  readonly params: { message?: { parts?: Array<{ data?: { input?: { context?: unknown } } }> } };
}

/** What the seller does with a request: `attempt` counts from 1 over the test. */
type Answer = (rpc: Rpc, res: ServerResponse, attempt: number) => void;

/** 200 KB of hostile text: ESC, OSC-8 links, bidi overrides, CR/LF. */
const HOSTILE_200K = HOSTILE_BODY.slice(0, 200_000);
/** The same without line breaks, for what must stay on one SSE line. */
const HOSTILE_FLAT = HOSTILE_200K.replace(/\r\n/g, ' ');

const rateLimited = { code: 'RATE_LIMITED', message: 'Too many requests.', recovery: 'transient', retry_after: 5 };
const rateLimitError = { code: -32029, message: HOSTILE_FLAT, data: { adcp_error: rateLimited } };

/** The answer the seller means, in the form of the major: echoes the request's context. */
function products(rpc: Rpc): Record<string, unknown> {
  return { adcp_version: '3.1', products: [], cache_scope: 'public', context: rpc.params.message?.parts?.[0]?.data?.input?.context };
}

/** The events of a completed task carrying the answer, as each major's `message/stream` result. */
function taskEvents(major: Major, rpc: Rpc): unknown[] {
  const ids = { taskId: 't-1', contextId: 'c-1' };
  if (major === '1.x')
    return [
      { task: { id: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_SUBMITTED' } } },
      { artifactUpdate: { ...ids, artifact: { artifactId: 'a-1', parts: [{ data: products(rpc) }] } } },
      { statusUpdate: { ...ids, status: { state: 'TASK_STATE_COMPLETED' } } },
    ];
  return [
    { kind: 'task', id: 't-1', contextId: 'c-1', status: { state: 'submitted' } },
    { kind: 'artifact-update', ...ids, artifact: { artifactId: 'a-1', parts: [{ kind: 'data', data: products(rpc) }] } },
    { kind: 'status-update', ...ids, status: { state: 'completed' }, final: true },
  ];
}

/** The completed task, as each major's `message/send` result. */
function sentTask(major: Major, rpc: Rpc): unknown {
  if (major === '1.x')
    return {
      task: {
        id: 't-1',
        contextId: 'c-1',
        status: { state: 'TASK_STATE_COMPLETED' },
        artifacts: [{ artifactId: 'a-1', parts: [{ data: products(rpc) }] }],
      },
    };
  const artifacts = [{ artifactId: 'a-1', parts: [{ kind: 'data', data: products(rpc) }] }];
  return { kind: 'task', id: 't-1', contextId: 'c-1', status: { state: 'completed' }, artifacts };
}

const json = (res: ServerResponse, status: number, body: unknown): void =>
  void res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));

/** An SSE answer: each `data` as one event (already JSON, or raw text). */
const sse = (res: ServerResponse, data: readonly string[]): void =>
  void res.writeHead(200, { 'content-type': 'text/event-stream' }).end(data.map((d) => `data: ${d}\n\n`).join(''));

const frames = (rpc: Rpc, results: readonly unknown[]): string[] =>
  results.map((result) => JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result }));

/** The agent card each major's client reads. */
function card(major: Major, origin: string): unknown {
  const common = {
    name: 'AdCP seller',
    description: 'A hostile AdCP seller (test double)',
    version: '1.0.0',
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: [],
  };
  if (major === '1.x')
    return {
      ...common,
      supportedInterfaces: [{ url: `${origin}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      capabilities: { streaming: true },
    };
  return { ...common, url: `${origin}/a2a`, protocolVersion: '0.3.0', capabilities: { streaming: true } };
}

/** A seller of one major: its card, and every JSON-RPC request handed to the current answer. */
class HostileA2a {
  readonly calls: Rpc[] = [];
  answer: Answer = () => undefined;
  private constructor(
    readonly major: Major,
    private readonly http: Server,
    readonly origin: string,
  ) {}

  static async serve(major: Major): Promise<HostileA2a> {
    let self: HostileA2a | undefined;
    const http = createServer((req, res) => void self?.handle(req, res));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    self = new HostileA2a(major, http, `http://127.0.0.1:${(http.address() as AddressInfo).port}`);
    return self;
  }

  /** Answers as `answer` says from now on, with the request count reset. */
  set(answer: Answer): void {
    this.calls.length = 0;
    this.answer = answer;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'GET') return void json(res, 200, card(this.major, this.origin));
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rpc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Rpc;
    this.calls.push(rpc);
    this.answer(rpc, res, this.calls.length);
  }

  close(): Promise<void> {
    this.http.closeAllConnections();
    return new Promise((resolve) => this.http.close(() => resolve()));
  }
}

/** The clients under test: each SDK major's, through boundedFetch, as callTask takes them. */
type Named = readonly [name: string, major: Major, make: (origin: string) => Promise<A2aClient>];
const CLIENTS: readonly Named[] = [
  [
    '@a2a-js/sdk 1.x Client',
    '1.x',
    (origin) =>
      new ClientFactory(
        ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
          transports: [new JsonRpcTransportFactory({ fetchImpl: boundedFetch() })],
        }),
      ).createFromUrl(origin),
  ],
  [
    '@a2a-js/sdk 0.3 Client',
    '0.3',
    async (origin) =>
      a2aV03Client(
        await new ClientFactoryV03(
          OptionsV03.createFrom(OptionsV03.default, { transports: [new TransportV03({ fetchImpl: boundedFetch() })] }),
        ).createFromUrl(origin),
      ),
  ],
  [
    '@a2a-js/sdk 0.3 A2AClient',
    '0.3',
    async (origin) => a2aV03Client(await A2AClient.fromCardUrl(`${origin}/.well-known/agent-card.json`, { fetchImpl: boundedFetch() })),
  ],
];

const sellers = new Map<Major, HostileA2a>();
const clients = new Map<string, A2aClient>();
beforeAll(async () => {
  for (const major of ['1.x', '0.3'] as const) sellers.set(major, await HostileA2a.serve(major));
  for (const [name, major, make] of CLIENTS) clients.set(name, await make(sellers.get(major)!.origin));
});
afterAll(() => Promise.all([...sellers.values()].map((s) => s.close())));

/** The seller of `name`'s major, answering as given, and the client. */
function against(name: string, answer: Answer): { seller: HostileA2a; client: A2aClient } {
  const major = CLIENTS.find(([n]) => n === name)?.[1] ?? '1.x';
  const seller = sellers.get(major)!;
  seller.set(answer);
  return { seller, client: clients.get(name)! };
}

/** Every text of the error a caller may print: one line, bounded, nothing raw; its `cause` too. */
function expectShown(error: DecodeError): void {
  expect(error.message).not.toMatch(/[\r\n]/);
  expect(error.message.length).toBeLessThanOrEqual(500);
  expect(hasRawControl(error.message)).toBe(false);
  const { sellerText } = error as { sellerText?: string };
  if (sellerText !== undefined) {
    expect(sellerText.length).toBeLessThanOrEqual(1000);
    expect(hasRawControl(sellerText)).toBe(false);
  }
  for (let cause: unknown = error.cause; cause instanceof Error; cause = cause.cause) {
    expect(cause.message.length).toBeLessThan(1000);
    expect(hasRawControl(cause.message)).toBe(false);
  }
}

/** safeCallTask of get_products, sent or streamed: it must resolve, and fail. */
async function failure(client: A2aClient, stream: boolean): Promise<DecodeError> {
  const result = await safeCallTask(client, 'get_products', PRODUCTS_BRIEF, { version: '3.1', stream });
  if (result.success) throw new Error('expected a failure');
  expectShown(result.error);
  return result.error;
}

const ALL = CLIENTS.map(([name]) => name);
const ONLY_1X = ALL.slice(0, 1);
const CLIENTS_V03 = ALL.slice(1);

/**
 * Each shape: the clients it applies to (an SDK major that never builds the error is left out),
 * streamed or sent, the seller's answer, and the code it must end in.
 */
const MALFORMED: ReadonlyArray<readonly [shape: string, names: readonly string[], stream: boolean, answer: Answer]> = [
  [
    'a JSON-RPC id that is 200 KB of hostile text',
    ALL,
    false,
    (_, res) => json(res, 200, { jsonrpc: '2.0', id: HOSTILE_200K, result: {} }),
  ],
  [
    'an SSE event without result (the SDK quotes the whole event)',
    ALL,
    true,
    (rpc, res) => sse(res, [JSON.stringify({ jsonrpc: '2.0', id: rpc.id, note: HOSTILE_200K })]),
  ],
  [
    'an SSE event of another id',
    ALL,
    true,
    (_, res) => sse(res, [JSON.stringify({ jsonrpc: '2.0', id: HOSTILE_200K, result: { kind: 'task', id: 't-1' } })]),
  ],
  ['a body that is not JSON', ALL, false, (_, res) => json(res, 200, HOSTILE_FLAT)],
  ['an SSE event that is not JSON', ALL, true, (_, res) => sse(res, [HOSTILE_FLAT])],
  ['a body that is no SSE stream', ALL, true, (_, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(HOSTILE_BODY)],
  ['a 204 with no body, as an SSE stream', ALL, true, (_, res) => void res.writeHead(204, { 'content-type': 'text/event-stream' }).end()],
  [
    'jsonrpc that is 200 KB of hostile text',
    ONLY_1X,
    false,
    (rpc, res) => json(res, 200, { jsonrpc: HOSTILE_200K, id: rpc.id, result: {} }),
  ],
  [
    'an SSE event whose data is blank',
    ONLY_1X,
    true,
    (_, res) => void res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data:    \n\n'),
  ],
  [
    'a JSON-RPC error whose code is hostile text',
    ALL.slice(0, 2),
    false,
    (rpc, res) => json(res, 200, { jsonrpc: '2.0', id: rpc.id, error: { code: HOSTILE_FLAT.slice(0, 2000), message: HOSTILE_FLAT } }),
  ],
  ['a body that is null (0.3 reads its id: a TypeError)', ALL, false, (_, res) => json(res, 200, 'null')],
  ['an SSE event that is null', ALL, true, (_, res) => sse(res, ['null'])],
  [
    'a JSON-RPC error that is null (the SDKs read its code: a TypeError)',
    ALL,
    false,
    (rpc, res) => json(res, 200, { jsonrpc: '2.0', id: rpc.id, error: null }),
  ],
  [
    'an SSE event whose result is null (1.x reads it: a TypeError)',
    ALL,
    true,
    (rpc, res) => sse(res, [JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result: null })]),
  ],
  [
    'a JSON-RPC error whose code is "constructor" (1.x looks it up: a TypeError)',
    ALL.slice(0, 2),
    false,
    (rpc, res) => json(res, 200, { jsonrpc: '2.0', id: rpc.id, error: { code: 'constructor', message: HOSTILE_FLAT } }),
  ],
  [
    'a JSON-RPC error that is a string',
    ALL.slice(0, 2),
    true,
    (rpc, res) => sse(res, [JSON.stringify({ jsonrpc: '2.0', id: rpc.id, error: HOSTILE_FLAT })]),
  ],
];

describe('an answer the SDK could not read is MALFORMED_ENVELOPE, blamed on the seller, its text escaped and cut', () => {
  const cases = MALFORMED.flatMap(([shape, names, stream, answer]) => names.map((name) => [shape, name, stream, answer] as const));
  test.each(cases)('%s (%s)', async (_, name, stream, answer) => {
    const { client, seller } = against(name, answer);
    const error = await failure(client, stream);
    expect(error).toBeInstanceOf(DecodeError);
    expect(error).toMatchObject({ code: 'MALFORMED_ENVELOPE', task: 'get_products' });
    expect(error.cause).toBeUndefined();
    expect(seller.calls).toHaveLength(1);
  });
});

describe("a seller's JSON-RPC error is TaskFailedError, its adcp_error and retry_after read, over both majors", () => {
  test.each(ALL)("a stream's error event (%s): TASK_FAILED, RATE_LIMITED, transient, 5 s", async (name) => {
    const { client } = against(name, (rpc, res) => sse(res, [JSON.stringify({ jsonrpc: '2.0', id: rpc.id, error: rateLimitError })]));
    const error = await failure(client, true);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error).toMatchObject({
      adcpError: rateLimited,
      known: { code: 'RATE_LIMITED' },
      recovery: { recovery: 'transient', retryAfterSeconds: 5 },
    });
  });

  test.each(ALL)("a JSON-RPC error whose message mimics an HTTP refusal (%s): still the seller's error, TASK_FAILED", async (name) => {
    const message = `HTTP error for SendMessage! Status: 500 Internal Server Error. Response: ${HOSTILE_FLAT}`;
    const { client } = against(name, (rpc, res) => json(res, 200, { jsonrpc: '2.0', id: rpc.id, error: { ...rateLimitError, message } }));
    const error = await failure(client, false);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error).toMatchObject({ known: { code: 'RATE_LIMITED' }, recovery: { recovery: 'transient', retryAfterSeconds: 5 } });
  });

  test.each(ALL)("retry: { attempts: 3 } resends after the stream's RATE_LIMITED (%s): one 5 s wait, then the answer", async (name) => {
    const major = CLIENTS.find(([n]) => n === name)?.[1] ?? '1.x';
    const { client, seller } = against(name, (rpc, res, attempt) =>
      attempt === 1
        ? sse(res, [JSON.stringify({ jsonrpc: '2.0', id: rpc.id, error: rateLimitError })])
        : sse(res, frames(rpc, taskEvents(major, rpc))),
    );
    const waits: number[] = [];
    const result = await safeCallTask(client, 'get_products', PRODUCTS_BRIEF, {
      version: '3.1',
      stream: true,
      retry: { attempts: 3, sleep: async (ms) => void waits.push(ms) },
    });
    expect(result).toMatchObject({ success: true, data: { products: [], context: PRODUCTS_BRIEF.context } });
    expect(waits).toEqual([5000]);
    expect(seller.calls).toHaveLength(2);
    expect(seller.calls[1]?.params.message?.parts).toEqual(seller.calls[0]?.params.message?.parts);
  });

  test.each(ALL)('the same seller served, sent (%s): the answer decodes (the shapes above are the only change)', async (name) => {
    const major = CLIENTS.find(([n]) => n === name)?.[1] ?? '1.x';
    const { client } = against(name, (rpc, res) => json(res, 200, { jsonrpc: '2.0', id: rpc.id, result: sentTask(major, rpc) }));
    await expect(safeCallTask(client, 'get_products', PRODUCTS_BRIEF, { version: '3.1' })).resolves.toMatchObject({
      success: true,
      data: { products: [] },
    });
  });
});

describe('a stream refused with HTTP 500 and a JSON-RPC error body', () => {
  const refuse: Answer = (rpc, res) => json(res, 500, { jsonrpc: '2.0', id: rpc.id, error: rateLimitError });

  test('1.x reads the JSON-RPC error: TaskFailedError with its adcp_error', async () => {
    const { client } = against(ONLY_1X[0]!, refuse);
    const error = await failure(client, true);
    expect(error).toMatchObject({ code: 'TASK_FAILED', recovery: { recovery: 'transient', retryAfterSeconds: 5 } });
  });

  test.each(CLIENTS_V03)(
    '0.3 keeps only its message and code (%s): TransportError 500, transient, the words escaped and cut',
    async (name) => {
      const { client } = against(name, refuse);
      const error = await failure(client, true);
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ status: 500, blame: 'seller', recovery: { recovery: 'transient' } });
      expect((error as TransportError).sellerText).toMatch(/^Internal Server Error\. RPC Error: \\u001b\[31mERROR/);
      expect(error.cause).toBeUndefined();
    },
  );

  test.each(ALL.flatMap((name) => [[name, false] as const, [name, true] as const]))(
    'a 503 whose body is null, which the SDKs read as an object (%s, streamed: %s): TransportError 503 from the head boundedFetch saw',
    async (name, stream) => {
      const { client } = against(name, (_, res) => json(res, 503, 'null'));
      const error = await failure(client, stream);
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ status: 503, blame: 'seller', recovery: { recovery: 'transient' } });
    },
  );

  test.each(CLIENTS_V03)('0.3, a JSON body without error (%s): TransportError 500 with the status text', async (name) => {
    const { client } = against(name, (_, res) => json(res, 500, { busy: true }));
    const error = await failure(client, true);
    expect(error).toMatchObject({ code: 'TRANSPORT_FAILED', status: 500, sellerText: 'Internal Server Error' });
  });
});

describe("an HTTP refusal whose status text is the seller's own", () => {
  /** A raw status line (Node's writeHead refuses to send ESC or U+202E in one), then 5,000 characters of hostile body. */
  const refusal =
    (reason: string): Answer =>
    (_, res) => {
      const body = HOSTILE_BODY.slice(0, 5000);
      const head = `HTTP/1.1 503 ${reason}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close`;
      res.socket?.end(`${head}\r\n\r\n${body}`);
    };
  const both = ALL.flatMap((name) => [[name, false] as const, [name, true] as const]);

  test.each(both)(
    '3,000 characters of it, mimicking the SDK (%s, streamed: %s): TransportError 503, all after the status shown, cut',
    async (name, stream) => {
      const { client } = against(name, refusal(`${'Busy '.repeat(600)}. Response: {"jsonrpc":"2.0"}`));
      const error = await failure(client, stream);
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ status: 503, blame: 'seller', recovery: { recovery: 'transient' } });
      expect((error as TransportError).sellerText).toMatch(/^Busy Busy/);
    },
  );

  test.each(both)(
    'with ESC and U+202E, which a Response cannot hold (%s, streamed: %s): boundedFetch drops it, the body is shown',
    async (name, stream) => {
      const { client } = against(name, refusal('Busy \u001b[31m\u202e'));
      const error = await failure(client, stream);
      expect(error).toMatchObject({ code: 'TRANSPORT_FAILED', status: 503 });
      expect((error as TransportError).sellerText).toMatch(/^\\u001b\[31mERROR/);
    },
  );
});

describe("@a2a-js/sdk 1.x's own SSE size bound", () => {
  test('a 4 MiB + 1 line, the client on a plain fetch: LimitError TOO_LARGE at its 4,194,304 bytes', async () => {
    const seller = sellers.get('1.x')!;
    seller.set(
      (_, res) => void res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${'x'.repeat(4 * 1024 * 1024 + 1)}`),
    );
    const client = await new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl: fetch })] }),
    ).createFromUrl(seller.origin);
    const error = await failure(client, true);
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ code: 'TOO_LARGE', unit: 'bytes', limit: 4_194_304 });
  });
});

test('the fixtures are hostile: ESC, OSC-8, bidi and CR/LF in the 200 KB', () => {
  expect(HOSTILE_200K.length).toBe(200_000);
  expect(hasRawControl(HOSTILE_LINE)).toBe(true);
  expect(HOSTILE_FLAT).not.toMatch(/[\r\n]/);
});
