/**
 * A release module, what `npx adcp-decode generate <source> --out <dir>` writes into a buyer's
 * project: the same phases as the bundled releases (pipeline.ts), laid out to be imported once.
 *
 *   index.js       `export const release = defineRelease({...})`: the release object, its
 *                  validators' import map (dynamic imports, for preload() and bundlers) and
 *                  `files: { module }`, the module's own URL (Node loads them on first use);
 *   index.d.ts     the task → response and task → request maps, the envelope's task types, the
 *                  module augmentation of 'adcp-decode' that types decode() for this release
 *                  without a cast, and every schema type (re-exported from types.d.ts);
 *   types.d.ts     every schema type of the release, one declaration file, JSDoc kept;
 *   validators/    per task a fast and an error-listing module (a patch fallback's: fast only),
 *                  envelope and result modules beside them, compiled ahead of time (no eval);
 *   chunks/        the code they share, once;
 *   package.json   `"type": "module"`, so Node and bundlers read the folder as ES modules.
 */
import { literal, repeatedValues } from './literal.js';
import type { Json } from './load.js';
import { banner, type GeneratorInfo, MODULE_VALIDATORS, type Stamp } from './output.js';
import { type Prepared, prepare, type ReleaseInput } from './pipeline.js';
import { responseMaps } from './responses.js';
import { importLines } from './tables.js';
import { typesModule } from './type-module.js';
import { validatorModules } from './validators.js';

/** What a generated release module holds. */
export interface ModuleReport {
  readonly version: string;
  readonly release: string;
  readonly tasks: number;
  readonly patchValidators: number;
  /** The lists compiled open because their schema text says so (no reviewed exception). */
  readonly opened: readonly string[];
}

/**
 * The expression a module reads its own URL by, spelt apart: bundle-dist refuses to move code whose
 * text reads it, and this module only writes it.
 */
const OWN_URL = ['import', 'meta', 'url'].join('.');

/** The types module, as index.d.ts imports it (a constant: bundle-dist reads `from '<path>'` in shipped code as an import). */
const TYPES = './types.js';

/** A union of string literals, one per line. */
function union(values: readonly string[]): string {
  return values.map((v) => `\n  | ${JSON.stringify(v)}`).join('');
}

/** `index.js`: the release object, defined when the module is first imported. */
function indexJs(stamp: Stamp, p: Prepared): string {
  const { version } = p.manifest;
  const shared = repeatedValues(p.data as unknown as Json);
  const data = literal(p.data as unknown as Json, { prefix: { name: 'base', value: p.manifest.base }, values: shared.values });
  const validators = importLines(
    [...p.manifest.tasks.map((t) => t.name), ...p.modules],
    p.plan.judges.map((j) => j.module),
    './validators',
    '    ',
  );
  return `${banner(stamp, version)}import { defineRelease } from 'adcp-decode';

/** The \`$id\` base of its schemas. */
const base = ${JSON.stringify(p.manifest.base)};
${shared.text}
/**
 * AdCP ${version} as data, defined when this module is first imported: decode(), encode(), the
 * polls and the webhook receiver then speak it (\`{ version: ${JSON.stringify(version)} }\`, or an answer announcing ${JSON.stringify(p.data.release)}).
 * Written with ${stamp.tools}.
 */
export const release = defineRelease({
${data.slice(2, -2)}
  files: { module: ${OWN_URL} },
  validators: {
${validators.join('\n')}
  },
});
`;
}

/** `index.d.ts`: the type maps, the augmentation of 'adcp-decode', and the schema types. */
function indexDts(stamp: Stamp, p: Prepared): string {
  const { version } = p.manifest;
  const q = JSON.stringify(version);
  const maps = responseMaps(p.manifest, p.names);
  return `${banner(stamp, version)}import type { AdcpRelease, AsyncVariant, SyncVariant } from 'adcp-decode';
import type {
${maps.types.map((n) => `  ${n},`).join('\n')}
} from '${TYPES}';

export type * from '${TYPES}';

${maps.text}
/** The task types a webhook envelope or a task status names in AdCP ${version} (\`enums/task-type.json\`). */
export type EnvelopeTaskType =${union(p.data.envelope.taskTypes)};

// Importing this module adds AdCP ${version} to what adcp-decode's types know: decode(task, answer,
// { version: ${q} }) is typed by these schemas, without a cast.
declare module 'adcp-decode' {
  interface KnownReleases {
    ${q}: ${JSON.stringify(p.data.release)};
  }
  interface ResponsesByVersion {
    ${q}: Responses;
  }
  interface RequestsByVersion {
    ${q}: Requests;
  }
  interface TaskTypesByVersion {
    ${q}: EnvelopeTaskType;
  }
  interface ResultsByVersion {
    ${q}: Results;
  }
}

/** AdCP ${version} as data, defined when this module is first imported. */
export declare const release: AdcpRelease<${q}>;
`;
}

/** `package.json`: the folder's files are ES modules; only index.js has an effect when imported. */
function packageJson(stamp: Stamp, version: string): string {
  const header = `${banner(stamp, version, '//').slice(3).trimEnd()} Written with ${stamp.tools}; regenerate with: ${stamp.regenerate}`;
  return `${JSON.stringify({ '//': header, type: 'module', sideEffects: ['./index.js'] }, null, 2)}\n`;
}

/**
 * A release module's files, from a release's source.
 *
 * @param input The release's source and patch history.
 * @param info The generator, and the command a banner says regenerates the module.
 * @returns Path in the module's folder → text, and what it holds.
 * @throws Error from any phase (pipeline.ts) or the validators' compilation.
 * @example
 * const { files } = await generateModule({ source: await readSource('3.2.1.tgz') }, info);
 */
export async function generateModule(
  input: ReleaseInput,
  info: GeneratorInfo,
): Promise<{ files: Map<string, string>; report: ModuleReport }> {
  const { version, sha256 } = input.source;
  const stamp: Stamp = { ...info, sources: new Map([[version, sha256]]) };
  const p = await prepare(input, info.generator);
  const files = new Map<string, string>([
    ['index.js', indexJs(stamp, p)],
    ['index.d.ts', indexDts(stamp, p)],
    ['types.d.ts', typesModule(stamp, version, p.types, p.exported)],
    ['package.json', packageJson(stamp, version)],
  ]);
  const { modules } = validatorModules([p.release, ...p.plan.releases], MODULE_VALIDATORS, stamp);
  for (const [path, text] of modules) files.set(path, text);
  return {
    files: new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1))),
    report: { version, release: p.data.release, tasks: p.manifest.tasks.length, patchValidators: p.plan.judges.length, opened: p.opened },
  };
}
