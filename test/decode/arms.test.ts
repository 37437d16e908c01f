/**
 * Every task whose response schema is a `oneOf` of arms, in every bundled version, has its check
 * in test/decode/arms.test-d.ts (which tsc runs): a task added to the schemas cannot go unchecked.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { schemaDir } from '../../scripts/schema-paths.js';
import { versions } from '../../src/index.js';
import { checked } from './arms.test-d.js';

function oneOfTasks(version: string): string[] {
  const dir = schemaDir(version);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as {
    tools: Record<string, { response_schema: string }>;
  };
  return Object.entries(manifest.tools)
    .filter(([, tool]) => 'oneOf' in (JSON.parse(readFileSync(path.join(dir, tool.response_schema), 'utf8')) as object))
    .map(([task]) => task)
    .sort();
}

test.each([...versions])('AdCP %s: every oneOf response has its arms checked', (version) => {
  const tasks = oneOfTasks(version);
  expect(tasks.length).toBeGreaterThan(20);
  expect([...(checked[version] ?? [])].sort()).toEqual(tasks);
});
