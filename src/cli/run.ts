/**
 * adcp-decode: the command line, as a function of its arguments and streams (main.ts is the bin
 * that hands it the process's). Decodes a saved seller answer (an MCP CallToolResult, a JSON-RPC
 * response or error, an A2A task, event or envelope, or a bare AdCP payload) and says in one line
 * what it holds, or exactly why it cannot be trusted.
 *
 *   adcp-decode <task> [file|-] [--json] [--adcp-version V] [--release DIR]... [--max-bytes N] [--transport T]
 *   adcp-decode tasks [--adcp-version V] [--json]
 *   adcp-decode call <agent-url> <task> [args.json|-] [options]   (live.ts)
 *   adcp-decode probe <agent-url> [options]                       (live.ts)
 *
 * Exit status: 0 decoded, 1 did not decode (the input is bad: error code, message, issues),
 * 2 usage error (one line on stderr that says what was expected); for a live seller also 3 no
 * answer (an HTTP refusal, a failed connection) and 4 a bound passed.
 *
 * Reading is bounded before parsing: a file or stdin larger than 2 × max-bytes + 1 MiB is refused
 * (`TOO_LARGE`) without being read into memory. The decoder's max-bytes bounds one payload text;
 * the input file may legitimately hold that payload twice (structuredContent plus its text copy)
 * with JSON string escaping on top, so the file cap leaves that much room and no more.
 *
 * Anything that came from the seller (ids, messages, keys in JSON Pointers) is printed with
 * control and bidirectional-override characters escaped, so a hostile answer cannot drive the
 * terminal.
 */
