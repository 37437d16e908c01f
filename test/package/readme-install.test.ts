/**
 * The README's Install section says what works today: the package is not on the registry, so it
 * installs the tarball `npm pack` writes, by the name npm gives it (package.json's name and
 * version), the route package.test.ts runs end to end (pack, install into an empty project, use);
 * and the release it points to is package.json's `release` script, an executable scripts/release.sh
 * (test/scripts/release.test.ts runs it).
 */
import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { REPO_ROOT } from '../../scripts/schema-paths.js';

const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  scripts: Record<string, string>;
};

/** The text of a `## ` section of the README, up to the next one. */
function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  expect(start, title).toBeGreaterThanOrEqual(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

test('Install: the packed tarball, by the name npm pack writes, not a registry install', () => {
  const install = section('Install');
  const commands = [...install.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].flatMap((m) => m[1]!.split('\n')).join('\n');
  expect(commands).toMatch(/\bnpm ci && npm pack\b/);
  expect(commands).toContain(`npm install ../${pkg.name}/${pkg.name}-${pkg.version}.tgz`);
  expect(commands).not.toMatch(new RegExp(`npm (install|i) ${pkg.name}(\\s|$)`));
  expect(install).toContain('not on the npm registry yet');
});

test('Contributing: npm run release is scripts/release.sh, executable', () => {
  expect(section('Contributing')).toContain('npm run release -- --dry-run');
  expect(pkg.scripts.release).toBe('scripts/release.sh');
  expect(() => accessSync(path.join(REPO_ROOT, 'scripts', 'release.sh'), constants.X_OK)).not.toThrow();
});
