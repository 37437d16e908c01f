/**
 * The validators: Ajv standalone code, compiled once per release and variant (`fast`, which
 * stops at the first error and gives the verdict only, and `listing`, which lists every error and
 * is loaded only after a failure) over every schema the release's entry modules export, with
 * `inlineRefs: false`, so that each schema is one function however many schemas reach it. All
 * schemas of a release share one Ajv instance per variant in default strict mode; AdCP's
 * annotation keywords are registered by name, so an unknown keyword or format fails the build.
 * Ajv's output goes through the rewrites of rewrites.ts, is read as declarations
 * (declarations.ts), named by content (names.ts) and placed once each by chunks.ts.
 */
import AjvModule, { type Options as AjvOptions, type ValidateFunction } from 'ajv';
import { inlineRef } from 'ajv/dist/compile/resolve.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';
import { type EntryModule, entryFile, validatorFiles } from './chunks.js';
import { declarations } from './declarations.js';
import { type ExtraModule, envelopeModules } from './envelopes.js';
import { isObject, type Json, type JsonObject, type Manifest, reachable, type SchemaFile } from './load.js';
import { contentNames, type Named } from './names.js';
import type { Stamp, ValidatorLayout } from './output.js';
import { type ModuleKind, rewrite } from './rewrites.js';
import { splitSchemaLiterals } from './schema-literals.js';

// Ajv and ajv-formats are CommonJS with `exports.default`.
const Ajv = AjvModule.default;
const standaloneCode = standaloneModule.default;
const addFormats = addFormatsModule.default;

/**
 * Keywords the AdCP schemas use that are not JSON Schema draft-07. All are annotations (they do
 * not constrain the instance). They are registered by name so that Ajv's strict mode stays on: a
 * keyword missing from this list, a typo among them included, fails the build.
 */
export const ANNOTATION_KEYWORDS: readonly string[] = [
  'discriminator',
  'enumDescriptions',
  'enumMetadata',
  // ajv-errors' custom message (sync_catalogs requests); it never changes whether an instance is valid.
  'errorMessage',
  'notes',
  'x-accessibility',
  'x-adcp-hoist',
  'x-adcp-open-payload',
  // 3.2: the schema's canonical URI, and a local SDK hint.
  'x-adcp-schema-uri',
  'x-adcp-sdk-local',
  'x-adcp-validation',
  // 3.2: the lifecycle of a member (added, deprecated, removed, superseded, its legacy fallback).
  'x-added-in',
  'x-canonical-policy-required-params-not-enforced',
  'x-canonicalization',
  'x-compatibility-projection-only',
  'x-deprecated-enum-values',
  'x-deprecated-enum-values-doc',
  'x-deprecated-in',
  'x-entity',
  'x-enum-descriptions',
  'x-extensible',
  'x-governed-commitment',
  'x-idempotency-key-required',
  'x-legacy-fallback',
  'x-mutates-state',
  'x-operation-family',
  'x-pattern',
  'x-removed-in',
  'x-status',
  'x-superseded-by',
  'x-task-result-schema-overrides',
  'x-tool-summary',
];

/**
 * The Ajv instance codegen compiles with: default strict mode (an unknown keyword or format
 * throws), AdCP's annotation keywords registered, ajv-formats added, ES module standalone code.
 *
 * @param allErrors True for the error-listing validators, false for the first-error ones.
 * @param warnings Collects Ajv's strictTypes/strictTuples notes.
 * @param inlineRefs Ajv's option: true (its default, as run-time Ajv compiles) inlines a `$ref`
 *   to a schema without `$ref`s at each use; codegen passes false (one function per schema).
 * @returns The instance, without schemas.
 * @example
 * const ajv = createAjv(false);
 */
