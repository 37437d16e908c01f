/**
 * Codegen: AdCP JSON schemas (synced into schemas/synced/) → src/generated/.
 *
 * Per pinned version (schemas/adcp.lock.json), driven by that version's manifest.json:
 *   1. load   every draft-07 schema file, de-duplicated by `$id` (3.1.19 repeats some under
 *             core/async-response-refs/; a repeated `$id` with different content fails the build);
 *   2. types  one TypeScript module per schema file reachable from a task response, written by
 *             json-schema-to-typescript; cross-file `$ref`s become imports, so every shared schema
 *             (core/product.json, ...) is declared exactly once per version;
 *   3. validators  Ajv standalone code as ES modules: `<task>.js`, one module per task holding its
 *             response and async-response validators, stops at the first error (the fast
 *             verdict); `<task>.errors.js` lists every error (loaded only after a failure);
 *             `index.js`, the import map a bundler follows. All schemas of a version share one Ajv
 *             instance in default strict mode; AdCP's annotation keywords are registered by name,
 *             so an unknown keyword or format fails the build. Ajv's output is then rewritten where
 *             it is quadratic or unbounded (linearKeyPointers, linearErrors, linearUniqueItems, boundedListing;
 *             docs/robustness.md), and its require() calls become static imports (staticImports);
 *   4. tables `index.ts` (tasks, schema ids, error-code → recovery table and policy) and
 *             `responses.ts` (task → response type map, async variants discriminated by status).
 * Finally src/generated/index.ts lists the versions.
 *
 * Output is deterministic: inputs are sorted, no timestamps; a second run is byte-identical.
 *
 * Usage: npm run generate   (tsx scripts/generate.ts [--out DIR] [--force])
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import AjvModule, { type Options as AjvOptions } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';
import { compile as compileTypes } from 'json-schema-to-typescript';
import { listFiles, LOCK_PATH, readLockVersions, schemaDir } from './schema-paths.js';

const requireFromHere = createRequire(import.meta.url);

// Ajv and ajv-formats are CommonJS with `exports.default`.
const Ajv = AjvModule.default;
const standaloneCode = standaloneModule.default;
const addFormats = addFormatsModule.default;

const GENERATOR = 'scripts/generate.ts';
const REGENERATE = 'npm run generate';
const OUT_DEFAULT = fileURLToPath(new URL('../src/generated', import.meta.url));

/**
 * Keywords the AdCP schemas use that are not JSON Schema draft-07. All are annotations (they do
 * not constrain the instance). They are registered by name so that Ajv's strict mode stays on: a
 * keyword missing from this list, a typo among them included, fails the build.
 */
export const ANNOTATION_KEYWORDS: readonly string[] = [
  'discriminator',
  'enumDescriptions',
  'enumMetadata',
  'notes',
  'x-accessibility',
  'x-adcp-hoist',
  'x-adcp-open-payload',
  'x-adcp-validation',
  'x-canonical-policy-required-params-not-enforced',
  'x-deprecated-enum-values',
  'x-deprecated-enum-values-doc',
  'x-entity',
  'x-enum-descriptions',
  'x-extensible',
  'x-pattern',
  'x-status',
];

/** The async task states whose payloads have their own schemas, keyed as in `status`. */
const ASYNC_STATUSES = ['working', 'submitted', 'input-required'] as const;
type AsyncStatus = (typeof ASYNC_STATUSES)[number];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface SchemaFile {
  readonly id: string;
  /** Path relative to the version folder, with `/`, e.g. `core/product.json`. */
  readonly rel: string;
  readonly schema: JsonObject;
}

interface TaskEntry {
  readonly name: string;
  readonly response: string;
  readonly async: Partial<Record<AsyncStatus, string>>;
}

interface Manifest {
  readonly tasks: readonly TaskEntry[];
  readonly errorCodes: ReadonlyArray<readonly [string, string]>;
  readonly defaultUnknownRecovery: string;
}

export interface GenerateReport {
  readonly version: string;
  readonly tasks: number;
  readonly typeModules: number;
  readonly ms: number;
}

// ---------------------------------------------------------------------------------------------
// Loading

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every draft-07 schema file of a version by `$id`; a repeated `$id` must repeat the same schema. */
export function loadSchemas(version: string, root: string): Map<string, SchemaFile> {
  const byId = new Map<string, SchemaFile>();
  const texts = new Map<string, string>();
  for (const file of listFiles(root)) {
    if (!file.endsWith('.json')) continue;
    const rel = path.relative(root, file).split(path.sep).join('/');
    const text = readFileSync(file, 'utf8');
    const schema: unknown = JSON.parse(text);
    if (!isObject(schema) || typeof schema.$id !== 'string') continue; // manifest.json, index.json
    if (schema.$schema !== 'http://json-schema.org/draft-07/schema#') {
      throw new Error(`${version}/${rel}: expected a draft-07 schema, got $schema ${JSON.stringify(schema.$schema)}`);
    }
    const id = schema.$id;
    if (!id.startsWith(`/schemas/${version}/`)) {
      throw new Error(`${version}/${rel}: $id ${id} is outside /schemas/${version}/`);
    }
    const seen = texts.get(id);
    if (seen !== undefined) {
      // Same $id twice (core/async-response-refs/): keep the canonical path, but only if the
      // content is the same schema.
      if (JSON.stringify(JSON.parse(seen)) !== JSON.stringify(schema)) {
        throw new Error(`${version}: $id ${id} is declared twice with different content (${rel})`);
      }
      continue;
    }
    texts.set(id, text);
    byId.set(id, { id, rel: id.slice(`/schemas/${version}/`.length), schema });
  }
  return byId;
}

