/**
 * The TypeScript types: one module per schema file reachable from a task response, written by
 * json-schema-to-typescript; cross-file `$ref`s become imports, so every shared schema
 * (core/product.json, ...) is declared exactly once per version. type-module.ts joins them into
 * the one module a release ships.
 */
import path from 'node:path';
import { compile as compileTypes } from 'json-schema-to-typescript';
import { isObject, type Json, type JsonObject, type SchemaFile } from './load.js';
import { relImport, typeModulePath } from './output.js';
import { absentKeys, closedShapes, type Resolve } from './shapes.js';

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

/** The node a JSON pointer (`/properties/x`, without `#`) names inside a schema, or undefined. */
function atPointer(root: Json, pointer: string): Json | undefined {
  let node: Json | undefined = root;
  for (const token of pointer.split('/').slice(1)) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    node = Array.isArray(node) ? node[Number(key)] : isObject(node) ? node[key] : undefined;
  }
  return node;
}

/** A copy of a schema node whose in-file `$ref`s (`#/...`) name its file by `$id` (`<id>#/...`), to be placed in another file. */
function anchored(node: Json, id: string): Json {
  if (Array.isArray(node)) return node.map((n) => anchored(n, id));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node))
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#')
        ? `${id}${value}`
        : key === 'examples' || key === 'default' || key === 'const' || key === 'enum'
          ? value
          : anchored(value, id);
  return out;
}

/**
 * Prepares one schema file for json-schema-to-typescript: every `$ref` to another file becomes a
 * `tsType` naming the imported type (keeping its sibling `description` for the JSDoc); a `$ref`
 * into another file (`<id>#/properties/x`, 3.2) becomes a copy of the node it names, its own
 * `$ref`s linked the same way; in-file `$ref`s lose their siblings, which draft-07 ignores anyway
 * and which would otherwise make json-schema-to-typescript declare the same type twice (`Foo`, `Foo1`).
 */
function linkRefs(
  node: Json,
  names: Map<string, string>,
  used: Set<string>,
  byId: ReadonlyMap<string, SchemaFile>,
  inlining: readonly string[] = [],
): Json {
  if (Array.isArray(node)) return node.map((item) => linkRefs(item, names, used, byId, inlining));
  if (!isObject(node)) return node;
  const ref = node.$ref;
  if (typeof ref === 'string') {
    if (ref.startsWith('#')) return { $ref: ref };
    const hash = ref.indexOf('#');
    if (hash >= 0 && ref.length > hash + 1) {
      const target = byId.get(ref.slice(0, hash));
      const found = target === undefined ? undefined : atPointer(target.schema, ref.slice(hash + 1));
      if (found === undefined) throw new Error(`unresolved $ref ${ref}`);
      // A node that reaches itself through such refs is typed by what it names no further.
      if (inlining.includes(ref)) return { tsType: 'unknown' };
      const copy = linkRefs(anchored(found, target!.id), names, used, byId, [...inlining, ref]);
      return isObject(copy) && typeof node.description === 'string' ? { ...copy, description: node.description } : copy;
    }
    const file = hash >= 0 ? ref.slice(0, hash) : ref;
    const name = names.get(file);
    if (name === undefined) throw new Error(`unresolved $ref ${ref}`);
    used.add(file);
    const linked: JsonObject = { tsType: alias(name) };
    if (typeof node.description === 'string') linked.description = node.description;
    return linked;
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === 'examples' || key === 'default' || key === 'const' || key === 'enum' ? value : linkRefs(value, names, used, byId, inlining);
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

/**
 * What the `$ref`s of one schema file name: another file by `$id`, or a JSON Pointer into the file.
 *
 * @param file The schema file whose `$ref`s are read.
 * @param byId `$id` → schema file.
 * @returns The resolver ({@link Resolve}); `undefined` for a `$ref` that names nothing.
 * @example
 * resolverOf(file, byId)('#/definitions/color_value')?.node;
 */
function resolverOf(file: SchemaFile, byId: ReadonlyMap<string, SchemaFile>): Resolve {
  return (ref) => {
    const hash = ref.indexOf('#');
    const target = hash === 0 ? file : byId.get(hash < 0 ? ref : ref.slice(0, hash));
    if (target === undefined) return undefined;
    const node = hash < 0 ? target.schema : atPointer(target.schema, ref.slice(hash + 1));
    return isObject(node) ? { node, resolve: resolverOf(target, byId) } : undefined;
  };
}

/**
 * The type modules of a release: per schema file, its type (named by {@link typeNames}) with
 * imports of the types of the files it references; type-module.ts joins them.
 *
 * @param files The schema files reachable from the tasks.
 * @param names `$id` → type name.
 * @param byId `$id` → schema file.
 * @returns Module path (`types/core/product.ts`) → text.
 * @throws Error from json-schema-to-typescript, or for a `$ref` no file declares.
 * @example
 * await generateTypes(files, typeNames(files), byId);
 */
export async function generateTypes(
  files: readonly SchemaFile[],
  names: Map<string, string>,
  byId: ReadonlyMap<string, SchemaFile>,
): Promise<Map<string, string>> {
  const modules = new Map<string, string>();
  for (const file of files) {
    const used = new Set<string>();
    const linked = absentKeys(linkRefs(closedShapes(file.schema, resolverOf(file, byId)), names, used, byId)) as JsonObject;
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
    const text = `${imports.join('\n')}${imports.length > 0 ? '\n\n' : ''}${body.trim()}\n`;
    modules.set(typeModulePath(file.rel), text);
  }
  return modules;
}
