/**
 * decode(): the one call between a seller's answer and the buyer's state. It finds the payload
 * the way the spec's extraction algorithms say, bounds it, picks the schema (task, version,
 * sync or async variant by `status`), validates it with the ahead-of-time compiled validator,
 * and returns it typed, or throws a DecodeError that says what went wrong and where.
 */
import { checkTree, DEFAULT_BOUNDS, snapshot, storedIndexes, textTooLarge, withinBounds, type Bounds } from './bounds.js';
import {
  DecodeError,
  SchemaMismatchError,
  TaskFailedError,
  describeThrown,
  describeValue,
  type AdcpError,
  type Recovery,
  type RecoveryClassification,
  type ValidationIssue,
} from './errors.js';
import { locateA2aPayload, looksLikeA2a, type A2aPayloadLocation } from './extract-a2a.js';
import {
  locateA2aError,
  locateMcpError,
  looksLikeJsonRpcError,
  checkAdcpError,
  type AdcpErrorLocation,
  jsonRpcErrorCode,
  MAX_ADCP_ERROR_BYTES,
  RESERVED_JSON_RPC_CODES,
} from './extract-errors.js';
import {
  locateMcpPayload,
  looksLikeMcp,
  readTextItem,
  type McpPayloadLocation,
  type McpRejectedText,
  type ParsedShape,
  type TextBudget,
} from './extract-mcp.js';
import type { ResponsesByVersion } from './generated/index.js';
import { classifyRecoveryWith } from './recovery.js';
import { recordVariant } from './final.js';
import type { CommonDecodeOptions, Transport } from './options.js';
import { TASK_STATUSES } from './response-types.js';
import { localFault, inputMayThrow } from './local-faults.js';
import {
  defaultVersion,
  resolveAnnouncedVersion,
  resolveVersion,
  tablesFor,
  versions,
  type AnnouncedResolution,
  type NewerRelease,
  type Version,
} from './versions.js';
import { shownPointer, shownText } from './format.js';
import { fastValidator, firstIssues, listIssues, type IssueListing, type Variant } from './validators.js';
import { hasOwn, isObject } from './own-properties.js';
import { unwrapJsonRpcResult } from './json-rpc.js';

export type { Transport } from './options.js';

/** Options of {@link decode}, {@link safeDecode} and {@link createDecoder}. */
export interface DecodeOptions extends CommonDecodeOptions {
  /**
   * `'auto'` (default): the payload's `adcp_version` (`"3.0"`, `"3.1"`) picks the schemas, else
   * the default version; or a bundled version (`'3.1.19'`) or release (`'3.1'`), which wins.
   */
  readonly version?: 'auto' | Version | ReleaseOf<Version> | undefined;
  /**
   * With `version: 'auto'`, a payload announcing a newer release of a bundled major (`"3.2"`):
   * `'newest'` (default) judges it with the newest bundled release of that major (releases are
   * additive) and says so (`standInFor`); `'refuse'` fails with `UNSUPPORTED_VERSION`.
   */
  readonly newerRelease?: NewerRelease | undefined;
}

/** `'3.1'` for `'3.1.19'`. */
export type ReleaseOf<V extends string> = V extends `${infer Major}.${infer Minor}.${string}` ? `${Major}.${Minor}` : never;

/** Every task name of every bundled version. */
export type TaskName = { [V in Version]: keyof ResponsesByVersion[V] & string }[Version];

/** The bundled version(s) a `version` option can resolve to. */
export type VersionFor<O> = O extends { readonly version: infer R }
  ? R extends Version
    ? R
    : R extends ReleaseOf<Version>
      ? { [V in Version]: ReleaseOf<V> extends R ? V : never }[Version]
      : Version
  : Version;

/** What `decode(task, ...)` returns for one version. */
export type ResponseIn<T extends string, V extends Version> = V extends Version
  ? T extends keyof ResponsesByVersion[V]
    ? ResponsesByVersion[V][T]
    : never
  : never;

/** What `decode(task, input, options)` returns: the task's response in the version(s) the options allow. */
export type Decoded<T extends TaskName, O extends DecodeOptions = DecodeOptions> = ResponseIn<T, VersionFor<O>>;

/**
 * What `safeDecode` returns on success: the data and the version that judged it, paired;
 * `standInFor` is the newer release the payload announced when `version` judged it in its place.
 */
export type DecodeSuccess<T extends TaskName, O extends DecodeOptions = DecodeOptions> = {
  [V in VersionFor<O>]: { readonly success: true; readonly data: ResponseIn<T, V>; readonly version: V; readonly standInFor?: string };
}[VersionFor<O>];

/** What `safeDecode` returns. */
export type SafeDecodeResult<T extends TaskName, O extends DecodeOptions = DecodeOptions> =
  | DecodeSuccess<T, O>
  | { readonly success: false; readonly error: DecodeError };

interface Resolved extends Bounds {
  readonly version: 'auto' | Version;
  readonly newerRelease: NewerRelease;
  readonly transport: Transport;
  readonly unknownRecovery: 'manifest' | Recovery;
}

const ASYNC_VARIANTS: readonly string[] = ['working', 'submitted', 'input-required'];
function optionError(name: string, expected: string, got: unknown): DecodeError {
  const shown = typeof got === 'string' ? `"${shownText(got, 40)}"` : typeof got === 'number' ? String(got) : describeValue(got);
  return new DecodeError('INVALID_OPTION', `option ${name} must be ${expected}; got ${shown}`);
}

function nonNegativeLimit(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value >= 0) || (!Number.isInteger(value) && value !== Infinity)) {
    throw optionError(name, 'a non-negative integer or Infinity', value);
  }
  return value;
}

const OPTION_KEYS = ['version', 'newerRelease', 'transport', 'maxBytes', 'maxDepth', 'maxNodes', 'unknownRecovery'] as const;

