/**
 * The one error type adcp-decode throws. Every failure carries a stable string `code`, the task
 * and AdCP version where known, and data fields; the message is one line that says what was
 * expected and what arrived, and never contains the payload.
 */
import type { KnownSellerError } from './seller-errors.js';

/** Stable error codes. Compare on these, never on messages. */
export type DecodeErrorCode =
  /** The task name is not in the selected AdCP version's manifest. */
  | 'UNKNOWN_TASK'
  /** The requested AdCP version is neither bundled nor defined, or an announced one is no release-precision version. */
  | 'UNSUPPORTED_VERSION'
  /**
   * The answer announces a well-formed AdCP release this buyer has not loaded (`"3.2"` with no 3.2
   * module): the configuration's to complete (generate the release and import its module), not the seller's fault.
   */
  | 'RELEASE_NOT_LOADED'
  /** The envelope held no machine-readable AdCP object (plain text, empty content, ...). */
  | 'NO_PAYLOAD'
  /** A text item looked like the payload but is not valid JSON. */
  | 'INVALID_JSON'
  /** The JSON holds `__proto__` or `constructor.prototype` keys. */
  | 'UNSAFE_JSON'
  /**
   * A JSON text the seller sent repeats a key in one object, so two readers of it could disagree
   * on its value (`JSON.parse` keeps the last); `path` points at the first repeat.
   */
  | 'DUPLICATE_KEY'
  /** A size bound (UTF-8 bytes) was exceeded. Nothing is truncated. */
  | 'TOO_LARGE'
  /** The payload nests deeper than `maxDepth` (checked before validation; `LimitError.unit` is `'depth'`). */
  | 'TOO_DEEP'
  /** The payload holds more than `maxNodes` values (checked before validation; `LimitError.unit` is `'nodes'`). */
  | 'TOO_MANY_VALUES'
  /** The input is not an MCP result, JSON-RPC error, A2A task/event/envelope, or payload. */
  | 'MALFORMED_ENVELOPE'
  /** An A2A `{ response: {...} }` wrapper, which the spec forbids. */
  | 'WRAPPER_DETECTED'
  /** The payload does not match the task's response schema. */
  | 'SCHEMA_MISMATCH'
  /** The seller answered with an AdCP error (`adcp_error`). */
  | 'TASK_FAILED'
  /**
   * A deadline passed before the response was complete: boundedFetch's `timeoutMs`, or the MCP
   * SDK client's own request timeout (its `McpError` -32001, raised by the client, passed to decode).
   */
  | 'TIMEOUT'
  /** An option passed to decode(), safeDecode() or createDecoder() is invalid (a caller bug). */
  | 'INVALID_OPTION'
  /**
   * decode() was given something that is no seller's answer and never crossed the wire: a Promise
   * or other thenable (a forgotten `await`), or what a client threw that is no answer (the caller's
   * abort, an HTTP refusal, an Error without a JSON-RPC code); or taskHandle() a value decode() did
   * not return. A caller bug, like INVALID_OPTION; the seller is not blamed.
   */
  | 'INVALID_INPUT'
  /**
   * A defect or packaging fault in adcp-decode itself (an exception of our own code, a validator
   * module missing from a bundle), never the seller's or the caller's; `cause` holds what was thrown.
   */
  | 'INTERNAL'
  /**
   * The response used a content coding (`gzip`, `br`, ...) the client did not accept. The bounded
   * fetch asks for `identity`, because a runtime's fetch decodes transparently and hides the raw
   * byte count, so a coded body's raw size could not be bounded.
   */
  | 'UNSUPPORTED_ENCODING'
  /**
   * A webhook was refused before its payload was trusted (size, content type, signature, replay,
   * duplicate keys, envelope); the `WebhookError` says which spec code and HTTP status apply.
   */
  | 'WEBHOOK_REJECTED'
  /**
   * encode() refused the caller's request arguments: they do not match the task's request schema
   * (a missing or malformed `idempotency_key` included), they contradict the pinned release
   * (`adcp_version`, `adcp_major_version`), they pass a bound, or they are not JSON data. The
   * caller's fault, never the seller's; see {@link RequestError}.
   */
  | 'INVALID_REQUEST'
  /**
   * With option `request`: the answer's `context` is not the request's echoed unchanged (altered,
   * missing, or present when the request sent none); `path` points at the first difference.
   */
  | 'CONTEXT_MISMATCH'
  /**
   * With option `request`: the `adcp_version` the seller served is not one the request's stamp
   * allows (a newer release, another major, a pre-release pin not matched exactly); see
   * {@link VersionMismatchError}.
   */
  | 'VERSION_MISMATCH'
  /**
   * The seller's `get_adcp_capabilities` answer lists no release adcp-decode bundles (decoderFor);
   * see {@link NoCommonVersionError}. Neither side's fault: upgrade adcp-decode or the seller.
   */
  | 'NO_COMMON_VERSION'
  /**
   * The request signer (adcp-decode/sign) cannot sign a request as the AdCP RFC 9421 profile
   * requires: a URL the `@target-uri` canonicalization refuses, a body without a Content-Type, a
   * signing function that answered no signature. The caller's to fix; nothing was sent.
   */
  | 'UNSIGNABLE_REQUEST'
  /**
   * With a task handle (decodeTaskStatus's `handle`, the webhook receiver's `handles`): the answer
   * names another task than the handle's (`task_type`, `task_id` or `operation_id` differ), so it
   * cannot be this task's; `path` names the field. See {@link TaskMismatchError}.
   */
  | 'TASK_MISMATCH'
  /**
   * callTask got no seller answer to decode: the seller refused the request at the HTTP level (a
   * status, with the `WWW-Authenticate: Signature error` code when seen), or the connection
   * failed or was dropped; see `TransportError` (adcp-decode/mcp, adcp-decode/a2a).
   */
  | 'TRANSPORT_FAILED';

