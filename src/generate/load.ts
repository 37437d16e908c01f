/**
 * Codegen's input: every draft-07 schema file of a release (de-duplicated by `$id`, with the
 * exceptions of exceptions.ts applied), its manifest.json (tasks, response schemas, error codes,
 * what it says of each tool, which schema judges a terminal result), its task statuses and the
 * schemas reachable from the tasks. A release's `$id`s share one base: root-relative
 * (`/schemas/3.1.19/`) or absolute (`https://adcontextprotocol.org/schemas/3.2.0-beta.6/`).
 */
import type { ToolFacts } from '../schema/release.js';
import { applyExceptions, outcomeStatuses, resultSchemas } from './exceptions.js';
import { type FileTree, jsonFile, readFolderTree } from './tree.js';

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** A schema file of a release. */
export interface SchemaFile {
  readonly id: string;
  /** Its `$id` below the release's base, with `/`, e.g. `core/product.json`. */
  readonly rel: string;
  readonly schema: JsonObject;
}

/**
 * A task of the manifest: its request and response schema `$id`s and the `$id`s of its async
 * variants, keyed by the task status that selects each, in `enums/task-status.json`'s order.
 */
interface TaskEntry {
  readonly name: string;
  readonly request: string;
  readonly response: string;
  readonly async: Readonly<Record<string, string>>;
}

/** What codegen reads from a release's manifest.json and its task-status enum. */
export interface Manifest {
  readonly version: string;
  /** The `$id` of a schema file is `base` + its path: `/schemas/3.1.19/`, `https://adcontextprotocol.org/schemas/3.2.0-beta.6/`. */
  readonly base: string;
  readonly tasks: readonly TaskEntry[];
  readonly errorCodes: ReadonlyArray<readonly [string, string]>;
  readonly defaultUnknownRecovery: string;
  /** `enums/task-status.json`'s `enum`, in its order. */
  readonly taskStatuses: readonly string[];
  /** The task statuses some task has an async response schema for, in the enum's order. */
  readonly asyncStatuses: readonly string[];
  /** Per tool, what the manifest states of it (3.0 and 3.1 state `protocol` and `mutating`; 3.2 more). */
  readonly tools: Readonly<Record<string, ToolFacts>>;
  /**
   * Per task type, the `$id` of the schema that judges its terminal result instead of its tool's
   * response: `task_result_resolution.terminal_schema_overrides` (3.2 on), or a result exception
   * of the release's line that names a schema (3.1's media_buy_delivery); absent when none does.
   */
  readonly resultOverrides?: Readonly<Record<string, string>> | undefined;
  /** The terminal statuses that end a task with its answer, not its failure (3.2's `rejected`). */
  readonly outcomeStatuses: readonly string[];
}

/**
 * Whether a JSON value is an object (not null, not an array).
 *
 * @param value Any value.
 * @returns True for a plain object.
 * @example
 * isObject({}); // true
 */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A release's files: a tree read already, or a folder read now. */
function treeOf(root: string | FileTree): FileTree {
  return typeof root === 'string' ? readFolderTree(root) : root;
}

/**
 * The `$id` base of a release: the `$id` of its `enums/task-status.json` without that path, which
 * must end in `/schemas/<version>/`.
 *
 * @param version The AdCP version.
 * @param files Its files.
 * @returns E.g. `/schemas/3.1.19/`.
 * @throws Error when the file is missing or its `$id` names another place.
 * @example
 * releaseBase('3.2.0-beta.6', files); // 'https://adcontextprotocol.org/schemas/3.2.0-beta.6/'
 */
function releaseBase(version: string, files: FileTree): string {
  const anchor = 'enums/task-status.json';
  const schema = jsonFile(files, anchor, `AdCP ${version}`);
  const id = isObject(schema) ? schema.$id : undefined;
  if (schema === undefined)
    throw new Error(`AdCP ${version}: holds no ${anchor}, which every release has; is this a release's schema folder?`);
  if (typeof id !== 'string' || !id.endsWith(`/schemas/${version}/${anchor}`))
    throw new Error(`AdCP ${version}/${anchor}: its $id ${JSON.stringify(id)} is not under /schemas/${version}/`);
  return id.slice(0, -anchor.length);
}

/**
 * Every draft-07 schema file of a release by `$id`; a repeated `$id` must repeat the same schema.
 *
 * @param version The AdCP version, e.g. `3.1.19`.
 * @param root Its files, or its schema folder.
 * @param opened Collects the lists compiled open because their schema says so (a release without reviewed exceptions).
 * @returns `$id` → schema file.
 * @throws Error for a schema that is not draft-07, an `$id` outside the release, or an `$id` declared twice with different content.
 * @example
 * loadSchemas('3.1.19', schemaDir('3.1.19')).get('/schemas/3.1.19/core/product.json');
 */
