/**
 * What the SDK clients throw, told apart by shape (the SDKs are never imported): the caller's own
 * abort; an HTTP refusal, which the MCP SDK throws as a `StreamableHTTPError` (the status in
 * `code`, the body in the message) and @a2a-js/sdk as a plain Error whose message carries the
 * status and the body; @a2a-js/sdk's JSON-RPC errors (1.x's `envelopeCode`, 0.3's
 * `errorResponse`); and the plain Errors @a2a-js/sdk builds from a seller's answer it could not
 * read (an id that is not the request's, an event without `result`), known only by their message.
 * Structure is read first; a message only where the SDK gives nothing else, and only its first
 * characters, so that a seller's text of any size costs what its prefix costs.
 */
import { describeValue } from '../errors/errors.js';
import { hasOwn, isObject, own } from '../json/own.js';

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

/**
 * @a2a-js/sdk (both majors): `HTTP error for <method>! Status: 401 Unauthorized. Response: <body>`,
 * and the stream's `HTTP error establishing stream for <method>: 500 <status text>`, then
 * `. Response: <body>`, or (0.3) `. RPC Error: <message> (Code: <code>)`, or nothing. The status
 * text is the seller's reason phrase, of any length: only the status is matched here.
 */
const A2A_HTTP = /^HTTP error (?:for [^\s!]{1,200}! Status: |establishing stream for [^\s:]{1,200}: )([1-5]\d\d)\b/;

/** What @a2a-js/sdk writes between the status text and the body. */
const A2A_BODY = '. Response: ';

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
    if (a2a !== null) {
      // The body after the first `. Response: ` near the status; past a long status text, all of it is the seller's words.
      const rest = message.slice(a2a[0].length);
      const at = rest.slice(0, PREFIX_SCAN).indexOf(A2A_BODY);
      return { status: Number(a2a[1]), body: at < 0 ? rest.trimStart() : rest.slice(at + A2A_BODY.length) };
    }
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

/** A JSON-RPC error @a2a-js/sdk threw: the seller's error to decode, or what makes it none (its `error` or `code`, described). */
export type A2aRpcError = { readonly answer: unknown } | { readonly malformed: string };

/**
 * The seller's JSON-RPC error in an error @a2a-js/sdk threw, read by structure, as the JSON-RPC
 * error response decode() reads: 1.x's (`transport: 'jsonrpc'`, own `envelopeCode`, `message` and
 * `data`) rebuilt as one, so that a message that mimics an HTTP refusal stays the seller's error;
 * 0.3's (own `errorResponse`) is the response it was built from. An error without an integer code
 * is named as malformed: the SDK builds one from whatever `error` the seller sent.
 *
 * @param value - What the client threw (or its `cause`).
 * @returns The answer, the fault, or `undefined` when `value` is no such error.
 * @throws Whatever a getter or Proxy trap on `value` throws.
 * @example
 * a2aRpcError(caught); // { answer: { jsonrpc: '2.0', id: 1, error: { code: -32029, ... } } } for 0.3's
 */
export function a2aRpcError(value: object): A2aRpcError | undefined {
  if (own(value, 'transport') === 'jsonrpc' && hasOwn(value, 'envelopeCode')) {
    const code = own(value, 'envelopeCode');
    if (!Number.isInteger(code)) return { malformed: `a code that is ${describeValue(code)}` };
    const error = {
      code,
      message: (value as { message?: unknown }).message,
      ...(hasOwn(value, 'data') ? { data: own(value, 'data') } : {}),
    };
    return { answer: { jsonrpc: '2.0', error } };
  }
  if (!hasOwn(value, 'errorResponse')) return undefined;
  const response = own(value, 'errorResponse');
  const error = isObject(response) ? own(response, 'error') : undefined;
  if (!isObject(error)) return { malformed: `an error member that is ${describeValue(error)}` };
  const code = own(error, 'code');
  return Number.isInteger(code) ? { answer: response } : { malformed: `a code that is ${describeValue(code)}` };
}

/** The plain Errors @a2a-js/sdk (both majors) builds from a seller's answer it could not read, by how their message starts, with what the answer should have been. */
const A2A_FRAME_FAULTS: ReadonlyArray<readonly [start: string, expected: string]> = [
  ['JSON-RPC response ID mismatch ', "a JSON-RPC response carrying the request's id"],
  ["SSE event JSON-RPC response is missing 'result' field.", 'a JSON-RPC response with a result or an error'],
  ['Invalid JSON-RPC response for ', 'a JSON-RPC 2.0 response (jsonrpc "2.0")'],
  ['Failed to parse SSE event data: ', 'an SSE event holding JSON'],
  ['Attempted to process empty SSE event data.', 'an SSE event with data'],
  ['Invalid response Content-Type for SSE stream for ', 'an SSE stream (text/event-stream)'],
  ['SSE response body is undefined.', 'an SSE stream with a body'],
  ['Invalid response: missing payload', 'a result holding a task or a message'],
];

/** An answer a client could not read: what it should have been, who refused it, and the client's words (the seller's bytes in them, raw). */
export interface FrameFault {
  readonly expected: string;
  readonly client: string;
  readonly said: string;
}

