/**
 * The bundled AdCP versions and how a requested or announced version maps onto one of them.
 */
import { DecodeError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { defaultVersion, tablesByVersion, versions, type Version } from '../generated/index.js';
import type { VersionTables } from './tables.js';

export { defaultVersion, versions, type Version };

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
 * The release (major.minor) of a version.
 *
 * @param version A version such as `'3.1.19'`.
 * @returns Its release, `'3.1'`.
 * @throws Never.
 * @example
 * releaseOf('3.1.19'); // '3.1'
 */
export function releaseOf(version: string): string {
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
 * The version a call judges by when no payload announces one: the resolved `version` option,
 * else the default.
 *
 * @param requested The resolved option (`'auto'` when none was given).
 * @returns A bundled version.
 * @throws Never.
 * @example
 * versionOrDefault('auto'); // '3.1.19'
 */
export function versionOrDefault(requested: 'auto' | Version): Version {
  return requested === 'auto' ? defaultVersion : requested;
}

/** What to do with a payload announcing a newer release of a bundled major (`"3.2"` when 3.1 is the newest bundled 3.x). */
export type NewerRelease = 'newest' | 'refuse';

/** The bundled version that judges an announced release, and the release it stands in for, if any. */
export interface AnnouncedResolution {
  readonly version: Version;
  /** The announced release, when `version` judges it in its place (a newer release of the same major). */
  readonly standInFor?: string;
}

/**
 * Maps the `adcp_version` a payload announces to a bundled version. On the wire the field has
 * release precision (`"3.0"`, `"3.1"`, or a pre-release such as `"3.1-beta"`; versioning.mdx:
 * "no patch component is valid on the wire"). A bundled release matches exactly. A newer release
 * of a bundled major (`"3.2"`) is judged, with `newerRelease: 'newest'`, by the newest bundled
 * release of that major, because releases within a major are additive (versioning.mdx, "Forward
 * compatibility": a 3.0 implementation functions against any 3.x release); the result says so.
 * Anything else (another major, an older or in-between release that is not bundled, a pre-release,
 * a patch version) is refused: a pre-release is matched exactly, as the spec's negotiation does.
 *
 * @param announced The payload's `adcp_version`.
 * @param context The task, for the error; `newerRelease` (default `'newest'`).
 * @returns The bundled version, and `standInFor` (the announced release) when it judges in its place.
 * @throws {DecodeError} `UNSUPPORTED_VERSION` when no bundled version may judge the release.
 * @example
 * resolveAnnouncedVersion('3.1'); // { version: '3.1.19' }
 * resolveAnnouncedVersion('3.2'); // { version: '3.1.19', standInFor: '3.2' }
 */
export function resolveAnnouncedVersion(
  announced: string,
  context: { readonly task?: string | undefined; readonly newerRelease?: NewerRelease } = {},
): AnnouncedResolution {
  // No leading zeros: "3.02" is no release.
  const release = /^(0|[1-9]\d*)\.(0|[1-9]\d*)$/.exec(announced);
  if (release !== null) {
    const match = versions.find((v) => v.startsWith(`${announced}.`));
    if (match !== undefined) return { version: match };
    const newest = newestOfMajor(release[1] as string);
    // Numeric comparison: "3.10" is newer than "3.9".
    if (newest !== undefined && Number(release[2]) > minorOf(newest)) {
      if (context.newerRelease !== 'refuse') return { version: newest, standInFor: announced };
      throw new DecodeError(
        'UNSUPPORTED_VERSION',
        `the payload announces AdCP version ${shown(announced)}, newer than the bundled ${releaseOf(newest)}; refused (newerRelease: 'refuse'; 'newest' judges it with ${newest})`,
        { task: context.task },
      );
    }
  }
  const why =
    release !== null && newestOfMajor(release[1] as string) === undefined
      ? 'a major that is not bundled'
      : /^\d+\.\d+(-[a-zA-Z0-9.-]+)?$/.test(announced)
        ? 'a release that is not bundled'
        : 'not a release-precision version';
  throw new DecodeError(
    'UNSUPPORTED_VERSION',
    `the payload announces AdCP version ${shown(announced)}, ${why}; expected one of the bundled releases ${versions.map(releaseOf).join(', ')}, a newer release of their majors, or a version option`,
    { task: context.task },
  );
}

function minorOf(version: string): number {
  return Number(version.split('.')[1]);
}

/** The bundled version with the highest release (minor) in `major`, or undefined when the major is not bundled. */
function newestOfMajor(major: string): Version | undefined {
  let newest: Version | undefined;
  for (const v of versions) {
    if (v.split('.')[0] !== major) continue;
    if (newest === undefined || minorOf(v) > minorOf(newest)) newest = v;
  }
  return newest;
}