export function loadSchemas(version: string, root: string | FileTree, opened: string[] = []): Map<string, SchemaFile> {
  const files = treeOf(root);
  const base = releaseBase(version, files);
  const byId = new Map<string, SchemaFile>();
  const texts = new Map<string, string>();
  for (const [rel, bytes] of files) {
    if (!rel.endsWith('.json')) continue;
    const schema = jsonFile(files, rel, `AdCP ${version}`);
    if (!isObject(schema) || typeof schema.$id !== 'string') continue; // manifest.json
    if (schema.$schema !== 'http://json-schema.org/draft-07/schema#') {
      throw new Error(`AdCP ${version}/${rel}: expected a draft-07 schema, got $schema ${JSON.stringify(schema.$schema)}`);
    }
    const id = schema.$id;
    if (!id.startsWith(base)) throw new Error(`AdCP ${version}/${rel}: $id ${id} is outside ${base}`);
    const text = bytes.toString('utf8');
    const seen = texts.get(id);
    if (seen !== undefined) {
      // Same $id twice (core/async-response-refs/): keep the canonical path, but only if the
      // content is the same schema.
      if (JSON.stringify(JSON.parse(seen)) !== JSON.stringify(schema)) {
        throw new Error(`AdCP ${version}: $id ${id} is declared twice with different content (${rel})`);
      }
      continue;
    }
    texts.set(id, text);
    byId.set(id, { id, rel: id.slice(base.length), schema });
  }
  opened.push(...applyExceptions(version, base, byId));
  return byId;
}

/** `enums/task-status.json`'s `enum` of a release, which names the async variants' statuses. */
function readTaskStatuses(version: string, files: FileTree): string[] {
  const schema = jsonFile(files, 'enums/task-status.json', `AdCP ${version}`);
  const list = isObject(schema) ? schema.enum : undefined;
  if (!Array.isArray(list) || list.length === 0 || !list.every((v) => typeof v === 'string')) {
    throw new Error(`AdCP ${version}/enums/task-status.json: expected \`enum\` to be a list of strings`);
  }
  return list as string[];
}

/** The values `idempotency_requirement` takes (manifest.schema.json). */
const IDEMPOTENCY = ['required', 'optional', 'none'] as const;
/** The values `legacy_fallback.mode` takes. */
const FALLBACK_MODES = ['direct', 'orchestrated', 'none'] as const;

/** A member of the manifest that is not what manifest.schema.json says. */
function badFact(version: string, where: string, expected: string, got: Json | undefined): Error {
  return new Error(`AdCP ${version}/manifest.json: ${where} is ${JSON.stringify(got)?.slice(0, 80)}, expected ${expected}`);
}

/**
 * What the manifest states of a tool, beside its schemas: its protocol, whether it mutates, its
 * idempotency requirement and its lifecycle (added, deprecated, superseded, legacy fallback).
 */
function toolFacts(version: string, name: string, tool: JsonObject): ToolFacts {
  const at = (key: string) => `tools.${name}.${key}`;
  const text = (key: string): string | undefined => {
    const value = tool[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value === '') throw badFact(version, at(key), 'a string', value);
    return value;
  };
  const facts: {
    -readonly [K in keyof ToolFacts]: ToolFacts[K];
  } = {};
  const protocol = text('protocol');
  if (protocol !== undefined) facts.protocol = protocol;
  if (tool.mutating !== undefined) {
    if (typeof tool.mutating !== 'boolean') throw badFact(version, at('mutating'), 'true or false', tool.mutating);
    facts.mutating = tool.mutating;
  }
  const idempotency = text('idempotency_requirement');
  if (idempotency !== undefined) {
    const known = IDEMPOTENCY.find((v) => v === idempotency);
    if (known === undefined) throw badFact(version, at('idempotency_requirement'), IDEMPOTENCY.join(', '), idempotency);
    facts.idempotencyRequirement = known;
  }
  const addedIn = text('added_in');
  if (addedIn !== undefined) facts.addedIn = addedIn;
  const deprecatedIn = text('deprecated_in');
  if (deprecatedIn !== undefined) facts.deprecatedIn = deprecatedIn;
  const superseded = tool.superseded_by;
  if (superseded !== undefined) {
    if (!Array.isArray(superseded) || !superseded.every((t) => typeof t === 'string'))
      throw badFact(version, at('superseded_by'), 'a list of tool names', superseded);
    facts.supersededBy = superseded as string[];
  }
  const fallback = tool.legacy_fallback;
  if (fallback !== undefined) {
    const mode = isObject(fallback) ? FALLBACK_MODES.find((m) => m === fallback.mode) : undefined;
    const target = isObject(fallback) ? fallback.tool : undefined;
    if (mode === undefined || (target !== undefined && typeof target !== 'string'))
      throw badFact(version, at('legacy_fallback'), `{ mode: ${FALLBACK_MODES.join(' | ')}, tool?: a tool name }`, fallback);
    facts.legacyFallback = typeof target === 'string' ? { mode, tool: target } : { mode };
  }
  return facts;
}

