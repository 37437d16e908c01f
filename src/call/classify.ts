/**
 * What a client threw, classed before anything is decoded: a seller's JSON-RPC error (MCP's
 * McpError, @a2a-js/sdk's JSON-RPC errors of either major, or one a stream's event carried) is an
 * answer to decode; an HTTP refusal or a failed connection is a TransportError; an answer the
 * client could not read (an id not the request's, an event without `result`, a body that is not
 * JSON) is MALFORMED_ENVELOPE; our own bound is itself; anything else (a client bug) is not ours to
 * class and is rethrown as it was. The caller's abort never reaches this: run.ts rethrows it first.
 */
import { DecodeError, describeThrown, type ErrorContext, LimitError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { type A2aRpcError, a2aRpcError, isMcpUnauthorized, sseSizeLimit, thrownFrameFault, thrownRefusal } from '../extract/thrown.js';
import { findBoundsError, type ResponseHead } from '../fetch/bounded-fetch.js';
import { isObject, own } from '../json/own.js';
import { parseStrict, repeatedKeyError } from '../json/text.js';
import { refusalOf } from './refusal.js';
import { judgeRefusal, type TransportBlame, TransportError } from './transport-error.js';

/** What to do with what a client threw. */
export type Classed =
  /** A seller's answer the client threw: decode it. */
  | { readonly kind: 'answer'; readonly answer: unknown }
  /** The attempt's end, typed. */
  | { readonly kind: 'error'; readonly error: DecodeError }
  /** Not ours to class (a client bug): rethrown as it was. */
  | { readonly kind: 'rethrow' };

/** Longest seller text quoted in a TransportError's message (the whole shown text is on `sellerText`). */
const MESSAGE_TEXT = 160;

/** Longest body kept on `sellerText`, as TaskFailedError keeps a seller's words. */
const SELLER_TEXT = 1000;

/** Node's and undici's codes for a connection that could not be made or was dropped. */
const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** How many `cause` links are followed (the SDKs and undici nest two or three). */
const MAX_CAUSES = 4;

/** The network code of a failed connection in `thrown` or its causes, or `''` for undici's bare `fetch failed` / `terminated`. */
function connectionFailure(thrown: unknown): string | undefined {
  let current = thrown;
  for (let depth = 0; depth <= MAX_CAUSES && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
    current = current.cause;
  }
  if (thrown instanceof TypeError && (thrown.message === 'fetch failed' || thrown.message === 'terminated')) return '';
  // The MCP SDK's own: the transport closed with the request pending (McpError -32000, no data).
  if (thrown instanceof Error && own(thrown, 'code') === -32000 && thrown.message === 'MCP error -32000: Connection closed') return '';
  return undefined;
}

/** Longest refusal body read as a JSON-RPC error (the SDK holds it whole already; past this it is only shown). */
const MAX_RPC_BODY = 1024 * 1024;

/**
 * A refusal whose body is a JSON-RPC error response (a gateway's 429 with `-32029` and its
 * `adcp_error`): the seller's JSON-RPC error, as @a2a-js/sdk reads such a body itself, so both
 * transports decode it alike. decode() checks its `adcp_error` as it checks any; a body that
 * repeats a key is refused here (`DUPLICATE_KEY`), as any seller text decode parses.
 */
function jsonRpcBody(body: string, context: ErrorContext): Classed | undefined {
  if (body.length > MAX_RPC_BODY || !body.trimStart().startsWith('{')) return undefined;
  const parsed = parseStrict(body);
  if (!parsed.ok || !isObject(parsed.value) || own(parsed.value, 'jsonrpc') !== '2.0') return undefined;
  const error = own(parsed.value, 'error');
  if (!isObject(error) || !Number.isInteger(own(error, 'code'))) return undefined;
  const repeated = repeatedKeyError(body, '', context);
  return repeated === undefined ? { kind: 'answer', answer: parsed.value } : { kind: 'error', error: repeated };
}

/** The JSON-RPC error @a2a-js/sdk threw, itself or (a stream's error event, `SSE event contained an error: …`) as the `cause` of a plain Error. */
function a2aRpcErrorIn(thrown: Error): A2aRpcError | undefined {
  const itself = a2aRpcError(thrown);
  if (itself !== undefined) return itself;
  const { cause } = thrown;
  return cause instanceof Error ? a2aRpcError(cause) : undefined;
}

/**
 * Classes what the client threw for one attempt. Structure first: a bound of ours, @a2a-js/sdk's
 * JSON-RPC errors (whose message is the seller's and may mimic anything), an HTTP refusal, an
 * McpError; then what a client builds from an answer it could not read, and a failed connection.
 *
 * @param thrown - What the send rejected with (not the caller's abort).
 * @param head - The head of the last refusal a bounded fetch of the call saw, if any.
 * @param context - The call's task and version, for the errors.
 * @returns What to do with it.
 * @throws Never.
 * @example
 * classify(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }), undefined, { task }); // { kind: 'error', error: TransportError }
 */
export function classify(thrown: unknown, head: ResponseHead | undefined, context: ErrorContext): Classed {
  try {
    const bound = findBoundsError(thrown);
    if (bound !== undefined) return { kind: 'error', error: bound };
    if (!(thrown instanceof Error)) return { kind: 'rethrow' };
    const rpc = a2aRpcErrorIn(thrown);
    if (rpc !== undefined)
      return 'answer' in rpc ? { kind: 'answer', answer: rpc.answer } : { kind: 'error', error: malformedRpcError(rpc.malformed, context) };
    const refused = thrownRefusal(thrown);
    if (refused !== undefined) {
      const carried = jsonRpcBody(refused.body, context);
      if (carried !== undefined) return carried;
      return { kind: 'error', error: refusalError(refused.status, refused.body, head, context) };
    }
    // The MCP SDK's McpError: the seller's JSON-RPC error, its code own and an integer.
    if (Number.isInteger(own(thrown, 'code'))) return { kind: 'answer', answer: thrown };
    const unread = unreadAnswer(thrown, head, context);
    if (unread !== undefined) return { kind: 'error', error: unread };
    const network = connectionFailure(thrown);
    if (network === undefined) return { kind: 'rethrow' };
    const what = `${describeThrown(thrown)}${network === '' ? '' : ` ${network}`}`;
    const message = `${context.task ?? 'the call'}: the connection failed before the seller's answer arrived (${what}); the seller may or may not have acted: resend the same request`;
    return { kind: 'error', error: new TransportError(message, {}, { ...context, cause: thrown }) };
  } catch {
    return { kind: 'rethrow' };
  }
}

/**
 * What a client threw for an answer it could not take: the MCP SDK's UnauthorizedError (a 401 its
 * authProvider did not resolve), @a2a-js/sdk's own SSE size bound, or an answer it could not read
 * (MALFORMED_ENVELOPE, the seller's; a TransportError when the answer was a refusal). The client's
 * Error quotes the seller's bytes raw, so it is not kept as `cause`: its words are shown, escaped
 * and cut, in the message.
 */
function unreadAnswer(thrown: Error, head: ResponseHead | undefined, context: ErrorContext): DecodeError | undefined {
  const task = context.task ?? 'the call';
  if (isMcpUnauthorized(thrown)) {
    // A 403 asking for more scope ends alike; the head says which, when a bounded fetch saw it last.
    const status = head?.status === 403 ? 403 : 401;
    return refusalError(status, '', head, context, " and the MCP client's authProvider did not authorize it (UnauthorizedError)");
  }
  const limit = sseSizeLimit(thrown);
  if (limit !== undefined)
    return new LimitError(
      'TOO_LARGE',
      `${task}: expected SSE events of at most ${limit} bytes (@a2a-js/sdk's maxEventSizeBytes); the seller sent a longer one`,
      { unit: 'bytes', limit, actual: limit + 1 },
      context,
    );
  const fault = thrownFrameFault(thrown);
  if (fault === undefined) return undefined;
  // A refusal whose body the client could not read (`null` where it wanted an error) is still a refusal: its status, as a bounded fetch saw it.
  if (head !== undefined) return refusalError(head.status, '', head, context);
  return new DecodeError(
    'MALFORMED_ENVELOPE',
    `${task}: expected ${fault.expected} from the seller; ${fault.client} could not read its answer: ${shownText(fault.said, MESSAGE_TEXT)}`,
    context,
  );
}

/** A JSON-RPC error without an integer code: no error decode() can read, and the seller's fault. */
function malformedRpcError(malformed: string, context: ErrorContext): DecodeError {
  return new DecodeError(
    'MALFORMED_ENVELOPE',
    `${context.task ?? 'the call'}: expected the seller's JSON-RPC error to carry an integer code; it sent ${malformed}`,
    context,
  );
}

/**
 * The typed refusal: the status the client threw, the headers a bounded fetch saw for it, the
 * body's words shown. The client's Error is not kept as `cause`: its message holds the body raw.
 */
function refusalError(
  status: number | undefined,
  body: string,
  head: ResponseHead | undefined,
  context: ErrorContext,
  how = '',
): DecodeError {
  const words = body.trim() === '' ? undefined : shownText(body, SELLER_TEXT);
  const said = words === undefined ? '' : `; the seller said: ${shownText(words, MESSAGE_TEXT)}`;
  const task = context.task ?? 'the call';
  if (status === undefined)
    return new DecodeError(
      'MALFORMED_ENVELOPE',
      `${task}: expected a JSON or SSE answer; got a body of another content type${said}`,
      context,
    );
  const refusal = refusalOf(status, head);
  const { blame, recovery } = judgeRefusal(refusal);
  const signature = refusal.signatureError === undefined ? '' : ` (Signature error "${refusal.signatureError}")`;
  const advice = recovery.recovery === 'transient' ? 'resend the same request later' : ADVICE[blame];
  const message = `${task}: the seller refused the request with HTTP ${status}${signature}${how}: ${advice}${said}`;
  return new TransportError(message, { refusal, sellerText: words }, context);
}

/** What each blame asks of the caller, in the message of a refusal that resending as is would meet again. */
const ADVICE: Readonly<Record<TransportBlame, string>> = {
  request: 'the request as sent is refused; fix it before resending',
  configuration: 'check the credentials, signing keys and URL this client is configured with; resending as is fails alike',
  seller: 'the seller cannot serve it; resending as is fails alike',
  network: 'the way to the seller failed',
};
