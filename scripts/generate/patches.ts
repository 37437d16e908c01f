/**
 * The patch fallback: validators for the earlier GA patches of a bundled release
 * (schemas/synced/patch-history/, synced like the schemas), so that an answer one of them accepts
 * is not refused. A patch's schemas are the bundled ones with its own files laid over them (its
 * `$id`s and `$ref`s moved onto the bundled version, so the bundled types and tables still name
 * them); a patch validator is compiled only for a response schema (task variant or envelope) whose
 * reachable files, annotations stripped, differ from the bundled patch's, once per distinct
 * content over all of a release's patches (its home: the newest patch that has it). Only the fast
 * (verdict) variant is compiled: the issues a refusal lists are the bundled patch's.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SYNCED_DIR } from '../schema-paths.js';
import { envelopeModules } from './envelopes.js';
import { applyFittingExceptions } from './exceptions.js';
import { isObject, type Json, type JsonObject, type Manifest, reachable, type SchemaFile } from './load.js';
import { banner, layoutImport } from './output.js';
import { type ExtraModule, type Release, stripAnnotations } from './validators.js';

/** The folder sync-schemas copies the patch history into. */
const HISTORY = path.join(SYNCED_DIR, 'patch-history');

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

function readIndex(): PatchIndex | undefined {
  const file = path.join(HISTORY, 'index.json');
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as PatchIndex;
}

/** Numeric order of two versions, newest first. */
function newestFirst(a: string, b: string): number {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (y[i] ?? 0) - (x[i] ?? 0);
  return 0;
}

/** A schema with every `/schemas/<from>/` of its `$id` and `$ref`s moved to `/schemas/<to>/`. */
function moved(node: Json, from: string, to: string): Json {
  if (Array.isArray(node)) return node.map((n) => moved(n, from, to));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      (key === '$ref' || key === '$id') && typeof value === 'string' && value.startsWith(`/schemas/${from}/`)
        ? `/schemas/${to}/${value.slice(`/schemas/${from}/`.length)}`
        : moved(value, from, to);
  }
  return out;
}

/** The bundled schemas with a patch's own files laid over them, under the bundled `$id`s. */
function patchSchemas(
  bundled: string,
  patch: string,
  rels: readonly string[],
  schemas: ReadonlyMap<string, SchemaFile>,
): Map<string, SchemaFile> {
  const out = new Map(schemas);
  for (const rel of rels) {
    const raw: unknown = JSON.parse(readFileSync(path.join(HISTORY, patch, ...rel.split('/')), 'utf8'));
    if (!isObject(raw) || raw.$id !== `/schemas/${patch}/${rel}`)
      throw new Error(`generate: patch-history/${patch}/${rel} has not the $id of its path`);
    const id = `/schemas/${bundled}/${rel}`;
    const file: SchemaFile = { id, rel, schema: moved(raw, patch, bundled) as JsonObject };
    applyFittingExceptions(bundled, file);
    out.set(id, file);
  }
  return out;
}

/**
 * A patch manifest's response schemas of a task, by export key; undefined when the patch has no
 * such task. The patches published without a manifest (3.0.0 to 3.0.3) are read with the bundled one's.
 */
