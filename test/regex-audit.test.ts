/**
 * The regex audit as a test, in steps rather than time: every `pattern` and `patternProperties`
 * key of the pinned schemas, and every regex behind the formats they use, backtracks at most
 * linearly on the worst attack string generated from it (scripts/regex-engine.ts counts the steps
 * of a backtracking matcher; `npm run regex-audit` adds V8 timings up to 4 MiB). The engine is
 * checked against V8 on every string it judges, and shown to catch known-catastrophic patterns.
 */
import { describe, expect, test } from 'vitest';
import { collectSchemaRegexes, formatRegexes, type AuditedRegex } from '../scripts/regex-audit.js';
import { attacks, auditPattern, build, compileRegex, sample, Steps } from '../scripts/regex-engine.js';

const { patterns, formats } = collectSchemaRegexes();
const { regexes: formatRes } = formatRegexes(formats);
const all: readonly AuditedRegex[] = [...patterns, ...formatRes];

describe('the regexes the validators run on seller strings', () => {
  test('are found: patterns, patternProperties keys and the formats in use', () => {
    expect(patterns.length).toBeGreaterThan(50);
    expect(patterns.some((p) => p.kind === 'patternProperties')).toBe(true);
    expect([...formats.keys()].sort()).toEqual(['date', 'date-time', 'email', 'hostname', 'uri', 'uri-template', 'uuid']);
  });

  test('the step-counting engine answers as V8 does on every string the audit uses', () => {
    for (const regex of all) {
      const compiled = compileRegex(regex.source, regex.flags);
      const v8 = new RegExp(regex.source, regex.flags);
      const inputs = new Set<string>();
      for (let v = 0; v < 4; v++) for (const loops of [1, 2, 3]) inputs.add(sample(compiled.tree, v, loops));
      for (const attack of attacks(compiled.tree).slice(0, 400)) for (const length of [3, 12, 40]) inputs.add(build(attack, length));
      for (const input of inputs) expect(compiled.test(input, new Steps(1e6)), `/${regex.source}/${regex.flags} on ${JSON.stringify(input)}`).toBe(v8.test(input));
    }
  });

  test.each(all.map((r) => [r.name.length > 80 ? `${r.name.slice(0, 80)}…` : r.name, r] as const))('%s backtracks linearly on its worst attack', (_name, regex) => {
    const audit = auditPattern(regex.source, regex.flags, [128, 256, 512]);
    const [, , last] = audit.steps;
    // Doubling the input at most doubles the steps (1.00 is linear; a quadratic pattern shows 2).
    expect(audit.growth, `worst attack ${JSON.stringify(audit.worst)}`).toBeLessThan(1.2);
    // And the constant is small: a generous 64 steps per character.
    expect(last?.[1]).toBeLessThan(64 * 512);
  });
});

describe('the audit catches what it must', () => {
  test.each([
    ['nested quantifiers', '^(a+)+$'],
    ['an alternation under a star', '^(a|a)*$'],
    ['overlapping groups', '^([a-z]+[a-z0-9]*)+$'],
  ])('%s: %s is catastrophic', (_what, source) => {
    const audit = auditPattern(source, 'u', [64, 128], 2e5);
    expect(audit.growth).toBe(Infinity);
  });

  test('two adjacent loops over the same characters are quadratic', () => {
    expect(auditPattern('^a*a*$', 'u', [128, 256, 512]).growth).toBeGreaterThan(1.8);
    expect(auditPattern('^[a-z]+[a-z0-9]+$', 'u', [128, 256, 512]).growth).toBeGreaterThan(1.8);
  });
});
