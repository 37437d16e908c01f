/**
 * The bookkeeping of the destination folder: the marker `.sync-schemas.json` written after a
 * complete sync, and the stale files deleted from a destination that has it (nothing is ever
 * deleted from a folder without the marker; temp files younger than 10 minutes are spared,
 * another run may be writing them).
 */
import { type Dirent, readdirSync, readFileSync, statSync } from 'node:fs';
import { readdir, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { VERSION_PATTERN } from '../schema-paths.js';
import { TEMP_FILE_PATTERN, writeFileAtomic } from './files.js';
import { type AdcpLock, compareCodeUnits } from './lock.js';

/** Name of the marker file written into the destination after a complete sync. */
export const MARKER_FILE = '.sync-schemas.json';

/**
 * The sha256 of the lock the destination was last completely synced with.
 *
 * @param markerPath - The marker file.
 * @returns The digest, or undefined when there is no readable marker (the folder is not ours).
 * @throws Never.
 * @example
 * const owned = readMarker(path.join(out, MARKER_FILE)) !== undefined;
 */
export function readMarker(markerPath: string): string | undefined {
  try {
    const parsed = JSON.parse(readFileSync(markerPath, 'utf8')) as { lockSha256?: unknown };
    return typeof parsed.lockSha256 === 'string' ? parsed.lockSha256 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Claims the destination after a complete sync.
 *
 * @param markerPath - The marker file.
 * @param lockDigest - The sha256 of the lock file's bytes.
 * @param lock - The lock.
 * @returns When it is written.
 * @throws The file-system error.
 * @example
 * await writeMarker(path.join(out, MARKER_FILE), sha256(lockText), lock);
 */
export async function writeMarker(markerPath: string, lockDigest: string, lock: AdcpLock): Promise<void> {
  const marker = {
    $comment: 'Written by scripts/sync-schemas/ after a complete sync; do not edit. Files here are overwritten and pruned.',
    lockSha256: lockDigest,
    versions: lock.versions,
    files: lock.files.size,
  };
  await writeFileAtomic(markerPath, `${JSON.stringify(marker, null, 2)}\n`);
}

/**
 * Files under out/schemas/<version-like>/ and out/test-vectors/, out/patch-history/ that the lock does not list.
 *
 * @param out - The destination.
 * @param lock - The lock.
 * @returns Lock-relative paths, sorted; fresh temp files left out.
 * @throws Never (an unreadable folder has nothing stale).
 * @example
 * const stale = readMarker(markerPath) !== undefined ? findStale(out, lock) : [];
 */
export function findStale(out: string, lock: AdcpLock): string[] {
  const stale: string[] = [];
  const walk = (relDir: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(path.join(out, ...relDir.split('/')), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const rel = `${relDir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (!lock.files.has(rel) && !isFreshTempFile(out, rel)) stale.push(rel);
    }
  };
  let schemaDirs: string[] = [];
  try {
    schemaDirs = readdirSync(path.join(out, 'schemas')).filter((name) => VERSION_PATTERN.test(name));
  } catch {
    // none
  }
  for (const v of schemaDirs) walk(`schemas/${v}`);
  walk('test-vectors');
  walk('patch-history');
  return stale.sort(compareCodeUnits);
}

/** A temp file another sync run may still be writing (younger than 10 minutes): leave it alone. */
function isFreshTempFile(out: string, rel: string): boolean {
  if (!TEMP_FILE_PATTERN.test(rel)) return false;
  try {
    return Date.now() - statSync(path.join(out, ...rel.split('/'))).mtimeMs < 10 * 60 * 1000;
  } catch {
    return true;
  }
}

/**
 * Removes the folders that deleting `removed` left empty (never `schemas/` or `test-vectors/`).
 *
 * @param out - The destination.
 * @param removed - The lock-relative paths deleted.
 * @returns When done.
 * @throws Never (a folder not empty or gone is left as it is).
 * @example
 * await removeEmptyDirs(out, stale);
 */
export async function removeEmptyDirs(out: string, removed: readonly string[]): Promise<void> {
  const dirs = new Set<string>();
  for (const rel of removed) {
    const segments = rel.split('/');
    for (let i = segments.length - 1; i >= 2; i--) dirs.add(segments.slice(0, i).join('/'));
  }
  for (const rel of [...dirs].sort((a, b) => b.length - a.length)) {
    const abs = path.join(out, ...rel.split('/'));
    try {
      if ((await readdir(abs)).length === 0) await rmdir(abs);
    } catch {
      // not empty or already gone
    }
  }
}
