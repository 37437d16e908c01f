/**
 * Runs only in the `no-code-generation` project (vitest.config.ts), beside the decode suite: proves
 * that project's workers really run under `--disallow-code-generation-from-strings`, as a page
 * under `Content-Security-Policy: script-src 'self'` does, so the suite passing there means decode
 * generates no code from strings.
 */
import { expect, test } from 'vitest';

test('eval and new Function are refused in this worker', () => {
  expect(process.execArgv).toContain('--disallow-code-generation-from-strings');
  expect(() => new Function('return 1')).toThrow(EvalError);
  // biome-ignore lint/security/noGlobalEval: the point: an indirect eval must be refused under the flag
  expect(() => (0, eval)('1')).toThrow(EvalError);
});
