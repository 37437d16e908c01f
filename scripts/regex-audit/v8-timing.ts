/**
 * V8's own time on the audited regexes: the best of three runs of `RegExp.prototype.test` (or a
 * format's function) on recheck's attack string and on long runs of each character the pattern
 * names, at growing lengths. Figures for the report, never a verdict (the machine's load moves them).
 */
import { type Attack, describeAttack } from './judge.js';

/**
 * The attack at about `length` characters: every pump repeated the same number of times.
 *
 * @param attack The shape.
 * @param length The wanted length.
 * @returns The string.
 * @throws Never.
 * @example
 * build({ pumps: [{ prefix: 'a', pump: ' ' }], suffix: 'b' }, 6); // 'a    b'
 */
function build(attack: Attack, length: number): string {
  const fixed = attack.pumps.reduce((n, p) => n + p.prefix.length, attack.suffix.length);
  const perRound = attack.pumps.reduce((n, p) => n + p.pump.length, 0);
  const rounds = perRound === 0 ? 0 : Math.max(1, Math.floor((length - fixed) / perRound));
  return `${attack.pumps.map((p) => p.prefix + p.pump.repeat(rounds)).join('')}${attack.suffix}`;
}

/** Characters that are syntax in a pattern, not characters it names. */
const SYNTAX = new Set('\\^$.|?*+()[]{}-');

/**
 * Strings on which a linear regex shows its constant factor: after the pattern's literal lead
 * (`https://` of `^https://...`), a long run of each character the pattern names, then NUL.
 *
 * @param source - The pattern.
 * @returns One attack shape per character.
 * @throws Never.
 * @example
 * runAttacks('^ab+$').length; // a, b, and the usual ' a0-./:' suspects
 */
export function runAttacks(source: string): Attack[] {
  let lead = '';
  for (const c of source.startsWith('^') ? source.slice(1) : source) {
    if (SYNTAX.has(c)) break;
    lead += c;
  }
  const chars = new Set([...source].filter((c) => !SYNTAX.has(c)));
  for (const c of ' a0-./:') chars.add(c);
  return [...chars].map((c) => ({ pumps: [{ prefix: lead, pump: c }], suffix: '\u0000' }));
}

/** Milliseconds V8 takes for `test` on the input (best of three, so noise only adds). */
function v8Time(re: RegExp | ((s: string) => unknown), input: string): number {
  const run = typeof re === 'function' ? re : (s: string) => re.test(s);
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    run(input);
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/**
 * The worst V8 time at each length over the attacks, longest length last; once a time passes 1 s
 * the longer lengths are not tried (`Infinity`).
 *
 * @param run - The regex, or a format's function.
 * @param attacks - The attack shapes.
 * @param lengths - The input lengths, ascending.
 * @returns Milliseconds per length, and the attack that was slowest at the longest.
 * @throws Whatever `run` throws.
 * @example
 * worstTimes(/^a+$/u, runAttacks('^a+$'), [65_536]).ms; // [0.1]
 */
export function worstTimes(
  run: RegExp | ((s: string) => unknown),
  attacks: readonly Attack[],
  lengths: readonly number[],
): { ms: number[]; attack: string } {
  const ms = lengths.map(() => 0);
  let worst = '';
  for (const attack of attacks) {
    for (let i = 0; i < lengths.length; i++) {
      if ((ms[i - 1] ?? 0) > 1000) {
        ms[i] = Infinity;
        continue;
      }
      const t = v8Time(run, build(attack, lengths[i] as number));
      if (i === lengths.length - 1 && t > (ms[i] as number)) worst = describeAttack(attack);
      ms[i] = Math.max(ms[i] as number, t);
    }
  }
  return { ms, attack: worst };
}
