/**
 * Copies the generated validator modules and import maps (src/generated/<v>/validators/) and the
 * chunks they share (src/generated/chunks/) into dist/, minified (scripts/minify-validator.ts),
 * beside the compiled code that imports them (tsc compiles only the TypeScript), and the
 * AdCP schemas' license (schemas/synced/LICENSE) to dist/generated/LICENSE, beside the files
 * derived from those schemas: the package ships it, the repository never holds it.
 *
 * Usage: part of `npm run compile`.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAYOUT } from '../src/layout.js';
import { minifyValidator } from './minify-validator.js';

const src = fileURLToPath(new URL('../src/generated', import.meta.url));
const dist = fileURLToPath(new URL('../dist/generated', import.meta.url));
const license = fileURLToPath(new URL('../schemas/synced/LICENSE', import.meta.url));

/** The files of a folder (no subfolders) into `to`, each `.js` minified (an import map's `.d.ts` as is); how many. */
function copyMinified(from: string, to: string): number {
  const files = readdirSync(from);
  mkdirSync(to, { recursive: true });
  for (const f of files) {
    if (f.endsWith('.js')) writeFileSync(path.join(to, f), minifyValidator(readFileSync(path.join(from, f), 'utf8')));
    else copyFileSync(path.join(from, f), path.join(to, f));
  }
  return files.length;
}

let count = 0;
for (const version of readdirSync(src).sort()) {
  const from = path.join(src, version, 'validators');
  if (existsSync(from)) count += copyMinified(from, path.join(dist, version, 'validators'));
}
const chunks = path.relative(LAYOUT.generated, LAYOUT.validatorChunks);
if (!existsSync(path.join(src, chunks))) throw new Error(`copy-validators: src/${LAYOUT.validatorChunks} is missing; run npm run generate`);
count += copyMinified(path.join(src, chunks), path.join(dist, chunks));
if (!existsSync(license)) throw new Error('copy-validators: schemas/synced/LICENSE is missing; run npm run sync-schemas');
copyFileSync(license, path.join(dist, 'LICENSE'));
console.log(`copy-validators: ${count} validator files, minified, and the AdCP schemas' LICENSE copied into dist/generated`);
