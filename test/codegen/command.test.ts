/**
 * `adcp-decode generate`'s command line (src/generate/command.ts): its help, one line and exit 2
 * for a usage error, one line and exit 1 for a source it cannot use, and nothing written then.
 * What it writes: generate.test.ts; from the packed package: test/package/generate.test.ts.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { GENERATE_HELP, generateCommand } from '../../src/generate/command.js';

const dir = mkdtempSync(path.join(tmpdir(), 'adcp-generate-command-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the command; what it printed and its status. */
async function generate(...argv: string[]): Promise<{ exit: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const exit = await generateCommand(argv, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  });
  return { exit, stdout, stderr };
}

test('--help prints the usage, the peers to install and the exit statuses', async () => {
  expect(await generate('--help')).toEqual({ exit: 0, stdout: `${GENERATE_HELP}\n`, stderr: '' });
  expect(GENERATE_HELP).toMatch(/^Usage:\n {2}adcp-decode generate <source> --out <dir> \[options\]/);
  expect(GENERATE_HELP).toContain('npm install --save-dev ajv ajv-formats json-schema-to-typescript tar');
});

test.each([
  [[], 'expected a <source>: a release schema folder or <version>.tgz'],
  [['a', 'b', '--out', 'x'], 'expected one <source>, got 2'],
  [['release'], 'expected --out <dir>: the folder the release module goes to'],
  [['release', '--out'], '--out needs a value'],
  [['release', '--out='], '--out needs a value'],
  [['release', '--out', 'x', '--out=y'], '--out is given twice'],
  [['release', '--out', 'x', '--force'], 'unknown option "--force"; expected --out, --sha256, --patch-history, --index or --help'],
])('usage error %j: one line, exit 2', async (argv, message) => {
  expect(await generate(...argv)).toEqual({
    exit: 2,
    stdout: '',
    stderr: `adcp-decode generate: ${message} (adcp-decode generate --help)\n`,
  });
});

test('a source it cannot use: one line, exit 1, nothing written', async () => {
  const out = path.join(dir, 'adcp');
  const missing = path.join(dir, 'no-such-release');
  expect(await generate(missing, '--out', out)).toEqual({
    exit: 1,
    stdout: '',
    stderr: `adcp-decode generate: ${missing}: no such folder or file; nothing was written\n`,
  });
  expect(existsSync(out)).toBe(false);
});
