/**
 * The releases adcp-decode bundles, written into src/generated/ (`npm run generate`), by the same
 * phases as a buyer's release module (pipeline.ts) and read through the same release object
 * (src/schema/release.ts). What differs is the layout a package needs: TypeScript modules that
 * tsc compiles beside the hand-written code, a pinned entry per release
 * (`adcp-decode/<major>.<minor>`), validators compiled for all the releases at once (the code they
 * share in one set of chunks), each import map apart from its release's tables so that a bundle of
 * one pinned entry holds no other release's validators.
 *
 * Per release `<vX_Y>/`: `release.ts` (its release object), `responses.ts`, `types.ts`,
 * `pinned.ts`, `validators/`. Over all: `versions.ts` (the list, and the `KnownReleases` a
 * release module augments), `releases.ts` (the release objects), and the tables by version the
 * hand-written code and the types read (`index.ts`, `envelope.ts`, `requests.ts`, `patches.ts`,
 * `validator-maps.ts`).
 */
import { pinnedModule } from './entries.js';
import { literal, repeatedValues } from './literal.js';
import type { Json, Manifest } from './load.js';
import {
  assertOnePatchPerRelease,
  BUNDLED_VALIDATORS,
  banner,
  type GeneratorInfo,
  layoutImport,
  type Stamp,
  versionIdent,
} from './output.js';
import { type Prepared, prepare, type ReleaseInput } from './pipeline.js';
import { responseMaps } from './responses.js';
import { importLines } from './tables.js';
import { typesModule } from './type-module.js';
import { validatorModules } from './validators.js';

/** What one release's codegen wrote. */
export interface GenerateReport {
  readonly version: string;
  readonly tasks: number;
  readonly typeModules: number;
  readonly patchValidators: number;
  readonly opened: readonly string[];
}

/** A union of string literals, one per line past a few. */
function union(values: readonly string[], indent: string): string {
  const flat = values.map((v) => JSON.stringify(v)).join(' | ');
  return flat.length <= 100 ? flat : `\n${values.map((v) => `${indent}| ${JSON.stringify(v)}`).join('\n')}`;
}

/**
 * The `responses.ts` module of a bundled release: its response and request maps.
 *
 * @param stamp What the banner says.
 * @param manifest The release's tasks.
 * @param names `$id` → type name.
 * @returns The module's text.
 * @example
 * responsesModule(stamp, manifest, names);
 */
function responsesModule(stamp: Stamp, manifest: Manifest, names: ReadonlyMap<string, string>): string {
  const { types, text } = responseMaps(manifest, names);
  return `${banner(stamp, manifest.version)}import type { AsyncVariant, SyncVariant } from '${layoutImport(`${versionIdent(manifest.version)}/responses.ts`, 'responseTypes')}';
import type {
${types.map((n) => `  ${n},`).join('\n')}
} from './types.js';

${text}`;
}

/** The literal type of a release's task-status poll (what PollMethod reads), naming `RequestRow`. */
function pollType(p: Prepared): string {
  const q = JSON.stringify;
  const poll = p.data.envelope.taskStatusPoll;
  return 'module' in poll
    ? `{ readonly method: ${q(poll.method)}; readonly module: ${q(poll.module)}; readonly request: RequestRow }`
    : `{ readonly method: ${q(poll.method)}; readonly task: ${q(poll.task)} }`;
}

/**
 * A bundled release's `release.ts`: its release object, typed as a release with its envelope's
 * task types and poll as literals (what the types read: PinnedTaskType, PollMethod), so that its
 * declaration names types instead of repeating the object.
 */
