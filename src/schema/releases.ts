/**
 * The releases this process speaks: the bundled ones, and those a generated release module added
 * when it was imported (defineRelease). Every run-time lookup of a release's tables goes through
 * here, so a generated release is read exactly as a bundled one is.
 */
import { DecodeError, type ErrorContext, NO_CONTEXT } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { optionalObject, optionError } from '../errors/option-rules.js';
import { BUNDLED_RELEASES } from '../generated/releases.js';
import { type AdcpRelease, pinOf, RELEASE_FORMAT, VERSION } from './release.js';

/** The releases defined by generated modules, by version. */
const defined = new Map<string, AdcpRelease>();

/** The bundled releases, by version. */
const bundled: ReadonlyMap<string, AdcpRelease> = new Map(BUNDLED_RELEASES.map((r) => [r.version, r]));

const WHO = 'defineRelease';

/** A version with its pre-release: `3.2.0-beta.6`; a release pin: `3.2`, `3.2-beta.6`. */
const PIN = /^(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z][0-9A-Za-z.-]*)?$/;

/**
 * Whether a string is a release pin (`'3.2'`, `'3.2-beta.6'`), the precision of the wire.
 *
 * @param value Anything.
 * @returns True for a pin.
 * @throws Never.
 * @example
 * isPin('3.2.1'); // false: a patch is never on the wire
 */
export function isPin(value: unknown): value is string {
  return typeof value === 'string' && PIN.test(value);
}

/** The members every release object has, checked where a module hands one in. */
function checkRelease(release: unknown): AdcpRelease {
  optionalObject(WHO, 'release', release);
  if (release === undefined) throw optionError(WHO, 'release', 'a release object', release);
  const r = release as Partial<Record<keyof AdcpRelease, unknown>>;
  if (r.format !== RELEASE_FORMAT)
    throw optionError(
      WHO,
      'release.format',
      `${RELEASE_FORMAT}, the format this adcp-decode reads (regenerate the module with this adcp-decode's generate command)`,
      r.format,
    );
  if (typeof r.version !== 'string' || !VERSION.test(r.version))
    throw optionError(WHO, 'release.version', 'an AdCP version such as 3.2.1', r.version);
  if (r.release !== pinOf(r.version))
    throw optionError(WHO, 'release.release', `the pin of ${r.version}, "${pinOf(r.version)}"`, r.release);
  for (const member of ['tables', 'envelope', 'requests', 'tools', 'results', 'patches', 'files'] as const) {
    optionalObject(WHO, `release.${member}`, r[member]);
    if (r[member] === undefined) throw optionError(WHO, `release.${member}`, 'an object', undefined);
  }
  return release as AdcpRelease;
}

/**
 * Adds a generated release to those this process speaks (a generated module calls it when it is
 * imported): decode(), encode(), the polls and the webhook receiver then judge by it as by a
 * bundled release. Defining the same release again (a module imported twice) is harmless; another
 * release under a bundled or defined version is refused.
 *
 * @param release - The release object the generator wrote.
 * @returns The release, frozen.
 * @throws {DecodeError} `INVALID_OPTION` for an object that is no release of this format, or a
 *   version already bundled or defined by other content.
 * @example
 * export const release = defineRelease({ format: 1, version: '3.2.0-beta.6', ... });
 */
export function defineRelease<V extends string>(release: AdcpRelease<V>): AdcpRelease<V> {
  const checked = checkRelease(release);
  const known = bundled.get(checked.version) ?? defined.get(checked.version);
  if (known !== undefined) {
    if (known.sourceSha256 === checked.sourceSha256 && known.generator === checked.generator) return known as AdcpRelease<V>;
    throw optionError(
      WHO,
      'release.version',
      bundled.has(checked.version)
        ? `a version adcp-decode does not bundle (${checked.version} is bundled: use it as it is)`
        : `a version not defined already by another module (${checked.version} was, from source ${shownText(known.sourceSha256, 16)}…)`,
      checked.version,
    );
  }
  const frozen = Object.freeze({ ...checked });
  defined.set(frozen.version, frozen);
  return frozen as AdcpRelease<V>;
}

/**
 * Every release this process speaks: the bundled ones, default first, then the defined ones in
 * the order they were defined.
 *
 * @returns The releases.
 * @throws Never.
 * @example
 * knownReleases().map((r) => r.release); // ['3.1', '3.0', '3.2-beta.6']
 */
export function knownReleases(): readonly AdcpRelease[] {
  return [...BUNDLED_RELEASES, ...defined.values()];
}

/**
 * The release of a version this process speaks.
 *
 * @param version - A bundled or defined version, e.g. `'3.1.19'`.
 * @param context - The call, for the error.
 * @returns The release.
 * @throws {DecodeError} `UNSUPPORTED_VERSION` for a version neither bundled nor defined.
 * @example
 * releaseFor('3.1.19').tables.tasks.includes('get_products'); // true
 */
export function releaseFor(version: string, context: ErrorContext = NO_CONTEXT): AdcpRelease {
  const release = bundled.get(version) ?? defined.get(version);
  if (release !== undefined) return release;
  throw new DecodeError(
    'UNSUPPORTED_VERSION',
    `AdCP ${shownText(version, 40)} is neither bundled nor defined by a generated release module; known: ${knownReleases()
      .map((r) => r.version)
      .join(', ')}`,
    context,
  );
}
