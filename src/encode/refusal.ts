/**
 * The RequestErrors encode() throws for what the caller sent: a request its schema refuses (with
 * the issues listed and bounded as decode() lists a seller's), and arguments that pass a bound or
 * are not JSON data. All say `INVALID_REQUEST`: the caller's to fix, never the seller's.
 */
import { DecodeError, LimitError, RequestError, type ValidationIssue } from '../errors/errors.js';
import { grouped, shownPointer, shownText } from '../errors/format.js';
import type { Version } from '../schema/versions.js';
import type { IssueListing } from '../validate/validators.js';

/** The issue that says `idempotency_key` is missing or malformed, if one does. */
function keyIssue(issues: readonly ValidationIssue[]): ValidationIssue | undefined {
  return issues.find(
    (issue) =>
      issue.path === '/idempotency_key' ||
      (issue.path === '' && issue.keyword === 'required' && issue.params.missingProperty === 'idempotency_key'),
  );
}

/** How many issues, and whether the listing was cut or stopped, as a SchemaMismatchError's message says it. */
function counted(listing: IssueListing): string {
  const { issues } = listing;
  let count = `${grouped(issues.length)} ${issues.length === 1 ? 'issue' : 'issues'}`;
  if (listing.stopped) count = `more than ${grouped(listing.limit)} issues; the listing stopped, the first is given`;
  else if (!listing.complete)
    count = `${grouped(listing.found)} issues; the listing was cut to the first ${issues.length === 1 ? 'one' : grouped(issues.length)}`;
  if (listing.shortened > 0) count += `; long keys shortened in ${grouped(listing.shortened)}`;
  return count;
}

/** The message's lead: the key named first where it is at fault, since its remedy differs from the rest. */
function lead(task: string, version: Version, issues: readonly ValidationIssue[]): string {
  const key = keyIssue(issues);
  if (key?.path === '')
    return `the ${task} request lacks idempotency_key, which the AdCP ${version} schema requires: mint one per new request with newIdempotencyKey() (a network retry resends the encoded request, key and all)`;
  if (key !== undefined)
    return `the ${task} request's idempotency_key is refused by the AdCP ${version} schema (${shownText(key.message, 120)}): newIdempotencyKey() mints a valid one`;
  const first = issues[0];
  const where = first === undefined ? '' : `; first: ${shownPointer(first.path)} ${shownText(first.message, 200)}`;
  return `the ${task} request does not match the AdCP ${version} request schema${where}`;
}

/**
 * The error for a request its schema refuses: the issues from the error-listing validator, bounded
 * as a SchemaMismatchError's, and a message that names a missing or malformed `idempotency_key` first.
 *
 * @param task The task.
 * @param version The pinned version whose request schema judged the request.
 * @param schemaId The request schema `$id`.
 * @param listing What the error-listing validator found (at least one issue).
 * @returns The error, to throw.
 * @throws Never.
 * @example
 * throw schemaRefusal('create_media_buy', '3.1.19', schemaId, listIssues('3.1.19', 'create_media_buy', 'request', args));
 */
export function schemaRefusal(task: string, version: Version, schemaId: string, listing: IssueListing): RequestError {
  return new RequestError(
    `${lead(task, version, listing.issues)} (${counted(listing)})`,
    {
      fault: 'schema',
      schemaId,
      issues: listing.issues,
      issuesComplete: listing.complete,
      issuesFound: listing.stopped ? undefined : Math.max(listing.found, listing.issues.length),
      issuesShortened: listing.shortened,
    },
    { task, version },
  );
}

/**
 * The error for arguments the snapshot refused (a bound passed, not JSON data, a getter that
 * threw): the same message and place, as the caller's fault (`INVALID_REQUEST`), the snapshot's
 * error kept as `cause`.
 *
 * @param error What the snapshot threw.
 * @param task The task.
 * @param version The pinned version.
 * @returns The error, to throw; what is not a DecodeError is returned as it is, for the last guard.
 * @throws Never.
 * @example
 * try { snapshot(args, bounds, { what: 'the get_products request' }) } catch (e) { throw dataRefusal(e, task, version) }
 */
export function dataRefusal(error: unknown, task: string, version: Version): unknown {
  if (!(error instanceof DecodeError)) return error;
  return new RequestError(
    error.message,
    { fault: error instanceof LimitError ? 'limit' : 'data' },
    { task, version, path: error.path, cause: error },
  );
}
