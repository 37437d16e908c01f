/**
 * `--release <dir>` (repeatable): a release module `adcp-decode generate` wrote, imported before
 * anything is decoded or called, so the command speaks that release as decode() does once a buyer
 * imports it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { shownText } from '../errors/format.js';
import { knownReleases } from '../schema/releases.js';
import { UsageError } from './usage.js';

/**
 * Imports each release module given; each must define its release in this process's adcp-decode.
 *
 * @param dirs - The folders given, relative to `cwd`.
 * @param cwd - Where a relative folder is resolved.
 * @returns The versions the modules defined, in the order given.
 * @throws {UsageError} A folder without a module, a module that fails to load or defines no
 *   release here (it imports another copy of adcp-decode than this command's).
 * @example
 * await loadReleases(['src/adcp/3.2.1'], process.cwd()); // ['3.2.1']
 */
export async function loadReleases(dirs: readonly string[], cwd: string): Promise<string[]> {
  const loaded: string[] = [];
  for (const dir of dirs) {
    const shown = shownText(dir, 200);
    const entry = path.resolve(cwd, dir, 'index.js');
    if (!existsSync(entry))
      throw new UsageError(`--release ${shown}: no release module there (expected its index.js, written by adcp-decode generate)`);
    let module: unknown;
    try {
      module = await import(pathToFileURL(entry).href);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new UsageError(`--release ${shown}: the module did not load: ${shownText(message, 300)}`);
    }
    const release = typeof module === 'object' && module !== null && 'release' in module ? module.release : undefined;
    const defined = knownReleases().find((r) => r === release);
    if (defined === undefined)
      throw new UsageError(
        `--release ${shown}: the module defines no release in this adcp-decode (it exports none, or imports another copy of adcp-decode than this command's: run the command installed beside it)`,
      );
    loaded.push(defined.version);
  }
  return loaded;
}
