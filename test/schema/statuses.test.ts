/**
 * One home for the status lists and the release tables (issue 22, item 4; review A.2, A.3, B.5):
 * the task and async statuses are generated from the schemas and written once, in
 * src/schema/statuses.ts; hand-written code holds no other list of them and no pinned version
 * literal (it keys on the release or a generated capability); every task type maps to a task of
 * its release; and nothing outside src/webhooks/ imports it (polling depends on decode/enclosed.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT, readLockVersions } from '../../scripts/schema-paths.js';
import { resultTask, TASK_TYPES } from '../../src/decode/enclosed.js';
import { ASYNC_STATUSES, FAILED_STATUSES, TASK_STATUSES } from '../../src/schema/statuses.js';
import { judgedAs, versions } from '../../src/schema/versions.js';
import { readSchema } from '../fixtures/vectors.js';

const SRC = path.join(REPO_ROOT, 'src');

/** The hand-written TypeScript of src/ (not the generated folder), path → text. */
function handWritten(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (full !== path.join(SRC, 'generated')) walk(full);
      } else if (entry.name.endsWith('.ts')) out.set(path.relative(REPO_ROOT, full), readFileSync(full, 'utf8'));
    }
  };
  walk(SRC);
  return out;
}

/** Every string literal of a module's code (comments are not code), and the array literals made only of strings. */
function literals(file: string, text: string): { strings: string[]; arrays: string[][] } {
  const strings: string[] = [];
  const arrays: string[][] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) strings.push(node.text);
    if (ts.isArrayLiteralExpression(node) && node.elements.length > 1 && node.elements.every(ts.isStringLiteral)) {
      arrays.push(node.elements.map((e) => (e as ts.StringLiteral).text));
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
  return { strings, arrays };
}

describe('the status lists', () => {
  test.each([...versions])('are the schemas of %s: the task-status enum, and the statuses with async schemas', (version) => {
    expect([...TASK_STATUSES]).toEqual(readSchema<{ enum: string[] }>(version, 'enums/task-status.json').enum);
    const manifest = readSchema<{ tools: Record<string, { async_response_schemas: string[] }> }>(version, 'manifest.json');
    const used = new Set(
      Object.values(manifest.tools).flatMap((t) => t.async_response_schemas.map((rel) => /-async-response-(.+)\.json$/.exec(rel)![1]!)),
    );
    expect([...ASYNC_STATUSES]).toEqual(TASK_STATUSES.filter((s) => used.has(s)));
  });

  test('the statuses that end a task without its result are task statuses, none of them async', () => {
    for (const status of FAILED_STATUSES) {
      expect(TASK_STATUSES).toContain(status);
      expect(ASYNC_STATUSES).not.toContain(status);
    }
  });

  /** Lists of the same words that are not AdCP task statuses, and why. */
  const OTHER_LISTS: Readonly<Record<string, string>> = {
    'src/extract/a2a.ts': "A2A's own transport states, final and interim (a2a-response-extraction's table), not AdCP's enum",
  };

  test('no hand-written code holds another list of them', () => {
    const statuses = new Set<string>(TASK_STATUSES);
    const found: string[] = [];
    for (const [file, text] of handWritten()) {
      if (file === 'src/schema/statuses.ts' || file in OTHER_LISTS) continue;
      for (const list of literals(file, text).arrays)
        if (list.filter((s) => statuses.has(s)).length > 1) found.push(`${file}: ${list.join(', ')}`);
    }
    expect(found).toEqual([]);
  });
});

describe('the release tables', () => {
  /** Hand-written tables keyed by version, and why. */
  const BY_VERSION: Readonly<Record<string, string>> = {
    'src/generate/exceptions.ts': "the generator's schema exceptions: each is reviewed against, and quotes, one version's schema text",
  };

  test('no pinned version literal in hand-written code: it keys on the release or a generated capability', () => {
    const pinned = new Set(readLockVersions().versions);
    const found: string[] = [];
    for (const [file, text] of handWritten()) {
      if (file in BY_VERSION) continue;
      for (const s of literals(file, text).strings) if ([...pinned].some((v) => s.includes(v))) found.push(`${file}: "${s}"`);
    }
    expect(found).toEqual([]);
  });

  test.each([...versions])('every task type of %s has a result judge of that release', (version) => {
    for (const taskType of TASK_TYPES[version]) expect(judgedAs(version, resultTask(taskType, version)), taskType).toBeDefined();
  });

  test('nothing in src/ outside webhooks/ imports webhooks/', () => {
    const found: string[] = [];
    for (const [file, text] of handWritten()) {
      if (file.startsWith('src/webhooks/')) continue;
      const dir = path.dirname(path.join(REPO_ROOT, file));
      for (const [, spec] of text.matchAll(/from '(\.[^']+)'/g)) {
        if (path.relative(SRC, path.resolve(dir, spec!)).startsWith('webhooks')) found.push(`${file} imports ${spec}`);
      }
    }
    expect(found).toEqual([]);
  });
});
