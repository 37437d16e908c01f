/**
 * The codegen pipeline, one release at a time, from its files (source.ts) to what both outputs
 * write (bundled.ts: the releases adcp-decode bundles, in src/generated/; module.ts: a release
 * module a buyer generates). One phase per file of this folder:
 *   1. load.ts        every draft-07 schema file, de-duplicated by `$id`; the manifest (tasks, tool
 *                     facts, result overrides); the schemas reachable from the tasks;
 *   2. types.ts       one TypeScript module per reachable schema file (json-schema-to-typescript),
 *                     joined by type-module.ts into the release's one declaration module;
 *   3. patches.ts     the validators of its earlier GA patches that differ (a patch history);
 *   4. tables.ts      the release object's data: tables, envelope facts, requests, tools, results, patches;
 *   5. validators.ts  Ajv standalone code, fast and error-listing, put through the rewrites of
 *                     rewrites.ts, then declarations.ts, names.ts and chunks.ts: per task an entry
 *                     module of each variant, and the code entries share once, in chunks
 *                     (compiled by the output, over every release it writes at once).
 * Output is deterministic: inputs are sorted, no timestamps; a second run is byte-identical.
 */
import { pinnedNames } from './entries.js';
import { envelopeModules, tasksGetRequest } from './envelopes.js';
import { loadSchemas, type Manifest, reachable, readManifest, type SchemaFile } from './load.js';
import { typeModulePath } from './output.js';
import { type PatchPlan, patchPlan, patchTable } from './patches.js';
import type { ReleaseSource } from './source.js';
import { type ReleaseData, releaseData } from './tables.js';
import type { FileTree } from './tree.js';
import { generateTypes, typeNames } from './types.js';
import { type Release, releaseOf } from './validators.js';

/** One release to generate: its source, and its patch history if any. */
export interface ReleaseInput {
  readonly source: ReleaseSource;
  /** The patch history (index.json and `<patch>/<path>`), for the patch fallback. */
  readonly history?: FileTree | undefined;
}

/** What the phases made of one release, before an output lays it out. */
export interface Prepared {
  readonly manifest: Manifest;
  readonly schemas: ReadonlyMap<string, SchemaFile>;
  /** `$id` → the name of its file's type, as the types module exports it. */
  readonly names: ReadonlyMap<string, string>;
  /** Type module path → its declarations (json-schema-to-typescript's). */
  readonly types: ReadonlyMap<string, string>;
  /** Type module path → its `[declared, exported]` names. */
  readonly exported: ReadonlyMap<string, ReadonlyArray<readonly [string, string]>>;
  /** What its validators compile. */
  readonly release: Release;
  /** Its patch fallback. */
  readonly plan: PatchPlan;
  /** Its release object's data. */
  readonly data: ReleaseData;
  /** The validator modules beside the tasks' (envelopes, result overrides), by name. */
  readonly modules: readonly string[];
  /** The lists compiled open because their schema text says so, without a reviewed exception. */
  readonly opened: readonly string[];
}

/**
 * Runs the phases of one release up to its validators, which an output compiles (with others).
 *
 * @param input The release's source and patch history.
 * @param generator What the release object names as its generator, e.g. `adcp-decode 0.1.0`.
 * @returns What the outputs write.
 * @throws Error from any phase: a manifest without what codegen needs, an unresolved `$ref`, an
 *   unknown keyword, a name clash, a patch history of another release, ...
 * @example
 * const prepared = await prepare({ source: await readSource('3.2.1.tgz') }, 'adcp-decode 0.1.0');
 */
export async function prepare(input: ReleaseInput, generator: string): Promise<Prepared> {
  const { version, files: tree, sha256 } = input.source;
  const manifest = readManifest(version, tree);
  const opened: string[] = [];
  const schemas = loadSchemas(version, tree, opened);
  const pollRequest = tasksGetRequest(manifest);
  const roots = [
    ...manifest.tasks.flatMap((t) => [t.request, t.response, ...Object.values(t.async)]),
    ...(pollRequest === undefined ? [] : [pollRequest]),
    ...Object.values(manifest.resultOverrides ?? {}),
  ];
  const files = reachable(schemas, roots);
  const names = typeNames(files);
  const byId = new Map(files.map((f) => [f.id, f]));
  const types = await generateTypes(files, names, byId);
  const exported = pinnedNames(types, new Map(files.map((f) => [typeModulePath(f.rel), names.get(f.id)!])));
  const plan = patchPlan(manifest, schemas, input.history);
  const data = releaseData(manifest, schemas, patchTable(plan), { generator, sha256 });
  const modules = envelopeModules(manifest, schemas).map((m) => m.name);
  return { manifest, schemas, names, types, exported, release: releaseOf(version, manifest, schemas), plan, data, modules, opened };
}
