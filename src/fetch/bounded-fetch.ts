/**
 * A `fetch` that bounds what a seller agent can make the client read, while it arrives: AdCP asks a
 * client to bound the whole MCP message before buffering it, on the JSON and the SSE path, across
 * `Last-Event-ID` resumption, with a deadline, failing with a typed error rather than truncating.
 * What is bounded, the defaults, resumption and how failures surface through the MCP SDK: README,
 * `boundedFetch`; why requests ask for `Accept-Encoding: identity`: Node's fetch inflates a coded
 * body itself and never exposes the raw byte count, so only uncoded bytes can be bounded.
 *
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { createHash as CreateHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { DecodeError, LimitError } from '../errors.js';
import { SseScanner, type ScannedId } from './sse.js';
import { shownText } from '../format.js';

/** Default cap on a response body, in bytes: the spec's recommended client safety limit for one MCP message, 4 MiB (decode's own text limit is its `maxBytes` option). */
export const DEFAULT_MAX_BYTES = 4_194_304;

/**
 * The default deadline for a whole response, in ms: 60 s, the same as the MCP SDK's default request
 * timeout, so a call the SDK would still wait for is not cut short. Raise it per call for long tools.
 */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Largest delay `setTimeout` honours; longer deadlines are re-armed in steps. */
const MAX_TIMER_MS = 2_147_483_647;
/** How many ledgers (requests) one instance remembers for resumption. */
const MAX_LEDGERS = 1024;
/** How many of a ledger's most recent event ids are remembered for resumption. */
const MAX_IDS_PER_LEDGER = 16;

/** Limits for a bounded fetch. Absent fields fall back (per call → scope → instance → default). */
export interface FetchBounds {
  /**
   * Bytes: the whole body of a non-SSE response, one SSE event, and the cumulative bytes of one
   * request's SSE stream(s). Raw and decoded bytes are the same bytes (requests ask for identity encoding).
   * A positive safe integer.
   */
  readonly maxBytes?: number | undefined;
  /** Deadline for the whole response (headers + body), in ms. A positive number up to 2^31 - 1. */
  readonly timeoutMs?: number | undefined;
}

/**
 * Key of the per-call bounds in a request's `init`, for direct callers:
 * `fetch(url, { method: 'POST', [FETCH_BOUNDS]: { maxBytes: 16_000_000 } })`. It is removed before the
 * underlying fetch sees the init. (The MCP SDK builds its own init per request, so with the SDK use
 * {@link withFetchBounds} instead.)
 */
export const FETCH_BOUNDS: unique symbol = Symbol.for('adcp-decode.fetch-bounds');

/** A `RequestInit` that may carry per-call bounds under {@link FETCH_BOUNDS}. */
export type BoundedRequestInit = RequestInit & { readonly [FETCH_BOUNDS]?: FetchBounds | undefined };

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

/** One request's byte and time budget, shared by the streams that resume it. */
interface Ledger {
  /** `request`: cumulative bytes and a whole-response deadline; `listen`: per-event bounds only. */
  kind: 'request' | 'listen';
  readonly maxBytes: number;
  readonly timeoutMs: number;
  /** `performance.now()` when the first request of this ledger started. */
  readonly startedAt: number;
  /** Body bytes received so far across this ledger's responses. */
  retained: number;
  /** Set once a bound trips; every later resumption fails with it. */
  failure: DecodeError | undefined;
  /** Keys ({@link idKey}) of the latest event ids its streams delivered, oldest first. */
  readonly ids: string[];
  /** The same, of events that carried data. */
  readonly dataIds: string[];
}

let createHash: typeof CreateHash | undefined;

/**
 * The index key of an event id: a digest of the id as it comes back in a `Last-Event-ID` header (where
 * HTTP strips surrounding whitespace), so remembering an id costs 43 bytes however long the id is.
 */
function idKey(id: string): string {
  // node:crypto takes 15-20 ms to load; only SSE resumption needs it, so it loads on first use.
  createHash ??= (createRequire(import.meta.url)('node:crypto') as { createHash: typeof CreateHash }).createHash;
  return createHash('sha256').update(trimWhitespace(id)).digest('base64url');
}

