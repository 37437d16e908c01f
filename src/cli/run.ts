/**
 * adcp-decode: the command line, as a function of its arguments and streams (main.ts is the bin
 * that hands it the process's). Decodes a saved seller answer (an MCP CallToolResult, a JSON-RPC
 * response or error, an A2A task, event or envelope, or a bare AdCP payload) and says in one line
 * what it holds, or exactly why it cannot be trusted.
 *
 *   adcp-decode <task> [file|-] [--json] [--adcp-version V] [--max-bytes N] [--transport T]
 *   adcp-decode tasks [--adcp-version V] [--json]
 *
 * Exit status: 0 decoded, 1 did not decode (the input is bad: error code, message, issues),
 * 2 usage error (one line on stderr that says what was expected).
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
import { open } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { DEFAULT_BOUNDS } from '../bounds/bounds.js';
import { safeDecode, type TaskName, type Transport } from '../decode/decode.js';
import { DecodeError, LimitError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { detectTransport } from '../extract/detect.js';
import { unwrapJsonRpcResult } from '../extract/json-rpc.js';
import { parseStrict, repeatedKeyError } from '../json/text.js';
import { defaultVersion, resolveVersion, tablesFor, type Version, versions } from '../schema/versions.js';
import { HELP, NAME, releases } from './help.js';
import { describeFailure, failureJson, jsonText, successLine, summarize } from './report.js';

/** Room above the payload bound for envelope, a text copy of the payload, and escaping. */
const READ_SLACK_BYTES = 1024 * 1024;

/** A usage error: one line, exit 2. */
class UsageError extends Error {}

interface Options {
  readonly json: boolean;
  readonly version: 'auto' | Version;
  readonly maxBytes: number;
  readonly transport: Transport;
}

/** What the command reads and writes: the process's streams in the bin, stand-ins in tests. */
export interface CliIo {
  /** Read when the file is `-` (or not given); a terminal (`isTTY`) is refused. */
  readonly stdin: AsyncIterable<Buffer> & { readonly isTTY?: boolean; destroy(): unknown };
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
// Arguments

function parse(argv: readonly string[]): { positionals: string[]; values: Record<string, string | boolean | undefined> } {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean' },
        'adcp-version': { type: 'string' },
        'max-bytes': { type: 'string' },
        transport: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    });
    return { positionals, values };
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    const option = /'(-[^' ]*)/.exec(message)?.[1] ?? 'option';
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      if (message.includes('does not take an argument')) throw new UsageError(`${shownText(option, 40)} takes no value`);
      throw new UsageError(`${shownText(option, 40)} expects a value`);
    }
    throw new UsageError(`unknown option ${shownText(option, 40)}; expected --json, --adcp-version, --max-bytes, --transport or --help`);
  }
}

function versionOption(raw: string | undefined): 'auto' | Version {
  if (raw === undefined || raw === 'auto') return 'auto';
  try {
    return resolveVersion(raw);
  } catch {
    throw new UsageError(
      `--adcp-version "${shownText(raw, 32)}" is not bundled; expected auto, ${[...versions, ...releases()].join(', ')}`,
    );
  }
}

function maxBytesOption(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_BOUNDS.maxBytes;
  const value = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value)) {
    throw new UsageError(`--max-bytes expects a whole number of bytes, e.g. ${DEFAULT_BOUNDS.maxBytes}; got "${shownText(raw, 32)}"`);
  }
  return value;
}

function transportOption(raw: string | undefined): Transport {
  if (raw === undefined) return 'auto';
  if (raw === 'auto' || raw === 'mcp' || raw === 'a2a' || raw === 'payload') return raw;
  throw new UsageError(`--transport expects auto, mcp, a2a or payload; got "${shownText(raw, 32)}"`);
}

function taskNames(version: 'auto' | Version): Set<string> {
  return new Set((version === 'auto' ? [...versions] : [version]).flatMap((v) => tablesFor(v).tasks));
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}

