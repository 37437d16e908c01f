/**
 * The envelope checks: validator modules compiled like the tasks' from the schemas of what
 * encloses a task result, the MCP webhook payload (`core/mcp-webhook-payload.json`, every
 * version) and, where no `get_task_status` task exists (3.0), the `tasks/get` response
 * (`core/tasks-get-response.json`). An envelope's `result` is compiled as "an object": the
 * result is judged by its own task's schema, picked by `task_type` and `status` (compiling the
 * schemas' `async-response-data.json` union of every task would judge it twice, less precisely).
 */
import { isObject, type JsonObject, type Manifest, type SchemaFile } from './load.js';
import type { ExtraModule } from './validators.js';

/** The webhook envelope's module: its name in the import map (no task name has a `-`). */
export const WEBHOOK_ENVELOPE = 'mcp-webhook-payload';

/** The 3.0 task-status poll's module, the JSON-RPC method it answers, and the schema of its request. */
export const TASKS_GET = { module: 'tasks-get-response', method: 'tasks/get', request: 'core/tasks-get-request.json' } as const;

/**
 * The `$id` of the 3.0 poll's request schema where the version has no `get_task_status` task.
 *
 * @param version The AdCP version.
 * @param manifest Its tasks.
 * @returns The `$id`, or undefined where `get_task_status` is a task.
 * @example
 * tasksGetRequest('3.0.26', manifest); // '/schemas/3.0.26/core/tasks-get-request.json'
 */
export function tasksGetRequest(version: string, manifest: Manifest): string | undefined {
  return manifest.tasks.some((t) => t.name === GET_TASK_STATUS) ? undefined : `/schemas/${version}/${TASKS_GET.request}`;
}

/** The task that answers a task-status poll where the manifest has it (3.1 on). */
export const GET_TASK_STATUS = 'get_task_status';

/**
 * The schema an envelope module compiles: the file itself, or, where it has a `result`, a copy
 * whose `result` is any object, under its own `$id` beside the file's (so its `$ref`s resolve).
 */
function envelopeSchema(version: string, rel: string, schemas: ReadonlyMap<string, SchemaFile>): { root: string; derived?: SchemaFile } {
  const id = `/schemas/${version}/${rel}`;
  const file = schemas.get(id);
  if (file === undefined) throw new Error(`${version}/${rel}: the envelope schema is missing`);
  const properties = file.schema.properties;
  if (!isObject(properties) || properties.result === undefined) return { root: id };
  const derivedId = id.replace(/\.json$/, '.envelope.json');
  if (schemas.has(derivedId)) throw new Error(`${version}: ${derivedId} clashes with a schema file`);
  const schema: JsonObject = { ...file.schema, $id: derivedId, properties: { ...properties, result: { type: 'object' } } };
  return { root: derivedId, derived: { id: derivedId, rel: derivedId.slice(`/schemas/${version}/`.length), schema } };
}

/**
 * The envelope modules of a version, for validatorModules and the import map.
 *
 * @param version The AdCP version.
 * @param manifest Its tasks (whether `get_task_status` is one).
 * @param schemas Its schema files by `$id`.
 * @returns The modules: name, the `$id` compiled as `response`, the derived schema if any.
 * @throws Error when an envelope schema is missing or a derived `$id` clashes.
 * @example
 * envelopeModules('3.0.26', manifest, schemas).map((m) => m.name); // ['mcp-webhook-payload', 'tasks-get-response']
 */
export function envelopeModules(version: string, manifest: Manifest, schemas: ReadonlyMap<string, SchemaFile>): ExtraModule[] {
  const modules: ExtraModule[] = [{ name: WEBHOOK_ENVELOPE, ...envelopeSchema(version, 'core/mcp-webhook-payload.json', schemas) }];
  if (!manifest.tasks.some((t) => t.name === GET_TASK_STATUS)) {
    const request = `/schemas/${version}/${TASKS_GET.request}`;
    if (!schemas.has(request)) throw new Error(`${version}/${TASKS_GET.request}: the poll's request schema is missing`);
    modules.push({ name: TASKS_GET.module, ...envelopeSchema(version, 'core/tasks-get-response.json', schemas), request });
  }
  for (const { name } of modules) {
    if (manifest.tasks.some((t) => t.name === name)) throw new Error(`${version}: envelope module ${name} clashes with a task`);
  }
  return modules;
}