/** Reads the known options once each; a per-call `undefined` leaves the decoder's value in place. */
function mergeOptions(base: unknown, call: unknown): Record<(typeof OPTION_KEYS)[number], unknown> {
  for (const [what, value] of [
    ['options', call],
    ['createDecoder options', base],
  ] as const) {
    if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value)))
      throw optionError(what, 'an object', value);
  }
  const merged = {} as Record<(typeof OPTION_KEYS)[number], unknown>;
  for (const key of OPTION_KEYS) {
    let value: unknown;
    try {
      value = call === undefined ? undefined : (call as Record<string, unknown>)[key];
      if (value === undefined && base !== undefined) value = (base as Record<string, unknown>)[key];
    } catch (cause) {
      throw new DecodeError('INVALID_OPTION', `option ${key} could not be read: ${describeThrown(cause)} thrown`, { cause });
    }
    merged[key] = value;
  }
  return merged;
}

/**
 * Merges and checks options; per-call options win over the decoder's, except where a call passes
 * `undefined` (a per-call `{ maxBytes: undefined }` must not lift a decoder's bound). `null` is
 * not "unset": it is an invalid value, like any other of the wrong type.
 *
 * @throws {DecodeError} `INVALID_OPTION`
 */
export function resolveOptions(base: DecodeOptions | undefined, call: DecodeOptions | undefined): Resolved {
  // The common call (no options anywhere) reuses one frozen result instead of merging again.
  if (base === undefined && call === undefined) {
    defaults ??= Object.freeze(resolve(undefined, undefined));
    return defaults;
  }
  return resolve(base, call);
}

let defaults: Resolved | undefined;

function resolve(base: DecodeOptions | undefined, call: DecodeOptions | undefined): Resolved {
  const o = mergeOptions(base, call);
  const transport = o.transport === undefined ? 'auto' : o.transport;
  if (transport !== 'auto' && transport !== 'mcp' && transport !== 'a2a' && transport !== 'payload') {
    throw optionError('transport', "'auto', 'mcp', 'a2a' or 'payload'", transport);
  }
  const unknownRecovery = o.unknownRecovery === undefined ? 'manifest' : o.unknownRecovery;
  if (
    unknownRecovery !== 'manifest' &&
    unknownRecovery !== 'transient' &&
    unknownRecovery !== 'correctable' &&
    unknownRecovery !== 'terminal'
  ) {
    throw optionError('unknownRecovery', "'manifest', 'transient', 'correctable' or 'terminal'", unknownRecovery);
  }
  const requested = o.version === undefined ? 'auto' : o.version;
  if (typeof requested !== 'string') throw optionError('version', "'auto', a bundled version or a release", requested);
  // Resolved here, not at run time, so that createDecoder refuses an unbundled version at creation.
  const version = requested === 'auto' ? 'auto' : resolveVersion(requested);
  const newerRelease = o.newerRelease === undefined ? 'newest' : o.newerRelease;
  if (newerRelease !== 'newest' && newerRelease !== 'refuse') throw optionError('newerRelease', "'newest' or 'refuse'", newerRelease);
  return {
    version,
    newerRelease,
    transport,
    unknownRecovery,
    maxBytes: nonNegativeLimit(o.maxBytes, 'maxBytes', DEFAULT_BOUNDS.maxBytes),
    maxDepth: nonNegativeLimit(o.maxDepth, 'maxDepth', DEFAULT_BOUNDS.maxDepth),
    maxNodes: nonNegativeLimit(o.maxNodes, 'maxNodes', DEFAULT_BOUNDS.maxNodes),
  };
}

/** Which transport an input's shape says it came over, or undefined when it is none of them. */
function detectTransport(input: unknown): 'mcp' | 'a2a' | undefined {
  if (looksLikeJsonRpcError(input) || looksLikeMcp(input)) return 'mcp';
  if (looksLikeA2a(input)) return 'a2a';
  return undefined;
}

/** A payload found in the input, and how far it can be trusted. */
interface Found {
  readonly payload: Record<string, unknown>;
  /** `true` for a value that arrived already parsed (in-process objects), `false` when our own JSON parser produced it from text. */
  readonly inProcess: boolean;
  readonly what: string;
  /** The A2A task state, which stands in for a missing `status`. */
  readonly a2aState?: string;
  /** For a payload our parser produced: its size, measured while parsing (see withinBounds). */
  readonly shape?: ParsedShape;
}

/** Everything known about the call, for error messages and options. */
interface Context {
  readonly task: string;
  readonly options: Resolved;
  /** The explicitly requested version, if any. */
  readonly version: Version | undefined;
  /** The newer release the payload announced, once a bundled version was picked to judge it in its place. */
  standInFor?: string;
}

/**
 * A TASK_FAILED error. Its `version` is the version whose error-code table classified the error
 * (the requested one, else the default), so the error always says which manifest judged it.
 * `fromPayload` marks an error read from the payload's `errors[0]` (transport-errors.mdx,
 * detection step 6) because the envelope carried no `adcp_error`.
 */
