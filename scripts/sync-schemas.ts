/**
 * sync-schemas: copies the pinned AdCP schemas and test vectors into the git-ignored folder
 * `schemas/synced/`, verifying every file against the committed lock `schemas/adcp.lock.json`.
 * The AdCP files themselves are never committed; only the lock is.
 *
 *   npm run sync-schemas                          sync (a no-op when everything is already there)
 *   npm run sync-schemas -- --update              rewrite the lock from the source, then sync
 *   npm run sync-schemas -- --update --versions 3.1.19,3.0.26
 *   options: --out DIR (default schemas/synced), --lock FILE (default schemas/adcp.lock.json),
 *            --source DIR|URL (default: env ADCP_SCHEMAS_SOURCE, else https://adcontextprotocol.org)
 *
 * SOURCE (`ADCP_SCHEMAS_SOURCE` or `--source`) is laid out like https://adcontextprotocol.org/:
 * `schemas/<version>/**`, `test-vectors/**`, `LICENSE`. It is either
 *   - a directory (relative paths resolve against the current directory), e.g. `../shared/adcp`;
 *   - an `https://` base URL, default `https://adcontextprotocol.org`; plain `http://` is accepted
 *     only for 127.0.0.1 / localhost / [::1] (local test servers) and refused for any other host.
 *
 * LOCK FORMAT (`schemas/adcp.lock.json`, written by `--update`, deterministic):
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
 * `test-vectors/`, or under `schemas/<v>/` for a `v` in `versions`. The lock lists every file
 * under `schemas/<v>/` for each version, every file under `test-vectors/` (recursively) and
 * `LICENSE`; not `docs/`. Dot-entries in the source (`.DS_Store`, ...) are skipped by `--update`.
 *
 * SYNC: files already in the destination with the locked sha256 are left alone; if all are, the
 * run prints one line and exits (no network). Missing or different files are read from the
 * source with a byte bound (HTTP bodies are streamed and counted, aborting once they pass the
 * lock's `bytes`; directory files are read up to `bytes + 1`; the per-file cap is 8 MiB), hashed,
 * and only when sha256 and size match written to a temp name in the destination and renamed into
 * place. Redirects are followed (the hash check makes the bytes trustworthy, not the host). The
 * whole file is kept in memory, bounded by its locked size. HTTP requests have a timeout covering headers and body,
 * are retried with exponential backoff on network errors, timeouts, 429 and 5xx (not on 404,
 * other 4xx, size or hash mismatches), and run 8 at a time. The first failure stops the run.
 * After a complete sync a marker `.sync-schemas.json` is written into the destination; in a
 * destination that has the marker, files under `schemas/<version>/` and `test-vectors/` that the
 * lock no longer lists are deleted (nothing is ever deleted from a folder without the marker;
 * temp files younger than 10 minutes are spared, another run may be writing them).
 *
 * --update needs a DIRECTORY source. Over https there is no listing: following the $refs from
 * `schemas/<v>/index.json` and `manifest.json` misses schemas that nothing references (57 of 672
 * files in 3.1.19, 21 of 506 in 3.0.26, e.g. `core/async-response-refs/**`, `error-details/**`)
 * and `test-vectors/` has no index at all, so a lock built that way would be silently incomplete.
 * To upgrade, get a checkout of the AdCP mirror and run with ADCP_SCHEMAS_SOURCE=<that dir>.
 *
 * Errors are thrown as SyncSchemasError (one-line message, stable `code`, `file` when one file is
 * to blame); the CLI prints `sync-schemas: <message>` and exits 1.
 */
