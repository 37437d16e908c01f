/**
 * A case of the A2A lane's SDK-error half, a pure function of `(seed, index)`: what a hostile
 * seller answers a `message/send` or `message/stream` request with, built from the request's id
 * the moment it arrives, for one of the real @a2a-js/sdk clients (1.x `Client`, 0.3 `Client`, 0.3
 * legacy `A2AClient`) to read; and the outcomes the call may end in. The shapes are those the
 * SDKs turn into their own errors: an id that is not the request's, an event without `result`,
 * jsonrpc other than "2.0", a body or event that is not JSON, a body that is no SSE stream, a
 * blank event, no body at all, a JSON-RPC error well or badly formed, an HTTP refusal with hostile
 * status text and body; beside answers that are served. The seller's text is ESC, OSC-8, bidi, C1,
 * CR/LF, lone surrogates and the SDKs' own prefixes, up to 200,000 characters.
 */
import { type CaseRecord, type CaseView, type Ctx, note, type Profile } from './context.js';
import { Rng } from './rng.js';

/** Which real client reads the answer. */
export type SdkClient = '1.x' | '0.3' | '0.3-legacy';

/** The seller's HTTP answer to one request. */
export interface Reply {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Readonly<Record<string, string>>;
  /** `null`: no body (a 204). */
  readonly body: string | null;
}

/** The JSON-RPC request as the seller received it. */
export interface Received {
  readonly id: unknown;
  readonly params: unknown;
}

/** An SDK-error case: the client, sent or streamed, what the seller answers, and the outcomes allowed. */
export interface SdkCase extends CaseRecord {
  readonly kind: 'sdk-error';
  readonly client: SdkClient;
  readonly stream: boolean;
  readonly shape: string;
  /** Whether the call may retry (`retry: { attempts: 2 }`, its sleep instant). */
  readonly retry: boolean;
  readonly reply: (request: Received) => Reply;
  /** `decoded`, or the DecodeError codes the call may end in. */
  readonly expected: readonly string[];
}

/** Pieces of hostile seller text: terminal escapes, an OSC-8 link, bidi and C1 controls, line breaks, the SDKs' own words. */
const PIECES: readonly string[] = [
  '\u001b[31mERROR\u001b[0m',
  '\u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007',
  '\u202egnp.exe\u202c',
  '\u009b2J',
  '\r\nX-Injected: 1\r\n',
  '\u2028\u2029',
  '\u200b\u200d\ufeff',
  '\ud800',
  '\u0000\u007f',
  '. Response: ',
  'HTTP error for SendMessage! Status: 500 ',
  'SSE event contained an error: ',
  'JSON-RPC response ID mismatch for method SendMessage. Expected 1, got 2. ',
  '{"jsonrpc":"2.0","error":{"code":-32029}}',
  ' (Code: -32029) ',
  'Rate limit exceeded ',
  'plain words ',
];

/** Seller text of one of three sizes (the `ci` profile stops at 5,000 characters). */
function text(ctx: Ctx, cap = Number.POSITIVE_INFINITY): string {
  const { rng } = ctx;
  const target = rng.weighted<number>([
    [60, 1 + rng.int(40)],
    [30, 40 + rng.int(2_000)],
    [10, ctx.profile === 'ci' ? 5_000 : 2_000 + rng.int(198_000)],
  ]);
  const want = Math.min(target, cap);
  const pieces: string[] = [];
  let length = 0;
  // A few pieces repeated: a 200,000-character text costs a few dozen picks.
  const palette = Array.from({ length: 1 + rng.int(4) }, () => rng.pick(PIECES));
  while (length < want) {
    const piece = rng.pick(palette);
    pieces.push(piece);
    length += piece.length;
  }
  return pieces.join('').slice(0, want);
}

/** Text that is not JSON and stays on one SSE line: `~` first, no line breaks. */
function lineText(ctx: Ctx): string {
  return `~${text(ctx).replace(/[\r\n]/g, ' ')}`;
}

