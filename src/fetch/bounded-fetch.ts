/**
 * A `fetch` that bounds what a seller agent can make the client read, while it arrives: AdCP asks a
 * client to bound the whole MCP message before buffering it, on the JSON and the SSE path, across
 * `Last-Event-ID` resumption, with a deadline, failing with a typed error rather than truncating.
 * What is bounded, the defaults, resumption and how failures surface through the MCP SDK:
 * docs/fetch.md; why requests ask for `Accept-Encoding: identity`: Node's fetch inflates a coded
 * body itself and never exposes the raw byte count, so only uncoded bytes can be bounded.
 *
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type BoundedRequestInit,
  checkBounds,
  DEFAULT_MAX_BYTES,
  DEFAULT_TIMEOUT_MS,
  FETCH_BOUNDS,
  FETCH_BOUNDS_KEYS,
  type FetchBounds,
  timedOut,
} from '../bounds/fetch-bounds.js';
import { DecodeError, LimitError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { EventIdIndex } from './event-ids.js';
import { Exchange, type Ledger, noop } from './exchange.js';
import { SseScanner } from './sse.js';

/** The function {@link boundedFetch} returns; assignable to `typeof fetch` and the MCP SDK's `FetchLike`. */
export type BoundedFetch = (input: string | URL | Request, init?: BoundedRequestInit) => Promise<Response>;

/** What `onLimit` receives. */
export interface BoundsViolation {
  /** The typed error the response failed with (also what the body stream or the fetch rejects with). */
  readonly error: DecodeError;
  /** The request URL as given to the fetch. */
  readonly url: string;
  /** The request method, upper case. */
  readonly method: string;
}

/** Options of {@link boundedFetch}. */
export interface BoundedFetchOptions extends FetchBounds {
  /** The fetch to wrap; `globalThis.fetch` (looked up per call) when absent. */
  readonly fetch?: ((input: string | URL | Request, init?: RequestInit) => Promise<Response>) | undefined;
  /**
   * Called with every bound violation of a request made through this instance, including a resumption
   * refused because its stream already failed. Must not throw (anything it throws is ignored).
   */
  readonly onLimit?: ((violation: BoundsViolation) => void) | undefined;
}

/** Every option boundedFetch takes, by name (a type test holds it to `keyof BoundedFetchOptions`). */
export const BOUNDED_FETCH_OPTION_KEYS = [
  ...FETCH_BOUNDS_KEYS,
  'fetch',
  'onLimit',
] as const satisfies readonly (keyof BoundedFetchOptions)[];

/** A response's status and the headers a refusal explains itself by, as a bounded fetch in a scope saw them. */
export interface ResponseHead {
  readonly status: number;
  readonly wwwAuthenticate: string | null;
  readonly retryAfter: string | null;
}

/** A per-call scope opened by {@link withFetchBounds}. */
interface Scope {
  readonly bounds: FetchBounds;
  trip(error: DecodeError): void;
  /** Told of every refusal (a status of 300 or more) a bounded fetch of the scope receives (callTask reads WWW-Authenticate from it). */
  readonly onRefusal?: ((head: ResponseHead) => void) | undefined;
}

const scopes = new AsyncLocalStorage<Scope>();

/** Whether a response's Content-Type is an SSE stream. */
function isEventStream(contentType: string | null): boolean {
  return (contentType ?? '').split(';', 1)[0]?.trim().toLowerCase() === 'text/event-stream';
}

/** Statuses whose response has no body to bound. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * Creates a fetch that bounds every response it returns: Content-Length pre-check, bytes counted as
 * they arrive, `Accept-Encoding: identity` (raw = decoded bytes), a whole-response deadline, and per-event
 * plus cumulative bounds on SSE carried across `Last-Event-ID` resumption (docs/fetch.md).
 *
 * @param options - Instance limits (`maxBytes`, default 4 MiB; `timeoutMs`, default 60 s), the fetch to
 *   wrap, and an `onLimit` hook. Use one instance per agent: the resumption ledgers live in the instance.
 * @returns A function with the signature of `fetch`. A response that breaks a bound rejects (before the
 *   body) or errors its body stream with a {@link LimitError} (`TOO_LARGE`: unit `bytes`, limit, bytes
 *   read; `TIMEOUT`: unit `ms`, limit, elapsed) or a {@link DecodeError} `UNSUPPORTED_ENCODING`.
 * @throws DecodeError `INVALID_OPTION` when a limit is not a positive number, or an option name is not one of boundedFetch's.
 * @example
 * import { Client } from '@modelcontextprotocol/sdk/client/index.js';
 * import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
 * const client = new Client({ name: 'buyer', version: '1.0.0' });
 * await client.connect(new StreamableHTTPClientTransport(new URL(agentUrl), { fetch: boundedFetch() }));
 * const result = await withFetchBounds({ maxBytes: 8_388_608 }, signal =>
 *   client.callTool({ name: 'get_products', arguments: args }, undefined, { signal }),
 * );
 */