function readManifest(version: string, root: string): Manifest {
  const m: unknown = JSON.parse(readFileSync(path.join(root, 'manifest.json'), 'utf8'));
  if (!isObject(m) || !isObject(m.tools) || !isObject(m.error_codes) || !isObject(m.error_code_policy)) {
    throw new Error(`${version}/manifest.json: expected tools, error_codes and error_code_policy objects`);
  }
  const tasks: TaskEntry[] = [];
  for (const name of Object.keys(m.tools).sort()) {
    const tool: Json | undefined = m.tools[name];
    if (!isObject(tool) || typeof tool.response_schema !== 'string' || !Array.isArray(tool.async_response_schemas)) {
      throw new Error(`${version}/manifest.json: tools.${name} lacks response_schema or async_response_schemas`);
    }
    const async: Partial<Record<AsyncStatus, string>> = {};
    for (const rel of tool.async_response_schemas as Json[]) {
      const status = ASYNC_STATUSES.find((s) => typeof rel === 'string' && rel.endsWith(`-async-response-${s}.json`));
      if (status === undefined || typeof rel !== 'string') {
        throw new Error(`${version}/manifest.json: tools.${name}: cannot tell the status of async schema ${String(rel)}`);
      }
      async[status] = `/schemas/${version}/${rel}`;
    }
    tasks.push({ name, response: `/schemas/${version}/${tool.response_schema}`, async });
  }
  const errorCodes: Array<readonly [string, string]> = [];
  for (const code of Object.keys(m.error_codes).sort()) {
    const entry = m.error_codes[code];
    if (!isObject(entry) || typeof entry.recovery !== 'string') {
      throw new Error(`${version}/manifest.json: error_codes.${code} lacks recovery`);
    }
    errorCodes.push([code, entry.recovery]);
  }
  const policy = m.error_code_policy.default_unknown_recovery;
  if (typeof policy !== 'string') throw new Error(`${version}/manifest.json: error_code_policy.default_unknown_recovery missing`);
  return { tasks, errorCodes, defaultUnknownRecovery: policy };
}

function externalRefs(node: Json, out: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const item of node) externalRefs(item, out);
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) out.add(value);
      // `examples`, `default`, `const` and `enum` hold instances, not schemas.
      else if (key !== 'examples' && key !== 'default' && key !== 'const' && key !== 'enum') externalRefs(value, out);
    }
  }
  return out;
}

/** Every schema reachable from the tasks' response schemas, in sorted `$id` order. */
function reachable(schemas: Map<string, SchemaFile>, roots: readonly string[]): SchemaFile[] {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    const file = schemas.get(id);
    if (file === undefined) throw new Error(`$ref to ${id}, which no schema file declares`);
    seen.add(id);
    for (const ref of externalRefs(file.schema, new Set())) stack.push(ref);
  }
  return [...seen].sort().map((id) => schemas.get(id) as SchemaFile);
}

// ---------------------------------------------------------------------------------------------
// Types

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
 */
function typeNames(files: readonly SchemaFile[]): Map<string, string> {
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

function relImport(fromRel: string, toRel: string): string {
  const from = path.posix.dirname(fromRel);
  let rel = path.posix.relative(from, toRel.replace(/\.json$/, '.js'));
  if (!rel.startsWith('.')) rel = `./${rel}`;
  return rel;
}

/** Where the type module of a schema file goes, e.g. `types/core/product.ts`. */
function typeModulePath(rel: string): string {
  return `types/${rel.replace(/\.json$/, '.ts')}`;
}

async function generateTypes(
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

// ---------------------------------------------------------------------------------------------
// Validators

export function createAjv(allErrors: boolean, warnings: string[] = []): InstanceType<typeof Ajv> {
  const options: AjvOptions = {
    allErrors,
    // Default strict mode: unknown keywords and formats throw. strictTypes/strictTuples stay at
    // "log" (Ajv's default): the AdCP schemas omit `type` next to type-specific keywords in places,
    // which is valid draft-07; the count is reported so changes show up.
    strict: true,
    strictTypes: 'log',
    strictTuples: 'log',
    strictRequired: false,
    code: { source: true, esm: true, lines: false, optimize: true },
    logger: {
      log: () => undefined,
      warn: (...args: unknown[]) => void warnings.push(String(args[0])),
      error: (...args: unknown[]) => {
        throw new Error(String(args[0]));
      },
    },
  };
  const ajv = new Ajv(options);
  addFormats(ajv);
  for (const keyword of ANNOTATION_KEYWORDS) ajv.addKeyword({ keyword, schemaType: ['object', 'array', 'string', 'boolean', 'number'] });
  return ajv;
}

/** Annotation keywords that do not affect validation; stripped from the validator inputs. */
const STRIPPED_ANNOTATIONS = new Set(['title', 'description', 'examples', '$comment', 'default', 'deprecated', 'readOnly', 'writeOnly']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf']);
const SCHEMA_VALUES = new Set([
  'not',
  'if',
  'then',
  'else',
  'additionalProperties',
  'additionalItems',
  'contains',
  'propertyNames',
  'items',
]);

/**
 * A copy of a schema without its annotations (descriptions, examples, AdCP's `x-*` keywords,
 * ...), walking only schema positions so that a property *named* `description` survives. Ajv's
 * standalone code embeds the schema objects it validates against, so this roughly halves the
 * validator modules; validation is unchanged (annotations never constrain an instance).
 */
export function stripAnnotations(node: Json): Json {
  if (Array.isArray(node)) return node.map(stripAnnotations);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (STRIPPED_ANNOTATIONS.has(key) || (key !== 'discriminator' && ANNOTATION_KEYWORDS.includes(key))) continue;
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stripAnnotations(v)]));
    } else if (SCHEMA_LISTS.has(key) || SCHEMA_VALUES.has(key)) {
      out[key] = stripAnnotations(value);
    } else if (key === 'dependencies' && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, Array.isArray(v) ? v : stripAnnotations(v)]));
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** The export name of a validator inside a module: `response`, `working`, `input_required`. */
export function exportKey(variant: 'response' | AsyncStatus): string {
  return variant.replace('-', '_');
}

