/**
 * Copies the generated validator modules and import maps (src/generated/<v>/validators/) and the
 * chunks they share (src/generated/chunks/) into dist/, beside the compiled code that imports them
 * (tsc compiles only the TypeScript), and the
 * AdCP schemas' license (schemas/synced/LICENSE) to dist/generated/LICENSE, beside the files
 * derived from those schemas: the package ships it, the repository never holds it.
 *
 * Usage: part of `npm run compile`.
 */
import { copyFileSync, cpSync, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAYOUT } from '../src/layout.js';

const src = fileURLToPath(new URL('../src/generated', import.meta.url));
const dist = fileURLToPath(new URL('../dist/generated', import.meta.url));
const license = fileURLToPath(new URL('../schemas/synced/LICENSE', import.meta.url));
let count = 0;
for (const version of readdirSync(src).sort()) {
  const from = path.join(src, version, 'validators');
  if (!existsSync(from)) continue;
  cpSync(from, path.join(dist, version, 'validators'), { recursive: true });
  count += readdirSync(from).length;
}
const chunks = path.relative(LAYOUT.generated, LAYOUT.validatorChunks);
if (!existsSync(path.join(src, chunks))) throw new Error(`copy-validators: src/${LAYOUT.validatorChunks} is missing; run npm run generate`);
cpSync(path.join(src, chunks), path.join(dist, chunks), { recursive: true });
count += readdirSync(path.join(src, chunks)).length;
if (!existsSync(license)) throw new Error('copy-validators: schemas/synced/LICENSE is missing; run npm run sync-schemas');
copyFileSync(license, path.join(dist, 'LICENSE'));
console.log(`copy-validators: ${count} validator files and the AdCP schemas' LICENSE copied into dist/generated`);