export function boundedFetch(options: BoundedFetchOptions = {}): BoundedFetch {
  const instance = checkBounds(options, 'boundedFetch', BOUNDED_FETCH_OPTION_KEYS);
  const index = new EventIdIndex();

  return async function fetchWithBounds(input, init) {
    const call = describeCall(input, init, instance, options.onLimit);
    const underlying = options.fetch ?? globalThis.fetch;
    const now = performance.now();
    const ex = new Exchange(ledgerFor(call, index, now), call.report, call.callerSignals);
    const sent = withoutBounds(init, call.headers, ex.signal);
    const response = await send(ex, () => underlying(input, sent), now);
    if (response.status >= 300) tellRefusal(response);
    // Only a fresh GET (not a resumption) can open MCP's standalone listening stream.
    const sse = checkHead(ex, response, now, call.method === 'GET' && !call.lastEventId);
    const body = response.body;
    if (body === null || NULL_BODY_STATUSES.has(response.status)) {
      ex.settle();
      return response;
    }
    if (sse) {
      ex.scanner = new SseScanner();
      ex.recordId = (id, owner, withData) => index.record(id, owner, withData);
    }
    return rewrap(response, countedBody(ex, body));
  };
}

/** Tells the scope's observer of a refusal's head; what it throws is ignored, as onLimit's is. */
function tellRefusal(response: Response): void {
  const onRefusal = scopes.getStore()?.onRefusal;
  if (onRefusal === undefined) return;
  try {
    const { headers } = response;
    onRefusal({ status: response.status, wwwAuthenticate: headers.get('www-authenticate'), retryAfter: headers.get('retry-after') });
  } catch {
    // an observer's fault is not the response's
  }
}

/** One call through a bounded fetch: its limits (per call → scope → instance → default), its request's parts, and its report. */
interface Call {
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly method: string;
  readonly headers: Headers;
  readonly lastEventId: string | null;
  readonly callerSignals: readonly AbortSignal[];
  /** Trips the call's scope and tells `onLimit`. */
  readonly report: (error: DecodeError) => void;
}

/** Reads what a call asks for; a per-call bound that is not a positive number throws RangeError. */
function describeCall(
  input: string | URL | Request,
  init: BoundedRequestInit | undefined,
  instance: FetchBounds,
  onLimit: BoundedFetchOptions['onLimit'],
): Call {
  const scope = scopes.getStore();
  const perCall = init?.[FETCH_BOUNDS] === undefined ? undefined : checkBounds(init[FETCH_BOUNDS], 'FETCH_BOUNDS');
  const request = input instanceof Request ? input : undefined;
  const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const headers = new Headers(init?.headers ?? request?.headers);
  return {
    maxBytes: perCall?.maxBytes ?? scope?.bounds.maxBytes ?? instance.maxBytes ?? DEFAULT_MAX_BYTES,
    timeoutMs: perCall?.timeoutMs ?? scope?.bounds.timeoutMs ?? instance.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    method,
    headers,
    lastEventId: method === 'GET' ? headers.get('last-event-id') : null,
    callerSignals: [init?.signal, request?.signal].filter((s): s is AbortSignal => s != null),
    report: (error) => {
      scope?.trip(error);
      try {
        onLimit?.({ error, url, method });
      } catch {
        // onLimit must not throw; a throwing hook must not break the bound.
      }
    },
  };
}

/**
 * The budget a call draws on: the ledger of the stream it resumes (`Last-Event-ID`), or a fresh
 * request's. A resumption of a failed stream, or one past its deadline, fails at once.
 */
function ledgerFor(call: Call, index: EventIdIndex, now: number): Ledger {
  const resumed = call.lastEventId ? index.lookup(call.lastEventId) : undefined;
  const ledger: Ledger = resumed ?? {
    kind: 'request',
    maxBytes: call.maxBytes,
    timeoutMs: call.timeoutMs,
    startedAt: now,
    retained: 0,
    failure: undefined,
    ids: [],
    dataIds: [],
  };
  if (ledger.failure !== undefined) {
    call.report(ledger.failure);
    throw ledger.failure;
  }
  if (ledger.kind === 'request' && now >= ledger.startedAt + ledger.timeoutMs) {
    const error = timedOut('the whole response', ledger.timeoutMs, ledger.startedAt);
    ledger.failure = error;
    call.report(error);
    throw error;
  }
  return ledger;
}

