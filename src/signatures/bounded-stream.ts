/**
 * Reads a body whole, cancelling it the moment it passes a byte bound or its deadline: the one read
 * loop of the webhook request body (a WHATWG stream, or an async iterable such as Node's
 * `IncomingMessage`) and of the remote documents (JWKS, revocation list).
 */

/** The bounds of one read. */
export interface ReadBounds {
  /** The most bytes accepted. */
  readonly limit: number;
  /** Builds the error thrown once the body has passed `limit`. */
  readonly tooLarge: () => Error;
  /** The whole read's deadline, in milliseconds, and the error thrown past it. */
  readonly deadline?: { readonly ms: number; readonly late: () => Error } | undefined;
  /** Runs before each read; what it throws ends the read (an abort check). */
  readonly beforeRead?: (() => void) | undefined;
  /** Builds the error for a chunk that is not bytes (a stream decoded to text, say). */
  readonly notBytes?: ((chunk: unknown) => Error) | undefined;
}

/** One source of chunks: how to read the next, and how to stop it early. */
interface ChunkSource {
  next(): Promise<{ readonly done?: boolean | undefined; readonly value?: unknown }>;
  /** Stops the source; `tooLarge` says whether the stop is for the size bound (the answer should still reach the sender). */
  stop(tooLarge: boolean): void;
}

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

async function collect(source: ChunkSource, bounds: ReadBounds): Promise<Uint8Array> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Raced with every read, so a source that never answers still ends at the deadline.
  const expired =
    bounds.deadline === undefined
      ? undefined
      : new Promise<never>((_, reject) => {
          const { ms, late } = bounds.deadline as NonNullable<ReadBounds['deadline']>;
          timer = setTimeout(() => reject(late()), ms);
        });
  const chunks: Uint8Array[] = [];
  let total = 0;
  let stopped = false;
  const stop = (tooLarge: boolean): void => {
    if (!stopped) source.stop(tooLarge);
    stopped = true;
  };
  try {
    for (;;) {
      bounds.beforeRead?.();
      const step = await (expired === undefined ? source.next() : Promise.race([source.next(), expired]));
      if (step.done === true) break;
      const value = step.value;
      if (!(value instanceof Uint8Array)) throw (bounds.notBytes ?? (() => new TypeError('a body chunk is not bytes')))(value);
      total += value.byteLength;
      if (total > bounds.limit) {
        stop(true);
        throw bounds.tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    stop(false);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return concat(chunks, total);
}

/**
 * The bytes of a WHATWG stream, at most `bounds.limit` of them, within `bounds.deadline`.
 *
 * @param stream - The body stream.
 * @param bounds - Byte bound, deadline, abort check and their errors.
 * @returns The bytes, in one array.
 * @throws What `tooLarge`, `late`, `notBytes` or `beforeRead` throw, or the stream's own error; the
 *   stream is cancelled first, except past the size bound, where the rest is left unread.
 * @example
 * const bytes = await readBoundedStream(response.body, { limit: 1024, tooLarge: () => new Error('over 1 KiB') });
 */
export function readBoundedStream(stream: ReadableStream<Uint8Array>, bounds: ReadBounds): Promise<Uint8Array> {
  const reader = stream.getReader();
  return collect(
    {
      next: () => reader.read(),
      // Past the size bound the rest is left unread (the host server drains it and the 413 still
      // reaches the sender); past the deadline or on an error the stream is cancelled.
      stop: (tooLarge) => (tooLarge ? reader.releaseLock() : void reader.cancel().catch(() => undefined)),
    },
    bounds,
  );
}

/** A Node stream's `destroy()`, when the iterable has one (Node's `IncomingMessage`, any Readable). */
function destroyOf(iterable: object): (() => void) | undefined {
  const destroy: unknown = (iterable as { destroy?: unknown }).destroy;
  return typeof destroy === 'function' ? () => destroy.call(iterable) : undefined;
}

/**
 * The bytes of an async iterable of byte chunks (Node's `IncomingMessage`, a generator), at most
 * `bounds.limit` of them, within `bounds.deadline`.
 * Why a stalled body is destroyed: docs/robustness.md, "The receiver against one sender among many".
 *
 * @param iterable - The body.
 * @param bounds - Byte bound, deadline and their errors.
 * @returns The bytes, in one array.
 * @throws What `tooLarge`, `late` or `notBytes` throw, or the iterable's own error. Past the deadline or on an error a
 *   Node stream is destroyed first (an `IncomingMessage` with its socket: a dripping or stalled sender is cut off then,
 *   not at the server's own timeout) and the iterator returned; past the size bound it is left alone, so the host
 *   server can still send the 413.
 * @example
 * const bytes = await readBoundedIterable(req, { limit: 1_000_000, tooLarge, deadline: { ms: 10_000, late } });
 */
export function readBoundedIterable(iterable: AsyncIterable<unknown>, bounds: ReadBounds): Promise<Uint8Array> {
  const iterator = iterable[Symbol.asyncIterator]();
  const destroy = destroyOf(iterable);
  return collect(
    {
      next: () => iterator.next(),
      stop: (tooLarge) => {
        if (tooLarge) return;
        // An async iterator's return() waits behind its pending next(): a stalled sender would never
        // let it run, so the stream itself is destroyed first.
        try {
          destroy?.();
        } catch {
          // A destroy() that throws leaves the iterator's return() to stop the read.
        }
        void Promise.resolve(iterator.return?.()).catch(() => undefined);
      },
    },
    bounds,
  );
}
