/**
 * The validators: Ajv standalone code as ES modules, per task `<task>.js`, which stops at the
 * first error (the fast verdict), and `<task>.errors.js`, which lists every error (loaded only
 * after a failure). All schemas of a version share one Ajv instance in default strict mode; AdCP's
 * annotation keywords are registered by name, so an unknown keyword or format fails the build.
 * Ajv's output then goes through the rewrites of rewrites.ts.
 */
import AjvModule, { type Options as AjvOptions } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';
import { isObject, type Json, type JsonObject, type Manifest, type SchemaFile, type TaskEntry } from './load.js';
import { banner } from './output.js';
import { rewrite } from './rewrites.js';

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
  'x-adcp-validation',
  'x-canonical-policy-required-params-not-enforced',
  'x-canonicalization',
  'x-deprecated-enum-values',
  'x-deprecated-enum-values-doc',
  'x-entity',
  'x-enum-descriptions',
  'x-extensible',
  'x-mutates-state',
  'x-pattern',
  'x-status',
];

/**
 * The Ajv instance codegen compiles with: default strict mode (an unknown keyword or format
 * throws), AdCP's annotation keywords registered, ajv-formats added, ES module standalone code.
 *
 * @param allErrors True for the error-listing validators, false for the first-error ones.
 * @param warnings Collects Ajv's strictTypes/strictTuples notes.
 * @returns The instance, without schemas.
 * @example
 * const ajv = createAjv(false);
 */
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

/**
 * The export name of a validator inside a module.
 *
 * @param variant The sync response or an async status.
 * @returns `response`, `working`, `submitted` or `input_required`.
 * @example
 * exportKey('input-required'); // 'input_required'
 */
function exportKey(variant: string): string {
  return variant.replace('-', '_');
}

function variantRefs(task: TaskEntry, prefix: string): Record<string, string> {
  const refs: Record<string, string> = { [`${prefix}response`]: task.response };
  // The task's request schema, which encode() checks a buyer's arguments against.
  refs[`${prefix}request`] = task.request;
  for (const [status, id] of Object.entries(task.async)) refs[`${prefix}${exportKey(status)}`] = id;
  return refs;
}

/**
 * The validators, as ES modules a bundler can follow: per task, `<task>.js` stops at the first
 * error (the fast verdict) and `<task>.errors.js` lists every error (loaded only after a
 * failure, so a first failing decode loads one task's listing, not every task's); each holds the
 * task's response and async-response validators. `index.js` is the import map (task →
 * `() => import('./<task>.js')`), so a bundler includes the validators and can split them per task.
 */

/**
 * The validator modules of a version, per task `validators/<task>.js` (first error, the fast
 * verdict) and `validators/<task>.errors.js` (every error, loaded only after a failure, so a first
 * failing decode loads one task's listing, not every task's); each holds the task's response and
 * async-response validators, rewritten by the rewrites of its kind.
 *
 * @param version The AdCP version, for the banner.
 * @param manifest The version's tasks.
 * @param schemas Every schema file of the version.
 * @returns The modules (path → text) and how many distinct strictTypes notes Ajv logged.
 * @throws Error for an unknown keyword or format, or Ajv output a rewrite does not recognise.
 * @example
 * validatorModules('3.1.19', manifest, schemas).modules.get('validators/get_products.js');
 */
export function validatorModules(
  version: string,
  manifest: Manifest,
  schemas: Map<string, SchemaFile>,
  extra: readonly ExtraModule[] = [],
): { modules: Map<string, string>; warnings: number } {
  const modules = new Map<string, string>();
  const warnings: string[] = [];
  for (const [kind, suffix] of [
    ['fast', '.js'],
    ['listing', '.errors.js'],
  ] as const) {
    const ajv = createAjv(kind === 'listing', warnings);
    for (const file of schemas.values()) ajv.addSchema(stripAnnotations(file.schema) as object, file.id);
    for (const { derived } of extra) if (derived !== undefined) ajv.addSchema(stripAnnotations(derived.schema) as object, derived.id);
    const units = [
      ...manifest.tasks.map((task) => ({ name: task.name, refs: variantRefs(task, '') })),
      ...extra.map(({ name, root }) => ({ name, refs: { response: root } })),
    ];
    for (const { name, refs } of units) {
      modules.set(`validators/${name}${suffix}`, `${banner(version, '//')}${rewrite(standaloneCode(ajv, refs), kind)}\n`);
    }
  }
  return { modules, warnings: new Set(warnings).size };
}

/**
 * A validator module beside the tasks' (an envelope: the MCP webhook payload, 3.0's tasks/get
 * response): its name in the import map, the schema `$id` it exports as `response`, and the
 * schema codegen derived for it, when it is not one of the version's files.
 */
export interface ExtraModule {
  readonly name: string;
  readonly root: string;
  readonly derived?: SchemaFile | undefined;
}
