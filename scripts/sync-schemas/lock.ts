/**
 * The lock `schemas/adcp.lock.json`: its format, reading and checking it, writing it, and building
 * it from a directory laid out like the AdCP site (what `npm run sync-schemas -- --update` does).
 *
 * LOCK FORMAT (written by `--update`, deterministic):
 *   {
 *     "$comment": "...",                       free text, ignored
 *     "lockfileVersion": 1,
 *     "defaultVersion": "3.1.19",             must equal versions[0]
 *     "versions": ["3.1.19", "3.0.26"],       default first
 *     "files": {                               sorted by path (code-unit order), one per line
 *       "LICENSE": { "bytes": 10768, "sha256": "<64 lowercase hex>" },
 *       "schemas/3.1.19/core/product.json": { "bytes": ..., "sha256": "..." },
 *       "test-vectors/mcp-response-extraction.json": { ... }
 *     }
 *   }
 * Paths are relative to the source root, `/`-separated, every segment matches
 * [A-Za-z0-9_][A-Za-z0-9._-]* (no `..`, no dotfiles), and each is `LICENSE`, under
 * `test-vectors/` or `patch-history/` (earlier GA patches), or under `schemas/<v>/` for a `v` in `versions`. The lock lists every file
 * under `schemas/<v>/` for each version, every file under `test-vectors/` (recursively) and
 * `LICENSE`; not `docs/`. Dot-entries in the source (`.DS_Store`, ...) are skipped by `--update`.
 *
 * --update needs a DIRECTORY source. Over https there is no listing: following the $refs from
 * `schemas/<v>/index.json` and `manifest.json` misses schemas that nothing references (57 of 672
 * files in 3.1.19, 21 of 506 in 3.0.26, e.g. `core/async-response-refs/**`, `error-details/**`)
 * and `test-vectors/` has no index at all, so a lock built that way would be silently incomplete.
 * To upgrade, get a checkout of the AdCP mirror and run with ADCP_SCHEMAS_SOURCE=<that dir>.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { LOCK_PATH, VERSION_PATTERN } from '../schema-paths.js';
import { SyncSchemasError } from './errors.js';
import { displayPath, writeFileAtomic } from './files.js';

const LOCKFILE_VERSION = 1;
/** Hard per-file cap, whatever the lock says. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;
const LOCK_COMMENT =
  'Pins the AdCP schemas and test vectors copied into schemas/synced/ (git-ignored). ' +
  'Written by `npm run sync-schemas -- --update`; format documented in scripts/sync-schemas/lock.ts.';

/** What the lock pins for one file. */
export interface LockEntry {
  readonly sha256: string;
  readonly bytes: number;
}

/** A parsed, checked lock. */
export interface AdcpLock {
  readonly lockfileVersion: number;
  readonly defaultVersion: string;
  readonly versions: readonly string[];
  /** Lock-relative path → expected content, in sorted path order. */
  readonly files: ReadonlyMap<string, LockEntry>;
}

const SEGMENT_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
const SHA256_PATTERN = /^[0-9a-f]{64}$/;

/**
 * Orders strings by UTF-16 code units, as the lock sorts its paths (not by locale).
 *
 * @param a - One string.
 * @param b - The other.
 * @returns Negative, zero or positive, for `Array.prototype.sort`.
 * @throws Never.
 * @example
 * ['b', 'B', 'a'].sort(compareCodeUnits); // ['B', 'a', 'b']
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Why `rel` may not appear in a lock pinning `versions`, or undefined when it may. */
function checkLockPath(rel: string, versions: readonly string[]): string | undefined {
  const segments = rel.split('/');
  if (!segments.every((s) => SEGMENT_PATTERN.test(s))) {
    return 'segments must match [A-Za-z0-9_][A-Za-z0-9._-]* (no "..", no dotfiles, no empty segments)';
  }
  if (rel === 'LICENSE') return undefined;
  if (segments[0] === 'test-vectors' && segments.length >= 2) return undefined;
  // The earlier GA patches of the bundled releases (codegen's patch fallback, scripts/generate/patches.ts).
  if (segments[0] === 'patch-history' && segments.length >= 2) return undefined;
  if (segments[0] === 'schemas' && segments.length >= 3 && versions.includes(segments[1]!)) return undefined;
  return `must be LICENSE, under test-vectors/ or patch-history/, or under schemas/<version>/ for a version in "versions" (${versions.join(', ')})`;
}

/**
 * Validates a parsed lock.
 *
 * @param value - The parsed JSON.
 * @param where - How messages name it (a path, "the generated lock").
 * @returns The lock, files in sorted path order.
 * @throws {SyncSchemasError} `BAD_LOCK` naming what is wrong.
 * @example
 * parseLock(JSON.parse(text), 'schemas/adcp.lock.json').versions; // ['3.1.19', '3.0.26']
 */