function releaseModule(stamp: Stamp, p: Prepared): string {
  const { version } = p.manifest;
  const q = JSON.stringify;
  const ident = versionIdent(version);
  const object = { ...p.data, files: { package: ident } } as unknown as Json;
  const shared = repeatedValues(object);
  return `${banner(stamp, version)}import type { AdcpRelease, ReleaseEnvelope, RequestRow } from '${layoutImport(`${ident}/release.ts`, 'release')}';
import type { TaskTypesByVersion } from '../index.js';

/** The \`$id\` base of its schemas. */
const base = ${q(p.manifest.base)};
${shared.text}
/**
 * AdCP ${version} as data: its tables, envelope facts, request table, tool facts, result resolution
 * and patch table; its validators are this package's (\`./validators/\`). Written with ${stamp.tools}.
 */
export const release: Omit<AdcpRelease<${q(version)}>, 'envelope'> & {
  readonly envelope: Omit<ReleaseEnvelope, 'taskTypes' | 'taskStatusPoll'> & {
    readonly taskTypes: readonly TaskTypesByVersion[${q(version)}][];
    readonly taskStatusPoll: ${pollType(p)};
  };
} = ${literal(object, { prefix: { name: 'base', value: p.manifest.base }, values: shared.values })};
`;
}

/** A bundled release's validator import map (`validators/index.js`) and its declaration. */
function importMapFiles(stamp: Stamp, p: Prepared): Array<[string, string]> {
  const { version } = p.manifest;
  const ident = versionIdent(version);
  const names = [...p.manifest.tasks.map((t) => t.name), ...p.modules];
  return [
    [
      `${ident}/validators/index.js`,
      `${banner(stamp, version)}
/** Per task: imports of its fast and its error-listing validator modules (a patch fallback's: fast only). */
export const validators = {
${importLines(
  names,
  p.plan.judges.map((j) => j.module),
  '.',
  '  ',
).join('\n')}
};
`,
    ],
    [
      `${ident}/validators/index.d.ts`,
      `${banner(stamp, version)}import type { ValidatorImports } from '${layoutImport(`${ident}/validators/index.d.ts`, 'tables')}';

/** Per task: imports of its fast and its error-listing validator modules. */
export declare const validators: ValidatorImports;
`,
    ],
  ];
}

