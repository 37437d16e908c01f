/**
 * Reading what the user hands the command line (a saved answer, a call's arguments): a file or
 * stdin, bounded while it is read, then parsed by decode's own strict parse.
 */
import { open } from 'node:fs/promises';
import { DecodeError, LimitError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { parseStrict, repeatedKeyError } from '../json/text.js';
import { UsageError } from './usage.js';

/** Room above the payload bound for envelope, a text copy of the payload, and escaping. */
export const READ_SLACK_BYTES = 1024 * 1024;

/** The stdin the command reads when the file is `-`: the process's, or a stand-in in tests. */
export type Stdin = AsyncIterable<Buffer> & { readonly isTTY?: boolean; destroy(): unknown };

/**
 * Reads a file or stdin, refusing more than `cap` bytes without buffering them.
 *
 * @param source - A path, or `-` for stdin.
 * @param cap - The most bytes read.
 * @param stdin - The process's stdin (a terminal is refused).
 * @returns The bytes and the name to call them by in messages.
 * @throws {UsageError} An unreadable file, or stdin that is a terminal.
 * @throws {LimitError} `TOO_LARGE` past `cap`.
 * @example
 * const { bytes, label } = await readInput('answer.json', cap, process.stdin);
 */
export async function readInput(source: string, cap: number, stdin: Stdin): Promise<{ bytes: Buffer; label: string }> {
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
 * it. A byte-order mark at the start of the file is dropped first, deliberately: the input is a
 * file someone saved (editors on Windows write one), and RFC 8259 §8.1 lets a parser ignore it;
 * a text item inside an MCP result is still refused with one, as `JSON.parse` refuses it.
 *
 * @param bytes - What was read.
 * @param label - The file's name, or `stdin`.
 * @returns The parsed value.
 * @throws {DecodeError} `INVALID_JSON`: not UTF-8, empty, or not JSON (where it failed, never the text).
 * @example
 * const input = parseJson(bytes, label);
 */
export function parseJson(bytes: Buffer, label: string): unknown {
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
    // A repeated key is refused (DUPLICATE_KEY) as in any text decode parses.
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