/** A schema path the manifest names, as the `$id` of a file the release holds. */
function namedSchema(version: string, base: string, files: FileTree, where: string, rel: Json | undefined): string {
  if (typeof rel !== 'string' || rel === '') throw badFact(version, where, 'a schema path', rel);
  if (!files.has(rel))
    throw new Error(`AdCP ${version}/manifest.json: ${where} names ${rel.slice(0, 200)}, which the release does not hold`);
  return `${base}${rel}`;
}

/**
 * `task_result_resolution` (3.2 on): which schema judges a terminal result of a task type (a
 * webhook's or a poll's `result`): its tool's response (`terminal_schema_pointer_template`), or
 * an override. Only the template the spec publishes is read; another is refused, not guessed at.
 */
function resultOverrides(version: string, base: string, files: FileTree, resolution: Json | undefined): Record<string, string> | undefined {
  if (resolution === undefined) return undefined;
  const where = 'task_result_resolution';
  if (!isObject(resolution)) throw badFact(version, where, 'an object', resolution);
  if (resolution.discriminator_field !== 'task_type')
    throw badFact(version, `${where}.discriminator_field`, '"task_type"', resolution.discriminator_field);
  if (resolution.terminal_schema_pointer_template !== '/tools/{task_type}/response_schema')
    throw badFact(
      version,
      `${where}.terminal_schema_pointer_template`,
      '"/tools/{task_type}/response_schema"',
      resolution.terminal_schema_pointer_template,
    );
  const overrides = resolution.terminal_schema_overrides ?? {};
  if (!isObject(overrides)) throw badFact(version, `${where}.terminal_schema_overrides`, 'an object', overrides);
  const out: Record<string, string> = {};
  for (const taskType of Object.keys(overrides).sort()) {
    if (!/^[a-z][a-z0-9_]*$/.test(taskType)) throw badFact(version, `${where}.terminal_schema_overrides key`, 'a task type', taskType);
    out[taskType] = namedSchema(version, base, files, `${where}.terminal_schema_overrides.${taskType}`, overrides[taskType]);
  }
  return out;
}

/**
 * A release's manifest.json: its tasks (sorted) with their request and response schemas, its error
 * codes, what it states of each tool, and which schema judges a terminal result.
 *
 * @param version The AdCP version.
 * @param root Its files, or its schema folder.
 * @returns The tasks, error codes, the recovery of an unknown code, the tool facts and result overrides.
 * @throws Error when the manifest lacks a field codegen needs, names a schema the release does
 *   not hold, or states a fact otherwise than manifest.schema.json allows.
 * @example
 * readManifest('3.1.19', schemaDir('3.1.19')).tasks.length;
 */
