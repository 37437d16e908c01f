/**
 * One bounded fetch of a counterparty-supplied document (a JWKS, a signed revocation list): a byte
 * bound checked on the declared length and on every chunk, a deadline over headers and body, no
 * redirects and no content codings (a runtime's fetch would inflate them and hide the raw size).
 */
import { shownText } from '../format.js';

/** The bounds of {@link fetchBoundedText}. */
export interface BoundedFetchOptions {
  /** Default: the global `fetch`. */
  readonly fetch?: ((input: string, init?: RequestInit) => Promise<Response>) | undefined;
  /** Largest body, in bytes. */
  readonly maxBytes: number;
  /** Deadline for the fetch, headers and body, in milliseconds. */
  readonly timeoutMs: number;
  /** Sent as `Accept`. Default `application/json`. */
  readonly accept?: string | undefined;
}

async function readBounded(
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
  fail: (message: string) => Error,
  what: string,
): Promise<string> {
  const declared = response.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw fail(`${what} Content-Length ${shownText(declared, 20)} exceeds ${maxBytes} bytes`);
  }
  const coding = response.headers.get('content-encoding');
  if (coding !== null && coding.toLowerCase() !== 'identity') {
    await response.body?.cancel().catch(() => undefined);
    throw fail(`${what} sent with a content coding; expected identity`);
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    if (signal.aborted) throw fail(`${what} fetch passed its deadline`);
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw fail(`${what} body exceeds ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw fail(`${what} body is not UTF-8`);
  }
}

/**
 * Fetches a document's text within the bounds; every failure (network, deadline, status, size,
 * coding, encoding) is the error `fail` builds, so each caller keeps its own error class.
 *
 * @param url - The document's URL.
 * @param options - Fetch function and bounds.
 * @param fail - Builds the error thrown for a failure, from a one-line message.
 * @param what - The document's name in messages ("JWKS", "revocation list").
 * @returns The body as text.
 * @throws The error `fail` returns.
 * @example
 * const text = await fetchBoundedText(url, { maxBytes: 262_144, timeoutMs: 10_000 }, (m) => new JwksError(m), 'JWKS');
 */
export async function fetchBoundedText(
  url: string,
  options: BoundedFetchOptions,
  fail: (message: string) => Error,
  what: string,
): Promise<string> {
  const doFetch = options.fetch ?? ((input: string, init?: RequestInit) => fetch(input, init));
  const signal = AbortSignal.timeout(options.timeoutMs);
  let response: Response;
  try {
    response = await doFetch(url, {
      signal,
      headers: { accept: options.accept ?? 'application/json', 'accept-encoding': 'identity' },
      redirect: 'error',
    });
  } catch (error) {
    throw Object.assign(fail(`${what} fetch failed (${error instanceof Error ? error.name : typeof error})`), { cause: error });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw fail(`${what} fetch answered HTTP ${response.status}`);
  }
  try {
    return await readBounded(response, options.maxBytes, signal, fail, what);
  } catch (error) {
    if (signal.aborted) throw Object.assign(fail(`${what} fetch passed its deadline`), { cause: error });
    throw error;
  }
}
