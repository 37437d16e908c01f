/**
 * The patch fallback: validators for the earlier GA patches of a release (a patch history: the
 * repository's schemas/synced/patch-history/, synced like the schemas, or one a buyer gives), so
 * that an answer one of them accepts is not refused. A patch's schemas are the bundled ones with its own files laid over them (its
 * `$id`s and `$ref`s moved onto the bundled version, so the bundled types and tables still name
 * them); a patch validator is compiled only for a response schema (task variant or envelope) whose
 * reachable files, annotations stripped, differ from the bundled patch's, once per distinct
 * content over all of a release's patches (its home: the newest patch that has it). Only the fast
 * (verdict) variant is compiled: the issues a refusal lists are the bundled patch's.
 */
import { createHash } from 'node:crypto';
import type { PatchJudges } from '../schema/tables.js';
import { type ExtraModule, envelopeModules } from './envelopes.js';
import { applyFittingExceptions } from './exceptions.js';
import { isObject, type Json, type JsonObject, type Manifest, reachable, type SchemaFile } from './load.js';
import { type FileTree, jsonFile } from './tree.js';
import { type Release, stripAnnotations } from './validators.js';

/** One patch validator: its module name, the task (or envelope module) and variant it judges, and the patches it stands for, newest first. */
interface PatchJudge {
  readonly module: string;
  readonly task: string;
  /** The export key: `response`, `working`, `submitted`, `input_required`. */
  readonly variant: string;
  readonly patches: readonly string[];
}

/** A bundled release's patch fallback: the validators to compile (one Release per home patch) and the table. */
export interface PatchPlan {
  readonly releases: readonly Release[];
  readonly judges: readonly PatchJudge[];
}

interface PatchIndex {
  readonly bundled: Readonly<Record<string, string>>;
  readonly patches: Readonly<Record<string, { line: string; differs_from_bundled: string[]; absent_from_bundled: string[] }>>;
}

const HISTORY = 'the patch history';

/** A list of paths, each inside the history. */
function isPathList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((p) => typeof p === 'string' && p.endsWith('.json') && !p.split('/').includes('..'));
}

/** The history's index.json, checked: which patch each line's files are compared with, and per patch its line and files. */
function readIndex(history: FileTree): PatchIndex {
  const index = jsonFile(history, 'index.json', HISTORY);
  const ok =
    isObject(index) &&
    isObject(index.bundled) &&
    Object.values(index.bundled).every((v) => typeof v === 'string') &&
    isObject(index.patches) &&
    Object.entries(index.patches).every(
      ([patch, e]) =>
        /^\d+\.\d+\.\d+$/.test(patch) &&
        isObject(e) &&
        typeof e.line === 'string' &&
        isPathList(e.differs_from_bundled) &&
        isPathList(e.absent_from_bundled),
    );
  if (!ok)
    throw new Error(
      `${HISTORY}: its index.json must hold "bundled" (line → the version its files are compared with) and "patches" (version → line, differs_from_bundled, absent_from_bundled)`,
    );
  return index as unknown as PatchIndex;
}

/** Numeric order of two versions, newest first. */
function newestFirst(a: string, b: string): number {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (y[i] ?? 0) - (x[i] ?? 0);
  return 0;
}

/** A schema with every `$id` and `$ref` under the base `from` moved under `to`. */
function moved(node: Json, from: string, to: string): Json {
  if (Array.isArray(node)) return node.map((n) => moved(n, from, to));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      (key === '$ref' || key === '$id') && typeof value === 'string' && value.startsWith(from)
        ? `${to}${value.slice(from.length)}`
        : moved(value, from, to);
  }
  return out;
}

/** The `$id` base of a patch of a release: the release's base with the patch's version. */
function patchBase(manifest: Manifest, patch: string): string {
  return `${manifest.base.slice(0, -`${manifest.version}/`.length)}${patch}/`;
}

