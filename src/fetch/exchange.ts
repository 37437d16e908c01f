/**
 * One request/response through a bounded fetch, and the budget (ledger) it draws on with the
 * streams that resume it: the deadline, the abort, and every body chunk counted against the bounds.
 */

import { timedOut, tooLarge } from '../bounds/fetch-bounds.js';
import type { DecodeError } from '../errors/errors.js';
import { MAX_TIMER_MS } from '../errors/option-rules.js';
import type { ScannedId, SseScanner } from './sse.js';

/** One request's byte and time budget, shared by the streams that resume it. */
export interface Ledger {
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

/** Does nothing: the handler of a rejection already dealt with elsewhere. */
export const noop = (): void => {};

/** One request/response through the bounded fetch: its deadline, its abort, its counting. */
export class Exchange {
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
