/**
 * One bounded fetch of a counterparty-supplied document (a JWKS, a signed revocation list): a byte
 * bound checked on the declared length and on every chunk, a deadline over headers and body, no
 * redirects and no content codings (a runtime's fetch would inflate them and hide the raw size).
 */

import { checkBounds } from '../bounds/fetch-bounds.js';
import { shownText } from '../errors/format.js';
import { readBoundedStream } from './bounded-stream.js';

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

/**
 * The options of a counterparty's document polled over HTTP (a JWKS, a revocation list): where it
 * is, how one fetch of it is bounded, and the clock its cache runs on.
 */
export interface RemoteDocumentOptions {
  /** The document's URL (pinned at onboarding). */
  readonly url: string | URL;
  /** Default: the global `fetch`. */
  readonly fetch?: ((input: string, init?: RequestInit) => Promise<Response>) | undefined;
  /** Largest body, in bytes. Default 256 KiB. */
  readonly maxBytes?: number | undefined;
  /** Deadline for one fetch, headers and body. Default 10 s. */
  readonly timeoutMs?: number | undefined;
  /** The clock in milliseconds. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/** The remote document's options by name, in the JWKS resolver's and the revocation list's lists (a type test holds it to `keyof RemoteDocumentOptions`). */
export const REMOTE_DOCUMENT_OPTION_KEYS = [
  'url',
  'fetch',
  'maxBytes',
  'timeoutMs',
  'now',
] as const satisfies readonly (keyof RemoteDocumentOptions)[];

/** Where a remote document is and how one fetch of it is bounded. */
export interface DocumentSource {
  readonly url: string;
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

/**
 * A remote document's URL and bounds from a public function's options, defaults filled in
 * (deadline 10 s).
 *
 * @param caller - The public function, named in the TypeError.
 * @param options - The document's URL and, optionally, its byte bound and deadline.
 * @param defaultMaxBytes - The byte bound when the options set none.
 * @returns The URL as a string and both bounds.
 * @throws {TypeError} For a URL that is not http(s).
 * @throws {DecodeError} `INVALID_OPTION` for a bound the bounded fetch would refuse (`maxBytes` a positive safe integer or
 *   `Infinity`, `timeoutMs` a positive number of ms up to 2^31 − 1).
 * @example
 * const { url, maxBytes, timeoutMs } = documentSource('createJwksResolver', options, JWKS_MAX_BYTES);
 */
export function documentSource(caller: string, options: RemoteDocumentOptions, defaultMaxBytes: number): DocumentSource {
  const url = String(options.url);
  if (!/^https?:\/\//i.test(url)) throw new TypeError(`${caller}: url must be an http(s) URL`);
  // The bounded fetch's one rule for its limits (INVALID_OPTION); null is refused like any other wrong type.
  const { maxBytes, timeoutMs } = checkBounds({ maxBytes: options.maxBytes, timeoutMs: options.timeoutMs }, caller);
  return { url, maxBytes: maxBytes ?? defaultMaxBytes, timeoutMs: timeoutMs ?? 10_000 };
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
  const bytes = await readBoundedStream(response.body, {
    limit: maxBytes,
    tooLarge: () => fail(`${what} body exceeds ${maxBytes} bytes`),
    beforeRead: () => {
      if (signal.aborted) throw fail(`${what} fetch passed its deadline`);
    },
  });
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
