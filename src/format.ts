/**
 * Human-readable rendering of a DecodeError, in the zod `prettifyError` shape.
 */
import { DecodeError, SchemaMismatchError } from './errors.js';

/**
 * Prints an error's issues for humans: one `✖ message` line per issue, each followed by
 * `  → at <JSON Pointer>`. Errors without issues print their message.
 *
 * @param error A DecodeError (any code).
 * @returns Lines joined with `\n`, no trailing newline.
 * @example
 * console.error(formatIssues(error));
 * // ✖ must have required property 'product_id'
 * //   → at /products/0
 */
export function formatIssues(error: DecodeError): string {
  if (!(error instanceof SchemaMismatchError)) {
    return `✖ ${error.message}${error.path === undefined || error.path === '' ? '' : `\n  → at ${error.path}`}`;
  }
  return error.issues.map((issue) => `✖ ${issue.message}\n  → at ${issue.path === '' ? '(root)' : issue.path}`).join('\n');
}
