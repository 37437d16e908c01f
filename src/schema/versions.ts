/**
 * The AdCP versions this process speaks (the bundled ones, and those generated release modules
 * defined) and how a requested or announced version maps onto one of them.
 */
import { DecodeError, type ErrorContext, NO_CONTEXT } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
// From the module that imports nothing: this file's declarations then reach no release's types.
import { defaultVersion, type Version, versions } from '../generated/versions.js';
import type { AdcpRelease } from './release.js';
import { isPin, knownReleases, releaseFor } from './releases.js';
import type { TaskSchemaIds, VersionTables } from './tables.js';

export { defaultVersion, type Version, versions };

/**
 * The task names of an AdCP version this process speaks (bundled, or defined by a generated module).
 *
 * @param version A version (`'3.1.19'`) or its pin (`'3.1'`, `'3.2-beta.6'`); default: the default version.
 * @throws {DecodeError} `UNSUPPORTED_VERSION` when the version is neither bundled nor defined.
 * @example
 * tasks('3.1').includes('get_products'); // true
 */
export function tasks(version: string = defaultVersion): readonly string[] {
  return tablesFor(resolveVersion(version)).tasks;
}

/** The tables of a resolved version. */
export function tablesFor(version: string): VersionTables<string> {
  return releaseFor(version).tables;
}

/**
 * The response schema ids a task is judged by in a version: its own, or, for a release's result
 * validator of its own (3.2's `terminal_schema_overrides`), that validator's.
 *
 * @param version A known version.
 * @param task A task name, or a result validator key the release's `results` names.
 * @returns The ids, or `undefined` for what the version does not judge.
 * @throws {DecodeError} `UNSUPPORTED_VERSION` for a version neither bundled nor defined.
 * @example
 * judgedAs('3.1.19', 'get_products')?.response; // '/schemas/3.1.19/media-buy/get-products-response.json'
 */
export function judgedAs(version: string, task: string): TaskSchemaIds | undefined {
  const { tables, results } = releaseFor(version);
  if (Object.hasOwn(tables.schemaIds, task)) return tables.schemaIds[task];
  const result = Object.values(results).find((r) => r.validators === task);
  return result === undefined ? undefined : { response: result.schema, async: {} };
}

/**
 * Every version this process speaks, bundled first (`versions`), then those generated modules defined.
 *
 * @returns The versions.
 * @throws Never.
 * @example
 * knownVersions(); // ['3.1.19', '3.0.26', '3.2.0-beta.6']
 */
export function knownVersions(): readonly Version[] {
  return knownReleases().map((r) => r.version as Version);
}

/**
 * Whether a value is a version this process speaks (`'3.1.19'`, not its pin): bundled, or defined
 * by a generated release module.
 *
 * @param value Anything.
 * @returns True for a known version.
 * @example
 * isVersion('3.0.26'); // true
 */
export function isVersion(value: unknown): value is Version {
  return knownReleases().some((r) => r.version === value);
}

/**
 * The release (major.minor) of a version; its wire pin is {@link pinOf} (a pre-release kept whole).
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
  const known = knownReleases();
  return `expected one of ${known.map((r) => r.version).join(', ')} or their pins (${known.map((r) => r.release).join(', ')})`;
}

/**
 * The known release a wire pin names: a pre-release pin exactly, a release pin its newest known
 * patch, never a pre-release (versioning.mdx, "Version negotiation").
 *
 * @param pin A release-precision version (`'3.1'`, `'3.2-beta.6'`).
 * @returns The version, or `undefined` when none is known.
 * @throws Never.
 * @example
 * versionOfPin('3.0'); // '3.0.26'
 */
export function versionOfPin(pin: string): Version | undefined {
  let best: AdcpRelease | undefined;
  for (const r of knownReleases()) if (r.release === pin && (best === undefined || compareVersions(r.version, best.version) > 0)) best = r;
  return best?.version as Version | undefined;
}

/**
 * Maps a version (`'3.1.19'`) or its wire pin (`'3.1'`, `'3.2-beta.6'`) to a version this process
 * speaks; the newest known patch wins for a pin.
 *
 * @param requested A version or a pin.
 * @param context The call (its task), for the error.
 * @returns The version.
 * @throws {DecodeError} `UNSUPPORTED_VERSION` when no known version matches.
 * @example
 * resolveVersion('3.0'); // '3.0.26'
 */
export function resolveVersion(requested: string, context: ErrorContext = NO_CONTEXT): Version {
  if (isVersion(requested)) return requested;
  const pinned = isPin(requested) ? versionOfPin(requested) : undefined;
  if (pinned !== undefined) return pinned;
  throw new DecodeError(
    'UNSUPPORTED_VERSION',
    `requested AdCP version ${shown(requested)} is neither bundled nor defined by a generated release module; ${expected()}`,
    context,
  );
}

/**
 * The version a call judges by when no payload announces one: the resolved `version` option,
 * else the default.
 *
 * @param requested The resolved option (`'auto'` when none was given).
 * @returns A known version.
 * @throws Never.
 * @example
 * versionOrDefault('auto'); // '3.1.19'
 */
export function versionOrDefault(requested: 'auto' | Version): Version {
  return requested === 'auto' ? defaultVersion : requested;
}

/**
 * What to do with an answer announcing a release this process has not loaded: `'refuse'`
 * (default) fails with `RELEASE_NOT_LOADED`, blamed on the configuration (generate the release);
 * `'newest'` judges a newer release of a known major by the newest known release of that major.
 */
export type NewerRelease = 'newest' | 'refuse';