import { readFileSync } from 'node:fs';
import { safeDecode, type TaskName, type Transport } from '../decode/decode.js';
import { DecodeError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { detectTransport } from '../extract/detect.js';
import { unwrapJsonRpcResult } from '../extract/json-rpc.js';
import { defaultVersion, knownVersions, tablesFor, type Version } from '../schema/versions.js';
import { HELP, NAME } from './help.js';
import { parseJson, READ_SLACK_BYTES, readInput, type Stdin } from './input.js';
import { checkTask, maxBytesOption, parse, transportOption, type Values, versionOption } from './options.js';
import { loadReleases } from './release-option.js';
import { describeFailure, failureJson, jsonText, successLine, summarize } from './report.js';
import { INSTALLED, type SdkImports } from './sdk.js';
import { UsageError } from './usage.js';

interface Options {
  readonly json: boolean;
  readonly version: 'auto' | Version;
  readonly maxBytes: number;
  readonly transport: Transport;
}

/** What the command reads and writes: the process's streams in the bin, stand-ins in tests. */
export interface CliIo {
  /** Read when the file is `-` (or not given); a terminal (`isTTY`) is refused. */
  readonly stdin: Stdin;
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/** Writes one line (or lines) of output. */
type Print = (text: string) => void;

function printer(stream: CliIo['stdout']): Print {
  return (text) => {
    stream.write(`${text}\n`);
  };
}

// ---------------------------------------------------------------------------------------------
// Commands

async function decodeCommand(task: string, source: string, options: Options, io: CliIo): Promise<number> {
  checkTask(task, options.version);
  const [print, printError] = [printer(io.stdout), printer(io.stderr)];
  let result: ReturnType<typeof safeDecode>;
  try {
    const { bytes, label } = await readInput(source, 2 * options.maxBytes + READ_SLACK_BYTES, io.stdin);
    const input = parseJson(bytes, label);
    result = safeDecode(task as TaskName, input, {
      version: options.version,
      maxBytes: options.maxBytes,
      // `auto` reads a file that is no transport envelope as a bare payload.
      transport: options.transport === 'auto' && detectTransport(unwrapJsonRpcResult(input)) === undefined ? 'payload' : options.transport,
    });
  } catch (error) {
    if (!(error instanceof DecodeError)) throw error;
    result = { success: false, error };
  }
  if (result.success) {
    const data = result.data as unknown as Record<string, unknown>;
    if (options.json) {
      print(jsonText({ ok: true, task, version: result.version, status: data.status ?? null, summary: summarize(data), data }));
    } else {
      print(successLine(task, result.version, data));
    }
    return 0;
  }
  if (options.json) print(jsonText(failureJson(task, result.error)));
  else printError(describeFailure(task, result.error).join('\n'));
  return 1;
}

function tasksCommand(version: 'auto' | Version, json: boolean, print: Print): number {
  const v = version === 'auto' ? defaultVersion : version;
  const tables = tablesFor(v);
  const rows = tables.tasks.map((task) => {
    const ids = tables.schemaIds[task]!;
    return { task, response: ids.response, async: Object.keys(ids.async) };
  });
  if (json) {
    print(
      JSON.stringify(
        { version: v, tasks: rows.map((r) => ({ task: r.task, response: r.response, async: tables.schemaIds[r.task]!.async })) },
        null,
        2,
      ),
    );
    return 0;
  }
  const width = Math.max(...rows.map((r) => r.task.length));
  print(`AdCP ${v}: ${rows.length} tasks (response schema, [async variants])`);
  for (const r of rows) print(`  ${r.task.padEnd(width)}  ${r.response}${r.async.length === 0 ? '' : ` [${r.async.join(', ')}]`}`);
  const others = knownVersions().filter((x) => x !== v);
  if (others.length > 0) print(`Also known: ${others.join(', ')} (--adcp-version)`);
  return 0;
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

/** Options only the live commands take: given to a saved answer's decode, or to tasks, they are a usage error. */
const LIVE_ONLY = ['header', 'timeout-ms'] as const;

function refuseLiveOnly(command: string, values: Values): void {
  for (const option of LIVE_ONLY)
    if (values[option] !== undefined)
      throw new UsageError(`--${option} is for call and probe (a live seller), not ${shownText(command, 64)}`);
}

/**
 * Runs the command line: decodes a saved answer, lists the tasks, or calls or probes a live seller.
 *
 * @param argv The arguments after `node main.js`.
 * @param io Where stdin is read and the output written (the bin passes the process's streams).
 * @param sdks Where the MCP and A2A SDKs come from: the user's installed ones (a test may hand in others).
 * @returns The exit status: 0 ok, 1 did not decode (the seller broke the spec, or its task failed),
 *   2 usage error, 3 no answer from a live seller (an HTTP refusal, a failed connection), 4 a bound passed calling one.
 * @example
 * process.exitCode = await run(process.argv.slice(2), process);
 */
export async function run(argv: readonly string[], io: CliIo, sdks: SdkImports = INSTALLED): Promise<number> {
  const [print, printError] = [printer(io.stdout), printer(io.stderr)];
  try {
    const { positionals, values } = parse(argv);
    if (values.help === true) {
      print(HELP);
      return 0;
    }
    if (values.version === true) {
      print(packageVersion());
      return 0;
    }
    await loadReleases((values.release as string[] | undefined) ?? [], process.cwd());
    const version = versionOption(values['adcp-version'] as string | undefined);
    const json = values.json === true;
    const [command, file, ...rest] = positionals;
    if (command === undefined)
      throw new UsageError(
        'expected a task name, e.g. adcp-decode get_products result.json, or adcp-decode tasks, call or probe (see --help)',
      );
    if (command === 'call' || command === 'probe') {
      const { liveCommand } = await import('./live.js');
      const context = { version, json, stdin: io.stdin, print, printError, sdks, clientVersion: packageVersion() };
      return await liveCommand(command, positionals.slice(1), values, context);
    }
    refuseLiveOnly(command, values);
    if (command === 'tasks') {
      if (file !== undefined) throw new UsageError(`tasks takes no file; got "${shownText(file, 200)}"`);
      return tasksCommand(version, json, print);
    }
    if (rest.length > 0) throw new UsageError(`expected one task and at most one file; got ${positionals.length} arguments`);
    const options: Options = {
      json,
      version,
      maxBytes: maxBytesOption(values['max-bytes'] as string | undefined),
      transport: transportOption(values.transport as string | undefined),
    };
    return await decodeCommand(command, file ?? '-', options, io);
  } catch (error) {
    if (error instanceof UsageError) {
      printError(`${NAME}: ${error.message}`);
      return 2;
    }
    const name = error instanceof Error ? error.name : typeof error;
    const message = error instanceof Error ? error.message : '';
    printError(`${NAME}: internal error (${shownText(name, 64)}): ${shownText(message, 300)}`);
    return 1;
  }
}