function failed(
  ctx: Context,
  found: AdcpError | undefined,
  detail: string,
  how: { readonly fromPayload?: boolean; readonly unusable?: string | undefined; readonly reservedCode?: string | undefined } = {},
): TaskFailedError {
  const adcpError = found === undefined ? undefined : plainAdcpError(found);
  const version = ctx.version ?? defaultVersion;
  const table = recoveryTable(version);
  const reserved = how.reservedCode === undefined ? undefined : table.codes[how.reservedCode];
  const recovery =
    adcpError !== undefined
      ? classifyRecoveryWith(adcpError, table, { unknownRecovery: ctx.options.unknownRecovery })
      : reserved !== undefined
        ? { recovery: reserved }
        : unknownClassification(version, ctx.options.unknownRecovery);
  const code =
    adcpError !== undefined
      ? `error code "${shownText(adcpError.code, 64)}"${how.fromPayload === true ? " from the payload's errors[0]" : ''}`
      : how.unusable !== undefined
        ? `an unusable adcp_error (${how.unusable})`
        : reserved !== undefined
          ? `no adcp_error; the reserved code stands for ${how.reservedCode}`
          : 'no adcp_error';
  const retry = recovery.retryAfterSeconds === undefined ? '' : `, retry after ${recovery.retryAfterSeconds} s`;
  return new TaskFailedError(
    `${ctx.task} failed: ${detail} with ${code} (${recovery.recovery}${retry})`,
    { adcpError, recovery },
    {
      task: ctx.task,
      version,
    },
  );
}

/** Bounds of an adcp_error's copy: what checkAdcpError already measured (4096 bytes of JSON, so fewer values). */
const ADCP_ERROR_BOUNDS: Bounds = { maxBytes: MAX_ADCP_ERROR_BYTES, maxDepth: Infinity, maxNodes: MAX_ADCP_ERROR_BYTES };

/**
 * The adcp_error handed back in a TaskFailedError: a plain copy read once (the seller's object may
 * be in-process, with getters), validated again as copied; a copy that is not JSON data or no
 * longer valid is discarded, as an invalid adcp_error is (the failure stays).
 */
function plainAdcpError(error: AdcpError): AdcpError | undefined {
  let copy: unknown;
  try {
    copy = snapshot(error, ADCP_ERROR_BOUNDS, { what: 'adcp_error' });
  } catch {
    return undefined;
  }
  const valid = checkAdcpError(copy);
  return valid.ok ? valid.error : undefined;
}

/**
 * Transport-errors.mdx detection step 6: a failure the envelope signals (isError, a failed A2A
 * task) without an `adcp_error` is described by the payload's `errors[0]`, when that is a valid
 * AdCP error. Without it a correctable error such as BUDGET_TOO_LOW would be classified by the
 * unknown-code policy (transient) and retried.
 */
function payloadError(payload: unknown): AdcpError | undefined {
  if (!isObject(payload) || !hasOwn(payload, 'errors')) return undefined;
  const errors = payload.errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const valid = checkAdcpError(errors[0]);
  return valid.ok ? valid.error : undefined;
}

/** The first payload an `isError` result carries (structuredContent, else the first JSON object text), for {@link payloadError}. */
function mcpFailurePayload(input: unknown, maxBytes: number): unknown {
  if (!isObject(input)) return undefined;
  const structured = hasOwn(input, 'structuredContent') ? input.structuredContent : undefined;
  if (isObject(structured)) return structured;
  const content = hasOwn(input, 'content') ? input.content : undefined;
  if (!Array.isArray(content)) return undefined;
  const budget: TextBudget = { used: 0 };
  for (const index of storedIndexes(content)) {
    const item: unknown = content[index];
    if (!isObject(item) || item.type !== 'text' || typeof item.text !== 'string') continue;
    const parsed = readTextItem(budget, item.text, maxBytes, `/content/${index}/text`);
    if (parsed.ok && isObject(parsed.value)) return parsed.value;
  }
  return undefined;
}

function fromErrorLocation(ctx: Context, location: AdcpErrorLocation, where: string): TaskFailedError | undefined {
  if (location.kind === 'found') return failed(ctx, location.error, `the seller answered ${where}`);
  return undefined;
}

function mcpPayload(ctx: Context, input: unknown): Found {
  const { maxBytes } = ctx.options;
  const error = locateMcpError(input, { maxBytes });
  const failure = fromErrorLocation(ctx, error, 'with an AdCP error');
  if (failure !== undefined) throw failure;
  if (looksLikeJsonRpcError(input)) {
    // Without an adcp_error, a reserved JSON-RPC code (transport-errors.mdx) still names the AdCP
    // error it stands for; its recovery comes from the version's table. The error object itself
    // stays undefined: nothing is made up in the seller's name.
    const rpcCode = jsonRpcErrorCode(input);
    const reserved = rpcCode === undefined ? undefined : RESERVED_JSON_RPC_CODES[rpcCode];
    throw failed(ctx, undefined, `the seller answered with JSON-RPC error ${rpcCode ?? '(no code)'}`, {
      unusable: error.kind === 'invalid' ? error.reason : undefined,
      reservedCode: reserved,
    });
  }
  const location: McpPayloadLocation = locateMcpPayload(input, { maxBytes });
  switch (location.kind) {
    case 'payload':
      // The spec's algorithm skips an oversized text item and tries the next; decode() refuses
      // instead, so an item over the limit is never silently dropped in favour of a later one.
      if (location.source === 'text') refuseTooLarge(ctx, location.rejected);
      return location.source === 'structuredContent'
        ? { payload: location.value, inProcess: true, what: 'structuredContent' }
        : { payload: location.value, inProcess: false, what: `content[${location.index}].text`, shape: location.shape };
    case 'error-flag': {
      // A present but invalid adcp_error ends detection (the spec: "treat as no structured error").
      const fallback = error.kind === 'none' ? payloadError(mcpFailurePayload(input, maxBytes)) : undefined;
      throw failed(ctx, fallback, 'the seller set isError', {
        fromPayload: fallback !== undefined,
        unusable: error.kind === 'invalid' ? error.reason : undefined,
      });
    }
    case 'none':
      return mcpNone(ctx, input, location);
  }
}

/**
 * Throws `TOO_LARGE` for the first text item the extractor skipped as over `maxBytes`, with the
 * size the extractor measured: the caller's text is read once, by the extractor.
 */