function patchResponses(
  bundled: string,
  patch: string,
  task: string,
  bundledExports: Record<string, string>,
): Record<string, string> | undefined {
  const file = path.join(HISTORY, patch, 'manifest.json');
  if (!existsSync(file)) return bundledExports;
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as { tools?: Record<string, unknown> };
  const tool = manifest.tools?.[task];
  if (!isObject(tool as Json) || typeof (tool as JsonObject).response_schema !== 'string') return undefined;
  const t = tool as { response_schema: string; async_response_schemas?: unknown };
  const out: Record<string, string> = { response: `/schemas/${bundled}/${t.response_schema}` };
  for (const rel of Array.isArray(t.async_response_schemas) ? t.async_response_schemas : []) {
    const status = typeof rel === 'string' ? /-async-response-(working|submitted|input-required)\.json$/.exec(rel)?.[1] : undefined;
    if (status === undefined)
      throw new Error(`generate: patch-history/${patch}/manifest.json: tools.${task}: cannot tell the status of ${String(rel)}`);
    out[status.replace('-', '_')] = `/schemas/${bundled}/${rel as string}`;
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
 * The patch fallback of a bundled release, from schemas/synced/patch-history/ (none when it is absent).
 *
 * @param version The bundled version, e.g. `3.0.26`.
 * @param manifest Its tasks.
 * @param schemas Its schema files (exceptions applied).
 * @returns The releases to compile (entries named `patch-<hash>`, one variant each) and the table.
 * @throws Error when a patch file is missing or not where its `$id` says.
 * @example
 * patchPlan('3.0.26', manifest, schemas).judges[0]; // { module: 'patch-…', task: 'get_adcp_capabilities', variant: 'response', patches: ['3.0.18', …] }
 */
export function patchPlan(version: string, manifest: Manifest, schemas: ReadonlyMap<string, SchemaFile>): PatchPlan {
  const index = readIndex();
  const line = version.split('.').slice(0, 2).join('.');
  if (index === undefined || index.bundled[line] !== version) return { releases: [], judges: [] };
  const patches = Object.keys(index.patches)
    .filter((p) => index.patches[p]?.line === line)
    .sort(newestFirst);
  const bundledAll = withEnvelopes(version, manifest, new Map(schemas));
  const bundledKeys = new Map<string, string>();
  const groups = new Map<
    string,
    { judge: { module: string; task: string; variant: string; patches: string[] }; home: string; root: string }
  >();
  const composed = new Map<string, Map<string, SchemaFile>>();
  for (const patch of patches) {
    const entry = index.patches[patch]!;
    const all = withEnvelopes(
      version,
      manifest,
      patchSchemas(version, patch, [...entry.differs_from_bundled, ...entry.absent_from_bundled], schemas),
    );
    composed.set(patch, all.schemas);
    for (const [task, bundledExports] of targets(manifest, all.envelopes)) {
      const own = task.includes('-') ? bundledExports : patchResponses(version, patch, task, bundledExports);
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
  version: string,
  manifest: Manifest,
  schemas: Map<string, SchemaFile>,
): { schemas: Map<string, SchemaFile>; envelopes: ExtraModule[] } {
  const envelopes = envelopeModules(version, manifest, schemas);
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
 * The root `patches.ts`: per bundled version, task (or envelope module) and variant, the patch
 * validators to try, newest patch first, when the bundled one refuses an answer.
 *
 * @param plans Each bundled version's plan.
 * @returns The module's text.
 * @example
 * rootPatches(new Map([['3.0.26', plan]]));
 */
export function rootPatches(plans: ReadonlyMap<string, PatchPlan>): string {
  const lines: string[] = [];
  for (const [version, plan] of plans) {
    const byTask = new Map<string, Map<string, PatchJudge[]>>();
    for (const j of plan.judges) {
      const variants = byTask.get(j.task) ?? new Map<string, PatchJudge[]>();
      variants.set(j.variant, [...(variants.get(j.variant) ?? []), j]);
      byTask.set(j.task, variants);
    }
    lines.push(`  ${JSON.stringify(version)}: {`);
    for (const [task, variants] of byTask) {
      lines.push(`    ${JSON.stringify(task)}: {`);
      for (const [variant, judges] of variants) {
        const list = judges.map((j) => `{ module: ${JSON.stringify(j.module)}, patches: ${JSON.stringify(j.patches)} }`);
        lines.push(`      ${variant}: [${list.join(', ')}],`);
      }
      lines.push('    },');
    }
    lines.push('  },');
  }
  return `${banner(undefined)}import type { PatchJudges } from '${layoutImport('patches.ts', 'tables')}';
import type { Version } from './index.js';

/** Per version, task and variant: the validators of its earlier GA patches that differ, newest first (patch-history/). */
export const patchJudgesByVersion: { readonly [V in Version]: PatchJudges } = {
${lines.join('\n')}
};
`;
}
