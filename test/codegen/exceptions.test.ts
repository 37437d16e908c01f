/**
 * The schema exceptions (issue 19, item 16; scripts/generate/exceptions.ts): where a schema's own
 * text says a list is open but its enum closes it, codegen compiles it open. Each exception is
 * checked against the text it quotes: the build fails when that text or the closed list is gone,
 * and when a schema text that opens a list has no exception. 3.0 comply_test_controller's
 * `scenarios`, closed to 14 values beside "Runners and sellers MUST accept unknown scenario
 * strings (open-for-extension)", then takes a seller's newer scenario, as 3.1 does.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { schemaDir } from '../../scripts/schema-paths.js';
import { decode } from '../../src/decode/decode.js';
import {
  applyExceptions,
  OUTCOME_STATUSES,
  outcomeStatuses,
  RESULT_EXCEPTIONS,
  resultSchemas,
  SCHEMA_EXCEPTIONS,
} from '../../src/generate/exceptions.js';
import { type JsonObject, loadSchemas, type SchemaFile } from '../../src/generate/load.js';
import { versions } from '../../src/schema/versions.js';
import { BETA6_VERSION, beta6Folder } from '../fixtures/beta6-schemas.js';
import { mcp } from '../fixtures/envelopes.js';
import { readSchema } from '../fixtures/vectors.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { thrown } from '../helpers.js';

/** A schema file as loaded, before any exception: a deep copy of the synced file. */
function raw(version: string, rel: string): SchemaFile {
  const schema = structuredClone(readSchema<JsonObject>(version, rel));
  return { id: `/schemas/${version}/${rel}`, rel, schema };
}

function at(node: unknown, pointer: string): unknown {
  return pointer === ''
    ? node
    : pointer
        .slice(1)
        .split('/')
        .reduce<unknown>((n, k) => (n as Record<string, unknown>)[k], node);
}

describe('each exception', () => {
  test.each(SCHEMA_EXCEPTIONS.map((e) => [`${e.version} ${e.schema}#${e.list}`, e] as const))('%s', (_name, e) => {
    // The synced schema still says the list is open, in the words quoted, and still closes it.
    const file = raw(e.version, e.schema);
    expect((at(file.schema, e.text) as { description: string }).description).toContain(e.says);
    expect(Array.isArray((at(file.schema, e.list) as { enum?: unknown }).enum)).toBe(true);
    expect(e.reason.length).toBeGreaterThan(20);
    // As loaded for codegen, the list is open: its enum dropped, its type kept.
    const loaded = loadSchemas(e.version, schemaDir(e.version)).get(file.id)!;
    expect(at(loaded.schema, e.list)).toMatchObject({ type: 'string' });
    expect((at(loaded.schema, e.list) as { enum?: unknown }).enum).toBeUndefined();
  });
});

describe('the build fails when a schema changes under an exception, or a new one appears', () => {
  const e = SCHEMA_EXCEPTIONS.find((x) => x.schema === 'compliance/comply-test-controller-response.json')!;
  const files = (file: SchemaFile) => new Map([[file.id, file]]);

  test('the quoted sentence reworded: the exception is stale', () => {
    const file = raw(e.version, e.schema);
    const text = at(file.schema, e.text) as { description: string };
    text.description = text.description.replace('MUST accept unknown', 'may reject unknown');
    expect(thrown(() => applyExceptions(e.version, `/schemas/${e.version}/`, files(file)))).toMatchObject({
      message: expect.stringContaining('is stale'),
    });
  });

  test('the list opened upstream: the exception is stale', () => {
    const file = raw(e.version, e.schema);
    delete (at(file.schema, e.list) as { enum?: unknown }).enum;
    expect(thrown(() => applyExceptions(e.version, `/schemas/${e.version}/`, files(file)))).toMatchObject({
      message: expect.stringContaining('is stale'),
    });
  });

  test('a new schema text opening a closed list, or a new x-extensible enum, without an exception', () => {
    const opened: SchemaFile = {
      id: `/schemas/${V3_0}/enums/pacing.json`,
      rel: 'enums/pacing.json',
      schema: { type: 'string', enum: ['even', 'asap'], description: 'Receivers MUST accept unknown values.' },
    };
    expect(thrown(() => applyExceptions(V3_0, `/schemas/${V3_0}/`, new Map([[opened.id, opened]])))).toMatchObject({
      message: expect.stringContaining(`${V3_0}/enums/pacing.json# says its list is open`),
    });
    const extensible: SchemaFile = { ...opened, schema: { type: 'string', enum: ['even'], 'x-extensible': true } };
    expect(thrown(() => applyExceptions(V3_0, `/schemas/${V3_0}/`, new Map([[opened.id, extensible]])))).toMatchObject({
      message: expect.stringContaining('add it to SCHEMA_EXCEPTIONS'),
    });
  });

  test('every synced release loads with its exceptions and no unlisted open-list text', () => {
    for (const version of versions) expect(() => loadSchemas(version, schemaDir(version))).not.toThrow();
  });
});