/**
 * The answer a client could not read, in what it threw: a SyntaxError (its body or an event is
 * not JSON; the engine's message quotes it), the MCP SDK's ZodError (a message or CallToolResult
 * its schema refuses), a TypeError of @a2a-js/sdk's readers (a `null` where they want an object),
 * or one of @a2a-js/sdk's frame errors (an id that is not the request's, an event without
 * `result`, a body that is no SSE stream), which are plain Errors told apart only by their message.
 *
 * @param value - What the client threw.
 * @returns The fault, or `undefined` for anything else.
 * @throws Never.
 * @example
 * thrownFrameFault(new Error('JSON-RPC response ID mismatch for method SendMessage. Expected 1, got 2.'))?.expected;
 */
export function thrownFrameFault(value: unknown): FrameFault | undefined {
  try {
    if (!(value instanceof Error) || typeof value.message !== 'string') return undefined;
    const said = value.message;
    if (value instanceof SyntaxError) return { expected: 'JSON', client: 'the client', said };
    const issues = zodIssues(value);
    if (issues !== undefined)
      return { expected: 'a JSON-RPC message the MCP schema takes', client: 'the MCP SDK', said: `its schema found ${issues} issue(s)` };
    if (value instanceof TypeError)
      return thrownByReader(value) ? { expected: 'a JSON-RPC response of the types A2A gives it', client: '@a2a-js/sdk', said } : undefined;
    const fault = A2A_FRAME_FAULTS.find(([start]) => said.startsWith(start));
    return fault === undefined ? undefined : { expected: fault[1], client: '@a2a-js/sdk', said };
  } catch {
    return undefined;
  }
}

/**
 * How many issues a ZodError lists (zod 3's `ZodError`, 4's `$ZodError`): what the MCP SDK throws
 * when the seller's message, or its CallToolResult, fails the SDK's schema. Its message, a
 * multi-line JSON dump of the issues, is not shown.
 */
function zodIssues(value: Error): number | undefined {
  const issues = own(value, 'issues');
  return (value.name === 'ZodError' || value.name === '$ZodError') && Array.isArray(issues) ? issues.length : undefined;
}

/**
 * The first frame of a stack thrown by one of @a2a-js/sdk's readers of a seller's answer (both
 * majors: the JSON-RPC transports' `_sendRpcRequest`, `_sendStreamingRequest`,
 * `_processSseEventData`, the error builders, the 1.x messages' `fromJSON`), as V8 writes it.
 */
const SDK_READER =
  /^ {4}at (?:[\w$]+\.)?(?:fromJSON|fromJsonRpcErrorResponse|mapToError|_processSseEventData|_send(?:Rpc|Streaming)Request) \([^()\n]{0,400}@a2a-js[\\/]sdk/;

/**
 * Whether a TypeError was thrown where @a2a-js/sdk reads a seller's parsed answer: a `null` where
 * it expects an object (`Cannot read properties of null`), a code named like a prototype member.
 * No seller text tells it, only where it was thrown: the first frame of its stack. A stack that is
 * off, cut or rewritten reads as any other TypeError (the client's, rethrown).
 */
function thrownByReader(value: TypeError): boolean {
  const { stack } = value;
  const head = `${value.name}: ${value.message}\n`;
  return typeof stack === 'string' && stack.startsWith(head) && SDK_READER.test(stack.slice(head.length, head.length + PREFIX_SCAN));
}

/** @a2a-js/sdk 1.x's own bound on one SSE line or event (`maxEventSizeBytes`, 4 MiB by default). */
const A2A_SSE_SIZE = /^SSE (?:line|event data) exceeded the maximum allowed size of (\d{1,15}) bytes\./;

/**
 * The limit of @a2a-js/sdk 1.x's own SSE size bound, when that is what the client threw.
 *
 * @param value - What the client threw.
 * @returns The limit in bytes, or `undefined`.
 * @throws Never.
 * @example
 * sseSizeLimit(new Error('SSE line exceeded the maximum allowed size of 4194304 bytes. ...')); // 4194304
 */
export function sseSizeLimit(value: unknown): number | undefined {
  try {
    if (!(value instanceof Error) || typeof value.message !== 'string') return undefined;
    const match = A2A_SSE_SIZE.exec(value.message.slice(0, PREFIX_SCAN));
    return match === null ? undefined : Number(match[1]);
  } catch {
    return undefined;
  }
}

/** How many classes up from what was thrown are looked at (the SDKs' errors are one or two below Error). */
const MAX_PROTOS = 8;

/**
 * Whether a value is the MCP SDK's `UnauthorizedError`: its authProvider did not authorize after a
 * 401 (or a 403 asking for more scope). The class sets no `name` of its own, so it is known by its
 * constructor's.
 *
 * @param value - What the client threw.
 * @returns `true` for such an error.
 * @throws Never.
 * @example
 * isMcpUnauthorized(caught); // true after a 401 the authProvider could not answer
 */
export function isMcpUnauthorized(value: unknown): boolean {
  try {
    if (!(value instanceof Error)) return false;
    let proto: object | null = Object.getPrototypeOf(value);
    for (let depth = 0; depth < MAX_PROTOS && proto !== null && proto !== Error.prototype; depth++) {
      const made = own(proto, 'constructor');
      if (typeof made === 'function' && made.name === 'UnauthorizedError') return true;
      proto = Object.getPrototypeOf(proto);
    }
    return false;
  } catch {
    return false;
  }
}
