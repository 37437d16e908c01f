/**
 * The bundled AdCP versions and how a requested or announced version maps onto one of them.
 */
import { DecodeError } from './errors.js';
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

/**
 * Maps `'3.1.19'` or `'3.1'` (an AdCP release, as in a payload's `adcp_version`) to the bundled
 * version; the newest bundled patch wins for a release.
 *
 * @throws {DecodeError} `UNSUPPORTED_VERSION` when no bundled version matches.
 */
export function resolveVersion(requested: string, context: { task?: string | undefined; source?: string } = {}): Version {
  if (isVersion(requested)) return requested;
  if (/^\d+\.\d+$/.test(requested)) {
    const match = versions.find((v) => v.startsWith(`${requested}.`));
    if (match !== undefined) return match;
  }
  const shown = requested.length > 32 ? `${requested.slice(0, 32)}…` : requested;
  throw new DecodeError(
    'UNSUPPORTED_VERSION',
    `${context.source ?? 'requested'} AdCP version ${JSON.stringify(shown)} is not bundled; expected one of ${versions.join(', ')} or their releases (${versions.map((v) => v.split('.').slice(0, 2).join('.')).join(', ')})`,
    { task: context.task },
  );
}
