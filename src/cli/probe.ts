/**
 * `adcp-decode probe <agent-url>`: a conformance run against a live seller. Connects (the
 * transport given or detected), lists the tasks the seller offers, asks `get_adcp_capabilities`
 * and negotiates the release both speak (decoderFor), then calls each task the seller lists that
 * the release's manifest calls read-only (`mutating: false`) with the minimal request its schema
 * accepts, and judges every answer. Mutating tasks are never called. The report (probe-report.ts)
 * says for each answer its verdict, where the payload sat, the release it echoed, its size and
 * latency, and what the capabilities declare of request signing; the exit status is non-zero when
 * the seller broke the spec.
 */

import { decoderFor } from '../decode/capabilities.js';
import { DecodeError } from '../errors/errors.js';
import { isObject, own } from '../json/own.js';
import { releaseFor } from '../schema/releases.js';
import { bundledEnd, type Version } from '../schema/versions.js';
import type { Agent, AgentOptions, Exchange, Wire } from './agent.js';
import { answerFacts, EXIT, type Verdict, verdictOf } from './answer.js';
import { connect } from './connect.js';
import { minimalRequest } from './minimal-request.js';
import { encodeNamed } from './named.js';

/** The task every probe starts with, and negotiates from. */
const CAPABILITIES = 'get_adcp_capabilities';

/** One probed task: what was sent, how its answer fared, and the facts of the exchange. */
export interface ProbeRow {
  readonly task: string;
  /** `skipped`: no request was sent (no minimal request found). */
  readonly verdict: Verdict | 'skipped';
  /** The arguments sent (encoded: stamped as the release defines). */
  readonly args?: Readonly<Record<string, unknown>>;
  /** The decoded payload, for an `ok` answer. */
  readonly data?: Readonly<Record<string, unknown>>;
  /** The version that judged the answer. */
  readonly judgedBy?: string;
  /** How it ended, for any verdict but `ok` and `skipped`. */
  readonly error?: DecodeError;
  /** Why it was skipped. */
  readonly why?: string;
  readonly path?: string;
  readonly echoed?: string;
  readonly bytes?: number;
  readonly ms?: number;
}

/** The release negotiated, or why none was. */
export type Negotiation =
  | {
      readonly ok: true;
      readonly version: Version;
      readonly release: string;
      /** What the seller lists (`supported_versions`, else its majors), shown. */
      readonly sellerVersions: readonly string[];
    }
  | { readonly ok: false; readonly error: DecodeError };

/** What the seller's capabilities declare of RFC 9421 signing (`request_signing`, `webhook_signing`), as validated. */
export interface Signing {
  readonly request: Readonly<Record<string, unknown>> | undefined;
  readonly webhook: Readonly<Record<string, unknown>> | undefined;
}

/** The tasks the seller lists, sorted into what the probe did with them. */
export interface Listed {
  /** Every name listed (seller text, deduplicated, at most MAX_LISTED). */
  readonly all: readonly string[];
  /** Read-only tasks of the release: probed. */
  readonly readOnly: readonly string[];
  /** Mutating tasks of the release: never called. */
  readonly mutating: readonly string[];
  /** Names that are no task of the release (seller text). */
  readonly other: readonly string[];
  /** Why the listing failed, when it did (the probe goes on with capabilities alone). */
  readonly error?: DecodeError;
}

/** A probe's findings. */
export interface ProbeReport {
  readonly url: string;
  /** The transport spoken; `undefined` when no connection was made. */
  readonly transport: Wire | undefined;
  /** Why no connection was made. */
  readonly connectError?: DecodeError;
  /** The version the tasks were called in: the negotiated one, or `--adcp-version`. */
  readonly version: Version | undefined;
  /** Whether `version` was given (`--adcp-version`) rather than negotiated. */
  readonly pinned: boolean;
  readonly negotiation: Negotiation | undefined;
  /** `undefined` when the capabilities did not validate (nothing declared is trusted). */
  readonly signing: Signing | undefined;
  readonly listed: Listed | undefined;
  /** The capabilities call first, then every read-only task probed, by name. */
  readonly rows: readonly ProbeRow[];
  readonly exit: number;
}

/** The probe's settings: the agent's, and `--adcp-version`. */
export interface ProbeOptions extends AgentOptions {
  readonly version: 'auto' | Version;
}

function rowOf(exchange: Exchange, transport: Wire, maxBytes: number): ProbeRow {
  const { outcome } = exchange;
  const facts = answerFacts(transport, exchange, maxBytes);
  const sent =
    exchange.ms === undefined
      ? {}
      : { path: facts.path, ...(facts.echoed === undefined ? {} : { echoed: facts.echoed }), bytes: exchange.bytes, ms: exchange.ms };
  const common = { task: exchange.task, ...(outcome.request === undefined ? {} : { args: outcome.request.args }), ...sent };
  if (outcome.success) return { ...common, verdict: 'ok', data: outcome.data, judgedBy: outcome.version };
  const error = outcome.error;
  const verdict = verdictOf(error);
  // A version judged only an answer that arrived: not a refusal, a failed connection or a bound passed on the way.
  const judged = (verdict === 'refused' || verdict === 'broke' || verdict === 'unjudged') && error.version !== undefined;
  return { ...common, verdict, error, ...(judged ? { judgedBy: error.version } : {}) };
}

