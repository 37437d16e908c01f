import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Type tests (*.test-d.ts) run under tsc in every `vitest run`; an error anywhere in the
    // project fails the run too, so `npm test` type-checks src, scripts, tests and bench.
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
      ignoreSourceErrors: false,
    },
  },
});
