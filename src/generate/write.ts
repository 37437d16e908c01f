/**
 * Writes a generated folder all at once: into a temporary folder beside it, then renamed into
 * place (the folder it replaces moved aside first, then removed), so that a run that fails writes
 * nothing and an interrupted one leaves the previous output whole. A folder that holds anything
 * but an earlier output of the generator is never replaced.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes `files` as the whole content of `dir`.
 *
 * @param dir The output folder; created with its parents when missing.
 * @param files Path relative to `dir` (with `/`) → text.
 * @param isOurs Whether an existing non-empty `dir` is an earlier output, which may be replaced.
 * @throws Error for a `dir` that is a file or holds what the generator did not write; the file
 *   system's error otherwise (the temporary folder removed).
 * @example
 * writeFolder('src/adcp/3.2.1', files, (dir) => existsSync(path.join(dir, 'index.js')));
 */
export function writeFolder(dir: string, files: ReadonlyMap<string, string>, isOurs: (dir: string) => boolean): void {
  const target = path.resolve(dir);
  if (existsSync(target)) {
    if (!statSync(target).isDirectory()) throw new Error(`${dir}: a file, not a folder; choose another --out`);
    if (readdirSync(target).length > 0 && !isOurs(target))
      throw new Error(`${dir}: holds files adcp-decode did not generate; choose an empty or new folder (it replaces the whole folder)`);
  }
  const parent = path.dirname(target);
  mkdirSync(parent, { recursive: true });
  const temp = mkdtempSync(path.join(parent, `.${path.basename(target)}.generating-`));
  try {
    for (const [rel, text] of files) {
      const file = path.join(temp, ...rel.split('/'));
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    if (existsSync(target)) {
      const old = `${temp}.old`;
      renameSync(target, old);
      renameSync(temp, target);
      rmSync(old, { recursive: true, force: true });
    } else renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    throw error;
  }
}