function refuseTooLarge(ctx: Context, rejected: readonly McpRejectedText[]): void {
  const tooLarge = rejected.find((r) => r.reason === 'too-large');
  if (tooLarge === undefined) return;
  throw textTooLarge(tooLarge.bytes ?? 0, tooLarge.bytesExact === true, ctx.options.maxBytes, `content[${tooLarge.index}].text`, {
    task: ctx.task,
    version: ctx.version,
    path: `/content/${tooLarge.index}/text`,
  });
}

function mcpNone(ctx: Context, input: unknown, location: Extract<McpPayloadLocation, { kind: 'none' }>): never {
  const opts = { task: ctx.task, version: ctx.version };
  if (location.reason === 'input-not-object') {
    throw new DecodeError('MALFORMED_ENVELOPE', `expected an MCP CallToolResult object; got ${describeValue(input)}`, opts);
  }
  // An adcp_error-only object without isError is an error response that lost its flag.
  if (location.reason === 'structured-adcp-error-only' || location.rejected.some((r) => r.reason === 'adcp-error-only')) {
    const candidate =
      location.reason === 'structured-adcp-error-only'
        ? location.adcpError
        : location.rejected.find((r) => r.reason === 'adcp-error-only')?.adcpError;
    const valid = checkAdcpError(candidate);
    throw failed(ctx, valid.ok ? valid.error : undefined, 'the seller answered with an adcp_error but no isError flag');
  }
  refuseTooLarge(ctx, location.rejected);
  const invalid = location.rejected.find((r) => r.reason === 'invalid-json');
  if (invalid !== undefined) {
    throw new DecodeError(
      'INVALID_JSON',
      `expected a JSON object in content[${invalid.index}].text; got text that starts like JSON but does not parse (${invalid.parseError ?? 'syntax error'})`,
      { ...opts, path: `/content/${invalid.index}/text` },
    );
  }
  const notObject = location.rejected.find((r) => r.reason === 'not-object');
  const seen =
    location.reason === 'no-content'
      ? 'no structuredContent and no content array'
      : notObject !== undefined
        ? `content[${notObject.index}].text parses to a JSON value that is not an object`
        : 'no structuredContent and no text item holding a JSON object';
  const ignored = location.ignoredStructuredContent === undefined ? '' : ` (structuredContent is ${location.ignoredStructuredContent})`;
  throw new DecodeError(
    'NO_PAYLOAD',
    `expected an AdCP ${ctx.task} payload in structuredContent or content[].text; found ${seen}${ignored}`,
    opts,
  );
}

function a2aPayload(ctx: Context, input: unknown): Found {
  const error = locateA2aError(input);
  const failure = fromErrorLocation(ctx, error, 'with an AdCP error');
  if (failure !== undefined) throw failure;
  // A present but invalid adcp_error ends detection (the spec: "treat as no structured error").
  const unusable = error.kind === 'invalid' ? error.reason : undefined;
  const location: A2aPayloadLocation = locateA2aPayload(input);
  const opts = { task: ctx.task, version: ctx.version };
  switch (location.kind) {
    case 'payload':
      if (location.state === 'failed' || location.state === 'rejected' || location.state === 'canceled') {
        const fallback = unusable === undefined ? payloadError(location.value) : undefined;
        throw failed(ctx, fallback, `the A2A task ended in state ${location.state}`, { fromPayload: fallback !== undefined, unusable });
      }
      return {
        payload: location.value,
        inProcess: true,
        what: location.source === 'artifact' ? 'A2A artifact DataPart data' : 'A2A status message DataPart data',
        a2aState: location.state,
      };
    case 'wrapper':
      throw new DecodeError(
        'WRAPPER_DETECTED',
        `expected the AdCP payload itself as the final DataPart's data; artifacts[0].parts[${location.partIndex}] wraps it in a { response: ... } framework wrapper`,
        { ...opts, path: `${envelopePrefix(location.envelope)}/artifacts/0/parts/${location.partIndex}/data` },
      );
    case 'none':
      switch (location.reason) {
        case 'no-data-part':
          if (location.state === 'failed' || location.state === 'rejected' || location.state === 'canceled') {
            throw failed(ctx, undefined, `the A2A task ended in state ${location.state}`, { unusable });
          }
          throw new DecodeError(
            'NO_PAYLOAD',
            `expected an A2A DataPart holding the ${ctx.task} payload for state ${String(location.state)}; found none`,
            opts,
          );
        case 'no-state':
          throw new DecodeError(
            'NO_PAYLOAD',
            `expected an A2A task with status.state; got ${location.envelope === undefined ? 'none' : `${/^[aeiou]/.test(location.envelope) ? 'an' : 'a'} ${location.envelope} envelope without one`}`,
            opts,
          );
        case 'unknown-state':
          throw new DecodeError('MALFORMED_ENVELOPE', `expected a known A2A task state; got ${describeState(location.rawState)}`, opts);
        case 'nested-envelope':
          throw new DecodeError(
            'MALFORMED_ENVELOPE',
            `A2A ${location.envelope ?? ''} envelope wraps another envelope; expected exactly one`,
            opts,
          );
        case 'malformed-part': {
          const [list, pointer] =
            location.source === 'artifact'
              ? ['artifacts[0].parts', '/artifacts/0/parts']
              : ['status.message.parts', '/status/message/parts'];
          const index = location.partIndex ?? 0;
          throw new DecodeError(
            'MALFORMED_ENVELOPE',
            `expected one content field per A2A part; ${list}[${index}] sets more than one of text, raw, url, data, file`,
            { ...opts, path: `${envelopePrefix(location.envelope)}${pointer}/${index}` },
          );
        }
        case 'input-not-object':
          throw new DecodeError('MALFORMED_ENVELOPE', `expected an A2A task, event or envelope object; got ${describeValue(input)}`, opts);
      }
  }
}