import { createHash, randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, rmdir, stat, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { LOCK_PATH, SYNCED_DIR, VERSION_PATTERN } from './schema-paths.js';

export const DEFAULT_SOURCE = 'https://adcontextprotocol.org';
export const LOCKFILE_VERSION = 1;
/** Hard per-file cap, whatever the lock says. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 3;
export const DEFAULT_RETRY_DELAY_MS = 500;
export const DEFAULT_CONCURRENCY = 8;
/** Name of the marker file written into the destination after a complete sync. */
export const MARKER_FILE = '.sync-schemas.json';
/** Names of the temp files written before the rename into place. */
const TEMP_FILE_PATTERN = /\.\d+\.[0-9a-f]{8}\.tmp$/;
const OFFLINE_HINT = 'for offline machines: ADCP_SCHEMAS_SOURCE=../shared/adcp';
const LOCK_COMMENT =
  'Pins the AdCP schemas and test vectors copied into schemas/synced/ (git-ignored). ' +
  'Written by `npm run sync-schemas -- --update`; format documented in scripts/sync-schemas.ts.';

// ---------------------------------------------------------------------------------------------
// Errors

export type SyncSchemasErrorCode =
  /** Bad arguments or options. */
  | 'USAGE'
  /** The source is not usable (plain http to a remote host, unknown scheme, missing directory). */
  | 'BAD_SOURCE'
  /** The lock file is missing or malformed. */
  | 'BAD_LOCK'
  /** A file's sha256 or size differs from the lock. */
  | 'MISMATCH'
  /** A file the lock lists is not in the source (404, ENOENT). */
  | 'MISSING'
  /** A file is larger than the lock allows or than the per-file cap. */
  | 'TOO_LARGE'
  /** A request did not finish within the timeout (after retries). */
  | 'TIMEOUT'
  /** An HTTP status other than 200 / 404 (after retries, for 5xx and 429). */
  | 'HTTP'
  /** A network or file-system error (after retries, for network errors). */
  | 'IO';

export class SyncSchemasError extends Error {
  override readonly name = 'SyncSchemasError';
  readonly code: SyncSchemasErrorCode;
  /** The lock-relative path of the file to blame, when there is one. */
  readonly file: string | undefined;

  constructor(code: SyncSchemasErrorCode, message: string, options: { file?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.file = options.file;
  }
}

/** Errors worth another attempt (network trouble, timeouts, 5xx, 429). */
class RetryableError extends Error {
  constructor(readonly final: SyncSchemasError) {
    super(final.message);
  }
}

// ---------------------------------------------------------------------------------------------
// Lock

export interface LockEntry {
  readonly sha256: string;
  readonly bytes: number;
}

export interface AdcpLock {
  readonly lockfileVersion: number;
  readonly defaultVersion: string;
  readonly versions: readonly string[];
  /** Lock-relative path → expected content, in sorted path order. */
  readonly files: ReadonlyMap<string, LockEntry>;
}

const SEGMENT_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
const SHA256_PATTERN = /^[0-9a-f]{64}$/;

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Why `rel` may not appear in a lock pinning `versions`, or undefined when it may. */
export function checkLockPath(rel: string, versions: readonly string[]): string | undefined {
  const segments = rel.split('/');
  if (!segments.every((s) => SEGMENT_PATTERN.test(s))) {
    return 'segments must match [A-Za-z0-9_][A-Za-z0-9._-]* (no "..", no dotfiles, no empty segments)';
  }
  if (rel === 'LICENSE') return undefined;
  if (segments[0] === 'test-vectors' && segments.length >= 2) return undefined;
  if (segments[0] === 'schemas' && segments.length >= 3 && versions.includes(segments[1]!)) return undefined;
  return `must be LICENSE, under test-vectors/, or under schemas/<version>/ for a version in "versions" (${versions.join(', ')})`;
}

/** Validates a parsed lock; `where` names it in messages. */
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

/** Reads and validates a lock file (default `schemas/adcp.lock.json`). */
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

/** The lock's canonical text: fixed top-level key order, files sorted, one file per line, trailing newline. */
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

/** Writes a lock atomically (temp file + rename). */
export async function writeLock(lockPath: string, lock: AdcpLock): Promise<void> {
  await writeFileAtomic(lockPath, serializeLock(lock));
}

export function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Builds a lock from a directory laid out like the AdCP site: every file under
 * `schemas/<v>/` for each version, under `test-vectors/`, and `LICENSE` (dot-entries skipped).
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

// ---------------------------------------------------------------------------------------------
// Source

export type Source =
  | { readonly kind: 'dir'; readonly dir: string; readonly display: string }
  | { readonly kind: 'url'; readonly base: URL; readonly display: string };

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Parses ADCP_SCHEMAS_SOURCE: a directory (relative to `cwd`) or an https (or local http) base URL. */
export function resolveSource(spec: string, cwd: string = process.cwd()): Source {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(spec)) {
    let url: URL;
    try {
      url = new URL(spec);
    } catch (cause) {
      throw new SyncSchemasError('BAD_SOURCE', `ADCP_SCHEMAS_SOURCE is not a valid URL: ${spec}`, { cause });
    }
    if (url.protocol === 'file:') {
      const dir = fileURLToPath(url);
      return { kind: 'dir', dir, display: dir };
    }
    if (url.protocol === 'http:' && !LOCAL_HOSTS.has(url.hostname)) {
      throw new SyncSchemasError(
        'BAD_SOURCE',
        `refusing plain http source ${url.origin}: use https (plain http is only allowed for 127.0.0.1 and localhost), or a directory (${OFFLINE_HINT})`,
      );
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new SyncSchemasError('BAD_SOURCE', `unsupported ADCP_SCHEMAS_SOURCE scheme ${url.protocol} (use https:// or a directory)`);
    }
    if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
      throw new SyncSchemasError('BAD_SOURCE', 'ADCP_SCHEMAS_SOURCE must be a plain base URL (no credentials, query or fragment)');
    }
    if (!url.pathname.endsWith('/')) url.pathname += '/';
    return { kind: 'url', base: url, display: url.href.replace(/\/$/, '') };
  }
  const dir = path.resolve(cwd, spec);
  return { kind: 'dir', dir, display: spec };
}

