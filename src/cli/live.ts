/**
 * The commands that talk to a live seller, `call` and `probe`: their arguments read into options,
 * the call's arguments file read as a saved answer is (bounded, strict JSON), and the command run.
 * run.ts imports this module only for these commands, so decoding a saved answer loads none of it.
 */
import { DEFAULT_TIMEOUT_MS } from '../bounds/fetch-bounds.js';
import { DecodeError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import type { Version } from '../schema/versions.js';
import type { AgentOptions } from './agent.js';
import { callCommand } from './call.js';
import { parseJson, READ_SLACK_BYTES, readInput, type Stdin } from './input.js';
import { agentTransportOption, agentUrl, checkTask, headerOptions, maxBytesOption, timeoutOption, type Values } from './options.js';
import { probe } from './probe.js';
import { probeJson, probeLines } from './probe-report.js';
import type { SdkImports } from './sdk.js';
import { UsageError } from './usage.js';

/** What the live commands share with the rest of the command line. */
export interface LiveContext {
  readonly version: 'auto' | Version;
  readonly json: boolean;
  readonly stdin: Stdin;
  readonly print: (text: string) => void;
  readonly printError: (text: string) => void;
  readonly sdks: SdkImports;
  /** adcp-decode's version, for the client's `initialize`. */
  readonly clientVersion: string;
}

function agentOptions(url: URL, values: Values, context: LiveContext): AgentOptions {
  return {
    url,
    transport: agentTransportOption(values.transport as string | undefined),
    headers: headerOptions(values.header as string[] | undefined),
    maxBytes: maxBytesOption(values['max-bytes'] as string | undefined),
    timeoutMs: timeoutOption(values['timeout-ms'] as string | undefined, DEFAULT_TIMEOUT_MS),
    sdks: context.sdks,
    client: { name: 'adcp-decode', version: context.clientVersion },
  };
}

/** The call's arguments: `{}` without a file, else the file's (or stdin's) JSON; a file that cannot be read or parsed is a usage error. */
async function readArgs(source: string | undefined, maxBytes: number, stdin: Stdin): Promise<unknown> {
  if (source === undefined) return {};
  try {
    const { bytes, label } = await readInput(source, 2 * maxBytes + READ_SLACK_BYTES, stdin);
    return parseJson(bytes, label);
  } catch (error) {
    if (error instanceof DecodeError) throw new UsageError(`the arguments: ${error.message}`);
    throw error;
  }
}

/**
 * Runs `call` or `probe`.
 *
 * @param command - Which.
 * @param args - The positionals after the command.
 * @param values - The options as parsed.
 * @param context - The shared settings, streams and SDK imports.
 * @returns The exit status (0 ok, 1 the seller broke the spec or its task failed, 2 usage, 3 no answer, 4 a bound).
 * @throws {UsageError} Arguments or options that cannot run, an SDK not installed.
 * @example
 * return await liveCommand('probe', [url], values, context);
 */
export async function liveCommand(
  command: 'call' | 'probe',
  args: readonly string[],
  values: Values,
  context: LiveContext,
): Promise<number> {
  const [target, ...rest] = args;
  const url = agentUrl(target, command);
  if (command === 'probe') {
    if (rest.length > 0) throw new UsageError(`probe takes the agent's URL only; got "${shownText(rest[0] ?? '', 200)}" after it`);
    const report = await probe({ ...agentOptions(url, values, context), version: context.version });
    if (context.json) context.print(probeJson(report));
    else context.print(probeLines(report).join('\n'));
    return report.exit;
  }
  const [task, file, ...more] = rest;
  if (task === undefined)
    throw new UsageError('call expects a task after the URL, e.g. adcp-decode call https://seller.example/mcp get_products args.json');
  if (more.length > 0) throw new UsageError(`call takes a URL, a task and at most one arguments file; got ${args.length + 1} arguments`);
  checkTask(task, context.version);
  const options = agentOptions(url, values, context);
  const input = await readArgs(file, options.maxBytes, context.stdin);
  return callCommand(
    task,
    input,
    { ...options, version: context.version, json: context.json },
    { out: context.print, err: context.printError },
  );
}
