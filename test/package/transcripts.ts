/**
 * The `$ adcp-decode` transcripts of the README's Command line section and of docs/cli.md, which
 * the tests run: in plain fenced blocks, commands that need nothing but the repository
 * (readme-cli.test.ts); in `console` blocks, commands that talk to a seller on 127.0.0.1
 * (readme-cli-live.test.ts, which serves the official SDK's reference sellers).
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../scripts/schema-paths.js';

/** One transcript line: the command after `$ `, and the lines the page shows it printing. */
export interface Transcript {
  readonly command: string;
  readonly printed: readonly string[];
}

/** The `$ ` transcripts of a Markdown text's blocks fenced with `info` (`''`: a plain fence), in order. */
function transcripts(markdown: string, info: string): Transcript[] {
  const out: Array<{ command: string; printed: string[] }> = [];
  let fence: string | undefined; // the open fence's info string ('' for a plain block)
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fence = fence === undefined ? line.slice(3) : undefined;
    else if (fence !== info) continue;
    else if (line.startsWith('$ ')) out.push({ command: line.slice(2), printed: [] });
    else out.at(-1)?.printed.push(line);
  }
  return out;
}

/**
 * The README's transcripts (its Command line section, up to the next section) and docs/cli.md's.
 *
 * @param info - The fence's info string: `''` for plain blocks, `'console'` for a live seller's.
 * @returns Both pages' transcripts, the README's first.
 */
export function pageTranscripts(info: string): { readonly inReadme: Transcript[]; readonly inDocs: Transcript[] } {
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Command line\n');
  const section = start < 0 ? '' : readme.slice(start, readme.indexOf('\n## ', start + 1));
  return { inReadme: transcripts(section, info), inDocs: transcripts(readFileSync(path.join(REPO_ROOT, 'docs/cli.md'), 'utf8'), info) };
}

/** A shell in the repository's root with `adcp-decode` on PATH as the built bin (dist/cli/main.js). */
export interface BinShell {
  /** What the shell prints for `command` (stdout, then stderr) as lines, with `env` added to the environment. */
  printed(command: string, env?: Readonly<Record<string, string>>): Promise<string[]>;
  /** Removes the folder of the bin's wrapper. */
  close(): void;
}

/**
 * A shell for the transcripts: `adcp-decode` a wrapper running this Node on the built bin.
 *
 * @returns The shell; close it after the tests.
 */
export function binShell(): BinShell {
  const bin = mkdtempSync(path.join(tmpdir(), 'adcp-decode-readme-cli-'));
  writeFileSync(
    path.join(bin, 'adcp-decode'),
    `#!/bin/sh\nexec "${process.execPath}" "${path.join(REPO_ROOT, 'dist/cli/main.js')}" "$@"\n`,
  );
  chmodSync(path.join(bin, 'adcp-decode'), 0o755);
  return {
    printed: (command, extra = {}) =>
      new Promise((resolve) => {
        const env = { ...process.env, ...extra, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, NO_COLOR: '1' };
        execFile('/bin/sh', ['-c', command], { cwd: REPO_ROOT, env }, (_error, stdout, stderr) =>
          resolve(`${stdout}${stderr}`.split('\n').filter((line, i, all) => i < all.length - 1 || line !== '')),
        );
      }),
    close: () => rmSync(bin, { recursive: true, force: true }),
  };
}
