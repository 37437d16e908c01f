/**
 * The codegen pipeline: AdCP JSON schemas (synced into schemas/synced/) → src/generated/. Per
 * pinned version (schemas/adcp.lock.json), driven by that version's manifest.json, one phase per
 * file of this folder:
 *   1. load.ts        every draft-07 schema file, de-duplicated by `$id`; the manifest; the
 *                     schemas reachable from the tasks;
 *   2. types.ts       one TypeScript module per reachable schema file (json-schema-to-typescript);
 *   3. validators.ts  Ajv standalone code as ES modules per task, fast and error-listing, put
 *                     through the table of rewrites.ts (runtime helpers: src/validate/runtime/index.js);
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
import { pinnedModule } from './entries.js';
import { loadSchemas, reachable, readManifest, type Manifest } from './load.js';
import { OUT_DEFAULT, typeModulePath, versionIdent, writeTree } from './output.js';
import { requestTableModule, rootRequests } from './requests.js';
import { responsesModule } from './responses.js';
import { envelopeModules } from './envelopes.js';
import { envelopeModule, importMap, rootEnvelope, rootIndex, tableModule } from './tables.js';
import { generateTypes, typeNames } from './types.js';
import { validatorModules } from './validators.js';

const requireFromHere = createRequire(import.meta.url);

/** What one version's codegen wrote. */
export interface GenerateReport {
  readonly version: string;
  readonly tasks: number;
  readonly typeModules: number;
  readonly ms: number;
}

/**
 * Generates one version's modules into `<out>/<vX_Y_Z>/`, replacing what was there.
 *
 * @param version The AdCP version.
 * @param out The output folder (src/generated).
 * @returns What was written.
 * @throws Error from any phase: an unknown keyword, an unrecognised Ajv shape, a name clash, ...
 * @example
 * await generateVersion('3.1.19', OUT_DEFAULT);
 */
async function generateVersion(version: string, out: string): Promise<GenerateReport & { manifest: Manifest }> {
  const t0 = performance.now();
  const root = schemaDir(version);
  const manifest = readManifest(version, root);
  const schemas = loadSchemas(version, root);
  const roots = manifest.tasks.flatMap((t) => [t.request, t.response, ...Object.values(t.async)]);
  const files = reachable(schemas, roots);
  const names = typeNames(files);
  const byId = new Map(files.map((f) => [f.id, f]));

  const types = await generateTypes(version, files, names, byId);
  const envelopes = envelopeModules(version, manifest, schemas);
  const { modules: validators, warnings } = validatorModules(version, manifest, schemas, envelopes);
  const dir = path.join(out, versionIdent(version));
  rmSync(dir, { recursive: true, force: true });
  writeTree(dir, types);
  writeTree(dir, validators);
  writeTree(dir, importMap(version, manifest, envelopes));
  writeTree(
    dir,
    new Map([
      ['index.ts', tableModule(version, manifest)],
      ['envelope.ts', envelopeModule(version, schemas, manifest)],
      ['responses.ts', responsesModule(version, manifest, names, byId)],
      ['requests.ts', requestTableModule(version, manifest, schemas)],
      ['pinned.ts', pinnedModule(version, manifest, types, new Map(files.map((f) => [typeModulePath(f.rel), names.get(f.id)!])))],
    ]),
  );
  const ms = Math.round(performance.now() - t0);
  console.log(
    `generate: AdCP ${version}: ${manifest.tasks.length} tasks, ${types.size} type modules, ${validators.size + 2} validator modules, ${warnings} strictTypes notes, ${ms} ms`,
  );
  return { version, tasks: manifest.tasks.length, typeModules: types.size, ms, manifest };
}

/**
 * What the output depends on: the lock (so the schema bytes), this generator's files, and the
 * versions of the packages that write the code. Stored in the output folder; an equal stamp means
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
  const stampFile = path.join(out, '.stamp');
  const stamp = inputStamp();
  if (!force && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    console.log(`generate: ${path.relative(process.cwd(), out) || out} is up to date (AdCP ${versions.join(', ')}); --force regenerates`);
    return [];
  }
  rmSync(stampFile, { force: true });
  const reports: GenerateReport[] = [];
  const manifests = new Map<string, Manifest>();
  for (const version of versions) {
    const { manifest, ...report } = await generateVersion(version, out);
    reports.push(report);
    manifests.set(version, manifest);
  }
  writeFileSync(path.join(out, 'index.ts'), rootIndex(versions));
  writeFileSync(path.join(out, 'envelope.ts'), rootEnvelope(manifests));
  writeFileSync(path.join(out, 'requests.ts'), rootRequests(versions));
  writeFileSync(stampFile, stamp);
  return reports;
}