export function createAjv(allErrors: boolean, warnings: string[] = [], inlineRefs = true): InstanceType<typeof Ajv> {
  const options: AjvOptions = {
    allErrors,
    inlineRefs,
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

/**
 * The `x-` keywords of a schema that are not registered (ANNOTATION_KEYWORDS), at the schema
 * positions stripAnnotations walks, each with its JSON pointer: Ajv's strict mode would refuse
 * them without saying in which file.
 *
 * @param node A schema.
 * @param at Its pointer.
 * @returns `[pointer, keyword]` pairs.
 * @example
 * unknownExtensions({ properties: { a: { 'x-new': 1 } } }); // [['/properties/a', 'x-new']]
 */
function unknownExtensions(node: Json, at = ''): Array<readonly [string, string]> {
  if (Array.isArray(node)) return node.flatMap((item, i) => unknownExtensions(item, `${at}/${i}`));
  if (!isObject(node)) return [];
  const out: Array<readonly [string, string]> = [];
  for (const [key, value] of Object.entries(node)) {
    const here = `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (key.startsWith('x-') && !ANNOTATION_KEYWORDS.includes(key)) out.push([at, key]);
    else if (SCHEMA_MAPS.has(key) && isObject(value))
      for (const [k, v] of Object.entries(value))
        out.push(...unknownExtensions(v, `${here}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`));
    else if (SCHEMA_LISTS.has(key) || SCHEMA_VALUES.has(key)) out.push(...unknownExtensions(value, here));
  }
  return out;
}

/**
 * A validator entry module of a release: its name (its files `validators/<name>.js`, the fast
 * variant, and `validators/<name>.errors.js`, the listing) and its exports, export name → schema
 * `$id`. Any such set compiles: other entries (an envelope's schemas) and exports (a task's
 * request) join through {@link validatorEntries}.
 */
interface ValidatorEntry {
  readonly name: string;
  readonly exports: Readonly<Record<string, string>>;
}

/**
 * The entry modules of a release: per task, its response (`response`), its request (`request`,
 * which encode() checks a buyer's arguments against) and async responses by status (`working`,
 * `submitted`, `input_required`), as src/validate/validators.ts reads them; then the envelope
 * modules, each exporting its schema as `response` (and a poll's request as `request`).
 *
 * @param manifest The release's tasks.
 * @param extra The envelope modules (envelopes.ts).
 * @returns One entry per task, in the manifest's order, then one per envelope.
 * @example
 * validatorEntries(manifest, [])[0]; // { name: 'acquire_rights', exports: { response: '/schemas/3.1.19/...', request: ... } }
 */
function validatorEntries(manifest: Manifest, extra: readonly ExtraModule[]): ValidatorEntry[] {
  const tasks = manifest.tasks.map((task) => {
    const exports: Record<string, string> = { response: task.response, request: task.request };
    for (const [status, id] of Object.entries(task.async)) exports[status.replace('-', '_')] = id;
    return { name: task.name, exports };
  });
  return [
    ...tasks,
    ...extra.map(({ name, root, request }) => ({
      name,
      exports: request === undefined ? { response: root } : { response: root, request },
    })),
  ];
}

/**
 * A release's schema files with the schemas codegen derived for its envelope modules, under
 * their own `$id`s (envelopes.ts checks that none clashes with a file).
 *
 * @param schemas Every schema file of the release.
 * @param extra The envelope modules.
 * @returns The files Ajv compiles the release's validators from.
 * @example
 * withDerived(schemas, envelopeModules(version, manifest, schemas)).size;
 */
function withDerived(schemas: ReadonlyMap<string, SchemaFile>, extra: readonly ExtraModule[]): Map<string, SchemaFile> {
  const out = new Map(schemas);
  for (const { derived } of extra) if (derived !== undefined) out.set(derived.id, derived);
  return out;
}

/**
 * What codegen compiles of a release: its entry modules (tasks, then envelopes) and its schema
 * files with the envelopes' derived schemas.
 *
 * @param version The AdCP version.
 * @param manifest Its tasks.
 * @param schemas Its schema files by `$id`.
 * @returns The release, for {@link validatorModules}.
 * @throws Error when an envelope schema is missing or a derived `$id` clashes (envelopes.ts).
 * @example
 * validatorModules([releaseOf('3.1.19', manifest, schemas)]);
 */
export function releaseOf(version: string, manifest: Manifest, schemas: ReadonlyMap<string, SchemaFile>): Release {
  const extra = envelopeModules(manifest, schemas);
  return { version, entries: validatorEntries(manifest, extra), schemas: withDerived(schemas, extra) };
}

/** The JSON pointer of `target` inside `node` (found by identity), or undefined. */
function pointerTo(node: unknown, target: unknown, at = ''): string | undefined {
  if (node === target) return at;
  if (typeof node !== 'object' || node === null) return undefined;
  for (const [key, child] of Object.entries(node)) {
    const found = pointerTo(child, target, `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Every `$ref` string of a schema (not inside `enum`, `const`, `examples` or `default`, which hold instances). */
function refsOf(node: Json, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(node)) for (const item of node) refsOf(item, out);
  else if (isObject(node))
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.add(value);
      else if (!['enum', 'const', 'examples', 'default'].includes(key)) refsOf(value, out);
    }
  return out;
}

/**
 * The `$ref` that reaches a leaf schema: a file's `$id`; `#` and its pointer where its own file
 * refers to it; else `<$id>#<pointer>`, the form another file's `$ref` names it by (3.2 refers
 * into other files, through a `$ref` that may itself name a file).
 *
 * @param env The leaf's compiled schema.
 * @param fileOf The schema Ajv holds under an `$id`, to find the leaf in the file it is in.
 */
function leafRef(env: ValidateFunction['schemaEnv'], fileOf: (id: string) => unknown): string {
  const schema = env.schema as Json;
  if (isObject(schema) && typeof schema.$id === 'string') return schema.$id;
  for (const root of [fileOf(env.baseId), env.root.schema] as Json[]) {
    const id = isObject(root) ? root.$id : undefined;
    const pointer = pointerTo(root, schema);
    if (typeof id !== 'string' || pointer === undefined) continue;
    // namedLeafPaths names a leaf's paths by the one $ref that reaches it: its own file's, if it has one.
    return refsOf(root).has(`#${pointer}`) ? `#${pointer}` : `${id}#${pointer}`;
  }
  throw new Error(`generate: the leaf schema at ${env.baseId} is in no file Ajv holds; update leafPaths`);
}

/**
 * The validate functions of leaf schemas (no `$ref` inside: Ajv's `inlineRef`, which inlines them
 * by default) that other functions call, each with the `$ref` that reaches it: the context of the
 * namedLeafPaths rewrite. Read from Ajv's compiled functions (`source`, `schemaEnv`).
 *
 * @param ajv The instance that compiled `ids` (with `code.source`).
 * @param ids The exported schemas.
 * @returns Function name → `$ref`.
 * @throws Error when a compiled function lacks its source, or a leaf is both exported and called.
 * @example
 * leafPaths(ajv, ['/schemas/3.1.19/media-buy/get-products-response.json']).get('validate12');
 */
export function leafPaths(ajv: InstanceType<typeof Ajv>, ids: readonly string[]): Map<string, string> {
  const roots = new Set(ids.map((id) => ajv.getSchema(id)));
  const out = new Map<string, string>();
  const seen = new Set<unknown>();
  const stack = [...roots];
  for (let fn = stack.pop(); fn !== undefined; fn = stack.pop()) {
    if (seen.has(fn)) continue;
    seen.add(fn);
    const source = fn.source;
    if (source === undefined) throw new Error('generate: a compiled validator lacks its source; update leafPaths');
    for (const value of source.scopeValues.validate ?? []) {
      const called = value.value?.ref as ValidateFunction | undefined;
      if (called === undefined || called.source === undefined)
        throw new Error('generate: a called validator lacks its source; update leafPaths');
      stack.push(called);
      if (!inlineRef(called.schemaEnv.schema, true)) continue;
      if (roots.has(called))
        throw new Error(
          `generate: the leaf schema ${JSON.stringify(called.schemaEnv.baseId)} is both exported and referenced; update leafPaths`,
        );
      out.set(
        called.source.validateName.str,
        leafRef(called.schemaEnv, (id) => ajv.getSchema(id)?.schema),
      );
    }
  }
  return out;
}

/** One release's code in one variant: its declarations by content name, and each exported schema's function. */
export interface CompiledRelease {
  readonly named: Map<string, Named>;
  /** Schema `$id` → the content name of its validate function. */
  readonly functions: ReadonlyMap<string, string>;
}

/**
 * Compiles every schema a release's entries export into one Ajv module of one variant, rewritten
 * and read as declarations named by content.
 *
 * @param kind `fast` (first error, verdict only) or `listing` (every error).
 * @param ids The exported schemas' `$id`s.
 * @param schemas Every schema file of the release.
 * @param warnings Collects Ajv's strictTypes notes.
 * @returns The declarations and the function of each exported schema.
 * @throws Error for an unknown keyword or format, or Ajv output a rewrite or the declarations do not recognise.
 * @example
 * compileRelease('fast', ids, schemas, []).functions.get(ids[0]);
 */
export function compileRelease(
  kind: ModuleKind,
  ids: readonly string[],
  schemas: ReadonlyMap<string, SchemaFile>,
  warnings: string[],
): CompiledRelease {
  const ajv = createAjv(kind === 'listing', warnings, false);
  // Only what the entries reach: a file no task names is no reason to refuse a release.
  for (const file of reachable(schemas, ids)) ajv.addSchema(stripAnnotations(file.schema) as object, file.id);
  const refs = Object.fromEntries(ids.map((id, i) => [`x${i}`, id]));
  const code = standaloneCode(ajv, refs);
  const context = { leafPaths: kind === 'listing' ? leafPaths(ajv, ids) : new Map<string, string>() };
  const module = splitSchemaLiterals(declarations(rewrite(code, kind, undefined, context)));
  const byAjvName = contentNames(module, kind);
  const named = new Map([...byAjvName.values()].map((d) => [d.name, d]));
  const functions = new Map(ids.map((id, i) => [id, byAjvName.get(module.exports.get(`x${i}`)!)!.name]));
  return { named, functions };
}

/** A release to compile: its version, its entry modules and its schema files. */
export interface Release {
  readonly version: string;
  /** The variants to compile; default both (a patch fallback compiles only `fast`: patches.ts). */
  readonly kinds?: readonly ModuleKind[];
  readonly entries: readonly ValidatorEntry[];
  readonly schemas: ReadonlyMap<string, SchemaFile>;
}

/**
 * The validator modules of every release: per release and entry, `<entries>/<entry>.js` (fast)
 * and `<entry>.errors.js` (listing), importing the chunks (`<chunks>/<hash>.js`) that hold the
 * code entries share, each schema's function written once in all (chunks.ts).
 *
 * @param releases The releases compiled together.
 * @param layout Where their modules go and how they reach the validator runtime.
 * @param stamp What the modules' banners say.
 * @returns The modules (path in the output folder → text) and how many distinct strictTypes notes Ajv logged.
 * @throws Error for an unknown keyword or format, Ajv output a rewrite does not recognise, or two
 *   declarations whose content names clash.
 * @example
 * validatorModules([{ version: '3.1.19', entries, schemas }], BUNDLED_VALIDATORS, stamp).modules.get('v3_1/validators/get_products.js');
 */
export function validatorModules(
  releases: readonly Release[],
  layout: ValidatorLayout,
  stamp: Stamp,
): { modules: Map<string, string>; warnings: number } {
  const { entries, named, warnings } = compileReleases(releases, layout);
  return { modules: validatorFiles(entries, named, { layout, stamp }), warnings };
}

/**
 * Every release's entry modules and declarations, before they are placed in modules.
 *
 * @param releases The releases compiled together.
 * @param layout Where their entry modules go.
 * @returns The entries (both variants of each), the declarations by content name, and how many
 *   distinct strictTypes notes Ajv logged.
 * @throws Error as {@link validatorModules}.
 * @example
 * validatorFiles(...Object.values(compileReleases(releases)).slice(0, 2));
 */
export function compileReleases(
  releases: readonly Release[],
  layout: ValidatorLayout,
): { entries: EntryModule[]; named: Map<string, Named>; warnings: number } {
  const warnings: string[] = [];
  const named = new Map<string, Named>();
  const entries: EntryModule[] = [];
  for (const { version, entries: list, schemas, kinds } of releases) {
    const ids = [...new Set(list.flatMap((e) => Object.values(e.exports)))].sort();
    for (const file of reachable(schemas, ids))
      for (const [at, keyword] of unknownExtensions(file.schema))
        throw new Error(
          `AdCP ${version}/${file.rel}#${at}: the schema keyword "${keyword}" is unknown to this adcp-decode (annotation keywords are registered by name, so that a misspelt one fails); a newer adcp-decode may know it`,
        );
    for (const kind of kinds ?? (['fast', 'listing'] as const)) {
      let compiled: CompiledRelease;
      try {
        compiled = compileRelease(kind, ids, schemas, warnings);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(
          `AdCP ${version}: Ajv cannot compile its ${kind === 'fast' ? '' : 'error-listing '}validators: ${message.split('\n')[0]!.slice(0, 500)}`,
          {
            cause: error,
          },
        );
      }
      for (const [name, decl] of compiled.named) {
        const held = named.get(name);
        if (held !== undefined && held.code !== decl.code)
          throw new Error(`generate: two declarations are both named ${name}; lengthen the content names`);
        named.set(name, decl);
      }
      for (const e of list) {
        const exports = new Map(Object.entries(e.exports).map(([as, id]) => [as, compiled.functions.get(id)!]));
        entries.push({ file: entryFile(layout, version, e.name, kind === 'listing'), version, exports, listing: kind === 'listing' });
      }
    }
  }
  return { entries, named, warnings: new Set(warnings).size };
}
