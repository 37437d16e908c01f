/**
 * Schema inputs of the baselines, built from the synced AdCP files:
 * - the runtime-compile bundle: every schema of a version with its annotations stripped, exactly
 *   what codegen (scripts/generate/validators.ts) feeds Ajv, in one JSON file a cold child process reads in one go;
 * - a tool's self-contained `outputSchema`, as a seller would advertise it over MCP (the response
 *   schema with every schema it references embedded under `definitions`, keeping their `$id`s).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { schemaDir } from '../scripts/schema-paths.js';
import { loadSchemas as loadSchemaFiles } from '../src/generate/load.js';
import { ANNOTATION_KEYWORDS, stripAnnotations } from '../src/generate/validators.js';
import type { RuntimeBundle } from './runtime-ajv.mjs';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every schema of a version by `$id`, loaded as codegen loads them. */
export function loadSchemas(version: string): Map<string, JsonObject> {
  return new Map([...loadSchemaFiles(version, schemaDir(version))].map(([id, file]) => [id, file.schema as JsonObject]));
}

/** The `$id` of a task's sync response schema, from the version's manifest. */
export function responseSchemaId(version: string, task: string): string {
  const manifest = JSON.parse(readFileSync(path.join(schemaDir(version), 'manifest.json'), 'utf8')) as {
    tools: Record<string, { response_schema: string }>;
  };
  const tool = manifest.tools[task];
  if (tool === undefined) throw new Error(`no task ${task} in AdCP ${version}`);
  return `/schemas/${version}/${tool.response_schema}`;
}

/** The runtime-compile baseline's input: what codegen gives Ajv, for a process to compile at run time. */
export function runtimeBundle(version: string): RuntimeBundle {
  const schemas = [...loadSchemas(version)].map(([id, schema]) => ({ id, schema: stripAnnotations(schema) as object }));
  return { keywords: ANNOTATION_KEYWORDS, schemas };
}

export function writeRuntimeBundle(version: string, file: string): void {
  writeFileSync(file, JSON.stringify(runtimeBundle(version)));
}

function refs(node: Json, out: Set<string>): void {
  if (Array.isArray(node)) for (const item of node) refs(item, out);
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) out.add(value.split('#')[0]!);
      else if (key !== 'examples' && key !== 'default' && key !== 'const' && key !== 'enum') refs(value, out);
    }
  }
}

/** The `definitions` key a schema is embedded under in an outputSchema. */
function embedKey(id: string, version: string): string {
  return `adcp_${id.slice(`/schemas/${version}/`.length).replace(/[^A-Za-z0-9]/g, '_')}`;
}

/** A copy of `node` with every `$ref` pointing into the outputSchema's `definitions`. */
function relink(node: Json, self: string | undefined, version: string): Json {
  if (Array.isArray(node)) return node.map((item) => relink(item, self, version));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') {
      const [target, fragment = ''] = value.split('#');
      if (target === '' || target === undefined) out[key] = self === undefined ? value : `#/definitions/${self}${fragment}`;
      else out[key] = `#/definitions/${embedKey(target, version)}${fragment}`;
    } else if (key === 'examples' || key === 'default' || key === 'const' || key === 'enum') {
      out[key] = value;
    } else {
      out[key] = relink(value, self, version);
    }
  }
  return out;
}

/**
 * A task's response schema made self-contained, as a seller would advertise it as a tool's MCP
 * `outputSchema`: every schema it reaches is embedded under `definitions` (without its `$id`) and
 * every `$ref` points there, so a fresh Ajv, such as the one inside the MCP SDK client, compiles
 * it without a loader, and several tools' schemas can share one Ajv. Annotations are kept.
 */
export function outputSchema(version: string, task: string): JsonObject {
  const all = loadSchemas(version);
  const rootId = responseSchemaId(version, task);
  const seen = new Set<string>([rootId]);
  const stack = [rootId];
  while (stack.length > 0) {
    const id = stack.pop()!;
    const found = new Set<string>();
    refs(all.get(id) ?? null, found);
    for (const ref of found) {
      if (!seen.has(ref)) {
        if (!all.has(ref)) throw new Error(`${id} references ${ref}, which AdCP ${version} does not define`);
        seen.add(ref);
        stack.push(ref);
      }
    }
  }
  const root = relink(all.get(rootId)!, undefined, version) as JsonObject;
  const definitions: JsonObject = isObject(root.definitions) ? { ...root.definitions } : {};
  for (const id of [...seen].sort()) {
    if (id === rootId) continue;
    const { $schema: _schema, $id: _id, ...schema } = all.get(id)!;
    definitions[embedKey(id, version)] = relink(schema, embedKey(id, version), version);
  }
  root.definitions = definitions;
  return root;
}
