/**
 * A release bump is a lock change: every bundled release must have its type namespace in
 * src/index.ts, its pinned package entry, its constant in test/fixtures/versions.ts and fuzz seeds in
 * both lanes. A release the lock adds but one of these leaves out fails here, not in a consumer.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { seeds } from '../../scripts/fuzz/seeds.js';
import { laneSeeds } from '../../scripts/fuzz/webhook-lane.js';
import { REPO_ROOT, readLockVersions } from '../../scripts/schema-paths.js';
import { versionIdent } from '../../src/generate/output.js';
import { versionFolders } from '../../src/generated/index.js';
import { releaseOf, versions } from '../../src/schema/versions.js';
import * as testVersions from '../fixtures/versions.js';

/** The type-only namespace exports of src/index.ts: name → module specifier. */
function typeNamespaces(): Map<string, string> {
  const file = path.join(REPO_ROOT, 'src/index.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out = new Map<string, string>();
  for (const s of source.statements) {
    if (!ts.isExportDeclaration(s) || !s.isTypeOnly || s.exportClause === undefined || !ts.isNamespaceExport(s.exportClause)) continue;
    if (s.moduleSpecifier !== undefined && ts.isStringLiteral(s.moduleSpecifier)) out.set(s.exportClause.name.text, s.moduleSpecifier.text);
  }
  return out;
}

const packageExports = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, { types?: string; default?: string } | string>;
  }
).exports;

test('the generated tables bundle what the lock pins, one patch per release', () => {
  expect(versions).toEqual(readLockVersions().versions);
  expect(new Set(versions.map(releaseOf)).size).toBe(versions.length);
});

describe.each([...versions])('bundled AdCP %s', (version) => {
  const release = releaseOf(version);
  const folder = versionFolders[version];

  test('its generated folder is named by its release', () => {
    expect(folder).toBe(versionIdent(version));
    expect(folder).toBe(`v${release.replace('.', '_')}`);
  });

  test('src/index.ts exports its type namespace, from its pinned entry', () => {
    expect(typeNamespaces().get(folder)).toBe(`./generated/${folder}/pinned.js`);
  });

  test('package.json exports its pinned entry by release', () => {
    expect(packageExports[`./${release}`]).toEqual({
      types: `./dist/generated/${folder}/pinned.d.ts`,
      default: `./dist/generated/${folder}/pinned.js`,
    });
  });

  test('test/fixtures/versions.ts names it', () => {
    expect(Object.entries(testVersions)).toContainEqual([`V${release.replace('.', '_')}`, version]);
  });

  test('the fuzzer has seeds of it: fixture payloads, webhook deliveries and polling answers', async () => {
    expect(seeds.filter((s) => s.version === version).length).toBeGreaterThan(0);
    const lane = await laneSeeds();
    expect(lane.deliveries.filter((d) => d.version === version).length).toBeGreaterThan(0);
    expect(lane.polls.filter((p) => p.version === version).length).toBeGreaterThan(0);
  }, 60_000);
});

test('src/index.ts exports no type namespace of a release that is not bundled', () => {
  const bundled = new Set(versions.map((v) => versionFolders[v]));
  expect([...typeNamespaces().keys()].filter((name) => /^v\d+_\d+$/.test(name) && !bundled.has(name))).toEqual([]);
});