// ---------------------------------------------------------------------------------------------
// Sync

export interface SyncOptions {
  /** Directory or base URL; default env ADCP_SCHEMAS_SOURCE, else https://adcontextprotocol.org. */
  readonly source?: string | undefined;
  /** Destination folder; default `schemas/synced`. Relative paths resolve against `cwd`. */
  readonly out?: string | undefined;
  /** Lock file; default `schemas/adcp.lock.json`. Relative paths resolve against `cwd`. */
  readonly lock?: string | undefined;
  /** Rewrite the lock from the (directory) source first. */
  readonly update?: boolean | undefined;
  /** With `update`: the versions to pin, default first; default the existing lock's. */
  readonly versions?: readonly string[] | undefined;
  readonly cwd?: string | undefined;
  /** Per-file cap in bytes, default and maximum 8 MiB. */
  readonly maxFileBytes?: number | undefined;
  /** Per-request timeout (headers and body), default 30 s. */
  readonly timeoutMs?: number | undefined;
  /** Extra attempts after a retryable failure, default 3. */
  readonly retries?: number | undefined;
  /** First backoff delay; doubles each retry. Default 500 ms. */
  readonly retryDelayMs?: number | undefined;
  /** Files fetched at once, default 8. */
  readonly concurrency?: number | undefined;
  /** Progress lines; default console.log. */
  readonly log?: ((line: string) => void) | undefined;
}

export interface SyncResult {
  /** True when nothing had to be fetched, written or deleted. */
  readonly upToDate: boolean;
  /** Files the lock lists. */
  readonly total: number;
  /** Files fetched and written in this run (lock-relative paths, sorted). */
  readonly fetched: readonly string[];
  /** Stale files deleted from the destination (lock-relative paths, sorted). */
  readonly pruned: readonly string[];
  /** Bytes fetched in this run. */
  readonly bytes: number;
  /** With `update`: whether the lock file's text changed. */
  readonly lockChanged?: boolean;
  readonly ms: number;
}

