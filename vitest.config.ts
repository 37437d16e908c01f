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

/** What every lane shares, this full gate and the unit lane (vitest.unit.config.ts). */
export const SHARED = {
  // `#validator-loader` to the source of the Node loader, as tsconfig.json's `paths` says (validators load on first use).
  resolve: { tsconfigPaths: true },
  test: { testTimeout: 30_000, hookTimeout: 60_000 },
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
