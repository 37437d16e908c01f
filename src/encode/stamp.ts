/**
 * The version fields encode() puts on a request (versioning.mdx, "Version negotiation"): the
 * buyer states its release as `adcp_version` (release precision, `"3.1"`, never a patch; a
 * pre-release kept whole, `"3.2-beta.6"`: versioning.mdx) and,
 * through 3.x, the same major as `adcp_major_version`. Only the fields the task's request schema
 * defines are stamped (3.0 defines `adcp_major_version` alone, and some 3.0 request schemas are
 * closed), and a value the caller put there must agree with the pin: it is refused, not replaced.
 */
import { describeValue, RequestError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { pinOf } from '../schema/release.js';
import type { Version } from '../schema/versions.js';

/** A version field of a request and the value the pinned version gives it. */
function pinned(field: string, version: Version): string | number | undefined {
  if (field === 'adcp_version') return pinOf(version);
  if (field === 'adcp_major_version') return Number(version.split('.')[0]);
  return undefined;
}

/** The fields that carry the buyer's version, whether or not a schema defines them. */
const VERSION_FIELDS = ['adcp_version', 'adcp_major_version'] as const;

function shown(value: unknown): string {
  if (typeof value === 'string') return `"${shownText(value, 40)}"`;
  return typeof value === 'number' ? String(value) : describeValue(value);
}

/**
 * Stamps a request (encode()'s own copy of the caller's arguments) with the version fields its
 * schema defines, after checking that any the caller set agree with the pinned version.
 *
 * @param request The copy to stamp, in place (a non-object is left for the schema to refuse).
 * @param stamps The version fields the task's request schema defines.
 * @param version The pinned version.
 * @param task The task, for the error.
 * @throws {RequestError} `INVALID_REQUEST` (fault `'stamp'`) for a version field that contradicts the pin.
 * @example
 * stamp(copy, ['adcp_version', 'adcp_major_version'], '3.1.19', 'get_products'); // adds adcp_version: '3.1', adcp_major_version: 3
 */
export function stamp(request: unknown, stamps: readonly string[], version: Version, task: string): void {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return;
  const fields = request as Record<string, unknown>;
  for (const field of VERSION_FIELDS) {
    if (!Object.hasOwn(fields, field)) continue;
    const expected = pinned(field, version);
    if (fields[field] === expected) continue;
    const fix = stamps.includes(field) ? `or leave it out (encode stamps ${shown(expected)})` : 'or leave it out';
    throw new RequestError(
      `the ${task} request's ${field} is ${shown(fields[field])}, which contradicts the pinned AdCP ${version}: expected ${shown(expected)} ${fix}; to speak another release, pin it`,
      { fault: 'stamp' },
      { task, version, path: `/${field}` },
    );
  }
  for (const field of stamps) if (!Object.hasOwn(fields, field)) fields[field] = pinned(field, version);
}