/** The JSON Pointer prefix of an unwrapped A2A single-key envelope (`/task`, `/statusUpdate`), or `''`. */
function envelopePrefix(envelope: string | undefined): string {
  return envelope === undefined ? '' : `/${envelope}`;
}

function describeState(raw: unknown): string {
  if (typeof raw === 'string') return `"${shownText(raw, 40)}"`;
  // @a2a-js/sdk 1.x clients hand back in-memory protobuf objects (numeric enum states); their
  // wire form comes from the SDK's toJSON (e.g. Task.toJSON(task)).
  if (typeof raw === 'number') return `number (an in-memory @a2a-js/sdk object? decode its wire form: Task.toJSON(task))`;
  return describeValue(raw);
}

function barePayload(ctx: Context, input: unknown): Found {
  if (!isObject(input)) {
    throw new DecodeError('MALFORMED_ENVELOPE', `expected an AdCP payload object; got ${describeValue(input)}`, {
      task: ctx.task,
      version: ctx.version,
    });
  }
  return { payload: input, inProcess: true, what: 'payload' };
}

function recoveryTable(version: Version): { codes: Readonly<Record<string, Recovery>>; defaultUnknownRecovery: Recovery } {
  const tables = tablesFor(version);
  return {
    codes: tables.errorCodes as Readonly<Record<string, Recovery>>,
    defaultUnknownRecovery: tables.defaultUnknownRecovery as Recovery,
  };
}

function unknownClassification(version: Version, unknownRecovery: 'manifest' | Recovery): RecoveryClassification {
  return { recovery: unknownRecovery === 'manifest' ? recoveryTable(version).defaultUnknownRecovery : unknownRecovery };
}

/**
 * Classifies an AdCP error: its own valid `recovery`, else the version's error-code table, else
 * the unknown-code policy. An unknown `recovery` value is classified `terminal`.
 *
 * @param adcpError The `adcp_error` object, e.g. from {@link extractMcpError}.
 * @param version A bundled version or release; default: the default version.
 * @param options `unknownRecovery`: `'manifest'` (default) or a recovery class for unknown codes.
 * @throws {DecodeError} `UNSUPPORTED_VERSION` for a version not bundled.
 * @example
 * classifyRecovery({ code: 'RATE_LIMITED', retry_after: 5 }); // { recovery: 'transient', retryAfterSeconds: 5 }
 */
export function classifyRecovery(
  adcpError: AdcpError,
  version: string = defaultVersion,
  options: { readonly unknownRecovery?: 'manifest' | Recovery } = {},
): RecoveryClassification {
  return classifyRecoveryWith(adcpError, recoveryTable(resolveVersion(version)), options);
}

function announcedVersion(found: Found): unknown {
  return hasOwn(found.payload, 'adcp_version') ? found.payload.adcp_version : undefined;
}

function pickVersion(ctx: Context, found: Found): AnnouncedResolution {
  if (ctx.version !== undefined) return { version: ctx.version };
  const announced = announcedVersion(found);
  // A non-string adcp_version is left for the schema to reject.
  if (typeof announced !== 'string') return { version: defaultVersion };
  return resolveAnnouncedVersion(announced, { task: ctx.task, newerRelease: ctx.options.newerRelease });
}

/** A string no schema lists as a status value, to ask a validator whether it pins `status` at all. */
const UNLISTED_STATUS = '\u0000unlisted';

/** The issue a schema that needs a status reports for a payload without one. */
function missingStatus(issue: ValidationIssue): boolean {
  return issue.path === '' && issue.keyword === 'required' && issue.params.missingProperty === 'status';
}

function issueSummary(issues: readonly ValidationIssue[]): string {
  const first = issues[0];
  if (first === undefined) return '';
  return `; first: ${shownPointer(first.path)} ${shownText(first.message, 200)}`;
}

function mismatch(
  ctx: Context,
  version: Version,
  variant: Variant,
  schemaId: string,
  issues: readonly ValidationIssue[],
  listing?: IssueListing,
): SchemaMismatchError {
  const what = variant === 'response' ? 'response' : `${variant} payload`;
  const n = (k: number) => k.toLocaleString('en-US');
  let count = `${n(issues.length)} ${issues.length === 1 ? 'issue' : 'issues'}`;
  if (listing?.stopped === true) count = `more than ${n(listing.limit)} issues; the listing stopped, the first is given`;
  else if (listing !== undefined && !listing.complete)
    count = `${n(listing.found)} issues; the listing was cut to the first ${issues.length === 1 ? 'one' : n(issues.length)}`;
  if (listing !== undefined && listing.shortened > 0) count += `; long keys shortened in ${n(listing.shortened)}`;
  return new SchemaMismatchError(
    `${ctx.task} ${what} does not match the AdCP ${version} schema${ctx.standInFor === undefined ? '' : `, judged in place of the announced ${ctx.standInFor}`} (${count})${issueSummary(issues)}`,
    {
      schemaId,
      issues,
      issuesComplete: listing === undefined || listing.complete,
      issuesFound: listing === undefined || listing.stopped ? undefined : Math.max(listing.found, issues.length),
      issuesShortened: listing?.shortened ?? 0,
    },
    { task: ctx.task, version },
  );
}

