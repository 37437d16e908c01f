/**
 * What the CLI prints about a decode: the one-line summary of decoded data, the human report of a
 * failure, and JSON for `--json`. Seller text is shown with {@link shownText}, so nothing a seller
 * sends (a key name, an id, a code, a message) can drive the terminal or forge a line.
 */
import { TransportError } from '../call/transport-error.js';
import { type DecodeError, LimitError, RequestError, SchemaMismatchError, TaskFailedError } from '../errors/errors.js';
import { formatIssues, shownPointer, shownText } from '../errors/format.js';

/** Issues printed in human mode; `--json` lists all. */
const MAX_PRINTED_ISSUES = 10;
/** Longest seller-provided message printed in human mode. */
const MAX_SELLER_TEXT = 300;
/** Longest error message printed (decode's own are shorter; this bounds any other). */
const MAX_MESSAGE = 1000;

function plural(count: number, key: string): string {
  const words = key.replace(/_/g, ' ');
  if (count !== 1) return `${count} ${words}`;
  const singular = words.endsWith('ies')
    ? `${words.slice(0, -3)}y`
    : words.endsWith('s') && !words.endsWith('ss')
      ? words.slice(0, -1)
      : words;
  return `1 ${singular}`;
}

/**
 * What a decoded payload holds, in a few words: its key ids (`media_buy_id mb_1`), the sizes of
 * its main arrays (`3 products`), progress (`40%`), and its errors (`1 error (CODE)`).
 *
 * @param data The decoded payload.
 * @returns One line of at most a few hundred characters; key names and values shown with {@link shownText}.
 * @throws Never.
 * @example
 * summarize({ media_buy_id: 'mb_1', packages: [{}] }); // 'media_buy_id mb_1, 1 package'
 */
export function summarize(data: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  const keys = Object.keys(data);
  const ids = keys.filter((k) => k.endsWith('_id') && k !== 'context_id' && typeof data[k] === 'string');
  for (const key of ids.slice(0, 2)) parts.push(`${shownText(key, 40)} ${shownText(data[key] as string, 80)}`);
  const arrays = keys.filter((k) => k !== 'errors' && Array.isArray(data[k]));
  for (const key of arrays.slice(0, 3)) parts.push(plural((data[key] as unknown[]).length, shownText(key, 40)));
  if (arrays.length > 3) parts.push(`${arrays.length - 3} more lists`);
  const percentage = data.percentage;
  if (typeof percentage === 'number') parts.push(`${percentage}%`);
  const errors = data.errors;
  if (Array.isArray(errors) && errors.length > 0) {
    const code: unknown = typeof errors[0] === 'object' && errors[0] !== null ? (errors[0] as { code?: unknown }).code : undefined;
    const shown = typeof code === 'string' ? ` (${shownText(code, 64)}${errors.length > 1 ? ', …' : ''})` : '';
    parts.push(`${plural(errors.length, 'errors')}${shown}`);
  }
  return parts.length === 0 ? 'no ids or lists' : parts.join(', ');
}

/**
 * The line printed for a decoded payload: `✔ task (AdCP version, status): summary`.
 *
 * @param task The task name (checked against the bundled tasks before decoding).
 * @param version The AdCP version that judged the payload.
 * @param data The decoded payload.
 * @returns One line, without a newline.
 * @throws Never.
 * @example
 * successLine('get_products', '3.1.19', { status: 'completed', products: [] }); // '✔ get_products (AdCP 3.1.19, completed): 0 products'
 */
export function successLine(task: string, version: string, data: Readonly<Record<string, unknown>>): string {
  const status = typeof data.status === 'string' ? shownText(data.status, 40) : 'no status';
  return `✔ ${shownText(task, 64)} (AdCP ${version}, ${status}): ${summarize(data)}`;
}

/**
 * The human report of a failed decode, one fact per line.
 *
 * @param task The task name.
 * @param error Why it did not decode.
 * @returns Lines (no newlines inside), each bounded.
 * @throws Never.
 * @example
 * console.error(describeFailure('get_products', error).join('\n'));
 */
