/**
 * What one answer of a live seller was, for the reports: the verdict (whose fault an end is), the
 * extraction path the spec's algorithm took through the client's answer (where the payload or the
 * seller's error sat), and the release the payload echoed. Every string here is ours but the
 * echoed release, which is shown with {@link shownText}.
 */
import { TransportError } from '../call/transport-error.js';
import { type DecodeError, LimitError, TaskFailedError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { locateA2aPayload } from '../extract/a2a.js';
import { fromA2aSdk } from '../extract/a2a-sdk.js';
import { locateA2aError, locateMcpError } from '../extract/errors.js';
import { locateMcpPayload } from '../extract/mcp.js';
import { isObject, own } from '../json/own.js';
import type { Exchange, Wire } from './agent.js';

/**
 * How a call ended: `ok` decoded; `refused` the seller answered with its own AdCP error (a valid
 * answer); `broke` the answer breaks the spec (did not decode); `transport` no answer arrived (an
 * HTTP refusal, a failed connection); `bound` one of our bounds (size, depth, values, time) was
 * passed; `unjudged` the answer could not be judged, through no fault of the seller's (the
 * request, a release the call was pinned to that the seller may answer around, adcp-decode itself).
 */
export type Verdict = 'ok' | 'refused' | 'broke' | 'transport' | 'bound' | 'unjudged';

/**
 * Ends that are the caller's or ours, never the seller's. `UNSUPPORTED_VERSION`: the seller served
 * a release the request allows but the pinned version cannot judge (or one adcp-decode does not bundle).
 */
const UNJUDGED: ReadonlySet<string> = new Set(['INVALID_OPTION', 'INVALID_INPUT', 'INVALID_REQUEST', 'INTERNAL', 'UNSUPPORTED_VERSION']);

/**
 * The verdict on a call's end.
 *
 * @param error - The DecodeError it ended with, or `undefined` when it decoded.
 * @returns Its {@link Verdict}.
 * @throws Never.
 * @example
 * verdictOf(new TaskFailedError(...)); // 'refused'
 */
export function verdictOf(error: DecodeError | undefined): Verdict {
  if (error === undefined) return 'ok';
  if (error instanceof TaskFailedError) return 'refused';
  if (error instanceof TransportError) return 'transport';
  if (error instanceof LimitError || error.code === 'UNSUPPORTED_ENCODING') return 'bound';
  return UNJUDGED.has(error.code) ? 'unjudged' : 'broke';
}

/** The command line's exit statuses. */
export const EXIT = {
  /** Decoded (call); every answer decoded or was the seller's own refusal (probe). */
  ok: 0,
  /** The answer did not decode: the seller broke the spec, or its task failed (call); or adcp-decode failed. */
  failed: 1,
  /** A usage error: the arguments, or an SDK not installed. */
  usage: 2,
  /** No answer: an HTTP refusal or a failed connection. */
  transport: 3,
  /** A bound of ours was passed: size, depth, values, or the deadline. */
  bound: 4,
} as const;

/** The exit status of one verdict (`refused` is a failed task: 1 for call; probe counts it as an answer). */
export function exitOf(verdict: Verdict): number {
  if (verdict === 'ok') return EXIT.ok;
  if (verdict === 'transport') return EXIT.transport;
  if (verdict === 'bound') return EXIT.bound;
  return EXIT.failed;
}

/** Where the payload or the seller's error sat in an MCP result. */
function mcpPath(answer: unknown, maxBytes: number): { path: string; payload?: unknown } {
  const found = locateMcpPayload(answer, maxBytes);
  if (found.kind === 'payload')
    return { path: found.source === 'structuredContent' ? 'structuredContent' : `content[${found.index}].text`, payload: found.value };
  if (found.kind === 'none')
    return {
      path: found.reason === 'structured-adcp-error-only' ? 'structuredContent adcp_error without isError' : `no payload (${found.reason})`,
    };
  const error = locateMcpError(answer, maxBytes);
  if (error.kind === 'none') return { path: 'isError, no adcp_error' };
  const where = error.source === 'text_fallback' ? `content[${error.index ?? 0}].text` : error.source;
  return { path: error.kind === 'found' ? `isError, adcp_error in ${where}` : `isError, adcp_error in ${where} refused (${error.reason})` };
}

/** Where the payload or the seller's error sat in an A2A task or message. */
function a2aPath(answer: unknown): { path: string; payload?: unknown } {
  const input = fromA2aSdk(answer);
  const found = locateA2aPayload(input);
  const envelope = found.envelope === undefined ? '' : `${found.envelope}.`;
  const part = (source: string | undefined, index: number | undefined): string =>
    `${envelope}${source === 'artifact' ? 'artifacts[0]' : 'status.message'}.parts[${index ?? 0}]`;
  if (found.kind === 'payload') return { path: `${part(found.source, found.partIndex)} (${found.state})`, payload: found.value };
  if (found.kind === 'wrapper') return { path: `${part('artifact', found.partIndex)}, a { response } wrapper` };
  const error = locateA2aError(input);
  if (error.kind === 'found') {
    const where = error.source === 'artifact' ? `artifacts[${error.artifactIndex ?? 0}]` : 'status.message';
    return { path: `adcp_error in ${envelope}${where}.parts[${error.index ?? 0}]` };
  }
  return { path: `no payload (${found.reason})` };
}

/** What the reports say of one answer beyond its verdict. */
export interface AnswerFacts {
  /** The extraction path: where the spec's algorithm found the payload or the seller's error. */
  readonly path: string;
  /** The payload's `adcp_version`, shown; `undefined` when it has none (AdCP 3.0 echoes none). */
  readonly echoed: string | undefined;
}

/**
 * The extraction path of a call's answer and the release it echoed.
 *
 * @param transport - The transport the answer came over.
 * @param exchange - The recorded call.
 * @param maxBytes - The text bound the decode used.
 * @returns The path (`structuredContent`, `content[0].text`, `artifacts[0].parts[0] (completed)`,
 *   `JSON-RPC error -32603`, `no answer`, ...) and the echoed `adcp_version`.
 * @throws Never.
 * @example
 * answerFacts('mcp', exchange, 4_194_304); // { path: 'structuredContent', echoed: '3.1' }
 */
export function answerFacts(transport: Wire, exchange: Exchange, maxBytes: number): AnswerFacts {
  if (!('answer' in exchange)) {
    const code = exchange.thrown instanceof Error ? own(exchange.thrown, 'code') : undefined;
    const verdict = verdictOf(exchange.outcome.success ? undefined : exchange.outcome.error);
    const rpc = verdict !== 'transport' && verdict !== 'bound' && exchange.thrown !== undefined;
    return { path: rpc ? `JSON-RPC error${typeof code === 'number' ? ` ${code}` : ''}` : 'no answer', echoed: undefined };
  }
  let found: { path: string; payload?: unknown };
  try {
    found = transport === 'mcp' ? mcpPath(exchange.answer, maxBytes) : a2aPath(exchange.answer);
  } catch (error) {
    return { path: `unreadable (${error instanceof LimitError ? error.code : 'MALFORMED_ENVELOPE'})`, echoed: undefined };
  }
  const version = isObject(found.payload) ? own(found.payload, 'adcp_version') : undefined;
  return { path: found.path, echoed: typeof version === 'string' ? shownText(version, 32) : undefined };
}