/** decoderFor over the capabilities answer the client returned; a call that brought none negotiates nothing. */
function negotiate(exchange: Exchange, maxBytes: number): { negotiation: Negotiation; signing: Signing | undefined } {
  if (!('answer' in exchange)) {
    const error = exchange.outcome.success
      ? new DecodeError('INTERNAL', 'the capabilities call decoded without an answer from the client', { task: CAPABILITIES })
      : exchange.outcome.error;
    return { negotiation: { ok: false, error }, signing: undefined };
  }
  try {
    const seller = decoderFor(exchange.answer, { maxBytes });
    const declared = seller.capabilities;
    const member = (key: string): Readonly<Record<string, unknown>> | undefined => {
      const value = declared === undefined ? undefined : own(declared, key);
      return isObject(value) ? value : undefined;
    };
    return {
      negotiation: { ok: true, version: seller.version, release: seller.release, sellerVersions: seller.sellerVersions },
      signing: declared === undefined ? undefined : { request: member('request_signing'), webhook: member('webhook_signing') },
    };
  } catch (error) {
    if (!(error instanceof DecodeError)) throw error;
    return { negotiation: { ok: false, error }, signing: undefined };
  }
}

/** The listed names sorted against the release's tables. */
function sortListed(names: readonly string[], version: Version | undefined): Listed {
  const all = [...new Set(names)];
  if (version === undefined) return { all, readOnly: [], mutating: [], other: all };
  const release = releaseFor(version);
  const tasks = new Set<string>(release.tables.tasks);
  // Read-only where the manifest says so (`mutating: false`): a tool it is silent about counts as mutating.
  const readOnly = (name: string): boolean => Object.hasOwn(release.tools, name) && release.tools[name]?.mutating === false;
  return {
    all,
    readOnly: all.filter((name) => tasks.has(name) && readOnly(name)).sort(),
    mutating: all.filter((name) => tasks.has(name) && !readOnly(name)).sort(),
    other: all.filter((name) => !tasks.has(name)),
  };
}

/**
 * The probe's exit status: 1 when an answer broke the spec or could not be judged, else 3 for a
 * transport failure, 4 for a bound, 0. `failed`: the connection's or the listing's end, if any.
 */
function exitOf(rows: readonly ProbeRow[], negotiation: Negotiation | undefined, failed: DecodeError | undefined): number {
  const verdicts = new Set<string>(rows.map((row) => row.verdict));
  if (failed !== undefined) verdicts.add(verdictOf(failed));
  const sellerFault = negotiation?.ok === false && ['broke', 'refused'].includes(verdictOf(negotiation.error));
  if (verdicts.has('broke') || verdicts.has('unjudged') || sellerFault) return EXIT.failed;
  if (verdicts.has('transport')) return EXIT.transport;
  if (verdicts.has('bound')) return EXIT.bound;
  return EXIT.ok;
}

/**
 * Probes a seller agent.
 *
 * @param options - The agent's address, transport, headers and bounds, and `--adcp-version`.
 * @returns The report; the connection is closed.
 * @throws {UsageError} The transport's SDK is not installed.
 * @example
 * const report = await probe({ url, transport: 'auto', headers, maxBytes, timeoutMs, sdks: INSTALLED, client, version: 'auto' });
 */
export async function probe(options: ProbeOptions): Promise<ProbeReport> {
  const url = options.url.href;
  const pinned = options.version !== 'auto';
  let agent: Agent;
  try {
    agent = await connect(options);
  } catch (error) {
    if (!(error instanceof DecodeError)) throw error;
    const empty = { url, transport: undefined, version: undefined, pinned, negotiation: undefined, signing: undefined, listed: undefined };
    return { ...empty, connectError: error, rows: [], exit: exitOf([], undefined, error) };
  }
  try {
    let names: string[] = [];
    let listError: DecodeError | undefined;
    try {
      names = await agent.list();
    } catch (error) {
      if (!(error instanceof DecodeError)) throw error;
      listError = error;
    }
    const request = encodeNamed(CAPABILITIES, {}, { version: bundledEnd('oldest') });
    if (!request.success) throw request.error;
    // No version: the request's release judges an answer announcing none (a 3.0 seller), the announced one any other.
    const capabilities = await agent.call(request.data);
    const { negotiation, signing } = negotiate(capabilities, options.maxBytes);
    const version = options.version !== 'auto' ? options.version : negotiation.ok ? negotiation.version : undefined;
    const sorted = sortListed(names, version);
    const listed = listError === undefined ? sorted : { ...sorted, error: listError };
    const rows: ProbeRow[] = [rowOf(capabilities, agent.transport, options.maxBytes)];
    for (const task of listed.readOnly) {
      if (task === CAPABILITIES || version === undefined) continue;
      const minimal = minimalRequest(task, version);
      if (!minimal.ok) {
        rows.push({ task, verdict: 'skipped', why: `no minimal request its schema accepts (${minimal.why})` });
        continue;
      }
      rows.push(rowOf(await agent.call(minimal.request, version), agent.transport, options.maxBytes));
    }
    const report = { url, transport: agent.transport, version, pinned, negotiation, signing, listed, rows };
    return { ...report, exit: exitOf(rows, negotiation, listError) };
  } finally {
    await agent.close();
  }
}
