/**
 * Which schema set judges a payload: `version: 'auto'` reads the payload's `adcp_version`
 * (release precision, "3.0" / "3.1"), else the default pin; a well-formed release this buyer has
 * not loaded is RELEASE_NOT_LOADED (the configuration's), unless `newerRelease: 'newest'`, which
 * judges a newer release of a bundled major ("3.2") by the newest bundled release of that major,
 * as the result and every error say (`standInFor`); an explicit version or release wins; a value
 * that is no release-precision version is UNSUPPORTED_VERSION. The result says which version judged it.
 * createDecoder checks every option, version values included, when it is called.
 */
import { describe, expect, test } from 'vitest';
import { createDecoder, decode, safeDecode } from '../../src/decode/decode.js';
import { SchemaMismatchError } from '../../src/errors/errors.js';
import { defaultVersion, tasks, versions } from '../../src/schema/versions.js';
import { a2a10, mcp } from '../fixtures/envelopes.js';
import { payload } from '../fixtures/payloads.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { codeOf } from '../helpers.js';

test('the bundled versions, default first', () => {
  expect(versions).toEqual([V3_1, V3_0]);
  expect(defaultVersion).toBe(V3_1);
});

describe("version: 'auto'", () => {
  test(`a payload announcing "3.1" is judged by ${V3_1}`, () => {
    expect(safeDecode('get_products', mcp.structured(payload('3.1/get_products.valid')))).toMatchObject({
      success: true,
      version: V3_1,
    });
  });

  test(`a payload announcing "3.0" is judged by ${V3_0}, where cache_scope is not required`, () => {
    const body = payload('3.0/get_products.valid');
    expect(body['cache_scope']).toBeUndefined();
    expect(safeDecode('get_products', a2a10.taskEnvelope('TASK_STATE_COMPLETED', body))).toMatchObject({
      success: true,
      version: V3_0,
      data: body,
    });
  });

  test('a payload without adcp_version is judged by the default pin', () => {
    const body = payload('3.0/get_products.valid');
    delete body['adcp_version'];
    const result = safeDecode('get_products', mcp.structured(body));
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error).toBeInstanceOf(SchemaMismatchError);
    expect(result.error).toMatchObject({ version: V3_1 });
    expect((result.error as SchemaMismatchError).issues).toContainEqual(
      expect.objectContaining({ path: '', params: { missingProperty: 'cache_scope' } }),
    );
  });

  test(`a 3.0 error arm, announced, is judged by ${V3_0}`, () => {
    expect(safeDecode('activate_signal', mcp.text(payload('3.0/activate_signal.errors')))).toMatchObject({
      success: true,
      version: V3_0,
    });
  });

  test.each([
    ['a future major', '4.0'],
    ['a past major', '2.5'],
    ['a pre-release of a newer release (matched exactly, as the spec negotiates)', '3.2-beta.1'],
    ['a pre-release', '3.1-rc.1'],
    ['a newer release of a bundled major', '3.2'],
  ])("an announced %s this buyer has not loaded is RELEASE_NOT_LOADED: the configuration's, not the seller's", (_name, announced) => {
    const body = { ...payload('3.1/list_accounts.valid'), adcp_version: announced };
    const result = safeDecode('list_accounts', mcp.structured(body));
    expect(result).toMatchObject({ success: false, error: { code: 'RELEASE_NOT_LOADED', task: 'list_accounts' } });
  });

  test.each([
    ['a release with a leading zero', '3.02'],
    ['a patch version (not a wire value)', V3_1],
    ['another patch of a bundled release', V3_0],
    ['a full pre-release semver (not a wire value)', '3.2.0-beta.6'],
    ['a "v" prefix', 'v3.1'],
    ['a bare major', '3'],
  ])("an announced %s is no release-precision version: UNSUPPORTED_VERSION, the seller's", (_name, announced) => {
    const body = { ...payload('3.1/list_accounts.valid'), adcp_version: announced };
    const result = safeDecode('list_accounts', mcp.structured(body));
    expect(result).toMatchObject({ success: false, error: { code: 'UNSUPPORTED_VERSION', task: 'list_accounts' } });
  });

  test('the messages say what was announced, what is loaded, and how to load it', () => {
    const message = (announced: string) => {
      const r = safeDecode('list_accounts', mcp.structured({ ...payload('3.1/list_accounts.valid'), adcp_version: announced }));
      return r.success ? '' : r.error.message;
    };
    expect(message('3.1-rc.1')).toMatchInlineSnapshot(
      `"the answer announces AdCP "3.1-rc.1", a release this buyer has not loaded (known: 3.1, 3.0): not the seller's fault; generate it from the spec's release tarball (npx adcp-decode generate <3.1-rc.1.x tarball> --out <dir>) and import the module"`,
    );
    expect(message('3.2')).toMatchInlineSnapshot(
      `"the answer announces AdCP "3.2", a release this buyer has not loaded (known: 3.1, 3.0): not the seller's fault; generate it from the spec's release tarball (npx adcp-decode generate <3.2.x tarball> --out <dir>) and import the module, or judge it by 3.1.19 with newerRelease: 'newest'"`,
    );
    expect(message(V3_0)).toMatchInlineSnapshot(
      `"the payload announces AdCP version "${V3_0}", not a release-precision version ("3.1", "3.2-beta.6": no patch on the wire)"`,
    );
  });

  test('a non-string adcp_version is left to the default schema, which rejects it', () => {
    const body = { ...payload('3.1/list_accounts.valid'), adcp_version: 3.1 };
    const result = safeDecode('list_accounts', mcp.structured(body));
    expect(result).toMatchObject({ success: false, error: { code: 'SCHEMA_MISMATCH', version: V3_1 } });
    if (!result.success) expect((result.error as SchemaMismatchError).issues[0]).toMatchObject({ path: '/adcp_version', keyword: 'type' });
  });
});

