/**
 * The spec's signed protocol tarball (`<version>.tgz`), read in memory under the bounds of
 * tree.ts: every entry must be a plain file or a folder whose path stays inside the archive (no
 * link, device or absolute or `..` path, anywhere in it), its schema root is the folder of the one
 * `manifest.json` that describes a release, and only the files under that root (and the discovery
 * `index.json` beside it) are kept. Nothing is written to disk. The caller checks the archive's
 * hash before calling this.
 */
import { Parser, type ReadEntry } from 'tar';
import { type FileTree, isInsideRoot, TREE_LIMITS, type TreeLimits } from './tree.js';

/** What one pass over the archive found: every entry's path (files only), and the bytes of those kept. */
interface Scan {
  readonly files: readonly string[];
  readonly kept: Map<string, Buffer>;
}

/** Entry types that are data: a file (in any of tar's spellings) or a folder. */
const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

/** The largest manifest.json read while looking for the schema root. */
const MANIFEST_BYTES = 4 * 1024 * 1024;

/**
 * One pass over the archive: checks every entry, keeps the bytes of those `keep` selects.
 *
 * @param bytes The archive (gzipped or not: tar's parser tells).
 * @param label What errors call it.
 * @param keep Which files to hold in memory.
 * @param limits The bounds.
 */
function scan(bytes: Buffer, label: string, keep: (rel: string, size: number) => boolean, limits: TreeLimits): Promise<Scan> {
  return new Promise((resolve, reject) => {
    const files: string[] = [];
    const kept = new Map<string, Buffer>();
    let total = 0;
    let failed = false;
    const fail = (message: string): void => {
      if (failed) return;
      failed = true;
      reject(new Error(`${label}: ${message}`));
    };
    const onReadEntry = (entry: ReadEntry): void => {
      const problem = failed ? undefined : check(entry);
      if (problem !== undefined) fail(problem);
      const rel = entry.path.replace(/\/+$/, '');
      if (failed || entry.type === 'Directory' || !keep(rel, entry.size)) {
        entry.resume();
        return;
      }
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => kept.set(rel, Buffer.concat(chunks)));
    };
    /** What is wrong with an entry, counting it against the bounds. */
    const check = (entry: ReadEntry): string | undefined => {
      const rel = entry.path.replace(/\/+$/, '');
      if (entry.type !== 'Directory' && !FILE_TYPES.has(entry.type))
        return `holds ${JSON.stringify(entry.path).slice(0, 200)}, a ${entry.type} entry; a release archive holds plain files and folders only`;
      if (!isInsideRoot(rel)) return `holds the path ${JSON.stringify(entry.path).slice(0, 200)}, which leaves the archive`;
      if (entry.type === 'Directory') return undefined;
      files.push(rel);
      total += entry.size;
      if (files.length > limits.files) return `more than ${limits.files} files; a release's schemas are far fewer`;
      if (entry.size > limits.fileBytes) return `${rel} is ${entry.size} bytes, more than ${limits.fileBytes}`;
      if (total > limits.bytes) return `more than ${limits.bytes} bytes of files; a release's schemas are far smaller`;
      return undefined;
    };
    const parser = new Parser({ strict: true, onReadEntry });
    parser.on('error', (error: Error) => fail(`not a readable tar archive (${error.message})`));
    parser.on('end', () => {
      if (!failed) resolve({ files, kept });
    });
    parser.end(bytes);
  });
}

/** A release manifest: an object naming its version and its tools. */
function isReleaseManifest(value: unknown): value is { adcp_version: string } {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as { adcp_version?: unknown; tools?: unknown };
  return typeof m.adcp_version === 'string' && typeof m.tools === 'object' && m.tools !== null;
}

/** The folder of a path, `''` at the top. */
function dirOf(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? '' : rel.slice(0, slash);
}

/** A tarball's schema root and its files. */
export interface TarballTree {
  /** The schema root's path inside the archive (`''` at the top). */
  readonly root: string;
  /** The files under it, by their path below it. */
  readonly files: FileTree;
  /** The discovery document beside the root (`<root>/../index.json`), when the archive holds one. */
  readonly discovery?: Buffer | undefined;
}

/**
 * Reads a release tarball: checks every entry, finds the schema root by its manifest.json (the one
 * naming `version` when a name gives it, else the only one), and returns the files under it.
 *
 * @param bytes The archive's bytes (already checked against its published hash).
 * @param label What errors call it (its file name).
 * @param version The version its file name gives (`3.2.1.tgz`), to choose among several manifests.
 * @param limits The bounds.
 * @returns The root and its files.
 * @throws Error for an entry that is not a plain file or folder, a path that leaves the archive, a
 *   bound broken, an archive tar cannot read, or no (or no single) release manifest.
 * @example
 * const { files } = await readTarball(readFileSync('3.2.1.tgz'), '3.2.1.tgz', '3.2.1');
 */
export async function readTarball(bytes: Buffer, label: string, version?: string, limits: TreeLimits = TREE_LIMITS): Promise<TarballTree> {
  const manifests = await scan(bytes, label, (rel, size) => rel.split('/').at(-1) === 'manifest.json' && size <= MANIFEST_BYTES, limits);
  const candidates: Array<{ root: string; version: string }> = [];
  for (const [rel, text] of manifests.kept) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.toString('utf8'));
    } catch {
      continue;
    }
    if (isReleaseManifest(parsed)) candidates.push({ root: dirOf(rel), version: parsed.adcp_version });
  }
  const named = version === undefined ? candidates : candidates.filter((c) => c.version === version);
  const chosen = named.length === 1 ? named : candidates.length === 1 ? candidates : [];
  const root = chosen[0]?.root;
  if (root === undefined) {
    const found = candidates.map((c) => `${c.root || '.'}/manifest.json (${c.version})`).join(', ');
    throw new Error(
      candidates.length === 0
        ? `${label}: holds no release manifest.json (an object with adcp_version and tools); is it the spec's protocol tarball?`
        : `${label}: holds several release manifests (${found.slice(0, 400)}); name the archive <version>.tgz to choose`,
    );
  }
  const prefix = root === '' ? '' : `${root}/`;
  const parent = dirOf(root);
  const discoveryPath = root === '' ? undefined : `${parent === '' ? '' : `${parent}/`}index.json`;
  const { kept } = await scan(bytes, label, (rel) => rel.startsWith(prefix) || rel === discoveryPath, limits);
  const files = new Map<string, Buffer>();
  for (const [rel, data] of [...kept].sort(([a], [b]) => (a < b ? -1 : 1)))
    if (rel.startsWith(prefix)) files.set(rel.slice(prefix.length), data);
  return { root, files, discovery: discoveryPath === undefined ? undefined : kept.get(discoveryPath) };
}
