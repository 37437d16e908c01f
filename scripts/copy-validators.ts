/**
 * Copies the generated CommonJS validators (src/generated/<v>/validators/*.cjs) into dist/,
 * beside the compiled code that requires them; tsc compiles only the TypeScript.
 *
 * Usage: part of `npm run compile`.
 */
import { cpSync, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../src/generated', import.meta.url));
const dist = fileURLToPath(new URL('../dist/generated', import.meta.url));
let count = 0;
for (const version of readdirSync(src).sort()) {
  const from = path.join(src, version, 'validators');
  if (!existsSync(from)) continue;
  cpSync(from, path.join(dist, version, 'validators'), { recursive: true });
  count += readdirSync(from).length;
}
console.log(`copy-validators: ${count} validator modules copied into dist/generated`);
