/**
 * What the SDK clients throw that is no seller's JSON-RPC error, told apart by shape (the SDKs are
 * never imported): the caller's own abort, and an HTTP refusal, which the MCP SDK throws as a
 * `StreamableHTTPError` (the status in `code`, the body in the message) and @a2a-js/sdk 1.x as a
 * plain Error whose message carries the status and the whole body. Only the first characters of
 * a message are matched, so a seller's body of any size costs what its prefix costs.
 */
import { hasOwn, own } from '../json/own.js';

/**
 * Whether a value is an abort: a DOMException (or any Error) named `AbortError` or `TimeoutError`,
 * what `controller.abort()`, `AbortSignal.timeout()` and `signal.throwIfAborted()` raise.
 *
 * @param value - Anything.
 * @returns `true` for an abort.
 * @throws Never.
 * @example
 * isAbortError(AbortSignal.abort().reason); // true
 */
export function isAbortError(value: unknown): boolean {
  try {
    if (!(value instanceof Error) && !(typeof DOMException === 'function' && value instanceof DOMException)) return false;
    const { name } = value as { name?: unknown };
    return name === 'AbortError' || name === 'TimeoutError';
  } catch {
    return false;
  }
}

/** An HTTP refusal an SDK threw: its status (`undefined` for the MCP SDK's "unexpected content type") and the body as text. */
export interface ThrownRefusal {
  readonly status: number | undefined;
  readonly body: string;
}

/** How far into a message the SDKs' prefixes are looked for. */
const PREFIX_SCAN = 512;

/** The MCP SDK's StreamableHTTPError: `Streamable HTTP error: <what>: <body>`, the status in its own `code`. */
const MCP_HTTP = /^Streamable HTTP error: (?:Error POSTing to endpoint: |Failed to open SSE stream: |Unexpected content type: )?/;

/** @a2a-js/sdk 1.x: `HTTP error for <method>! Status: 401 Unauthorized. Response: <body>` (and the stream's and REST's alike). */
const A2A_HTTP =
  /^HTTP error (?:for [^\s!]{1,200}! Status: |establishing stream for [^\s:]{1,200}: )([1-5]\d\d)\b[^\n]{0,200}?\. Response: /;

/**
 * The HTTP refusal in what an SDK client threw, or `undefined` for anything else (a seller's
 * JSON-RPC error among them: an McpError's message starts `MCP error `, never `Streamable HTTP error: `).
 *
 * @param value - What the client threw.
 * @returns The status and body text, or `undefined`.
 * @throws Never.
 * @example
 * thrownRefusal(new Error('HTTP error for SendMessage! Status: 503 Service Unavailable. Response: busy')); // { status: 503, body: 'busy' }
 */
export function thrownRefusal(value: unknown): ThrownRefusal | undefined {
  try {
    if (!(value instanceof Error) || typeof value.message !== 'string') return undefined;
    const { message } = value;
    const head = message.slice(0, PREFIX_SCAN);
    const mcp = MCP_HTTP.exec(head);
    const code = own(value, 'code');
    if (mcp !== null && Number.isInteger(code)) {
      const status = (code as number) >= 100 && (code as number) <= 599 ? (code as number) : undefined;
      return { status, body: message.slice(mcp[0].length) };
    }
    const a2a = A2A_HTTP.exec(head);
    if (a2a !== null) return { status: Number(a2a[1]), body: message.slice(a2a[0].length) };
    // @a2a-js/sdk's REST transport: an A2AError with the status in `statusCode`.
    const statusCode = own(value, 'statusCode');
    if (
      own(value, 'transport') === 'rest' &&
      Number.isInteger(statusCode) &&
      (statusCode as number) >= 300 &&
      (statusCode as number) <= 599
    )
      return { status: statusCode as number, body: message };
    return undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a value is @a2a-js/sdk 1.x's JSON-RPC error (`JsonRpcTransportError` and its
 * `JsonRpc…Error` kin): own `transport: 'jsonrpc'` and an integer `envelopeCode`, the seller's
 * JSON-RPC `error.code`, with its `data` in `data`.
 *
 * @param value - Anything.
 * @returns `true` for such an error.
 * @throws Whatever a getter or Proxy trap on `value` throws.
 * @example
 * isA2aJsonRpcError(caught) && decode('get_products', caught); // TaskFailedError
 */
export function isA2aJsonRpcError(value: object): boolean {
  return hasOwn(value, 'envelopeCode') && Number.isInteger(own(value, 'envelopeCode')) && own(value, 'transport') === 'jsonrpc';
}