function variantRefs(task: TaskEntry, prefix: string): Record<string, string> {
  const refs: Record<string, string> = { [`${prefix}response`]: task.response };
  for (const status of ASYNC_STATUSES) {
    const id = task.async[status];
    if (id !== undefined) refs[`${prefix}${exportKey(status)}`] = id;
  }
  return refs;
}

/**
 * The validators, as ES modules a bundler can follow: per task, `<task>.js` stops at the first
 * error (the fast verdict) and `<task>.errors.js` lists every error (loaded only after a
 * failure, so a first failing decode loads one task's listing, not every task's); each holds the
 * task's response and async-response validators. `index.js` is the import map (task →
 * `() => import('./<task>.js')`), so a bundler includes the validators and can split them per task.
 */
function validatorModules(
  version: string,
  manifest: Manifest,
  schemas: Map<string, SchemaFile>,
): { modules: Map<string, string>; warnings: number } {
  const modules = new Map<string, string>();
  const warnings: string[] = [];
  const fast = createAjv(false, warnings);
  for (const file of schemas.values()) fast.addSchema(stripAnnotations(file.schema) as object, file.id);
  for (const task of manifest.tasks) {
    modules.set(
      `validators/${task.name}.js`,
      `${banner(version, '//')}${staticImports(linearUniqueItems(linearErrors(linearKeyPointers(standaloneCode(fast, variantRefs(task, ''))))))}\n`,
    );
  }
  const full = createAjv(true, warnings);
  for (const file of schemas.values()) full.addSchema(stripAnnotations(file.schema) as object, file.id);
  for (const task of manifest.tasks) {
    modules.set(
      `validators/${task.name}.errors.js`,
      `${banner(version, '//')}${staticImports(linearUniqueItems(boundedListing(linearErrors(linearKeyPointers(standaloneCode(full, variantRefs(task, '')))))))}\n`,
    );
  }
  modules.set('validators/index.js', importMap(version, manifest));
  modules.set(
    'validators/index.d.ts',
    `${banner(version)}import type { ValidatorImports } from '../../../validators.js';

/** Per task: imports of its fast and its error-listing validator modules. */
export declare const validators: ValidatorImports;
`,
  );
  return { modules, warnings: new Set(warnings).size };
}

/** The import map of a version's validators: every specifier a literal, so bundlers follow it. */
function importMap(version: string, manifest: Manifest): string {
  const entries = manifest.tasks.map(
    (t) => `  ${t.name}: { fast: () => import('./${t.name}.js'), listing: () => import('./${t.name}.errors.js') },`,
  );
  return `${banner(version)}
/** Per task: imports of its fast and its error-listing validator modules. */
export const validators = {
${entries.join('\n')}
};
`;
}

/**
 * What Ajv's ESM output still \`require()\`s (ajv#2209), as static imports: the identifier each
 * require expression becomes and the import (or, for a helper whose package is CommonJS with an
 * \`exports.default\`, which bundlers and Node interpret differently, a local copy) that declares it.
 */
const REQUIRE_REWRITES: ReadonlyArray<{ readonly expression: string; readonly name: string; readonly declaration: string }> = [
  { expression: 'require("ajv/dist/runtime/equal").default', name: 'deepEqual', declaration: 'import deepEqual from "fast-deep-equal";' },
  {
    expression: 'require("ajv-formats/dist/formats")',
    name: 'ajvFormats',
    declaration: 'import * as ajvFormats from "ajv-formats/dist/formats.js";',
  },
  {
    expression: 'require("ajv/dist/runtime/ucs2length").default',
    name: 'ucs2length',
    // Ajv's maxLength counts code points: a surrogate pair is one character.
    declaration:
      'function ucs2length(text) { let n = 0; for (let i = 0; i < text.length; i++, n++) { const c = text.charCodeAt(i); if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++; } return n; }',
  },
];

