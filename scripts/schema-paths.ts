/**
 * Where the synced AdCP files live, for scripts and tests (codegen, fixtures). The files are
 * copied there by `npm run sync-schemas` (scripts/sync-schemas/), pinned by the committed lock
 * `schemas/adcp.lock.json`; `schemas/synced/` itself is git-ignored and never committed.
 *
 * Layout of `schemas/synced/` (mirrors https://adcontextprotocol.org/):
 *   schemas/<version>/**      e.g. schemas/3.1.19/core/product.json, schemas/3.1.19/manifest.json
 *   test-vectors/**           e.g. test-vectors/mcp-response-extraction.json
 *   LICENSE                   Apache-2.0, from the AdCP project
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the repository root. */
export const REPO_ROOT: string = fileURLToPath(new URL('..', import.meta.url));

/** Absolute path of the committed lock file, `schemas/adcp.lock.json`. */
export const LOCK_PATH: string = fileURLToPath(new URL('../schemas/adcp.lock.json', import.meta.url));

/** Absolute path of the git-ignored folder the AdCP files are synced into, `schemas/synced`. */
export const SYNCED_DIR: string = fileURLToPath(new URL('../schemas/synced', import.meta.url));

/** A pinned AdCP version such as `3.1.19` (optionally with a pre-release suffix). */
export const VERSION_PATTERN = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z][0-9A-Za-z.-]*)?$/;

/** One safe path segment: no leading dot (so no `.`, `..` or dotfiles), no separators. */
const SEGMENT_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/** Absolute path of `schemas/synced/schemas/<version>`, e.g. `schemaDir('3.1.19')`. */
export function schemaDir(version: string): string {
  if (!VERSION_PATTERN.test(version)) {
    throw new Error(`schemaDir: not an AdCP version: ${JSON.stringify(version)} (expected e.g. "3.1.19")`);
  }
  return path.join(SYNCED_DIR, 'schemas', version);
}

/**
 * Absolute path of `schemas/synced/test-vectors/<name>.json`. `name` has no `.json` suffix and
 * may contain a sub-folder: `testVectorPath('mcp-response-extraction')`,
 * `testVectorPath('media-buy/status-as-of')`.
 */
export function testVectorPath(name: string): string {
  const segments = name.split('/');
  if (name.endsWith('.json') || !segments.every((s) => SEGMENT_PATTERN.test(s))) {
    throw new Error(
      `testVectorPath: not a test-vector name: ${JSON.stringify(name)} (expected e.g. "mcp-response-extraction", without .json)`,
    );
  }
  return path.join(SYNCED_DIR, 'test-vectors', ...segments.slice(0, -1), `${segments.at(-1)}.json`);
}

/** The AdCP versions pinned by the lock; `defaultVersion` is `versions[0]`. */
export interface LockVersions {
  readonly defaultVersion: string;
  readonly versions: readonly string[];
}

/** Reads `{ defaultVersion, versions }` from `schemas/adcp.lock.json` (or `lockPath`). */
export function readLockVersions(lockPath: string = LOCK_PATH): LockVersions {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(lockPath, 'utf8'));
  } catch (cause) {
    throw new Error(`readLockVersions: cannot read ${lockPath}: ${(cause as Error).message}`, { cause });
  }
  const lock = parsed as { defaultVersion?: unknown; versions?: unknown } | null;
  const versions = lock?.versions;
  const defaultVersion = lock?.defaultVersion;
  if (
    !Array.isArray(versions) ||
    versions.length === 0 ||
    !versions.every((v): v is string => typeof v === 'string' && VERSION_PATTERN.test(v)) ||
    defaultVersion !== versions[0]
  ) {
    throw new Error(
      `readLockVersions: ${lockPath} must have "versions" (AdCP versions, default first) and "defaultVersion" equal to versions[0]`,
    );
  }
  return { defaultVersion: versions[0]!, versions: [...versions] };
}

/** Every file below `dir`, recursively, in sorted order (so codegen and audits are deterministic). */
export function listFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = path.join(dir, name);
      return statSync(p).isDirectory() ? listFiles(p) : [p];
    });
}