/** A status text the Response constructor takes: long, with obs-text and the SDK's own `. Response: `. */
function statusText(ctx: Ctx): string {
  const { rng } = ctx;
  return rng.weighted<string>([
    [60, 'Internal Server Error'],
    [15, ''],
    [15, `Busy. Response: {"jsonrpc":"2.0"} \u00e9\u00ff`],
    [10, 'Busy '.repeat(ctx.profile === 'ci' ? 100 : 1 + rng.int(2_000))],
  ]);
}

/** The get_products answer, echoing the request's context as the spec requires. */
function products(request: Received): unknown {
  const params = request.params as { message?: { parts?: Array<{ data?: { input?: { context?: unknown } } }> } } | undefined;
  return { adcp_version: '3.1', products: [], cache_scope: 'public', context: params?.message?.parts?.[0]?.data?.input?.context };
}

/** The events of a completed task in the major's stream form. */
function taskEvents(v1: boolean, request: Received): unknown[] {
  const ids = { taskId: 't-1', contextId: 'c-1' };
  if (v1)
    return [
      { task: { id: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_SUBMITTED' } } },
      { artifactUpdate: { ...ids, artifact: { artifactId: 'a-1', parts: [{ data: products(request) }] } } },
      { statusUpdate: { ...ids, status: { state: 'TASK_STATE_COMPLETED' } } },
    ];
  return [
    { kind: 'task', id: 't-1', contextId: 'c-1', status: { state: 'submitted' } },
    { kind: 'artifact-update', ...ids, artifact: { artifactId: 'a-1', parts: [{ kind: 'data', data: products(request) }] } },
    { kind: 'status-update', ...ids, status: { state: 'completed' }, final: true },
  ];
}

/** The completed task as the major's `message/send` result. */
function sentTask(v1: boolean, request: Received): unknown {
  const artifacts = [{ artifactId: 'a-1', parts: [v1 ? { data: products(request) } : { kind: 'data', data: products(request) }] }];
  if (v1) return { task: { id: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_COMPLETED' }, artifacts } };
  return { kind: 'task', id: 't-1', contextId: 'c-1', status: { state: 'completed' }, artifacts };
}

const JSON_TYPE = { 'content-type': 'application/json' };
const SSE_TYPE = { 'content-type': 'text/event-stream' };

const json = (body: unknown, status = 200, statusText = 'OK'): Reply => ({
  status,
  statusText,
  headers: JSON_TYPE,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
const sse = (data: readonly string[]): Reply => ({
  status: 200,
  statusText: 'OK',
  headers: SSE_TYPE,
  body: data.map((d) => `data: ${d}\n\n`).join(''),
});

/** An id that is never the request's, given the request's: text, another number, null, an object or an array (drawn now, not when the request comes). */
function hostileId(ctx: Ctx): (id: unknown) => unknown {
  const { rng } = ctx;
  const n = (id: unknown): number => (typeof id === 'number' ? id : 0);
  return rng.weighted<() => (id: unknown) => unknown>([
    [
      40,
      () => {
        const t = text(ctx);
        return () => t;
      },
    ],
    [
      20,
      () => {
        const past = 1 + rng.int(1_000);
        return (id) => n(id) + past;
      },
    ],
    [10, () => (id) => -n(id) - 1],
    [10, () => () => null],
    [
      10,
      () => {
        const t = text(ctx, 200);
        return () => ({ id: t });
      },
    ],
    [
      10,
      () => {
        const t = text(ctx, 200);
        return () => [t];
      },
    ],
  ])();
}

/** A JSON-RPC error a seller may send: a code that is an integer, a message of any type, an adcp_error well or badly formed. */
function rpcError(ctx: Ctx): Record<string, unknown> {
  const { rng } = ctx;
  const code = rng.pick([-32029, -32028, -32027, -32000, -32603, -32001, -32602, -32700, 1, 429, -(1 + rng.int(2 ** 31))]);
  const message = rng.weighted<unknown>([
    [80, text(ctx)],
    [10, 42],
    [5, { nested: text(ctx, 100) }],
    [5, null],
  ]);
  const adcp = {
    code: rng.pick(['RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'IDEMPOTENCY_IN_FLIGHT', 'BUDGET_TOO_LOW', text(ctx, 100)]),
    message: text(ctx),
    recovery: rng.pick(['transient', 'correctable', 'terminal', text(ctx, 40)]),
    retry_after: rng.pick<unknown>([5, 1, 0, -1, 1e9, '5', text(ctx, 20), undefined]),
  };
  const data = rng.weighted<unknown>([
    [60, { adcp_error: adcp }],
    [15, text(ctx)],
    [15, undefined],
    [10, { adcp_error: text(ctx, 100) }],
  ]);
  return data === undefined ? { code, message } : { code, message, data };
}

/** An `error` member no JSON-RPC error has: text, a number, an array, or an object whose code is no integer. */
function brokenError(ctx: Ctx): unknown {
  const { rng } = ctx;
  return rng.weighted<() => unknown>([
    [25, () => text(ctx)],
    [10, () => 5],
    [10, () => [text(ctx, 100)]],
    [30, () => ({ code: text(ctx, 200), message: text(ctx) })],
    [10, () => ({ code: 1.5, message: text(ctx) })],
    [10, () => ({ code: '-32029', message: text(ctx) })],
    [5, () => ({ code: true })],
  ])();
}

interface Built {
  readonly reply: (request: Received) => Reply;
  readonly expected: readonly string[];
}

/** A shape: which clients and modes it applies to, and how it answers. */
type Shape = (ctx: Ctx, client: SdkClient, stream: boolean) => Built;

const MALFORMED = ['MALFORMED_ENVELOPE'];

const SHAPES: ReadonlyArray<readonly [weight: number, name: string, shape: Shape]> = [
  [
    12,
    'id',
    (ctx, client, stream) => {
      const v1 = client === '1.x';
      const at = ctx.rng.int(3);
      const other = hostileId(ctx);
      return {
        reply: (r) => {
          const id = other(r.id);
          if (!stream) return json({ jsonrpc: '2.0', id, result: sentTask(v1, r) });
          return sse(taskEvents(v1, r).map((result, i) => JSON.stringify({ jsonrpc: '2.0', id: i === at ? id : r.id, result })));
        },
        expected: MALFORMED,
      };
    },
  ],
  [
    8,
    'no-result',
    (ctx, _client, stream) => {
      const said = text(ctx);
      if (stream) return { reply: (r) => sse([JSON.stringify({ jsonrpc: '2.0', id: r.id, said })]), expected: MALFORMED };
      // 1.x cannot read a missing result; 0.3 hands on `undefined`, A2AClient `null`, which decode() refuses.
      return { reply: (r) => json({ jsonrpc: '2.0', id: r.id, said }), expected: MALFORMED };
    },
  ],
  [
    12,
    'rpc-error',
    (ctx, _client, stream) => {
      const error = rpcError(ctx);
      if (stream) return { reply: (r) => sse([JSON.stringify({ jsonrpc: '2.0', id: r.id, error })]), expected: ['TASK_FAILED'] };
      return { reply: (r) => json({ jsonrpc: '2.0', id: r.id, error }), expected: ['TASK_FAILED'] };
    },
  ],
  [
    8,
    'rpc-error-broken',
    (ctx, client, stream) => {
      const error = brokenError(ctx);
      const reply = (r: Received): Reply =>
        stream ? sse([JSON.stringify({ jsonrpc: '2.0', id: r.id, error })]) : json({ jsonrpc: '2.0', id: r.id, error });
      // A2AClient returns the response as data; decode() reads a code 1.5 as a number, as JSON-RPC errors go.
      const expected = client === '0.3-legacy' && !stream ? ['MALFORMED_ENVELOPE', 'TASK_FAILED'] : MALFORMED;
      return { reply, expected };
    },
  ],
  [
    16,
    'refusal',
    (ctx, client, stream) => {
      const { rng } = ctx;
      const status = rng.pick([400, 401, 403, 404, 405, 408, 418, 422, 429, 500, 502, 503, 504, 599]);
      const reason = statusText(ctx);
      const kind = rng.weighted<'text' | 'json' | 'rpc' | 'empty'>([
        [50, 'text'],
        [15, 'json'],
        [25, 'rpc'],
        [10, 'empty'],
      ]);
      note(ctx, `sdk:refusal:${kind}`, `${status}`);
      const error = kind === 'rpc' ? rpcError(ctx) : undefined;
      const body =
        kind === 'text' ? lineText(ctx) : kind === 'json' ? JSON.stringify({ busy: text(ctx) }) : kind === 'empty' ? '' : undefined;
      const reply = (r: Received): Reply => ({
        status,
        statusText: reason,
        headers: kind === 'text' || kind === 'empty' ? { 'content-type': 'text/plain' } : JSON_TYPE,
        body: body ?? JSON.stringify({ jsonrpc: '2.0', id: r.id, error }),
      });
      // A JSON-RPC error body is read as one, but by the 0.3 stream, which keeps only its message and code.
      const readAsRpc = kind === 'rpc' && !(stream && client !== '1.x');
      return { reply, expected: readAsRpc ? ['TASK_FAILED'] : ['TRANSPORT_FAILED'] };
    },
  ],
  [
    10,
    'not-json',
    (ctx, _client, stream) => {
      const body = lineText(ctx);
      return { reply: () => (stream ? sse([body]) : json(body)), expected: MALFORMED };
    },
  ],
  [
    6,
    'content-type',
    (ctx) => {
      const { rng } = ctx;
      const type = rng.pick(['text/html', 'application/json', 'text/plain', 'text/event', 'application/octet-stream']);
      const body = rng.chance(0.5) ? lineText(ctx) : JSON.stringify({ note: text(ctx) });
      return { reply: () => ({ status: 200, statusText: 'OK', headers: { 'content-type': type }, body }), expected: MALFORMED };
    },
  ],
  [
    4,
    'blank-event',
    (ctx, client, stream) => {
      const blank = ' '.repeat(1 + ctx.rng.int(20));
      // 0.3 trims the line, 1.x drops one space: an event left empty is never yielded, the stream ends with none. Sent, it is no JSON.
      const reply = (): Reply => ({ status: 200, statusText: 'OK', headers: SSE_TYPE, body: `data:${blank}\n\n` });
      const yielded = client === '1.x' && blank.length > 1;
      return { reply, expected: stream && !yielded ? ['NO_PAYLOAD'] : MALFORMED };
    },
  ],
  [4, 'no-body', () => ({ reply: () => ({ status: 204, statusText: 'No Content', headers: SSE_TYPE, body: null }), expected: MALFORMED })],
  [
    8,
    'jsonrpc',
    (ctx, client, stream) => {
      const { rng } = ctx;
      const version = rng.pick<unknown>([text(ctx), '1.0', 2, null, undefined, '2.0 ']);
      const v1 = client === '1.x';
      const frame = (r: Received, result: unknown): Record<string, unknown> =>
        version === undefined ? { id: r.id, result } : { jsonrpc: version, id: r.id, result };
      const reply = (r: Received): Reply =>
        stream ? sse(taskEvents(v1, r).map((result) => JSON.stringify(frame(r, result)))) : json(frame(r, sentTask(v1, r)));
      // Only 1.x checks jsonrpc; 0.3 reads on, and the task is served.
      return { reply, expected: v1 ? MALFORMED : ['decoded'] };
    },
  ],
  [
    8,
    'null',
    (ctx, client, stream) => {
      const where = ctx.rng.pick(['body', 'result', 'error', 'refusal'] as const);
      note(ctx, `sdk:null:${where}`, '');
      const frame = (r: Received): string =>
        where === 'body' ? 'null' : JSON.stringify({ jsonrpc: '2.0', id: r.id, [where === 'result' ? 'result' : 'error']: null });
      const reply = (r: Received): Reply => {
        if (where === 'refusal') return json('null', 503, 'Service Unavailable');
        return stream ? sse([frame(r)]) : json(frame(r));
      };
      // The SDKs read a `null` where they want an object (a TypeError) or refuse it; 0.3 hands a null result on, which decode() refuses.
      const expected =
        where === 'refusal'
          ? ['TRANSPORT_FAILED']
          : where === 'result' && client !== '1.x' && !stream
            ? ['MALFORMED_ENVELOPE', 'NO_PAYLOAD']
            : MALFORMED;
      return { reply, expected };
    },
  ],
  [
    12,
    'served',
    (_ctx, client, stream) => {
      const v1 = client === '1.x';
      const reply = (r: Received): Reply =>
        stream
          ? sse(taskEvents(v1, r).map((result) => JSON.stringify({ jsonrpc: '2.0', id: r.id, result })))
          : json({ jsonrpc: '2.0', id: r.id, result: sentTask(v1, r) });
      return { reply, expected: ['decoded'] };
    },
  ],
];

/** One SSE line past @a2a-js/sdk 1.x's 4 MiB (and boundedFetch's): built only in the full profile, rarely. */
const oversize: Shape = (_ctx, client) => {
  const body = `data: ${'x'.repeat(4 * 1024 * 1024 + 1)}\n\n`;
  return {
    reply: () => ({ status: 200, statusText: 'OK', headers: SSE_TYPE, body }),
    expected: client === '1.x' ? ['TOO_LARGE'] : ['TOO_LARGE', 'MALFORMED_ENVELOPE'],
  };
};

/**
 * Builds SDK-error case `index` of `seed`, deterministically.
 *
 * @param seed - The run's seed.
 * @param index - The case number.
 * @param profile - `full`, or `ci` (seller text at most 5,000 characters, no oversize line).
 * @returns The case.
 * @throws Never.
 * @example
 * const c = makeSdkCase(1, 42, 'ci'); await runSdkCase(c);
 */
export function makeSdkCase(seed: number, index: number, profile: Profile = 'full'): SdkCase {
  const rng = new Rng(seed ^ 0x5dce, index);
  const ctx: Ctx = { rng, steps: [], classes: new Set(), profile };
  const client = rng.pick<SdkClient>(['1.x', '0.3', '0.3-legacy']);
  const stream = rng.chance(0.5);
  const big = profile === 'full' && stream && rng.chance(0.001);
  const [, name, shape] = big ? [0, 'oversize', oversize] : rng.weighted(SHAPES.map((s) => [s[0], s] as const));
  const built = shape(ctx, client, stream);
  const retry = rng.chance(0.25);
  note(ctx, `sdk:${name}`, `${client} ${stream ? 'stream' : 'send'}${retry ? ', retry 2' : ''}`);
  return {
    seed,
    index,
    kind: 'sdk-error',
    client,
    stream,
    shape: name,
    retry,
    reply: built.reply,
    expected: built.expected,
    steps: ctx.steps,
    classes: [...ctx.classes, `sdk-client:${client}`],
    envelope: `a2a-sdk ${client} ${stream ? 'stream' : 'send'}`,
  };
}

/**
 * A case as a finding's file shows it: the seller's answer to request id 1, its body cut at 2,000 characters.
 *
 * @param c - The case.
 * @returns The view.
 * @throws Never.
 * @example
 * report.add(finding); // calls sdkViewOf(makeSdkCase(...))
 */
export function sdkViewOf(c: SdkCase): CaseView {
  const reply = c.reply({ id: 1, params: undefined });
  return {
    task: 'safeCallTask get_products',
    options: { client: c.client, stream: c.stream, retry: c.retry, expected: c.expected },
    envelope: c.envelope,
    classes: c.classes,
    steps: c.steps,
    input: { ...reply, body: reply.body?.slice(0, 2_000) ?? null },
  };
}
