/**
 * What the generator reads a release from (src/generate/source.ts, tarball.ts, tree.ts): a folder
 * or the spec's tarball, the tarball checked against its published SHA-256 before anything in it
 * is read, both bounded and refusing links and paths that leave them, and a release the spec
 * withdrew or never published refused. The sources are built from the reference copy of
 * 3.2.0-beta.6 in a temporary folder.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { readSource } from '../../src/generate/source.js';
import { readTarball } from '../../src/generate/tarball.js';
import { readFolderTree, treeSha256 } from '../../src/generate/tree.js';
import { BETA6_VERSION, beta6Folder } from '../fixtures/beta6-schemas.js';
import { beta6Files, editJson, type Files, releaseTarball, tarball, writeRelease, writeTarball } from '../fixtures/release-sources.js';

const temps: string[] = [];
function temp(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'adcp-source-'));
  temps.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** The small release files the tarball tests need (the manifest and what names the version), not all 880. */
function fewFiles(): Files {
  const all = beta6Files();
  return new Map(['manifest.json', 'index.json', 'enums/task-status.json'].map((rel) => [rel, all.get(rel)!]));
}

/** What a refused read threw. */
async function refusal(read: Promise<unknown>): Promise<string> {
  try {
    await read;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the source to be refused');
}

describe('a folder', () => {
  test("its version is its manifest's; its SHA-256 is what sha256sum gives, as beta.6's provenance states it", async () => {
    const source = await readSource(beta6Folder());
    expect(source.version).toBe(BETA6_VERSION);
    expect(source.files.size).toBe(880);
    const provenance = readFileSync(path.join(beta6Folder(), '..', `${BETA6_VERSION}.PROVENANCE.md`), 'utf8');
    const stated = /sha256 of the sorted per-file sha256 list \| `([0-9a-f]{64})`/.exec(provenance)?.[1];
    expect(stated).toMatch(/^[0-9a-f]{64}$/);
    expect(source.sha256).toBe(stated);
    expect(treeSha256(source.files)).toBe(stated);
  });

  test('a symbolic link in it is refused, not followed', () => {
    const dir = writeRelease(path.join(temp(), 'release'), fewFiles());
    symlinkSync('/etc/hostname', path.join(dir, 'enums', 'outside.json'));
    expect(() => readFolderTree(dir)).toThrow(/outside\.json: a symbolic link; a release folder holds plain files only/);
  });

  test('a folder without manifest.json is refused, naming what to give', async () => {
    const dir = temp();
    writeFileSync(path.join(dir, 'notes.json'), '{}');
    expect(await refusal(readSource(dir))).toMatch(/holds no manifest\.json; give the release's schema folder/);
  });

  test('a release its own index.json marks withdrawn is refused', async () => {
    const files = editJson(fewFiles(), 'index.json', (index) => {
      index.stability = 'withdrawn';
    });
    const dir = writeRelease(path.join(temp(), BETA6_VERSION), files);
    expect(await refusal(readSource(dir))).toBe(
      `AdCP ${BETA6_VERSION} is not a published release (its index.json: stability "withdrawn"): the spec withdrew it or never published it; generate a release it publishes`,
    );
  });

  test('a release the discovery document marks unpublished is refused: beside the folder, or given', async () => {
    const root = temp();
    const dir = writeRelease(path.join(root, BETA6_VERSION), fewFiles());
    const discovery = { versions: [{ version: BETA6_VERSION, stability: 'unpublished', published: false }] };
    writeFileSync(path.join(root, 'index.json'), JSON.stringify(discovery));
    expect(await refusal(readSource(dir))).toMatch(/is not a published release \(.*index\.json: stability "unpublished"\)/);
    // Given with --index, for a folder laid out elsewhere; one that lists the version as stable lets it through.
    const elsewhere = writeRelease(path.join(temp(), 'schemas'), fewFiles());
    const given = path.join(temp(), 'discovery.json');
    writeFileSync(given, JSON.stringify({ versions: [{ version: BETA6_VERSION, stability: 'withdrawn', withdrawn: true }] }));
    expect(await refusal(readSource(elsewhere, { index: given }))).toMatch(/discovery\.json: stability "withdrawn"/);
    writeFileSync(given, JSON.stringify({ versions: [{ version: BETA6_VERSION, stability: 'beta' }] }));
    expect((await readSource(elsewhere, { index: given })).version).toBe(BETA6_VERSION);
  });
});

describe('a tarball', () => {
  test('checked against the .sha256 beside it, then read: the files under the root its manifest names, the same as the folder', async () => {
    const files = beta6Files();
    const bytes = releaseTarball(files, BETA6_VERSION);
    const file = writeTarball(temp(), `${BETA6_VERSION}.tgz`, bytes);
    const source = await readSource(file);
    expect(source.version).toBe(BETA6_VERSION);
    expect(source.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect([...source.files.keys()]).toEqual([...files.keys()].sort((a, b) => (a < b ? -1 : 1)));
    for (const [rel, data] of files) expect(source.files.get(rel)?.equals(data), rel).toBe(true);
  });

  test('a hash that does not match refuses the archive before reading it; --sha256 stands for the file beside it', async () => {
    const dir = temp();
    // Not even an archive: only its hash is read, so the refusal is the hash's.
    const garbage = Buffer.from('not a tarball at all');
    const file = writeTarball(dir, `${BETA6_VERSION}.tgz`, garbage, 'ab'.repeat(32));
    const actual = createHash('sha256').update(garbage).digest('hex');
    expect(await refusal(readSource(file))).toBe(
      `${file}: its SHA-256 is ${actual}, but ${BETA6_VERSION}.tgz.sha256 says ${'ab'.repeat(32)}: refused (a corrupt or altered download)`,
    );
    expect(await refusal(readSource(file, { sha256: 'cd'.repeat(32) }))).toMatch(/but --sha256 says cdcd/);
    // The right hash given: the archive is read, and tar refuses it.
    expect(await refusal(readSource(file, { sha256: actual }))).toMatch(/not a readable tar archive|holds no release manifest/);
    const good = releaseTarball(fewFiles(), BETA6_VERSION);
    const goodFile = writeTarball(dir, `good-${BETA6_VERSION}.tgz`, good, '00'.repeat(32));
    expect((await readSource(goodFile, { sha256: createHash('sha256').update(good).digest('hex').toUpperCase() })).version).toBe(
      BETA6_VERSION,
    );
    expect(await refusal(readSource(goodFile, { sha256: 'xyz' }))).toMatch(/--sha256 "xyz" is not a SHA-256/);
  });

  test('without a .sha256 beside it and no --sha256, it is refused', async () => {
    const dir = temp();
    const file = path.join(dir, `${BETA6_VERSION}.tgz`);
    writeFileSync(file, releaseTarball(fewFiles(), BETA6_VERSION));
    expect(await refusal(readSource(file))).toMatch(
      /no 3\.2\.0-beta\.6\.tgz\.sha256 beside it; download the hash the spec publishes with the tarball, or pass --sha256 <hex>/,
    );
  });

  test.each([
    ['a symbolic link', { path: 'package/dist/schemas/link.json', type: '2', linkname: '/etc/passwd' }, /a SymbolicLink entry/],
    ['a hard link', { path: 'package/dist/schemas/hard.json', type: '1', linkname: 'package/dist/schemas/x' }, /a Link entry/],
    ['a device', { path: 'package/dist/schemas/tty', type: '3' }, /a CharacterDevice entry/],
    ['a path up and out', { path: 'package/../../etc/cron.d/job', data: Buffer.from('x') }, /leaves the archive/],
    ['an absolute path', { path: '/etc/cron.d/job', data: Buffer.from('x') }, /leaves the archive/],
  ] as const)('an archive holding %s anywhere is refused', async (_name, entry, why) => {
    const bytes = releaseTarball(fewFiles(), BETA6_VERSION, [entry]);
    expect(await refusal(readTarball(bytes, 'hostile.tgz', BETA6_VERSION))).toMatch(why);
  });

  test('bounded: more files, or more bytes, than a release holds', async () => {
    const many = tarball(Array.from({ length: 30 }, (_, i) => ({ path: `x/${i}.json`, data: Buffer.from('{}') })));
    expect(await refusal(readTarball(many, 'many.tgz', undefined, { files: 20, bytes: 1e6, fileBytes: 1e6 }))).toMatch(
      /more than 20 files/,
    );
    const big = tarball([{ path: 'x/big.json', data: Buffer.alloc(5000, 32) }]);
    expect(await refusal(readTarball(big, 'big.tgz', undefined, { files: 20, bytes: 1e6, fileBytes: 4096 }))).toMatch(
      /x\/big\.json is 5000 bytes/,
    );
    const sum = tarball(Array.from({ length: 4 }, (_, i) => ({ path: `x/${i}.json`, data: Buffer.alloc(3000, 32) })));
    expect(await refusal(readTarball(sum, 'sum.tgz', undefined, { files: 20, bytes: 10_000, fileBytes: 4096 }))).toMatch(
      /more than 10000 bytes/,
    );
  });

  test("several release manifests: the one the archive's name gives, else refused", async () => {
    const other = JSON.stringify({ adcp_version: '3.1.19', tools: {} });
    const bytes = releaseTarball(fewFiles(), BETA6_VERSION, [
      { path: 'package/dist/schemas/3.1.19/manifest.json', data: Buffer.from(other) },
    ]);
    expect((await readTarball(bytes, 'x.tgz', BETA6_VERSION)).root).toBe(`package/dist/schemas/${BETA6_VERSION}`);
    expect(await refusal(readTarball(bytes, 'x.tgz'))).toMatch(
      /holds several release manifests \(.*\); name the archive <version>\.tgz to choose/,
    );
    expect(await refusal(readTarball(tarball([{ path: 'readme.md', data: Buffer.from('hi') }]), 'x.tgz'))).toMatch(
      /holds no release manifest\.json/,
    );
  });

  test('a discovery document in the archive marking the release unpublished refuses it', async () => {
    const discovery = Buffer.from(JSON.stringify({ versions: [{ version: BETA6_VERSION, stability: 'unpublished', published: false }] }));
    const bytes = releaseTarball(fewFiles(), BETA6_VERSION, [{ path: 'package/dist/schemas/index.json', data: discovery }]);
    const file = writeTarball(temp(), `${BETA6_VERSION}.tgz`, bytes);
    expect(await refusal(readSource(file))).toMatch(
      /is not a published release \(3\.2\.0-beta\.6\.tgz:index\.json: stability "unpublished"\)/,
    );
  });
});