function displayPath(p: string, cwd: string = process.cwd()): string {
  const rel = path.relative(cwd, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : p;
}

/** Syncs the files the lock pins from the source into the destination (see the top comment). */
export async function syncSchemas(options: SyncOptions = {}): Promise<SyncResult> {
  const started = performance.now();
  const cwd = options.cwd ?? process.cwd();
  const log = options.log ?? ((line: string) => console.log(line));
  const lockPath = path.resolve(cwd, options.lock ?? LOCK_PATH);
  const out = path.resolve(cwd, options.out ?? SYNCED_DIR);
  const envSource = process.env['ADCP_SCHEMAS_SOURCE'];
  const source = resolveSource(options.source ?? (envSource !== undefined && envSource !== '' ? envSource : DEFAULT_SOURCE), cwd);
  const maxFileBytes = Math.min(options.maxFileBytes ?? MAX_FILE_BYTES, MAX_FILE_BYTES);
  const lockShown = displayPath(lockPath, cwd);
  const outShown = displayPath(out, cwd);
  const updateCommand =
    lockPath === LOCK_PATH ? 'npm run sync-schemas -- --update' : `npm run sync-schemas -- --update --lock ${lockShown}`;

  let lockChanged: boolean | undefined;
  if (options.update === true) {
    if (source.kind !== 'dir') {
      throw new SyncSchemasError(
        'USAGE',
        `--update needs a directory source, not ${source.display}: over https there is no file listing, and following index.json/manifest.json $refs misses unreferenced schemas and all of test-vectors/, so the lock would be silently incomplete; run it against a checkout of the AdCP mirror (${OFFLINE_HINT})`,
      );
    }
    const versions = options.versions ?? readLock(lockPath).versions;
    await assertDirectory(source);
    const before = await readTextIfExists(lockPath);
    const next = await buildLockFromDirectory(source.dir, versions);
    const text = serializeLock(next);
    lockChanged = text !== before;
    if (lockChanged) {
      await writeFileAtomic(lockPath, text);
      log(`sync-schemas: ${describeLockChange(before, next, lockShown)}`);
    } else {
      log(`sync-schemas: ${lockShown} already matches ${source.display}`);
    }
  } else if (options.versions !== undefined) {
    throw new SyncSchemasError('USAGE', '--versions only applies with --update');
  }

  const lock = readLock(lockPath);
  const lockText = readFileSync(lockPath);
  const lockDigest = sha256(lockText);
  const markerPath = path.join(out, MARKER_FILE);

  // 1. What is already in place? (synchronous: ~1,200 small files hash in well under a second)
  const todo: string[] = [];
  for (const [rel, want] of lock.files) {
    const file = path.join(out, ...rel.split('/'));
    try {
      const st = statSync(file);
      if (st.isFile() && st.size === want.bytes && sha256(readFileSync(file)) === want.sha256) continue;
    } catch {
      // missing: fetch it
    }
    todo.push(rel);
  }
  const marker = readMarker(markerPath);
  const stale = marker !== undefined ? findStale(out, lock) : []; // prune only a folder we own

  if (todo.length === 0 && stale.length === 0) {
    if (marker !== lockDigest) await writeMarker(markerPath, lockDigest, lock);
    const ms = performance.now() - started;
    log(
      `sync-schemas: ${outShown} is up to date (${lock.files.size} files, AdCP ${lock.versions.join(', ')}; checked in ${Math.round(ms)} ms)`,
    );
    return { upToDate: true, total: lock.files.size, fetched: [], pruned: [], bytes: 0, ms, ...lockInfo(lockChanged) };
  }

  // 2. Fetch what is missing or different, verify, write.
  if (source.kind === 'dir' && todo.length > 0) await assertDirectory(source);
  const ctx: FetchContext = {
    source,
    lockShown,
    updateCommand,
    maxFileBytes,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retries: options.retries ?? DEFAULT_RETRIES,
    retryDelayMs: options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS,
    stop: new AbortController(),
  };
  setMaxListeners(100, ctx.stop.signal); // one listener per in-flight request
  let bytes = 0;
  let firstError: unknown;
  const madeDirs = new Set<string>();
  const queue = [...todo];
  const worker = async (): Promise<void> => {
    for (let rel = queue.shift(); rel !== undefined && firstError === undefined; rel = queue.shift()) {
      try {
        const want = lock.files.get(rel)!;
        const data = await fetchVerified(ctx, rel, want);
        if (firstError !== undefined) return;
        try {
          await writeFileAtomic(path.join(out, ...rel.split('/')), data, madeDirs);
        } catch (cause) {
          throw new SyncSchemasError('IO', `cannot write ${rel} into ${outShown}: ${(cause as Error).message}`, { file: rel, cause });
        }
        bytes += data.length;
      } catch (error) {
        if (firstError === undefined) {
          firstError = error;
          ctx.stop.abort();
        }
      }
    }
  };
  const concurrency = Math.max(1, Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, 64)); // listeners: see above
  await Promise.all(Array.from({ length: Math.min(concurrency, todo.length) }, worker));
  if (firstError !== undefined) throw firstError;

  // 3. Delete stale files (only in a destination we own), then claim the destination.
  for (const rel of stale) await rm(path.join(out, ...rel.split('/')), { force: true });
  await removeEmptyDirs(out, stale);
  await writeMarker(markerPath, lockDigest, lock);

  const ms = performance.now() - started;
  const parts = [`fetched ${todo.length} of ${lock.files.size} files (${formatBytes(bytes)}) from ${source.display}`];
  if (stale.length > 0) parts.push(`deleted ${stale.length} stale`);
  log(`sync-schemas: ${parts.join(', ')} into ${outShown}, all verified against ${lockShown} (${(ms / 1000).toFixed(1)} s)`);
  return {
    upToDate: false,
    total: lock.files.size,
    fetched: todo.sort(compareCodeUnits),
    pruned: stale,
    bytes,
    ms,
    ...lockInfo(lockChanged),
  };
}

