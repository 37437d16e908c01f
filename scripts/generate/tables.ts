/**
 * The tables: per version `index.ts` (tasks, schema ids, error-code → recovery table and policy),
 * `envelope.ts` (the enums and required fields of the task envelopes) and the validators' import
 * map; over all versions `index.ts` (the versions and their tables) and `envelope.ts`.
 */
import { ASYNC_STATUSES, type Json, type Manifest, type SchemaFile } from './load.js';
import { banner, layoutImport, versionIdent } from './output.js';

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
      const async = ASYNC_STATUSES.filter((s) => t.async[s] !== undefined)
        .map((s) => `${q(s)}: ${q(t.async[s]!)}`)
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
 * The import map of a version's validators (`validators/index.js`, task → imports of its two
 * modules) and its declaration: every specifier a literal, so bundlers follow it and can split
 * the validators per task.
 *
 * @param version The AdCP version.
 * @param manifest Its tasks.
 * @returns `validators/index.js` and `validators/index.d.ts`.
 * @example
 * importMap('3.1.19', manifest).get('validators/index.js');
 */
export function importMap(version: string, manifest: Manifest): Map<string, string> {
  const entries = manifest.tasks.map(
    (t) => `  ${t.name}: { fast: () => import('./${t.name}.js'), listing: () => import('./${t.name}.errors.js') },`,
  );
  return new Map([
    [
      'validators/index.js',
      `${banner(version)}
/** Per task: imports of its fast and its error-listing validator modules. */
export const validators = {
${entries.join('\n')}
};
`,
    ],
    [
      'validators/index.d.ts',
      `${banner(version)}import type { ValidatorImports } from '${layoutImport(`${versionIdent(version)}/validators/index.d.ts`, 'validators')}';

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
  ['tasksGetRequired', 'core/tasks-get-response.json', 'required', "a task status response's required fields"],
] as const;

/**
 * The `envelope.ts` module of a version: the enums and required fields of the task envelopes
 * (webhook payload, task status), read from the schemas so the hand-written checks need no copy.
 *
 * @param version The AdCP version.
 * @param schemas Its schema files by `$id`.
 * @returns The module's text.
 * @throws Error when a schema is missing or the list is not an array of strings.
 * @example
 * envelopeModule('3.1.19', schemas);
 */
export function envelopeModule(version: string, schemas: ReadonlyMap<string, SchemaFile>): string {
  const lists = ENVELOPE_LISTS.map(([name, rel, key, what]) => {
    const list: Json | undefined = schemas.get(`/schemas/${version}/${rel}`)?.schema[key];
    if (!Array.isArray(list) || list.length === 0 || !list.every((v) => typeof v === 'string')) {
      throw new Error(`${version}/${rel}: expected \`${key}\` to be a list of strings`);
    }
    const items = list.map((v) => `  ${JSON.stringify(v)},`).join('\n');
    return `/** \`${rel}\` \`${key}\`: ${what}. */\nexport const ${name} = [\n${items}\n] as const;\n`;
  });
  return `${banner(version)}\n${lists.join('\n')}`;
}

/**
 * The root `envelope.ts`: each envelope list of every pinned version, by version.
 *
 * @param versions The pinned versions, default first.
 * @returns The module's text.
 * @example
 * rootEnvelope(['3.1.19', '3.0.26']);
 */
export function rootEnvelope(versions: readonly string[]): string {
  const imports = versions.map((v) => `import * as ${versionIdent(v)} from './${versionIdent(v)}/envelope.js';`);
  const lists = ENVELOPE_LISTS.map(([name, rel, key, what]) => {
    const entries = versions.map((v) => `  ${JSON.stringify(v)}: ${versionIdent(v)}.${name},`).join('\n');
    return `/** \`${rel}\` \`${key}\` of each pinned version: ${what}. */\nexport const ${name}ByVersion = {\n${entries}\n} as const;\n`;
  });
  return `${banner(undefined)}${imports.join('\n')}\n\n${lists.join('\n')}`;
}

/**
 * The root `index.ts`: the pinned versions, default first, and each version's tables, module
 * folder, validator import map and response types.
 *
 * @param versions The pinned versions, default first.
 * @returns The module's text.
 * @example
 * rootIndex(['3.1.19', '3.0.26']);
 */
export function rootIndex(versions: readonly string[]): string {
  const imports = versions.map((v) => `import { tables as ${versionIdent(v)} } from './${versionIdent(v)}/index.js';`);
  const types = versions.map((v) => `import type { Responses as ${versionIdent(v)}Responses } from './${versionIdent(v)}/responses.js';`);
  const maps = versions.map(
    (v) => `import { validators as ${versionIdent(v)}Validators } from './${versionIdent(v)}/validators/index.js';`,
  );
  return `${banner(undefined)}import type { VersionTables } from '${layoutImport('index.ts', 'tables')}';
import type { ValidatorImports } from '${layoutImport('index.ts', 'validators')}';
${imports.join('\n')}
${maps.join('\n')}
${types.join('\n')}

/** The pinned AdCP versions, default first. */
export const versions = [${versions.map((v) => JSON.stringify(v)).join(', ')}] as const;

/** A pinned AdCP version. */
export type Version = (typeof versions)[number];

/** The default AdCP version (the lock's \`defaultVersion\`). */
export const defaultVersion: Version = ${JSON.stringify(versions[0])};

/** The tables of each pinned version. */
export const tablesByVersion: { readonly [V in Version]: VersionTables<string> } = {
${versions.map((v) => `  ${JSON.stringify(v)}: ${versionIdent(v)},`).join('\n')}
};

/** The folder of each version's generated modules, beside this file. */
export const versionFolders: { readonly [V in Version]: string } = {
${versions.map((v) => `  ${JSON.stringify(v)}: ${JSON.stringify(versionIdent(v))},`).join('\n')}
};

/** The validator import map of each version (task → its modules, imported on first use). */
export const validatorsByVersion: { readonly [V in Version]: ValidatorImports } = {
${versions.map((v) => `  ${JSON.stringify(v)}: ${versionIdent(v)}Validators,`).join('\n')}
};

/** Task → response type, per version. */
export interface ResponsesByVersion {
${versions.map((v) => `  ${JSON.stringify(v)}: ${versionIdent(v)}Responses;`).join('\n')}
}
`;
}
