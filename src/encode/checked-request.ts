/**
 * One encode: the caller's arguments read once into a bounded plain copy, stamped with the
 * version fields of the pinned release, checked against the task's request schema by the
 * ahead-of-time compiled validator, and frozen with the task and version as the request to send.
 */
import type { Bounds } from '../bounds/bounds.js';
import { snapshot } from '../bounds/snapshot.js';
import { DecodeError, describeValue } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { pinOf } from '../schema/release.js';
import { releaseFor } from '../schema/releases.js';
import type { Version } from '../schema/versions.js';
import { fastValidator, listIssues } from '../validate/validators.js';
import { deepFreeze } from './freeze.js';
import { dataRefusal, schemaRefusal } from './refusal.js';
import type { EncodedRequest } from './request.js';
import { stamp } from './stamp.js';

/** What the generated request table says of a task. */
interface RequestRow {
  readonly schemaId: string;
  readonly stamps: readonly string[];
  readonly idempotencyKey?: 'required' | 'optional';
  /** The validator module that checks it, where it is not the task's own (3.0's `tasks/get`: the poll's envelope module). */
  readonly module?: string;
}

/** 3.0's poll request, `tasks/get`: no task of the manifest, but what a buyer sends to poll one (the generated poll table). */
function pollRow(version: Version, task: string): RequestRow | undefined {
  const poll = releaseFor(version).envelope.taskStatusPoll;
  if (!('request' in poll) || task !== poll.method) return undefined;
  return { ...poll.request, module: poll.module };
}

/**
 * The request table row of a task in a version.
 *
 * @throws {DecodeError} `UNKNOWN_TASK` for a task the version lacks (or a task that is no string).
 */
function rowOf(version: Version, task: unknown): RequestRow {
  const table: Readonly<Record<string, RequestRow>> = releaseFor(version).requests;
  if (typeof task !== 'string') throw new DecodeError('UNKNOWN_TASK', `expected a task name string; got ${describeValue(task)}`);
  // Own keys only: 'constructor' is not a task because Object.prototype has it.
  const row = Object.hasOwn(table, task) ? table[task] : pollRow(version, task);
  if (row === undefined)
    throw new DecodeError('UNKNOWN_TASK', `"${shownText(task, 64)}" is not an AdCP ${version} task; see tasks(version) for the list`, {
      task,
      version,
    });
  return row;
}

/**
 * Encodes one request in a version: read once (bounded), stamped, checked, frozen.
 *
 * @param version The pinned version.
 * @param task The task name (checked here: the caller may pass anything).
 * @param args The caller's arguments; never kept, never returned.
 * @param bounds The bounds of the copy.
 * @returns The frozen encoded request.
 * @throws {RequestError} `INVALID_REQUEST` for arguments the caller must fix.
 * @throws {DecodeError} `UNKNOWN_TASK`; `INTERNAL` when the validator modules cannot be loaded or disagree.
 * @example
 * checkedRequest('3.1.19', 'get_products', { buying_mode: 'wholesale' }, DEFAULT_BOUNDS).args.adcp_version; // '3.1'
 */
export function checkedRequest(version: Version, task: unknown, args: unknown, bounds: Bounds): EncodedRequest {
  const row = rowOf(version, task);
  const name = task as string;
  let request: unknown;
  try {
    request = snapshot(args, bounds, { what: `the ${name} request`, task: name, version });
  } catch (error) {
    throw dataRefusal(error, name, version);
  }
  stamp(request, row.stamps, version, name);
  const module = row.module ?? name;
  const validate = fastValidator(version, module, 'request');
  if (validate === undefined)
    throw new DecodeError('INTERNAL', `adcp-decode has no request validator for ${name} in ${version}: regenerate with npm run generate`, {
      task: name,
      version,
    });
  if (!validate(request)) {
    const listing = listIssues(version, module, 'request', request);
    if (listing.issues.length === 0)
      throw new DecodeError(
        'INTERNAL',
        `adcp-decode's fast and listing validators disagree on this ${name} request (${version}): a defect in adcp-decode, not the caller's fault`,
        { task: name, version },
      );
    throw schemaRefusal(name, version, row.schemaId, listing);
  }
  return deepFreeze({ task: name, version, release: pinOf(version), args: request as Record<string, unknown> });
}
