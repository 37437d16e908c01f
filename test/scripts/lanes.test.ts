/**
 * The test lanes leave no file behind: every file `npm test` runs (vitest.config.ts) is in the unit
 * lane (vitest.unit.config.ts) or the slow lane (vitest.slow.config.ts), never both, or is left out of
 * both on purpose (LEFT_OUT, the type tests); every SLOW entry names a file the slow lane runs; and the
 * package.json scripts run those configs. The file lists are vitest's own, from `vitest list`.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createFilter } from 'vite';
import { beforeAll, describe, expect, test } from 'vitest';
import { LEFT_OUT, SLOW } from '../../vitest.config.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VITEST = path.join(ROOT, 'node_modules/vitest/vitest.mjs');

/** The files a config runs, as paths from the repository root, by `vitest list --filesOnly`. */
async function filesOf(config: string): Promise<Set<string>> {
  // Without this worker's VITEST* variables, which would tell the child it runs inside a test.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
  const { stdout } = await promisify(execFile)(process.execPath, [VITEST, 'list', '--filesOnly', '--json', '--config', config], {
    cwd: ROOT,
    env,
    maxBuffer: 16 * 1024 * 1024,
  });
  const listed = JSON.parse(stdout) as { file: string }[];
  return new Set(listed.map(({ file }) => path.relative(ROOT, file).replaceAll('\\', '/')));
}

/** True for a path from the root that one of `globs` matches, as vitest's include and exclude match. */
function matcher(globs: readonly string[]): (file: string) => boolean {
  const filter = createFilter(globs, null, { resolve: ROOT });
  return (file) => filter(path.join(ROOT, file));
}

let full: Set<string>;
let unit: Set<string>;
let slow: Set<string>;

beforeAll(async () => {
  [full, unit, slow] = await Promise.all([filesOf('vitest.config.ts'), filesOf('vitest.unit.config.ts'), filesOf('vitest.slow.config.ts')]);
});

describe('the test lanes', () => {
  test('every file of the full gate is in the unit or the slow lane, or left out on purpose', () => {
    const leftOut = matcher(LEFT_OUT);
    const inNoLane = [...full].filter((file) => !unit.has(file) && !slow.has(file));
    expect(inNoLane.filter((file) => !leftOut(file) && !file.endsWith('.test-d.ts'))).toEqual([]);
    // Something is left out, and the type tests are among it: the check above is not vacuous.
    expect(inNoLane.some((file) => leftOut(file))).toBe(true);
    expect(inNoLane.some((file) => file.endsWith('.test-d.ts'))).toBe(true);
  });

  test('no file is in both lanes, nor in a lane and not in the full gate, nor left out and in a lane', () => {
    expect([...unit].filter((file) => slow.has(file))).toEqual([]);
    expect([...unit, ...slow].filter((file) => !full.has(file))).toEqual([]);
    expect([...unit, ...slow].filter(matcher(LEFT_OUT))).toEqual([]);
    expect(unit.size).toBeGreaterThan(slow.size);
  });

  test('every SLOW entry names at least one file the slow lane runs', () => {
    expect(SLOW.filter((glob) => ![...slow].some(matcher([glob])))).toEqual([]);
  });

  test('the scripts run the lanes: npm test the full gate, test:unit and test:watch the unit lane, test:slow the slow one', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.test).toMatch(/(?:^|&& )vitest run$/);
    expect(scripts['test:unit']).toBe('vitest run --config vitest.unit.config.ts');
    expect(scripts['test:watch']).toBe('vitest watch --config vitest.unit.config.ts');
    expect(scripts['test:slow']).toBe('vitest run --config vitest.slow.config.ts');
  });
});