/** Turns the require() calls of Ajv's ESM output into static imports; any other require fails the build. */
export function staticImports(code: string): string {
  let out = code;
  const declarations: string[] = [];
  for (const { expression, name, declaration } of REQUIRE_REWRITES) {
    if (!out.includes(expression)) continue;
    out = out.replaceAll(expression, name);
    declarations.push(declaration);
  }
  if (/\brequire\s*\(/.test(out))
    throw new Error('generate: the validator code requires a module staticImports does not know; add it to REQUIRE_REWRITES');
  return declarations.length === 0 ? out : `${declarations.join('\n')}\n${out}`;
}

/**
 * Ajv's allErrors code merges a referenced schema's errors with
 * `vErrors = vErrors === null ? v.errors : vErrors.concat(v.errors)`, copying every error so far
 * on each call: quadratic in the number of errors (50,000 invalid items, a 2 MB payload, took 25 s).
 * Appending in place gives the same errors in the same order in linear time.
 */
export function linearErrors(code: string): string {
  const concat = /vErrors = vErrors === null \? (\w+)\.errors : vErrors\.concat\(\1\.errors\);/g;
  const out = code.replace(concat, 'if (vErrors === null) { vErrors = $1.errors; } else { for (const e of $1.errors) vErrors.push(e); }');
  if (out.includes('.concat(')) throw new Error('generate: Ajv merges errors in a way linearErrors does not know; update it');
  return out;
}

/** How Ajv escapes a map key into a JSON Pointer segment (`~` → `~0`, `/` → `~1`) in generated code. */
const KEY_ESCAPE = '.replace(/~/g, "~0").replace(/\\//g, "~1")';

/**
 * Ajv builds the JSON Pointer of every error under a map (`additionalProperties`,
 * `patternProperties`) by escaping the map key in place, `key0.replace(/~/g, "~0").replace(...)`,
 * once per error built, discarded ones (failing `oneOf` branches) and instance paths passed to
 * referenced validators included: a key of length L over N items under it costs L × N (a valid
 * 290 KB get_products took 9 s). This escapes each key at most once per visit of its member:
 * `let key0Ptr;` opens the body of `for(const key0 in data)` and every escape of `key0` becomes
 * `(key0Ptr ??= key0.replace(...))`; the pointers are the same strings, built once.
 * Ajv's code is scanned with its strings skipped and its blocks matched, so that every escape is
 * proven to sit inside the loop of its own key; anything the scan does not know fails the build.
 *
 * @param code Ajv standalone code, before the other post-passes.
 * @returns The same code with each map key escaped at most once per visit.
 * @throws Error when the code has a shape the scan does not know (the build fails).
 * @example
 * linearKeyPointers(standaloneCode(ajv, refs));
 */
export function linearKeyPointers(code: string): string {
  const loopBefore = /for\(const (key\d+) in [\w$.]+\)$/;
  const keyEscape = /(key\d+)\.replace\(\/~\/g, "~0"\)\.replace\(\/\\\/\/g, "~1"\)/y;
  const unknown = (at: number, what: string): Error =>
    new Error(`generate: linearKeyPointers met ${what} at ${at} (${JSON.stringify(code.slice(Math.max(0, at - 40), at + 40))}); update it`);
  if (/\w+Ptr\b/.test(code)) throw unknown(code.search(/\w+Ptr\b/), 'a name ending in Ptr');
  // Open blocks: the loop key a block is the body of, or '' for any other block.
  const blocks: { key: string; at: number; used: boolean }[] = [];
  const edits: { at: number; end: number; text: string }[] = [];
  let escapes = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === '"') {
      for (i++; code[i] !== '"'; i++) {
        if (i >= code.length) throw unknown(i, 'an unterminated string');
        if (code[i] === '\\') i++;
      }
    } else if (c === '{') {
      const loop = loopBefore.exec(code.slice(Math.max(0, i - 60), i));
      blocks.push({ key: loop?.[1] ?? '', at: i + 1, used: false });
    } else if (c === '}') {
      const block = blocks.pop();
      if (block === undefined) throw unknown(i, 'an unmatched }');
      if (block.used) edits.push({ at: block.at, end: block.at, text: `let ${block.key}Ptr;` });
    } else if (c === '/' && code[i + 1] === '*') {
      i = code.indexOf('*/', i + 2) + 1; // Ajv's /*# sourceURL=... */ comments
      if (i === 0) throw unknown(code.length, 'an unterminated comment');
    } else if (c === '/' && /const formats\d+ = $/.test(code.slice(Math.max(0, i - 30), i))) {
      // ajv-formats' regexes, inlined: skip the literal (a / inside [...] or after \ does not end it).
      for (let inClass = false, j = i + 1; ; j++) {
        if (j >= code.length || code[j] === '\n') throw unknown(i, 'an unterminated regex');
        if (code[j] === '\\') j++;
        else if (code[j] === '[') inClass = true;
        else if (code[j] === ']') inClass = false;
        else if (code[j] === '/' && !inClass) {
          i = j;
          break;
        }
      }
    } else if (c === '/' || c === "'" || c === '`') {
      throw unknown(i, `${c} outside a string (a regex, comment or quote the scan does not know)`);
    } else if (c === 'k' && code.startsWith('key', i) && !/[\w$.]/.test(code[i - 1] ?? '')) {
      keyEscape.lastIndex = i;
      const m = keyEscape.exec(code);
      if (m === null) continue;
      const key = m[1]!;
      const loop = blocks.findLast((b) => b.key === key);
      if (loop === undefined) throw unknown(i, `an keyEscape of ${key} outside a loop over ${key}`);
      loop.used = true;
      escapes++;
      edits.push({ at: i, end: i + m[0].length, text: `(${key}Ptr ??= ${m[0]})` });
      i += m[0].length - 1;
    }
  }
  if (blocks.length > 0) throw unknown(code.length, 'an unclosed {');
  const all = code.split(KEY_ESCAPE).length - 1;
  if (escapes !== all) throw new Error(`generate: ${all - escapes} map key escapes not recognised; update linearKeyPointers`);
  if (code.includes('.replace(') && code.split('.replace(').length - 1 !== 2 * all) {
    throw new Error('generate: Ajv calls replace() in a way linearKeyPointers does not know; update it');
  }
  // An insertion after a `{` goes before an edit that starts at the same place.
  edits.sort((a, b) => a.at - b.at || a.end - a.at - (b.end - b.at));
  let out = '';
  let from = 0;
  for (const edit of edits) {
    out += code.slice(from, edit.at) + edit.text;
    from = edit.end;
  }
  return out + code.slice(from);
}