/** AdCP error recovery classes (`adcp_error.recovery`). */
export type Recovery = 'transient' | 'correctable' | 'terminal';

/** One schema violation, as data. */
export interface ValidationIssue {
  /** JSON Pointer into the payload (`''` is the root), e.g. `/products/0/pricing_options`. */
  readonly path: string;
  /** The Ajv keyword that failed, e.g. `required`, `type`, `enum`, `oneOf`. */
  readonly keyword: string;
  /** Ajv's params for that keyword, e.g. `{ missingProperty: 'products' }`. */
  readonly params: Readonly<Record<string, unknown>>;
  /** JSON Pointer into the schema, e.g. `#/properties/products/type`. */
  readonly schemaPath: string;
  /** A short predicate, e.g. `must have required property 'products'`. */
  readonly message: string;
}

/** The AdCP error object a seller sent, unchanged (only `code` is guaranteed to be a string). */
export interface AdcpError {
  readonly code: string;
  readonly message?: string;
  readonly recovery?: string;
  readonly retry_after?: number;
  readonly field?: string;
  readonly suggestion?: string;
  readonly details?: unknown;
  readonly [key: string]: unknown;
}

/** How to react to an AdCP error. */
export interface RecoveryClassification {
  readonly recovery: Recovery;
  /** Seconds to wait before retrying, when the seller said so (`retry_after`). */
  readonly retryAfterSeconds?: number;
}

/** Fields common to every DecodeError's constructor. */
export interface DecodeErrorOptions {
  readonly task?: string | undefined;
  readonly version?: string | undefined;
  /** JSON Pointer to where in the input the problem is, when there is one place. */
  readonly path?: string | undefined;
  /** The release the payload announced, when `version` judged it in its place (see DecodeError.standInFor). */
  readonly standInFor?: string | undefined;
  readonly cause?: unknown;
}

/**
 * What a stage below decode() knows of the call it serves: the task, the version and the release
 * that version stands in for; it spreads them into the options of every error it builds, so the
 * error is complete where it is made (decode() passes its context down, never patches an error).
 */
export interface ErrorContext {
  readonly task?: string | undefined;
  readonly version?: string | undefined;
  readonly standInFor?: string | undefined;
}

/** The context of a call made outside decode() (an extractor called directly): nothing known. */
export const NO_CONTEXT: ErrorContext = Object.freeze({});

/**
 * The base class of every error adcp-decode throws.
 *
 * @example
 * try { decode('get_products', result) } catch (e) {
 *   if (e instanceof DecodeError && e.code === 'SCHEMA_MISMATCH') console.log(formatIssues(e));
 * }
 */
export class DecodeError extends Error {
  override readonly name: string = 'DecodeError';
  /** Stable code; see {@link DecodeErrorCode}. */
  readonly code: DecodeErrorCode;
  /** The task being decoded, when known. */
  readonly task: string | undefined;
  /** The AdCP version (pinned, e.g. `3.1.19`) in use, when known. */
  readonly version: string | undefined;
  /** JSON Pointer into the input where the problem is, when there is one place. */
  readonly path: string | undefined;
  /**
   * The newer release of a bundled major that the payload announced (e.g. `3.2`), when `version`,
   * the newest bundled release of that major, judged it in its place (option `newerRelease`).
   */
  readonly standInFor: string | undefined;

