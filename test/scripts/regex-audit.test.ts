/**
 * The regex audit in `npm test`: every regex that runs on a seller's string backtracks at most
 * linearly, as judged by recheck (scripts/regex-audit/): the schemas' `pattern`s and
 * `patternProperties` keys, the regexes behind the formats they use, and every regex literal and
 * `RegExp` construction in src/, found by parsing the sources (a new regex is audited the moment
 * it is written). `npm run regex-audit` adds V8 timings up to 4 MiB.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  type AuditedRegex,
  collectRegexesIn,
  collectSchemaRegexes,
  collectSourceRegexes,
  formatRegexes,
} from '../../scripts/regex-audit/collect.js';
import { judge } from '../../scripts/regex-audit/judge.js';

const { patterns, formats } = collectSchemaRegexes();
const { regexes: formatRes } = formatRegexes(formats);
const source = collectSourceRegexes();
const all: readonly AuditedRegex[] = [...patterns, ...formatRes, ...source.regexes];

describe('the regexes that run on seller strings', () => {
  test('are found: patterns, patternProperties keys and the formats in use', () => {
    expect(patterns.length).toBeGreaterThan(50);
    expect(patterns.some((p) => p.kind === 'patternProperties')).toBe(true);
    expect([...formats.keys()].sort()).toEqual(['date', 'date-time', 'email', 'hostname', 'uri', 'uri-template', 'uuid']);
  });

  test('are found in src/, and every one there has a pattern known before it runs', () => {
    expect(source.regexes.length).toBeGreaterThan(10);
    expect(source.regexes.map((r) => r.name)).toContainEqual(
      expect.stringMatching(/^src\/schema\/release\.ts:\d+ \/\^\(0\|\[1-9\]\\d\*\)/),
    );
    expect(source.regexes.every((r) => !r.name.startsWith('src/generated'))).toBe(true);
    expect(source.dynamic).toEqual([]);
  });

  test.each(all.map((r) => [r.name.length > 80 ? `${r.name.slice(0, 80)}…` : r.name, r] as const))(
    '%s backtracks at most linearly',
    { timeout: 180_000 },
    (_name, regex) => {
      const verdict = judge(regex.source, regex.flags);
      expect(verdict, `/${regex.source}/${regex.flags}`).toMatchObject({ verdict: 'linear' });
    },
  );
});

describe('the collector finds every construction in a source text', () => {
  test('literals, RegExp with literal arguments, and what it cannot audit', () => {
    const text = [
      'const a = /^a+$/u;',
      "const b = new RegExp('^b*$', 'g');",
      'const c = RegExp(`c?`);',
      "const d = new globalThis.RegExp(/d+/, 'i');",
      'const e = new RegExp(pattern);',
      "const f = new RegExp('x', flags);",
      's.match(name); s.search(/ok/); s.matchAll(`z`);',
      "s.replace('not a regex', '');",
    ].join('\n');
    const { regexes, dynamic } = collectRegexesIn('x.ts', text);
    expect(regexes.map((r) => [r.name, r.source, r.flags])).toEqual([
      ['x.ts:1 /^a+$/u', '^a+$', 'u'],
      ['x.ts:2 /^b*$/g', '^b*$', 'g'],
      ['x.ts:3 /c?/', 'c?', ''],
      ['x.ts:4 /d+/i', 'd+', 'i'],
      ['x.ts:4 /d+/', 'd+', ''],
      ['x.ts:7 /ok/', 'ok', ''],
    ]);
    expect(dynamic.map((d) => [d.at, d.code])).toEqual([
      ['x.ts:5', 'new RegExp(pattern)'],
      ['x.ts:6', "new RegExp('x', flags)"],
      ['x.ts:7', 's.match(name)'],
      ['x.ts:7', 's.matchAll(`z`)'],
    ]);
  });
});

describe('the collector reads JavaScript sources too', () => {
  test('a .js file outside generated/ is scanned, JSDoc casts and all; generated/ is not', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'regex-audit-'));
    try {
      mkdirSync(path.join(dir, 'generated'));
      writeFileSync(path.join(dir, 'a.js'), 'export const a = /** @type {RegExp} */ (/^a+$/u);\n');
      writeFileSync(path.join(dir, 'b.ts'), 'export const b = /^b+$/u;\n');
      writeFileSync(path.join(dir, 'generated', 'c.js'), 'export const c = /^c+$/u;\n');
      const { regexes } = collectSourceRegexes(dir);
      expect(regexes.map((r) => [path.basename(r.name.split(':')[0] ?? ''), r.source])).toEqual([
        ['a.js', '^a+$'],
        ['b.ts', '^b+$'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the judge catches what it must', () => {
  test.each([
    ['nested quantifiers', '^(a+)+$', 'u', 'exponential'],
    ['an alternation under a star', '^(a|a)*$', 'u', 'exponential'],
    ['two adjacent loops over the same characters', '^[a-z]+[a-z0-9]+$', 'u', 'polynomial'],
    // The SSE event-id trim boundedFetch used: quadratic on a run of spaces followed by a non-space.
    ['an unanchored loop tried from every position', '^[\\t\\n\\r ]+|[\\t\\n\\r ]+$', 'g', 'polynomial'],
  ])('%s: /%s/%s is %s', (_what, pattern, flags, expected) => {
    const verdict = judge(pattern, flags);
    expect(verdict.verdict).toBe(expected);
    expect(verdict.attack?.pumps.length).toBeGreaterThan(0);
  });
});
