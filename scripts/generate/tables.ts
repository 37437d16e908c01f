/**
 * The tables: per version `index.ts` (tasks, schema ids, error-code → recovery table and policy),
 * `envelope.ts` (the enums and required fields of the task envelopes, the task statuses, which
 * envelope modules check what) and the validators' import map; over all versions `index.ts` (the
 * versions and their tables) and `envelope.ts`.
 */
import { GET_TASK_STATUS, TASKS_GET, WEBHOOK_ENVELOPE } from './envelopes.js';
import type { Json, Manifest, SchemaFile } from './load.js';
import { banner, layoutImport, versionIdent } from './output.js';
import { requestFacts } from './requests.js';
import type { ExtraModule } from './validators.js';

/**
 * The `index.ts` module of a version: its tasks, their schema `$id`s and its error codes.
 *
 * @param version The AdCP version.
 * @param manifest Its manifest.
 * @returns The module's text.
 * @example
 * tableModule('3.1.19', manifest);
 */
export function tableModule(version: string, manifest: Manifest): string {
  const q = (s: string) => JSON.stringify(s);
  const tasks = manifest.tasks.map((t) => `  ${q(t.name)},`).join('\n');
  const schemaIds = manifest.tasks
    .map((t) => {
      const async = Object.entries(t.async)
        .map(([s, id]) => `${q(s)}: ${q(id)}`)
        .join(', ');
      return `  ${t.name}: { response: ${q(t.response)}, async: { ${async} } },`;
    })
    .join('\n');
  const codes = manifest.errorCodes.map(([c, r]) => `  ${c}: ${q(r)},`).join('\n');
  return `${banner(version)}import type { TaskSchemaIds, VersionTables } from '${layoutImport(`${versionIdent(version)}/index.ts`, 'tables')}';

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

/**
 * The import map of a version's validators (`validators/index.js`, task or envelope module →
 * imports of its two modules) and its declaration: every specifier a literal, so bundlers follow
 * it and can split the validators per task.
 *
 * @param version The AdCP version.
 * @param manifest Its tasks.
 * @param extra The envelope modules beside them.
 * @param patches The patch fallback's modules (scripts/generate/patches.ts), verdict only.
 * @returns `validators/index.js` and `validators/index.d.ts`.
 * @example
 * importMap('3.1.19', manifest, envelopes).get('validators/index.js');
 */
export function importMap(
  version: string,
  manifest: Manifest,
  extra: readonly ExtraModule[] = [],
  patches: readonly string[] = [],
): Map<string, string> {
  const names = [...manifest.tasks.map((t) => t.name), ...extra.map((m) => m.name)];
  const entries = names.map(
    (name) =>
      `  ${/^[a-z_]+$/.test(name) ? name : JSON.stringify(name)}: { fast: () => import('./${name}.js'), listing: () => import('./${name}.errors.js') },`,
  );
  // A patch fallback's module has a verdict only: a refusal lists the bundled patch's issues.
  for (const name of [...new Set(patches)].sort()) entries.push(`  ${JSON.stringify(name)}: { fast: () => import('./${name}.js') },`);
  return new Map([
    [
      'validators/index.js',
      `${banner(version)}
/** Per task: imports of its fast and its error-listing validator modules (a patch fallback's: fast only). */
export const validators = {
${entries.join('\n')}
};
`,
    ],
    [
      'validators/index.d.ts',
      `${banner(version)}import type { ValidatorImports } from '${layoutImport(`${versionIdent(version)}/validators/index.d.ts`, 'tables')}';

/** Per task: imports of its fast and its error-listing validator modules. */
export declare const validators: ValidatorImports;
`,
    ],
  ]);
}

/** The envelope lists of a version: export name, the schema it comes from, where in it, and what it is. */
const ENVELOPE_LISTS = [
  ['taskTypes', 'enums/task-type.json', 'enum', 'the task types a webhook envelope or a task status names'],
  ['protocols', 'enums/adcp-protocol.json', 'enum', 'the AdCP protocols'],
  ['webhookRequired', 'core/mcp-webhook-payload.json', 'required', "the MCP webhook envelope's required fields"],
] as const;

/** The 3.0 poll's request as encode() reads it: its schema `$id` and the version fields it defines (stamped). */
function pollRequest(version: string, schemas: ReadonlyMap<string, SchemaFile>): string {
  const schemaId = `/schemas/${version}/${TASKS_GET.request}`;
  const file = schemas.get(schemaId);
  if (file === undefined) throw new Error(`${version}/${TASKS_GET.request}: the poll's request schema is missing`);
  const { stamps } = requestFacts(file.schema, schemas);
  return `{ schemaId: ${JSON.stringify(schemaId)}, stamps: ${JSON.stringify(stamps)} }`;
}

