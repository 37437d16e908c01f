/**
 * What a release is generated from: a folder laid out like the spec's `dist/schemas/<version>/`
 * (its manifest.json and index.json at the top), or the spec's protocol tarball `<version>.tgz`,
 * whose bytes are checked against the SHA-256 published beside it (`<version>.tgz.sha256`, or
 * `--sha256`) before anything in it is read. Either is read whole and bounded (tree.ts,
 * tarball.ts); its version is its manifest's `adcp_version`; a version the spec marks withdrawn
 * or unpublished (its own index.json, or the discovery document `schemas/index.json`: given, or
 * found beside the schema root) is refused.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { VERSION } from '../schema/release.js';
import { readTarball } from './tarball.js';
import { type FileTree, jsonFile, readFolderTree, TREE_LIMITS, treeSha256 } from './tree.js';

/** A release's files and where they came from. */
export interface ReleaseSource {
  /** The manifest's `adcp_version`, e.g. `3.2.0-beta.6`. */
  readonly version: string;
  /** The SHA-256 of the tarball, or of the folder's files (treeSha256). */
  readonly sha256: string;
  /** What errors and the output call it: the path given. */
  readonly label: string;
  /** The files under the schema root. */
  readonly files: FileTree;
}

/** Where a release's source is, and what to check it against. */
export interface SourceOptions {
  /** The tarball's expected SHA-256 (hex), instead of the `.sha256` file beside it. */
  readonly sha256?: string | undefined;
  /** The spec's discovery document (`schemas/index.json`), to refuse a withdrawn or unpublished release. */
  readonly index?: string | undefined;
}

/** The largest `.sha256` file and discovery document read. */
const SMALL_FILE = 4 * 1024 * 1024;

function small(file: string, what: string): Buffer {
  const size = statSync(file).size;
  if (size > SMALL_FILE) throw new Error(`${file}: ${size} bytes, too large for ${what}`);
  return readFileSync(file);
}

/** The SHA-256 a tarball must have: given, or the one hex digest of the `.sha256` file beside it. */
function expectedSha256(file: string, given: string | undefined): { hex: string; from: string } {
  if (given !== undefined) {
    if (!/^[0-9a-fA-F]{64}$/.test(given))
      throw new Error(`--sha256 ${JSON.stringify(given.slice(0, 80))} is not a SHA-256 (64 hex digits)`);
    return { hex: given.toLowerCase(), from: '--sha256' };
  }
  const beside = `${file}.sha256`;
  if (!existsSync(beside))
    throw new Error(
      `${file}: no ${path.basename(beside)} beside it; download the hash the spec publishes with the tarball, or pass --sha256 <hex>`,
    );
  const digests =
    small(beside, 'a .sha256 file')
      .toString('utf8')
      .match(/\b[0-9a-fA-F]{64}\b/g) ?? [];
  if (digests.length !== 1) throw new Error(`${beside}: expected one SHA-256 (64 hex digits), found ${digests.length}`);
  return { hex: digests[0]!.toLowerCase(), from: path.basename(beside) };
}

/** The version a tarball's name gives (`3.2.1.tgz`, `adcp-3.2.1.tar.gz`), to pick its manifest. */
function versionInName(file: string): string | undefined {
  const match = /(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+?)?)\.(?:tgz|tar\.gz|tar)$/.exec(path.basename(file));
  return match?.[1];
}

/** Whether a release entry (a version index.json, or an entry of the discovery document) says it is withdrawn or unpublished, and how. */
function markedUnusable(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const e = entry as { stability?: unknown; withdrawn?: unknown; published?: unknown };
  if (e.stability === 'withdrawn' || e.stability === 'unpublished') return `stability "${e.stability}"`;
  if (e.withdrawn === true) return 'withdrawn: true';
  if (e.published === false) return 'published: false';
  return undefined;
}

/** The discovery document's entry of a version, if the document lists it. */
function discoveryEntry(document: unknown, version: string): unknown {
  const versions = typeof document === 'object' && document !== null ? (document as { versions?: unknown }).versions : undefined;
  return Array.isArray(versions)
    ? versions.find((v) => typeof v === 'object' && v !== null && (v as { version?: unknown }).version === version)
    : undefined;
}

