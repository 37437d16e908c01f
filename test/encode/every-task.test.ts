/**
 * Every task of both bundled releases encodes (issue 21, "Done when"): a minimal valid instance of
 * each request schema (required members only, test/fixtures/minimal-instances.ts) encodes, pinned
 * and through the root, stamped with exactly the version fields its schema defines; and each
 * required member dropped, at any depth of that instance (every member of a minimal instance is
 * required), is refused with its JSON Pointer.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { schemaDir } from '../../scripts/schema-paths.js';
import { loadSchemas } from '../../src/generate/load.js';
import { requestFacts } from '../../src/generate/requests.js';
import { requestTablesByVersion } from '../../src/generated/requests.js';
import * as v30 from '../../src/generated/v3_0/pinned.js';
import * as v31 from '../../src/generated/v3_1/pinned.js';
import { encode, RequestError, safeEncode, type Version } from '../../src/index.js';
import { fastValidator } from '../../src/validate/validators.js';
import { armCandidates } from '../fixtures/minimal-instances.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const PINNED = { [V3_1]: v31, [V3_0]: v30 } as const;

function manifestTasks(version: string): Array<[string, string]> {
  const m = JSON.parse(readFileSync(path.join(schemaDir(version), 'manifest.json'), 'utf8')) as {
    tools: Record<string, { request_schema: string }>;
  };
  return Object.entries(m.tools)
    .map(([task, tool]): [string, string] => [task, `/schemas/${version}/${tool.request_schema}`])
    .sort(([a], [b]) => (a < b ? -1 : 1));
}

/** The first minimal candidate of the request schema that its validator accepts. */
function minimal(version: Version, task: string, schemaId: string): Record<string, Json> {
  const valid = armCandidates(schemaId).find((c) => fastValidator(version, task, 'request')!(c));
  if (valid === undefined) return expect.fail(`no minimal candidate of ${schemaId} is valid`);
  return valid as Record<string, Json>;
}

/** Every member of every object in a tree, as [pointer of the object, key]. */
function members(value: Json, at = ''): Array<[string, string]> {
  if (Array.isArray(value)) return value.flatMap((item, i) => members(item, `${at}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => [
    [at, key] as [string, string],
    ...members(child, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`),
  ]);
}

/** A copy of a tree without the member `key` of the object at `at`. */
function without(value: Json, at: string, key: string): Json {
  const copy = structuredClone(value);
  let target: Json = copy;
  for (const part of at.split('/').slice(1)) target = (target as Record<string, Json>)[part.replace(/~1/g, '/').replace(/~0/g, '~')]!;
  delete (target as Record<string, Json>)[key];
  return copy;
}

describe.each(Object.keys(PINNED) as Version[])('AdCP %s', (version) => {
  const tasks = manifestTasks(version);
  const schemas = loadSchemas(version, schemaDir(version));
  const release = version.split('.').slice(0, 2).join('.');

  test('the request table lists every manifest task with its request schema', () => {
    const table = requestTablesByVersion[version] as Record<string, { schemaId: string }>;
    expect(Object.entries(table).map(([task, row]) => [task, row.schemaId])).toEqual(tasks);
  });

  test.each(tasks)('%s: a minimal request encodes, stamped with the version fields its schema defines', (task, schemaId) => {
    const args = minimal(version, task, schemaId);
    const pinned = PINNED[version] as unknown as { encode: (t: string, a: unknown) => { args: Record<string, unknown> } };
    const encoded = pinned.encode(task, args);
    const viaRoot = encode(task as 'get_products', args as never, { version });
    expect(viaRoot).toEqual(encoded);
    expect(encoded).toMatchObject({ task, version, release });
    // Stamped: exactly the fields the schema (or the version envelope its allOf composes) defines.
    const { stamps } = requestFacts(schemas.get(schemaId)!.schema, schemas);
    const expected: Record<string, unknown> = {};
    if (stamps.includes('adcp_version')) expected.adcp_version = release;
    if (stamps.includes('adcp_major_version')) expected.adcp_major_version = 3;
    expect(encoded.args).toEqual({ ...args, ...expected });
    expect(Object.isFrozen(encoded) && Object.isFrozen(encoded.args)).toBe(true);
  });

  test.each(tasks)('%s: each required member dropped is refused with its pointer', (task, schemaId) => {
    const args = minimal(version, task, schemaId);
    for (const [at, key] of members(args)) {
      const result = safeEncode(task as 'get_products', without(args, at, key) as never, { version });
      if (result.success) return expect.fail(`${task}: ${at}/${key} dropped, yet encoded`);
      expect(result.error).toBeInstanceOf(RequestError);
      const error = result.error as RequestError;
      expect(error.fault).toBe('schema');
      expect(error.schemaId).toBe(schemaId);
      expect(
        error.issues.some((i) => i.path === at && i.keyword === 'required' && i.params.missingProperty === key),
        `${task}: dropping ${at}/${key}: ${JSON.stringify(error.issues.slice(0, 3))}`,
      ).toBe(true);
    }
  });
});

test('the version fields each release defines, as the table says (3.0: the major alone; 3.1: both)', () => {
  const stamps = (version: Version, task: string) =>
    (requestTablesByVersion[version] as Record<string, { stamps: readonly string[] }>)[task]!.stamps;
  expect(stamps(V3_1, 'create_media_buy')).toEqual(['adcp_version', 'adcp_major_version']);
  expect(stamps(V3_0, 'create_media_buy')).toEqual(['adcp_major_version']);
  // The exceptions, as the schemas have them: no envelope at all, or the major only.
  expect(stamps(V3_0, 'comply_test_controller')).toEqual([]);
  expect(stamps(V3_1, 'validate_input')).toEqual([]);
  expect(stamps(V3_1, 'search_brands')).toEqual(['adcp_major_version']);
  const keys = (version: Version, key: string) =>
    Object.entries(requestTablesByVersion[version] as Record<string, { idempotencyKey?: string }>)
      .filter(([, row]) => row.idempotencyKey === key)
      .map(([task]) => task);
  expect(keys(V3_1, 'required')).toContain('create_media_buy');
  expect(keys(V3_1, 'required')).not.toContain('get_products');
});
