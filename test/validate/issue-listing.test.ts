/**
 * Bounded issue listings (issue 11): a SchemaMismatchError's issues stay small enough to print
 * and serialize, whatever the payload; the first issue is exact; the error says when the listing
 * was cut. Sizes are counted, never timed (bench/run.ts --only=hostile times formatIssues).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { worstIssues } from '../../bench/payloads.js';
import { REPO_ROOT } from '../../scripts/schema-paths.js';
import { formatIssues, SchemaMismatchError, safeDecode, type ValidationIssue } from '../../src/index.js';
import { boundIssues, MAX_ISSUES, MAX_LISTING_CHARS, MAX_SEGMENT } from '../../src/validate/issue-listing.js';
import { V3_1 } from '../fixtures/versions.js';

/** Characters of an issue the budget charges, params as JSON (an upper bound of what is charged). */
const size = (i: ValidationIssue) =>
  i.path.length + i.message.length + i.keyword.length + i.schemaPath.length + JSON.stringify(i.params).length;
/** formatIssues prints at most this much per issue: `✖ `, a message of at most MAX_SEGMENT + marker, `\n  → at `, a pointer cut at 120 (+ `…`). */
const FORMATTED_PER_ISSUE = 2 + MAX_SEGMENT + 20 + 8 + 121 + 1;

function mismatchOf(result: ReturnType<typeof safeDecode>): SchemaMismatchError {
  if (result.success || !(result.error instanceof SchemaMismatchError)) throw new Error('expected SCHEMA_MISMATCH');
  return result.error;
}

const valid = () =>
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'test/fixtures/payloads/3.1/get_products.valid.json'), 'utf8')) as Record<string, unknown>;

describe('boundIssues', () => {
  const text = fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.string({ minLength: 200, maxLength: 700 }),
    fc.constantFrom('~0~1', '\u202e', 'a/b'),
  );
  const issue = fc.record({
    path: fc.array(text, { maxLength: 5 }).map((s) => (s.length === 0 ? '' : `/${s.join('/')}`)),
    keyword: fc.constantFrom('type', 'required', 'additionalProperties'),
    params: fc.oneof(
      fc.record({ additionalProperty: text }),
      fc.record({ allowedValues: fc.array(text, { maxLength: 3 }) }),
      fc.constant({ limit: 1 }),
    ),
    schemaPath: fc.constantFrom('#/type', '#/additionalProperties'),
    message: text,
  });

  test('properties: bounded, the first exact, nothing changed when nothing is long (fast-check, 200 runs)', () => {
    fc.assert(
      fc.property(fc.array(issue, { maxLength: 40 }), fc.oneof(fc.constant(0), fc.nat({ max: 2 * MAX_ISSUES })), (some, extra) => {
        const all = [
          ...some,
          ...Array.from({ length: extra }, (_, i) => ({
            path: `/p/${i}`,
            keyword: 'type',
            params: { type: 'string' },
            schemaPath: '#/type',
            message: 'must be string',
          })),
        ];
        const out = boundIssues(all);
        expect(out.issues.length).toBeLessThanOrEqual(MAX_ISSUES);
        if (all.length > 0) expect(out.issues[0]).toBe(all[0]);
        expect(out.complete).toBe(out.issues.length === all.length);
        expect(out.issues.slice(1).reduce((n, i) => n + size(i), 0)).toBeLessThanOrEqual(MAX_LISTING_CHARS + 2 * MAX_ISSUES);
        expect(out.issues.slice(1).every((listed) => listed.path.split('/').every((segment) => segment.length <= MAX_SEGMENT))).toBe(true);
        const long = all.some(
          (i) =>
            i.message.length > MAX_SEGMENT ||
            i.path.split('/').some((s) => s.length > MAX_SEGMENT) ||
            JSON.stringify(i.params).length > MAX_SEGMENT,
        );
        if (!long && all.length <= MAX_ISSUES) expect(out).toEqual({ issues: all, complete: true, shortened: 0 });
        if (out.shortened > 0) expect(JSON.stringify(out.issues)).toMatch(/…\(\+\d+ chars\)/);
      }),
      { seed: 20261201, numRuns: 200 },
    );
  });

  test('a long segment keeps its head and says how much was cut', () => {
    const key = 'k'.repeat(1000);
    const out = boundIssues([
      { path: '', keyword: 'type', params: {}, schemaPath: '#', message: 'first' },
      {
        path: `/a/${key}/0`,
        keyword: 'additionalProperties',
        params: { additionalProperty: key },
        schemaPath: '#',
        message: 'must NOT have additional properties',
      },
    ]);
    expect(out.issues[1]).toEqual({
      path: `/a/${'k'.repeat(128)}…(+872 chars)/0`,
      keyword: 'additionalProperties',
      params: { additionalProperty: `${'k'.repeat(128)}…(+872 chars)` },
      schemaPath: '#',
      message: 'must NOT have additional properties',
    });
    expect(out.shortened).toBe(1);
  });
});

