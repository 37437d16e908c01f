/**
 * Running a command as the package tests do (npm pack, npm install, the built bin): its exit code
 * and output, or, through {@link ok}, its output with a bounded error naming it.
 */
import { type ExecFileOptions, execFile } from 'node:child_process';
import path from 'node:path';

/** What a command did. */
export interface Exec {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a command to its end.
 *
 * @param file - The program.
 * @param args - Its arguments.
 * @param options - execFile's options (cwd, env).
 * @returns Its exit code (1 when it had none) and output.
 * @example
 * const { code } = await exec('npm', ['pack', '--dry-run']);
 */
export function exec(file: string, args: readonly string[], options: ExecFileOptions = {}): Promise<Exec> {
  return new Promise((resolve) => {
    execFile(file, [...args], { maxBuffer: 64 * 1024 * 1024, encoding: 'utf8', ...options }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/**
 * Runs a command that must succeed.
 *
 * @returns Its stdout.
 * @throws Error naming the command, its exit code and output (cut at 4,000 characters).
 * @example
 * const json = await ok('npm', ['pack', '--json'], { cwd: root });
 */
export async function ok(file: string, args: readonly string[], options: ExecFileOptions = {}): Promise<string> {
  const result = await exec(file, args, options);
  if (result.code !== 0)
    throw new Error(`${path.basename(file)} ${args.join(' ')} exited ${result.code}\n${result.stderr}\n${result.stdout}`.slice(0, 4000));
  return result.stdout;
}