/** The most errors one error-listing validator function holds before the listing stops. */
export const LISTING_LIMIT = 100_000;

/**
 * An error listing is linear in the payload but not small: a 3-byte `{}` where an object with
 * ten required properties belongs yields ten errors, so a 4 MiB payload can yield millions of
 * error objects (3,000,003 for 300,000 empty products: 3.8 s and 730 MB). After each error is
 * recorded or merged, this stops the listing by throwing `ListingStopped` (exported beside the
 * validators, with `listingLimit`) once a validator function holds more than LISTING_LIMIT
 * errors; the caller then reports the fast validator's first error and says the listing stopped.
 */
export function boundedListing(code: string): string {
  const records = (code.match(/vErrors = \[err\d+\];\}else \{vErrors\.push\(err\d+\);\}errors\+\+;/g) ?? []).length;
  const merges = (code.match(/for \(const e of \w+\.errors\) vErrors\.push\(e\); \}errors = vErrors\.length;/g) ?? []).length;
  const increments = (code.match(/errors\+\+;/g) ?? []).length;
  const assignments = (code.match(/errors = vErrors\.length;/g) ?? []).length;
  if (records !== increments || merges !== assignments) {
    throw new Error(
      `generate: Ajv records errors in a way boundedListing does not know (${increments - records} records, ${assignments - merges} merges not recognised); update it`,
    );
  }
  const check = 'if(errors > LISTING_LIMIT){stopListing();}';
  const out = code.replaceAll('errors++;', `errors++;${check}`).replaceAll('errors = vErrors.length;', `errors = vErrors.length;${check}`);
  const header = [
    `const LISTING_LIMIT = ${LISTING_LIMIT};`,
    'class ListingStopped extends Error {}',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: this is generated code, whose template literal names LISTING_LIMIT
    'function stopListing() { throw new ListingStopped(`the listing stopped after more than ${LISTING_LIMIT} errors`); }',
    'export const listingLimit = LISTING_LIMIT;',
    'export { ListingStopped };',
  ].join('\n');
  return out.replace('"use strict";', `"use strict";\n${header}`);
}

/** Up to this many items, uniquePair compares pairs as Ajv does; longer arrays are keyed. */
export const UNIQUE_PAIRWISE_MAX = 32;

const UNIQUE_PAIR = `function uniquePair(items, equal) {
  const n = items.length;
  if (n <= ${UNIQUE_PAIRWISE_MAX}) {
    for (let i = n; i--;) for (let j = i; j--;) if (equal(items[i], items[j])) return [i, j];
    return null;
  }
  const sorted = (_k, x) => x !== null && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x;
  const primitives = new Map();
  const objects = new Map();
  let pair = null;
  for (let i = 0; i < n; i++) {
    const item = items[i];
    const object = item !== null && typeof item === 'object';
    const seen = object ? objects : primitives;
    const key = object ? JSON.stringify(item, sorted) : item;
    const j = seen.get(key);
    if (j !== undefined) pair = [i, j];
    seen.set(key, i);
  }
  return pair;
}`;

/**
 * Ajv checks `uniqueItems` over items of unknown or object type by comparing every pair
 * (`for (i) for (j < i) if (equal(data[i], data[j]))`): quadratic (16,000 strings took 29 s).
 * This replaces each such loop with a call of `uniquePair(data, equal)`, which reports the same
 * pair Ajv would (the last item that repeats an earlier one, and the nearest earlier copy) and
 * keeps Ajv's pairwise loop for short arrays (the usual case, where it is the cheapest) but keys
 * the items of a longer one in one pass: a primitive by itself (a Map's SameValueZero is
 * deep-equal's equality on primitives), an object or array by its canonical JSON (object keys
 * sorted: deep-equal's equality on JSON data, which is all decode() lets through).
 */