/** The root modules: the version list, the release objects, and the tables by version. */
function rootModules(stamp: Stamp, releases: readonly Prepared[]): Array<[string, string]> {
  const versions = releases.map((p) => p.manifest.version);
  const q = JSON.stringify;
  const head = banner(stamp, undefined);
  const imports = versions.map((v) => `import { release as ${versionIdent(v)} } from './${versionIdent(v)}/release.js';`).join('\n');
  const byVersion = (member: string) => versions.map((v) => `  ${q(v)}: ${versionIdent(v)}.${member},`).join('\n');
  const shared = (name: 'taskStatuses' | 'asyncStatuses', what: string): string => {
    const lists = new Set(releases.map((p) => q(p.manifest[name])));
    if (lists.size !== 1) throw new Error(`the bundled releases' ${name} differ: ${[...lists].join(' vs ')}`);
    return `/** ${what}, the same in every bundled release. */\nexport const ${name} = [${releases[0]!.manifest[name].map((s) => q(s)).join(', ')}] as const;\n`;
  };
  return [
    [
      'versions.ts',
      `${head}/** The bundled AdCP versions, default first. */
export const versions = [${versions.map((v) => q(v)).join(', ')}] as const;

/** A bundled AdCP version. */
export type BundledVersion = (typeof versions)[number];

/**
 * Every AdCP release this program speaks, version → its wire pin: the bundled ones, and each one an
 * imported release module adds (\`npx adcp-decode generate\`: its declarations augment this interface).
 */
export interface KnownReleases {
${releases.map((p) => `  ${q(p.manifest.version)}: ${q(p.data.release)};`).join('\n')}
}

/** An AdCP version this program speaks: bundled, or added by an imported release module. */
export type Version = keyof KnownReleases & string;

/** The default AdCP version (the lock's \`defaultVersion\`). */
export const defaultVersion: Version = ${q(versions[0])};
`,
    ],
    [
      'releases.ts',
      `${head}import type { AdcpRelease } from '${layoutImport('releases.ts', 'release')}';
${imports}

/** The bundled releases, default first. */
export const BUNDLED_RELEASES: readonly AdcpRelease[] = [${versions.map(versionIdent).join(', ')}];
`,
    ],
    [
      'index.ts',
      `${head}import type { VersionTables } from '${layoutImport('index.ts', 'tables')}';
import type { BundledVersion } from './versions.js';
${imports}
${versions.map((v) => `import type { Responses as ${versionIdent(v)}Responses, Results as ${versionIdent(v)}Results } from './${versionIdent(v)}/responses.js';`).join('\n')}

export { type BundledVersion, defaultVersion, type KnownReleases, type Version, versions } from './versions.js';

/** The tables of each bundled version. */
export const tablesByVersion: { readonly [V in BundledVersion]: VersionTables<string> } = {
${byVersion('tables')}
};

/** The folder of each bundled version's generated modules, beside this file. */
export const versionFolders: { readonly [V in BundledVersion]: string } = {
${versions.map((v) => `  ${q(v)}: ${q(versionIdent(v))},`).join('\n')}
};

/** Task → response type, per version (a release module adds its own). */
export interface ResponsesByVersion {
${versions.map((v) => `  ${q(v)}: ${versionIdent(v)}Responses;`).join('\n')}
}

/** Task type → its terminal result's type where it is not its task's response, per version (a release module adds its own). */
export interface ResultsByVersion {
${versions.map((v) => `  ${q(v)}: ${versionIdent(v)}Results;`).join('\n')}
}

/** The task types a webhook envelope or a task status names (\`enums/task-type.json\`), per version (a release module adds its own). */
export interface TaskTypesByVersion {
${releases.map((p) => `  ${q(p.manifest.version)}: ${union(p.data.envelope.taskTypes, '    ')};`).join('\n')}
}
`,
    ],
    [
      'envelope.ts',
      `${head}import type { RequestRow } from '${layoutImport('envelope.ts', 'release')}';
${imports}

/** \`enums/task-type.json\` \`enum\` of each bundled version: the task types a webhook envelope or a task status names. */
export const taskTypesByVersion = {
${byVersion('envelope.taskTypes')}
} as const;

/** \`enums/adcp-protocol.json\` \`enum\` of each bundled version: the AdCP protocols. */
export const protocolsByVersion = {
${byVersion('envelope.protocols')}
} as const;

/** \`core/mcp-webhook-payload.json\` \`required\` of each bundled version: the MCP webhook envelope's required fields. */
export const webhookRequiredByVersion = {
${byVersion('envelope.webhookRequired')}
} as const;

/** How a task-status poll is judged in each bundled version: by the \`get_task_status\` task, or by the \`tasks/get\` response's module. */
export const taskStatusPollByVersion: {
${releases.map((p) => `  readonly ${q(p.manifest.version)}: ${pollType(p)};`).join('\n')}
} = {
${byVersion('envelope.taskStatusPoll')}
};

${shared('taskStatuses', 'The task statuses (`enums/task-status.json`)')}
${shared('asyncStatuses', "The task statuses with async response schemas (manifest.json), in the enum's order")}`,
    ],
    [
      'requests.ts',
      `${head}${imports}
${versions.map((v) => `import type { Requests as ${versionIdent(v)}Requests } from './${versionIdent(v)}/responses.js';`).join('\n')}

/** The request table of each bundled version. */
export const requestTablesByVersion = {
${byVersion('requests')}
} as const;

/** The version encode() speaks when none is pinned: the default version. */
export type DefaultRequestVersion = ${q(versions[0])};

/** Task → request type, per version (a release module adds its own). */
export interface RequestsByVersion {
${versions.map((v) => `  ${q(v)}: ${versionIdent(v)}Requests;`).join('\n')}
}
`,
    ],
    [
      'patches.ts',
      `${head}import type { PatchJudges } from '${layoutImport('patches.ts', 'tables')}';
import type { BundledVersion } from './versions.js';
${imports}

/** Per version, task and variant: the validators of its earlier GA patches that differ, newest first (patch-history/). */
export const patchJudgesByVersion: { readonly [V in BundledVersion]: PatchJudges } = {
${byVersion('patches')}
};
`,
    ],
    [
      'validator-maps.ts',
      `${head}import type { ValidatorImports } from '${layoutImport('validator-maps.ts', 'tables')}';
import type { BundledVersion } from './versions.js';
${versions.map((v) => `import { validators as ${versionIdent(v)} } from './${versionIdent(v)}/validators/index.js';`).join('\n')}

/** The validator import map of each bundled version (task → its modules, imported on first use). */
export const validatorsByVersion: { readonly [V in BundledVersion]: ValidatorImports } = {
${versions.map((v) => `  ${q(v)}: ${versionIdent(v)},`).join('\n')}
};
`,
    ],
  ];
}