/** The release's schemas with a patch's own files laid over them, under the release's `$id`s. */
function patchSchemas(
  manifest: Manifest,
  history: FileTree,
  patch: string,
  rels: readonly string[],
  schemas: ReadonlyMap<string, SchemaFile>,
): Map<string, SchemaFile> {
  const out = new Map(schemas);
  const from = patchBase(manifest, patch);
  for (const rel of rels) {
    const raw = jsonFile(history, `${patch}/${rel}`, HISTORY);
    if (raw === undefined) throw new Error(`${HISTORY}: its index.json lists ${patch}/${rel}, which it does not hold`);
    if (!isObject(raw) || raw.$id !== `${from}${rel}`)
      throw new Error(`${HISTORY}: ${patch}/${rel} has not the $id of its path (${from}${rel})`);
    const id = `${manifest.base}${rel}`;
    const file: SchemaFile = { id, rel, schema: moved(raw, from, manifest.base) as JsonObject };
    applyFittingExceptions(manifest.version, file);
    out.set(id, file);
  }
  return out;
}

/**
 * A patch manifest's response schemas of a task, by export key; undefined when the patch has no
 * such task. The patches published without a manifest (3.0.0 to 3.0.3) are read with the bundled one's.
 */
function patchResponses(
  manifest: Manifest,
  history: FileTree,
  patch: string,
  task: string,
  bundledExports: Record<string, string>,
): Record<string, string> | undefined {
  const own = jsonFile(history, `${patch}/manifest.json`, HISTORY);
  if (own === undefined) return bundledExports;
  const tools = isObject(own) ? own.tools : undefined;
  const tool = isObject(tools) ? tools[task] : undefined;
  if (!isObject(tool) || typeof tool.response_schema !== 'string') return undefined;
  const out: Record<string, string> = { response: `${manifest.base}${tool.response_schema}` };
  for (const rel of Array.isArray(tool.async_response_schemas) ? tool.async_response_schemas : []) {
    const status = typeof rel === 'string' ? /-async-response-(working|submitted|input-required)\.json$/.exec(rel)?.[1] : undefined;
    if (status === undefined)
      throw new Error(`${HISTORY}: ${patch}/manifest.json: tools.${task}: cannot tell the status of ${String(rel)}`);
    out[status.replace('-', '_')] = `${manifest.base}${rel as string}`;
  }
  return out;
}

/** What a schema validates, as one hash: every file it reaches, annotations stripped, in `$id` order. */
function contentKey(schemas: Map<string, SchemaFile>, root: string): string {
  const hash = createHash('sha256');
  for (const file of reachable(schemas, [root])) hash.update(`${file.id}\n${JSON.stringify(stripAnnotations(file.schema))}\n`);
  return hash.digest('hex');
}

/** The response schemas of a bundled release to compare, per task or envelope module: export key → `$id`. */
function targets(manifest: Manifest, envelopes: readonly ExtraModule[]): Array<[string, Record<string, string>]> {
  const tasks = manifest.tasks.map((t): [string, Record<string, string>] => [
    t.name,
    { response: t.response, ...Object.fromEntries(Object.entries(t.async).map(([s, id]) => [s.replace('-', '_'), id])) },
  ]);
  return [...tasks, ...envelopes.map((m): [string, Record<string, string>] => [m.name, { response: m.root }])];
}

/**
 * The patch fallback of a release from its patch history (none without one). The history must be
 * of the release: its index.json compares its line's patches with this very version.
 *
 * @param manifest The release's tasks, version and `$id` base.
 * @param schemas Its schema files (exceptions applied).
 * @param history The patch history's files (index.json, then `<patch>/<path>`), if any.
 * @returns The releases to compile (entries named `patch-<hash>`, one variant each) and the table.
 * @throws Error for a history of another release, or a patch file missing or not where its `$id` says.
 * @example
 * patchPlan(manifest, schemas, history).judges[0]; // { module: 'patch-…', task: 'get_adcp_capabilities', variant: 'response', patches: ['3.0.18', …] }
 */
