/**
 * The repository's codegen: writes src/generated/ from the synced AdCP schemas with the generator
 * the package ships (src/generate/bundled.ts, the same phases a buyer's `npx adcp-decode generate`
 * runs), skipping the work when the output is current.
 *
 * Usage: npm run generate   (tsx scripts/generate/main.ts [--out DIR] [--force])
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { generateBundled } from '../../src/generate/bundled.js';
import { checkPeers } from '../../src/generate/peers.js';
import { readSource } from '../../src/generate/source.js';
import { readFolderTree } from '../../src/generate/tree.js';
import { writeFolder } from '../../src/generate/write.js';
import { LAYOUT } from '../../src/layout.js';
import { LOCK_PATH, REPO_ROOT, readLockVersions, SYNCED_DIR, schemaDir } from '../schema-paths.js';

/** src/generated, the default output. */
const OUT_DEFAULT = path.join(REPO_ROOT, 'src', LAYOUT.generated);

/** The file in the output that records what it was generated from. */
const STAMP_FILE = '.stamp';

/**
 * What the output depends on: the lock (so the schema bytes), the generator's files, the layout,
 * the runtime's message table, the package's version and the versions of the packages that write
 * the code. An equal stamp means the output is current.
 */
function inputStamp(tools: readonly string[], version: string): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(LOCK_PATH));
  const generator = path.join(REPO_ROOT, 'src', 'generate');
  for (const file of readdirSync(generator).sort()) {
    hash.update(file);
    hash.update(readFileSync(path.join(generator, file)));
  }
  hash.update(readFileSync(path.join(REPO_ROOT, 'src', 'layout.ts')));
  // The message table decides which messages derivedMessages drops from the listing code.
  hash.update(readFileSync(path.join(REPO_ROOT, 'src', 'validate', 'runtime', 'messages.js')));
  hash.update(`${version}\n${tools.join('\n')}`);
  return hash.digest('hex');
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--out');
  const out = i >= 0 && process.argv[i + 1] !== undefined ? path.resolve(process.argv[i + 1]!) : OUT_DEFAULT;
  const force = process.argv.includes('--force');
  const { versions } = readLockVersions();
  const peers = checkPeers(import.meta.url);
  if (peers.problem !== undefined) throw new Error(peers.problem);
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
  const stamp = inputStamp(peers.found, pkg.version);
  const stampFile = path.join(out, STAMP_FILE);
  if (!force && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    console.log(`generate: ${path.relative(process.cwd(), out) || out} is up to date (AdCP ${versions.join(', ')}); --force regenerates`);
    return;
  }
  const history = path.join(SYNCED_DIR, 'patch-history');
  const historyTree = existsSync(history) ? readFolderTree(history) : undefined;
  const inputs = [];
  for (const version of versions) {
    const source = await readSource(schemaDir(version));
    if (source.version !== version) throw new Error(`${schemaDir(version)}: its manifest says ${source.version}, the lock ${version}`);
    inputs.push({ source: { ...source, label: `schemas/synced/schemas/${version}` }, history: historyTree });
  }
  const info = { generator: `adcp-decode ${pkg.version}`, tools: peers.tools, regenerate: 'npm run generate' };
  const { files } = await generateBundled(inputs, info, (line) => console.log(`generate: ${line}`));
  files.set(STAMP_FILE, stamp);
  writeFolder(out, files, (dir) => existsSync(path.join(dir, STAMP_FILE)) || existsSync(path.join(dir, 'versions.ts')));
}

main().catch((error: unknown) => {
  console.error(`generate: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