describe('an explicit version', () => {
  test.each([[V3_0], ['3.0']] as const)(`%s selects ${V3_0}`, (version) => {
    expect(safeDecode('get_media_buys', mcp.structured(payload('3.0/get_media_buys.valid')), { version })).toMatchObject({
      success: true,
      version: V3_0,
    });
  });

  test.each([[V3_1], ['3.1']] as const)(`%s selects ${V3_1}`, (version) => {
    expect(safeDecode('get_media_buys', mcp.structured(payload('3.1/get_media_buys.valid')), { version })).toMatchObject({
      success: true,
      version: V3_1,
    });
  });

  test('wins over the announced version', () => {
    // A 3.0 payload forced through 3.1: the 3.1 rules apply (status and cache_scope required).
    const result = safeDecode('get_products', mcp.structured(payload('3.0/get_products.valid')), { version: '3.1' });
    expect(result).toMatchObject({ success: false, error: { code: 'SCHEMA_MISMATCH', version: V3_1 } });
    // A payload announcing a version that is not bundled decodes under an explicit one.
    const future = { ...payload('3.1/list_accounts.valid'), adcp_version: '3.2' };
    expect(safeDecode('list_accounts', mcp.structured(future), { version: V3_1 })).toMatchObject({ success: true, version: V3_1 });
  });

  test.each([['2.5'], ['3.2'], ['3.1.0'], ['latest'], ['']])('%j is UNSUPPORTED_VERSION', (version) => {
    expect(codeOf(() => decode('get_products', mcp.structured(payload('3.1/get_products.valid')), { version: version as '3.1' }))).toBe(
      'UNSUPPORTED_VERSION',
    );
  });

  test('a task not in the requested version is UNKNOWN_TASK there', () => {
    expect(tasks('3.1')).toContain('list_tasks');
    expect(tasks('3.0')).not.toContain('list_tasks');
    // @ts-expect-error a 3.1-only task does not compile pinned to 3.0; a JavaScript caller gets the error
    expect(codeOf(() => decode('list_tasks', mcp.structured({ status: 'completed', tasks: [] }), { version: '3.0' }))).toBe('UNKNOWN_TASK');
  });
});

describe('createDecoder binds a version; a call can override it', () => {
  test('bound 3.0, auto per call', () => {
    const seller = createDecoder({ version: '3.0' });
    const body = payload('3.1/get_products.valid');
    expect(seller.safeDecode('get_products', mcp.structured(body))).toMatchObject({ success: true, version: V3_0 });
    expect(seller.safeDecode('get_products', mcp.structured(body), { version: 'auto' })).toMatchObject({
      success: true,
      version: V3_1,
    });
    expect(seller.safeDecode('get_products', mcp.structured(body), { version: V3_1 })).toMatchObject({
      success: true,
      version: V3_1,
    });
  });

  test('a bound newerRelease applies to every call, and a call can override it', () => {
    const strict = createDecoder({ newerRelease: 'refuse' });
    const body = { ...payload('3.1/list_accounts.valid'), adcp_version: '3.2' };
    expect(strict.safeDecode('list_accounts', mcp.structured(body))).toMatchObject({
      success: false,
      error: { code: 'RELEASE_NOT_LOADED' },
    });
    expect(strict.safeDecode('list_accounts', mcp.structured(body), { newerRelease: 'newest' })).toMatchObject({
      success: true,
      version: V3_1,
      standInFor: '3.2',
    });
  });
});