export function parseLock(value: unknown, where: string): AdcpLock {
  const bad = (why: string): SyncSchemasError => new SyncSchemasError('BAD_LOCK', `${where} is not a valid lock: ${why}`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('not a JSON object');
  const raw = value as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!['$comment', 'lockfileVersion', 'defaultVersion', 'versions', 'files'].includes(key)) {
      throw bad(`unknown key ${JSON.stringify(key)}`);
    }
  }
  if (raw['lockfileVersion'] !== LOCKFILE_VERSION) {
    throw bad(`"lockfileVersion" must be ${LOCKFILE_VERSION} (this script's format)`);
  }
  const versions = raw['versions'];
  if (
    !Array.isArray(versions) ||
    versions.length === 0 ||
    !versions.every((v): v is string => typeof v === 'string' && VERSION_PATTERN.test(v)) ||
    new Set(versions).size !== versions.length
  ) {
    throw bad('"versions" must be a non-empty list of distinct AdCP versions such as "3.1.19"');
  }
  if (raw['defaultVersion'] !== versions[0]) {
    throw bad(`"defaultVersion" must equal versions[0] (${versions[0]})`);
  }
  const files = raw['files'];
  if (typeof files !== 'object' || files === null || Array.isArray(files)) throw bad('"files" must be an object');
  const map = new Map<string, LockEntry>();
  const lowerCase = new Map<string, string>();
  for (const rel of Object.keys(files).sort(compareCodeUnits)) {
    const why = checkLockPath(rel, versions);
    if (why !== undefined) throw bad(`file path ${JSON.stringify(rel)}: ${why}`);
    const clash = lowerCase.get(rel.toLowerCase());
    if (clash !== undefined) throw bad(`${clash} and ${rel} differ only in case`);
    lowerCase.set(rel.toLowerCase(), rel);
    const entry = (files as Record<string, unknown>)[rel] as { sha256?: unknown; bytes?: unknown } | null;
    if (
      typeof entry !== 'object' ||
      entry === null ||
      typeof entry.sha256 !== 'string' ||
      !SHA256_PATTERN.test(entry.sha256) ||
      typeof entry.bytes !== 'number' ||
      !Number.isSafeInteger(entry.bytes) ||
      entry.bytes < 0 ||
      Object.keys(entry).length !== 2
    ) {
      throw bad(`${rel}: entry must be { "bytes": <integer>, "sha256": "<64 lowercase hex>" }`);
    }
    if (entry.bytes > MAX_FILE_BYTES) {
      throw bad(`${rel}: ${entry.bytes} bytes is over the ${MAX_FILE_BYTES}-byte per-file cap`);
    }
    map.set(rel, { sha256: entry.sha256, bytes: entry.bytes });
  }
  for (const v of versions) {
    if (![...map.keys()].some((rel) => rel.startsWith(`schemas/${v}/`))) throw bad(`no files for version ${v}`);
  }
  return { lockfileVersion: LOCKFILE_VERSION, defaultVersion: versions[0]!, versions: [...versions], files: map };
}

/**
 * Reads and validates a lock file.
 *
 * @param lockPath - The file; default `schemas/adcp.lock.json`.
 * @returns The lock.
 * @throws {SyncSchemasError} `BAD_LOCK` when it is missing, unreadable, not JSON or malformed.
 * @example
 * readLock().defaultVersion; // '3.1.19'
 */
export function readLock(lockPath: string = LOCK_PATH): AdcpLock {
  let text: string;
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    throw new SyncSchemasError(
      'BAD_LOCK',
      code === 'ENOENT'
        ? `${displayPath(lockPath)} not found: create it with \`npm run sync-schemas -- --update --versions 3.1.19,3.0.26\` from a directory source`
        : `cannot read ${displayPath(lockPath)}: ${(cause as Error).message}`,
      { cause },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new SyncSchemasError('BAD_LOCK', `${displayPath(lockPath)} is not valid JSON: ${(cause as Error).message}`, {
      cause,
    });
  }
  return parseLock(parsed, displayPath(lockPath));
}

/**
 * The lock's canonical text: fixed top-level key order, files sorted, one file per line, trailing newline.
 *
 * @param lock - The lock.
 * @returns The text `--update` writes, byte-identical run to run.
 * @throws Never.
 * @example
 * writeFileSync(LOCK_PATH, serializeLock(lock));
 */
