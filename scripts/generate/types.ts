/**
 * The TypeScript types: one module per schema file reachable from a task response, written by
 * json-schema-to-typescript; cross-file `$ref`s become imports, so every shared schema
 * (core/product.json, ...) is declared exactly once per version.
 */
import path from 'node:path';
import { compile as compileTypes } from 'json-schema-to-typescript';
import { isObject, type Json, type JsonObject, type SchemaFile } from './load.js';
import { banner, relImport, typeModulePath } from './output.js';

function pascal(text: string): string {
  const words = text
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const name = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  return /^[0-9]/.test(name) ? `T${name}` : name;
}

/**
 * One exported name per schema file: its `title` in PascalCase, or the file name; when two
 * files would share a name, both are qualified by their folder (`CreativeFormat`, ...).
 *
 * @param files The schema files of a version.
 * @returns `$id` → type name.
 * @throws Error when two files still map to one name.
 * @example
 * typeNames(files).get('/schemas/3.1.19/core/product.json'); // 'Product'
 */
export function typeNames(files: readonly SchemaFile[]): Map<string, string> {
  const base = new Map<string, string>();
  for (const f of files) {
    const title = typeof f.schema.title === 'string' ? f.schema.title : path.basename(f.rel, '.json');
    base.set(f.id, pascal(title));
  }
  const counts = new Map<string, number>();
  for (const name of base.values()) counts.set(name, (counts.get(name) ?? 0) + 1);
  const names = new Map<string, string>();
  for (const f of files) {
    let name = base.get(f.id)!;
    if (counts.get(name)! > 1) name = pascal(`${path.dirname(f.rel)} ${name}`);
    names.set(f.id, name);
  }
  const all = [...names.values()];
  const dup = all.find((n, i) => all.indexOf(n) !== i);
  if (dup !== undefined) throw new Error(`two schema files map to the type name ${dup}`);
  return names;
}

/** The import alias of another file's type inside a module; `$` keeps it clear of local names. */
function alias(name: string): string {
  return `$${name}`;
}

/**
 * Prepares one schema file for json-schema-to-typescript: every cross-file `$ref` becomes a
 * `tsType` naming the imported type (keeping its sibling `description` for the JSDoc), and
 * in-file `$ref`s lose their siblings, which draft-07 ignores anyway and which would otherwise
 * make json-schema-to-typescript declare the same type twice (`Foo`, `Foo1`).
 */
function linkRefs(node: Json, names: Map<string, string>, used: Set<string>): Json {
  if (Array.isArray(node)) return node.map((item) => linkRefs(item, names, used));
  if (!isObject(node)) return node;
  const ref = node.$ref;
  if (typeof ref === 'string') {
    if (ref.startsWith('#')) return { $ref: ref };
    const name = names.get(ref);
    if (name === undefined) throw new Error(`unresolved $ref ${ref}`);
    used.add(ref);
    const linked: JsonObject = { tsType: alias(name) };
    if (typeof node.description === 'string') linked.description = node.description;
    return linked;
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === 'examples' || key === 'default' || key === 'const' || key === 'enum' ? value : linkRefs(value, names, used);
  }
  return out;
}

/**
 * Keys a schema requires that the types make optional, because decode() returns payloads without
 * them: a response without `status` is judged as `completed` (the MCP guide's receiver rule) and
 * returned as sent, so a decoded final response is assignable to its task's `<Task>Response`.
 */
const OPTIONAL_IN_TYPES: Readonly<Record<string, readonly string[]>> = {
  'core/protocol-envelope.json': ['status'],
};

/** Keywords whose values are instances or conditions, not object shapes `absentKeys` may add to. */
const NOT_SHAPES = new Set(['examples', 'default', 'const', 'enum', 'not', 'if', 'then', 'else']);

/**
 * The keys an object schema's `not` forbids one by one: `not: { required: [k] }` and
 * `not: { anyOf: [{ required: [k] }, ...] }` (each alternative exactly one required key; an
 * alternative that also constrains a value, or requires two keys together, forbids no single key).
 *
 * @param not The value of an object schema's `not`.
 * @returns The keys it forbids one by one.
 * @example
 * forbiddenKeys({ anyOf: [{ required: ['errors'] }, { required: ['error'] }] }); // ['errors', 'error']
 */
