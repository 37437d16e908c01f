/**
 * The generated validator modules as the tests read them: each entry module
 * (src/generated/<v>/validators/<entry>.js, `.errors.js`) and the chunks it imports
 * (src/generated/chunks/), one statement per line as codegen writes them, and the declarations an
 * entry reaches through its exports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../scripts/schema-paths.js';
import { type Version, versionFolders, versions } from '../../src/generated/index.js';

export const GENERATED = path.join(REPO_ROOT, 'src/generated');
const CHUNKS = path.join(GENERATED, 'chunks');

/** A declaration of a generated module: its content name and its line. */
export interface GeneratedDeclaration {
  readonly name: string;
  readonly code: string;
  readonly file: string;
}

/** A content name (scripts/generate/names.ts): a kind letter, `_`, 10 base-36 digits. */
const CONTENT_NAME = /\b[vspfu]_[0-9a-z]{10}\b/g;

/** The entry module files of a version (`.js` fast, `.errors.js` listing), without the import map. */
export function entryFiles(version: Version): string[] {
  const dir = path.join(GENERATED, versionFolders[version], 'validators');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.js') && f !== 'index.js')
    .sort()
    .map((f) => path.join(dir, f));
}

/** Every chunk file. */
export function chunkFiles(): string[] {
  return readdirSync(CHUNKS)
    .sort()
    .map((f) => path.join(CHUNKS, f));
}

const texts = new Map<string, string>();
function text(file: string): string {
  let t = texts.get(file);
  if (t === undefined) texts.set(file, (t = readFileSync(file, 'utf8')));
  return t;
}

/** The generated modules a module imports (chunks, or another entry's module; not the runtime), as absolute paths. */
export function imports(file: string): string[] {
  return [...text(file).matchAll(/^import \{ [^}]+ \} from "(\.[^"]+)";$/gm)]
    .map((m) => path.resolve(path.dirname(file), m[1]!))
    .filter((f) => f.startsWith(`${GENERATED}${path.sep}`));
}

/** A module and every module it imports, transitively. */
export function closure(file: string): Set<string> {
  const seen = new Set<string>();
  const stack = [file];
  for (let f = stack.pop(); f !== undefined; f = stack.pop()) {
    if (seen.has(f)) continue;
    seen.add(f);
    stack.push(...imports(f));
  }
  return seen;
}

/**
 * The declarations of a module: each starts a line and runs to the next top-level line (Ajv's
 * code spans lines where it writes an object literal over several, as in `dependencies` errors).
 */
export function declarationsOf(file: string): GeneratedDeclaration[] {
  const out: Array<{ name: string; code: string; file: string }> = [];
  let current: { name: string; code: string; file: string } | undefined;
  for (const line of text(file).split('\n')) {
    const m = /^(?:function ([vspfu]_[0-9a-z]{10})\(|const ([vspfu]_[0-9a-z]{10}) = )/.exec(line);
    if (m !== null) out.push((current = { name: (m[1] ?? m[2])!, code: line, file }));
    else if (/^(import|export|\/\/) /.test(line)) current = undefined;
    else if (current !== undefined) current.code += `\n${line}`;
  }
  return out;
}

/**
 * The declarations an entry's validators (its `response`, `request`, `working`, ... exports) reach, through
 * the modules it imports; not what its module holds for other entries.
 */
export function reached(entry: string): GeneratedDeclaration[] {
  const byName = new Map<string, GeneratedDeclaration>();
  for (const f of closure(entry)) for (const d of declarationsOf(f)) byName.set(d.name, d);
  const variants = [...text(entry).matchAll(/\b([vspfu]_[0-9a-z]{10}) as (?:response|request|working|submitted|input_required)\b/g)];
  const stack = variants.map((m) => m[1]!);
  const out = new Map<string, GeneratedDeclaration>();
  for (let name = stack.pop(); name !== undefined; name = stack.pop()) {
    const d = byName.get(name);
    if (d === undefined || out.has(name)) continue;
    out.set(name, d);
    stack.push(...[...d.code.matchAll(CONTENT_NAME)].map((m) => m[0]));
  }
  return [...out.values()];
}

/** Every version, with its entry files. */
export function releases(): Array<{ version: Version; entries: string[] }> {
  // The patch fallback's modules (patch-*.js) are compiled from an earlier patch's schemas, not the release's.
  return versions.map((version) => ({ version, entries: entryFiles(version).filter((f) => !path.basename(f).startsWith('patch-')) }));
}
