import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig, type ViteUserConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { LEFT_OUT, SHARED, SLOW } from './vitest.config.js';

/**
 * The unit lane, `npm run test:unit` (and `npm run test:watch`): the node project's tests without the
 * files vitest.config.ts leaves out (LEFT_OUT) and without its slow ones (SLOW, `npm run test:slow`,
 * vitest.slow.config.ts, built here by `lane()` too). `npm test` stays the full gate: every file, each in
 * a fresh module graph. A config of its own because `--exclude` on the command line does not reach a project's.
 */

const TEST = new URL('test/', import.meta.url);

/** Every test file, as a path from the repository root. */
const FILES = readdirSync(TEST, { recursive: true, encoding: 'utf8' })
  .map((file) => file.replaceAll('\\', '/'))
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => `test/${file}`);

/**
 * Files that need a module graph of their own: a `vi.mock` would replace the module for every file
 * that shares the worker, and codegen.test.ts checks what importing the package loads.
 */
const OWN_GRAPH = [
  'test/codegen/codegen.test.ts',
  ...FILES.filter((file) => /\bvi\.(?:mock|doMock)\(/.test(readFileSync(new URL(file, import.meta.url), 'utf8'))),
];

/** The files that share a module graph: every other test file, listed so that a project can leave them out. */
const SHARED_GRAPH = FILES.filter((file) => !OWN_GRAPH.includes(file));

/**
 * Vitest's order (longest first by the durations it cached, larger files first without them), with
 * the files that need a graph of their own moved to the front: vitest sorts projects by name, which
 * left them, each a fresh worker importing the whole graph (codegen.test.ts runs a child process
 * too), to start last while the other workers idled; and a shared worker is kept only while the
 * next file queued is of its project.
 */
class OwnGraphFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter((spec) => spec.project.config.isolate), ...sorted.filter((spec) => !spec.project.config.isolate)];
  }
}

/**
 * A lane: the test files `include` matches and neither LEFT_OUT nor `exclude` does, those that can
 * share a worker's module graph in one project, the others in a project of fresh graphs.
 *
 * @param name - The lane's name; its projects are `name` and `name-own-graph`.
 * @param env - Set in the workers (test/helpers.ts reads ADCP_TEST_LANE).
 */
export function lane(name: string, include: string[], exclude: string[], env: Record<string, string> = {}): ViteUserConfig {
  return defineConfig({
    ...SHARED,
    test: {
      ...SHARED.test,
      env,
      sequence: { sequencer: OwnGraphFirst },
      projects: [
        {
          extends: true,
          // Most of the time of a fresh graph per file went to importing the same modules 80 times over;
          // here each worker imports them once, and files that need their own graph get one below.
          test: { name, include, exclude: [...LEFT_OUT, ...exclude, ...OWN_GRAPH], isolate: false },
        },
        { extends: true, test: { name: `${name}-own-graph`, include, exclude: [...LEFT_OUT, ...exclude, ...SHARED_GRAPH] } },
      ],
    },
  });
}

// Read by test/helpers.ts: the heaviest property tests run a share of their cases here, all of them in npm test.
export default lane('unit', ['test/**/*.test.ts'], SLOW, { ADCP_TEST_LANE: 'unit' });