/** `id` without surrounding tabs, line ends and spaces; a loop, as a regex here backtracked quadratically. */
function trimWhitespace(id: string): string {
  const blank = (unit: number): boolean => unit === 0x20 || unit === 0x09 || unit === 0x0a || unit === 0x0d;
  let start = 0;
  let end = id.length;
  while (start < end && blank(id.charCodeAt(start))) start++;
  while (end > start && blank(id.charCodeAt(end - 1))) end--;
  return id.slice(start, end);
}

/**
 * Event id → the ledgers whose streams delivered it, with bounded memory: the last
 * {@link MAX_IDS_PER_LEDGER} ids of each ledger, of {@link MAX_LEDGERS} ledgers.
 *
 * Parsers differ on which id becomes the resumption token: the SDK's (eventsource-parser) only surfaces
 * the id of an event that carries data, the SSE spec (browsers) takes every `id` field. So two lists are
 * kept per ledger, and a flood of data-less ids cannot push the SDK's token out of the index. Ids are
 * recorded only for events the consumer was actually handed (a chunk that trips a bound is not), so the
 * consumer's last id is always the newest one here.
 */
class EventIdIndex {
  private readonly byKey = new Map<string, Set<Ledger>>();
  /** Ledgers in least-recently-recorded order. */
  private readonly ledgers = new Set<Ledger>();

  record(id: string, ledger: Ledger, withData: boolean): void {
    const key = idKey(id);
    this.ledgers.delete(ledger);
    this.ledgers.add(ledger);
    if (this.ledgers.size > MAX_LEDGERS) {
      const oldest = this.ledgers.values().next().value;
      if (oldest !== undefined) this.forget(oldest);
    }
    let holders = this.byKey.get(key);
    if (holders === undefined) {
      holders = new Set();
      this.byKey.set(key, holders);
    }
    holders.add(ledger);
    this.remember(ledger.ids, key, ledger);
    if (withData) this.remember(ledger.dataIds, key, ledger);
  }

  /** The ledger a resumption from `id` continues: a request ledger over a listening one, then the fullest. */
  lookup(id: string): Ledger | undefined {
    let best: Ledger | undefined;
    for (const ledger of this.byKey.get(idKey(id)) ?? []) {
      if (best === undefined) best = ledger;
      else if (ledger.kind !== best.kind) best = ledger.kind === 'request' ? ledger : best;
      else if (ledger.retained > best.retained) best = ledger;
    }
    return best;
  }

  private remember(list: string[], key: string, ledger: Ledger): void {
    list.push(key);
    if (list.length <= MAX_IDS_PER_LEDGER) return;
    const dropped = list.shift() as string;
    if (!ledger.ids.includes(dropped) && !ledger.dataIds.includes(dropped)) this.unlink(dropped, ledger);
  }

  private forget(ledger: Ledger): void {
    this.ledgers.delete(ledger);
    for (const key of new Set([...ledger.ids, ...ledger.dataIds])) this.unlink(key, ledger);
  }

  private unlink(key: string, ledger: Ledger): void {
    const holders = this.byKey.get(key);
    holders?.delete(ledger);
    if (holders?.size === 0) this.byKey.delete(key);
  }
}

/** A per-call scope opened by {@link withFetchBounds}. */
interface Scope {
  readonly bounds: FetchBounds;
  trip(error: DecodeError): void;
}

const scopes = new AsyncLocalStorage<Scope>();

function checkBounds(bounds: FetchBounds, where: string): FetchBounds {
  const { maxBytes, timeoutMs } = bounds;
  if (maxBytes !== undefined && !(Number.isSafeInteger(maxBytes) && maxBytes > 0)) {
    throw new RangeError(`${where}: maxBytes must be a positive safe integer`);
  }
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)) {
    throw new RangeError(`${where}: timeoutMs must be a positive number of ms up to ${MAX_TIMER_MS}`);
  }
  return { maxBytes, timeoutMs };
}

function tooLarge(what: string, limit: number, actual: number): LimitError {
  return new LimitError(
    'TOO_LARGE',
    `expected ${what} of at most ${limit} bytes, but ${actual} bytes arrived; the response was aborted, not truncated`,
    { unit: 'bytes', limit, actual },
  );
}

