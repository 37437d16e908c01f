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
import { DecodeError, LimitError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { EventIdIndex } from './event-ids.js';
import { Exchange, noop, type Ledger } from './exchange.js';
import {
  checkBounds,
  DEFAULT_MAX_BYTES,
  DEFAULT_TIMEOUT_MS,
  FETCH_BOUNDS,
  timedOut,
  type BoundedRequestInit,
  type FetchBounds,
} from './fetch-bounds.js';
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

/** A per-call scope opened by {@link withFetchBounds}. */
interface Scope {
  readonly bounds: FetchBounds;
  trip(error: DecodeError): void;
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
 * plus cumulative bounds on SSE carried across `Last-Event-ID` resumption (README, `boundedFetch`).
 *
 * @param options - Instance limits (`maxBytes`, default 4 MiB; `timeoutMs`, default 60 s), the fetch to
 *   wrap, and an `onLimit` hook. Use one instance per agent: the resumption ledgers live in the instance.
 * @returns A function with the signature of `fetch`. A response that breaks a bound rejects (before the
 *   body) or errors its body stream with a {@link LimitError} (`TOO_LARGE`: unit `bytes`, limit, bytes
 *   read; `TIMEOUT`: unit `ms`, limit, elapsed) or a {@link DecodeError} `UNSUPPORTED_ENCODING`.
 * @throws DecodeError `INVALID_OPTION` when a limit is not a positive number.
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
 *   otherwise whatever `fn` throws. DecodeError `INVALID_OPTION` when a limit is not a positive number.
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
