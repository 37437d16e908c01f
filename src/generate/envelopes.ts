/**
 * The envelope checks: validator modules compiled like the tasks' from the schemas of what
 * encloses a task result, the MCP webhook payload (`core/mcp-webhook-payload.json`, every
 * version) and, where no `get_task_status` task exists (3.0), the `tasks/get` response
 * (`core/tasks-get-response.json`). An envelope's `result` is compiled as "an object": the
 * result is judged by its own task's schema, picked by `task_type` and `status` (compiling the
 * schemas' `async-response-data.json` union of every task would judge it twice, less precisely),
 * or by the schema the manifest names for that task type's terminal result (a result override,
 * 3.2's `task_result_resolution`), compiled as a module of its own.
 */
import { isObject, type JsonObject, type Manifest, type SchemaFile } from './load.js';

/** The webhook envelope's module: its name in the import map (no task name has a `-`). */
export const WEBHOOK_ENVELOPE = 'mcp-webhook-payload';

/** The 3.0 task-status poll's module, the JSON-RPC method it answers, and the schema of its request. */
export const TASKS_GET = { module: 'tasks-get-response', method: 'tasks/get', request: 'core/tasks-get-request.json' } as const;

/**
 * The `$id` of the 3.0 poll's request schema where the version has no `get_task_status` task.
 *
 * @param manifest The release's tasks and `$id` base.
 * @returns The `$id`, or undefined where `get_task_status` is a task.
 * @example
 * tasksGetRequest(manifest); // '/schemas/3.0.26/core/tasks-get-request.json'
 */
export function tasksGetRequest(manifest: Manifest): string | undefined {
  return manifest.tasks.some((t) => t.name === GET_TASK_STATUS) ? undefined : `${manifest.base}${TASKS_GET.request}`;
}

/** The task that answers a task-status poll where the manifest has it (3.1 on). */
export const GET_TASK_STATUS = 'get_task_status';

/**
 * The schema an envelope module compiles: the file itself, or, where it has a `result`, a copy
 * whose `result` is any object, under its own `$id` beside the file's (so its `$ref`s resolve).
 */
function envelopeSchema(manifest: Manifest, rel: string, schemas: ReadonlyMap<string, SchemaFile>): { root: string; derived?: SchemaFile } {
  const { version, base } = manifest;
  const id = `${base}${rel}`;
  const file = schemas.get(id);
  if (file === undefined) throw new Error(`AdCP ${version}/${rel}: the envelope schema is missing`);
  const properties = file.schema.properties;
  if (!isObject(properties) || properties.result === undefined) return { root: id };
  const derivedId = id.replace(/\.json$/, '.envelope.json');
  if (schemas.has(derivedId)) throw new Error(`AdCP ${version}: ${derivedId} clashes with a schema file`);
  const schema: JsonObject = { ...file.schema, $id: derivedId, properties: { ...properties, result: { type: 'object' } } };
  return { root: derivedId, derived: { id: derivedId, rel: derivedId.slice(base.length), schema } };
}

/**
 * The module of a result override (3.2's `task_result_resolution.terminal_schema_overrides`): the
 * import map key of the validator that judges a task type's terminal result.
 *
 * @param taskType The task type, e.g. `media_buy_delivery`.
 * @returns Its module's name, e.g. `result-media_buy_delivery` (no task name has a `-`).
 * @example
 * resultModule('media_buy_delivery'); // 'result-media_buy_delivery'
 */
export function resultModule(taskType: string): string {
  return `result-${taskType}`;
}

/**
 * The validator modules beside the tasks', for validatorModules and the import map: the envelopes
 * (the webhook payload; 3.0's `tasks/get` response), then one per result override, each exporting
 * its schema as `response`.
 *
 * @param manifest The release's tasks (whether `get_task_status` is one), `$id` base and result overrides.
 * @param schemas Its schema files by `$id`.
 * @returns The modules: name, the `$id` compiled as `response`, the derived schema if any.
 * @throws Error when an envelope schema is missing or a derived `$id` clashes.
 * @example
 * envelopeModules(manifest, schemas).map((m) => m.name); // ['mcp-webhook-payload', 'tasks-get-response']
 */
export function envelopeModules(manifest: Manifest, schemas: ReadonlyMap<string, SchemaFile>): ExtraModule[] {
  const { version, base } = manifest;
  const modules: ExtraModule[] = [{ name: WEBHOOK_ENVELOPE, ...envelopeSchema(manifest, 'core/mcp-webhook-payload.json', schemas) }];
  if (!manifest.tasks.some((t) => t.name === GET_TASK_STATUS)) {
    const request = `${base}${TASKS_GET.request}`;
    if (!schemas.has(request)) throw new Error(`AdCP ${version}/${TASKS_GET.request}: the poll's request schema is missing`);
    modules.push({ name: TASKS_GET.module, ...envelopeSchema(manifest, 'core/tasks-get-response.json', schemas), request });
  }
  for (const [taskType, root] of Object.entries(manifest.resultOverrides ?? {})) modules.push({ name: resultModule(taskType), root });
  for (const { name } of modules) {
    if (manifest.tasks.some((t) => t.name === name)) throw new Error(`AdCP ${version}: envelope module ${name} clashes with a task`);
  }
  return modules;
}

/**
 * A validator module beside the tasks' (an envelope: the MCP webhook payload, 3.0's tasks/get
 * response): its name in the import map, the schema `$id` it exports as `response`, and the
 * schema codegen derived for it, when it is not one of the version's files.
 */
export interface ExtraModule {
  readonly name: string;
  readonly root: string;
  /** The request schema `$id` it exports as `request` (3.0's `tasks/get` request, which encode() checks). */
  readonly request?: string | undefined;
  readonly derived?: SchemaFile | undefined;
}
