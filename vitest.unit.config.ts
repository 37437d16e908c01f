import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SHARED } from './vitest.config.js';

/**
 * The unit lane, `npm run test:unit`: the node project's tests without the lanes that pack, bundle,
 * drive a browser, regenerate the code or run the scripts and the benchmark, and without the type
 * tests (`npm run typecheck`). `npm test` stays the full gate: every file, each in a fresh module
 * graph. A config of its own because `--exclude` on the command line does not reach a project's.
 */
const LEFT_OUT = ['test/package/**', 'test/scripts/**', 'test/bench/**', 'test/codegen/identity.test.ts'];

const TEST = new URL('test/', import.meta.url);

/**
 * Files that need a module graph of their own: a `vi.mock` would replace the module for every file
 * that shares the worker, and codegen.test.ts checks what importing the package loads.
 */
const OWN_GRAPH = [
  'test/codegen/codegen.test.ts',
  ...readdirSync(TEST, { recursive: true, encoding: 'utf8' })
    .map((file) => file.replaceAll('\\', '/'))
    .filter((file) => file.endsWith('.test.ts') && /\bvi\.(?:mock|doMock)\(/.test(readFileSync(new URL(file, TEST), 'utf8')))
    .map((file) => `test/${file}`),
];

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

export default defineConfig({
  ...SHARED,
  test: {
    ...SHARED.test,
    // Read by test/helpers.ts: the heaviest property tests run a share of their cases here, all of them in npm test.
    env: { ADCP_TEST_LANE: 'unit' },
    // One worker more than cores (vitest's default is one fewer: a single worker on 2 cores): several
    // files spend their time on sockets, child processes and real clocks, and another file can use the CPU meanwhile.
    maxWorkers: availableParallelism() + 1,
    sequence: { sequencer: OwnGraphFirst },
    projects: [
      {
        extends: true,
        // Most of the time of a fresh graph per file went to importing the same modules 80 times over;
        // here each worker imports them once, and files that need their own graph get one below.
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...LEFT_OUT, ...OWN_GRAPH], isolate: false },
      },
      { extends: true, test: { name: 'unit-own-graph', include: OWN_GRAPH, exclude: LEFT_OUT } },
    ],
  },
});