function decodeFound<T extends TaskName>(ctx: Context, located: Found): Outcome<T> {
  const { task } = ctx;
  const found = checked(ctx, located);
  // The payload itself may carry an AdCP error; the failure is reported even when the payload
  // announces a version that is not bundled (its table is then the default one).
  if (hasOwn(found.payload, 'adcp_error') && found.payload.adcp_error) {
    const valid = checkAdcpError(found.payload.adcp_error);
    if (valid.ok) {
      let version = ctx.version;
      if (version === undefined) {
        try {
          const picked = pickVersion(ctx, found);
          version = picked.version;
          if (picked.standInFor !== undefined) ctx.standInFor = picked.standInFor;
        } catch {
          version = undefined;
        }
      }
      throw failed({ ...ctx, version }, valid.error, `the ${found.what} carries an adcp_error`);
    }
  }
  const picked = pickVersion(ctx, found);
  const version = picked.version;
  if (picked.standInFor !== undefined) ctx.standInFor = picked.standInFor;
  // Own keys only: 'constructor' or 'toString' is not a task because Object.prototype has it.
  const table = tablesFor(version).schemaIds;
  const ids = hasOwn(table, task) ? table[task] : undefined;
  if (ids === undefined) {
    throw new DecodeError(
      'UNKNOWN_TASK',
      `"${shownText(task, 64)}" is not an AdCP ${version} task (the version ${ctx.version === undefined ? 'the payload announced' : 'requested'})`,
      {
        task,
        version,
      },
    );
  }
  const sent = hasOwn(found.payload, 'status') ? found.payload.status : undefined;
  const status = sent ?? found.a2aState ?? 'completed';
  let variant: Variant = 'response';
  if (typeof status === 'string' && ASYNC_VARIANTS.includes(status) && ids.async[status as keyof typeof ids.async] !== undefined) {
    variant = status as Variant;
  }
  const validate = fastValidator(version, task, variant);
  if (validate === undefined)
    throw new DecodeError(
      'INTERNAL',
      `adcp-decode has no validator for ${task}/${variant} in ${version}; the generated tables and validators disagree: regenerate with npm run generate`,
      { task, version },
    );
  const schemaId = variant === 'response' ? ids.response : (ids.async[variant] as string);
  // A payload is judged as sent first, so a payload valid as sent is never rejected (3.0's
  // acquire_rights and creative_approval error arms forbid `status`). Only where that fails and
  // the seller sent no status is it judged again with the stand-in: the transport state or
  // `completed` (the MCP guide's receiver rule), on a shallow view; the caller gets the payload as sent.
  const standIn = sent === undefined && variant === 'response';
  if (!validate(found.payload) && !(standIn && validate({ ...found.payload, status }))) {
    let listing = listIssues(version, task, variant, found.payload);
    // Where the schema needs a status, the issues are those left with the stand-in; unless the
    // stand-in value itself fails (3.0 check_governance's verdict, acquire_rights' outcome): then
    // as sent, which says `status` is missing, not that a value the seller never sent is wrong.
    if (standIn && listing.issues.some(missingStatus)) {
      const withStandIn = listIssues(version, task, variant, { ...found.payload, status });
      if (!withStandIn.issues.some((issue) => issue.path === '/status')) listing = withStandIn;
    }
    let issues = listing.issues;
    if (issues.length === 0) {
      validate(found.payload); // the listing stopped: the fast validator's first issue, as sent
      issues = firstIssues(validate);
    }
    throw mismatch(ctx, version, variant, schemaId, issues, listing);
  }
  // Where the schema leaves `status` open (every 3.0 response, 3.1's governance responses), a
  // present status is still the envelope's task status, as the protocol envelope of every
  // version requires and the types promise; a value the schema itself lists passes.
  if (variant === 'response' && sent !== undefined && !(TASK_STATUSES as readonly unknown[]).includes(sent)) {
    if (validate({ ...found.payload, status: UNLISTED_STATUS })) {
      throw mismatch(ctx, version, variant, schemaId, [
        {
          path: '/status',
          keyword: 'enum',
          params: { allowedValues: [...TASK_STATUSES] },
          schemaPath: `/schemas/${version}/core/protocol-envelope.json#/properties/status`,
          message: 'must be equal to one of the allowed values',
        },
      ]);
    }
  }
  recordVariant(found.payload, variant);
  return picked.standInFor === undefined
    ? { data: found.payload as Decoded<T>, version }
    : { data: found.payload as Decoded<T>, version, standInFor: picked.standInFor };
}

/**
 * The payload bounded and checked, as decode() will validate and return it: an in-process value
 * is replaced by its plain snapshot (read once; the caller's object is never returned), a parsed
 * text (already plain, measured by the parse itself) is kept and walked only when out of bounds,
 * for the error.
 */
function checked(ctx: Context, found: Found): Found {
  const { task, options } = ctx;
  if (found.inProcess) {
    return {
      ...found,
      payload: snapshot(found.payload, options, { what: found.what, task, version: ctx.version }) as Record<string, unknown>,
    };
  }
  if (found.shape === undefined || !withinBounds(found.shape, options)) {
    checkTree(found.payload, options, { what: found.what, task, version: ctx.version });
  }
  return found;
}

/** What a decode came to: the payload as sent, the version that judged it, and the release it stood in for. */
interface Outcome<T extends TaskName> {
  readonly data: Decoded<T>;
  readonly version: Version;
  readonly standInFor?: string;
}

function run<T extends TaskName>(task: T, input: unknown, options: Resolved): Outcome<T> {
  const version = options.version === 'auto' ? undefined : options.version;
  // First: is the input a seller's answer at all (not an earlier DecodeError, a Promise, the SDK's own timeout)?
  const local = localFault(input, typeof task === 'string' ? task : undefined, version);
  if (local !== undefined) throw local;
  if (typeof task !== 'string') {
    throw new DecodeError('UNKNOWN_TASK', `expected a task name string; got ${describeCallerValue(task)}`);
  }
  const known = (version === undefined ? versions : [version]).some((v) => hasOwn(tablesFor(v).schemaIds, task));
  if (!known) {
    throw new DecodeError(
      'UNKNOWN_TASK',
      `"${shownText(task, 64)}" is not an AdCP ${version ?? versions.join(' or ')} task; see tasks(version) for the list`,
      { task, version },
    );
  }
  const ctx: Context = { task, options, version };
  try {
    return locateAndDecode<T>(ctx, input);
  } catch (error) {
    throw withContext(error, ctx);
  }
}

