/**
 * `adcp-decode call <agent-url> <task> [args.json|-]`: one task called on a live seller with
 * safeCallTask, bounded as callTask is, and its answer printed as a saved answer's decode is (one
 * line on success, the error and its issues on failure), with the exchange's facts (transport,
 * extraction path, bytes, time) beside it. Without `--adcp-version` the release is negotiated
 * first: `get_adcp_capabilities`, then decoderFor; calling `get_adcp_capabilities` itself needs
 * no negotiation (the request is encoded in the oldest bundled release, the answer judged by the
 * release it announces, else by that one).
 */
import { decoderFor } from '../decode/capabilities.js';
import { DecodeError } from '../errors/errors.js';
import { bundledEnd, type Version } from '../schema/versions.js';
import type { Agent, AgentOptions } from './agent.js';
import { answerFacts, EXIT, exitOf, verdictOf } from './answer.js';
import { connect } from './connect.js';
import { encodeNamed } from './named.js';
import { describeFailure, errorJson, jsonText, successLine, summarize } from './report.js';

/** The call's settings: the agent's, `--adcp-version` and `--json`. */
export interface CallOptions extends AgentOptions {
  readonly version: 'auto' | Version;
  readonly json: boolean;
}

/** Where the call's output goes: stdout, and stderr for a failure in human mode. */
export interface CallPrint {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

const CAPABILITIES = 'get_adcp_capabilities';

const TRANSPORT_NAMES = { mcp: 'MCP', a2a: 'A2A' } as const;

/** The version both speak, from the seller's capabilities; or the error that ends the call (printed as the capabilities' failure). */
async function negotiated(agent: Agent, maxBytes: number): Promise<{ version: Version } | { failed: DecodeError }> {
  const request = encodeNamed(CAPABILITIES, {}, { version: bundledEnd('oldest') });
  if (!request.success) return { failed: request.error };
  const exchange = await agent.call(request.data);
  if (!('answer' in exchange)) {
    const { outcome } = exchange;
    return {
      failed: outcome.success
        ? new DecodeError('INTERNAL', 'the capabilities call decoded without an answer', { task: CAPABILITIES })
        : outcome.error,
    };
  }
  try {
    return { version: decoderFor(exchange.answer, { maxBytes }).version };
  } catch (error) {
    if (!(error instanceof DecodeError)) throw error;
    return { failed: error };
  }
}

/** The exit status of a call's end: the verdict's, but arguments the request schema refused are a usage error. */
function exitFor(error: DecodeError): number {
  return error.code === 'INVALID_REQUEST' ? EXIT.usage : exitOf(verdictOf(error));
}

function printFailure(task: string, error: DecodeError, options: CallOptions, print: CallPrint, facts?: Record<string, unknown>): number {
  if (options.json) print.out(jsonText({ ok: false, task, error: errorJson(error), ...facts }));
  else print.err(describeFailure(task, error).join('\n'));
  return exitFor(error);
}

/**
 * Calls one task on a live seller and prints what came back.
 *
 * @param task - The task (checked against the bundled tasks by the caller).
 * @param args - Its arguments, as read from the file or stdin.
 * @param options - The agent's address, transport, headers, bounds; `--adcp-version`; `--json`.
 * @param print - Where output goes.
 * @returns The exit status: 0 decoded, 1 the answer did not decode (or the task failed), 2 the
 *   arguments were refused, 3 no answer (refusal, connection), 4 a bound passed.
 * @throws {UsageError} The transport's SDK is not installed.
 * @example
 * process.exitCode = await callCommand('get_products', { buying_mode: 'brief', brief: 'CTV' }, options, print);
 */
export async function callCommand(task: string, args: unknown, options: CallOptions, print: CallPrint): Promise<number> {
  let agent: Agent;
  try {
    agent = await connect(options);
  } catch (error) {
    if (!(error instanceof DecodeError)) throw error;
    return printFailure(task, error, options, print);
  }
  try {
    let what: Parameters<Agent['call']>[0] = { task, args };
    let version: Version | undefined = options.version === 'auto' ? undefined : options.version;
    if (version === undefined && task === CAPABILITIES) {
      const request = encodeNamed(task, args, { version: bundledEnd('oldest') });
      if (!request.success) return printFailure(task, request.error, options, print);
      what = request.data;
    } else if (version === undefined) {
      const found = await negotiated(agent, options.maxBytes);
      if ('failed' in found) {
        const status = printFailure(CAPABILITIES, found.failed, options, print);
        if (!options.json) print.err(`  no release negotiated, so ${task} was not called; --adcp-version calls it in the version given`);
        return status;
      }
      version = found.version;
    }
    const exchange = await agent.call(what, version);
    const facts = answerFacts(agent.transport, exchange, options.maxBytes);
    // Nothing was sent when encode refused the arguments: no exchange to describe.
    const shown =
      exchange.ms === undefined
        ? {}
        : { transport: agent.transport, path: facts.path, echoed: facts.echoed ?? null, bytes: exchange.bytes, ms: exchange.ms };
    const line =
      exchange.ms === undefined
        ? undefined
        : `  ${TRANSPORT_NAMES[agent.transport]}, ${facts.path}, adcp_version ${facts.echoed ?? 'not echoed'}, ${exchange.bytes} bytes in ${exchange.ms} ms`;
    const { outcome } = exchange;
    if (!outcome.success) {
      const status = printFailure(task, outcome.error, options, print, shown);
      if (!options.json && line !== undefined) print.err(line);
      return status;
    }
    const data = outcome.data;
    if (options.json) {
      print.out(
        jsonText({ ok: true, task, version: outcome.version, status: data.status ?? null, summary: summarize(data), ...shown, data }),
      );
    } else {
      print.out(successLine(task, outcome.version, data));
      if (line !== undefined) print.out(line);
    }
    return EXIT.ok;
  } finally {
    await agent.close();
  }
}