describe('decode(): listings past the bounds', () => {
  test('the memory bomb: a 512 KiB key over 30,000 bad items (~90,000 issues) lists a bounded, printable few, the first exact', () => {
    const key = '~'.repeat(512 * 1024);
    const payload = {
      ...valid(),
      filter_diagnostics: { excluded_by: { [key]: { count: 1, values: Array.from({ length: 30_000 }, () => 1) } } },
    };
    const error = mismatchOf(safeDecode('get_products', { content: [], structuredContent: payload }, { version: V3_1 }));
    expect(error.issuesComplete).toBe(false);
    expect(error.issuesFound).toBe(90_000); // type string, type object and oneOf, per item
    expect(error.issues[0]!.path).toBe(`/filter_diagnostics/excluded_by/${'~0'.repeat(512 * 1024)}/values/0`);
    expect(error.message).toContain('(90,000 issues; the listing was cut to the first one)');
    const first = JSON.stringify(error.issues[0]).length;
    expect(JSON.stringify(error.issues).length).toBeLessThanOrEqual(first + 6 * MAX_LISTING_CHARS + 200 * MAX_ISSUES);
    expect(formatIssues(error).length).toBeLessThanOrEqual(error.issues.length * FORMATTED_PER_ISSUE);
  });

  test('many short issues: the first 1,000, and the message says how many were found', () => {
    const products = Array.from({ length: 300 }, () => ({})); // 10 missing properties each
    const error = mismatchOf(safeDecode('get_products', { content: [], structuredContent: { products } }));
    expect(error.issues).toHaveLength(MAX_ISSUES);
    expect(error.issuesComplete).toBe(false);
    expect(error.issuesFound).toBeGreaterThan(MAX_ISSUES);
    expect(error.message).toMatch(/\([\d,]+ issues; the listing was cut to the first 1,000\)/);
    expect(error.issuesShortened).toBe(0);
  });

  test('the worst listing the bounds allow: formatIssues and JSON.stringify(issues) stay under their stated bounds', () => {
    const raw = worstIssues(4 * 1024 * 1024, 2 * MAX_ISSUES);
    const listing = boundIssues(raw);
    expect(listing.complete).toBe(false);
    expect(listing.shortened).toBe(listing.issues.length - 1);
    const error = new SchemaMismatchError('worst', {
      schemaId: 'x',
      issues: listing.issues,
      issuesComplete: false,
      issuesShortened: listing.shortened,
    });
    expect(error.issues[0]).toBe(raw[0]);
    // Bounds: formatIssues, at most FORMATTED_PER_ISSUE per issue (the first's pointer is cut to 120
    // too); JSON, the first issue whole plus the budget, every character escaped at most 6-fold.
    expect(formatIssues(error).length).toBeLessThanOrEqual(MAX_ISSUES * FORMATTED_PER_ISSUE);
    const first = JSON.stringify(raw[0]).length;
    expect(JSON.stringify(error.issues).length).toBeLessThanOrEqual(first + 6 * MAX_LISTING_CHARS + 200 * MAX_ISSUES);
  });
});
