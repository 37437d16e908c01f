/**
 * The codegen pipeline: AdCP JSON schemas (synced into schemas/synced/) → src/generated/. Per
 * pinned version (schemas/adcp.lock.json), driven by that version's manifest.json, one phase per
 * file of this folder:
 *   1. load.ts        every draft-07 schema file, de-duplicated by `$id`; the manifest; the
 *                     schemas reachable from the tasks;
 *   2. types.ts       one TypeScript module per reachable schema file (json-schema-to-typescript);
 *   3. validators.ts  Ajv standalone code of every release, fast and error-listing, put through
 *                     the table of rewrites.ts (runtime helpers: src/validate/runtime/index.js),
 *                     then declarations.ts, names.ts and chunks.ts: per task an entry module of
 *                     each variant, and the code tasks share once, in chunks/ (over all versions);
 *   4. tables.ts      `index.ts` (tasks, schema ids, error codes), `envelope.ts` (the envelopes'
 *                     enums and required fields), the validators' import map;
 *      responses.ts   `responses.ts` (task → response type, async variants by status; task → request type);
 *      requests.ts    `requests.ts` (per task: request schema, the version fields it defines, its idempotency key);
 *      entries.ts     `pinned.ts`, the pinned entry.
 * Finally src/generated/index.ts lists the versions, src/generated/envelope.ts their envelope lists
 * and src/generated/requests.ts their request tables.
 * Output is deterministic: inputs are sorted, no timestamps; a second run is byte-identical.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCK_PATH, readLockVersions, schemaDir } from '../schema-paths.js';
import { CHUNKS } from './chunks.js';
import { pinnedModule, pinnedNames } from './entries.js';
import { envelopeModules, tasksGetRequest } from './envelopes.js';
import { loadSchemas, type Manifest, reachable, readManifest } from './load.js';
import { assertOnePatchPerRelease, OUT_DEFAULT, typeModulePath, versionIdent, writeTree } from './output.js';
import { type PatchPlan, patchPlan, rootPatches } from './patches.js';
import { requestTableModule, rootRequests } from './requests.js';
import { responsesModule } from './responses.js';
import { envelopeModule, importMap, rootEnvelope, rootIndex, rootValidatorMaps, rootVersions, tableModule } from './tables.js';
import { typesModule } from './type-module.js';
import { generateTypes, typeNames } from './types.js';
import { type Release, releaseOf, validatorModules } from './validators.js';

const requireFromHere = createRequire(import.meta.url);

/** What one version's codegen wrote. */
export interface GenerateReport {
  readonly version: string;
  readonly tasks: number;
  readonly typeModules: number;
  readonly ms: number;
}

/** What the validators of every version need from a version's codegen. */
interface Generated {
  readonly report: GenerateReport;
  readonly release: Release;
  readonly manifest: Manifest;
  /** The validators of its earlier GA patches, where they differ (patches.ts). */
  readonly plan: PatchPlan;
}

/**
 * Generates one version's modules into `<out>/<vX_Y_Z>/`, replacing what was there, but the
 * validators, which {@link generate} compiles for every version at once.
 *
 * @param version The AdCP version.
 * @param out The output folder (src/generated).
 * @returns What was written, and the release its validators compile.
 * @throws Error from any phase: an unknown keyword, an unrecognised Ajv shape, a name clash, ...
 * @example
 * await generateVersion('3.1.19', OUT_DEFAULT);
 */
async function generateVersion(version: string, out: string): Promise<Generated> {
  const t0 = performance.now();
  const root = schemaDir(version);
  const manifest = readManifest(version, root);
  const schemas = loadSchemas(version, root);
  const pollRequest = tasksGetRequest(version, manifest);
  const roots = [
    ...manifest.tasks.flatMap((t) => [t.request, t.response, ...Object.values(t.async)]),
    ...(pollRequest === undefined ? [] : [pollRequest]),
  ];
  const files = reachable(schemas, roots);
  const names = typeNames(files);
  const byId = new Map(files.map((f) => [f.id, f]));

  const types = await generateTypes(version, files, names, byId);
  const envelopes = envelopeModules(version, manifest, schemas);
  const plan = patchPlan(version, manifest, schemas);
  const dir = path.join(out, versionIdent(version));
  rmSync(dir, { recursive: true, force: true });
  const exported = pinnedNames(types, new Map(files.map((f) => [typeModulePath(f.rel), names.get(f.id)!])));
  writeTree(
    dir,
    importMap(
      version,
      manifest,
      envelopes,
      plan.judges.map((j) => j.module),
    ),
  );
  writeTree(
    dir,
    new Map([
      ['index.ts', tableModule(version, manifest)],
      ['envelope.ts', envelopeModule(version, schemas, manifest)],
      ['responses.ts', responsesModule(version, manifest, names)],
      ['requests.ts', requestTableModule(version, manifest, schemas)],
      ['types.ts', typesModule(version, types, exported)],
      ['pinned.ts', pinnedModule(version, manifest)],
    ]),
  );
  const ms = Math.round(performance.now() - t0);
  console.log(
    `generate: AdCP ${version}: ${manifest.tasks.length} tasks, ${types.size} type modules, ${plan.judges.length} patch validators, ${ms} ms`,
  );
  return {
    report: { version, tasks: manifest.tasks.length, typeModules: types.size, ms },
    release: releaseOf(version, manifest, schemas),
    manifest,
    plan,
  };
}

