/**
 * Where the tests read the AdCP webhook vectors and schemas: schemas/synced, which the build fills
 * from the pinned lock (schemas/adcp.lock.json), as the other vector tests do. Never copied.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../schemas/synced', import.meta.url));

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
