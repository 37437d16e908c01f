/**
 * Reads a WHATWG byte stream whole, cancelling it the moment it passes a byte bound: the one read
 * loop of the webhook request body and of the remote documents (JWKS, revocation list).
 */

/**
 * The bytes of `stream`, at most `limit` of them.
 *
 * @param stream - The body stream.
 * @param limit - The most bytes accepted.
 * @param tooLarge - Builds the error thrown once the stream has passed `limit` (after it is cancelled).
 * @param beforeRead - Runs before each read; what it throws ends the read (a deadline check).
 * @returns The bytes, in one array.
 * @throws What `tooLarge` or `beforeRead` throw, or the stream's own error.
 * @example
 * const bytes = await readBoundedStream(response.body, 1024, () => new Error('over 1 KiB'));
 */
export async function readBoundedStream(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  tooLarge: () => Error,
  beforeRead?: () => void,
): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    beforeRead?.();
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
