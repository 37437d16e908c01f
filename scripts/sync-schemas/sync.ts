/**
 * The sync: copies the files the lock pins from the source (`ADCP_SCHEMAS_SOURCE`, see source.ts)
 * into the git-ignored destination `schemas/synced/`, each checked against the lock.
 *
 * Files already in the destination with the locked sha256 are left alone; if all are, the run
 * prints one line and returns (no network). Missing or different files are read from the source
 * with a byte bound (HTTP bodies are streamed and counted, see download.ts; directory files are
 * read up to `bytes + 1`; the per-file cap is 8 MiB), hashed, and only when sha256 and size match
 * written to a temp name in the destination and renamed into place. The whole file is kept in
 * memory, bounded by its locked size. Files are fetched 8 at a time; the first failure stops the
 * run. After a complete sync the destination is claimed and pruned (see destination.ts).
 */
import { setMaxListeners } from 'node:events';
import { readFileSync, statSync } from 'node:fs';
import { type FileHandle, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { LOCK_PATH, SYNCED_DIR } from '../schema-paths.js';
import { findStale, MARKER_FILE, readMarker, removeEmptyDirs, writeMarker } from './destination.js';
import {
  DEFAULT_RETRIES,
  DEFAULT_RETRY_DELAY_MS,
  DEFAULT_TIMEOUT_MS,
  type DownloadContext,
  downloadWithRetries,
  type RetryEvent,
} from './download.js';
import { mismatch, missing, OFFLINE_HINT, SyncSchemasError, tooLarge } from './errors.js';
import { displayPath, writeFileAtomic } from './files.js';
import {
  type AdcpLock,
  buildLockFromDirectory,
  compareCodeUnits,
  type LockEntry,
  MAX_FILE_BYTES,
  parseLock,
  readLock,
  serializeLock,
  sha256,
} from './lock.js';
import { assertDirectory, DEFAULT_SOURCE, resolveSource, type Source } from './source.js';

/** Files fetched at once. */
const DEFAULT_CONCURRENCY = 8;

/** How the sync reads the source: a download's needs, and the per-file cap. */
interface FetchContext extends DownloadContext {
  readonly maxFileBytes: number;
}

/** The options of {@link syncSchemas}; the CLI fills source, out, lock, update and versions. */
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
  /** Told of every retry of a download, before its backoff wait (none by default). */
  readonly onRetry?: ((event: RetryEvent) => void) | undefined;
  /** Files fetched at once, default 8. */
  readonly concurrency?: number | undefined;
  /** Progress lines; default console.log. */
  readonly log?: ((line: string) => void) | undefined;
}

/** What a sync did: nothing had to change when `fetched` and `pruned` are both empty. */
export interface SyncResult {
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

/**
 * Syncs the files the lock pins from the source into the destination (see the top comment).
 *
 * @param options - Source, destination, lock, `update`, limits; all optional.
 * @returns What was fetched, pruned and how long it took.
 * @throws {SyncSchemasError} The first failure, naming the file to blame when there is one.
 * @example
 * await syncSchemas({ source: '../shared/adcp' });
 */
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
    return { total: lock.files.size, fetched: [], pruned: [], bytes: 0, ms, ...lockInfo(lockChanged) };
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
    onRetry: options.onRetry,
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

async function readTextIfExists(file: string): Promise<string | undefined> {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
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
  if (got !== want.sha256 || data.length !== want.bytes) throw mismatch(ctx, rel, want, { sha256: got, bytes: data.length });
  return data;
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
