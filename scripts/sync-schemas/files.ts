/**
 * How sync-schemas writes a file (a temp name, then a rename, so a reader never sees half a file)
 * and how it shows a path to the user.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Names of the temp files {@link writeFileAtomic} writes before the rename into place. */
export const TEMP_FILE_PATTERN = /\.\d+\.[0-9a-f]{8}\.tmp$/;

/**
 * Writes a file atomically: into a temp name beside it, then renamed into place.
 *
 * @param file - Where it goes.
 * @param data - Its content.
 * @param madeDirs - Folders already created in this run (skips a mkdir per file).
 * @returns When the file is in place.
 * @throws The file-system error; the temp file is removed first.
 * @example
 * await writeFileAtomic('schemas/adcp.lock.json', text);
 */
export async function writeFileAtomic(file: string, data: Uint8Array | string, madeDirs?: Set<string>): Promise<void> {
  const dir = path.dirname(file);
  if (madeDirs?.has(dir) !== true) {
    await mkdir(dir, { recursive: true });
    madeDirs?.add(dir);
  }
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`; // see TEMP_FILE_PATTERN
  try {
    await writeFile(temp, data);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * A path as messages show it: relative to `cwd` when inside it (with `/`), else as given.
 *
 * @param p - An absolute path.
 * @param cwd - The folder to show it from.
 * @returns The path to show.
 * @throws Never.
 * @example
 * displayPath('/repo/schemas/adcp.lock.json', '/repo'); // 'schemas/adcp.lock.json'
 */
export function displayPath(p: string, cwd: string = process.cwd()): string {
  const rel = path.relative(cwd, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : p;
}
