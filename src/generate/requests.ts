/**
 * The request table of a release (its `requests`): per task, its request schema `$id`, the version
 * fields its schema defines, whether it requires `idempotency_key`. encode() reads it to stamp a
 * request with what its release defines, and to say why a request without a key is refused.
 */
import type { RequestRow } from '../schema/release.js';
import { isObject, type Json, type JsonObject, type Manifest, type SchemaFile } from './load.js';

/** The version fields encode() may stamp, in the order it writes them. */
const STAMP_FIELDS = ['adcp_version', 'adcp_major_version'] as const;

/** A schema and the schemas its `allOf` composes (following `$ref`s): where its own members are declared. */
function composed(schema: JsonObject, schemas: ReadonlyMap<string, SchemaFile>, seen = new Set<JsonObject>()): JsonObject[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const out = [schema];
  const parts: Json[] = Array.isArray(schema.allOf) ? schema.allOf : [];
  for (const part of parts) {
    if (!isObject(part)) continue;
    const target = typeof part.$ref === 'string' ? schemas.get(part.$ref)?.schema : part;
    if (typeof part.$ref === 'string' && target === undefined) throw new Error(`$ref to ${part.$ref}, which no schema file declares`);
    if (target !== undefined) out.push(...composed(target, schemas, seen));
  }
  return out;
}

/**
 * What encode() needs to know of one request schema beyond its validator: which version fields it
 * declares (in `properties`, its own or through `allOf`), and whether it declares or requires
 * `idempotency_key`.
 *
 * @param schema The request schema.
 * @param schemas Every schema file of the version, for `allOf` `$ref`s.
 * @returns The stamp fields and the key's status.
 * @throws Error for an `allOf` `$ref` no schema file declares.
 * @example
 * requestFacts(createMediaBuyRequest, schemas); // { stamps: ['adcp_version', 'adcp_major_version'], idempotencyKey: 'required' }
 */
export function requestFacts(
  schema: JsonObject,
  schemas: ReadonlyMap<string, SchemaFile>,
): { stamps: string[]; idempotencyKey: 'required' | 'optional' | undefined } {
  const parts = composed(schema, schemas);
  const declares = (key: string): boolean => parts.some((p) => isObject(p.properties) && Object.hasOwn(p.properties, key));
  const requires = (key: string): boolean => parts.some((p) => Array.isArray(p.required) && p.required.includes(key));
  const stamps = STAMP_FIELDS.filter(declares);
  const idempotencyKey = requires('idempotency_key') ? 'required' : declares('idempotency_key') ? 'optional' : undefined;
  return { stamps, idempotencyKey };
}

/**
 * A release's request table: per task, its request schema `$id`, the version fields that schema
 * defines (what encode() stamps) and `idempotencyKey`: `required` where the schema requires one,
 * `optional` where it only defines one.
 *
 * @param manifest The release's tasks.
 * @param schemas Every schema file of the release.
 * @returns Task → row, in the manifest's order.
 * @throws Error for a request schema no file declares.
 * @example
 * requestTable(manifest, schemas).create_media_buy; // { schemaId: '…', stamps: ['adcp_version', …], idempotencyKey: 'required' }
 */
export function requestTable(manifest: Manifest, schemas: ReadonlyMap<string, SchemaFile>): Record<string, RequestRow> {
  const out: Record<string, RequestRow> = {};
  for (const t of manifest.tasks) {
    const file = schemas.get(t.request);
    if (file === undefined) throw new Error(`AdCP ${manifest.version}: tools.${t.name}.request_schema ${t.request} is not a schema file`);
    const { stamps, idempotencyKey } = requestFacts(file.schema, schemas);
    out[t.name] = { schemaId: t.request, stamps, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) };
  }
  return out;
}
