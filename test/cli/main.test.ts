/**
 * The bin as users run it: a child process, whose exit status, stdout and stderr are exactly what
 * run() gives in this process (run.test.ts pins those), over a real pipe for stdin.
 *
 * Runs dist/cli/main.js when it is at least as new as every file of src/ (as after `npm run build`, which
 * `npm test` does first); otherwise src/cli/main.ts through tsx, so a stale dist/ never hides a change.
 * Output is the same either way.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { HELP } from '../../src/cli/help.js';
import { type CliRun, runCli } from '../fixtures/cli-run.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dist = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const source = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const srcDir = fileURLToPath(new URL('../../src/', import.meta.url));
// dist is used only when newer than every source file the CLI is built from.
const newestSource = Math.max(
  ...readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.startsWith('generated'))
    .map((f) => statSync(path.join(srcDir, f)).mtimeMs),
);
const useDist = existsSync(dist) && statSync(dist).mtimeMs >= newestSource;
const bin = useDist ? dist : source;
const command = useDist ? [dist] : ['--import', 'tsx', source];

/** At most two CLI processes at a time: a 2-core machine gains nothing from more. */
let running = 0;
const waiting: Array<() => void> = [];

async function spawned(args: readonly string[], stdin: string | Buffer = ''): Promise<CliRun> {
  if (running >= 2) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await spawnCli(args, stdin);
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function spawnCli(args: readonly string[], stdin: string | Buffer): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...command, ...args], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (exit) => resolve({ exit, stdout, stderr }));
    // The CLI may stop reading early (a capped stdin); a closed pipe is expected then.
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

describe.concurrent('adcp-decode as a child process', { timeout: 120_000 }, () => {
  test('the bin is a node script: its first line is the shebang npm links', () => {
    expect(readFileSync(bin, 'utf8').split('\n', 1)[0]).toBe('#!/usr/bin/env node');
  });

  test('exit 0: one line on stdout, as run() prints it', async () => {
    const args = ['get_products', 'examples/get-products.mcp.json'];
    const result = await spawned(args);
    expect(result).toMatchObject({ exit: 0, stderr: '' });
    expect(result.stdout).toMatch(/^✔ get_products \(AdCP [\d.]+, completed\): 3 products\n$/);
    expect(result).toEqual(await runCli(args));
  });

  test('exit 1: the failure on stderr, as run() prints it', async () => {
    const args = ['get_products', 'examples/get-products.invalid.mcp.json'];
    const result = await spawned(args);
    expect(result).toMatchObject({ exit: 1, stdout: '' });
    expect(result.stderr).toMatch(/^✖ get_products: SCHEMA_MISMATCH /);
    expect(result).toEqual(await runCli(args));
  });

  test('exit 2: a usage error is one line on stderr, no stack trace', async () => {
    const args = ['get_products', 'x.json', '--frobnicate'];
    const result = await spawned(args);
    expect(result).toMatchObject({ exit: 2, stdout: '' });
    expect(result.stderr.split('\n')).toHaveLength(2); // one line and its newline
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result).toEqual(await runCli(args));
  });

  test('--help: the help text on stdout, exit 0', async () => {
    expect(await spawned(['--help'])).toEqual({ exit: 0, stderr: '', stdout: `${HELP}\n` });
  });

  test('stdin is read from the pipe, and more than the cap is refused while reading', async () => {
    const args = ['get_products', '-', '--max-bytes', '10'];
    const flood = Buffer.alloc(2 * 1024 * 1024, 0x20);
    const refused = await spawned(args, flood);
    expect(refused).toMatchObject({ exit: 1, stdout: '' });
    expect(refused.stderr).toContain('stdin is more than 1048596 bytes');
    expect(refused).toEqual(await runCli(args, flood));
  });
});