/** The init the underlying fetch gets: identity encoding, the exchange's signal, no per-call bounds. */
function withoutBounds(init: BoundedRequestInit | undefined, headers: Headers, signal: AbortSignal): RequestInit {
  headers.set('accept-encoding', 'identity');
  const { [FETCH_BOUNDS]: _bounds, ...rest }: BoundedRequestInit = init ?? {};
  return { ...rest, headers, signal };
}

/**
 * Sends the request under the ledger's deadline and resolves to the response (headers in), or
 * rejects with the bound that tripped first; a late response to a request given up on is released.
 */
async function send(ex: Exchange, fetchIt: () => Promise<Response>, now: number): Promise<Response> {
  // Headers are due by the ledger's deadline (a resumption keeps the original clock); a listening
  // stream's clock is its own request's.
  const startedAt = ex.ledger.kind === 'request' ? ex.ledger.startedAt : now;
  const limitMs = ex.ledger.timeoutMs;
  ex.arm(startedAt + limitMs, () => timedOut('the whole response', limitMs, startedAt));
  const pending = Promise.resolve().then(fetchIt);
  try {
    return await Promise.race([pending, ex.failed]);
  } catch (error) {
    ex.settle();
    pending.then((late) => late.body?.cancel().catch(noop), noop);
    throw ex.failure ?? error;
  }
}

/**
 * Reads the response head: refuses a coded body, settles whether the body is bounded as a request
 * or as a listening stream, and refuses a declared Content-Length over the bound before reading.
 *
 * @returns Whether the body is an SSE stream.
 */
function checkHead(ex: Exchange, response: Response, now: number, mayListen: boolean): boolean {
  const encoding = response.headers.get('content-encoding');
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity' && encoding.trim() !== '') {
    ex.fail(
      new DecodeError(
        'UNSUPPORTED_ENCODING',
        `expected an identity-coded response (Accept-Encoding: identity), but it used Content-Encoding "${shownText(encoding, 64)}"; its raw size cannot be bounded, so it was refused unread`,
      ),
    );
    response.body?.cancel(ex.failure).catch(noop);
    throw ex.failure;
  }
  const sse = isEventStream(response.headers.get('content-type'));
  if (ex.ledger.kind === 'listen' && !sse) {
    // A listening ledger resumed with a non-stream answer: bound that answer as a request of its own.
    ex.ledger = { ...ex.ledger, kind: 'request', startedAt: now, retained: 0, ids: [], dataIds: [] };
  } else if (mayListen && sse) {
    ex.ledger.kind = 'listen';
  }
  ex.semantics = ex.ledger.kind;
  if (ex.semantics === 'listen') {
    // Listening: the headers are in; from here only an event in progress is on the clock.
    ex.disarm();
    return sse;
  }
  const { ledger } = ex;
  const declared = parseContentLength(response.headers.get('content-length'));
  if (declared !== undefined && ledger.retained + declared > ledger.maxBytes) {
    ex.fail(
      new LimitError(
        'TOO_LARGE',
        `expected at most ${ledger.maxBytes} bytes, but the response declared Content-Length ${declared}; rejected before reading the body`,
        { unit: 'bytes', limit: ledger.maxBytes, actual: ledger.retained + declared },
      ),
    );
    response.body?.cancel(ex.failure).catch(noop);
    throw ex.failure;
  }
  return sse;
}

/** The body as a stream that counts each chunk against the bounds as the consumer pulls it. */
function countedBody(ex: Exchange, body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  ex.reader = reader;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      ex.out = controller;
    },
    async pull(controller) {
      for (;;) {
        let next: Awaited<ReturnType<typeof reader.read>>;
        try {
          next = await reader.read();
        } catch (error) {
          if (ex.failure === undefined) {
            ex.settle();
            controller.error(error);
          }
          return;
        }
        if (ex.failure !== undefined) return;
        if (next.done) {
          ex.settle();
          controller.close();
          return;
        }
        const chunk = next.value;
        if (chunk.length === 0) continue;
        const violation = ex.account(chunk, performance.now());
        if (violation !== undefined) {
          ex.fail(violation);
          return;
        }
        controller.enqueue(chunk);
        return;
      }
    },
    cancel(reason) {
      ex.settle();
      return reader.cancel(reason);
    },
  });
}

/** What the Response constructor takes as a status text (RFC 9110 reason-phrase: HTAB, SP, VCHAR, obs-text). */
const REASON_PHRASE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** A Response over the counted body that keeps what a consumer may read off the original (the SDK reads `url` when describing redirects). */
function rewrap(response: Response, body: ReadableStream<Uint8Array>): Response {
  // The seller's reason phrase as the HTTP parser let it through (ESC, U+202E) would make the constructor throw: it is left out.
  const statusText = REASON_PHRASE.test(response.statusText) ? response.statusText : '';
  const bounded = new Response(body, { status: response.status, statusText, headers: response.headers });
  Object.defineProperty(bounded, 'url', { value: response.url });
  Object.defineProperty(bounded, 'redirected', { value: response.redirected });
  return bounded;
}

