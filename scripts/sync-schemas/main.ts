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
 * The jobs, one per file: source.ts (what ADCP_SCHEMAS_SOURCE may be), lock.ts (the lock's format,
 * reading, writing, --update), download.ts (the HTTP client, retries and backoff), sync.ts (the
 * copy, checked against the lock), destination.ts (the marker and pruning), errors.ts.
 * Errors are thrown as SyncSchemasError (one-line message, stable `code`, `file` when one file is
 * to blame); this CLI prints `sync-schemas: <message>` and exits 1.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SyncSchemasError } from './errors.js';
import { syncSchemas } from './sync.js';

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

/** Runs the CLI on `argv`; resolves to the exit status. */
async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
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
