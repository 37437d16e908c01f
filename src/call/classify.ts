/**
 * What a client threw, classed before anything is decoded: a seller's JSON-RPC error (MCP's
 * McpError, @a2a-js/sdk's JsonRpcTransportError, or one a stream's event carried) is an answer to
 * decode; an HTTP refusal or a failed connection is a TransportError; our own bound is itself;
 * anything else (a client bug) is not ours to class and is rethrown as it was. The caller's abort
 * never reaches this: run.ts rethrows it first.
 */
import { DecodeError, describeThrown, type ErrorContext } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { isA2aJsonRpcError, thrownRefusal } from '../extract/thrown.js';
import { findBoundsError, type ResponseHead } from '../fetch/bounded-fetch.js';
import { isObject, own } from '../json/own.js';
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
 * transports decode it alike. decode() checks its `adcp_error` as it checks any.
 */
function jsonRpcBody(body: string): unknown {
  if (body.length > MAX_RPC_BODY || !body.trimStart().startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    if (!isObject(parsed) || own(parsed, 'jsonrpc') !== '2.0') return undefined;
    const error = own(parsed, 'error');
    return isObject(error) && Number.isInteger(own(error, 'code')) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A seller's JSON-RPC error the client threw: an McpError (own integer `code`) or @a2a-js/sdk's, itself or as a stream error's `cause`. */
function jsonRpcAnswer(thrown: Error): unknown {
  if (thrownRefusal(thrown) !== undefined) return undefined;
  if (Number.isInteger(own(thrown, 'code')) || isA2aJsonRpcError(thrown)) return thrown;
  // @a2a-js/sdk wraps an error event of a stream: `SSE event contained an error: …`, the JSON-RPC error as `cause`.
  const { cause } = thrown;
  return cause instanceof Error && isA2aJsonRpcError(cause) && thrown.message.startsWith('SSE event contained an error: ')
    ? cause
    : undefined;
}

/**
 * Classes what the client threw for one attempt.
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
    const refused = thrownRefusal(thrown);
    if (refused !== undefined) {
      const carried = jsonRpcBody(refused.body);
      if (carried !== undefined) return { kind: 'answer', answer: carried };
      return { kind: 'error', error: refusalError(refused.status, refused.body, head, thrown, context) };
    }
    const answer = jsonRpcAnswer(thrown);
    if (answer !== undefined) return { kind: 'answer', answer };
    const network = connectionFailure(thrown);
    if (network === undefined) return { kind: 'rethrow' };
    const what = `${describeThrown(thrown)}${network === '' ? '' : ` ${network}`}`;
    const message = `${context.task ?? 'the call'}: the connection failed before the seller's answer arrived (${what}); the seller may or may not have acted: resend the same request`;
    return { kind: 'error', error: new TransportError(message, {}, { ...context, cause: thrown }) };
  } catch {
    return { kind: 'rethrow' };
  }
}

/** The typed refusal: the status the client threw, the headers a bounded fetch saw for it, the body's words shown. */
function refusalError(
  status: number | undefined,
  body: string,
  head: ResponseHead | undefined,
  cause: Error,
  context: ErrorContext,
): DecodeError {
  const words = body.trim() === '' ? undefined : shownText(body, SELLER_TEXT);
  const said = words === undefined ? '' : `; the seller said: ${shownText(words, MESSAGE_TEXT)}`;
  const task = context.task ?? 'the call';
  if (status === undefined)
    return new DecodeError('MALFORMED_ENVELOPE', `${task}: expected a JSON or SSE answer; got a body of another content type${said}`, {
      ...context,
      cause,
    });
  const refusal = refusalOf(status, head);
  const { blame, recovery } = judgeRefusal(refusal);
  const signature = refusal.signatureError === undefined ? '' : ` (Signature error "${refusal.signatureError}")`;
  const advice = recovery.recovery === 'transient' ? 'resend the same request later' : ADVICE[blame];
  const message = `${task}: the seller refused the request with HTTP ${status}${signature}: ${advice}${said}`;
  return new TransportError(message, { refusal, sellerText: words }, { ...context, cause });
}

/** What each blame asks of the caller, in the message of a refusal that resending as is would meet again. */
const ADVICE: Readonly<Record<TransportBlame, string>> = {
  request: 'the request as sent is refused; fix it before resending',
  configuration: 'check the credentials, signing keys and URL this client is configured with; resending as is fails alike',
  seller: 'the seller cannot serve it; resending as is fails alike',
  network: 'the way to the seller failed',
};
