/**
 * Helpers shared by the test files: what a call threw, a decode failure read both ways, and the
 * merge that prototype pollution preys on.
 */
import { expect } from 'vitest';
import { type DecodeOptions, decode, safeDecode, type TaskName } from '../src/decode/decode.js';
import { DecodeError } from '../src/errors/errors.js';

/** What `fn` threw, or `undefined` when it returned. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** What `fn` threw, failing the test unless it threw an instance of `type`. */
export function caughtAs<E>(type: abstract new (...args: never[]) => E, fn: () => unknown): E {
  const error = thrown(fn);
  if (error === undefined) return expect.fail(`expected a ${type.name}, but nothing was thrown`);
  expect(error).toBeInstanceOf(type);
  return error as E;
}

/** The `code` of the DecodeError `fn` threw, or `'decoded'` when it returned. */
export function codeOf(fn: () => unknown): string {
  const error = thrown(fn);
  if (error === undefined) return 'decoded';
  expect(error).toBeInstanceOf(DecodeError);
  return (error as DecodeError).code;
}

/**
 * The DecodeError of a decode that must fail: safeDecode's, after checking that its message is one
 * line and that decode() throws an error with the same code.
 */
export function failureOf(task: TaskName, input: unknown, options?: DecodeOptions): DecodeError {
  const result = safeDecode(task, input, options);
  if (result.success) return expect.fail('expected a DecodeError');
  expect(result.error).toBeInstanceOf(DecodeError);
  expect(result.error.message).not.toMatch(/[\r\n]/);
  const error = thrown(() => decode(task, input, options));
  expect(error).toBeInstanceOf(DecodeError);
  expect((error as DecodeError).code).toBe(result.error.code);
  return result.error;
}

/**
 * The naive recursive merge applications write (and lodash.merge < 4.6.2 was): what decoded data
 * must be safe to pass to.
 *
 * @param target - Merged into, in place.
 * @param source - Merged from; anything but an object is ignored.
 * @returns `target`.
 * @example
 * deepMerge({}, decode('get_products', result)); // must leave Object.prototype untouched
 */
export function deepMerge(target: Record<string, unknown>, source: unknown): Record<string, unknown> {
  if (typeof source !== 'object' || source === null) return target;
  for (const key in source) {
    const value = (source as Record<string, unknown>)[key];
    if (typeof value === 'object' && value !== null) {
      if (typeof target[key] !== 'object' && typeof target[key] !== 'function') target[key] = Array.isArray(value) ? [] : {};
      deepMerge(target[key] as Record<string, unknown>, value);
    } else {
      target[key] = value;
    }
  }
  return target;
}

/** True in the unit lane (`npm run test:unit`, vitest.unit.config.ts, which sets ADCP_TEST_LANE); false in `npm test`. */
export const UNIT_LANE = process.env.ADCP_TEST_LANE === 'unit';

/**
 * The share of a heavy test's cases the unit lane runs: one in four. `npm test`, the full gate,
 * runs every case.
 */
const UNIT_SHARE = UNIT_LANE ? 4 : 1;

/**
 * How many cases a heavy property test runs: `full` under `npm test`, a quarter of it in the unit
 * lane, where the same property over fewer generated cases keeps the lane under a minute.
 *
 * @example
 * fc.assert(property, { seed: SEED, numRuns: runs(3_000) }); // 3,000 in npm test, 750 in test:unit
 */
export function runs(full: number): number {
  return Math.ceil(full / UNIT_SHARE);
}

/**
 * The items a heavy test checks: every fourth in the unit lane (the first, the fifth, ...), all of
 * them in `npm test`. A fixed choice, so a failure in the lane repeats.
 *
 * @example
 * for (const task of share(tasks)) check(task); // 12 tasks in npm test, 3 in test:unit
 */
export function share<T>(items: readonly T[]): T[] {
  return items.filter((_, index) => index % UNIT_SHARE === 0);
}
