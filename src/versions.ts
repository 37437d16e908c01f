/**
 * The bundled AdCP versions and how a requested or announced version maps onto one of them.
 */
import { DecodeError } from './errors.js';
import { shownText } from './format.js';
import { defaultVersion, tablesByVersion, versions, type Version } from './generated/index.js';
import type { VersionTables } from './tables.js';

export { defaultVersion, versions, type Version };

/** `'auto'`, a pinned version (`'3.1.19'`), or its release (`'3.1'`). */
export type VersionOption = 'auto' | Version | (string & {});

/**
 * The task names of a bundled AdCP version.
 *
 * @param version A pinned version (`'3.1.19'`) or its release (`'3.1'`); default: the default version.
 * @throws {DecodeError} `UNSUPPORTED_VERSION` when the version is not bundled.
 * @example
 * tasks('3.1').includes('get_products'); // true
 */
export function tasks(version: string = defaultVersion): readonly string[] {
  return tablesFor(resolveVersion(version)).tasks;
}

/** The generated tables of a resolved version. */
export function tablesFor(version: Version): VersionTables<string> {
  return tablesByVersion[version];
}

function isVersion(value: string): value is Version {
  return (versions as readonly string[]).includes(value);
}

function releaseOf(version: string): string {
  return version.split('.').slice(0, 2).join('.');
}

function shown(value: string): string {
  return `"${shownText(value, 32)}"`;
}

function expected(): string {
  return `expected one of ${versions.join(', ')} or their releases (${versions.map(releaseOf).join(', ')})`;
}

/**
 * Maps `'3.1.19'` or `'3.1'` (an AdCP release, as in a payload's `adcp_version`) to the bundled
 * version; the newest bundled patch wins for a release.
 *
 * @param requested A pinned version or a release.
 * @param context The task, for the error.
 * @returns The bundled version.
 * @throws {DecodeError} `UNSUPPORTED_VERSION` when no bundled version matches.
 * @example
 * resolveVersion('3.0'); // '3.0.26'
 */
export function resolveVersion(requested: string, context: { task?: string | undefined } = {}): Version {
  if (isVersion(requested)) return requested;
  if (/^\d+\.\d+$/.test(requested)) {
    const match = versions.find((v) => v.startsWith(`${requested}.`));
    if (match !== undefined) return match;
  }
  throw new DecodeError('UNSUPPORTED_VERSION', `requested AdCP version ${shown(requested)} is not bundled; ${expected()}`, {
    task: context.task,
  });
}

/**
 * Maps the `adcp_version` a payload announces to a bundled version. On the wire the field has
 * release precision (`"3.0"`, `"3.1"`, or a pre-release such as `"3.1-beta"`; versioning.mdx:
 * "no patch component is valid on the wire"), so only a bundled release matches: `"3.0.26"` or a
 * pre-release is not accepted as the bundled schema set.
 *
 * @param announced The payload's `adcp_version`.
 * @param context The task, for the error.
 * @returns The newest bundled version of that release.
 * @throws {DecodeError} `UNSUPPORTED_VERSION` when the release is not bundled or the value is not a release.
 * @example
 * resolveAnnouncedVersion('3.1'); // '3.1.19'
 */
export function resolveAnnouncedVersion(announced: string, context: { task?: string | undefined } = {}): Version {
  if (/^\d+\.\d+$/.test(announced)) {
    const match = versions.find((v) => v.startsWith(`${announced}.`));
    if (match !== undefined) return match;
  }
  const why = /^\d+\.\d+(-[a-zA-Z0-9.-]+)?$/.test(announced) ? 'a release that is not bundled' : 'not a release-precision version';
  throw new DecodeError(
    'UNSUPPORTED_VERSION',
    `the payload announces AdCP version ${shown(announced)}, ${why}; expected one of the bundled releases ${versions.map(releaseOf).join(', ')} (or a version option)`,
    { task: context.task },
  );
}