export function linearUniqueItems(code: string): string {
  const loop = /outer(\d+):for\(;(i\d+)--;\)\{for\((j\d+) = \2; \3--;\)\{if\((func\d+)\((\w+)\[\2\], \5\[\3\]\)\)\{/g;
  let count = 0;
  const out = code.replace(loop, (_m, n: string, i: string, j: string, equal: string, data: string) => {
    count++;
    return `outer${n}:for(const pair${n} = uniquePair(${data}, ${equal}); pair${n} !== null;){for(${i} = pair${n}[0], ${j} = pair${n}[1]; ;){if(true){`;
  });
  const loops = (code.match(/outer\d+:for\(/g) ?? []).length;
  if (count !== loops) throw new Error(`generate: ${loops - count} uniqueItems loops not recognised; update linearUniqueItems`);
  return count === 0 ? out : out.replace('"use strict";', `"use strict";\nconst uniquePair = ${UNIQUE_PAIR};`);
}

// ---------------------------------------------------------------------------------------------
// Tables

function banner(version: string | undefined, comment: '/**' | '//' = '/**'): string {
  const what = version === undefined ? 'AdCP tables' : `AdCP ${version}`;
  if (comment === '//') {
    return `// Generated by ${GENERATOR} from the ${what} schemas. Do not edit.\n// Regenerate with: ${REGENERATE}\n`;
  }
  return `/**\n * Generated by ${GENERATOR} from the ${what} schemas. Do not edit.\n * Regenerate with: ${REGENERATE}\n */\n`;
}

function tableModule(version: string, manifest: Manifest): string {
  const q = (s: string) => JSON.stringify(s);
  const tasks = manifest.tasks.map((t) => `  ${q(t.name)},`).join('\n');
  const schemaIds = manifest.tasks
    .map((t) => {
      const async = ASYNC_STATUSES.filter((s) => t.async[s] !== undefined)
        .map((s) => `${q(s)}: ${q(t.async[s]!)}`)
        .join(', ');
      return `  ${t.name}: { response: ${q(t.response)}, async: { ${async} } },`;
    })
    .join('\n');
  const codes = manifest.errorCodes.map(([c, r]) => `  ${c}: ${q(r)},`).join('\n');
  return `${banner(version)}import type { TaskSchemaIds, VersionTables } from '../../tables.js';

/** The AdCP ${version} tasks, sorted. */
const tasks = [
${tasks}
] as const;

/** A task name of AdCP ${version}. */
export type TaskName = (typeof tasks)[number];

/** The response schema \`$id\`s of each task: the sync response and the async variants by status. */
const schemaIds: Readonly<Record<TaskName, TaskSchemaIds>> = {
${schemaIds}
};

/** manifest.json \`error_codes\`: the recovery class of every standard error code. */
const errorCodes: Readonly<Record<string, string>> = {
${codes}
};

export const tables: VersionTables<TaskName> = {
  version: ${q(version)},
  tasks,
  schemaIds,
  errorCodes,
  /** manifest.json \`error_code_policy.default_unknown_recovery\`. */
  defaultUnknownRecovery: ${q(manifest.defaultUnknownRecovery)},
};
`;
}

function responsesModule(version: string, manifest: Manifest, names: Map<string, string>, byId: Map<string, SchemaFile>): string {
  const ids = new Set<string>();
  for (const t of manifest.tasks) {
    ids.add(t.response);
    for (const s of ASYNC_STATUSES) if (t.async[s] !== undefined) ids.add(t.async[s]!);
  }
  const imports = [...ids]
    .sort()
    .map((id) => `import type { ${names.get(id)!} } from './${relImport('x', byId.get(id)!.rel).slice(2).replace(/^/, 'types/')}';`);
  const entries = manifest.tasks.map((t) => {
    const asyncStatuses = ASYNC_STATUSES.filter((s) => t.async[s] !== undefined).map((s) => JSON.stringify(s));
    const variants = [
      `SyncVariant<${[names.get(t.response)!, ...(asyncStatuses.length > 0 ? [asyncStatuses.join(' | ')] : [])].join(', ')}>`,
    ];
    for (const s of ASYNC_STATUSES) {
      const id = t.async[s];
      if (id !== undefined) variants.push(`AsyncVariant<${names.get(id)!}, ${JSON.stringify(s)}>`);
    }
    return `  ${t.name}: ${variants.join(' | ')};`;
  });
  return `${banner(version)}import type { AsyncVariant, SyncVariant } from '../../response-types.js';
${imports.join('\n')}

/**
 * What \`decode(task, ...)\` returns for each AdCP ${version} task: the sync response, or an async
 * variant (\`working\`, \`submitted\`, \`input-required\`) narrowable on \`status\`.
 */
export interface Responses {
${entries.join('\n')}
}
`;
}

/** Names the pinned entry module declares itself; no schema type may take them. */
const PINNED_OWN_NAMES = [
  'decode',
  'safeDecode',
  'createDecoder',
  'isFinal',
  'Final',
  'Pinned',
  'PinnedDecoder',
  'PinnedOptions',
  'PinnedResult',
  'PinnedTask',
  'TaskName',
  'Response',
  'Responses',
  'DecodeOptions',
  'SafeDecodeResult',
  'AsyncStatus',
  'AsyncVariant',
  'SyncVariant',
  'EnvelopeTaskStatus',
];

/**
 * The name each type a version's modules export goes by in its pinned entry: the name
 * json-schema-to-typescript gave it, except where two modules declare the same name; then the
 * schema file's own type keeps it and the others are prefixed with their file's type name
 * (`CreateMediaBuyResponse` declares an arm `CreateMediaBuySubmitted`, as does the async schema
 * of that name: the arm is `CreateMediaBuyResponseCreateMediaBuySubmitted`).
 */
export function pinnedNames(
  types: ReadonlyMap<string, string>,
  mainOf: ReadonlyMap<string, string>,
): Map<string, Array<readonly [string, string]>> {
  const declared = new Map<string, string[]>();
  for (const [rel, text] of types)
    declared.set(
      rel,
      [...text.matchAll(/^export (?:type|interface) (\w+)/gm)].map((m) => m[1]!),
    );
  const count = new Map<string, number>();
  for (const names of declared.values()) for (const n of names) count.set(n, (count.get(n) ?? 0) + 1);
  const taken = new Map<string, string>();
  const out = new Map<string, Array<readonly [string, string]>>();
  for (const [rel, names] of [...declared].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const own = mainOf.get(rel);
    if (own === undefined || !names.includes(own)) throw new Error(`pinned entry: ${rel} does not export its schema's type`);
    const list: Array<readonly [string, string]> = [];
    for (const n of names) {
      const exported = count.get(n)! > 1 && n !== own ? `${own}${n}` : n;
      const clash = taken.get(exported) ?? (PINNED_OWN_NAMES.includes(exported) ? 'the pinned entry' : undefined);
      if (clash !== undefined) throw new Error(`pinned entry: ${rel} and ${clash} both export ${exported}`);
      taken.set(exported, rel);
      list.push([n, exported]);
    }
    out.set(rel, list);
  }
  return out;
}

/**
 * The pinned entry (`adcp-decode/<major>.<minor>`): decode, safeDecode and createDecoder bound to
 * this version by src/pinned.ts, isFinal, and every named type of the version.
 */
function pinnedModule(
  version: string,
  manifest: Manifest,
  types: ReadonlyMap<string, string>,
  mainOf: ReadonlyMap<string, string>,
): string {
  const release = version.split('.').slice(0, 2).join('.');
  const exports = [...pinnedNames(types, mainOf)].map(([rel, list]) => {
    const names = list.map(([n, e]) => (n === e ? n : `${n} as ${e}`)).join(', ');
    return `export type { ${names} } from './${rel.replace(/\.ts$/, '.js')}';`;
  });
  const q = JSON.stringify(version);
  return `${banner(version)}import { pin, type PinnedOptions, type PinnedResult } from '../../pinned.js';
import { preload as preloadTasks } from '../../validators.js';
import type { Responses } from './responses.js';

export { isFinal } from '../../final.js';
export type { Final } from '../../final.js';
export type { Pinned, PinnedDecoder, PinnedOptions, PinnedResult, PinnedTask } from '../../pinned.js';
export type { AsyncStatus, AsyncVariant, SyncVariant } from '../../response-types.js';
// The envelope's task status the decoded types use where a schema leaves \`status\` open (equal to
// this version's own TaskStatus enum); exported so that a declaration file can name it.
export type { TaskStatus as EnvelopeTaskStatus } from '../../response-types.js';
export type { Responses } from './responses.js';

/** A task name of AdCP ${version} (${manifest.tasks.length} tasks). */
export type TaskName = keyof Responses & string;

/** What decode(task, ...) returns in AdCP ${version}: the final response or an async variant. */
export type Response<T extends TaskName> = Responses[T];

/** Options of decode, safeDecode and createDecoder: all of adcp-decode's but \`version\`, which this import fixes. */
export type DecodeOptions = PinnedOptions;

/** What safeDecode(task, ...) returns: the data typed in AdCP ${version}, or the error. */
export type SafeDecodeResult<T extends TaskName> = PinnedResult<${q}, Responses, T>;

const pinned = pin<${q}, Responses>(${q});

/**
 * Decodes a seller's answer to \`task\` by the AdCP ${version} schemas (whatever \`adcp_version\` it announces), or throws a DecodeError.
 *
 * @example
 * import { decode, isFinal } from 'adcp-decode/${release}';
 * const response = decode('get_products', result);
 * if (isFinal(response)) show(response.products);
 */
export const decode = pinned.decode;

/**
 * Like decode, but returns \`{ success: true, data, version: ${q} }\` or \`{ success: false, error }\`.
 *
 * @example
 * const r = safeDecode('get_media_buys', result);
 */
export const safeDecode = pinned.safeDecode;

/**
 * Binds default options (per seller agent, say) to an AdCP ${version} decoder.
 *
 * @throws {DecodeError} \`INVALID_OPTION\` when an option is invalid.
 * @example
 * const seller = createDecoder({ maxBytes: 1024 * 1024 });
 */
export const createDecoder = pinned.createDecoder;

/**
 * Loads the AdCP ${version} validators of tasks before their first decode: needed in bundles,
 * browsers and workers (one chunk per task); in Node decode() loads them itself on first use.
 *
 * @throws {DecodeError} \`UNKNOWN_TASK\` for a task ${version} lacks, \`INTERNAL\` when a chunk cannot be loaded.
 * @example
 * await preload(['get_products', 'create_media_buy']);
 */
export const preload = (tasks: TaskName | readonly TaskName[]): Promise<void> => preloadTasks(tasks, ${q});

${exports.join('\n')}
`;
}

/** The Node entry of a pinned import: validators load on first use, as through the root's Node entry. */
function pinnedNodeModule(version: string): string {
  return `${banner(version)}import '../../node-validators.js';

export * from './pinned.js';
`;
}

function versionIdent(version: string): string {
  return `v${version.replace(/[^0-9A-Za-z]/g, '_')}`;
}

function rootIndex(versions: readonly string[]): string {
  const imports = versions.map((v) => `import { tables as ${versionIdent(v)} } from './${versionIdent(v)}/index.js';`);
  const types = versions.map((v) => `import type { Responses as ${versionIdent(v)}Responses } from './${versionIdent(v)}/responses.js';`);
  const maps = versions.map(
    (v) => `import { validators as ${versionIdent(v)}Validators } from './${versionIdent(v)}/validators/index.js';`,
  );
  return `${banner(undefined)}import type { VersionTables } from '../tables.js';
import type { ValidatorImports } from '../validators.js';
${imports.join('\n')}
${maps.join('\n')}
${types.join('\n')}

/** The pinned AdCP versions, default first. */
export const versions = [${versions.map((v) => JSON.stringify(v)).join(', ')}] as const;

/** A pinned AdCP version. */
export type Version = (typeof versions)[number];

/** The default AdCP version (the lock's \`defaultVersion\`). */
export const defaultVersion: Version = ${JSON.stringify(versions[0])};

/** The tables of each pinned version. */
export const tablesByVersion: { readonly [V in Version]: VersionTables<string> } = {
${versions.map((v) => `  ${JSON.stringify(v)}: ${versionIdent(v)},`).join('\n')}
};

/** The folder of each version's generated modules, beside this file. */
export const versionFolders: { readonly [V in Version]: string } = {
${versions.map((v) => `  ${JSON.stringify(v)}: ${JSON.stringify(versionIdent(v))},`).join('\n')}
};

/** The validator import map of each version (task → its modules, imported on first use). */
export const validatorsByVersion: { readonly [V in Version]: ValidatorImports } = {
${versions.map((v) => `  ${JSON.stringify(v)}: ${versionIdent(v)}Validators,`).join('\n')}
};

/** Task → response type, per version. */
export interface ResponsesByVersion {
${versions.map((v) => `  ${JSON.stringify(v)}: ${versionIdent(v)}Responses;`).join('\n')}
}
`;
}

// ---------------------------------------------------------------------------------------------

function writeTree(dir: string, files: Map<string, string>): void {
  for (const [rel, text] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const target = path.join(dir, rel);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
}

export async function generateVersion(version: string, out: string): Promise<GenerateReport> {
  const t0 = performance.now();
  const root = schemaDir(version);
  const manifest = readManifest(version, root);
  const schemas = loadSchemas(version, root);
  const roots = manifest.tasks.flatMap((t) => [t.response, ...Object.values(t.async)]);
  const files = reachable(schemas, roots);
  const names = typeNames(files);
  const byId = new Map(files.map((f) => [f.id, f]));

  const types = await generateTypes(version, files, names, byId);
  const { modules: validators, warnings } = validatorModules(version, manifest, schemas);
  const dir = path.join(out, versionIdent(version));
  rmSync(dir, { recursive: true, force: true });
  writeTree(dir, types);
  writeTree(dir, validators);
  writeTree(
    dir,
    new Map([
      ['index.ts', tableModule(version, manifest)],
      ['responses.ts', responsesModule(version, manifest, names, byId)],
      ['pinned.ts', pinnedModule(version, manifest, types, new Map(files.map((f) => [typeModulePath(f.rel), names.get(f.id)!])))],
      ['node.ts', pinnedNodeModule(version)],
    ]),
  );
  const ms = Math.round(performance.now() - t0);
  console.log(
    `generate: AdCP ${version}: ${manifest.tasks.length} tasks, ${types.size} type modules, ${validators.size} validator modules, ${warnings} strictTypes notes, ${ms} ms`,
  );
  return { version, tasks: manifest.tasks.length, typeModules: types.size, ms };
}

/**
 * What the output depends on: the lock (so the schema bytes), this generator, and the versions of
 * the packages that write the code. Stored in the output folder; an equal stamp means the output
 * is current and `generate` skips the work (pass `--force` to regenerate anyway).
 */
function inputStamp(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(LOCK_PATH));
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  for (const pkg of ['ajv', 'ajv-formats', 'json-schema-to-typescript']) {
    hash.update(readFileSync(requireFromHere.resolve(`${pkg}/package.json`)));
  }
  return hash.digest('hex');
}

export async function generate(out: string = OUT_DEFAULT, force = false): Promise<GenerateReport[]> {
  const { versions } = readLockVersions();
  const stampFile = path.join(out, '.stamp');
  const stamp = inputStamp();
  if (!force && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    console.log(`generate: ${path.relative(process.cwd(), out) || out} is up to date (AdCP ${versions.join(', ')}); --force regenerates`);
    return [];
  }
  rmSync(stampFile, { force: true });
  const reports: GenerateReport[] = [];
  for (const version of versions) reports.push(await generateVersion(version, out));
  writeFileSync(path.join(out, 'index.ts'), rootIndex(versions));
  writeFileSync(stampFile, stamp);
  return reports;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--out');
  const out = i >= 0 && process.argv[i + 1] !== undefined ? path.resolve(process.argv[i + 1]!) : OUT_DEFAULT;
  generate(out, process.argv.includes('--force')).catch((error: unknown) => {
    console.error(`generate: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