/**
 * The `envelope.ts` module of a version: the enums and required fields of the task envelopes,
 * the statuses with async schemas, and which envelope module checks a webhook and a task-status
 * poll (`get_task_status` where the manifest has it, else the `tasks/get` response's module).
 *
 * @param version The AdCP version.
 * @param schemas Its schema files by `$id`.
 * @param manifest Its tasks and async statuses.
 * @returns The module's text.
 * @throws Error when a schema is missing or the list is not an array of strings.
 * @example
 * envelopeModule('3.1.19', schemas, manifest);
 */
export function envelopeModule(version: string, schemas: ReadonlyMap<string, SchemaFile>, manifest: Manifest): string {
  const lists = ENVELOPE_LISTS.map(([name, rel, key, what]) => {
    const list: Json | undefined = schemas.get(`/schemas/${version}/${rel}`)?.schema[key];
    if (!Array.isArray(list) || list.length === 0 || !list.every((v) => typeof v === 'string')) {
      throw new Error(`${version}/${rel}: expected \`${key}\` to be a list of strings`);
    }
    const items = list.map((v) => `  ${JSON.stringify(v)},`).join('\n');
    return `/** \`${rel}\` \`${key}\`: ${what}. */\nexport const ${name} = [\n${items}\n] as const;\n`;
  });
  const q = JSON.stringify;
  const poll = manifest.tasks.some((t) => t.name === GET_TASK_STATUS)
    ? `{ method: ${q(GET_TASK_STATUS)}, task: ${q(GET_TASK_STATUS)} }`
    : `{ method: ${q(TASKS_GET.method)}, module: ${q(TASKS_GET.module)}, request: ${pollRequest(version, schemas)} }`;
  const extra = `/** The validator module (import map key) of the MCP webhook envelope, \`core/mcp-webhook-payload.json\`. */
export const webhookEnvelope = ${q(WEBHOOK_ENVELOPE)};

/** How a task-status poll is judged: by the \`get_task_status\` task, or by the \`tasks/get\` response's module. */
export const taskStatusPoll = ${poll} as const;
`;
  return `${banner(version)}\n${lists.join('\n')}\n${extra}`;
}

/** What every pinned version shares, as one list: the same in each, or codegen stops. */
const SHARED_LISTS = [
  ['taskStatuses', 'The task statuses (`enums/task-status.json`), the same in every pinned version'],
  ['asyncStatuses', "The task statuses with async response schemas (manifest.json), in the enum's order, the same in every pinned version"],
] as const;

/**
 * The root `envelope.ts`: each envelope list of every pinned version, by version, and the lists
 * every version shares (the task statuses) once.
 *
 * @param manifests The pinned versions' manifests, default first.
 * @returns The module's text.
 * @throws Error when the versions' task statuses differ (the types assume one list).
 * @example
 * rootEnvelope(new Map([['3.1.19', m31], ['3.0.26', m30]]));
 */
export function rootEnvelope(manifests: ReadonlyMap<string, Manifest>): string {
  const versions = [...manifests.keys()];
  const imports = versions.map((v) => `import * as ${versionIdent(v)} from './${versionIdent(v)}/envelope.js';`);
  const byVersion: Array<readonly [string, string, string]> = [
    ...ENVELOPE_LISTS.map(([name, rel, key, what]) => [name, `\`${rel}\` \`${key}\``, what] as const),
    ['webhookEnvelope', 'The webhook envelope module', 'its import map key'],
    ['taskStatusPoll', 'How a task-status poll is judged', 'the task, or the envelope module'],
  ];
  const lists = byVersion.map(([name, title, what]) => {
    const entries = versions.map((v) => `  ${JSON.stringify(v)}: ${versionIdent(v)}.${name},`).join('\n');
    return `/** ${title} of each pinned version: ${what}. */\nexport const ${name}ByVersion = {\n${entries}\n} as const;\n`;
  });
  const shared = SHARED_LISTS.map(([name, what]) => {
    const lists = [...manifests.values()].map((m) => m[name]);
    const shown = new Set(lists.map((list) => JSON.stringify(list)));
    if (lists[0] === undefined || shown.size !== 1) throw new Error(`the pinned versions' ${name} differ: ${[...shown].join(' vs ')}`);
    return `/** ${what}. */\nexport const ${name} = [${lists[0].map((s) => JSON.stringify(s)).join(', ')}] as const;\n`;
  });
  return `${banner(undefined)}${imports.join('\n')}\n\n${lists.join('\n')}\n${shared.join('\n')}`;
}