  constructor(code: DecodeErrorCode, message: string, options: DecodeErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.task = options.task;
    this.version = options.version;
    this.path = options.path;
    this.standInFor = options.standInFor;
  }
}

/**
 * The base of the errors whose data fields are their constructor's `data`: it builds them with
 * that data, whole, in the constructor. Each subclass declares the fields, for their documentation
 * (test/errors/data-errors.test-d.ts holds each declaration to its data).
 */
abstract class DataError<D extends object> extends DecodeError {
  constructor(code: DecodeErrorCode, message: string, data: D, options: DecodeErrorOptions) {
    super(code, message, options);
    Object.assign(this, data);
  }
}

/** The constructor {@link errorWithData} returns: the message, the data, the common options. */
type DataErrorConstructor<D extends object> = new (message: string, data: D, options?: DecodeErrorOptions) => DataError<D>;

/**
 * The base class of an error of one `code` whose data fields are its `data` (see {@link DataError}).
 *
 * @param code - The code every error of the class has.
 * @returns A class to extend.
 * @throws Never.
 * @example
 * class TaskMismatchError extends errorWithData<{ expected: string; received: string }>('TASK_MISMATCH') {}
 */
function errorWithData<D extends object>(code: DecodeErrorCode): DataErrorConstructor<D> {
  return class extends DataError<D> {
    constructor(message: string, data: D, options: DecodeErrorOptions = {}) {
      super(code, message, data, options);
    }
  };
}

/** `TOO_LARGE`, `TOO_DEEP`, `TOO_MANY_VALUES` or `TIMEOUT`: a bound was passed. */
export class LimitError extends DataError<{ unit: 'bytes' | 'depth' | 'nodes' | 'ms'; limit: number; actual: number }> {
  override readonly name = 'LimitError';
  declare readonly code: 'TOO_LARGE' | 'TOO_DEEP' | 'TOO_MANY_VALUES' | 'TIMEOUT';
  /** What was bounded: `'bytes'` (TOO_LARGE), `'depth'` (TOO_DEEP), `'nodes'` (TOO_MANY_VALUES), `'ms'` (TIMEOUT). */
  declare readonly unit: 'bytes' | 'depth' | 'nodes' | 'ms';
  /** The configured limit. */
  declare readonly limit: number;
  /** How much had been seen when the bound tripped (at least `limit + 1` for counts). */
  declare readonly actual: number;

  constructor(
    code: 'TOO_LARGE' | 'TOO_DEEP' | 'TOO_MANY_VALUES' | 'TIMEOUT',
    message: string,
    data: { unit: LimitError['unit']; limit: number; actual: number },
    options: DecodeErrorOptions = {},
  ) {
    super(code, message, data, options);
  }
}

/** What a schema refusal lists: the issues, and how complete the listing is (src/validate/issue-listing.ts). */
interface IssueListing {
  readonly schemaId?: string | undefined;
  readonly issues?: readonly ValidationIssue[];
  readonly issuesComplete?: boolean;
  readonly issuesFound?: number | undefined;
  readonly issuesShortened?: number;
}

/**
 * What a refused answer ({@link SchemaMismatchError}) and a refused request ({@link RequestError})
 * carry alike: the schema checked against and its violations, listed and bounded one way.
 */
abstract class IssuesError extends DecodeError {
  /** The schema `$id` checked against. */
  readonly schemaId: string | undefined;
  /**
   * The violations found, in Ajv's order: at most 1,000, the first exact, later long strings shortened (`issuesShortened`).
   * The bounds, and why: docs/robustness.md, "Issue listings".
   */
  readonly issues: readonly ValidationIssue[];
  /**
   * False when issues were left out: the listing was cut at the bounds above, or stopped past
   * 100,000 errors (`issues` then holds the first violation only). The message says which.
   */
  readonly issuesComplete: boolean;
  /** How many issues the listing found (`issues.length` or more); undefined when it stopped past 100,000. */
  readonly issuesFound: number | undefined;
  /** How many listed issues have a segment, message or param shortened with a `…(+N chars)` marker. */
  readonly issuesShortened: number;

