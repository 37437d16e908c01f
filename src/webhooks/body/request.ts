/**
 * Reads an incoming webhook request, a WHATWG `Request` or a plain `{ method, url, headers, body }`,
 * into method, absolute URL, lowercase headers and raw body bytes, refusing an oversized body
 * before it is buffered in full (and long before any digest or parse).
 */
import { WebhookError } from '../errors.js';
import { shownText } from '../../errors/format.js';
import { readBoundedStream } from './bounded-stream.js';

/** Header values as Node (`IncomingMessage.headers`), Express or a plain object hold them. */
export type HeaderRecord = Readonly<Record<string, string | readonly string[] | undefined>>;

/** A request whose raw body the framework already read (Node `http`, Express `express.raw()`). */
export interface PlainWebhookRequest {
  readonly method: string;
  /**
   * The URL as received: Node's `req.url` (a path) is enough, since the receiver's `endpoint`
   * supplies the origin; an absolute URL is read for its path and query only.
   */
  readonly url: string | URL;
  readonly headers: HeaderRecord | Headers;
  /** The exact bytes received (a string is taken as their UTF-8 decoding). */
  readonly body: string | Uint8Array;
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

function tooLarge(limit: number, got: string): WebhookError {
  return new WebhookError('webhook_body_too_large', `expected a body of at most ${limit} bytes; got ${got}`);
}

function headerMap(headers: HeaderRecord | Headers): Map<string, string> {
  const map = new Map<string, string>();
  if (typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function') {
    (headers as Headers).forEach((value, name) => {
      map.set(name.toLowerCase(), value);
    });
    return map;
  }
  for (const [name, value] of Object.entries(headers as HeaderRecord)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    const joined = typeof value === 'string' ? value : value.join(', ');
    const previous = map.get(key);
    map.set(key, previous === undefined ? joined : `${previous}, ${joined}`);
  }
  return map;
}

function isRequest(request: IncomingWebhook): request is Request {
  return typeof Request !== 'undefined' && request instanceof Request;
}

const encoder = new TextEncoder();

/** Reads a WHATWG body stream, cancelling it the moment it passes `limit` bytes. */
async function readStream(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) {
    await request.body?.cancel().catch(() => undefined);
    throw tooLarge(limit, `Content-Length ${declared}`);
  }
  if (request.body === null) return new Uint8Array(0);
  return readBoundedStream(request.body, limit, () => tooLarge(limit, `more than ${limit}`));
}

/** The raw bytes of a plain request's body, refused above `limit` before any is copied. */
function plainBody(body: string | Uint8Array, limit: number): Uint8Array {
  if (typeof body !== 'string') {
    if (body.byteLength > limit) throw tooLarge(limit, `${body.byteLength}`);
    return body;
  }
  // Each UTF-16 unit is 1-3 UTF-8 bytes: more units than the limit cannot fit.
  if (body.length > limit) throw tooLarge(limit, `at least ${body.length}`);
  const bytes = encoder.encode(body);
  if (bytes.byteLength > limit) throw tooLarge(limit, `${bytes.byteLength}`);
  return bytes;
}

/**
 * Reads a request's method, URL, headers and body, refusing a body over `maxBodyBytes` (413)
 * from its Content-Length or while it streams, so an oversized body is never hashed or parsed.
 *
 * @param request - A WHATWG `Request` or a plain request with the raw body.
 * @param maxBodyBytes - The size bound.
 * @returns The request, read.
 * @throws {WebhookError} `webhook_body_too_large`, `webhook_method_not_allowed`.
 * @example
 * const read = await readWebhookRequest(request, 1_000_000);
 */
export async function readWebhookRequest(request: IncomingWebhook, maxBodyBytes: number): Promise<ReadRequest> {
  // Methods are case-sensitive (RFC 9110): `post` is not POST.
  const method = request.method;
  if (method !== 'POST') throw new WebhookError('webhook_method_not_allowed', `expected POST; got "${shownText(method, 16)}"`);
  const headers = headerMap(request.headers);
  const url = String(request.url);
  if (isRequest(request)) return { method, url, headers, body: await readStream(request, maxBodyBytes) };
  const declared = headers.get('content-length');
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > maxBodyBytes)
    throw tooLarge(maxBodyBytes, `Content-Length ${declared}`);
  return { method, url, headers, body: plainBody(request.body, maxBodyBytes) };
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
