/**
 * The command-line transcripts are what the CLI prints today: every `$ adcp-decode ...` line of the
 * README's Command line section (its successes and the exact output of a failure) and of
 * docs/cli.md is run by a shell, in the repository's root, with `adcp-decode` on PATH as the built
 * bin (dist/cli/main.js), and what it prints (stdout, then stderr) must be the lines the page shows
 * under it. Needs a build (`npm test` runs one first).
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { REPO_ROOT } from '../../scripts/schema-paths.js';

/** One transcript line: the command after `$ `, and the lines the README shows it printing. */
interface Transcript {
  readonly command: string;
  readonly printed: readonly string[];
}

/** The `$ adcp-decode` transcripts of a Markdown text, in order. */
function transcripts(section: string): Transcript[] {
  const out: Array<{ command: string; printed: string[] }> = [];
  let fence: string | undefined; // the open fence's info string ('' for a plain block)
  for (const line of section.split('\n')) {
    if (line.startsWith('```')) fence = fence === undefined ? line.slice(3) : undefined;
    else if (fence !== '') continue;
    else if (line.startsWith('$ ')) out.push({ command: line.slice(2), printed: [] });
    else out.at(-1)?.printed.push(line);
  }
  return out;
}

const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const start = readme.indexOf('\n## Command line\n');
/** The README's transcripts: its Command line section, up to the next section. */
const inReadme = start < 0 ? [] : transcripts(readme.slice(start, readme.indexOf('\n## ', start + 1)));
const shown = [...inReadme, ...transcripts(readFileSync(path.join(REPO_ROOT, 'docs/cli.md'), 'utf8'))];
const bin = mkdtempSync(path.join(tmpdir(), 'adcp-decode-readme-cli-'));
afterAll(() => rmSync(bin, { recursive: true, force: true }));
writeFileSync(path.join(bin, 'adcp-decode'), `#!/bin/sh\nexec "${process.execPath}" "${path.join(REPO_ROOT, 'dist/cli/main.js')}" "$@"\n`);
chmodSync(path.join(bin, 'adcp-decode'), 0o755);

/** What a shell prints for `command` in the repository root: stdout, then stderr, as lines. */
function printed(command: string): Promise<string[]> {
  return new Promise((resolve) => {
    const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, NO_COLOR: '1' };
    execFile('/bin/sh', ['-c', command], { cwd: REPO_ROOT, env }, (_error, stdout, stderr) =>
      resolve(`${stdout}${stderr}`.split('\n').filter((line, i, all) => i < all.length - 1 || line !== '')),
    );
  });
}

test('the README shows the CLI at work, with the exact output of a failure; docs/cli.md its usage errors', () => {
  expect(shown.map((t) => t.command.split(' ')[0])).toContain('adcp-decode');
  expect(shown.length).toBeGreaterThanOrEqual(7);
  expect(shown.every((t) => t.printed.length > 0)).toBe(true);
  expect(inReadme.filter((t) => t.printed[0]?.startsWith('✔ '))).not.toEqual([]);
  expect(
    inReadme.filter((t) => /^✖ \w+: SCHEMA_MISMATCH /.test(t.printed[0] ?? '') && t.printed.some((line) => line.includes('→ at '))),
  ).not.toEqual([]);
});

test.each(shown.map((t) => [t.command, t] as const))('`$ %s` prints what the page shows', { timeout: 60_000 }, async (_, t) => {
  expect(await printed(t.command)).toEqual(t.printed);
});