/** A discovery document's bytes, parsed, or an error naming where it came from. */
function discoveryOf(bytes: Buffer, where: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new Error(`${where}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!Array.isArray((parsed as { versions?: unknown } | null)?.versions))
    throw new Error(`${where}: not the spec's discovery document (schemas/index.json, with a "versions" list)`);
  return parsed;
}

/**
 * Refuses a release the spec marks withdrawn or unpublished: its own index.json, or its entry in
 * the discovery document.
 *
 * @param version The release's version.
 * @param files Its files (its index.json).
 * @param discoveries The discovery documents read (given, found beside the root), each with where it came from.
 * @throws Error naming the release, the mark and where it was read.
 * @example
 * checkPublished('3.1.3', files, [{ document, where: 'schemas/index.json' }]); // throws: withdrawn
 */
function checkPublished(version: string, files: FileTree, discoveries: ReadonlyArray<{ document: unknown; where: string }>): void {
  const own = markedUnusable(jsonFile(files, 'index.json', `AdCP ${version}`));
  const marks = [
    ...(own === undefined ? [] : [`its index.json: ${own}`]),
    ...discoveries.flatMap(({ document, where }) => {
      const listed = markedUnusable(discoveryEntry(document, version));
      return listed === undefined ? [] : [`${where}: ${listed}`];
    }),
  ];
  const mark = marks[0];
  if (mark !== undefined)
    throw new Error(
      `AdCP ${version} is not a published release (${mark}): the spec withdrew it or never published it; generate a release it publishes`,
    );
}

/** The version a release's manifest names, checked. */
function manifestVersion(files: FileTree, label: string): string {
  const manifest = jsonFile(files, 'manifest.json', label);
  const version = typeof manifest === 'object' && manifest !== null ? (manifest as { adcp_version?: unknown }).adcp_version : undefined;
  if (manifest === undefined)
    throw new Error(`${label}: holds no manifest.json; give the release's schema folder (dist/schemas/<version>/) or its tarball`);
  if (typeof version !== 'string' || !VERSION.test(version))
    throw new Error(`${label}/manifest.json: adcp_version ${JSON.stringify(version)} is not an AdCP version such as 3.2.1`);
  return version;
}

/**
 * Reads a release's source: a folder, or a `.tgz` checked against its SHA-256 first.
 *
 * @param source The folder or tarball.
 * @param options The tarball's hash, the discovery document.
 * @returns The release's version, files and SHA-256.
 * @throws Error for a missing source, a hash that does not match (nothing else is read then), a
 *   source tree.ts or tarball.ts refuses, a manifest without a version, or a release the spec
 *   withdrew or never published.
 * @example
 * const release = await readSource('3.2.1.tgz', {});
 */
export async function readSource(source: string, options: SourceOptions = {}): Promise<ReleaseSource> {
  if (!existsSync(source)) throw new Error(`${source}: no such folder or file`);
  let files: FileTree;
  let sha256: string;
  let found: { document: unknown; where: string } | undefined;
  if (statSync(source).isDirectory()) {
    files = readFolderTree(source);
    sha256 = treeSha256(files);
    const beside = path.join(source, '..', 'index.json');
    if (existsSync(beside)) {
      try {
        found = { document: discoveryOf(small(beside, 'a discovery document'), beside), where: beside };
      } catch {
        found = undefined; // an index.json beside the folder that is not the discovery document is not ours to judge
      }
    }
  } else {
    if (!/\.(tgz|tar\.gz|tar)$/.test(source)) throw new Error(`${source}: neither a schema folder nor a release tarball (.tgz)`);
    const size = statSync(source).size;
    if (size > TREE_LIMITS.bytes) throw new Error(`${source}: ${size} bytes, more than ${TREE_LIMITS.bytes}; not a release tarball`);
    const bytes = readFileSync(source);
    const expected = expectedSha256(source, options.sha256);
    sha256 = createHash('sha256').update(bytes).digest('hex');
    if (sha256 !== expected.hex)
      throw new Error(
        `${source}: its SHA-256 is ${sha256}, but ${expected.from} says ${expected.hex}: refused (a corrupt or altered download)`,
      );
    const tree = await readTarball(bytes, path.basename(source), versionInName(source));
    files = tree.files;
    if (tree.discovery !== undefined) {
      const where = `${path.basename(source)}:index.json`;
      found = { document: discoveryOf(tree.discovery, where), where };
    }
  }
  const version = manifestVersion(files, source);
  const given =
    options.index === undefined
      ? []
      : [{ document: discoveryOf(small(options.index, 'a discovery document'), options.index), where: options.index }];
  checkPublished(version, files, [...given, ...(found === undefined ? [] : [found])]);
  return { version, sha256, label: source, files };
}