  constructor(code: 'SCHEMA_MISMATCH' | 'INVALID_REQUEST', message: string, data: IssueListing, options: DecodeErrorOptions) {
    super(code, message, options);
    this.schemaId = data.schemaId;
    this.issues = data.issues ?? [];
    this.issuesComplete = data.issuesComplete ?? true;
    this.issuesFound = data.issuesComplete === false ? data.issuesFound : (data.issuesFound ?? this.issues.length);
    this.issuesShortened = data.issuesShortened ?? 0;
  }
}

/** `SCHEMA_MISMATCH`: the payload does not match the task's response schema. */
export class SchemaMismatchError extends IssuesError {
  override readonly name = 'SchemaMismatchError';
  override readonly code: 'SCHEMA_MISMATCH' = 'SCHEMA_MISMATCH';
  /** The response schema `$id` the payload was checked against. */
  declare readonly schemaId: string;

  constructor(
    message: string,
    data: IssueListing & { schemaId: string; issues: readonly ValidationIssue[] },
    options: DecodeErrorOptions = {},
  ) {
    super('SCHEMA_MISMATCH', message, data, options);
  }
}

/** `VERSION_MISMATCH`: the release the seller served is not one the request's stamp allows. */
export class VersionMismatchError extends errorWithData<{ requested: string; served: string }>('VERSION_MISMATCH') {
  override readonly name = 'VersionMismatchError';
  override readonly code: 'VERSION_MISMATCH' = 'VERSION_MISMATCH';
  /** What the request declared: its `adcp_version` (`"3.1"`), else `adcp_major_version` as text (`"3"`). */
  declare readonly requested: string;
  /** The answer's `adcp_version`, shown (escaped, at most 64 characters); a non-string is described (`number`). */
  declare readonly served: string;
}

/** `NO_COMMON_VERSION`: a seller's capabilities list no release adcp-decode bundles. */
export class NoCommonVersionError extends errorWithData<{ sellerVersions: readonly string[]; bundledReleases: readonly string[] }>(
  'NO_COMMON_VERSION',
) {
  override readonly name = 'NoCommonVersionError';
  override readonly code: 'NO_COMMON_VERSION' = 'NO_COMMON_VERSION';
  /** What the seller listed: `adcp.supported_versions`, else `adcp.major_versions` as text; shown, at most 32. */
  declare readonly sellerVersions: readonly string[];
  /** The releases adcp-decode bundles, e.g. `['3.1', '3.0']`. */
  declare readonly bundledReleases: readonly string[];
}

/** `TASK_MISMATCH`: an answer that names another task than the handle it is correlated to. */
export class TaskMismatchError extends errorWithData<{ expected: string; received: string }>('TASK_MISMATCH') {
  override readonly name = 'TaskMismatchError';
  override readonly code: 'TASK_MISMATCH' = 'TASK_MISMATCH';
  /**
   * The handle's value of the field `path` names (its task, task id or operation id), shown (escaped,
   * at most 128 characters); for a webhook signed by another agent than the handle records, the
   * handle's agent (and `received` the signer's), at `/task_id`.
   */
  declare readonly expected: string;
  /** The answer's value of that field, shown (escaped, at most 128 characters); a non-string is described (`number`). */
  declare readonly received: string;
}

/** Describes a value's kind for messages without echoing it: `array`, `null`, `string (12 chars)`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array (${value.length} items)`;
  if (typeof value === 'string') return `string (${value.length} chars)`;
  if (typeof value === 'object') return 'object';
  return typeof value;
}

/**
 * Names what was thrown for a one-line message without trusting it: an Error's `name` (at most 64
 * characters), else the value's type; a thrown Proxy can throw again from `instanceof`, so this never throws.
 *
 * @param cause What was thrown.
 * @returns `'TypeError'`, `'an Error'` (no string name), `'null'`, `'string'`, ... or `'an unreadable value'`.
 * @throws Never.
 * @example
 * describeThrown(new RangeError('x')); // 'RangeError'
 * describeThrown('oops'); // 'string'
 */
export function describeThrown(cause: unknown): string {
  try {
    if (cause instanceof Error) return typeof cause.name === 'string' ? cause.name.slice(0, 64) : 'an Error';
    return cause === null ? 'null' : typeof cause;
  } catch {
    return 'an unreadable value';
  }
}

/**
 * Runs a reader over caller-supplied input, so that whatever reading it throws becomes a
 * `MALFORMED_ENVELOPE` DecodeError at the place the reader had reached (see {@link wrapInputFault}).
 *
 * @param read The reader; it sets `cursor.at` to the JSON Pointer of what it is about to read.
 * @param context The call the input was given to, for the error.
 * @returns What the reader returns.
 * @throws {DecodeError} `MALFORMED_ENVELOPE` (or the reader's own DecodeError, unchanged).
 * @example
 * readInput((cursor) => { cursor.at = '/content'; return input.content; });
 */
