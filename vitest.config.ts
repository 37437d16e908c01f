import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The decode (and encode) suite: run a second time where code generation from strings is off, as under a
 * strict CSP. Left out: e2e/mcp and bounds/deep-data, whose baselines compile Ajv at run time (the MCP
 * SDK's outputSchema check, a recursive schema), which that flag forbids by design.
 */
const DECODE_SUITE = [
  'test/decode/{blame,error-codes,fixtures,options,safety,seller-failures,status,versions}.test.ts',
  'test/extract/*.test.ts',
  'test/e2e/a2a.test.ts',
  'test/decode/hostile-corpus.test.ts',
  'test/decode/properties.test.ts',
  'test/encode/*.test.ts',
];

/**
 * What neither the unit nor the slow lane runs, only this full gate: the files that pack, bundle, drive a
 * browser, regenerate the code or run the scripts and the benchmark (the type tests, *.test-d.ts, are
 * left out too: `npm run typecheck`). test/scripts/lanes.test.ts checks that every other file is in a lane.
 */
export const LEFT_OUT = ['test/package/**', 'test/scripts/**', 'test/bench/**', 'test/codegen/identity.test.ts'];

/**
 * The slow lane, `npm run test:slow` (vitest.slow.config.ts): the files that took 3 s or more each in the
 * unit lane on 2 idle cores (docs/benchmarks.md), out of `npm run test:unit`, which runs every other file.
 */
export const SLOW = [
  // Growth and property tests over thousands of generated payloads.
  'test/validate/complexity.test.ts',
  // Real sockets on real clocks: each timeout and drip is waited out.
  'test/fetch/bounded-fetch.test.ts',
  // Inputs of a million keys and 100,000 levels, built and decoded in full.
  'test/decode/hostile-corpus.test.ts',
  // A real redis-server, its caps and TTLs on its own clock.
  'test/webhooks/redis-store.test.ts',
  // A real three-node Redis Cluster, one node stopped and started again.
  'test/webhooks/redis-cluster.test.ts',
  // The very end of a replay window, waited for on the real clock with the memory and Redis stores.
  'test/signatures/verify/replay-window.test.ts',
  // A receiver in a child process behind four servers, body deadlines waited out.
  'test/webhooks/e2e.test.ts',
  // A child process importing the package, and every generated file read.
  'test/codegen/codegen.test.ts',
  // Release modules generated from cuts of 3.2.0-beta.6 and 3.1.19, a dozen runs of a few seconds.
  'test/codegen/generate.test.ts',
  // The official SDK's reference sellers, in-process over MCP and A2A.
  'test/sdk/**/*.test.ts',
  // AdCP 3.2.0-beta.6's response schemas compiled by run-time Ajv to judge our fixtures of it.
  'test/fixtures/beta6-fixtures.test.ts',
  // AdCP 3.2.0-beta.6's whole release module generated and imported (every validator compiled), then decoded with.
  'test/decode/beta6-module.test.ts',
  'test/e2e/beta6-lifecycle.test.ts',
  'test/cli/release-option.test.ts',
];

/** What every lane shares, this full gate, the unit lane (vitest.unit.config.ts) and the slow lane. */
export const SHARED = {
  // `#validator-loader` to the source of the Node loader, as tsconfig.json's `paths` says (validators load on first use).
  resolve: { tsconfigPaths: true },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One worker more than cores (vitest's default is one fewer: a single worker on 2 cores): several
    // files spend their time on sockets, child processes and real clocks, and another file can use the CPU meanwhile.
    maxWorkers: availableParallelism() + 1,
  },
};

export default defineConfig({
  ...SHARED,
  test: {
    ...SHARED.test,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/package/code-generation.test.ts'],
          // Type tests (*.test-d.ts) run under tsc in every `vitest run`; an error anywhere in the
          // project fails the run too, so `npm test` type-checks src, scripts, tests and bench.
          typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json', ignoreSourceErrors: false },
        },
      },
      {
        extends: true,
        test: {
          name: 'no-code-generation',
          include: [...DECODE_SUITE, 'test/package/code-generation.test.ts'],
          execArgv: ['--disallow-code-generation-from-strings'],
        },
      },
    ],
  },
});