function timedOut(what: string, limit: number, startedAt: number): LimitError {
  const actual = Math.floor(performance.now() - startedAt);
  return new LimitError('TIMEOUT', `expected ${what} within ${limit} ms, but it was still incomplete after ${actual} ms; aborted`, {
    unit: 'ms',
    limit,
    actual,
  });
}

function isEventStream(contentType: string | null): boolean {
  return (contentType ?? '').split(';', 1)[0]?.trim().toLowerCase() === 'text/event-stream';
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

const noop = (): void => {};

/** One request/response through the bounded fetch: its deadline, its abort, its counting. */
class Exchange {
  readonly controller = new AbortController();
  /** The signal handed to the underlying fetch: ours (limits) combined with the caller's. */
  readonly signal: AbortSignal;
  failure: DecodeError | undefined;
  /** Rejects with the failure; raced against the underlying fetch so a fetch ignoring its signal cannot hang us. */
  readonly failed: Promise<never>;
  semantics: 'request' | 'listen' = 'request';
  scanner: SseScanner | undefined;
  recordId: (id: string, ledger: Ledger, withData: boolean) => void = noop;
  out: ReadableStreamDefaultController<Uint8Array> | undefined;
  reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private rejectFailed: (error: DecodeError) => void = noop;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly unlink: (() => void)[] = [];

  constructor(
    public ledger: Ledger,
    private readonly report: (error: DecodeError) => void,
    callerSignals: readonly AbortSignal[],
  ) {
    this.failed = new Promise<never>((_, reject) => {
      this.rejectFailed = reject;
    });
    this.failed.catch(noop);
    if (typeof AbortSignal.any === 'function') {
      // No listener on the caller's signal (the SDK passes one long-lived signal to every request).
      this.signal = callerSignals.length === 0 ? this.controller.signal : AbortSignal.any([this.controller.signal, ...callerSignals]);
      return;
    }
    // Node < 20.3: forward the caller's abort by hand, and let go of the listener when done.
    this.signal = this.controller.signal;
    for (const signal of callerSignals) {
      if (signal.aborted) {
        this.controller.abort(signal.reason);
        continue;
      }
      const onAbort = (): void => this.controller.abort(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      this.unlink.push(() => signal.removeEventListener('abort', onAbort));
    }
  }

  /** Fails with `makeError()` at `deadline` (a `performance.now()` value) unless disarmed first. */
  arm(deadline: number, makeError: () => DecodeError): void {
    this.disarm();
    const wait = Math.min(Math.max(0, Math.ceil(deadline - performance.now())), MAX_TIMER_MS);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // Timers may fire a little early against performance.now(); re-arm for the remainder then.
      if (performance.now() < deadline) this.arm(deadline, makeError);
      else this.fail(makeError());
    }, wait);
    // The deadline bounds resources while the process lives; it is no reason to keep it alive.
    this.timer.unref();
  }

  disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Stops the deadline and lets go of the caller's signals: the exchange is over. */
  settle(): void {
    this.disarm();
    for (const unlink of this.unlink.splice(0)) unlink();
  }

  /** Trips a bound: errors the body stream, aborts the request, marks the ledger, reports. */
  fail(error: DecodeError): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    this.ledger.failure ??= error;
    this.settle();
    try {
      this.out?.error(error);
    } catch {
      // The stream was already closed or errored.
    }
    this.controller.abort(error);
    this.reader?.cancel(error).catch(noop);
    this.rejectFailed(error);
    this.report(error);
  }

  /** Counts one body chunk against every bound; returns the violation, if any. */
  account(chunk: Uint8Array, now: number): DecodeError | undefined {
    const { ledger } = this;
    let ids: readonly ScannedId[] = [];
    if (this.scanner !== undefined) {
      const scanned = this.scanner.scan(chunk, now);
      if (scanned.largest > ledger.maxBytes) return tooLarge('one SSE event', ledger.maxBytes, scanned.largest);
      ids = scanned.ids;
    }
    if (this.semantics === 'listen') {
      // Open-ended stream: only the event in progress is on the clock.
      const scanner = this.scanner as SseScanner;
      this.disarm();
      if (scanner.eventBytes > 0) {
        const startedAt = scanner.eventStartedAt;
        this.arm(startedAt + ledger.timeoutMs, () => timedOut('one SSE event', ledger.timeoutMs, startedAt));
      }
    } else {
      ledger.retained += chunk.length;
      if (ledger.retained > ledger.maxBytes) {
        const what = this.scanner !== undefined ? "one request's SSE stream (resumptions included)" : 'a response body';
        return tooLarge(what, ledger.maxBytes, ledger.retained);
      }
    }
    // The chunk passes and goes to the consumer: its ids become resumption points of this ledger.
    for (const { id, withData } of ids) this.recordId(id, ledger, withData);
    return undefined;
  }
}

