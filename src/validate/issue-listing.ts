/**
 * Bounds an error listing before it becomes a SchemaMismatchError's `issues`: a
 * 0.6 MB payload (a 512 KiB key over tens of thousands of bad items) made ~90,000 issues whose
 * paths each held the whole key, and printing or serializing them ran out of memory.
 */
import type { ValidationIssue } from '../errors/errors.js';

/** The most issues listed: more than a person reads or a log keeps; the first ones locate the fault. */
export const MAX_ISSUES = 1_000;

/**
 * The most characters of issues examined after the first (paths, messages, keywords, schema
 * paths, params): about a megabyte, what a log line or a terminal scrollback still holds.
 */
export const MAX_LISTING_CHARS = 1_048_576;

/** The longest pointer segment or string param kept whole; longer ones keep their head and a `…(+N chars)` marker. */
export const MAX_SEGMENT = 256;

/** What a bounded listing holds. */
export interface BoundedListing {
  readonly issues: ValidationIssue[];
  /** False when issues were left out (past MAX_ISSUES or MAX_LISTING_CHARS). */
  readonly complete: boolean;
  /** How many listed issues had a segment, message or param shortened. */
  readonly shortened: number;
}

const HEAD = MAX_SEGMENT / 2;

function shorten(text: string): string {
  return text.length <= MAX_SEGMENT ? text : `${text.slice(0, HEAD)}…(+${text.length - HEAD} chars)`;
}

/** A JSON Pointer with every segment longer than MAX_SEGMENT shortened. */
function shortenPointer(path: string): string {
  return path.length <= MAX_SEGMENT ? path : path.split('/').map(shorten).join('/');
}

/** Characters of a params value (strings by length, anything else a few), and a copy with long strings shortened. */
function boundParams(value: unknown, depth = 0): { chars: number; value: unknown; cut: boolean } {
  if (typeof value === 'string') return { chars: value.length, value: shorten(value), cut: value.length > MAX_SEGMENT };
  if (value === null || typeof value !== 'object' || depth > 4) return { chars: 8, value, cut: false };
  let chars = 2;
  let cut = false;
  const bound = (item: unknown): unknown => {
    const b = boundParams(item, depth + 1);
    chars += b.chars + 2;
    cut ||= b.cut;
    return b.value;
  };
  if (Array.isArray(value)) return { value: value.map(bound), chars, cut };
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    chars += key.length;
    out[key] = bound(item);
  }
  return { chars, value: out, cut };
}

/**
 * Lists issues within MAX_ISSUES and MAX_LISTING_CHARS, the first always exact and whole; later
 * ones have long pointer segments, messages and string params shortened with a visible
 * `…(+N chars)` marker. Reading a path's length costs nothing, so a long one is charged in full
 * before it is split: the time spent is bounded by the budget too.
 *
 * @param issues The issues in Ajv's order (read lazily: only as far as the bounds allow).
 * @returns The listed issues, whether any were left out, and how many were shortened.
 * @throws Never.
 * @example
 * const { issues, complete } = boundIssues(validate.errors.map(toIssue));
 */
export function boundIssues(issues: Iterable<ValidationIssue>): BoundedListing {
  const listed: ValidationIssue[] = [];
  let chars = 0;
  let shortened = 0;
  for (const issue of issues) {
    if (listed.length === 0) {
      listed.push(issue);
      continue;
    }
    const params = boundParams(issue.params);
    chars += issue.path.length + issue.message.length + issue.keyword.length + issue.schemaPath.length + params.chars;
    if (listed.length >= MAX_ISSUES || chars > MAX_LISTING_CHARS) return { issues: listed, complete: false, shortened };
    const bounded: ValidationIssue = {
      path: shortenPointer(issue.path),
      keyword: shorten(issue.keyword),
      params: params.value as Readonly<Record<string, unknown>>,
      schemaPath: shortenPointer(issue.schemaPath),
      message: shorten(issue.message),
    };
    const cut =
      params.cut || bounded.path.length !== issue.path.length || bounded.message !== issue.message || bounded.keyword !== issue.keyword;
    if (cut || bounded.schemaPath.length !== issue.schemaPath.length) shortened++;
    listed.push(bounded);
  }
  return { issues: listed, complete: true, shortened };
}