export function readManifest(version: string, root: string | FileTree): Manifest {
  const files = treeOf(root);
  const base = releaseBase(version, files);
  const taskStatuses = readTaskStatuses(version, files);
  const m = jsonFile(files, 'manifest.json', `AdCP ${version}`);
  if (!isObject(m) || !isObject(m.tools) || !isObject(m.error_codes) || !isObject(m.error_code_policy)) {
    throw new Error(`AdCP ${version}/manifest.json: expected tools, error_codes and error_code_policy objects`);
  }
  const tasks: TaskEntry[] = [];
  const tools: Record<string, ToolFacts> = {};
  for (const name of Object.keys(m.tools).sort()) {
    const tool: Json | undefined = m.tools[name];
    if (!/^[a-z][a-z0-9_]*$/.test(name)) throw badFact(version, 'a tool name', 'snake_case', name);
    if (!isObject(tool) || !Array.isArray(tool.async_response_schemas)) {
      throw new Error(`AdCP ${version}/manifest.json: tools.${name} lacks request_schema, response_schema or async_response_schemas`);
    }
    const byStatus = new Map<string, string>();
    for (const [i, rel] of tool.async_response_schemas.entries()) {
      const status = taskStatuses.find((s) => typeof rel === 'string' && rel.endsWith(`-async-response-${s}.json`));
      if (status === undefined || typeof rel !== 'string') {
        throw new Error(`AdCP ${version}/manifest.json: tools.${name}: cannot tell the task status of async schema ${String(rel)}`);
      }
      byStatus.set(status, namedSchema(version, base, files, `tools.${name}.async_response_schemas[${i}]`, rel));
    }
    // Keyed in the enum's order, so every table written from it is in one order.
    const async = Object.fromEntries(taskStatuses.flatMap((s) => (byStatus.has(s) ? [[s, byStatus.get(s)!]] : [])));
    tasks.push({
      name,
      request: namedSchema(version, base, files, `tools.${name}.request_schema`, tool.request_schema),
      response: namedSchema(version, base, files, `tools.${name}.response_schema`, tool.response_schema),
      async,
    });
    tools[name] = toolFacts(version, name, tool);
  }
  const errorCodes: Array<readonly [string, string]> = [];
  for (const code of Object.keys(m.error_codes).sort()) {
    const entry = m.error_codes[code];
    if (!isObject(entry) || typeof entry.recovery !== 'string') {
      throw new Error(`AdCP ${version}/manifest.json: error_codes.${code} lacks recovery`);
    }
    errorCodes.push([code, entry.recovery]);
  }
  const policy = m.error_code_policy.default_unknown_recovery;
  if (typeof policy !== 'string') throw new Error(`AdCP ${version}/manifest.json: error_code_policy.default_unknown_recovery missing`);
  const asyncStatuses = taskStatuses.filter((s) => tasks.some((t) => Object.hasOwn(t.async, s)));
  return {
    version,
    base,
    tasks,
    errorCodes,
    defaultUnknownRecovery: policy,
    taskStatuses,
    asyncStatuses,
    tools,
    resultOverrides:
      resultOverrides(version, base, files, m.task_result_resolution) ??
      resultSchemas(version, base, enumTexts(version, files, 'enums/task-type.json'), (rel) => files.has(rel)),
    outcomeStatuses: outcomeStatuses(version, enumTexts(version, files, 'enums/task-status.json')),
  };
}

/** An enum schema's description of each value (`enumDescriptions`), where it has them. */
function enumTexts(version: string, files: FileTree, rel: string): Record<string, string> {
  const schema = files.has(rel) ? jsonFile(files, rel, `AdCP ${version}`) : undefined;
  const texts = isObject(schema) && isObject(schema.enumDescriptions) ? schema.enumDescriptions : {};
  return Object.fromEntries(Object.entries(texts).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])));
}

/** The file a `$ref` names: its part before `#` (the fragment points inside that file). */
function refFile(ref: string): string {
  const hash = ref.indexOf('#');
  return hash < 0 ? ref : ref.slice(0, hash);
}

/** The other files a schema's `$ref`s name, each with the first pointer that names it. */
function externalRefs(node: Json, at: string, out: Map<string, string>): Map<string, string> {
  if (Array.isArray(node)) for (const [i, item] of node.entries()) externalRefs(item, `${at}/${i}`, out);
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) {
        if (!out.has(refFile(value))) out.set(refFile(value), `${at}/$ref`);
      }
      // `examples`, `default`, `const` and `enum` hold instances, not schemas.
      else if (key !== 'examples' && key !== 'default' && key !== 'const' && key !== 'enum') externalRefs(value, `${at}/${key}`, out);
    }
  }
  return out;
}

/**
 * Every schema reachable from the tasks' request and response schemas, in sorted `$id` order.
 *
 * @param schemas The release's schema files by `$id`.
 * @param roots The `$id`s to start from.
 * @returns The reachable schema files.
 * @throws Error for a `$ref` no schema file declares, naming the file and where in it.
 * @example
 * reachable(schemas, manifest.tasks.map((t) => t.response));
 */
export function reachable(schemas: ReadonlyMap<string, SchemaFile>, roots: readonly string[]): SchemaFile[] {
  const seen = new Set<string>();
  const stack: Array<readonly [string, string]> = roots.map((id) => [id, 'the manifest']);
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [id, from] = next;
    if (seen.has(id)) continue;
    const file = schemas.get(id);
    if (file === undefined)
      throw new Error(`unresolved $ref: ${from} names ${id.slice(0, 200)}, which no schema file of the release declares`);
    seen.add(id);
    for (const [ref, at] of externalRefs(file.schema, '', new Map())) stack.push([ref, `${file.rel}#${at}`]);
  }
  return [...seen].sort().map((id) => schemas.get(id) as SchemaFile);
}