export function describeFailure(task: string, error: DecodeError): string[] {
  const version = error.version === undefined ? '' : ` (AdCP ${shownText(error.version, 32)})`;
  const lines = [`✖ ${shownText(task, 64)}: ${error.code}${version}`, `  ${shownText(error.message, MAX_MESSAGE)}`];
  if (error instanceof SchemaMismatchError || error instanceof RequestError) {
    const shown = error.issues.slice(0, MAX_PRINTED_ISSUES);
    const formatted = formatIssues(new SchemaMismatchError(error.message, { schemaId: error.schemaId ?? '', issues: shown }));
    for (const line of formatted.split('\n')) lines.push(`  ${line}`);
    if (error.issues.length > shown.length) lines.push(`  … ${error.issues.length - shown.length} more issues (--json lists all)`);
    if (!error.issuesComplete)
      lines.push(
        `  … the listing was cut (${error.issuesFound === undefined ? 'more than 100,000 issues' : `${error.issuesFound} issues found`}, ${error.issues.length} kept)`,
      );
  } else if (error instanceof TaskFailedError) {
    const e = error.adcpError;
    if (e !== undefined) {
      const message = typeof e.message === 'string' ? `: ${shownText(e.message, MAX_SELLER_TEXT)}` : '';
      lines.push(`  adcp_error ${shownText(e.code, 64)}${message}`);
      if (typeof e.field === 'string') lines.push(`  field ${shownText(e.field, 200)}`);
      if (typeof e.suggestion === 'string') lines.push(`  suggestion ${shownText(e.suggestion, MAX_SELLER_TEXT)}`);
    }
  } else if (error.path !== undefined && error.path !== '') {
    lines.push(`  → at ${shownPointer(error.path)}`);
  }
  return lines;
}

/**
 * Every data field a DecodeError carries, as JSON: its code, name, message, version and path, and
 * what its class adds (issues, the seller's error, the bound passed, the HTTP refusal).
 *
 * @param error - Why a decode or a call did not succeed.
 * @returns A JSON-ready object.
 * @throws Never.
 * @example
 * errorJson(error).code; // 'SCHEMA_MISMATCH'
 */
export function errorJson(error: DecodeError): Record<string, unknown> {
  const out: Record<string, unknown> = { code: error.code, name: error.name, message: error.message };
  if (error.version !== undefined) out.version = error.version;
  if (error.path !== undefined) out.path = error.path;
  if (error instanceof SchemaMismatchError || error instanceof RequestError) {
    out.schemaId = error.schemaId ?? null;
    out.issues = error.issues;
    out.issuesComplete = error.issuesComplete;
    out.issuesFound = error.issuesFound ?? null;
    out.issuesShortened = error.issuesShortened;
  }
  if (error instanceof TaskFailedError) {
    out.adcpError = error.adcpError ?? null;
    out.recovery = error.recovery;
  }
  if (error instanceof LimitError) {
    out.unit = error.unit;
    out.limit = error.limit;
    out.actual = error.actual;
  }
  if (error instanceof TransportError) {
    out.status = error.status ?? null;
    out.blame = error.blame;
    out.recovery = error.recovery;
    out.signatureError = error.signatureError ?? null;
    out.sellerText = error.sellerText ?? null;
  }
  return out;
}

/**
 * The machine report of a failed decode: every data field the error carries.
 *
 * @param task The task name.
 * @param error Why it did not decode.
 * @returns A JSON-ready object `{ ok: false, task, error }`.
 * @throws Never.
 * @example
 * console.log(jsonText(failureJson('get_products', error)));
 */
export function failureJson(task: string, error: DecodeError): unknown {
  return { ok: false, task, error: errorJson(error) };
}

/**
 * Pretty JSON that is safe on a terminal and parses to the same value: the characters
 * {@link shownText} escapes can only sit inside JSON strings, where `\uXXXX` means the same.
 *
 * @param value JSON data.
 * @returns `JSON.stringify(value, null, 2)` with those characters written as `\uXXXX`.
 * @throws Whatever `JSON.stringify` throws (a cycle, a BigInt).
 * @example
 * jsonText({ key: 'a\u202eb' }); // '{\n  "key": "a\\u202eb"\n}'
 */
export function jsonText(value: unknown): string {
  // Pretty-printing puts line breaks between tokens only; each line is escaped on its own.
  return JSON.stringify(value, null, 2)
    .split('\n')
    .map((line) => shownText(line, Infinity))
    .join('\n');
}
