/**
 * The root `preload`: loads a task's validators through the import map of any pinned version. Its
 * own module, the only one that imports every release's import map (src/generated/validator-maps),
 * so that a bundle of a pinned entry, which preloads through its own release's map, holds no other
 * release's validators: a bundler emits a chunk for every `import()` it parses, reached or not.
 */
import { DecodeError, describeValue } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { type Version as BundledVersion, defaultVersion, versions } from '../generated/index.js';
import { validatorsByVersion } from '../generated/validator-maps.js';
import { releaseFor } from '../schema/releases.js';
import { isVersion, type Version } from '../schema/versions.js';
import { preloadFrom } from './validators.js';

/**
 * Loads the validators of tasks (both the fast and the error-listing ones) through the generated
 * import map, so that decode() finds them without loading anything. Needed before the first
 * decode of a task in bundles and browsers (a bundler splits the validators into one chunk per
 * task); in Node decode() loads them itself on first use.
 * @param tasks A task name, or an array of them.
 * @param version The AdCP version whose validators to load; the default version when omitted.
 * @throws {DecodeError} `INVALID_OPTION` when `tasks` is not a string or an array of strings,
 *   `UNKNOWN_TASK` for a task the version lacks, `UNSUPPORTED_VERSION` for an unknown version,
 *   `INTERNAL` when a module cannot be loaded (a chunk missing from a bundle).
 * @example
 * await preload(['get_products', 'create_media_buy']);
 * const result = decode('get_products', callToolResult);
 */
export async function preload(tasks: string | readonly string[], version: Version = defaultVersion): Promise<void> {
  if (typeof version !== 'string' || !isVersion(version)) {
    const got = typeof version === 'string' ? `"${shownText(version, 40)}"` : describeValue(version);
    throw new DecodeError(
      'UNSUPPORTED_VERSION',
      `${got} is neither a bundled AdCP version (${versions.join(', ')}) nor one a generated module defined`,
    );
  }
  // A bundled release's import map lives here, apart from its tables; a generated release carries its own.
  const map = (versions as readonly string[]).includes(version)
    ? validatorsByVersion[version as BundledVersion]
    : releaseFor(version).validators;
  if (map === undefined)
    throw new DecodeError('INTERNAL', `the AdCP ${version} release module carries no validator import map: regenerate it`, { version });
  await preloadFrom(map, version, tasks);
}
