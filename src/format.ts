/**
 * Human-readable rendering of a DecodeError, in the zod `prettifyError` shape.
 */
import { DecodeError, SchemaMismatchError } from './errors.js';

/** Longest JSON Pointer shown to a human; the full one stays in the error's data. */
const MAX_SHOWN_POINTER = 120;

/**
 * A JSON Pointer fit for one line of text. Its keys are the seller's, so control characters and
 * the U+2028/U+2029 line separators are escaped as `\uXXXX`, and a pointer longer than 120
 * characters is cut with `…`; `''` (the root) is shown as `(root)`.
 *
 * @param path A JSON Pointer, e.g. from {@link ValidationIssue.path}.
 * @returns The pointer as shown in messages and by {@link formatIssues}.
 * @throws Never.
 * @example
 * shownPointer('/extensions/a\nb'); // '/extensions/a\\u000ab'
 */
export function shownPointer(path: string): string {
  if (path === '') return '(root)';
  const escaped = path.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped.length > MAX_SHOWN_POINTER ? `${escaped.slice(0, MAX_SHOWN_POINTER)}…` : escaped;
}

/**
 * Prints an error's issues for humans: one `✖ message` line per issue, each followed by
 * `  → at <JSON Pointer>`. Errors without issues print their message (and their `path`, if any).
 * Pointers are shown with {@link shownPointer}, so a seller's key cannot break the layout.
 *
 * @param error A DecodeError (any code).
 * @returns Lines joined with `\n`, no trailing newline.
 * @throws Never.
 * @example
 * console.error(formatIssues(error));
 * // ✖ must have required property 'product_id'
 * //   → at /products/0
 */
export function formatIssues(error: DecodeError): string {
  if (!(error instanceof SchemaMismatchError) || error.issues.length === 0) {
    return `✖ ${error.message}${error.path === undefined || error.path === '' ? '' : `\n  → at ${shownPointer(error.path)}`}`;
  }
  return error.issues.map((issue) => `✖ ${issue.message}\n  → at ${shownPointer(issue.path)}`).join('\n');
}
