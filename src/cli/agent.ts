/**
 * A seller agent on the line, as the live commands use it whatever its transport: the agent's
 * options, one call recorded as the reports need it (the client's answer as returned, the bytes
 * that came back, the time the seller took), and what a request of the client's other than a call
 * ended with. The transports: mcp-agent.ts, a2a-agent.ts; connecting and detecting: connect.ts.
 */
import { classify } from '../call/classify.js';
import { TransportError } from '../call/transport-error.js';
import type { EncodedRequest } from '../encode/request.js';
import { type DecodeError, describeThrown, LimitError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { own } from '../json/own.js';
import type { Version } from '../schema/versions.js';
import type { NamedCall } from './named.js';
import type { SdkImports } from './sdk.js';

/** The transports a seller agent speaks. */
export type Wire = 'mcp' | 'a2a';

/** A fetch as both SDKs take it. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** How to reach the agent, and the bounds of every exchange with it. */
export interface AgentOptions {
  readonly url: URL;
  readonly transport: 'auto' | Wire;
  /** Sent with every request (`Authorization`, ...); never printed. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** Largest payload text (decode's `maxBytes`); a response may be 2 × that + 1 MiB (a text copy beside structuredContent). */
  readonly maxBytes: number;
  /** Deadline of each call (callTask's `timeoutMs`) and of each other request (connect, listing, the card). */
  readonly timeoutMs: number;
  readonly sdks: SdkImports;
  /** The client's name and version, as `initialize` states them. */
  readonly client: { readonly name: string; readonly version: string };
}

/** One call to the seller, as the reports need it. */
export interface Exchange {
  readonly task: string;
  /** What safeCallTask resolved to. */
  readonly outcome: NamedCall;
  /** What the client returned: the seller's answer as the SDK hands it (absent when it threw). */
  readonly answer?: unknown;
  /** What the client threw, if it did (a seller's JSON-RPC error among others). */
  readonly thrown?: unknown;
  /** Bytes of the answer's body(ies) received. */
  readonly bytes: number;
  /** Milliseconds from the request sent to the client's answer or throw; absent when nothing was sent (encode refused the arguments). */
  readonly ms?: number;
}

/** A connected seller agent. */
export interface Agent {
  readonly transport: Wire;
  /** The tool names (MCP `tools/list`) or skill ids (A2A agent card) it lists, as listed: seller text, at most MAX_LISTED. */
  list(): Promise<string[]>;
  /**
   * Calls a task with safeCallTask: a task and arguments (encoded in `version`), or what encode returned.
   * `version` pins the release both speak; without it the request's release judges an answer announcing none.
   */
  call(what: EncodedRequest | { readonly task: string; readonly args: unknown }, version?: Version): Promise<Exchange>;
  close(): Promise<void>;
}

/** Most names a listing keeps. */
export const MAX_LISTED = 1000;
/** Longest name kept (AdCP task names are a few dozen characters). */
export const MAX_NAME = 256;

/** An MCP `initialize` the URL refused or did not answer as MCP: with `auto`, A2A is tried next. */
export class NotMcp extends Error {
  constructor(readonly reason: DecodeError) {
    super(reason.message);
  }
}

/**
 * What an SDK request other than a call ended with, typed: a bound, a refusal, a failed
 * connection, the agent's JSON-RPC error, or what the client threw (its words shown, escaped).
 * `answered`: something came back (a refusal, an error, an answer the client could not take).
 */
export function requestFailure(thrown: unknown, what: string, hint = ''): { error: DecodeError; answered: boolean } {
  const classed = classify(thrown, undefined, { task: what });
  if (classed.kind === 'error') {
    const silent = classed.error instanceof LimitError || (classed.error instanceof TransportError && classed.error.status === undefined);
    return { error: classed.error, answered: !silent };
  }
  const code = thrown instanceof Error ? own(thrown, 'code') : undefined;
  const said =
    classed.kind === 'answer'
      ? `the agent answered with JSON-RPC error ${typeof code === 'number' ? code : '(no code)'}`
      : `the client failed (${describeThrown(thrown)}: ${shownText(thrown instanceof Error ? thrown.message : '', 160)})`;
  return { error: new TransportError(`${what}: ${said}${hint}`, {}, { task: what }), answered: true };
}

/** Runs one call, recording what the client returned or threw, the bytes of the answer and how long the seller took. */
export async function recorded(
  task: string,
  meter: { bytes: number },
  call: (seen: <T>(send: () => Promise<T>) => Promise<T>) => Promise<NamedCall>,
): Promise<Exchange> {
  const record: { answer?: unknown; thrown?: unknown; ms?: number } = {};
  // Timed around the client's send alone: decoding (and loading a task's validators the first time) is not the seller's latency.
  const seen = async <T>(send: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      const answer = await send();
      record.answer = answer;
      return answer;
    } catch (thrown) {
      record.thrown = thrown;
      throw thrown;
    } finally {
      record.ms = Math.round(performance.now() - started);
    }
  };
  meter.bytes = 0;
  const outcome = await call(seen);
  return { task, outcome, ...record, bytes: meter.bytes };
}