export function readInput<T>(read: (cursor: { at: string }) => T, context: ErrorContext = NO_CONTEXT): T {
  const cursor = { at: '' };
  try {
    return read(cursor);
  } catch (error) {
    throw wrapInputFault(error, cursor.at, context);
  }
}

/**
 * Wraps an exception raised while reading caller-supplied input (a throwing getter, a Proxy trap,
 * a revoked Proxy) as a `MALFORMED_ENVELOPE` DecodeError, so extraction never leaks a TypeError;
 * a DecodeError passes through unchanged.
 *
 * @param cause - What was thrown; kept as the error's `cause`, never copied into the message.
 * @param path - JSON Pointer of the value being read when it threw (`''` is the input itself).
 * @param context - The call the input was given to, for the new error.
 * @returns The DecodeError to throw.
 * @throws Never.
 * @example
 * try { read(input) } catch (e) { throw wrapInputFault(e, '/content/0') }
 */
export function wrapInputFault(cause: unknown, path: string, context: ErrorContext = NO_CONTEXT): DecodeError {
  try {
    // A thrown Proxy can throw again from instanceof.
    if (cause instanceof DecodeError) return cause;
  } catch {
    // not a DecodeError; describeThrown names it
  }
  const kind = describeThrown(cause);
  const where = path === '' ? 'the input' : `input at ${path}`;
  return new DecodeError('MALFORMED_ENVELOPE', `expected readable ${where}, but reading it threw ${kind}`, {
    ...context,
    path,
    cause,
  });
}

/** What about a request encode() refused: see {@link RequestError.fault}. */
export type RequestFault = 'schema' | 'stamp' | 'limit' | 'data';

/**
 * `INVALID_REQUEST`: encode() refused the caller's request arguments, before anything was sent.
 * A schema refusal carries the issues, listed and bounded as a {@link SchemaMismatchError}'s are.
 */
export class RequestError extends IssuesError {
  override readonly name = 'RequestError';
  override readonly code: 'INVALID_REQUEST' = 'INVALID_REQUEST';
  /**
   * What was refused: `'schema'` (`issues`), `'stamp'` (`path`), `'limit'` or `'data'` (`cause` says which).
   * Each in full: docs/calling.md, "Requests: encode(task, args)".
   */
  readonly fault: RequestFault;

  /**
   * @param data - The fault; for a `'schema'` fault the request schema `$id` and the violations
   *   (`issues` is empty otherwise), listed and bounded as a {@link SchemaMismatchError}'s are.
   */
  constructor(message: string, data: IssueListing & { fault: RequestFault }, options: DecodeErrorOptions = {}) {
    super('INVALID_REQUEST', message, data, options);
    this.fault = data.fault;
  }
}

/** `TASK_FAILED`: the seller answered with an AdCP error. */
export class TaskFailedError extends DecodeError {
  override readonly name = 'TaskFailedError';
  override readonly code: 'TASK_FAILED' = 'TASK_FAILED';
  /**
   * The `adcp_error` object as the seller sent it; `undefined` when the seller signalled failure
   * (`isError`, a JSON-RPC error, a failed A2A task) without a usable `adcp_error`.
   */
  readonly adcpError: AdcpError | undefined;
  /** How to react, per the version's error-code table and policy (or the task state's, without an adcp_error). */
  readonly recovery: RecoveryClassification;
  /**
   * The seller's error when its code is one the spec gives a meaning or data for
   * (`VERSION_UNSUPPORTED`, `IDEMPOTENCY_CONFLICT`, ...), typed: narrow on `known.code`.
   * `undefined` for any other code, or without an `adcp_error`.
   */
  readonly known: KnownSellerError | undefined;
  /**
   * What the seller said in words (the MCP `isError` text, the A2A status or artifact text, the
   * JSON-RPC error message), shown with `shownText`: escaped, at most 1,000 characters.
   */
  readonly sellerText: string | undefined;

  constructor(
    message: string,
    data: {
      adcpError: AdcpError | undefined;
      recovery: RecoveryClassification;
      known?: KnownSellerError | undefined;
      sellerText?: string | undefined;
    },
    options: DecodeErrorOptions = {},
  ) {
    super('TASK_FAILED', message, options);
    this.adcpError = data.adcpError;
    this.recovery = data.recovery;
    this.known = data.known;
    this.sellerText = data.sellerText;
  }
}
