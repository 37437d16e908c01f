/**
 * A release's files as codegen reads them: read whole into memory, bounded, before any is parsed,
 * keyed by their path under the schema root (with `/`). A folder is read here; a tarball by
 * tarball.ts. Both refuse links and paths that leave the root, so what codegen reads is exactly
 * what the source holds.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Path under the root (`core/product.json`) → bytes. */
export type FileTree = ReadonlyMap<string, Buffer>;

/** How much a source may hold: a release is about a thousand files and 15 MB; the spec's tarball a few times that. */
export interface TreeLimits {
  readonly files: number;
  readonly bytes: number;
  readonly fileBytes: number;
}

/** The bounds every source is read under. */
export const TREE_LIMITS: TreeLimits = { files: 20_000, bytes: 512 * 1024 * 1024, fileBytes: 64 * 1024 * 1024 };

/**
 * Whether a path read from a source stays inside its root.
 *
 * @param rel The path, `/`-separated.
 * @returns True for a relative path without empty, `.` or `..` segments, backslashes or control characters.
 * @example
 * isInsideRoot('core/product.json'); // true
 * isInsideRoot('../etc/passwd'); // false
 */
export function isInsideRoot(rel: string): boolean {
  if (rel === '' || rel.startsWith('/') || /[\\\0-\x1f]/.test(rel)) return false;
  return rel.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/** A source that breaks a bound, with the bound and how to read it. */
function tooLarge(label: string, what: string): Error {
  return new Error(`${label}: ${what}; a release's schemas are far smaller, so this is not one`);
}

/**
 * Every file under a folder, read whole, in sorted order, under the bounds; symbolic links and
 * special files are refused rather than followed.
 *
 * @param dir The folder.
 * @param limits The bounds (TREE_LIMITS by default).
 * @returns Path under `dir` → bytes.
 * @throws Error for a link, a special file, or a bound broken; the file system's error otherwise.
 * @example
 * readFolderTree('schemas/3.2.0-beta.6').get('manifest.json');
 */
export function readFolderTree(dir: string, limits: TreeLimits = TREE_LIMITS): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  let bytes = 0;
  const walk = (rel: string): void => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      const child = rel === '' ? name : `${rel}/${name}`;
      const stat = lstatSync(path.join(dir, child));
      if (stat.isDirectory()) walk(child);
      else if (!stat.isFile())
        throw new Error(
          `${path.join(dir, child)}: ${stat.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}; a release folder holds plain files only`,
        );
      else {
        if (out.size >= limits.files) throw tooLarge(dir, `more than ${limits.files} files`);
        if (stat.size > limits.fileBytes) throw tooLarge(path.join(dir, child), `${stat.size} bytes, more than ${limits.fileBytes}`);
        bytes += stat.size;
        if (bytes > limits.bytes) throw tooLarge(dir, `more than ${limits.bytes} bytes of files`);
        out.set(child, readFileSync(path.join(dir, child)));
      }
    }
  };
  walk('');
  return out;
}

/**
 * The SHA-256 of a folder's files as `sha256sum` lists them, sorted by path: the hash of the lines
 * `<hex>  ./<path>` (what `find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum`
 * prints inside the folder), so a reader can check it with the tools at hand.
 *
 * @param tree The files.
 * @returns Lowercase hex.
 * @example
 * treeSha256(readFolderTree(dir)); // '0781ee0c…'
 */
export function treeSha256(tree: FileTree): string {
  const hash = createHash('sha256');
  for (const rel of [...tree.keys()].sort(byBytes)) hash.update(`${createHash('sha256').update(tree.get(rel)!).digest('hex')}  ./${rel}\n`);
  return hash.digest('hex');
}

/** Byte order of two paths (what `sort` does under LC_ALL=C), not UTF-16 order. */
function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/**
 * A JSON file of a tree, parsed; a `__proto__` key anywhere is refused, since codegen copies
 * objects key by key.
 *
 * @param tree The files.
 * @param rel The file's path.
 * @param label What the error calls the tree, e.g. `AdCP 3.2.0-beta.6`.
 * @returns The value, or undefined when the tree has no such file.
 * @throws Error for a file that is not JSON or holds `__proto__`.
 * @example
 * jsonFile(tree, 'manifest.json', 'AdCP 3.1.19');
 */
export function jsonFile(tree: FileTree, rel: string, label: string): unknown {
  const bytes = tree.get(rel);
  if (bytes === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new Error(`${label}/${rel}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (holdsProto(value)) throw new Error(`${label}/${rel}: holds a "__proto__" key, which codegen refuses`);
  return value;
}

function holdsProto(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsProto);
  if (typeof value !== 'object' || value === null) return false;
  return Object.keys(value).some((k) => k === '__proto__' || holdsProto((value as Record<string, unknown>)[k]));
}
