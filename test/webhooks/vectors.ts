/**
 * Where the tests read the AdCP webhook vectors: the reference folder the build syncs from
 * (ADCP_SCHEMAS_SOURCE, as in CI), else ../shared/adcp beside the checkout. They are read, never copied.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.env.ADCP_SCHEMAS_SOURCE ?? resolve(fileURLToPath(new URL('../../..', import.meta.url)), 'shared/adcp');

/** Reads one JSON file under the reference `test-vectors/` folder. */
export function readVector<T>(path: string): T {
  return JSON.parse(readFileSync(join(root, 'test-vectors', path), 'utf8')) as T;
}

/** The JSON files of one vector folder, sorted, with their names. */
export function readVectorDir<T>(dir: string): Array<{ file: string; vector: T }> {
  return readdirSync(join(root, 'test-vectors', dir))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, vector: readVector<T>(`${dir}/${file}`) }));
}

/** Reads one synced schema of a bundled version. */
export function readSchema<T>(version: string, path: string): T {
  return JSON.parse(readFileSync(join(root, 'schemas', version, path), 'utf8')) as T;
}
