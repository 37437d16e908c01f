/**
 * How the schemas are reshaped for the types, and only for them (the validators read the schemas
 * as synced): keys a `not` forbids become `k?: never` so arms discriminate, and object schemas that
 * name their members are closed so a misspelt member does not compile.
 */
import { isObject, type Json, type JsonObject } from './load.js';

/** Keywords whose values are instances or conditions, not object shapes these rewrites may add to. */
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

/** Finds the schema a `$ref` names: another file's, or a pointer into the schema's own file. */
export type Resolve = (ref: string) => { node: JsonObject; resolve: Resolve } | undefined;

/** The keywords whose branches describe the same object as the schema holding them. */
const COMPOSITIONS = ['allOf', 'anyOf', 'oneOf'];

/** The keywords whose values map names to schemas (a member may be called `type` or `properties`). */
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs'];

/** The keywords whose branches are alternatives: a value may match one and carry another's members. */
const ALTERNATIVES = ['anyOf', 'oneOf'];

/** Whether a schema describes an object whose unnamed members are allowed (json-schema-to-typescript writes an index signature). */
function openObject(node: JsonObject): boolean {
  const objectType = node.type === undefined || node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'));
  const extras = node.additionalProperties === undefined || node.additionalProperties === true;
  return objectType && extras && node.patternProperties === undefined && node.$ref === undefined;
}

/** Whether a schema, or a branch it is composed of, names members (a `$ref` counts: it names a type). */
function namesMembers(node: Json | undefined): boolean {
  if (!isObject(node)) return false;
  if (typeof node.$ref === 'string') return true;
  if (isObject(node.properties) && Object.keys(node.properties).length > 0) return true;
  return COMPOSITIONS.some((key) => Array.isArray(node[key]) && node[key].some(namesMembers));
}

/** What one alternative declares, what it requires, and whether it lets other members in. */
interface Alternative {
  readonly members: readonly string[];
  readonly required: readonly string[];
  readonly open: boolean;
}

/**
 * Reads an alternative through `allOf` and `$ref`: its own `properties` and `required` and those
 * of the schemas it is made of; open unless it (or a part) says `additionalProperties: false`.
 */
function alternative(node: Json, resolve: Resolve, seen = new Set<JsonObject>()): Alternative {
  if (!isObject(node) || seen.has(node)) return { members: [], required: [], open: false };
  seen.add(node);
  if (typeof node.$ref === 'string') {
    const target = resolve(node.$ref);
    return target === undefined ? { members: [], required: [], open: false } : alternative(target.node, target.resolve, seen);
  }
  const parts = Array.isArray(node.allOf) ? node.allOf.map((part) => alternative(part, resolve, seen)) : [];
  const own = isObject(node.properties) ? Object.keys(node.properties) : [];
  const required = Array.isArray(node.required) ? node.required.filter((k): k is string => typeof k === 'string') : [];
  return {
    members: [...own, ...parts.flatMap((p) => p.members)],
    required: [...required, ...parts.flatMap((p) => p.required)],
    open: openObject(node) && parts.every((p) => p.open),
  };
}

/**
 * Declares in each open alternative the members its siblings require and it neither names nor
 * forbids, as `k?: unknown`: the schema lets that arm carry them with any value, so once arms are
 * closed, `'k' in r` must not narrow to the sibling that requires `k` (a success arm may carry an
 * `errors` of any shape where its schema has no `not: { required: ["errors"] }`). A `$ref`
 * alternative is wrapped (`allOf: [{ $ref }]` beside the added members). Only required members:
 * they are what `in` tells arms apart by (an optional one proves nothing when absent), and every
 * sibling's every member would grow a 20-arm union such as core/assets/asset-union.json twentyfold.
 *
 * @param branches The alternatives of one `anyOf` or `oneOf`.
 * @param resolve Finds what a `$ref` names.
 * @returns The alternatives, each open one declaring its siblings' required members.
 * @example
 * siblingMembers([{ properties: { a: {} }, required: ['a'] }, { properties: { b: {} }, required: ['b'] }], resolve);
 * // b?: unknown in the first, a?: unknown in the second
 */
export function siblingMembers(branches: readonly Json[], resolve: Resolve): Json[] {
  const shapes = branches.map((branch) => alternative(branch, resolve));
  const all = [...new Set(shapes.flatMap((s) => s.required))];
  return branches.map((branch, i) => {
    if (!isObject(branch) || !shapes[i]!.open) return branch;
    const skip = new Set([...shapes[i]!.members, ...shapes[i]!.required, ...forbiddenKeys(branch.not)]);
    const missing = all.filter((k) => !skip.has(k));
    if (missing.length === 0) return branch;
    const base: JsonObject = typeof branch.$ref === 'string' ? { allOf: [branch] } : branch;
    const properties: JsonObject = isObject(base.properties) ? { ...base.properties } : {};
    for (const k of missing) properties[k] = { tsType: 'unknown' };
    return { ...base, properties };
  });
}

/**
 * Closes every object schema that names its members: no `[k: string]: unknown` in its type, so a
 * misspelt member does not compile. A seller's extra members stay in the data (the validators
 * read the schemas as synced) and are read through `extra()` (src/decode/extra.ts). The branches
 * of a closed schema's `allOf`/`anyOf`/`oneOf` describe the same object, so one that only
 * constrains it (`required`, `not`, `if`) is closed too: its index signature would reopen the
 * intersection (also under a schema the synced file already closes). Alternatives declare their
 * siblings' members ({@link siblingMembers}). A schema that names no member (`ext`, `context`, a
 * free-form map) stays open: there is nothing to misspell.
 *
 * @param node A schema as synced (before its `$ref`s are linked), walked in full.
 * @param resolve Finds what a `$ref` names.
 * @param branchOfClosed Whether `node` is a branch of a closed schema's composition.
 * @returns A copy whose object schemas that name members say `additionalProperties: false`.
 * @example
 * closedShapes({ type: 'object', properties: { a: {} } }, resolve); // { ..., additionalProperties: false }
 */
export function closedShapes(node: Json, resolve: Resolve, branchOfClosed = false): Json {
  if (Array.isArray(node)) return node.map((item) => closedShapes(item, resolve));
  if (!isObject(node)) return node;
  const closed = openObject(node) && (branchOfClosed || namesMembers(node));
  const closesBranches = closed || node.additionalProperties === false;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (NOT_SHAPES.has(key)) out[key] = value;
    else if (SCHEMA_MAPS.includes(key) && isObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, closedShapes(schema, resolve)]));
    else if (COMPOSITIONS.includes(key) && Array.isArray(value)) {
      const branches = ALTERNATIVES.includes(key) ? siblingMembers(value, resolve) : value;
      out[key] = branches.map((branch) => closedShapes(branch, resolve, closesBranches));
    } else out[key] = closedShapes(value, resolve);
  }
  if (closed) out.additionalProperties = false;
  return out;
}
