/**
 * The fixture suite (test/fixtures/payloads): every valid payload is accepted by its task's
 * generated validator and decodes, unchanged and judged by its own version, through every
 * envelope it can arrive in; every invalid payload is rejected with SCHEMA_MISMATCH carrying the
 * expected JSON Pointer, Ajv keyword and params.
 */
import { describe, expect, test } from 'vitest';
import { decode, safeDecode } from '../../src/decode/decode.js';
import { SchemaMismatchError } from '../../src/errors/errors.js';
import { defaultVersion, tablesFor, versions } from '../../src/schema/versions.js';
import { fastValidator } from '../../src/validate/validators.js';
import { a2a03, a2a10, jsonRpc, mcp } from '../fixtures/envelopes.js';
import { fixtures, INVALID, type PayloadFixture } from '../fixtures/payloads.js';

const valid = fixtures.filter((f) => f.valid);
const invalid = fixtures.filter((f) => !f.valid);

/** Whether `version: 'auto'` picks the fixture's own version: it announces it, or it is the default. */
function autoPicks(f: PayloadFixture): boolean {
  const announced = f.payload['adcp_version'];
  return f.version === defaultVersion
    ? announced === undefined || announced === '3.1'
    : announced === f.version.split('.').slice(0, 2).join('.');
}

type Wrap = { name: string; wrap: (payload: Record<string, unknown>) => unknown; same: boolean };

/** The envelopes a payload of this variant arrives in; `same`: the payload is passed in process (decode returns a plain copy of it). */
function envelopes(variant: PayloadFixture['variant']): Wrap[] {
  const common: Wrap[] = [
    { name: 'MCP structuredContent', wrap: (p) => mcp.structured(p, 'Done; see structuredContent.'), same: true },
    { name: 'MCP text-only JSON', wrap: (p) => mcp.text(p), same: false },
    { name: 'MCP prose then JSON text', wrap: (p) => mcp.proseThenText(p), same: false },
    { name: 'JSON-RPC success around MCP', wrap: (p) => jsonRpc.success(mcp.structured(p)), same: true },
  ];
  if (variant === 'working' || variant === 'input-required') {
    const state = variant === 'working' ? 'TASK_STATE_WORKING' : 'TASK_STATE_INPUT_REQUIRED';
    return [
      ...common,
      { name: 'A2A 0.3 status-update', wrap: (p) => a2a03.statusUpdate(variant, p), same: true },
      { name: 'A2A 1.0 { statusUpdate }', wrap: (p) => a2a10.statusUpdate(state, p), same: true },
      { name: 'A2A 1.0 bare status event', wrap: (p) => a2a10.statusUpdateEvent(state, p), same: true },
    ];
  }
  // Final responses, and AdCP `submitted` under the A2A profile: a completed A2A task.
  return [
    ...common,
    { name: 'A2A 0.3 task', wrap: (p) => a2a03.task('completed', p), same: true },
    { name: 'A2A 1.0 { task }', wrap: (p) => a2a10.taskEnvelope('TASK_STATE_COMPLETED', p), same: true },
    { name: 'A2A 1.0 bare task', wrap: (p) => a2a10.task('TASK_STATE_COMPLETED', p), same: true },
    { name: 'A2A 0.3 JSON-RPC message/send result', wrap: (p) => jsonRpc.success(a2a03.task('completed', p)), same: true },
  ];
}

describe('the fixture matrix', () => {
  test.each([...versions])('AdCP %s has valid and invalid payloads for at least ten tasks', (version) => {
    const tasks = (predicate: (f: PayloadFixture) => boolean) =>
      new Set(fixtures.filter((f) => f.version === version && predicate(f)).map((f) => f.task));
    const withValid = tasks((f) => f.valid && f.variant === 'response');
    const withInvalid = tasks((f) => !f.valid);
    const both = [...withValid].filter((t) => withInvalid.has(t));
    expect(both.length).toBeGreaterThanOrEqual(10);
  });

  test('each version has valid payloads of every async variant', () => {
    for (const version of versions) {
      const variants = new Set(valid.filter((f) => f.version === version).map((f) => f.variant));
      expect([...variants].sort(), version).toEqual(['input-required', 'response', 'submitted', 'working']);
    }
  });

  test('every invalid fixture has an expected issue, and every expectation a fixture', () => {
    expect(invalid.map((f) => f.id).sort()).toEqual(Object.keys(INVALID).sort());
  });

  test('fixture names are tasks of their version', () => {
    for (const f of fixtures) expect(tablesFor(f.version).tasks, f.id).toContain(f.task);
  });
});

describe.each(valid.map((f) => [f.id, f] as const))('%s', (_id, f) => {
  test('the task validator accepts it as sent', () => {
    const validate = fastValidator(f.version, f.task, f.variant);
    expect(validate).toBeTypeOf('function');
    const ok = validate!(f.payload);
    expect(validate!.errors ?? null, JSON.stringify(validate!.errors)).toBeNull();
    expect(ok).toBe(true);
  });

  test("decodes as a bare payload, returned as a plain copy (never the caller's object)", () => {
    const input = f.payload;
    const result = safeDecode(f.task, input, { transport: 'payload', version: f.version });
    expect(result).toMatchObject({ success: true, version: f.version });
    if (result.success) expect(result.data).toEqual(input);
    if (result.success) expect(result.data).not.toBe(input);
  });

  test.each(envelopes(f.variant))('decodes from $name', ({ wrap, same }) => {
    const input = f.payload;
    const explicit = safeDecode(f.task, wrap(input), { version: f.version });
    if (!explicit.success) expect.fail(explicit.error.message);
    expect(explicit.version).toBe(f.version);
    expect(explicit.data).toEqual(input);
    if (same) expect(explicit.data).not.toBe(input); // an in-process payload comes back as a plain copy
    if (autoPicks(f)) expect(safeDecode(f.task, wrap(f.payload))).toMatchObject({ success: true, version: f.version, data: input });
  });
});

describe.each(invalid.map((f) => [f.id, f] as const))('%s', (id, f) => {
  const expected = INVALID[id]!;

  test('is rejected with the expected issue', () => {
    let error: unknown;
    try {
      decode(f.task, f.payload, { transport: 'payload', version: f.version });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SchemaMismatchError);
    const mismatch = error as SchemaMismatchError;
    expect(mismatch).toMatchObject({ code: 'SCHEMA_MISMATCH', task: f.task, version: f.version });
    expect(mismatch.issues).toContainEqual(
      expect.objectContaining({ path: expected.path, keyword: expected.keyword, params: expected.params }),
    );
    const ids = tablesFor(f.version).schemaIds[f.task]!;
    expect(mismatch.schemaId).toBe(f.variant === 'response' ? ids.response : ids.async[f.variant]);
    expect(mismatch.message).not.toMatch(/[\r\n]/);
    expect(mismatch.message).toContain(`AdCP ${f.version} schema`);
  });

  test('is rejected the same way from MCP text and from an A2A task', () => {
    const a2a =
      f.variant === 'working' || f.variant === 'input-required'
        ? a2a03.statusUpdate(f.variant, f.payload)
        : a2a03.task('completed', f.payload);
    for (const input of [mcp.text(f.text), a2a]) {
      const result = safeDecode(f.task, input, { version: f.version });
      expect(result.success).toBe(false);
      if (result.success) continue;
      expect(result.error).toBeInstanceOf(SchemaMismatchError);
      expect((result.error as SchemaMismatchError).issues).toContainEqual(
        expect.objectContaining({ path: expected.path, keyword: expected.keyword }),
      );
    }
  });
});