export function forbiddenKeys(not: Json | undefined): string[] {
  if (!isObject(not)) return [];
  const single = (node: Json | undefined): string | undefined =>
    isObject(node) &&
    Object.keys(node).length === 1 &&
    Array.isArray(node.required) &&
    node.required.length === 1 &&
    typeof node.required[0] === 'string'
      ? node.required[0]
      : undefined;
  const one = single(not);
  if (one !== undefined) return [one];
  if (Object.keys(not).length !== 1 || !Array.isArray(not.anyOf)) return [];
  return not.anyOf.map(single).filter((k): k is string => k !== undefined);
}

/**
 * Declares each key an object schema's `not` forbids as `k?: never` (a `tsType` property), so the
 * arms of a `oneOf` discriminate: `r.errors !== undefined` narrows a success arm away once it
 * says `errors?: never`. A key the arm also requires is left alone (the arm cannot match at all).
 * Types only: the validators read the schemas as synced.
 *
 * @param node A schema, walked in full.
 * @returns A copy whose object schemas declare their forbidden keys.
 * @example
 * absentKeys({ type: 'object', not: { required: ['errors'] } }); // properties.errors: { tsType: 'never', ... }
 */
export function absentKeys(node: Json): Json {
  if (Array.isArray(node)) return node.map(absentKeys);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) out[key] = NOT_SHAPES.has(key) ? value : absentKeys(value);
  const required = Array.isArray(node.required) ? node.required : [];
  const forbidden = forbiddenKeys(node.not).filter((k) => !required.includes(k));
  if (forbidden.length > 0) {
    const properties: JsonObject = isObject(out.properties) ? { ...out.properties } : {};
    for (const k of forbidden)
      properties[k] = { tsType: 'never', description: `Never present in this arm (the schema's \`not: { required: ["${k}"] }\`).` };
    out.properties = properties;
  }
  return out;
}

/**
 * The type modules of a version: per schema file, its type (named by {@link typeNames}) with
 * imports of the types of the files it references.
 *
 * @param version The AdCP version, for the banner.
 * @param files The schema files reachable from the tasks.
 * @param names `$id` → type name.
 * @param byId `$id` → schema file.
 * @returns Module path (`types/core/product.ts`) → text.
 * @throws Error from json-schema-to-typescript, or for a `$ref` no file declares.
 * @example
 * await generateTypes('3.1.19', files, typeNames(files), byId);
 */
export async function generateTypes(
  version: string,
  files: readonly SchemaFile[],
  names: Map<string, string>,
  byId: Map<string, SchemaFile>,
): Promise<Map<string, string>> {
  const modules = new Map<string, string>();
  for (const file of files) {
    const used = new Set<string>();
    const linked = absentKeys(linkRefs(file.schema, names, used)) as JsonObject;
    const optional = OPTIONAL_IN_TYPES[file.rel];
    if (optional !== undefined && Array.isArray(linked.required))
      linked.required = linked.required.filter((k) => !optional.includes(k as string));
    const name = names.get(file.id)!;
    linked.title = name;
    delete linked.$id;
    delete linked.$schema;
    const body = await compileTypes(linked as never, name, {
      bannerComment: '',
      format: false,
      ignoreMinAndMaxItems: false,
      maxItems: -1,
      unknownAny: true,
      strictIndexSignatures: false,
      additionalProperties: true,
      declareExternallyReferenced: true,
      enableConstEnums: false,
      unreachableDefinitions: false,
      $refOptions: { resolve: { file: false, http: false } } as never,
    });
    const imports = [...used].sort().map((id) => {
      const target = byId.get(id)!;
      const n = names.get(id)!;
      return `import type { ${n} as ${alias(n)} } from '${relImport(file.rel, target.rel)}';`;
    });
    const text = `${banner(version)}${imports.join('\n')}${imports.length > 0 ? '\n\n' : ''}${body.trim()}\n`;
    modules.set(typeModulePath(file.rel), text);
  }
  return modules;
}
