/**
 * decode()'s transport adapters: where the payload is in an MCP CallToolResult or JSON-RPC error,
 * an A2A task, event or envelope, or a bare payload, by the spec's extraction algorithms; or, when
 * the answer holds none, the failure or the reason it says instead.
 */
import { textTooLarge } from '../bounds/bounds.js';
import { type AdcpError, DecodeError, describeValue, type TaskFailedError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { type A2aPayloadLocation, locateA2aPayload } from '../extract/a2a.js';
import { fromA2aSdk } from '../extract/a2a-sdk.js';
import { detectTransport } from '../extract/detect.js';
import { type AdcpErrorLocation, checkAdcpError, locateA2aError, locateMcpError } from '../extract/errors.js';
import { jsonRpcErrorCode, looksLikeJsonRpcError, RESERVED_JSON_RPC_CODES, unwrapJsonRpcResult } from '../extract/json-rpc.js';
import { locateMcpPayload, type McpPayloadLocation, type McpRejectedText } from '../extract/mcp.js';
import { isObject } from '../json/own.js';
import type { ParsedShape } from '../json/text.js';
import type { EndState } from '../schema/recovery.js';
import { isAsyncStatus, isFailedStatus } from '../schema/statuses.js';
import { type Context, failed, payloadError } from './failures.js';
import type { StatedStatus } from './status-layers.js';

/** A payload found in the input, and how far it can be trusted. */
export interface Found {
  readonly payload: Record<string, unknown>;
  /** `true` for a value that arrived already parsed (in-process objects), `false` when our own JSON parser produced it from text. */
  readonly inProcess: boolean;
  readonly what: string;
  /** The status the enclosing layer states (A2A task state, webhook or poll status): it stands in for a missing `status`. */
  readonly state?: StatedStatus;
  /** For a payload our parser produced: its size, measured while parsing (see withinBounds). */
  readonly shape?: ParsedShape;
  /** Already our own bounded copy (a snapshot, or a part of one): not read or walked again. */
  readonly bounded?: true;
  /** No payload was sent: `payload` is `{ status }`, the stated interim state alone (an A2A update without a DataPart). */
  readonly alone?: true;
}

/**
 * Finds the payload in a seller's answer over the transport the options name or the input's shape
 * shows, or throws what the answer says instead: the seller's failure, or why no payload is there.
 *
 * @param ctx - The call: task, resolved options, requested version.
 * @param input - The seller's answer, as the caller passed it.
 * @returns The payload and where it came from.
 * @throws {DecodeError} `TASK_FAILED`, `NO_PAYLOAD`, `MALFORMED_ENVELOPE`, `WRAPPER_DETECTED`, `TOO_LARGE`, `INVALID_JSON`, `UNSAFE_JSON`, `DUPLICATE_KEY`.
 * @example
 * const found = locatePayload(ctx, await client.callTool({ name: 'get_products', arguments: args }));
 */
export function locatePayload(ctx: Context, input: unknown): Found {
  const { task, options, version } = ctx;
  // A raw JSON-RPC success response: its `result` is the CallToolResult or A2A task.
  if (options.transport !== 'payload') input = unwrapJsonRpcResult(input);
  // What the @a2a-js/sdk 1.x client returns (in-memory objects), read as the wire form it stands for.
  if (options.transport === 'auto' || options.transport === 'a2a') input = fromA2aSdk(input, ctx);
  switch (options.transport === 'auto' ? detectTransport(input) : options.transport) {
    case 'mcp':
      return mcpPayload(ctx, input);
    case 'a2a':
      return a2aPayload(ctx, input);
    case 'payload':
      return barePayload(ctx, input);
    default:
      throw new DecodeError(
        'MALFORMED_ENVELOPE',
        `expected an MCP CallToolResult, a JSON-RPC error, or an A2A task, event or envelope; got ${describeValue(input)} (pass transport: 'payload' for a bare payload)`,
        { task, version },
      );
  }
}

function fromErrorLocation(ctx: Context, location: AdcpErrorLocation): TaskFailedError | undefined {
  if (location.kind === 'found')
    return failed(ctx, location.error, 'the seller answered with an AdCP error', { sellerText: location.words });
  return undefined;
}

function mcpPayload(ctx: Context, input: unknown): Found {
  const { maxBytes } = ctx.options;
  const error = locateMcpError(input, maxBytes, ctx);
  const failure = fromErrorLocation(ctx, error);
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
      sellerText: error.words,
    });
  }
  const location: McpPayloadLocation = locateMcpPayload(input, maxBytes, ctx);
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
      const fallback = error.kind === 'none' ? payloadError(error.payload, ctx) : undefined;
      throw failed(ctx, fallback, 'the seller set isError', {
        fromPayload: fallback !== undefined,
        unusable: error.kind === 'invalid' ? error.reason : undefined,
        sellerText: error.words,
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
    standInFor: ctx.standInFor,
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
    const valid = checkAdcpError(candidate, '', ctx);
    throw failed(ctx, valid.ok ? valid.error : undefined, 'the seller answered with an adcp_error but no isError flag', {
      sellerText: location.words,
    });
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

/** A failed, rejected or canceled A2A task: its error (the payload's errors[0]) if any, its state, its words (as the error extractor read them). */
function ended(ctx: Context, error: AdcpErrorLocation, state: EndState, found: AdcpError | undefined): TaskFailedError {
  return failed(ctx, found, `the A2A task ended in state ${state}`, {
    fromPayload: found !== undefined,
    unusable: error.kind === 'invalid' ? error.reason : undefined,
    state,
    sellerText: error.words,
  });
}

function a2aPayload(ctx: Context, input: unknown): Found {
  const error = locateA2aError(input, ctx);
  const failure = fromErrorLocation(ctx, error);
  if (failure !== undefined) throw failure;
  // A present but invalid adcp_error ends detection (the spec: "treat as no structured error").
  const unusable = error.kind === 'invalid' ? error.reason : undefined;
  const location: A2aPayloadLocation = locateA2aPayload(input, ctx);
  const opts = { task: ctx.task, version: ctx.version };
  switch (location.kind) {
    case 'payload': {
      const what = location.source === 'artifact' ? 'A2A artifact DataPart data' : 'A2A status message DataPart data';
      // A failed transport state ends the call whatever the payload says of itself: it is read for its error only.
      if (isFailedStatus(location.state))
        throw ended(ctx, error, location.state, unusable === undefined ? payloadError(location.value, ctx) : undefined);
      return { payload: location.value, inProcess: true, what, state: { status: location.state, layer: 'a2a' } };
    }
    case 'wrapper':
      throw new DecodeError(
        'WRAPPER_DETECTED',
        `expected the AdCP payload itself as the final DataPart's data; artifacts[0].parts[${location.partIndex}] wraps it in a { response: ... } framework wrapper`,
        { ...opts, path: `${envelopePrefix(location.envelope)}/artifacts/0/parts/${location.partIndex}/data` },
      );
    case 'none':
      switch (location.reason) {
        case 'no-data-part':
          if (isFailedStatus(location.state)) throw ended(ctx, error, location.state, undefined);
          // a2a-response-format: data is optional in an interim update ("Yes (if present)"); the state alone is the answer.
          if (isAsyncStatus(location.state)) return stateAlone(location.state);
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

/**
 * An interim A2A update without a DataPart: `{ status }`, the state alone, which decode() judges
 * by the schema that state selects (it returns it where that schema needs no data).
 */
function stateAlone(status: string): Found {
  return {
    payload: { status },
    inProcess: false,
    what: `A2A ${status} update`,
    state: { status, layer: 'a2a' },
    shape: { levels: 1, nodes: 2, finite: true },
    alone: true,
  };
}

/** The JSON Pointer prefix of an unwrapped A2A single-key envelope (`/task`, `/statusUpdate`), or `''`. */
function envelopePrefix(envelope: string | undefined): string {
  return envelope === undefined ? '' : `/${envelope}`;
}

function describeState(raw: unknown): string {
  if (typeof raw === 'string') return `"${shownText(raw, 40)}"`;
  // The SDK's in-memory objects are read as their wire form (fromA2aSdk): a number left is outside its enum.
  if (typeof raw === 'number') return `number ${raw}, outside the A2A TaskState enum (0 to 8)`;
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
