/**
 * The probe's report, for people (a header, one row per answer with the lines that explain it, a
 * closing count) and as JSON (`--json`). Seller text (the names it lists, statuses, codes,
 * messages, issue pointers, the release it echoed, the signing members it declares) is shown with
 * {@link shownText} or {@link formatIssues}; the JSON goes through {@link jsonText}.
 */
import { TransportError } from '../call/transport-error.js';
import { RequestError, SchemaMismatchError, TaskFailedError } from '../errors/errors.js';
import { formatIssues, shownText } from '../errors/format.js';
import { own } from '../json/own.js';
import type { Verdict } from './answer.js';
import type { Listed, Negotiation, ProbeReport, ProbeRow, Signing } from './probe.js';
import { errorJson, jsonText, summarize } from './report.js';

/** Issues printed under a row in human mode; `--json` lists all. */
const MAX_ROW_ISSUES = 5;
/** Names listed inline (mutating tasks, other names); the JSON lists all. */
const MAX_INLINE_NAMES = 8;
/** Longest message printed under a row. */
const MAX_ROW_TEXT = 300;

const MARKS: Readonly<Record<ProbeRow['verdict'], string>> = {
  ok: '✔',
  refused: '•',
  broke: '✖',
  unjudged: '?',
  transport: '!',
  bound: '!',
  skipped: '-',
};

/** The words each verdict is counted under in the closing line. */
const COUNTED: ReadonlyArray<readonly [ProbeRow['verdict'], string]> = [
  ['ok', 'decoded'],
  ['refused', "refused with the seller's own AdCP error"],
  ['broke', 'broke the spec'],
  ['transport', 'got no answer (transport)'],
  ['bound', 'passed a bound'],
  ['unjudged', "could not be judged (no fault of the seller's)"],
  ['skipped', 'skipped'],
];

const TRANSPORT_NAMES = { mcp: 'MCP', a2a: 'A2A' } as const;

function names(list: readonly string[]): string {
  const shown = list.slice(0, MAX_INLINE_NAMES).map((name) => shownText(name, 64));
  return `${shown.join(', ')}${list.length > shown.length ? `, … ${list.length - shown.length} more` : ''}`;
}

function negotiationLine(negotiation: Negotiation | undefined, report: ProbeReport): string {
  const given = report.pinned && report.version !== undefined ? `; tasks called in ${report.version} (--adcp-version)` : '';
  if (negotiation === undefined) return 'negotiation   not reached';
  if (!negotiation.ok) return `negotiation   none: ${negotiation.error.code}${given}`;
  // decoderFor lists the releases the seller names (supported_versions), else its majors.
  const majors = negotiation.sellerVersions.every((v) => !v.includes('.'));
  const listed = `${majors ? `major${negotiation.sellerVersions.length === 1 ? '' : 's'} ` : ''}${negotiation.sellerVersions.join(', ')}`;
  return `negotiation   AdCP ${negotiation.version} (the seller lists ${listed}; adcp-decode speaks ${negotiation.release} with it)${given}`;
}

/** One side's signing as declared: `not declared`, `not supported`, or `supported` with what it requires. */
function signingOf(declared: Readonly<Record<string, unknown>> | undefined): string {
  if (declared === undefined) return 'not declared';
  if (own(declared, 'supported') !== true) return 'not supported';
  const required = own(declared, 'required_for');
  const list = Array.isArray(required) ? required.filter((item): item is string => typeof item === 'string') : [];
  const digest = own(declared, 'covers_content_digest');
  const details = [
    ...(list.length > 0 ? [`required for ${names(list)}`] : []),
    ...(typeof digest === 'string' ? [`content-digest ${shownText(digest, 32)}`] : []),
  ];
  return details.length === 0 ? 'supported' : `supported (${details.join('; ')})`;
}

function signingLine(signing: Signing | undefined): string {
  if (signing === undefined) return 'signing       unknown (the capabilities did not validate)';
  return `signing       requests: ${signingOf(signing.request)}; webhooks: ${signingOf(signing.webhook)}`;
}

function listedLines(listed: Listed, report: ProbeReport): string[] {
  const what = report.transport === 'a2a' ? 'skills' : 'tools';
  if (listed.error !== undefined)
    return [`listed        ${what} unknown: ${listed.error.code}`, `              ${shownText(listed.error.message, MAX_ROW_TEXT)}`];
  const release = report.version === undefined ? 'a bundled release' : `AdCP ${report.version}`;
  const lines = [`listed        ${listed.all.length} ${what}, ${listed.readOnly.length} of them read-only tasks of ${release}: probed`];
  if (listed.mutating.length > 0) lines.push(`              ${listed.mutating.length} mutating, not called: ${names(listed.mutating)}`);
  if (listed.other.length > 0) lines.push(`              ${listed.other.length} not tasks of ${release}: ${names(listed.other)}`);
  return lines;
}

/** The verdict column: what the answer was, in a few words. */
function verdictCell(row: ProbeRow): string {
  if (row.verdict === 'skipped') return 'skipped';
  if (row.verdict === 'ok') return typeof row.data?.status === 'string' ? `ok, ${shownText(row.data.status, 24)}` : 'ok';
  const error = row.error;
  if (error instanceof TaskFailedError) return `refused ${shownText(error.adcpError?.code ?? error.code, 40)}`;
  if (error instanceof TransportError && error.status !== undefined) return `HTTP ${error.status}`;
  return error?.code ?? row.verdict;
}