/**
 * Creates a fetch that bounds every response it returns: Content-Length pre-check, bytes counted as
 * they arrive, `Accept-Encoding: identity` (raw = decoded bytes), a whole-response deadline, and per-event
 * plus cumulative bounds on SSE carried across `Last-Event-ID` resumption (README, `boundedFetch`).
 *
 * @param options - Instance limits (`maxBytes`, default 4 MiB; `timeoutMs`, default 60 s), the fetch to
 *   wrap, and an `onLimit` hook. Use one instance per agent: the resumption ledgers live in the instance.
 * @returns A function with the signature of `fetch`. A response that breaks a bound rejects (before the
 *   body) or errors its body stream with a {@link LimitError} (`TOO_LARGE`: unit `bytes`, limit, bytes
 *   read; `TIMEOUT`: unit `ms`, limit, elapsed) or a {@link DecodeError} `UNSUPPORTED_ENCODING`.
 * @throws RangeError when a limit is not a positive number.
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
  const instance = checkBounds(options, 'boundedFetch');
  const { onLimit } = options;
  const index = new EventIdIndex();

  return async function fetchWithBounds(input, init) {
    const scope = scopes.getStore();
    const perCall = init?.[FETCH_BOUNDS] === undefined ? undefined : checkBounds(init[FETCH_BOUNDS], 'FETCH_BOUNDS');
    const maxBytes = perCall?.maxBytes ?? scope?.bounds.maxBytes ?? instance.maxBytes ?? DEFAULT_MAX_BYTES;
    const timeoutMs = perCall?.timeoutMs ?? scope?.bounds.timeoutMs ?? instance.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const underlying = options.fetch ?? globalThis.fetch;

    const request = input instanceof Request ? input : undefined;
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = new Headers(init?.headers ?? request?.headers);
    const lastEventId = method === 'GET' ? headers.get('last-event-id') : null;
    const report = (error: DecodeError): void => {
      scope?.trip(error);
      try {
        onLimit?.({ error, url, method });
      } catch {
        // onLimit must not throw; a throwing hook must not break the bound.
      }
    };

    const resumed = lastEventId ? index.lookup(lastEventId) : undefined;
    const now = performance.now();
    let ledger: Ledger = resumed ?? {
      kind: 'request',
      maxBytes,
      timeoutMs,
      startedAt: now,
      retained: 0,
      failure: undefined,
      ids: [],
      dataIds: [],
    };
    // Only a fresh GET (not a resumption) can open MCP's standalone listening stream.
    const mayListen = method === 'GET' && !lastEventId;

    if (ledger.failure !== undefined) {
      report(ledger.failure);
      throw ledger.failure;
    }
    if (ledger.kind === 'request' && now >= ledger.startedAt + ledger.timeoutMs) {
      const error = timedOut('the whole response', ledger.timeoutMs, ledger.startedAt);
      ledger.failure = error;
      report(error);
      throw error;
    }

    const callerSignals = [init?.signal, request?.signal].filter((s): s is AbortSignal => s != null);
    const ex = new Exchange(ledger, report, callerSignals);
    // Headers are due by the ledger's deadline (a resumption keeps the original clock); a listening
    // stream's clock is its own request's.
    const startedAt = ledger.kind === 'request' ? ledger.startedAt : now;
    const limitMs = ledger.timeoutMs;
    ex.arm(startedAt + limitMs, () => timedOut('the whole response', limitMs, startedAt));

    headers.set('accept-encoding', 'identity');
    const { [FETCH_BOUNDS]: _bounds, ...rest }: BoundedRequestInit = init ?? {};
    const pending = Promise.resolve().then(() => underlying(input, { ...rest, headers, signal: ex.signal }));
    let response: Response;
    try {
      response = await Promise.race([pending, ex.failed]);
    } catch (error) {
      ex.settle();
      // A late response to a request we gave up on is released, not leaked.
      pending.then((late) => late.body?.cancel().catch(noop), noop);
      throw ex.failure ?? error;
    }

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
    if (ledger.kind === 'listen' && !sse) {
      // A listening ledger resumed with a non-stream answer: bound that answer as a request of its own.
      ledger = { ...ledger, kind: 'request', startedAt: now, retained: 0, ids: [], dataIds: [] };
      ex.ledger = ledger;
    } else if (mayListen && sse) {
      ledger.kind = 'listen';
    }
    ex.semantics = ledger.kind;

    if (ex.semantics === 'request') {
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
    } else {
      // Listening: the headers are in; from here only an event in progress is on the clock.
      ex.disarm();
    }

    const body = response.body;
    if (body === null || NULL_BODY_STATUSES.has(response.status)) {
      ex.settle();
      return response;
    }

    if (sse) {
      ex.scanner = new SseScanner();
      ex.recordId = (id, owner, withData) => index.record(id, owner, withData);
    }
    const reader = body.getReader();
    ex.reader = reader;
    const counted = new ReadableStream<Uint8Array>({
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

    const bounded = new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // Keep what a consumer may read off the original (the SDK reads `url` when describing redirects).
    Object.defineProperty(bounded, 'url', { value: response.url });
    Object.defineProperty(bounded, 'redirected', { value: response.redirected });
    return bounded;
  };
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
 *
 * Hand the `signal` to the SDK call (`client.callTool(params, undefined, { signal })`): when a bound
 * trips it is aborted with the typed error, so the SDK drops the pending request and tells the server
 * (`notifications/cancelled`). This is what makes an SSE-mode failure prompt: the SDK itself only
 * reports a broken SSE stream to `onerror`, as a plain `Error`, and leaves the call to its own timeout.
 *
 * @param bounds - Limits for this call; absent fields fall back to the instance's. May raise them.
 * @param fn - The call. Its async context (including SSE resumptions the SDK schedules) is in scope.
 * @returns What `fn` resolves to.
 * @throws The {@link LimitError} / {@link DecodeError} of the first bound that tripped within the call;
 *   otherwise whatever `fn` throws. RangeError when a limit is not a positive number.
 * @example
 * const result = await withFetchBounds({ maxBytes: 16_777_216, timeoutMs: 120_000 }, signal =>
 *   client.callTool({ name: 'get_products', arguments: args }, undefined, { signal, timeout: 120_000 }),
 * );
 */
export async function withFetchBounds<T>(bounds: FetchBounds, fn: (signal: AbortSignal) => T | PromiseLike<T>): Promise<T> {
  const checked = checkBounds(bounds, 'withFetchBounds');
  // Inside another scope, a field left out here keeps the outer scope's value.
  const outer = scopes.getStore()?.bounds;
  const merged: FetchBounds = {
    maxBytes: checked.maxBytes ?? outer?.maxBytes,
    timeoutMs: checked.timeoutMs ?? outer?.timeoutMs,
  };
  const controller = new AbortController();
  let failure: DecodeError | undefined;
  let rejectTripped: (error: DecodeError) => void = noop;
  const tripped = new Promise<never>((_, reject) => {
    rejectTripped = reject;
  });
  tripped.catch(noop);
  const scope: Scope = {
    bounds: merged,
    trip(error) {
      if (failure !== undefined) return;
      failure = error;
      rejectTripped(error);
      controller.abort(error);
    },
  };
  const run = scopes.run(scope, async () => fn(controller.signal));
  try {
    return await Promise.race([run, tripped]);
  } catch (error) {
    run.catch(noop);
    throw failure ?? error;
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