export function serializeLock(lock: AdcpLock): string {
  const rels = [...lock.files.keys()].sort(compareCodeUnits);
  const fileLines = rels.map((rel) => {
    const e = lock.files.get(rel)!;
    return `    ${JSON.stringify(rel)}: { "bytes": ${e.bytes}, "sha256": ${JSON.stringify(e.sha256)} }`;
  });
  return [
    '{',
    `  "$comment": ${JSON.stringify(LOCK_COMMENT)},`,
    `  "lockfileVersion": ${LOCKFILE_VERSION},`,
    `  "defaultVersion": ${JSON.stringify(lock.versions[0])},`,
    `  "versions": [${lock.versions.map((v) => JSON.stringify(v)).join(', ')}],`,
    '  "files": {',
    fileLines.join(',\n'),
    '  }',
    '}',
    '',
  ].join('\n');
}

/**
 * Writes a lock atomically (temp file + rename).
 *
 * @param lockPath - Where it goes.
 * @param lock - The lock.
 * @returns When it is in place.
 * @throws The file-system error.
 * @example
 * await writeLock('schemas/adcp.lock.json', lock);
 */
export async function writeLock(lockPath: string, lock: AdcpLock): Promise<void> {
  await writeFileAtomic(lockPath, serializeLock(lock));
}

/**
 * The lowercase hex sha256 of some bytes, as the lock records it.
 *
 * @param data - The bytes (or a string, as UTF-8).
 * @returns 64 lowercase hex digits.
 * @throws Never.
 * @example
 * sha256(readFileSync('LICENSE'));
 */
export function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Builds a lock from a directory laid out like the AdCP site: every file under
 * `schemas/<v>/` for each version, under `test-vectors/`, and `LICENSE` (dot-entries skipped).
 *
 * @param sourceDir - The directory.
 * @param versions - The versions to pin, default first.
 * @returns The lock, checked as a read lock is.
 * @throws {SyncSchemasError} `USAGE` for bad versions, `BAD_SOURCE` for a missing folder or a name
 *   that cannot be locked, `TOO_LARGE` for a file over the per-file cap.
 * @example
 * serializeLock(await buildLockFromDirectory('../shared/adcp', ['3.1.19', '3.0.26']));
 */
export async function buildLockFromDirectory(sourceDir: string, versions: readonly string[]): Promise<AdcpLock> {
  if (versions.length === 0 || !versions.every((v) => VERSION_PATTERN.test(v)) || new Set(versions).size !== versions.length) {
    throw new SyncSchemasError('USAGE', `versions must be distinct AdCP versions such as 3.1.19, got: ${versions.join(',')}`);
  }
  const rels: string[] = [];
  const walk = (relDir: string, required: boolean): void => {
    const abs = path.join(sourceDir, ...relDir.split('/'));
    let entries: string[];
    try {
      entries = readdirSync(abs);
    } catch (cause) {
      if (!required && (cause as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw new SyncSchemasError('BAD_SOURCE', `${relDir}/ not found in the source ${sourceDir}: ${(cause as Error).message}`, {
        cause,
      });
    }
    for (const name of entries) {
      if (name.startsWith('.')) continue;
      const rel = `${relDir}/${name}`;
      const st = statSync(path.join(abs, name)); // follows symlinks
      if (st.isDirectory()) walk(rel, false);
      else if (st.isFile()) rels.push(rel);
    }
  };
  for (const v of versions) walk(`schemas/${v}`, true);
  walk('test-vectors', true);
  walk('patch-history', false);
  rels.push('LICENSE');

  const files = new Map<string, LockEntry>();
  for (const rel of rels.sort(compareCodeUnits)) {
    const why = checkLockPath(rel, versions);
    if (why !== undefined) {
      throw new SyncSchemasError('BAD_SOURCE', `cannot lock ${rel} from the source ${sourceDir}: ${why}`, { file: rel });
    }
    let data: Buffer;
    try {
      data = readFileSync(path.join(sourceDir, ...rel.split('/')));
    } catch (cause) {
      throw new SyncSchemasError('BAD_SOURCE', `cannot read ${rel} from the source ${sourceDir}: ${(cause as Error).message}`, {
        file: rel,
        cause,
      });
    }
    if (data.length > MAX_FILE_BYTES) {
      throw new SyncSchemasError('TOO_LARGE', `${rel} is ${data.length} bytes, over the ${MAX_FILE_BYTES}-byte per-file cap`, {
        file: rel,
      });
    }
    files.set(rel, { sha256: sha256(data), bytes: data.length });
  }
  const lock: AdcpLock = { lockfileVersion: LOCKFILE_VERSION, defaultVersion: versions[0]!, versions: [...versions], files };
  return parseLock(JSON.parse(serializeLock(lock)), 'the generated lock'); // same checks as on read
}
