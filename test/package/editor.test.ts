/**
 * What a buyer's editor shows from the built declarations, now that each release's types are one
 * declaration file (issue 30): hover names the type a buyer can import, and a misspelt member
 * or type name gets TypeScript's "Did you mean". Read through the language service, as an editor
 * does, from a consumer project that imports `adcp-decode/3.1` as an installed dependency.
 * Needs a build (`npm test` runs one first).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { REPO_ROOT } from '../../scripts/schema-paths.js';

const CONSUMER = `import { decode, encode, isFinal } from 'adcp-decode/3.1';
import type { CanonicalFormatImageFixed, Prodcut } from 'adcp-decode/3.1';

export function ids(result: unknown): string[] {
  const response = decode('get_products', result);
  if (!isFinal(response)) return [];
  return (response.products ?? []).map((product) => product.product_id);
}

export const request = encode('get_products', { buying_mode: 'brief', brief: 'coffee', filters: { deliverytype: 'guaranteed' } });

export function sizing(fixed: CanonicalFormatImageFixed) {
  return fixed;
}

export type Typo = Prodcut;
`;

let dir = '';
let service: ts.LanguageService;
let file = '';

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'adcp-editor-'));
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(REPO_ROOT, path.join(dir, 'node_modules', 'adcp-decode'), 'dir');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  file = path.join(dir, 'consumer.ts');
  writeFileSync(file, CONSUMER);
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  };
  service = ts.createLanguageService({
    getCompilationSettings: () => options,
    getScriptFileNames: () => [file],
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) => {
      const text = ts.sys.readFile(name);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => dir,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    ...(ts.sys.realpath === undefined ? {} : { realpath: ts.sys.realpath }),
  });
});

afterAll(() => {
  service?.dispose();
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

/** The hover text at the first occurrence of `marker` in the consumer. */
function hover(marker: string): string {
  const at = CONSUMER.indexOf(marker);
  expect(at).toBeGreaterThanOrEqual(0);
  return ts.displayPartsToString(service.getQuickInfoAtPosition(file, at)?.displayParts);
}

/** The consumer's diagnostics as one line each. */
function diagnostics(): string[] {
  return service.getSemanticDiagnostics(file).map((d) => `TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

test('the declarations of a release come from one file, not one per schema', () => {
  const program = service.getProgram();
  const ours = program?.getSourceFiles().filter((f) => f.fileName.includes('/dist/generated/v3_1/')) ?? [];
  expect(ours.map((f) => path.basename(f.fileName)).sort()).toEqual(['pinned.d.ts', 'responses.d.ts', 'types.d.ts']);
});

test('hover names the type by the name the entry exports', () => {
  expect(hover('product) =>')).toBe('(parameter) product: Product');
  // A type two schemas both declare goes by its qualified name, the one a buyer imports.
  expect(hover('fixed: Canonical')).toBe('(parameter) fixed: CanonicalFormatImageFixed');
});

test('a misspelt member or type name gets "Did you mean"', () => {
  const found = diagnostics();
  expect(found).toEqual([
    expect.stringMatching(/^TS2724 .*has no exported member named 'Prodcut'\. Did you mean 'Product'\?$/),
    expect.stringMatching(/^TS2561 .*'deliverytype' does not exist in type .*Did you mean to write 'delivery_type'\?$/),
  ]);
});