/**
 * Compiles the validators of every version at once (the chunks they share are keyed by content)
 * and writes them: the entry modules into each version's folder, the chunks into `<out>/chunks/`.
 *
 * @param releases What each version's codegen compiles.
 * @param out The output folder.
 * @throws Error from the compilation or the rewrites.
 */
function generateValidators(releases: readonly Release[], out: string): void {
  const t0 = performance.now();
  const { modules, warnings } = validatorModules(releases);
  rmSync(path.join(out, CHUNKS), { recursive: true, force: true });
  writeTree(out, modules);
  const chunks = [...modules.keys()].filter((f) => f.startsWith(`${CHUNKS}/`));
  const bytes = [...modules.values()].reduce((n, text) => n + text.length, 0);
  console.log(
    `generate: validators of AdCP ${releases.map((r) => r.version).join(', ')}: ${modules.size - chunks.length} entry modules, ${chunks.length} shared chunks, ${(bytes / 1e6).toFixed(2)} MB, ${warnings} strictTypes notes, ${Math.round(performance.now() - t0)} ms`,
  );
}

/**
 * What the output depends on: the lock (so the schema bytes), this generator's files, the runtime's
 * message table, and the versions of the packages that write the code. Stored in the output folder; an equal stamp means
 * the output is current.
 */
function inputStamp(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(LOCK_PATH));
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const file of readdirSync(here).sort()) {
    hash.update(file);
    hash.update(readFileSync(path.join(here, file)));
  }
  hash.update(readFileSync(new URL('../../src/layout.ts', import.meta.url)));
  // The message table decides which messages derivedMessages drops from the listing code.
  hash.update(readFileSync(new URL('../../src/validate/runtime/messages.js', import.meta.url)));
  for (const pkg of ['ajv', 'ajv-formats', 'json-schema-to-typescript']) {
    hash.update(readFileSync(requireFromHere.resolve(`${pkg}/package.json`)));
  }
  return hash.digest('hex');
}

/**
 * Generates every pinned version into `out`, unless its stamp says the output is current.
 *
 * @param out The output folder; src/generated by default.
 * @param force Regenerate even when the output is current.
 * @returns What each version's codegen wrote (empty when nothing was to do).
 * @throws Error from any phase.
 * @example
 * await generate(OUT_DEFAULT, true);
 */
export async function generate(out: string = OUT_DEFAULT, force = false): Promise<GenerateReport[]> {
  const { versions } = readLockVersions();
  assertOnePatchPerRelease(versions);
  const stampFile = path.join(out, '.stamp');
  const stamp = inputStamp();
  if (!force && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    console.log(`generate: ${path.relative(process.cwd(), out) || out} is up to date (AdCP ${versions.join(', ')}); --force regenerates`);
    return [];
  }
  rmSync(stampFile, { force: true });
  const generated: Generated[] = [];
  for (const version of versions) generated.push(await generateVersion(version, out));
  generateValidators([...generated.map((g) => g.release), ...generated.flatMap((g) => g.plan.releases)], out);
  const manifests = new Map(generated.map((g) => [g.report.version, g.manifest]));
  writeFileSync(path.join(out, 'index.ts'), rootIndex(versions));
  writeFileSync(path.join(out, 'versions.ts'), rootVersions(versions));
  writeFileSync(path.join(out, 'validator-maps.ts'), rootValidatorMaps(versions));
  writeFileSync(path.join(out, 'envelope.ts'), rootEnvelope(manifests));
  writeFileSync(path.join(out, 'requests.ts'), rootRequests(versions));
  writeFileSync(path.join(out, 'patches.ts'), rootPatches(new Map(generated.map((g) => [g.report.version, g.plan]))));
  writeFileSync(stampFile, stamp);
  return generated.map((g) => g.report);
}
