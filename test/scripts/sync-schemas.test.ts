import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_PATH, readLockVersions, SYNCED_DIR, schemaDir, testVectorPath } from '../../scripts/schema-paths.js';
import { MARKER_FILE } from '../../scripts/sync-schemas/destination.js';
import type { RetryEvent } from '../../scripts/sync-schemas/download.js';
import { SyncSchemasError } from '../../scripts/sync-schemas/errors.js';
import { type AdcpLock, buildLockFromDirectory, parseLock, readLock, serializeLock, writeLock } from '../../scripts/sync-schemas/lock.js';
import { resolveSource } from '../../scripts/sync-schemas/source.js';
import { type SyncOptions, syncSchemas } from '../../scripts/sync-schemas/sync.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const SHARED = path.resolve(repoRoot, '../shared/adcp');
const FIX = 'ADCP_SCHEMAS_SOURCE=../shared/adcp npm run sync-schemas -- --update';

const quiet = { log: () => {} } satisfies SyncOptions;
const lock = readLock(LOCK_PATH);

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'sync-schemas-test-'));
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

let counter = 0;
function tempDir(name: string): string {
  const dir = path.join(scratch, `${name}-${++counter}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Every regular file under `dir`, as `/`-separated relative paths (dot-entries included). */
function listFiles(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listFiles(path.join(dir, entry.name), rel));
    else out.push(rel);
  }
  return out.sort();
}

/** Checks every locked file in `out` independently of the script; returns the problems. */
function verifyAgainstLock(out: string, l: AdcpLock): string[] {
  const problems: string[] = [];
  for (const [rel, want] of l.files) {
    const file = path.join(out, ...rel.split('/'));
    if (!existsSync(file)) {
      problems.push(`${rel}: missing`);
      continue;
    }
    const data = readFileSync(file);
    if (data.length !== want.bytes || sha256(data) !== want.sha256) problems.push(`${rel}: wrong content`);
  }
  return problems;
}

/** A small lock with a few files from each root, written to a temp file. */
const SUBSET = [
  'LICENSE',
  `schemas/${V3_0}/manifest.json`,
  `schemas/${V3_1}/core/product.json`,
  `schemas/${V3_1}/manifest.json`,
  'test-vectors/mcp-response-extraction.json',
  'test-vectors/media-buy/status-as-of.json',
];
async function subsetLock(rels: readonly string[] = SUBSET): Promise<{ lockFile: string; lock: AdcpLock }> {
  const files = new Map(rels.map((rel) => [rel, lock.files.get(rel)!]));
  expect([...files.values()].every((e) => e !== undefined)).toBe(true);
  const small: AdcpLock = { ...lock, files };
  const lockFile = path.join(tempDir('lock'), 'adcp.lock.json');
  await writeLock(lockFile, small);
  return { lockFile, lock: small };
}

// -- a local HTTP server laid out like https://adcontextprotocol.org/ --------------------------

type Hook = (rel: string, hit: number, res: http.ServerResponse) => boolean;
interface Served {
  readonly url: string;
  readonly hits: Map<string, number>;
  totalHits(): number;
  close(): Promise<void>;
}

/** Runs `body` against a local server (the hook answers the requests it claims), then closes it. */
async function withServer(hook: Hook | undefined, body: (server: Served) => Promise<void>): Promise<void> {
  const server = await serve(SHARED, hook);
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

async function serve(root: string, hook?: Hook): Promise<Served> {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\//, '');
    const hit = (hits.get(rel) ?? 0) + 1;
    hits.set(rel, hit);
    if (hook?.(rel, hit, res) === true) return;
    const file = path.resolve(root, rel);
    if (!file.startsWith(root + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    const data = readFileSync(file);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': data.length }).end(data);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    totalHits: () => [...hits.values()].reduce((a, b) => a + b, 0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function syncError(options: SyncOptions): Promise<SyncSchemasError> {
  try {
    await syncSchemas({ ...quiet, ...options });
  } catch (error) {
    expect(error).toBeInstanceOf(SyncSchemasError);
    return error as SyncSchemasError;
  }
  throw new Error('expected syncSchemas to fail');
}

function noTempFiles(dir: string): void {
  expect(listFiles(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
}

// ---------------------------------------------------------------------------------------------

describe('the committed lock', () => {
  it('pins exactly the files in ../shared/adcp', async () => {
    const problems: string[] = [];
    for (const [rel, want] of lock.files) {
      const file = path.join(SHARED, ...rel.split('/'));
      if (!existsSync(file)) {
        problems.push(`${rel}: in the lock, missing from ../shared/adcp`);
        continue;
      }
      const data = readFileSync(file);
      if (data.length !== want.bytes || sha256(data) !== want.sha256) {
        problems.push(`${rel}: lock says ${want.sha256} (${want.bytes} bytes), ../shared/adcp has ${sha256(data)} (${data.length} bytes)`);
      }
    }
    const inShared = [
      'LICENSE',
      ...lock.versions.flatMap((v) => listFiles(path.join(SHARED, 'schemas', v), `schemas/${v}`)),
      ...listFiles(path.join(SHARED, 'test-vectors'), 'test-vectors'),
      // The earlier GA patches, which the codegen's patch fallback reads.
      ...listFiles(path.join(SHARED, 'patch-history'), 'patch-history'),
    ];
    for (const rel of inShared) if (!lock.files.has(rel)) problems.push(`${rel}: in ../shared/adcp, missing from the lock`);
    expect(problems, `schemas/adcp.lock.json is out of date with ../shared/adcp; fix: ${FIX} (then review the diff)`).toEqual([]);

    expect(lock.defaultVersion).toBe(V3_1);
    expect(lock.versions).toEqual([V3_1, V3_0]);
    expect(lock.files.size).toBe(inShared.length);
    expect([...lock.files.keys()].some((rel) => rel.startsWith('docs/'))).toBe(false);
  });

  it('is byte-for-byte what --update generates (deterministic, sorted, trailing newline)', async () => {
    const text = readFileSync(LOCK_PATH, 'utf8');
    const regenerated = serializeLock(await buildLockFromDirectory(SHARED, lock.versions));
    expect(regenerated === text, `schemas/adcp.lock.json is not in canonical form; fix: ${FIX}`).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
    const keys = Object.keys((JSON.parse(text) as { files: object }).files);
    expect(keys).toEqual([...keys].sort());
  });
});

describe('schema-paths', () => {
  it('points into schemas/synced', () => {
    expect(SYNCED_DIR).toBe(path.join(repoRoot, 'schemas', 'synced'));
    expect(schemaDir(V3_1)).toBe(path.join(SYNCED_DIR, 'schemas', V3_1));
    expect(testVectorPath('mcp-response-extraction')).toBe(path.join(SYNCED_DIR, 'test-vectors', 'mcp-response-extraction.json'));
    expect(testVectorPath('media-buy/status-as-of')).toBe(path.join(SYNCED_DIR, 'test-vectors', 'media-buy', 'status-as-of.json'));
    expect(() => schemaDir('../x')).toThrow(/not an AdCP version/);
    expect(() => testVectorPath('../package')).toThrow(/not a test-vector name/);
    expect(() => testVectorPath('x.json')).toThrow(/not a test-vector name/);
    expect(readLockVersions()).toEqual({ defaultVersion: V3_1, versions: [V3_1, V3_0] });
  });
});

describe('sync from a directory', () => {
  it('copies and verifies every file; the second run is a no-op; damage is repaired and stale files pruned', async () => {
    const out = tempDir('dir-out');
    const t = performance.now();
    const first = await syncSchemas({ ...quiet, source: SHARED, out });
    console.log(`full directory sync: ${first.total} files in ${Math.round(performance.now() - t)} ms`);
    expect(first.fetched.length).toBe(lock.files.size);
    expect(verifyAgainstLock(out, lock)).toEqual([]);
    expect(listFiles(out)).toEqual([MARKER_FILE, ...lock.files.keys()].sort());

    const mtime = statSync(path.join(out, `schemas/${V3_1}/core/product.json`)).mtimeMs;
    const lines: string[] = [];
    const second = await syncSchemas({ source: SHARED, out, log: (l) => lines.push(l) });
    expect(second).toMatchObject({ fetched: [], pruned: [], bytes: 0 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/up to date/);
    expect(statSync(path.join(out, `schemas/${V3_1}/core/product.json`)).mtimeMs).toBe(mtime);

    // The no-op needs no source at all (no network, no directory).
    await expect(syncSchemas({ ...quiet, source: path.join(scratch, 'does-not-exist'), out })).resolves.toMatchObject({
      fetched: [],
      pruned: [],
    });

    // Damage: a corrupted file, a deleted file, a stale file in the mirror, an unrelated file.
    writeFileSync(path.join(out, `schemas/${V3_1}/core/product.json`), '{"tampered":true}');
    rmSync(path.join(out, 'test-vectors/media-buy/status-as-of.json'));
    writeFileSync(path.join(out, 'test-vectors/removed-upstream.json'), '{}');
    mkdirSync(path.join(out, 'schemas/9.9.9/core'), { recursive: true });
    writeFileSync(path.join(out, 'schemas/9.9.9/core/old.json'), '{}');
    writeFileSync(path.join(out, 'NOTES.txt'), 'not ours to delete');
    writeFileSync(path.join(out, 'test-vectors/x.json.4242.0badcafe.tmp'), 'another run, still writing');
    writeFileSync(path.join(out, 'test-vectors/y.json.4242.deadbeef.tmp'), 'left over by a crash');
    utimesSync(path.join(out, 'test-vectors/y.json.4242.deadbeef.tmp'), new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    const third = await syncSchemas({ ...quiet, source: SHARED, out });
    expect(third.fetched).toEqual([`schemas/${V3_1}/core/product.json`, 'test-vectors/media-buy/status-as-of.json']);
    expect(third.pruned).toEqual([
      'schemas/9.9.9/core/old.json',
      'test-vectors/removed-upstream.json',
      'test-vectors/y.json.4242.deadbeef.tmp',
    ]);
    expect(existsSync(path.join(out, 'test-vectors/x.json.4242.0badcafe.tmp'))).toBe(true);
    rmSync(path.join(out, 'test-vectors/x.json.4242.0badcafe.tmp'));
    expect(verifyAgainstLock(out, lock)).toEqual([]);
    expect(existsSync(path.join(out, 'schemas/9.9.9'))).toBe(false);
    expect(readFileSync(path.join(out, 'NOTES.txt'), 'utf8')).toBe('not ours to delete');
    noTempFiles(out);
  });

  it('never prunes a folder it did not create (no marker)', async () => {
    const { lockFile } = await subsetLock();
    const out = tempDir('foreign');
    mkdirSync(path.join(out, 'test-vectors'), { recursive: true });
    writeFileSync(path.join(out, 'test-vectors/mine.json'), '{}');
    const result = await syncSchemas({ ...quiet, source: SHARED, out, lock: lockFile });
    expect(result.pruned).toEqual([]);
    expect(existsSync(path.join(out, 'test-vectors/mine.json'))).toBe(true);
  });

  it('refuses a tampered file, names it and the lock, and writes nothing for it', async () => {
    const { lockFile, lock: small } = await subsetLock();
    const source = tempDir('tampered-src');
    for (const rel of small.files.keys()) cpSync(path.join(SHARED, rel), path.join(source, rel));
    const target = path.join(source, `schemas/${V3_1}/core/product.json`);
    writeFileSync(target, readFileSync(target, 'utf8').replace('"product_id"', '"product_ID"'));
    const out = tempDir('tampered-dir-out');
    const error = await syncError({ source, out, lock: lockFile, concurrency: 1 });
    expect(error.code).toBe('MISMATCH');
    expect(error.file).toBe(`schemas/${V3_1}/core/product.json`);
    expect(error.message).toContain(`schemas/${V3_1}/core/product.json`);
    expect(error.message).toContain(lockFile);
    expect(error.message).toContain(small.files.get(`schemas/${V3_1}/core/product.json`)!.sha256);
    expect(error.message).toContain('--update');
    expect(error.message).toContain('ADCP_SCHEMAS_SOURCE=../shared/adcp');
    expect(error.message).not.toContain('\n');
    expect(existsSync(path.join(out, `schemas/${V3_1}/core/product.json`))).toBe(false);
    expect(existsSync(path.join(out, MARKER_FILE))).toBe(false);
    noTempFiles(out);

    // Longer than the lock allows: refused after reading one byte past the locked size.
    writeFileSync(
      target,
      Buffer.concat([readFileSync(path.join(SHARED, `schemas/${V3_1}/core/product.json`)), Buffer.alloc(1 << 20, 0x20)]),
    );
    const error2 = await syncError({ source, out, lock: lockFile, concurrency: 1 });
    expect(error2.code).toBe('TOO_LARGE');
    expect(error2.message).toMatch(
      /^schemas\/3\.1\.\d+\/core\/product\.json from .* is larger than the \d+ bytes .* expects \(the file is \d+ bytes\)/,
    );
    expect(existsSync(path.join(out, `schemas/${V3_1}/core/product.json`))).toBe(false);
  });

  it('refuses a file missing from the source, naming it', async () => {
    const { lockFile } = await subsetLock();
    const source = tempDir('missing-src');
    for (const rel of SUBSET.filter((r) => r !== 'test-vectors/media-buy/status-as-of.json')) {
      cpSync(path.join(SHARED, rel), path.join(source, rel));
    }
    const error = await syncError({ source, out: tempDir('missing-out'), lock: lockFile });
    expect(error.code).toBe('MISSING');
    expect(error.message).toMatch(
      /^test-vectors\/media-buy\/status-as-of\.json is listed in .*adcp\.lock\.json but missing from the source/,
    );
  });
});

describe('sync over HTTP', () => {
  it('downloads and verifies every file from a local server; the second run makes no requests', async () => {
    await withServer(undefined, async (server) => {
      const out = tempDir('http-out');
      const t = performance.now();
      const result = await syncSchemas({ ...quiet, source: server.url, out });
      console.log(`full HTTP sync: ${result.total} files in ${Math.round(performance.now() - t)} ms`);
      expect(result.fetched.length).toBe(lock.files.size);
      expect(server.totalHits()).toBe(lock.files.size);
      expect([...server.hits.values()].every((n) => n === 1)).toBe(true);
      expect(verifyAgainstLock(out, lock)).toEqual([]);
      expect(listFiles(out)).toEqual([MARKER_FILE, ...lock.files.keys()].sort());

      const again = await syncSchemas({ ...quiet, source: server.url, out });
      expect(again).toMatchObject({ fetched: [], pruned: [] });
      expect(server.totalHits()).toBe(lock.files.size);
    });
  });

  it('refuses tampered bytes, naming the file and the lock; nothing tampered lands in the destination', async () => {
    const { lockFile } = await subsetLock();
    const victim = 'test-vectors/mcp-response-extraction.json';
    const hook: Hook = (rel, _hit, res) => {
      if (rel !== victim) return false;
      const data = readFileSync(path.join(SHARED, rel));
      const at = data.indexOf('{'.charCodeAt(0)) + 1;
      data[at] = data[at]! ^ 0x01; // same length, one bit flipped
      res.writeHead(200, { 'content-length': data.length }).end(data);
      return true;
    };
    await withServer(hook, async (server) => {
      const out = tempDir('http-tampered');
      const error = await syncError({ source: server.url, out, lock: lockFile, retries: 3, retryDelayMs: 1 });
      expect(error.code).toBe('MISMATCH');
      expect(error.file).toBe(victim);
      expect(error.message).toContain(`${victim} from ${server.url}`);
      expect(error.message).toContain(`does not match ${lockFile}`);
      expect(error.message).toMatch(/expected sha256 [0-9a-f]{64} \(\d+ bytes\), got sha256 [0-9a-f]{64} \(\d+ bytes\)/);
      expect(error.message).toContain('ADCP_SCHEMAS_SOURCE');
      expect(server.hits.get(victim)).toBe(1); // a hash mismatch is not retried
      expect(existsSync(path.join(out, victim))).toBe(false);
      noTempFiles(out);
    });
  });

  it('aborts a body that runs past the locked size (streamed, not buffered) and one announced too large', async () => {
    const endless = 'test-vectors/mcp-response-extraction.json';
    const announced = `schemas/${V3_1}/core/product.json`;
    let endlessClosed = false;
    const hook: Hook = (rel, _hit, res) => {
      if (rel === endless) {
        // No Content-Length, never ends: only a streaming byte count can stop this.
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = (): void => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        res.on('close', () => (endlessClosed = true));
        pump();
        return true;
      }
      if (rel === announced) {
        res.writeHead(200, { 'content-length': 50 * 1024 * 1024 });
        res.write('{');
        return true; // then hang: the client must not wait for 50 MiB
      }
      return false;
    };
    await withServer(hook, async (server) => {
      const { lockFile } = await subsetLock([endless, `schemas/${V3_0}/manifest.json`, `schemas/${V3_1}/manifest.json`]);
      const error = await syncError({ source: server.url, out: tempDir('endless'), lock: lockFile, timeoutMs: 10_000 });
      expect(error.code).toBe('TOO_LARGE');
      expect(error.file).toBe(endless);
      expect(error.message).toMatch(/is larger than the \d+ bytes .*adcp\.lock\.json expects \(received \d+ bytes so far\)/);
      expect(server.hits.get(endless)).toBe(1);
      await expect.poll(() => endlessClosed).toBe(true);

      const { lockFile: lock2 } = await subsetLock([announced, `schemas/${V3_0}/manifest.json`]);
      const error2 = await syncError({ source: server.url, out: tempDir('announced'), lock: lock2, timeoutMs: 10_000 });
      expect(error2.code).toBe('TOO_LARGE');
      expect(error2.message).toContain('Content-Length 52428800');
      expect(error2.file).toBe(announced);

      // The per-file cap applies before any request.
      const before = server.totalHits();
      const { lockFile: lock3 } = await subsetLock([`schemas/${V3_0}/manifest.json`, `schemas/${V3_1}/manifest.json`]);
      const error3 = await syncError({ source: server.url, out: tempDir('cap'), lock: lock3, maxFileBytes: 1000 });
      expect(error3.code).toBe('TOO_LARGE');
      expect(error3.message).toMatch(/over the 1000-byte per-file cap/);
      expect(server.totalHits()).toBe(before);
    });
  });

  it('times out a hanging server, retrying once, and a body that stalls half-way', async () => {
    const silent = `schemas/${V3_1}/manifest.json`;
    const stalls = `schemas/${V3_0}/manifest.json`;
    const hook: Hook = (rel, _hit, res) => {
      if (rel === silent) return true; // never answers
      if (rel === stalls) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"adcp_version": ');
        return true; // never finishes
      }
      return false;
    };
    await withServer(hook, async (server) => {
      const { lockFile } = await subsetLock([silent, `schemas/${V3_0}/index.json`, 'LICENSE']);
      const retries: RetryEvent[] = [];
      const error = await syncError({
        source: server.url,
        out: tempDir('hang'),
        lock: lockFile,
        timeoutMs: 150,
        retries: 1,
        retryDelayMs: 10,
        onRetry: (event) => retries.push(event),
      });
      expect(error.code).toBe('TIMEOUT');
      expect(error.file).toBe(silent);
      expect(error.message).toMatch(/^schemas\/3\.1\.\d+\/manifest\.json: no complete response from .* within 150 ms \(after 2 attempts\)/);
      expect(server.hits.get(silent)).toBe(2);
      expect(retries.map((r) => [r.rel, r.attempt, r.delayMs, r.error.code])).toEqual([[silent, 1, 10, 'TIMEOUT']]);

      const { lockFile: lock2 } = await subsetLock([stalls, `schemas/${V3_1}/core/product.json`]);
      const error2 = await syncError({ source: server.url, out: tempDir('stall'), lock: lock2, timeoutMs: 150, retries: 0 });
      expect(error2.code).toBe('TIMEOUT');
      expect(error2.file).toBe(stalls);
      expect(server.hits.get(stalls)).toBe(1);
    });
  });

  it('retries 500s with backoff and succeeds; gives up after the retries; does not retry 404', async () => {
    const flaky = `schemas/${V3_1}/core/product.json`;
    const broken = 'test-vectors/media-buy/status-as-of.json';
    const hook: Hook = (rel, hit, res) => {
      if ((rel === flaky && hit <= 2) || rel === broken) {
        res.writeHead(500).end('oops');
        return true;
      }
      return false;
    };
    await withServer(hook, async (server) => {
      const { lockFile, lock: small } = await subsetLock(SUBSET.filter((r) => r !== broken));
      const out = tempDir('flaky');
      const retries: RetryEvent[] = [];
      const onRetry = (event: RetryEvent): void => void retries.push(event);
      const result = await syncSchemas({ ...quiet, source: server.url, out, lock: lockFile, retries: 3, retryDelayMs: 20, onRetry });
      // Two failures, two waits, the second twice the first: exponential backoff.
      expect(retries.map((r) => [r.rel, r.attempt, r.delayMs, r.error.code])).toEqual([
        [flaky, 1, 20, 'HTTP'],
        [flaky, 2, 40, 'HTTP'],
      ]);
      expect(result.fetched.length).toBe(small.files.size);
      expect(server.hits.get(flaky)).toBe(3);
      expect(verifyAgainstLock(out, small)).toEqual([]);

      const { lockFile: lock2 } = await subsetLock([broken, `schemas/${V3_0}/manifest.json`, `schemas/${V3_1}/manifest.json`]);
      retries.length = 0;
      const error = await syncError({ source: server.url, out: tempDir('broken'), lock: lock2, retries: 2, retryDelayMs: 5, onRetry });
      expect(error.code).toBe('HTTP');
      expect(error.message).toMatch(/^test-vectors\/media-buy\/status-as-of\.json: HTTP 500 from .* \(after 3 attempts\)/);
      expect(server.hits.get(broken)).toBe(3);
      expect(retries.map((r) => r.delayMs)).toEqual([5, 10]);
    });
  });

  it('refuses a file the server does not have (404), naming it, without retrying', async () => {
    const gone = 'test-vectors/a2a-response-extraction.json';
    const hook: Hook = (rel, _hit, res) => {
      if (rel !== gone) return false;
      res.writeHead(404).end();
      return true;
    };
    await withServer(hook, async (server) => {
      const { lockFile } = await subsetLock([gone, `schemas/${V3_0}/manifest.json`, `schemas/${V3_1}/manifest.json`]);
      const out = tempDir('404');
      const error = await syncError({ source: server.url, out, lock: lockFile, retries: 3, retryDelayMs: 1 });
      expect(error.code).toBe('MISSING');
      expect(error.file).toBe(gone);
      expect(error.message).toContain(`${gone} is listed in ${lockFile} but missing from the source ${server.url} (HTTP 404`);
      expect(server.hits.get(gone)).toBe(1);
      expect(existsSync(path.join(out, gone))).toBe(false);
    });
  });
});

describe('sources, --update and lock validation', () => {
  it('accepts directories, https and local http; refuses plain http to other hosts', async () => {
    expect(resolveSource('../shared/adcp', repoRoot)).toMatchObject({ kind: 'dir', dir: SHARED });
    expect(resolveSource('https://adcontextprotocol.org')).toMatchObject({ kind: 'url', display: 'https://adcontextprotocol.org' });
    expect(resolveSource('http://localhost:8080/mirror')).toMatchObject({ kind: 'url' });
    expect(resolveSource('http://127.0.0.1:1')).toMatchObject({ kind: 'url' });
    expect(() => resolveSource('http://adcontextprotocol.org')).toThrow(
      /refusing plain http source http:\/\/adcontextprotocol\.org: use https/,
    );
    expect(() => resolveSource('ftp://example.com')).toThrow(/unsupported/);
    const error = await syncError({ source: 'http://example.com', out: tempDir('plain-http') });
    expect(error.code).toBe('BAD_SOURCE');
  });

  it('--update is directory-only and says why', async () => {
    const { lockFile } = await subsetLock();
    const error = await syncError({ source: 'https://adcontextprotocol.org', out: tempDir('upd-url'), lock: lockFile, update: true });
    expect(error.code).toBe('USAGE');
    expect(error.message).toMatch(/--update needs a directory source.*no file listing.*test-vectors/);
  });

  it('--update writes a deterministic lock from a directory, then syncs', async () => {
    const source = tempDir('upd-src');
    for (const rel of SUBSET) cpSync(path.join(SHARED, rel), path.join(source, rel));
    writeFileSync(path.join(source, `schemas/${V3_1}/.DS_Store`), 'junk');
    mkdirSync(path.join(source, 'docs'));
    writeFileSync(path.join(source, 'docs/ignored.md'), '# not locked');
    const lockFile = path.join(tempDir('upd-lock'), 'adcp.lock.json');
    const out = tempDir('upd-out');

    // No lock yet: versions must be given.
    expect((await syncError({ source, out, lock: lockFile, update: true })).code).toBe('BAD_LOCK');

    const first = await syncSchemas({ ...quiet, source, out, lock: lockFile, update: true, versions: [V3_1, V3_0] });
    expect(first.lockChanged).toBe(true);
    const text = readFileSync(lockFile, 'utf8');
    const written = readLock(lockFile);
    expect([...written.files.keys()]).toEqual([...SUBSET].sort());
    for (const rel of SUBSET) expect(written.files.get(rel)).toEqual(lock.files.get(rel));
    expect(verifyAgainstLock(out, written)).toEqual([]);

    const second = await syncSchemas({ ...quiet, source, out, lock: lockFile, update: true });
    expect(second).toMatchObject({ lockChanged: false, fetched: [], pruned: [] });
    expect(readFileSync(lockFile, 'utf8')).toBe(text);

    // An upstream change: a new test vector, a changed schema.
    mkdirSync(path.join(source, 'test-vectors/signals'));
    writeFileSync(path.join(source, 'test-vectors/signals/new.json'), '{"new":true}\n');
    writeFileSync(path.join(source, `schemas/${V3_1}/core/product.json`), '{"changed":true}\n');
    // A plain sync refuses the change ...
    expect((await syncError({ source, out: tempDir('upd-out2'), lock: lockFile })).code).toBe('MISMATCH');
    // ... --update takes it.
    const third = await syncSchemas({ ...quiet, source, out, lock: lockFile, update: true });
    expect(third.lockChanged).toBe(true);
    expect(third.fetched).toEqual([`schemas/${V3_1}/core/product.json`, 'test-vectors/signals/new.json']);
    expect(readLock(lockFile).files.get('test-vectors/signals/new.json')?.bytes).toBe(13);

    // Names that cannot be locked are refused, not skipped.
    writeFileSync(path.join(source, 'test-vectors/bad name.json'), '{}');
    const error = await syncError({ source, out, lock: lockFile, update: true });
    expect(error.message).toMatch(/cannot lock test-vectors\/bad name\.json/);
  });

  it('rejects malformed locks (path traversal, bad hashes, oversize entries, version mix-ups)', () => {
    const entry = { bytes: 2, sha256: 'a'.repeat(64) };
    const base = { lockfileVersion: 1, defaultVersion: V3_1, versions: [V3_1], files: { [`schemas/${V3_1}/x.json`]: entry } };
    expect(parseLock(base, 'L').files.size).toBe(1);
    const bad =
      (patch: object): (() => void) =>
      () =>
        parseLock({ ...base, ...patch }, 'L');
    expect(bad({ files: { ...base.files, [`schemas/${V3_1}/../../../etc/passwd`]: entry } })).toThrow(/L is not a valid lock: file path/);
    expect(bad({ files: { ...base.files, '/etc/passwd': entry } })).toThrow(/file path/);
    expect(bad({ files: { ...base.files, 'docs/x.md': entry } })).toThrow(/must be LICENSE, under test-vectors/);
    expect(bad({ files: { ...base.files, [`schemas/${V3_0}/x.json`]: entry } })).toThrow(/must be LICENSE/);
    expect(bad({ files: { ...base.files, [`schemas/${V3_1}/X.json`]: entry } })).toThrow(/differ only in case/);
    expect(bad({ files: { [`schemas/${V3_1}/x.json`]: { bytes: 2, sha256: 'A'.repeat(64) } } })).toThrow(/64 lowercase hex/);
    expect(bad({ files: { [`schemas/${V3_1}/x.json`]: { bytes: 9 * 1024 * 1024, sha256: 'a'.repeat(64) } } })).toThrow(/per-file cap/);
    expect(bad({ defaultVersion: V3_0 })).toThrow(/defaultVersion/);
    expect(bad({ versions: [V3_1, V3_0] })).toThrow(/no files for version 3\.0\.\d+/);
    expect(bad({ lockfileVersion: 2 })).toThrow(/lockfileVersion/);
  });
});

describe('the CLI', () => {
  it('prints one line "sync-schemas: <message>" and exits 1 on a mismatch', async () => {
    const { lockFile } = await subsetLock();
    const source = tempDir('cli-src');
    for (const rel of SUBSET) cpSync(path.join(SHARED, rel), path.join(source, rel));
    writeFileSync(path.join(source, 'LICENSE'), 'not the license');
    const out = tempDir('cli-out');
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(repoRoot, 'scripts/sync-schemas/main.ts'), '--out', out, '--lock', lockFile],
      { cwd: repoRoot, env: { ...process.env, ADCP_SCHEMAS_SOURCE: source }, encoding: 'utf8', timeout: 20_000 },
    );
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^sync-schemas: LICENSE from .* does not match .*adcp\.lock\.json: expected sha256/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(path.join(out, 'LICENSE'))).toBe(false);
  });
});
