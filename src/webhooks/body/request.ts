/**
 * Reads an incoming webhook request, a WHATWG `Request` or a plain `{ method, url, headers, body }`,
 * into method, absolute URL, lowercase headers and raw body bytes, refusing an oversized body
 * before it is buffered in full (and long before any digest or parse), a body that does not
 * arrive within its deadline, and a body that is not raw bytes (the operator's route is wrong).
 */

import { describeValue } from '../../errors/errors.js';
import { shownText } from '../../errors/format.js';
import { WebhookError } from '../../errors/webhook-error.js';
import { type ReadBounds, readBoundedIterable, readBoundedStream } from '../../signatures/bounded-stream.js';

/** Header values as Node (`IncomingMessage.headers`), Express or a plain object hold them. */
export type HeaderRecord = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * A request's raw body: the bytes (a string is taken as their UTF-8 decoding), or a stream of them
 * (a WHATWG `ReadableStream`, or an async iterable of byte chunks such as Node's `IncomingMessage`),
 * which the receiver reads itself within `maxBodyBytes` and `bodyTimeoutMs`.
 */
export type RawBody = string | Uint8Array | ArrayBuffer | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** A request whose raw body the framework already read (Node `http`, Express `express.raw()`), or streams. */
export interface PlainWebhookRequest {
  readonly method: string;
  /**
   * The URL as received: Node's `req.url` (a path) is enough, since the receiver's `endpoint`
   * supplies the origin; an absolute URL is read for its path and query only.
   */
  readonly url: string | URL;
  readonly headers: HeaderRecord | Headers;
  /** The exact bytes received, or their stream: never a parsed object (`express.json()`). */
  readonly body: RawBody;
}

/** What the receiver accepts. */
export type IncomingWebhook = Request | PlainWebhookRequest;

/** A request read for verification. */
export interface ReadRequest {
  readonly method: string;
  /** The URL as given: absolute (a WHATWG Request's) or a path (Node's `req.url`). */
  readonly url: string;
  readonly headers: Map<string, string>;
  readonly body: Uint8Array;
}

/** How a body is read: its size bound and its deadline, in milliseconds. */
export interface BodyLimits {
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

function tooLarge(limit: number, got: string): WebhookError {
  return new WebhookError('webhook_body_too_large', `expected a body of at most ${limit} bytes; got ${got}`);
}

function misconfigured(message: string): WebhookError {
  return new WebhookError('webhook_receiver_misconfigured', message);
}

function notRaw(got: string): WebhookError {
  return new WebhookError(
    'webhook_body_not_raw',
    `the receiver needs the raw bytes: ${got}; hand it the body unparsed (express.raw(), a Buffer, a string, a stream or the Request itself), never after express.json()`,
  );
}

function isHeaders(headers: object): headers is Headers {
  return typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function';
}

function headerMap(headers: unknown): Map<string, string> {
  if (typeof headers !== 'object' || headers === null)
    throw misconfigured(`expected the request's headers as an object or Headers; got ${describeValue(headers)}`);
  const map = new Map<string, string>();
  if (isHeaders(headers)) {
    headers.forEach((value, name) => {
      map.set(name.toLowerCase(), value);
    });
    return map;
  }
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const ok = typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
    if (!ok) throw misconfigured(`expected header "${shownText(name, 40)}" as a string or a string array; got ${describeValue(value)}`);
    const key = name.toLowerCase();
    const joined = typeof value === 'string' ? value : (value as string[]).join(', ');
    const previous = map.get(key);
    map.set(key, previous === undefined ? joined : `${previous}, ${joined}`);
  }
  return map;
}

function isRequest(request: object): request is Request {
  return typeof Request !== 'undefined' && request instanceof Request;
}

const encoder = new TextEncoder();

function streamBounds(limits: BodyLimits): ReadBounds {
  return {
    limit: limits.maxBytes,
    tooLarge: () => tooLarge(limits.maxBytes, `more than ${limits.maxBytes}`),
    deadline: {
      ms: limits.timeoutMs,
      late: () =>
        new WebhookError(
          'webhook_body_timeout',
          `expected the whole body within ${limits.timeoutMs} ms (bodyTimeoutMs); it was still arriving`,
        ),
    },
    notBytes: (chunk) => notRaw(`the body stream yielded ${describeValue(chunk)}, not bytes (was setEncoding() called on it?)`),
  };
}

function declaredTooLarge(headers: ReadonlyMap<string, string>, limit: number): WebhookError | undefined {
  const declared = headers.get('content-length');
  return declared !== undefined && /^\d+$/.test(declared) && Number(declared) > limit
    ? tooLarge(limit, `Content-Length ${declared}`)
    : undefined;
}

/** Reads a WHATWG request's body stream within its bounds. */
async function requestBody(request: Request, headers: ReadonlyMap<string, string>, limits: BodyLimits): Promise<Uint8Array> {
  if (request.bodyUsed) throw notRaw('the Request body was already read (bodyUsed); pass the Request before anything reads it');
  // Refused unread: cancelling would reset the connection in some servers, and the 413 must arrive.
  const over = declaredTooLarge(headers, limits.maxBytes);
  if (over !== undefined) throw over;
  if (request.body === null) return new Uint8Array(0);
  return readBoundedStream(request.body, streamBounds(limits));
}

/** The raw bytes of a plain request's body, refused above the bound before any is copied. */
async function plainBody(body: unknown, limits: BodyLimits): Promise<Uint8Array> {
  const limit = limits.maxBytes;
  if (body instanceof ArrayBuffer) body = new Uint8Array(body);
  if (body instanceof Uint8Array) {
    if (body.byteLength > limit) throw tooLarge(limit, `${body.byteLength}`);
    return body;
  }
  if (typeof body === 'string') {
    // Each UTF-16 unit is 1-3 UTF-8 bytes: more units than the limit cannot fit.
    if (body.length > limit) throw tooLarge(limit, `at least ${body.length}`);
    const bytes = encoder.encode(body);
    if (bytes.byteLength > limit) throw tooLarge(limit, `${bytes.byteLength}`);
    return bytes;
  }
  if (typeof ReadableStream !== 'undefined' && body instanceof ReadableStream) return readBoundedStream(body, streamBounds(limits));
  if (typeof body === 'object' && body !== null && Symbol.asyncIterator in body)
    return readBoundedIterable(body as AsyncIterable<unknown>, streamBounds(limits));
  const what =
    typeof body === 'object' && body !== null
      ? 'the body is an object, parsed by a framework (e.g. express.json())'
      : `the body is ${describeValue(body)}`;
  throw notRaw(what);
}

/** The URL as given: absolute http(s), or a path as Node's `req.url` (the receiver's `endpoint` completes it). */
function requestUrl(url: unknown): string {
  const text = typeof url === 'string' ? url : url instanceof URL ? url.href : undefined;
  // Origin-form (RFC 9112) may open with empty segments: `//x` is the path the sender asked for.
  if (text?.startsWith('/')) return text;
  let parsed: URL | undefined;
  try {
    parsed = text === undefined ? undefined : new URL(text);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:'))
    throw misconfigured(
      `expected the URL the seller posted to, absolute http(s) or a path such as Node's req.url; got ${typeof url === 'string' ? `"${shownText(url, 80)}"` : describeValue(url)}`,
    );
  return text as string;
}

/**
 * Reads a request's method, URL, headers and body, refusing a body over `limits.maxBytes` (413)
 * from its Content-Length or while it streams, so an oversized body is never hashed or parsed,
 * and a streamed body not whole within `limits.timeoutMs` (408).
 *
 * @param request - A WHATWG `Request` or a plain request with the raw body or its stream.
 * @param limits - The size bound and the body deadline.
 * @returns The request, read.
 * @throws {WebhookError} `webhook_body_too_large`, `webhook_body_timeout`, `webhook_method_not_allowed`;
 *   `webhook_body_not_raw` and `webhook_receiver_misconfigured` for the operator's faults.
 * @example
 * const read = await readWebhookRequest(request, { maxBytes: 1_000_000, timeoutMs: 10_000 });
 */
export async function readWebhookRequest(request: IncomingWebhook, limits: BodyLimits): Promise<ReadRequest> {
  if (typeof request !== 'object' || request === null)
    throw misconfigured(`receive() needs a WHATWG Request or { method, url, headers, body }; got ${describeValue(request)}`);
  // Methods are case-sensitive (RFC 9110): `post` is not POST.
  const method: unknown = request.method;
  if (typeof method !== 'string') throw misconfigured(`expected the request's method as a string; got ${describeValue(method)}`);
  if (method !== 'POST') throw new WebhookError('webhook_method_not_allowed', `expected POST; got "${shownText(method, 16)}"`);
  const headers = headerMap(request.headers);
  if (isRequest(request)) return { method, url: request.url, headers, body: await requestBody(request, headers, limits) };
  const url = requestUrl(request.url);
  const over = declaredTooLarge(headers, limits.maxBytes);
  if (over !== undefined) throw over;
  return { method, url, headers, body: await plainBody(request.body, limits) };
}

const JSON_MEDIA_TYPE = /^application\/json[\t ]*(?:;|$)/i;

/**
 * Checks `Content-Type` is `application/json` (parameters such as `charset` allowed), as
 * webhooks.mdx requires before signature verification.
 *
 * @param headers - The request's headers (lowercase names).
 * @throws {WebhookError} `webhook_content_type_invalid` (415).
 * @example
 * checkContentType(new Map([['content-type', 'application/json']]));
 */
export function checkContentType(headers: ReadonlyMap<string, string>): void {
  const type = headers.get('content-type');
  if (type === undefined || !JSON_MEDIA_TYPE.test(type.trim())) {
    throw new WebhookError(
      'webhook_content_type_invalid',
      `expected Content-Type application/json; got ${type === undefined ? 'none' : `"${shownText(type, 64)}"`}`,
    );
  }
}
