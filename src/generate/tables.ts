/**
 * A release's tables as data, what its release object holds (src/schema/release.ts): its tasks,
 * schema ids and error codes; its envelope facts (the task types, protocols and required fields
 * of the task envelopes, which module checks a webhook and a task-status poll); its request
 * table; what its manifest states of each tool; which validator judges a terminal result; its
 * patch table. And the validators' import map, task or module → imports of its modules.
 */
import { type AdcpRelease, pinOf, RELEASE_FORMAT, type ReleaseEnvelope, type ResultJudge } from '../schema/release.js';
import type { PatchJudges, TaskSchemaIds } from '../schema/tables.js';
import { GET_TASK_STATUS, resultModule, TASKS_GET, WEBHOOK_ENVELOPE } from './envelopes.js';
import type { Json, Manifest, SchemaFile } from './load.js';
import { requestFacts, requestTable } from './requests.js';

/** A release object's data: everything but where its validators are (`files`, `validators`), which each output writes its own way. */
export type ReleaseData = Omit<AdcpRelease, 'files' | 'validators'>;

/** The envelope lists of a release: member, the schema it comes from, and where in it. */
const ENVELOPE_LISTS = [
  ['taskTypes', 'enums/task-type.json', 'enum'],
  ['protocols', 'enums/adcp-protocol.json', 'enum'],
  ['webhookRequired', 'core/mcp-webhook-payload.json', 'required'],
] as const;

/** A list of strings a schema holds at `key`, or an error naming the file. */
function listOf(manifest: Manifest, schemas: ReadonlyMap<string, SchemaFile>, rel: string, key: string): string[] {
  const list: Json | undefined = schemas.get(`${manifest.base}${rel}`)?.schema[key];
  if (!Array.isArray(list) || list.length === 0 || !list.every((v) => typeof v === 'string'))
    throw new Error(`AdCP ${manifest.version}/${rel}: expected \`${key}\` to be a list of strings`);
  return list as string[];
}

/** The envelope facts: the enums and required fields of the task envelopes, and which modules check a webhook and a poll. */
function envelopeFacts(manifest: Manifest, schemas: ReadonlyMap<string, SchemaFile>): ReleaseEnvelope {
  const [taskTypes, protocols, webhookRequired] = ENVELOPE_LISTS.map(([, rel, key]) => listOf(manifest, schemas, rel, key));
  let taskStatusPoll: ReleaseEnvelope['taskStatusPoll'];
  if (manifest.tasks.some((t) => t.name === GET_TASK_STATUS)) taskStatusPoll = { method: GET_TASK_STATUS, task: GET_TASK_STATUS };
  else {
    const schemaId = `${manifest.base}${TASKS_GET.request}`;
    const file = schemas.get(schemaId);
    if (file === undefined) throw new Error(`AdCP ${manifest.version}/${TASKS_GET.request}: the poll's request schema is missing`);
    taskStatusPoll = {
      method: TASKS_GET.method,
      module: TASKS_GET.module,
      request: { schemaId, stamps: requestFacts(file.schema, schemas).stamps },
    };
  }
  return {
    taskTypes: taskTypes!,
    protocols: protocols!,
    webhookRequired: webhookRequired!,
    webhookEnvelope: WEBHOOK_ENVELOPE,
    taskStatusPoll,
    outcomeStatuses: manifest.outcomeStatuses,
  };
}

/**
 * Which validator judges a task type's terminal result where it is not its own tool's response:
 * a module of its own per schema the manifest's overrides (or the line's result exceptions) name.
 */
function resultsOf(manifest: Manifest): Record<string, ResultJudge> {
  return Object.fromEntries(
    Object.entries(manifest.resultOverrides ?? {}).map(([taskType, schema]) => [taskType, { validators: resultModule(taskType), schema }]),
  );
}

/**
 * A release object's data, read from its manifest and schemas.
 *
 * @param manifest The release's manifest.
 * @param schemas Its schema files.
 * @param patches Its patch table.
 * @param from The generator, and the SHA-256 of the source.
 * @returns The data.
 * @throws Error when an envelope schema lacks a list, or a result exception names a task the release lacks.
 * @example
 * releaseData(manifest, schemas, {}, { generator: 'adcp-decode 0.1.0', sha256 }).tables.tasks;
 */
export function releaseData(
  manifest: Manifest,
  schemas: ReadonlyMap<string, SchemaFile>,
  patches: PatchJudges,
  from: { readonly generator: string; readonly sha256: string },
): ReleaseData {
  const schemaIds: Record<string, TaskSchemaIds> = {};
  for (const t of manifest.tasks) schemaIds[t.name] = { response: t.response, async: t.async };
  return {
    format: RELEASE_FORMAT,
    version: manifest.version,
    release: pinOf(manifest.version),
    generator: from.generator,
    sourceSha256: from.sha256,
    tables: {
      version: manifest.version,
      tasks: manifest.tasks.map((t) => t.name),
      schemaIds,
      errorCodes: Object.fromEntries(manifest.errorCodes),
      defaultUnknownRecovery: manifest.defaultUnknownRecovery,
    },
    envelope: envelopeFacts(manifest, schemas),
    requests: requestTable(manifest, schemas),
    tools: manifest.tools,
    results: resultsOf(manifest),
    patches,
  };
}

/**
 * The import map of a release's validators as source lines: per task or module, imports of its
 * fast and its error-listing modules (a patch fallback's: fast only), every specifier a literal so
 * that bundlers follow it and split the validators per task.
 *
 * @param names The tasks, then the modules beside them (envelopes, result overrides).
 * @param patches The patch fallback's modules.
 * @param dir The folder of the modules, relative to the map (`.`, `./validators`).
 * @param indent The indentation of each line.
 * @returns One line per key.
 * @example
 * importLines(['get_products'], [], '.', '  '); // ["  get_products: { fast: () => import('./get_products.js'), listing: … },"]
 */
export function importLines(names: readonly string[], patches: readonly string[], dir: string, indent: string): string[] {
  const lines = names.map(
    (name) =>
      `${indent}${/^[a-z_]+$/.test(name) ? name : JSON.stringify(name)}: { fast: () => import('${dir}/${name}.js'), listing: () => import('${dir}/${name}.errors.js') },`,
  );
  // A patch fallback's module has a verdict only: a refusal lists the release's own issues.
  for (const name of [...new Set(patches)].sort())
    lines.push(`${indent}${JSON.stringify(name)}: { fast: () => import('${dir}/${name}.js') },`);
  return lines;
}