/**
 * Errors raised by the extractors (a text's UNSAFE_JSON, an unreadable envelope) do not know the
 * task or the requested version; every error decode() throws carries them.
 */
function withContext(error: unknown, ctx: Context): unknown {
  try {
    if (error instanceof DecodeError) {
      const fields = error as { task: string | undefined; version: string | undefined };
      if (fields.task === undefined) fields.task = ctx.task;
      if (fields.version === undefined && ctx.version !== undefined) fields.version = ctx.version;
      if (error.standInFor === undefined && ctx.standInFor !== undefined)
        (error as { standInFor: string | undefined }).standInFor = ctx.standInFor;
    }
  } catch {
    // A hostile thrown value; guard() deals with it.
  }
  return error;
}

function locateAndDecode<T extends TaskName>(ctx: Context, input: unknown): Outcome<T> {
  const { task, options, version } = ctx;
  // A raw JSON-RPC success response: its `result` is the CallToolResult or A2A task.
  if (options.transport !== 'payload') input = unwrapJsonRpcResult(input);
  const transport = options.transport === 'auto' ? detectTransport(input) : options.transport;
  let found: Found;
  switch (transport) {
    case 'mcp':
      found = mcpPayload(ctx, input);
      break;
    case 'a2a':
      found = a2aPayload(ctx, input);
      break;
    case 'payload':
      found = barePayload(ctx, input);
      break;
    default:
      throw new DecodeError(
        'MALFORMED_ENVELOPE',
        `expected an MCP CallToolResult, a JSON-RPC error, or an A2A task, event or envelope; got ${describeValue(input)} (pass transport: 'payload' for a bare payload)`,
        { task, version },
      );
  }
  return decodeFound<T>(ctx, found);
}

/** describeValue for a value the caller passed, which may be a Proxy that throws when looked at. */
function describeCallerValue(value: unknown): string {
  try {
    return describeValue(value);
  } catch {
    return 'an unreadable value';
  }
}

/**
 * The last line: every error decode() throws is a DecodeError that carries the task. Anything
 * else escaping the pipeline was thrown either by the caller's input while we read it (a getter
 * or Proxy trap: `MALFORMED_ENVELOPE`, as the extractors report it) or by our own code (a defect:
 * `INTERNAL`), never by the seller. Which one is told by the input: only an input with accessors
 * or with members whose reading throws can run the caller's code when read (see inputMayThrow).
 */
function guard(error: unknown, task: unknown, input: unknown): DecodeError {
  const name = typeof task === 'string' ? task : undefined;
  try {
    if (error instanceof DecodeError) {
      if (error.task === undefined && name !== undefined) (error as { task: string | undefined }).task = name;
      return error;
    }
  } catch {
    // A thrown Proxy (from a caller's getter or trap) can throw again from instanceof; describeThrown names it.
  }
  const thrown = describeThrown(error);
  if (inputMayThrow(input)) {
    return new DecodeError(
      'MALFORMED_ENVELOPE',
      `input could not be decoded: ${thrown} thrown while reading it; expected plain JSON data (it holds getters or proxies)`,
      {
        task: name,
        cause: error,
      },
    );
  }
  const shown = name === undefined ? 'a task' : name.length > 64 ? `${name.slice(0, 64)}…` : name;
  return new DecodeError(
    'INTERNAL',
    `adcp-decode failed on its own: ${thrown} thrown while decoding ${shown}; a defect in adcp-decode, not in the seller's answer (please report it)`,
    {
      task: name,
      cause: error,
    },
  );
}

/**
 * Decodes a seller's answer to `task` into its typed response, or throws.
 *
 * @param task An AdCP task name, e.g. `'get_products'`.
 * @param input An MCP `CallToolResult`, a JSON-RPC error (`McpError` or `{ error }`), an A2A
 *   task, status-update event or single-key envelope, or (with `transport: 'payload'`) a bare payload.
 * @param options See {@link DecodeOptions}.
 * @returns The payload as sent, typed as the task's response (sync, or an async variant
 *   narrowable on `status`): from text, what `JSON.parse` made of it; from an already-parsed
 *   value, a plain copy read once, which is exactly the data validated (never the caller's object).
 * @throws {DecodeError} With a stable `code`; {@link SchemaMismatchError} and
 *   {@link TaskFailedError} carry issues and the seller's error. Never the seller's: a DecodeError
 *   passed as `input` is rethrown as it is; `INVALID_OPTION` for a bad option, `INVALID_INPUT` for
 *   a Promise (a forgotten await), `TIMEOUT` for the MCP SDK client's own request timeout,
 *   `INTERNAL` for a defect of adcp-decode.
 * @example
 * const result = await client.callTool({ name: 'get_products', arguments: { brief } });
 * const response = decode('get_products', result);
 * if (response.status === 'working' || response.status === 'submitted' || response.status === 'input-required') return track(response);
 * use(response.products); // typed: the async variants are narrowed away
 */
export function decode<T extends TaskName, const O extends DecodeOptions = DecodeOptions>(
  task: T,
  input: unknown,
  options?: O,
): Decoded<T, O> {
  return decodeWith<T, O>(undefined, task, input, options);
}

function decodeWith<T extends TaskName, O extends DecodeOptions>(
  base: DecodeOptions | undefined,
  task: T,
  input: unknown,
  options?: O,
): Decoded<T, O> {
  try {
    return run(task, input, resolveOptions(base, options)).data as Decoded<T, O>;
  } catch (error) {
    throw guard(error, task, input);
  }
}

function safeDecodeWith<T extends TaskName, O extends DecodeOptions>(
  base: DecodeOptions | undefined,
  task: T,
  input: unknown,
  options?: O,
): SafeDecodeResult<T, O> {
  try {
    const { data, version, standInFor } = run(task, input, resolveOptions(base, options));
    return (standInFor === undefined ? { success: true, data, version } : { success: true, data, version, standInFor }) as SafeDecodeResult<
      T,
      O
    >;
  } catch (error) {
    return { success: false, error: guard(error, task, input) };
  }
}

