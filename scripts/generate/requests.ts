/**
 * The request tables: per version `requests.ts` (per task: its request schema `$id`, the version
 * fields its schema defines, whether it requires `idempotency_key`; and what the manifest says of
 * each tool, its `mutating`, for the release's tool facts), and over all versions
 * `requests.ts` (those tables and the `Requests` type maps by version). encode() reads them to
 * stamp a request with what its release defines, and to say why a request without a key is refused.
 */
import { isObject, type Json, type JsonObject, type Manifest, type SchemaFile } from './load.js';
import { banner, versionIdent } from './output.js';

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
 * The `requests.ts` module of a version: per task, its request schema `$id`, the version fields
 * its schema defines (what encode() stamps) and whether it requires `idempotency_key`.
 *
 * @param version The AdCP version.
 * @param manifest Its tasks.
 * @param schemas Every schema file of the version.
 * @returns The module's text.
 * @throws Error for a request schema no file declares.
 * @example
 * requestTableModule('3.1.19', manifest, schemas);
 */
export function requestTableModule(version: string, manifest: Manifest, schemas: ReadonlyMap<string, SchemaFile>): string {
  const q = JSON.stringify;
  const rows = manifest.tasks.map((t) => {
    const file = schemas.get(t.request);
    if (file === undefined) throw new Error(`${version}: tools.${t.name}.request_schema ${t.request} is not a schema file`);
    const { stamps, idempotencyKey } = requestFacts(file.schema, schemas);
    const key = idempotencyKey === undefined ? '' : `, idempotencyKey: ${q(idempotencyKey)}`;
    return `  ${t.name}: { schemaId: ${q(t.request)}, stamps: [${stamps.map((s) => q(s)).join(', ')}]${key} },`;
  });
  return `${banner(version)}
/**
 * Per AdCP ${version} task: its request schema \`$id\`, the version fields that schema defines (the
 * ones encode() stamps), and \`idempotencyKey\`: \`required\` where the schema requires one,
 * \`optional\` where it only defines one.
 */
export const requestTables = {
${rows.join('\n')}
} as const;

/** Per AdCP ${version} tool: what its manifest says of it (\`mutating\`). */
export const toolFacts = {
${manifest.tasks.map((t) => `  ${t.name}: {${t.mutating === undefined ? '' : ` mutating: ${t.mutating} `}},`).join('\n')}
} as const;
`;
}

/**
 * The root `requests.ts`: each pinned version's request table, tool facts and `Requests` type map.
 *
 * @param versions The pinned versions, default first.
 * @returns The module's text.
 * @example
 * rootRequests(['3.1.19', '3.0.26']);
 */
export function rootRequests(versions: readonly string[]): string {
  const tables = versions.map(
    (v) => `import { requestTables as ${versionIdent(v)}, toolFacts as ${versionIdent(v)}Tools } from './${versionIdent(v)}/requests.js';`,
  );
  const types = versions.map((v) => `import type { Requests as ${versionIdent(v)}Requests } from './${versionIdent(v)}/responses.js';`);
  return `${banner(undefined)}${tables.join('\n')}
${types.join('\n')}

/** The request table of each pinned version. */
export const requestTablesByVersion = {
${versions.map((v) => `  ${JSON.stringify(v)}: ${versionIdent(v)},`).join('\n')}
} as const;

/** The tool facts of each pinned version (the manifest's \`mutating\`). */
export const toolFactsByVersion = {
${versions.map((v) => `  ${JSON.stringify(v)}: ${versionIdent(v)}Tools,`).join('\n')}
} as const;

/** The version encode() speaks when none is pinned: the default version. */
export type DefaultRequestVersion = ${JSON.stringify(versions[0])};

/** Task → request type, per version. */
export interface RequestsByVersion {
${versions.map((v) => `  ${JSON.stringify(v)}: ${versionIdent(v)}Requests;`).join('\n')}
}
`;
}