describe('createDecoder checks every option when it is called', () => {
  test.each([
    ['version: an unknown word', { version: 'nope' }, 'UNSUPPORTED_VERSION'],
    ['version: a release that is not bundled', { version: '9.9' }, 'UNSUPPORTED_VERSION'],
    ['version: a newer release (a pin is exact; only announced releases get a stand-in)', { version: '3.2' }, 'UNSUPPORTED_VERSION'],
    ['version: an empty string', { version: '' }, 'UNSUPPORTED_VERSION'],
    ['version: a number', { version: 3.1 }, 'INVALID_OPTION'],
    ['newerRelease: an unknown word', { newerRelease: 'oldest' }, 'INVALID_OPTION'],
    ['newerRelease: null', { newerRelease: null }, 'INVALID_OPTION'],
    ['transport: an unknown word', { transport: 'http' }, 'INVALID_OPTION'],
    ['maxBytes: negative', { maxBytes: -1 }, 'INVALID_OPTION'],
    ['maxDepth: a fraction', { maxDepth: 1.5 }, 'INVALID_OPTION'],
    ['maxNodes: NaN', { maxNodes: Number.NaN }, 'INVALID_OPTION'],
    ['unknownRecovery: an unknown word', { unknownRecovery: 'retry' }, 'INVALID_OPTION'],
    ['options: a string', 'strict', 'INVALID_OPTION'],
    ['options: null', null, 'INVALID_OPTION'],
  ])('%s: %s', (_name, options, code) => {
    expect(codeOf(() => createDecoder(options as never))).toBe(code);
  });

  test('the message names the version and what is bundled', () => {
    let message = '';
    try {
      createDecoder({ version: '9.9' as '3.1' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatchInlineSnapshot(
      `"requested AdCP version "9.9" is neither bundled nor defined by a generated release module; expected one of ${V3_1}, ${V3_0} or their pins (3.1, 3.0)"`,
    );
  });

  test('good options create a decoder', () => {
    for (const options of [
      {},
      { version: 'auto' },
      { version: '3.0' },
      { version: V3_1 },
      { newerRelease: 'refuse' },
      { maxBytes: Infinity, transport: 'payload' },
    ] as const) {
      expect(typeof createDecoder(options).decode).toBe('function');
    }
  });
});

describe("a newer release of a bundled major, judged by the newest bundled one only on request (newerRelease: 'newest')", () => {
  const announcing = (release: string): Record<string, unknown> => ({ ...payload('3.1/list_accounts.valid'), adcp_version: release });
  const standIn = { newerRelease: 'newest' } as const;

  test.each([['3.2'], ['3.9'], ['3.10'], ['3.999']])(`%s is judged by ${V3_1}, the newest bundled 3.x, and says so`, (release) => {
    const body = announcing(release);
    const result = safeDecode('list_accounts', mcp.structured(body), standIn);
    expect(result).toEqual({ success: true, data: body, version: V3_1, standInFor: release });
    // decode() returns the payload as sent.
    expect(decode('list_accounts', mcp.structured(body), standIn)).toEqual(body);
  });

  test('a pre-release of a newer release is never stood in for: it is matched exactly, so not loaded', () => {
    expect(safeDecode('list_accounts', mcp.structured(announcing('3.2-beta.6')), standIn)).toMatchObject({
      success: false,
      error: { code: 'RELEASE_NOT_LOADED' },
    });
  });

  test('a bundled release is no stand-in: the result has no standInFor', () => {
    const result = safeDecode('list_accounts', mcp.structured(payload('3.1/list_accounts.valid')), standIn);
    expect(result.success && Object.keys(result)).toEqual(['success', 'data', 'version']);
  });

  test("by default (newerRelease: 'refuse') the release is not loaded, and nothing stands in for it", () => {
    const result = safeDecode('list_accounts', mcp.structured(announcing('3.2')));
    expect(result).toMatchObject({ success: false, error: { code: 'RELEASE_NOT_LOADED', task: 'list_accounts', standInFor: undefined } });
  });

  test('an explicit version wins: no stand-in', () => {
    expect(safeDecode('list_accounts', mcp.structured(announcing('3.2')), { version: '3.0' })).toEqual({
      success: true,
      data: expect.anything(),
      version: V3_0,
    });
  });

  test('a schema mismatch says which release judged it, and in place of which', () => {
    const body = { ...announcing('3.2'), accounts: [{ account_id: 'acc_1' }] };
    const result = safeDecode('list_accounts', mcp.structured(body), standIn);
    expect(result).toMatchObject({ success: false, error: { code: 'SCHEMA_MISMATCH', version: V3_1, standInFor: '3.2' } });
    expect(result.success ? '' : result.error.message).toMatchInlineSnapshot(
      `"list_accounts response does not match the AdCP ${V3_1} schema, judged in place of the announced 3.2 (2 issues); first: /accounts/0 must have required property 'name'"`,
    );
  });

  test("a seller's adcp_error in such a payload is classified by the stand-in's table, and says so", () => {
    const body = { adcp_version: '3.4', adcp_error: { code: 'AUTH_INVALID', message: 'Token revoked' } };
    const result = safeDecode('create_media_buy', mcp.structured(body), standIn);
    // AUTH_INVALID is terminal in 3.1's table (an unknown, transient, code in 3.0's).
    expect(result).toMatchObject({
      success: false,
      error: { code: 'TASK_FAILED', version: V3_1, standInFor: '3.4', recovery: { recovery: 'terminal' } },
    });
  });

  test(`a 3.2 payload over A2A, without status, is judged completed by ${V3_1}`, () => {
    const body = announcing('3.2');
    delete body['status'];
    expect(safeDecode('list_accounts', a2a10.taskEnvelope('TASK_STATE_COMPLETED', body), standIn)).toEqual({
      success: true,
      data: body,
      version: V3_1,
      standInFor: '3.2',
    });
  });
});