describe("a seller's list_scenarios answer with a scenario newer than the release", () => {
  test.each([...versions])('%s', (version) => {
    const answer = { success: true, scenarios: ['force_creative_status', 'force_creative_purge', 'simulate_delivery'] };
    expect(decode('comply_test_controller', mcp.structured(answer), { version })).toEqual(answer);
  });
});

describe("a result exception: the schema 3.1's task-type enum names for a delivery report", () => {
  const e = RESULT_EXCEPTIONS.find((x) => x.taskType === 'media_buy_delivery')!;
  const texts = () => readSchema<{ enumDescriptions: Record<string, string> }>(V3_1, 'enums/task-type.json').enumDescriptions;
  const holds = (rel: string) => rel === e.schema;

  test('read from the words that name it, as an `$id` of the release', () => {
    expect(texts()[e.taskType]).toContain(e.says);
    expect(resultSchemas(V3_1, `/schemas/${V3_1}/`, texts(), holds)).toEqual({
      media_buy_delivery: `/schemas/${V3_1}/media-buy/media-buy-delivery-webhook-result.json`,
    });
  });

  test('a line without one (3.0) has none', () => {
    expect(resultSchemas(V3_0, `/schemas/${V3_0}/`, {}, () => false)).toBeUndefined();
  });

  test('the words reworded, or the schema gone: the exception is stale', () => {
    const reworded = { ...texts(), [e.taskType]: 'Delivery report.' };
    expect(thrown(() => resultSchemas(V3_1, `/schemas/${V3_1}/`, reworded, holds))).toMatchObject({
      message: expect.stringContaining(`no longer says "${e.says}"`),
    });
    expect(thrown(() => resultSchemas(V3_1, `/schemas/${V3_1}/`, texts(), () => false))).toMatchObject({
      message: expect.stringContaining(`no longer holds ${e.schema}`),
    });
  });
});

describe("an outcome status: a terminal status that is the task's answer, from the line that says so", () => {
  const row = OUTCOME_STATUSES.find((x) => x.status === 'rejected')!;
  const beta6 = () =>
    JSON.parse(readFileSync(path.join(beta6Folder(), 'enums/task-status.json'), 'utf8')).enumDescriptions as Record<string, string>;

  test("3.2's rejected, in the words of beta.6's task-status enum; 3.1's stays a failure", () => {
    expect(beta6()['rejected']).toContain(row.says);
    expect(outcomeStatuses(BETA6_VERSION, beta6())).toEqual(['rejected']);
    const texts31 = readSchema<{ enumDescriptions: Record<string, string> }>(V3_1, 'enums/task-status.json').enumDescriptions;
    expect(texts31['rejected']).not.toContain(row.says);
    expect(outcomeStatuses(V3_1, texts31)).toEqual([]);
  });

  test('its own line reworded: the row is stale; a later line without the words keeps the status a failure', () => {
    const reworded = { ...beta6(), rejected: 'Task was rejected.' };
    expect(thrown(() => outcomeStatuses(BETA6_VERSION, reworded))).toMatchObject({ message: expect.stringContaining('is stale') });
    expect(outcomeStatuses('3.3.0', reworded)).toEqual([]);
    expect(outcomeStatuses('3.3.0', beta6())).toEqual(['rejected']);
    expect(outcomeStatuses('4.0.0', beta6())).toEqual([]);
  });
});