function checkTask(task: string, version: 'auto' | Version): void {
  const known = taskNames(version);
  if (known.has(task)) return;
  const normalized = task.toLowerCase().replace(/-/g, '_');
  let best: string | undefined;
  let bestDistance = 3;
  for (const name of known) {
    const d = name === normalized ? 0 : distance(normalized, name);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  const where = version === 'auto' ? `an AdCP ${versions.join(' or ')} task` : `an AdCP ${version} task`;
  const hint = best === undefined ? 'run adcp-decode tasks for the list' : `did you mean ${best}?`;
  throw new UsageError(`unknown task "${shownText(task, 64)}"; expected ${where} (${hint})`);
}

// ---------------------------------------------------------------------------------------------
// Input

/** Reads a file or stdin, refusing more than `cap` bytes without buffering them. */
async function readInput(source: string, cap: number, stdin: CliIo['stdin']): Promise<{ bytes: Buffer; label: string }> {
  if (source === '-') {
    if (stdin.isTTY === true) throw new UsageError('expected a file, or JSON on stdin; stdin is a terminal (see --help)');
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of stdin) {
      total += chunk.length;
      if (total > cap) {
        stdin.destroy();
        throw tooLarge('stdin', total, cap, true);
      }
      chunks.push(chunk);
    }
    return { bytes: Buffer.concat(chunks, total), label: 'stdin' };
  }
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(source, 'r');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'it is a directory'
            : String(code ?? 'unreadable');
    throw new UsageError(
      `cannot read "${shownText(source, 200)}": ${why}; expected a saved MCP result, A2A task or payload (JSON), or - for stdin`,
    );
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory())
      throw new UsageError(`cannot read "${shownText(source, 200)}": it is a directory; expected a JSON file, or - for stdin`);
    if (stat.isFile() && stat.size > cap) throw tooLarge(source, stat.size, cap, false);
    // Read in chunks up to cap + 1 bytes: the size can change, and pipes and devices report none.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, cap + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > cap) throw tooLarge(source, total, cap, true);
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return { bytes: Buffer.concat(chunks, total), label: source };
  } finally {
    await handle.close();
  }
}

/** `streamed`: reading stopped past the cap (stdin, pipes, devices, a growing file); else the size said so. */
function tooLarge(label: string, actual: number, cap: number, streamed: boolean): LimitError {
  const what = streamed ? `is more than ${cap} bytes` : `is ${actual} bytes`;
  const then = streamed ? 'reading stopped there' : 'it was not read';
  return new LimitError('TOO_LARGE', `${shownText(label, 200)} ${what}; expected at most ${cap} (2 × --max-bytes + 1 MiB), so ${then}`, {
    unit: 'bytes',
    limit: cap,
    actual: streamed ? cap + 1 : actual,
  });
}

/**
 * Parses the input as JSON by decode's own strict parse, or throws `INVALID_JSON` without quoting
 * it; a repeated key is refused (`DUPLICATE_KEY`) as in any text decode parses. A byte-order mark
 * at the start of the file is dropped first, deliberately: the input is a file someone saved
 * (editors on Windows write one), and RFC 8259 §8.1 lets a parser ignore it; a text item inside an
 * MCP result is still refused with one, as `JSON.parse` refuses it.
 */
function parseJson(bytes: Buffer, label: string): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new DecodeError('INVALID_JSON', `${shownText(label, 200)} is not UTF-8 text; expected JSON`);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') throw new DecodeError('INVALID_JSON', `${shownText(label, 200)} is empty; expected JSON`);
  const parsed = parseStrict(text);
  if (parsed.ok) {
    const repeated = repeatedKeyError(text, '');
    if (repeated !== undefined) throw repeated;
    return parsed.value;
  }
  const at = parsed.error.position;
  let where = '';
  if (at !== undefined) {
    const before = text.slice(0, at).split('\n');
    where = ` at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
  } else if (parsed.error.parseError === 'unexpected end of JSON input') {
    where = ' (it ends early)';
  }
  throw new DecodeError('INVALID_JSON', `${shownText(label, 200)} is not valid JSON${where}`);
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
  const others = versions.filter((x) => x !== v);
  if (others.length > 0) print(`Also bundled: ${others.join(', ')} (--adcp-version)`);
  return 0;
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

/**
 * Runs the command line: reads the input, prints what it holds or why it cannot be trusted.
 *
 * @param argv The arguments after `node main.js`.
 * @param io Where stdin is read and the output written (the bin passes the process's streams).
 * @returns The exit status: 0 decoded, 1 did not decode, 2 usage error.
 * @example
 * process.exitCode = await run(process.argv.slice(2), process);
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
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
    const version = versionOption(values['adcp-version'] as string | undefined);
    const json = values.json === true;
    const [command, file, ...rest] = positionals;
    if (command === undefined)
      throw new UsageError('expected a task name, e.g. adcp-decode get_products result.json, or adcp-decode tasks (see --help)');
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