function parseContentLength(value: string | null): number | undefined {
  if (value === null) return undefined;
  // A list of equal values ("10, 10") is legal; any other shape is left to the fetch to refuse.
  const values = new Set(value.split(',').map((v) => v.trim()));
  if (values.size !== 1) return undefined;
  const [only] = values;
  return only !== undefined && /^\d+$/.test(only) ? Number(only) : undefined;
}

/**
 * Runs `fn` with per-call bounds for every bounded fetch it makes (through the MCP SDK too: the bounds
 * travel in the async context, not in the request), and fails it with the typed error the moment any
 * of those fetches trips a bound.
 * Why to hand `signal` to the SDK call: docs/fetch.md, "How failures surface".
 *
 * @param bounds - Limits for this call; absent fields fall back to the instance's. May raise them.
 * @param fn - The call, given the `signal` to hand to the SDK (`client.callTool(params, undefined, { signal })`), which is
 *   aborted with the typed error when a bound trips. Its async context (including SSE resumptions the SDK schedules) is in scope.
 * @returns What `fn` resolves to.
 * @throws The {@link LimitError} / {@link DecodeError} of the first bound that tripped within the call;
 *   otherwise whatever `fn` throws. DecodeError `INVALID_OPTION` when a limit is not a positive number or a name is not a bound (fn is not run).
 * @example
 * const result = await withFetchBounds({ maxBytes: 16_777_216, timeoutMs: 120_000 }, signal =>
 *   client.callTool({ name: 'get_products', arguments: args }, undefined, { signal, timeout: 120_000 }),
 * );
 */
export async function withFetchBounds<T>(bounds: FetchBounds, fn: (signal: AbortSignal) => T | PromiseLike<T>): Promise<T> {
  return withObservedFetchBounds(bounds, fn, undefined);
}

/**
 * {@link withFetchBounds}, telling `onRefusal` the head of every response of 300 or more a bounded
 * fetch of the scope receives (what the SDKs' errors leave out: `WWW-Authenticate`, `Retry-After`),
 * and handing `fn` an `end(reason)` that ends the scope at once as a tripped bound does: the signal
 * aborted and the call rejected with `reason` (callTask's deadline and the caller's abort, one signal).
 * @internal callTask's (src/call/run.ts).
 */
export async function withObservedFetchBounds<T>(
  bounds: FetchBounds,
  fn: (signal: AbortSignal, end: (reason: unknown) => void) => T | PromiseLike<T>,
  onRefusal: ((head: ResponseHead) => void) | undefined,
): Promise<T> {
  const checked = checkBounds(bounds, 'withFetchBounds');
  // Inside another scope, a field left out here keeps the outer scope's value.
  const outer = scopes.getStore()?.bounds;
  const merged: FetchBounds = {
    maxBytes: checked.maxBytes ?? outer?.maxBytes,
    timeoutMs: checked.timeoutMs ?? outer?.timeoutMs,
  };
  const controller = new AbortController();
  let ended: { readonly reason: unknown } | undefined;
  let reject: (reason: unknown) => void = noop;
  const tripped = new Promise<never>((_, rejectWith) => {
    reject = rejectWith;
  });
  tripped.catch(noop);
  const end = (reason: unknown): void => {
    if (ended !== undefined) return;
    ended = { reason };
    reject(reason);
    controller.abort(reason);
  };
  const scope: Scope = { bounds: merged, onRefusal, trip: end };
  const run = scopes.run(scope, async () => fn(controller.signal, end));
  try {
    return await Promise.race([run, tripped]);
  } catch (error) {
    run.catch(noop);
    throw ended === undefined ? error : ended.reason;
  }
}

/**
 * Finds the bounded fetch's typed error in `error` or its `cause` chain (for wrappers that keep the
 * original as `cause`). Note that the MCP SDK's SSE path does not: it reports a stringified copy.
 *
 * @param error - Anything caught.
 * @returns The first {@link DecodeError} found (a {@link LimitError} is one), or `undefined`.
 * @throws Never.
 * @example
 * catch (e) { const bound = findBoundsError(e); if (bound?.code === 'TOO_LARGE') ... }
 */
export function findBoundsError(error: unknown): DecodeError | undefined {
  const seen = new Set<unknown>();
  let current = error;
  while (current !== null && typeof current === 'object' && !seen.has(current)) {
    if (current instanceof DecodeError) return current;
    seen.add(current);
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