export function patchPlan(manifest: Manifest, schemas: ReadonlyMap<string, SchemaFile>, history: FileTree | undefined): PatchPlan {
  if (history === undefined) return { releases: [], judges: [] };
  const { version } = manifest;
  const index = readIndex(history);
  const line = version.split('.').slice(0, 2).join('.');
  if (index.bundled[line] !== version)
    throw new Error(
      `${HISTORY} compares the ${line} patches with ${index.bundled[line] ?? 'no release'}, not with ${version}: it is not this release's history`,
    );
  const patches = Object.keys(index.patches)
    .filter((p) => index.patches[p]?.line === line)
    .sort(newestFirst);
  const bundledAll = withEnvelopes(manifest, new Map(schemas));
  const bundledKeys = new Map<string, string>();
  const groups = new Map<
    string,
    { judge: { module: string; task: string; variant: string; patches: string[] }; home: string; root: string }
  >();
  const composed = new Map<string, Map<string, SchemaFile>>();
  for (const patch of patches) {
    const entry = index.patches[patch]!;
    const all = withEnvelopes(
      manifest,
      patchSchemas(manifest, history, patch, [...entry.differs_from_bundled, ...entry.absent_from_bundled], schemas),
    );
    composed.set(patch, all.schemas);
    for (const [task, bundledExports] of targets(manifest, all.envelopes)) {
      const own = task.includes('-') ? bundledExports : patchResponses(manifest, history, patch, task, bundledExports);
      for (const [variant, root] of Object.entries(own ?? {})) {
        if (!all.schemas.has(root)) continue;
        const key = contentKey(all.schemas, root);
        // The bundled patch's schemas pick the variant: a variant it lacks is never judged.
        const base = bundledExports[variant];
        if (base === undefined) continue;
        const baseKey = bundledKeys.get(base) ?? contentKey(bundledAll.schemas, base);
        bundledKeys.set(base, baseKey);
        if (key === baseKey) continue;
        const id = `${task}\n${variant}\n${key}`;
        const group = groups.get(id);
        if (group !== undefined) group.judge.patches.push(patch);
        else {
          const module = `patch-${createHash('sha256').update(id).digest('hex').slice(0, 12)}`;
          groups.set(id, { judge: { module, task, variant, patches: [patch] }, home: patch, root });
        }
      }
    }
  }
  return planOf(version, [...groups.values()], composed);
}

/** A schema map with the envelope modules' derived schemas, and those modules. */
function withEnvelopes(
  manifest: Manifest,
  schemas: Map<string, SchemaFile>,
): { schemas: Map<string, SchemaFile>; envelopes: ExtraModule[] } {
  const envelopes = envelopeModules(manifest, schemas);
  for (const { derived } of envelopes) if (derived !== undefined) schemas.set(derived.id, derived);
  return { schemas, envelopes };
}

/** One release per home patch, compiled in the fast variant only, and the judges sorted by task, variant and newest patch. */
function planOf(
  version: string,
  groups: ReadonlyArray<{ judge: PatchJudge; home: string; root: string }>,
  composed: ReadonlyMap<string, Map<string, SchemaFile>>,
): PatchPlan {
  const homes = [...new Set(groups.map((g) => g.home))].sort(newestFirst);
  const releases: Release[] = homes.map((home) => ({
    version,
    kinds: ['fast'],
    entries: groups.filter((g) => g.home === home).map((g) => ({ name: g.judge.module, exports: { [g.judge.variant]: g.root } })),
    schemas: composed.get(home)!,
  }));
  const judges = groups
    .map((g) => g.judge)
    .sort((a, b) =>
      a.task === b.task
        ? a.variant === b.variant
          ? newestFirst(a.patches[0]!, b.patches[0]!)
          : a.variant < b.variant
            ? -1
            : 1
        : a.task < b.task
          ? -1
          : 1,
    );
  return { releases, judges };
}

/**
 * A release's patch table (its `patches`): per task (or envelope module) and variant, the patch
 * validators to try, newest patch first, when the release's own one refuses an answer.
 *
 * @param plan The release's plan.
 * @returns The table.
 * @example
 * patchTable(plan).get_adcp_capabilities?.response?.[0]?.patches; // ['3.0.18', ...]
 */
export function patchTable(plan: PatchPlan): PatchJudges {
  const out: Record<string, Record<string, Array<{ module: string; patches: readonly string[] }>>> = {};
  for (const j of plan.judges) {
    const variants = out[j.task] ?? {};
    variants[j.variant] = [...(variants[j.variant] ?? []), { module: j.module, patches: j.patches }];
    out[j.task] = variants;
  }
  return out;
}