/**
 * The bundled releases' modules, for src/generated/: per release its release object, type maps,
 * types, pinned entry and validators (compiled for all the releases at once), then the root modules.
 *
 * @param inputs The bundled releases, default first.
 * @param info The generator and how to regenerate.
 * @param log Where progress lines go.
 * @returns Path in src/generated/ → text, and what each release's codegen wrote.
 * @throws Error from any phase, or when two bundled releases are patches of one release.
 * @example
 * const { files } = await generateBundled([{ source, history }], info);
 */
export async function generateBundled(
  inputs: readonly ReleaseInput[],
  info: GeneratorInfo,
  log: (line: string) => void = () => undefined,
): Promise<{ files: Map<string, string>; reports: GenerateReport[] }> {
  assertOnePatchPerRelease(inputs.map((i) => i.source.version));
  const stamp: Stamp = { ...info, sources: new Map(inputs.map((i) => [i.source.version, i.source.sha256])) };
  const releases: Prepared[] = [];
  const files = new Map<string, string>();
  for (const input of inputs) {
    const t0 = performance.now();
    const p = await prepare(input, info.generator);
    releases.push(p);
    const { version } = p.manifest;
    const ident = versionIdent(version);
    files.set(`${ident}/release.ts`, releaseModule(stamp, p));
    files.set(`${ident}/responses.ts`, responsesModule(stamp, p.manifest, p.names));
    files.set(`${ident}/types.ts`, typesModule(stamp, version, p.types, p.exported));
    files.set(`${ident}/pinned.ts`, pinnedModule(stamp, p.manifest));
    for (const [path, text] of importMapFiles(stamp, p)) files.set(path, text);
    log(
      `AdCP ${version}: ${p.manifest.tasks.length} tasks, ${p.types.size} type modules, ${p.plan.judges.length} patch validators, ${Math.round(performance.now() - t0)} ms`,
    );
  }
  const t0 = performance.now();
  const compiled = [...releases.map((p) => p.release), ...releases.flatMap((p) => p.plan.releases)];
  const { modules, warnings } = validatorModules(compiled, BUNDLED_VALIDATORS, stamp);
  for (const [path, text] of modules) files.set(path, text);
  const chunks = [...modules.keys()].filter((f) => f.startsWith(`${BUNDLED_VALIDATORS.chunks}/`)).length;
  const bytes = [...modules.values()].reduce((n, text) => n + text.length, 0);
  log(
    `validators of AdCP ${releases.map((p) => p.manifest.version).join(', ')}: ${modules.size - chunks} entry modules, ${chunks} shared chunks, ${(bytes / 1e6).toFixed(2)} MB, ${warnings} strictTypes notes, ${Math.round(performance.now() - t0)} ms`,
  );
  for (const [path, text] of rootModules(stamp, releases)) files.set(path, text);
  const reports = releases.map((p) => ({
    version: p.manifest.version,
    tasks: p.manifest.tasks.length,
    typeModules: p.types.size,
    patchValidators: p.plan.judges.length,
    opened: p.opened,
  }));
  return { files: new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1))), reports };
}