function lockInfo(lockChanged: boolean | undefined): { lockChanged?: boolean } {
  return lockChanged === undefined ? {} : { lockChanged };
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : `${(n / 1024).toFixed(1)} KiB`;
}

function describeLockChange(beforeText: string | undefined, next: AdcpLock, lockShown: string): string {
  let before: AdcpLock | undefined;
  try {
    before = beforeText === undefined ? undefined : parseLock(JSON.parse(beforeText), lockShown);
  } catch {
    before = undefined;
  }
  if (before === undefined) return `wrote ${lockShown} (${next.files.size} files, AdCP ${next.versions.join(', ')})`;
  let added = 0;
  let changed = 0;
  for (const [rel, e] of next.files) {
    const old = before.files.get(rel);
    if (old === undefined) added++;
    else if (old.sha256 !== e.sha256 || old.bytes !== e.bytes) changed++;
  }
  const removed = [...before.files.keys()].filter((rel) => !next.files.has(rel)).length;
  return `updated ${lockShown}: ${next.files.size} files, AdCP ${next.versions.join(', ')} (+${added} added, -${removed} removed, ~${changed} changed); review the diff before committing`;
}

async function assertDirectory(source: Source & { kind: 'dir' }): Promise<void> {
  try {
    if ((await stat(source.dir)).isDirectory()) return;
  } catch {
    // fall through
  }
  throw new SyncSchemasError(
    'BAD_SOURCE',
    `source directory not found: ${source.dir} (from ADCP_SCHEMAS_SOURCE=${source.display}; ${OFFLINE_HINT})`,
  );
}

