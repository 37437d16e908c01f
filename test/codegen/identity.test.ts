/**
 * The slow half of the codegen checks (the fast lane, `npm run test:unit`, leaves this file out):
 * a second generate into a temporary folder is byte-identical to src/generated/, the generated
 * code type-checks under tsc --strict on its own, and a fresh compile of each release writes the
 * same functions the shipped modules hold.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { listFiles, REPO_ROOT, schemaDir } from '../../scripts/schema-paths.js';
import { loadSchemas, readManifest } from '../../src/generate/load.js';
import { compileRelease, releaseOf } from '../../src/generate/validators.js';
import { STRICT_BUYER } from '../fixtures/strict-buyer.js';
import { closure, declarationsOf, releases } from '../validate/generated-code.js';

const run = promisify(execFile);
const GENERATED = path.join(REPO_ROOT, 'src/generated');
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

test('a second generate is byte-identical', async () => {
  const out = mkdtempSync(path.join(tmpdir(), 'adcp-generate-'));
  temps.push(out);
  await run(process.execPath, ['--import', 'tsx', 'scripts/generate/main.ts', '--out', out, '--force'], {
    cwd: REPO_ROOT,
    maxBuffer: 1 << 24,
  });
  const rel = (root: string) => listFiles(root).map((f) => path.relative(root, f));
  expect(rel(out)).toEqual(rel(GENERATED));
  for (const file of rel(GENERATED)) {
    expect(readFileSync(path.join(out, file)).equals(readFileSync(path.join(GENERATED, file))), file).toBe(true);
  }
}, 600_000);

test('the generated code type-checks under tsc --strict', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'adcp-tsc-'));
  temps.push(dir);
  const config = path.join(dir, 'tsconfig.json');
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        ...STRICT_BUYER,
        noEmit: true,
        skipLibCheck: false,
        types: [],
      },
      files: [path.join(GENERATED, 'index.ts')],
      include: [path.join(GENERATED, '**/*.ts')],
      // The pinned entries bind the hand-written runtime (src/decode/pinned.ts, which reaches Node APIs);
      // tsconfig.json type-checks them with the rest of src/.
      exclude: [path.join(GENERATED, '*/pinned.ts')],
    }),
  );
  const tsc = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
  const result = await run(process.execPath, [tsc, '-p', config], { cwd: REPO_ROOT, maxBuffer: 1 << 24 }).catch(
    (e: { stdout: string }) => e,
  );
  expect(result.stdout.trim()).toBe('');
}, 600_000);

describe('each schema is compiled once per release and variant, against a fresh compile', () => {
  // Per release and variant: every declaration the entries reach, through the chunks they import.
  const reach = releases().flatMap(({ version, entries }) =>
    (['fast', 'listing'] as const).map((kind) => {
      const files = entries.filter((f) => f.endsWith('.errors.js') === (kind === 'listing'));
      const modules = new Set(files.flatMap((f) => [...closure(f)]));
      return { version, kind, declarations: [...modules].flatMap((f) => declarationsOf(f)) };
    }),
  );

  test.each(reach.map((r) => [`${r.version} ${r.kind}`, r] as const))(
    '%s: every function Ajv writes, once, equal code once',
    (_, r) => {
      // Ajv, given every schema the release's entries export in one module (`inlineRefs: false`),
      // writes each schema's function once; named by content, equal functions are one.
      const release = releaseOf(r.version, readManifest(r.version, schemaDir(r.version)), loadSchemas(r.version, schemaDir(r.version)));
      const ids = [...new Set(release.entries.flatMap((e) => Object.values(e.exports)))].sort();
      const compiled = compileRelease(r.kind, ids, release.schemas, []);
      const functions = [...compiled.named.values()].filter((d) => d.code.startsWith('function ')).map((d) => d.name);
      expect(
        r.declarations
          .filter((d) => d.code.startsWith('function '))
          .map((d) => d.name)
          .sort(),
      ).toEqual(functions.sort());
    },
    120_000,
  );
});