/**
 * The root `versions.ts`: the pinned versions, default first, in a module of their own that
 * imports nothing, so that a pinned entry's declarations (which name them) reach no release's types.
 *
 * @param versions The pinned versions, default first.
 * @returns The module's text.
 * @example
 * rootVersions(['3.1.19', '3.0.26']);
 */
export function rootVersions(versions: readonly string[]): string {
  return `${banner(undefined)}/** The pinned AdCP versions, default first. */
export const versions = [${versions.map((v) => JSON.stringify(v)).join(', ')}] as const;

/** A pinned AdCP version. */
export type Version = (typeof versions)[number];

/** The default AdCP version (the lock's \`defaultVersion\`). */
export const defaultVersion: Version = ${JSON.stringify(versions[0])};
`;
}

/**
 * The root `index.ts`: the pinned versions (from {@link rootVersions}' module), and each version's
 * tables, module folder and response types (the validator import maps are in {@link rootValidatorMaps}'s module).
 *
 * @param versions The pinned versions, default first.
 * @returns The module's text.
 * @example
 * rootIndex(['3.1.19', '3.0.26']);
 */
export function rootIndex(versions: readonly string[]): string {
  const imports = versions.map((v) => `import { tables as ${versionIdent(v)} } from './${versionIdent(v)}/index.js';`);
  const types = versions.map((v) => `import type { Responses as ${versionIdent(v)}Responses } from './${versionIdent(v)}/responses.js';`);
  return `${banner(undefined)}import type { VersionTables } from '${layoutImport('index.ts', 'tables')}';
import type { Version } from './versions.js';
${imports.join('\n')}
${types.join('\n')}

export { defaultVersion, type Version, versions } from './versions.js';

/** The tables of each pinned version. */
export const tablesByVersion: { readonly [V in Version]: VersionTables<string> } = {
${versions.map((v) => `  ${JSON.stringify(v)}: ${versionIdent(v)},`).join('\n')}
};

/** The folder of each version's generated modules, beside this file. */
export const versionFolders: { readonly [V in Version]: string } = {
${versions.map((v) => `  ${JSON.stringify(v)}: ${JSON.stringify(versionIdent(v))},`).join('\n')}
};

/** Task → response type, per version. */
export interface ResponsesByVersion {
${versions.map((v) => `  ${JSON.stringify(v)}: ${versionIdent(v)}Responses;`).join('\n')}
}
`;
}

/**
 * The root `validator-maps.ts`: the validator import map of each version, in a module of its own
 * that only the root `preload` imports, so that a bundle of a pinned entry (which preloads through
 * its own release's map) reaches no other release's validators: a bundler emits a chunk for every
 * `import()` it parses, reached or not.
 *
 * @param versions The pinned versions, default first.
 * @returns The module's text.
 * @example
 * rootValidatorMaps(['3.1.19', '3.0.26']);
 */
export function rootValidatorMaps(versions: readonly string[]): string {
  const maps = versions.map((v) => `import { validators as ${versionIdent(v)} } from './${versionIdent(v)}/validators/index.js';`);
  return `${banner(undefined)}import type { ValidatorImports } from '${layoutImport('validator-maps.ts', 'tables')}';
import type { Version } from './index.js';
${maps.join('\n')}

/** The validator import map of each version (task → its modules, imported on first use). */
export const validatorsByVersion: { readonly [V in Version]: ValidatorImports } = {
${versions.map((v) => `  ${JSON.stringify(v)}: ${versionIdent(v)},`).join('\n')}
};
`;
}
