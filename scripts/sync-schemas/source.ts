/**
 * Where sync-schemas reads the AdCP files from (`ADCP_SCHEMAS_SOURCE` or `--source`), laid out like
 * https://adcontextprotocol.org/: `schemas/<version>/**`, `test-vectors/**`, `LICENSE`. It is either
 *   - a directory (relative paths resolve against the current directory), e.g. `../shared/adcp`;
 *   - an `https://` base URL, default `https://adcontextprotocol.org`; plain `http://` is accepted
 *     only for 127.0.0.1 / localhost / [::1] (local test servers) and refused for any other host.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OFFLINE_HINT, SyncSchemasError } from './errors.js';

/** The source when neither ADCP_SCHEMAS_SOURCE nor `--source` names one. */
export const DEFAULT_SOURCE = 'https://adcontextprotocol.org';

/** A resolved source: a directory, or a base URL ending in `/`; `display` is how messages name it. */
export type Source =
  | { readonly kind: 'dir'; readonly dir: string; readonly display: string }
  | { readonly kind: 'url'; readonly base: URL; readonly display: string };

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Parses ADCP_SCHEMAS_SOURCE: a directory (relative to `cwd`) or an https (or local http) base URL.
 *
 * @param spec - The directory, `file:` URL or base URL.
 * @param cwd - What a relative directory resolves against.
 * @returns The source.
 * @throws {SyncSchemasError} `BAD_SOURCE` for plain http to a remote host, another scheme, or a URL
 *   with credentials, query or fragment.
 * @example
 * resolveSource('../shared/adcp').kind; // 'dir'
 */
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

/**
 * Checks that a directory source exists, before anything is read from it.
 *
 * @param source - The directory source.
 * @returns When it is a directory.
 * @throws {SyncSchemasError} `BAD_SOURCE` when it is not.
 * @example
 * if (source.kind === 'dir') await assertDirectory(source);
 */
export async function assertDirectory(source: Source & { kind: 'dir' }): Promise<void> {
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
