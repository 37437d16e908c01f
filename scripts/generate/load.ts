/**
 * Codegen's input: every draft-07 schema file of a version (de-duplicated by `$id`, with the
 * exceptions of exceptions.ts applied), its manifest.json (tasks, response schemas, error codes),
 * its task statuses and the schemas reachable from the tasks.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { listFiles } from '../schema-paths.js';
import { applyExceptions } from './exceptions.js';

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** A schema file of a version. */
export interface SchemaFile {
  readonly id: string;
  /** Path relative to the version folder, with `/`, e.g. `core/product.json`. */
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
  /** The manifest's `mutating`, where it states one. */
  readonly mutating?: boolean;
}

/** What codegen reads from a version's manifest.json and its task-status enum. */
export interface Manifest {
  readonly tasks: readonly TaskEntry[];
  readonly errorCodes: ReadonlyArray<readonly [string, string]>;
  readonly defaultUnknownRecovery: string;
  /** `enums/task-status.json`'s `enum`, in its order. */
  readonly taskStatuses: readonly string[];
  /** The task statuses some task has an async response schema for, in the enum's order. */
  readonly asyncStatuses: readonly string[];
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

/**
 * Every draft-07 schema file of a version by `$id`; a repeated `$id` must repeat the same schema.
 *
 * @param version The AdCP version, e.g. `3.1.19`.
 * @param root Its synced schema folder.
 * @returns `$id` → schema file.
 * @throws Error for a schema that is not draft-07, an `$id` outside the version, or an `$id` declared twice with different content.
 * @example
 * loadSchemas('3.1.19', schemaDir('3.1.19')).get('/schemas/3.1.19/core/product.json');
 */
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
  applyExceptions(version, byId);
  return byId;
}

/** `enums/task-status.json`'s `enum` of a version, which names the async variants' statuses. */
function readTaskStatuses(version: string, root: string): string[] {
  const schema: unknown = JSON.parse(readFileSync(path.join(root, 'enums', 'task-status.json'), 'utf8'));
  const list = isObject(schema) ? schema.enum : undefined;
  if (!Array.isArray(list) || list.length === 0 || !list.every((v) => typeof v === 'string')) {
    throw new Error(`${version}/enums/task-status.json: expected \`enum\` to be a list of strings`);
  }
  return list as string[];
}

/**
 * A version's manifest.json: its tasks (sorted) with their request and response schemas, and its error codes.
 *
 * @param version The AdCP version.
 * @param root Its synced schema folder.
 * @returns The tasks, error codes and the recovery of an unknown code.
 * @throws Error when the manifest lacks a field codegen needs.
 * @example
 * readManifest('3.1.19', schemaDir('3.1.19')).tasks.length;
 */
export function readManifest(version: string, root: string): Manifest {
  const taskStatuses = readTaskStatuses(version, root);
  const m: unknown = JSON.parse(readFileSync(path.join(root, 'manifest.json'), 'utf8'));
  if (!isObject(m) || !isObject(m.tools) || !isObject(m.error_codes) || !isObject(m.error_code_policy)) {
    throw new Error(`${version}/manifest.json: expected tools, error_codes and error_code_policy objects`);
  }
  const tasks: TaskEntry[] = [];
  for (const name of Object.keys(m.tools).sort()) {
    const tool: Json | undefined = m.tools[name];
    if (
      !isObject(tool) ||
      typeof tool.request_schema !== 'string' ||
      typeof tool.response_schema !== 'string' ||
      !Array.isArray(tool.async_response_schemas)
    ) {
      throw new Error(`${version}/manifest.json: tools.${name} lacks request_schema, response_schema or async_response_schemas`);
    }
    const byStatus = new Map<string, string>();
    for (const rel of tool.async_response_schemas as Json[]) {
      const status = taskStatuses.find((s) => typeof rel === 'string' && rel.endsWith(`-async-response-${s}.json`));
      if (status === undefined || typeof rel !== 'string') {
        throw new Error(`${version}/manifest.json: tools.${name}: cannot tell the task status of async schema ${String(rel)}`);
      }
      byStatus.set(status, `/schemas/${version}/${rel}`);
    }
    // Keyed in the enum's order, so every table written from it is in one order.
    const async = Object.fromEntries(taskStatuses.flatMap((s) => (byStatus.has(s) ? [[s, byStatus.get(s)!]] : [])));
    tasks.push({
      name,
      request: `/schemas/${version}/${tool.request_schema}`,
      response: `/schemas/${version}/${tool.response_schema}`,
      async,
      ...(typeof tool.mutating === 'boolean' ? { mutating: tool.mutating } : {}),
    });
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
  const asyncStatuses = taskStatuses.filter((s) => tasks.some((t) => Object.hasOwn(t.async, s)));
  return { tasks, errorCodes, defaultUnknownRecovery: policy, taskStatuses, asyncStatuses };
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

/**
 * Every schema reachable from the tasks' request and response schemas, in sorted `$id` order.
 *
 * @param schemas The version's schema files by `$id`.
 * @param roots The `$id`s to start from.
 * @returns The reachable schema files.
 * @throws Error for a `$ref` no schema file declares.
 * @example
 * reachable(schemas, manifest.tasks.map((t) => t.response));
 */
export function reachable(schemas: Map<string, SchemaFile>, roots: readonly string[]): SchemaFile[] {
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