/**
 * Like {@link decode}, but never throws: returns `{ success: true, data, version }` (with
 * `standInFor`, the announced release, when a newer release was judged by a bundled one) or
 * `{ success: false, error }`.
 *
 * @example
 * const r = safeDecode('get_media_buys', result);
 * if (r.success) use(r.data.media_buys, r.version); else log(r.error.code);
 */
export function safeDecode<T extends TaskName, const O extends DecodeOptions = DecodeOptions>(
  task: T,
  input: unknown,
  options?: O,
): SafeDecodeResult<T, O> {
  return safeDecodeWith<T, O>(undefined, task, input, options);
}

/** Per-call options over a decoder's defaults. */
export type Merged<B, O> = Omit<B, keyof O> & O;

/** A decoder with default options bound; per-call options win. */
export interface Decoder<B extends DecodeOptions> {
  // biome-ignore lint/complexity/noBannedTypes: `{}` is "no per-call options": Merged<B, {}> is B
  decode<T extends TaskName, const O extends DecodeOptions = {}>(task: T, input: unknown, options?: O): Decoded<T, Merged<B, O>>;
  // biome-ignore lint/complexity/noBannedTypes: as above
  safeDecode<T extends TaskName, const O extends DecodeOptions = {}>(
    task: T,
    input: unknown,
    options?: O,
  ): SafeDecodeResult<T, Merged<B, O>>;
}

/**
 * Binds default options, e.g. per seller agent.
 *
 * @throws {DecodeError} `INVALID_OPTION` when an option is invalid; `UNSUPPORTED_VERSION` when
 *   `version` is not a bundled version or release. Every option is checked here, not at the first call.
 * @example
 * const seller = createDecoder({ version: '3.1', maxBytes: 1024 * 1024 });
 * const { media_buys } = seller.decode('get_media_buys', result);
 */
export function createDecoder<const B extends DecodeOptions>(options: B): Decoder<B> {
  resolveOptions(options, undefined); // fail fast on a bad default, version values included
  return {
    decode: (task, input, call) => decodeWith(options, task, input, call) as never,
    safeDecode: (task, input, call) => safeDecodeWith(options, task, input, call) as never,
  };
}

/** Where {@link decodeEnclosed}'s payload came from, and the status its envelope gave it. */
export interface EnclosedPayload {
  /** The envelope's task status (a webhook's `status`, a polled task's `status`). */
  readonly status: string;
  /** Names the payload in messages, e.g. `webhook result`. */
  readonly what: string;
  /** Set when our own parser produced the enclosing document: its measured size (the payload is no larger). */
  readonly shape?: ParsedShape | undefined;
}

const FAILED_STATUSES: readonly string[] = ['failed', 'rejected', 'canceled'];

/**
 * Decodes a payload that arrived inside another envelope (a webhook's `result`, a polled task's
 * `result`) the way decode() decodes a payload: the envelope's status stands in for a `status`
 * the payload lacks (as an A2A task state does), picks the async variant, and a failed, rejected
 * or canceled status ends as TaskFailedError (its `adcp_error`, else the payload's `errors[0]`).
 *
 * @param task - The task the envelope names.
 * @param payload - The enclosed payload, or `undefined` when the envelope carried none.
 * @param how - The envelope's status and how to name the payload.
 * @param options - As for {@link decode}; `transport` is ignored.
 * @returns The payload typed as the task's response, and the version that judged it.
 * @throws {DecodeError} As decode() does; `NO_PAYLOAD` for a missing payload under a status that needs one.
 * @example
 * decodeEnclosed('create_media_buy', body.result, { status: body.status, what: 'webhook result' });
 */
export function decodeEnclosed<T extends TaskName, const O extends DecodeOptions = DecodeOptions>(
  task: T,
  payload: Record<string, unknown> | undefined,
  how: EnclosedPayload,
  options?: O,
): { data: Decoded<T, O>; version: Version } {
  let ctx: Context | undefined;
  try {
    const resolved = resolveOptions(undefined, options);
    ctx = { task, options: resolved, version: resolved.version === 'auto' ? undefined : resolveVersion(resolved.version, { task }) };
    if (FAILED_STATUSES.includes(how.status)) {
      if (payload !== undefined)
        payload = checked(ctx, {
          payload,
          inProcess: how.shape === undefined,
          what: how.what,
          ...(how.shape === undefined ? {} : { shape: how.shape }),
        }).payload;
      const valid = payload !== undefined && hasOwn(payload, 'adcp_error') ? checkAdcpError(payload.adcp_error) : undefined;
      if (valid?.ok === true) throw failed(ctx, valid.error, `the ${how.what} carries an adcp_error`);
      const fallback = payloadError(payload);
      throw failed(ctx, fallback, `the task ended in status ${how.status}`, {
        fromPayload: fallback !== undefined,
        unusable: valid?.ok === false ? valid.reason : undefined,
      });
    }
    if (payload === undefined) {
      throw new DecodeError(
        'NO_PAYLOAD',
        `expected the ${task} payload in the ${how.what} for status ${JSON.stringify(how.status.slice(0, 40))}; found none`,
        { task, version: ctx.version },
      );
    }
    const found: Found = {
      payload,
      inProcess: how.shape === undefined,
      what: how.what,
      a2aState: how.status,
      ...(how.shape === undefined ? {} : { shape: how.shape }),
    };
    return decodeFound(ctx, found) as { data: Decoded<T, O>; version: Version };
  } catch (error) {
    throw guard(ctx === undefined ? error : withContext(error, ctx), task, payload);
  }
}
