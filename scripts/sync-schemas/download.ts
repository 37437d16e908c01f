/**
 * The HTTP client of sync-schemas: one file per request, with a timeout covering headers and body,
 * the body streamed and counted (aborted once it passes the lock's size), redirects followed (the
 * hash check makes the bytes trustworthy, not the host), and retries with exponential backoff on
 * network errors, timeouts, 408, 429 and 5xx (not on 404, other 4xx, or size mismatches).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { type MessageContext, missing, OFFLINE_HINT, SyncSchemasError, tooLarge } from './errors.js';
import type { Source } from './source.js';

/** Per-request timeout (headers and body). */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Extra attempts after a retryable failure. */
export const DEFAULT_RETRIES = 3;
/** First backoff delay; doubles each retry. */
export const DEFAULT_RETRY_DELAY_MS = 500;

/** One retry about to happen: the file, the attempt that failed (from 1), and the wait before the next. */
export interface RetryEvent {
  readonly rel: string;
  readonly attempt: number;
  readonly delayMs: number;
  readonly error: SyncSchemasError;
}

/** What a download needs: the source, the limits, and the signal that stops the whole run. */
export interface DownloadContext extends MessageContext {
  readonly source: Source;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryDelayMs: number;
  /** Told of every retry before its backoff wait. */
  readonly onRetry: ((event: RetryEvent) => void) | undefined;
  /** Aborted when another file failed: stop everything. */
  readonly stop: AbortController;
}

/** Errors worth another attempt (network trouble, timeouts, 5xx, 429). */
class RetryableError extends Error {
  constructor(readonly final: SyncSchemasError) {
    super(final.message);
  }
}

/**
 * Downloads one file from a URL source, at most `limit` bytes, retrying what is worth retrying.
 *
 * @param ctx - The source (a URL), limits and stop signal.
 * @param rel - The lock-relative path.
 * @param limit - The most bytes the file may have.
 * @returns The body.
 * @throws {SyncSchemasError} `MISSING` (404, 410), `HTTP`, `TIMEOUT`, `IO` (after the retries),
 *   `TOO_LARGE` (at once), or `IO` "cancelled" once the run is stopped.
 * @example
 * const data = await downloadWithRetries(ctx, 'LICENSE', want.bytes);
 */
export async function downloadWithRetries(ctx: DownloadContext, rel: string, limit: number): Promise<Buffer> {
  const attempts = ctx.retries + 1;
  for (let attempt = 1; ; attempt++) {
    try {
      return await downloadOnce(ctx, rel, limit);
    } catch (error) {
      if (!(error instanceof RetryableError)) throw error;
      if (attempt >= attempts || ctx.stop.signal.aborted) {
        const final = error.final;
        throw new SyncSchemasError(
          final.code,
          `${final.message} (after ${attempt} attempt${attempt === 1 ? '' : 's'}); check the network or use a local copy (${OFFLINE_HINT})`,
          { file: rel, cause: final },
        );
      }
      const delayMs = ctx.retryDelayMs * 2 ** (attempt - 1);
      ctx.onRetry?.({ rel, attempt, delayMs, error: error.final });
      try {
        await delay(delayMs, undefined, { signal: ctx.stop.signal });
      } catch (abort) {
        // Stopped while waiting: the next attempt reports the cancellation.
        if (!ctx.stop.signal.aborted) throw abort;
      }
    }
  }
}

/** Collects chunks until the stream ends, aborting as soon as more than `limit` bytes arrived. */
async function collectBounded(chunks: AsyncIterable<Uint8Array>, limit: number, onTooLarge: (seen: number) => Error): Promise<Buffer> {
  const parts: Buffer[] = [];
  let seen = 0;
  for await (const chunk of chunks) {
    seen += chunk.byteLength;
    if (seen > limit) throw onTooLarge(seen);
    parts.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return Buffer.concat(parts, seen);
}

async function downloadOnce(ctx: DownloadContext, rel: string, limit: number): Promise<Buffer> {
  if (ctx.stop.signal.aborted) throw new SyncSchemasError('IO', `${rel}: cancelled`, { file: rel });
  const source = ctx.source as Source & { kind: 'url' };
  const url = new URL(rel.split('/').map(encodeURIComponent).join('/'), source.base);
  const shown = `${source.display}/${rel}`;
  const controller = new AbortController();
  let timedOut = false;
  let complete = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, ctx.timeoutMs);
  const onStop = (): void => controller.abort();
  ctx.stop.signal.addEventListener('abort', onStop, { once: true });
  try {
    const response = await fetch(url, {
      signal: controller.signal,
      redirect: 'follow',
      headers: { accept: 'application/json, text/plain, */*' },
    });
    if (response.status === 404 || response.status === 410) {
      await response.body?.cancel();
      throw missing(ctx, rel, `HTTP ${response.status} from ${shown}`);
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      const error = new SyncSchemasError('HTTP', `${rel}: HTTP ${response.status} from ${shown}`, { file: rel });
      if (response.status >= 500 || response.status === 429 || response.status === 408) throw new RetryableError(error);
      throw error;
    }
    const length = response.headers.get('content-length');
    const encoding = response.headers.get('content-encoding');
    if (length !== null && (encoding === null || encoding === 'identity') && Number(length) > limit) {
      await response.body?.cancel();
      throw tooLarge(ctx, rel, limit, `Content-Length ${length}`);
    }
    const data =
      response.body === null
        ? Buffer.alloc(0)
        : await collectBounded(response.body, limit, (seen) => tooLarge(ctx, rel, limit, `received ${seen} bytes so far`));
    complete = true;
    return data;
  } catch (error) {
    if (error instanceof SyncSchemasError || error instanceof RetryableError) throw error;
    if (timedOut) {
      throw new RetryableError(
        new SyncSchemasError('TIMEOUT', `${rel}: no complete response from ${shown} within ${ctx.timeoutMs} ms`, { file: rel }),
      );
    }
    if (ctx.stop.signal.aborted) throw new SyncSchemasError('IO', `${rel}: cancelled`, { file: rel, cause: error });
    const cause = (error as { cause?: { message?: string; code?: string } }).cause;
    const detail = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new RetryableError(new SyncSchemasError('IO', `${rel}: network error fetching ${shown}: ${detail}`, { file: rel }));
  } finally {
    clearTimeout(timer);
    ctx.stop.signal.removeEventListener('abort', onStop);
    if (!complete && !controller.signal.aborted) controller.abort(); // release the connection on an early exit
  }
}
