/**
 * scripts/release.sh, run for real in a scratch git repository holding a copy of it, with `npm` and
 * `npx` stubbed by scripts that log their arguments (and `npm pack` writing an empty tarball): the
 * refusals come before any gate (outside CI, without a token, on a dirty or untagged tree, a version
 * already published), a token never shows in the output, and the gates run in CI's order on the
 * tarball that is then published with provenance, or stop everything when one fails.
 */
import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeEach, describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TOKEN = 'npm_Fake0Token1For2The3Release4Test';

const work = mkdtempSync(path.join(tmpdir(), 'adcp-decode-release-'));
const repo = path.join(work, 'repo');
const bin = path.join(work, 'bin');
const log = path.join(work, 'commands.log');
const home = path.join(work, 'home');
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A stub that logs `<name> <args>` and does what the script needs of the real command. */
const STUB = `#!/usr/bin/env bash
echo "$(basename "$0") $*" >> "$RELEASE_LOG"
if [ "$(basename "$0")" = npm ]; then
  case "$1" in
    test) exit "\${FAIL_NPM_TEST:-0}" ;;
    pack) while [ $# -gt 0 ]; do [ "$1" = --pack-destination ] && : > "$2/adcp-decode-0.1.0.tgz"; shift; done ;;
    view) [ -n "\${PUBLISHED:-}" ] && echo 0.1.0 && exit 0; exit 1 ;;
    whoami) echo buyer-bot ;;
  esac
fi
exit 0
`;

function git(...args: string[]): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile('git', ['-c', 'user.name=Release Test', '-c', 'user.email=release@example.test', ...args], { cwd: repo }, (error) =>
      error === null ? resolve() : reject(error),
    ),
  );
}

interface Run {
  readonly code: number;
  readonly output: string;
  readonly commands: string[];
}

/** Runs the copy of the script with only the variables given (and PATH: the stubs first). */
function release(args: string[], env: Record<string, string> = {}): Promise<Run> {
  writeFileSync(log, '');
  return new Promise((resolve) =>
    execFile(
      path.join(repo, 'scripts', 'release.sh'),
      args,
      { cwd: repo, env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: home, RELEASE_LOG: log, ...env } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        const commands = readFileSync(log, 'utf8').split('\n').filter(Boolean);
        resolve({ code, output: `${stdout}${stderr}`, commands });
      },
    ),
  );
}

beforeEach(async () => {
  rmSync(repo, { recursive: true, force: true });
  mkdirSync(path.join(repo, 'scripts'), { recursive: true });
  mkdirSync(bin, { recursive: true });
  mkdirSync(home, { recursive: true });
  copyFileSync(path.join(ROOT, 'scripts', 'release.sh'), path.join(repo, 'scripts', 'release.sh'));
  writeFileSync(path.join(repo, 'package.json'), JSON.stringify({ name: 'adcp-decode', version: '0.1.0' }));
  for (const name of ['npm', 'npx']) {
    writeFileSync(path.join(bin, name), STUB);
    chmodSync(path.join(bin, name), 0o755);
  }
  await git('init', '-q');
  await git('add', '-A');
  await git('commit', '-q', '-m', 'release 0.1.0');
});

const ci = { GITHUB_ACTIONS: 'true', NODE_AUTH_TOKEN: TOKEN };

