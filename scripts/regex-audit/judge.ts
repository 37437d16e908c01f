/**
 * The judge of the regex audit: recheck (a ReDoS checker built on automata theory and fuzzing)
 * says whether a regex backtracks super-linearly, and gives an attack string when it does.
 */
import { checkSync, type Diagnostics } from 'recheck';

/** recheck's parameters: no time limits (the verdict must not depend on the machine's load), a fixed seed. */
const RECHECK_PARAMS = {
  timeout: null,
  attackTimeout: null,
  incubationTimeout: null,
  seedingTimeout: null,
  recallTimeout: -1,
  randomSeed: 0,
} as const;

/** What the audit concludes about one regex. */
export interface Verdict {
  /** `linear`: at most linear backtracking (recheck: constant, linear or safe). */
  readonly verdict: 'linear' | 'polynomial' | 'exponential' | 'unknown';
  /** recheck's summary (`linear`, `2nd degree polynomial`, `exponential`) or why it could not judge. */
  readonly summary: string;
  /** How recheck judged it. */
  readonly checker: 'automaton' | 'fuzz' | undefined;
  /** A string that makes it backtrack, for super-linear ones: prefix + pump × n + suffix. */
  readonly attack?: Attack;
}

/** An attack string shape: each pump's `prefix + pump.repeat(n)`, in order, then `suffix`. */
export interface Attack {
  readonly pumps: ReadonlyArray<{ readonly prefix: string; readonly pump: string }>;
  readonly suffix: string;
}

/**
 * Judges one regex with recheck.
 *
 * @param source The pattern.
 * @param flags Its flags.
 * @returns The verdict; `unknown` when recheck cannot judge it (an unsupported feature).
 * @throws Never for a valid pattern.
 * @example
 * judge('^a*a*$', 'u').verdict; // 'polynomial'
 */
export function judge(source: string, flags: string): Verdict {
  const diagnostics: Diagnostics = checkSync(source, flags, RECHECK_PARAMS);
  switch (diagnostics.status) {
    case 'safe':
      return { verdict: 'linear', summary: diagnostics.complexity.summary, checker: diagnostics.checker };
    case 'vulnerable': {
      const attack = { pumps: diagnostics.attack.pumps.map(({ prefix, pump }) => ({ prefix, pump })), suffix: diagnostics.attack.suffix };
      return { verdict: diagnostics.complexity.type, summary: diagnostics.complexity.summary, checker: diagnostics.checker, attack };
    }
    case 'unknown': {
      const why = 'message' in diagnostics.error ? `${diagnostics.error.kind}: ${diagnostics.error.message}` : diagnostics.error.kind;
      return { verdict: 'unknown', summary: why, checker: diagnostics.checker };
    }
  }
}

/**
 * An attack's shape for a report line, pumps marked `(pump)×k`, characters escaped as in JSON.
 *
 * @param a - The attack.
 * @returns One line.
 * @throws Never.
 * @example
 * describeAttack({ pumps: [{ prefix: 'a', pump: ' ' }], suffix: 'b' }); // 'a( )×kb'
 */
export function describeAttack(a: Attack): string {
  const show = (s: string): string => JSON.stringify(s).slice(1, -1);
  return `${a.pumps.map((p) => `${show(p.prefix)}(${show(p.pump)})×k`).join('')}${show(a.suffix)}`;
}