/** The known version that judges an announced release, and the release it stands in for, if any. */
export interface AnnouncedResolution {
  readonly version: Version;
  /** The announced release, when `version` judges it in its place (a newer release of the same major, on request). */
  readonly standInFor?: string;
}

/** The newest known GA release of a major, by version (a pre-release never stands in for a release). */
function newestOfMajor(major: number): AdcpRelease | undefined {
  let newest: AdcpRelease | undefined;
  for (const r of knownReleases()) {
    if (majorOf(r.version) !== major || r.version.includes('-')) continue;
    if (newest === undefined || compareVersions(r.version, newest.version) > 0) newest = r;
  }
  return newest;
}

/**
 * Maps the `adcp_version` an answer announces to the known version that judges it.
 * The rule (pins, pre-releases, a release not loaded): docs/versions.md, "The release an answer names".
 *
 * @param announced The answer's `adcp_version`.
 * @param how `newerRelease` (default `'refuse'`); `context`, the call, for the error.
 * @returns The known version, and `standInFor` (the announced release) when it judges in its place.
 * @throws {DecodeError} `RELEASE_NOT_LOADED` for a well-formed release that is not loaded;
 *   `UNSUPPORTED_VERSION` for what is no release-precision version.
 * @example
 * resolveAnnouncedVersion('3.1'); // { version: '3.1.19' }
 * resolveAnnouncedVersion('3.2', { newerRelease: 'newest' }); // { version: '3.1.19', standInFor: '3.2' }
 */
export function resolveAnnouncedVersion(
  announced: string,
  how: { readonly newerRelease?: NewerRelease; readonly context?: ErrorContext } = {},
): AnnouncedResolution {
  const context = how.context ?? NO_CONTEXT;
  if (!isPin(announced)) {
    throw new DecodeError(
      'UNSUPPORTED_VERSION',
      `the payload announces AdCP version ${shown(announced)}, not a release-precision version ("3.1", "3.2-beta.6": no patch on the wire)`,
      context,
    );
  }
  const known = versionOfPin(announced);
  if (known !== undefined) return { version: known };
  const newest = newestOfMajor(majorOf(announced));
  const newer = newest !== undefined && !announced.includes('-') && minorOf(announced) > minorOf(newest.version);
  if (newer && how.newerRelease === 'newest') return { version: newest.version as Version, standInFor: announced };
  throw new DecodeError(
    'RELEASE_NOT_LOADED',
    `the answer announces AdCP ${shown(announced)}, a release this buyer has not loaded (known: ${knownReleases()
      .map((r) => r.release)
      .join(
        ', ',
      )}): not the seller's fault; generate it from the spec's release tarball (npx adcp-decode generate <${announced}.x tarball> --out <dir>) and import the module${
      newer ? `, or judge it by ${newest.version} with newerRelease: 'newest'` : ''
    }`,
    context,
  );
}

function minorOf(version: string): number {
  return Number(version.split('.')[1]?.split('-')[0]);
}

/** Semantic version order (`3.10.0` after `3.9.0`; a pre-release before its release). */
function compareVersions(a: string, b: string): number {
  const [coreA = '', preA] = a.split(/-(.*)/s);
  const [coreB = '', preB] = b.split(/-(.*)/s);
  const [x, y] = [coreA.split('.').map(Number), coreB.split('.').map(Number)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  if (preA === preB) return 0;
  if (preA === undefined) return 1;
  if (preB === undefined) return -1;
  return preA < preB ? -1 : 1;
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
 * The newest known version whose pin a seller lists: a release pin by its newest known patch, a
 * pre-release pin (`"3.2-beta.6"`) only by that pre-release, defined by a generated module.
 *
 * @param listed - Release-precision versions, e.g. a seller's `supported_versions`.
 * @returns The known version, or `undefined` when the seller lists none this process speaks.
 * @throws Never.
 * @example
 * newestListed(['3.0', '3.2']); // '3.0.26' (with no 3.2 loaded)
 */
export function newestListed(listed: readonly string[]): Version | undefined {
  let best: string | undefined;
  for (const r of knownReleases()) {
    if (listed.includes(r.release) && (best === undefined || compareVersions(r.version, best) > 0)) best = r.version;
  }
  return best as Version | undefined;
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
 * The known version to speak with a seller, from its capabilities.
 * The negotiation: docs/versions.md, "What `version: 'auto'` can and cannot tell".
 *
 * @param seller - What the capabilities answer says.
 * @returns The known version, or `undefined` when there is no common release.
 * @throws Never.
 * @example
 * versionForSeller({ majorVersions: [3] }); // '3.0.26'
 * versionForSeller({ supportedVersions: ['3.0', '3.1'], majorVersions: [3] }); // '3.1.19'
 */
export function versionForSeller(seller: SellerVersions): Version | undefined {
  if (seller.supportedVersions !== undefined) return newestListed(seller.supportedVersions);
  const releases = knownReleases().filter((r) => !r.version.includes('-'));
  let major: number | undefined;
  for (const m of seller.majorVersions) {
    if (releases.some((r) => majorOf(r.version) === m) && (major === undefined || m > major)) major = m;
  }
  if (major === undefined) return undefined;
  const served = seller.announced === undefined || !isPin(seller.announced) ? undefined : versionOfPin(seller.announced);
  if (served !== undefined && majorOf(served) === major) return served;
  let oldest: string | undefined;
  for (const r of releases)
    if (majorOf(r.version) === major && (oldest === undefined || compareVersions(r.version, oldest) < 0)) oldest = r.version;
  return oldest as Version | undefined;
}

function majorOf(version: string): number {
  return Number(version.split('.')[0]);
}
