/**
 * The bundled AdCP versions and how a requested or announced version maps onto one of them.
 */
import { DecodeError, type ErrorContext, NO_CONTEXT } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { tablesByVersion } from '../generated/index.js';
// From the module that imports nothing: this file's declarations then reach no release's types.
import { defaultVersion, type Version, versions } from '../generated/versions.js';
import type { VersionTables } from './tables.js';

export { defaultVersion, type Version, versions };

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

/**
 * Whether a value is a bundled version (`'3.1.19'`, not its release).
 *
 * @param value Anything.
 * @returns True for a bundled version.
 * @example
 * isVersion('3.0.26'); // true
 */
export function isVersion(value: unknown): value is Version {
  return (versions as readonly unknown[]).includes(value);
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
 * @param context The call (its task), for the error.
 * @returns The bundled version.
 * @throws {DecodeError} `UNSUPPORTED_VERSION` when no bundled version matches.
 * @example
 * resolveVersion('3.0'); // '3.0.26'
 */
export function resolveVersion(requested: string, context: ErrorContext = NO_CONTEXT): Version {
  if (isVersion(requested)) return requested;
  if (/^\d+\.\d+$/.test(requested)) {
    const match = versions.find((v) => v.startsWith(`${requested}.`));
    if (match !== undefined) return match;
  }
  throw new DecodeError('UNSUPPORTED_VERSION', `requested AdCP version ${shown(requested)} is not bundled; ${expected()}`, context);
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
 * @param how `newerRelease` (default `'newest'`); `context`, the call, for the error.
 * @returns The bundled version, and `standInFor` (the announced release) when it judges in its place.
 * @throws {DecodeError} `UNSUPPORTED_VERSION` when no bundled version may judge the release.
 * @example
 * resolveAnnouncedVersion('3.1'); // { version: '3.1.19' }
 * resolveAnnouncedVersion('3.2'); // { version: '3.1.19', standInFor: '3.2' }
 */
export function resolveAnnouncedVersion(
  announced: string,
  how: { readonly newerRelease?: NewerRelease; readonly context?: ErrorContext } = {},
): AnnouncedResolution {
  const context = how.context ?? NO_CONTEXT;
  // No leading zeros: "3.02" is no release.
  const release = /^(0|[1-9]\d*)\.(0|[1-9]\d*)$/.exec(announced);
  if (release !== null) {
    const match = versions.find((v) => v.startsWith(`${announced}.`));
    if (match !== undefined) return { version: match };
    const newest = newestOfMajor(release[1] as string);
    // Numeric comparison: "3.10" is newer than "3.9".
    if (newest !== undefined && Number(release[2]) > minorOf(newest)) {
      if (how.newerRelease !== 'refuse') return { version: newest, standInFor: announced };
      throw new DecodeError(
        'UNSUPPORTED_VERSION',
        `the payload announces AdCP version ${shown(announced)}, newer than the bundled ${releaseOf(newest)}; refused (newerRelease: 'refuse'; 'newest' judges it with ${newest})`,
        context,
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
    context,
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

/** Numeric order of two bundled versions (`3.10.0` after `3.9.0`). */
function compareVersions(a: string, b: string): number {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/**
 * The oldest or the newest bundled version, by release.
 *
 * @param which - `'oldest'` or `'newest'`.
 * @returns A bundled version.
 * @throws Never.
 * @example
 * bundledEnd('oldest'); // '3.0.26'
 */
export function bundledEnd(which: 'oldest' | 'newest'): Version {
  const sign = which === 'oldest' ? -1 : 1;
  return versions.reduce((a, b) => (sign * compareVersions(b, a) > 0 ? b : a));
}

/**
 * The newest bundled version whose release a seller lists. A pre-release (`"3.1-beta"`) matches
 * none: the spec matches pre-releases exactly, and only releases are bundled.
 *
 * @param listed - Release-precision versions, e.g. a seller's `supported_versions`.
 * @returns The bundled version, or `undefined` when the seller lists no bundled release.
 * @throws Never.
 * @example
 * newestListed(['3.0', '3.2']); // '3.0.26'
 */
export function newestListed(listed: readonly string[]): Version | undefined {
  let best: Version | undefined;
  for (const v of versions) {
    if (listed.includes(releaseOf(v)) && (best === undefined || compareVersions(v, best) > 0)) best = v;
  }
  return best;
}

/** What a seller's `get_adcp_capabilities` answer says about the versions it speaks. */
export interface SellerVersions {
  /** `adcp.supported_versions` (3.1+), when sent: authoritative, release precision. */
  readonly supportedVersions?: readonly string[] | undefined;
  /** `adcp.major_versions` (every 3.x release; deprecated in favour of the above). */
  readonly majorVersions: readonly number[];
  /** The answer's own `adcp_version`: the release it was served in, which the seller therefore speaks. */
  readonly announced?: string | undefined;
}

/**
 * The bundled version to speak with a seller, from its capabilities (versioning.mdx, "Version
 * negotiation"): with `supported_versions`, the newest release both speak; without it (a 3.0
 * seller, or a 3.1 one that leaves it out), the highest major both speak, in the release the
 * answer was served in when it says so, else that major's oldest bundled release ("treat the
 * seller as 3.0-only": releases only add, so the base release is the one every seller of the
 * major speaks).
 *
 * @param seller - What the capabilities answer says.
 * @returns The bundled version, or `undefined` when there is no common release.
 * @throws Never.
 * @example
 * versionForSeller({ majorVersions: [3] }); // '3.0.26'
 * versionForSeller({ supportedVersions: ['3.0', '3.1'], majorVersions: [3] }); // '3.1.19'
 */
export function versionForSeller(seller: SellerVersions): Version | undefined {
  if (seller.supportedVersions !== undefined) return newestListed(seller.supportedVersions);
  let major: number | undefined;
  for (const m of seller.majorVersions) {
    if (versions.some((v) => majorOf(v) === m) && (major === undefined || m > major)) major = m;
  }
  if (major === undefined) return undefined;
  const served = versions.find((v) => releaseOf(v) === seller.announced);
  if (served !== undefined && majorOf(served) === major) return served;
  let oldest: Version | undefined;
  for (const v of versions) if (majorOf(v) === major && (oldest === undefined || compareVersions(v, oldest) < 0)) oldest = v;
  return oldest;
}

function majorOf(version: string): number {
  return Number(version.split('.')[0]);
}