async function readTextIfExists(file: string): Promise<string | undefined> {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

// -- destination bookkeeping ------------------------------------------------------------------

function readMarker(markerPath: string): string | undefined {
  try {
    const parsed = JSON.parse(readFileSync(markerPath, 'utf8')) as { lockSha256?: unknown };
    return typeof parsed.lockSha256 === 'string' ? parsed.lockSha256 : undefined;
  } catch {
    return undefined;
  }
}

async function writeMarker(markerPath: string, lockDigest: string, lock: AdcpLock): Promise<void> {
  const marker = {
    $comment: 'Written by scripts/sync-schemas.ts after a complete sync; do not edit. Files here are overwritten and pruned.',
    lockSha256: lockDigest,
    versions: lock.versions,
    files: lock.files.size,
  };
  await writeFileAtomic(markerPath, `${JSON.stringify(marker, null, 2)}\n`);
}

/** Files under out/schemas/<version-like>/ and out/test-vectors/ that the lock does not list. */
function findStale(out: string, lock: AdcpLock): string[] {
  const stale: string[] = [];
  const walk = (relDir: string): void => {
    let entries: import('node:fs').Dirent[];
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

async function removeEmptyDirs(out: string, removed: readonly string[]): Promise<void> {
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

async function writeFileAtomic(file: string, data: Uint8Array | string, madeDirs?: Set<string>): Promise<void> {
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

// -- fetching ---------------------------------------------------------------------------------

interface FetchContext {
  readonly source: Source;
  readonly lockShown: string;
  readonly updateCommand: string;
  readonly maxFileBytes: number;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryDelayMs: number;
  /** Aborted when another file failed: stop everything. */
  readonly stop: AbortController;
}

function fixHint(ctx: FetchContext): string {
  const upgrade =
    ctx.source.kind === 'dir'
      ? `run \`${ctx.updateCommand}\``
      : `run \`${ctx.updateCommand}\` with ADCP_SCHEMAS_SOURCE set to a directory copy of the new release`;
  return `the source differs from ${ctx.lockShown}: if the upgrade is intended, ${upgrade}; otherwise point ADCP_SCHEMAS_SOURCE at a trusted copy (${OFFLINE_HINT})`;
}

/** Reads one file from the source, bounded, and returns it only if it matches the lock. */
async function fetchVerified(ctx: FetchContext, rel: string, want: LockEntry): Promise<Buffer> {
  const limit = Math.min(want.bytes, ctx.maxFileBytes);
  if (want.bytes > ctx.maxFileBytes) {
    throw new SyncSchemasError(
      'TOO_LARGE',
      `${rel}: the lock expects ${want.bytes} bytes, over the ${ctx.maxFileBytes}-byte per-file cap`,
      {
        file: rel,
      },
    );
  }
  const data = ctx.source.kind === 'dir' ? await readFromDirectory(ctx, rel, limit) : await downloadWithRetries(ctx, rel, limit);
  const got = sha256(data);
  if (got !== want.sha256 || data.length !== want.bytes) {
    throw new SyncSchemasError(
      'MISMATCH',
      `${rel} from ${ctx.source.display} does not match ${ctx.lockShown}: expected sha256 ${want.sha256} (${want.bytes} bytes), got sha256 ${got} (${data.length} bytes); nothing was written for it; ${fixHint(ctx)}`,
      { file: rel },
    );
  }
  return data;
}

function tooLarge(ctx: FetchContext, rel: string, limit: number, detail: string): SyncSchemasError {
  return new SyncSchemasError(
    'TOO_LARGE',
    `${rel} from ${ctx.source.display} is larger than the ${limit} bytes ${ctx.lockShown} expects (${detail}); aborted, nothing was written for it; ${fixHint(ctx)}`,
    { file: rel },
  );
}

function missing(ctx: FetchContext, rel: string, detail: string): SyncSchemasError {
  return new SyncSchemasError(
    'MISSING',
    `${rel} is listed in ${ctx.lockShown} but missing from the source ${ctx.source.display} (${detail}); ${fixHint(ctx)}`,
    { file: rel },
  );
}

/** Collects chunks until the stream ends, aborting as soon as more than `limit` bytes arrived. */
async function collectBounded(chunks: AsyncIterable<Uint8Array>, limit: number, onTooLarge: (seen: number) => Error): Promise<Buffer> {
  const parts: Buffer[] = [];
  let seen = 0;
  for await (const chunk of chunks) {
    seen += chunk.byteLength;
    if (seen > limit) throw onTooLarge(seen);
    parts.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return Buffer.concat(parts, seen);
}

async function readFromDirectory(ctx: FetchContext, rel: string, limit: number): Promise<Buffer> {
  const source = ctx.source as Source & { kind: 'dir' };
  const file = path.join(source.dir, ...rel.split('/'));
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, 'r');
    // Read at most limit + 1 bytes: one byte past the lock's size is enough to refuse the file.
    const buffer = Buffer.allocUnsafe(limit + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > limit) throw tooLarge(ctx, rel, limit, `the file is ${(await handle.stat()).size} bytes`);
    return buffer.subarray(0, filled);
  } catch (error) {
    if (error instanceof SyncSchemasError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw missing(ctx, rel, `no such file: ${file}`);
    throw new SyncSchemasError('IO', `cannot read ${rel} from ${source.display}: ${(error as Error).message}`, {
      file: rel,
      cause: error,
    });
  } finally {
    await handle?.close();
  }
}

async function downloadWithRetries(ctx: FetchContext, rel: string, limit: number): Promise<Buffer> {
  const attempts = ctx.retries + 1;
  for (let attempt = 1; ; attempt++) {
    try {
      return await downloadOnce(ctx, rel, limit);
    } catch (error) {
      if (!(error instanceof RetryableError)) throw error;
      if (attempt >= attempts || ctx.stop.signal.aborted) {
        const final = error.final;
        throw new SyncSchemasError(
          final.code,
          `${final.message} (after ${attempt} attempt${attempt === 1 ? '' : 's'}); check the network or use a local copy (${OFFLINE_HINT})`,
          { file: rel, cause: final },
        );
      }
      await sleep(ctx.retryDelayMs * 2 ** (attempt - 1), ctx.stop.signal);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

async function downloadOnce(ctx: FetchContext, rel: string, limit: number): Promise<Buffer> {
  if (ctx.stop.signal.aborted) throw new SyncSchemasError('IO', `${rel}: cancelled`, { file: rel });
  const source = ctx.source as Source & { kind: 'url' };
  const url = new URL(rel.split('/').map(encodeURIComponent).join('/'), source.base);
  const shown = `${source.display}/${rel}`;
  const controller = new AbortController();
  let timedOut = false;
  let complete = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, ctx.timeoutMs);
  const onStop = (): void => controller.abort();
  ctx.stop.signal.addEventListener('abort', onStop, { once: true });
  try {
    const response = await fetch(url, {
      signal: controller.signal,
      redirect: 'follow',
      headers: { accept: 'application/json, text/plain, */*' },
    });
    if (response.status === 404 || response.status === 410) {
      await response.body?.cancel();
      throw missing(ctx, rel, `HTTP ${response.status} from ${shown}`);
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      const error = new SyncSchemasError('HTTP', `${rel}: HTTP ${response.status} from ${shown}`, { file: rel });
      if (response.status >= 500 || response.status === 429 || response.status === 408) throw new RetryableError(error);
      throw error;
    }
    const length = response.headers.get('content-length');
    const encoding = response.headers.get('content-encoding');
    if (length !== null && (encoding === null || encoding === 'identity') && Number(length) > limit) {
      await response.body?.cancel();
      throw tooLarge(ctx, rel, limit, `Content-Length ${length}`);
    }
    const data =
      response.body === null
        ? Buffer.alloc(0)
        : await collectBounded(response.body, limit, (seen) => tooLarge(ctx, rel, limit, `received ${seen} bytes so far`));
    complete = true;
    return data;
  } catch (error) {
    if (error instanceof SyncSchemasError || error instanceof RetryableError) throw error;
    if (timedOut) {
      throw new RetryableError(
        new SyncSchemasError('TIMEOUT', `${rel}: no complete response from ${shown} within ${ctx.timeoutMs} ms`, { file: rel }),
      );
    }
    if (ctx.stop.signal.aborted) throw new SyncSchemasError('IO', `${rel}: cancelled`, { file: rel, cause: error });
    const cause = (error as { cause?: { message?: string; code?: string } }).cause;
    const detail = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new RetryableError(new SyncSchemasError('IO', `${rel}: network error fetching ${shown}: ${detail}`, { file: rel }));
  } finally {
    clearTimeout(timer);
    ctx.stop.signal.removeEventListener('abort', onStop);
    if (!complete && !controller.signal.aborted) controller.abort(); // release the connection on an early exit
  }
}

// ---------------------------------------------------------------------------------------------
// CLI

const USAGE = 'usage: sync-schemas [--update [--versions 3.1.19,3.0.26]] [--out DIR] [--lock FILE] [--source DIR|URL]';

function parseSyncArgs(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      update: { type: 'boolean' },
      versions: { type: 'string' },
      out: { type: 'string' },
      lock: { type: 'string' },
      source: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  try {
    let parsed: ReturnType<typeof parseSyncArgs>;
    try {
      parsed = parseSyncArgs(argv);
    } catch (cause) {
      throw new SyncSchemasError('USAGE', `${(cause as Error).message}; ${USAGE}`, { cause });
    }
    const { values } = parsed;
    if (values.help === true) {
      console.log(USAGE);
      return 0;
    }
    await syncSchemas({
      update: values.update,
      versions: values.versions
        ?.split(',')
        .map((v) => v.trim())
        .filter((v) => v !== ''),
      out: values.out,
      lock: values.lock,
      source: values.source,
    });
    return 0;
  } catch (error) {
    const message = error instanceof SyncSchemasError ? error.message : `unexpected error: ${String((error as Error)?.message ?? error)}`;
    console.error(`sync-schemas: ${message}`);
    return 1;
  }
}

function isMainModule(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return path.resolve(entry) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isMainModule()) {
  process.exitCode = await main();
}