describe('refusals, before any gate runs', () => {
  test('an unknown argument is a usage error', async () => {
    const run = await release(['--yes']);
    expect(run).toMatchObject({ code: 2, commands: [] });
    expect(run.output).toContain('usage: scripts/release.sh [--dry-run]');
  });

  test('outside GitHub Actions or GitLab CI: provenance cannot be made there', async () => {
    const run = await release([], { NODE_AUTH_TOKEN: TOKEN });
    expect(run).toMatchObject({ code: 1, commands: [] });
    expect(run.output).toMatch(/refused: npm publishes with --provenance only from GitHub Actions \(id-token: write\) or GitLab CI/);
  });

  test('no NODE_AUTH_TOKEN and no .npmrc token', async () => {
    const run = await release([], { GITLAB_CI: 'true' });
    expect(run).toMatchObject({ code: 1, commands: [] });
    expect(run.output).toContain('refused: no registry token');
  });

  test('a dirty tree, then an untagged HEAD; the token never shows', async () => {
    writeFileSync(path.join(repo, 'notes.txt'), 'uncommitted');
    const dirty = await release([], ci);
    expect(dirty).toMatchObject({ code: 1, commands: [] });
    expect(dirty.output).toContain('refused: the work tree has changes');
    rmSync(path.join(repo, 'notes.txt'));
    const untagged = await release([], ci);
    expect(untagged).toMatchObject({ code: 1, commands: [] });
    expect(untagged.output).toContain('refused: HEAD is not tagged v0.1.0');
    for (const run of [dirty, untagged]) expect(run.output).not.toContain(TOKEN);
  });

  test('a token in the userconfig .npmrc counts; a version already on the registry is refused', async () => {
    await git('tag', 'v0.1.0');
    const npmrc = path.join(home, '.npmrc');
    writeFileSync(npmrc, `//registry.npmjs.org/:_authToken=${TOKEN}\n`);
    const run = await release([], { GITHUB_ACTIONS: 'true', PUBLISHED: '1' });
    rmSync(npmrc);
    expect(run.code).toBe(1);
    expect(run.output).toContain('refused: adcp-decode@0.1.0 is already on the registry');
    expect(run.commands).toEqual(['npm view adcp-decode@0.1.0 version --registry https://registry.npmjs.org/']);
  });
});

describe('the gates, then the publish of the tarball they checked', () => {
  /** The commands with the scratch directory's name replaced by `<tmp>`. */
  const shown = (commands: string[]) =>
    commands.map((c) => c.replace(/\/[^ ]*\/(?=adcp-decode-0\.1\.0\.tgz)|(?<=--pack-destination )\S+/g, '<tmp>/'));

  test('in CI, tagged and clean: npm test, pack, publint, attw, then npm publish --provenance', async () => {
    await git('tag', 'v0.1.0');
    const run = await release([], ci);
    expect(run.code).toBe(0);
    expect(shown(run.commands)).toEqual([
      'npm view adcp-decode@0.1.0 version --registry https://registry.npmjs.org/',
      'npm whoami --registry https://registry.npmjs.org/',
      'npm test',
      'npm pack --pack-destination <tmp>/',
      'npx --no-install publint run <tmp>/adcp-decode-0.1.0.tgz --strict',
      'npx --no-install attw <tmp>/adcp-decode-0.1.0.tgz --profile esm-only --no-definitely-typed --format table-flipped',
      'npm publish <tmp>/adcp-decode-0.1.0.tgz --provenance --access public --registry https://registry.npmjs.org/',
    ]);
    expect(run.output).not.toContain(TOKEN);
  });

  test('--dry-run anywhere, without a token: the same gates, then npm publish --dry-run', async () => {
    const run = await release(['--dry-run']);
    expect(run.code).toBe(0);
    expect(shown(run.commands)).toEqual([
      'npm test',
      'npm pack --pack-destination <tmp>/',
      'npx --no-install publint run <tmp>/adcp-decode-0.1.0.tgz --strict',
      'npx --no-install attw <tmp>/adcp-decode-0.1.0.tgz --profile esm-only --no-definitely-typed --format table-flipped',
      'npm publish <tmp>/adcp-decode-0.1.0.tgz --dry-run --access public --registry https://registry.npmjs.org/',
    ]);
  });

  test('a failing gate stops the release: nothing is packed or published', async () => {
    await git('tag', 'v0.1.0');
    const run = await release([], { ...ci, FAIL_NPM_TEST: '1' });
    expect(run.code).toBe(1);
    expect(run.commands.at(-1)).toBe('npm test');
    expect(run.commands.some((c) => c.startsWith('npm publish'))).toBe(false);
  });
});
