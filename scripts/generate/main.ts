/**
 * Codegen's command line: writes src/generated/ from the synced AdCP schemas (see pipeline.ts for
 * the phases), skipping the work when the output is current.
 *
 * Usage: npm run generate   (tsx scripts/generate/main.ts [--out DIR] [--force])
 */
import path from 'node:path';
import { OUT_DEFAULT } from './output.js';
import { generate } from './pipeline.js';

const i = process.argv.indexOf('--out');
const out = i >= 0 && process.argv[i + 1] !== undefined ? path.resolve(process.argv[i + 1]!) : OUT_DEFAULT;
generate(out, process.argv.includes('--force')).catch((error: unknown) => {
  console.error(`generate: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