/** The lines under a row: what it holds, or why it failed. */
function details(row: ProbeRow): string[] {
  const error = row.error;
  if (row.verdict === 'skipped') return [row.why ?? 'skipped'];
  if (row.verdict === 'ok') return row.data === undefined ? [] : [summarize(row.data)];
  if (error === undefined) return [];
  if (error instanceof TaskFailedError) {
    const e = error.adcpError;
    const message = typeof e?.message === 'string' ? `: ${shownText(e.message, MAX_ROW_TEXT)}` : '';
    return [`${error.recovery.recovery}${message}`];
  }
  if ((error instanceof SchemaMismatchError || error instanceof RequestError) && error.issues.length > 0) {
    const shown = error.issues.slice(0, MAX_ROW_ISSUES);
    const lines = formatIssues(new SchemaMismatchError(error.message, { schemaId: error.schemaId ?? '', issues: shown })).split('\n');
    return error.issues.length > shown.length
      ? [...lines, `… ${error.issues.length - shown.length} more issues (--json lists all)`]
      : lines;
  }
  return [shownText(error.message, MAX_ROW_TEXT)];
}

/** A measure, or `—` where none was taken. */
function measure(value: number | undefined, unit = ''): string {
  return value === undefined ? '—' : `${value}${unit}`;
}

/**
 * The report for people: a header (agent, negotiation, signing, listing), one row per answer
 * (verdict, the version that judged it, the extraction path, the release echoed, bytes, ms) with
 * the lines that explain it, and the counts with the exit status.
 *
 * @param report - What the probe found.
 * @returns Lines without newlines inside, every seller string escaped.
 * @throws Never.
 * @example
 * print(probeLines(report).join('\n'));
 */
export function probeLines(report: ProbeReport): string[] {
  const over = report.transport === undefined ? '' : ` over ${TRANSPORT_NAMES[report.transport]}`;
  const lines = [`probe ${shownText(report.url, 200)}${over}`];
  if (report.connectError !== undefined) {
    lines.push(`✖ connect: ${report.connectError.code}`, `  ${shownText(report.connectError.message, MAX_ROW_TEXT * 2)}`);
    lines.push(`exit ${report.exit}: no connection`);
    return lines;
  }
  lines.push(negotiationLine(report.negotiation, report));
  if (report.negotiation?.ok === false) lines.push(`              ${shownText(report.negotiation.error.message, MAX_ROW_TEXT)}`);
  lines.push(signingLine(report.signing));
  if (report.listed !== undefined) lines.push(...listedLines(report.listed, report));
  const header = ['task', 'verdict', 'judged by', 'path', 'echoed', 'bytes', 'time'];
  const cells = report.rows.map((row) => [
    row.task,
    verdictCell(row),
    row.judgedBy ?? '—',
    row.path ?? '—',
    row.echoed ?? '—',
    measure(row.bytes),
    measure(row.ms, ' ms'),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((cell) => (cell[i] ?? '').length)));
  const line = (mark: string, cell: readonly string[]): string =>
    `${mark} ${cell
      .map((text, i) => (i >= 5 ? text.padStart(widths[i] ?? 0) : text.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd()}`;
  lines.push('', line(' ', header));
  report.rows.forEach((row, i) => {
    lines.push(line(MARKS[row.verdict], cells[i] ?? []));
    for (const detail of details(row)) lines.push(`    ${detail}`);
  });
  const counts = COUNTED.flatMap(([verdict, words]) => {
    const n = report.rows.filter((row) => row.verdict === verdict).length;
    return n === 0 ? [] : [`${n} ${words}`];
  });
  lines.push('', `${report.rows.length} ${report.rows.length === 1 ? 'answer' : 'answers'}: ${counts.join(', ')}; exit ${report.exit}`);
  return lines;
}

/**
 * The report as JSON text (`--json`): every finding, errors with all their fields (issues in full).
 *
 * @param report - What the probe found.
 * @returns Pretty JSON, safe on a terminal.
 * @throws Never.
 * @example
 * print(probeJson(report));
 */
export function probeJson(report: ProbeReport): string {
  const counts: Partial<Record<Verdict | 'skipped', number>> = {};
  for (const row of report.rows) counts[row.verdict] = (counts[row.verdict] ?? 0) + 1;
  return jsonText({
    ok: report.exit === 0,
    exit: report.exit,
    url: report.url,
    transport: report.transport ?? null,
    connectError: report.connectError === undefined ? null : errorJson(report.connectError),
    version: report.version ?? null,
    pinned: report.pinned,
    negotiation:
      report.negotiation === undefined
        ? null
        : report.negotiation.ok
          ? report.negotiation
          : { ok: false, error: errorJson(report.negotiation.error) },
    signing: report.signing === undefined ? null : { request: report.signing.request ?? null, webhook: report.signing.webhook ?? null },
    listed:
      report.listed === undefined
        ? null
        : { ...report.listed, ...(report.listed.error === undefined ? {} : { error: errorJson(report.listed.error) }) },
    answers: report.rows.map((row) => ({
      task: row.task,
      verdict: row.verdict,
      judgedBy: row.judgedBy ?? null,
      status: typeof row.data?.status === 'string' ? row.data.status : null,
      summary: row.data === undefined ? null : summarize(row.data),
      path: row.path ?? null,
      echoed: row.echoed ?? null,
      bytes: row.bytes ?? null,
      ms: row.ms ?? null,
      args: row.args ?? null,
      error: row.error === undefined ? null : errorJson(row.error),
      ...(row.why === undefined ? {} : { why: row.why }),
    })),
    counts,
  });
}
