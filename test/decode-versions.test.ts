/**
 * Which schema set judges a payload: `version: 'auto'` reads the payload's `adcp_version`
 * (release precision, "3.0" / "3.1"), else the default pin; an explicit version or release
 * wins; anything not bundled is UNSUPPORTED_VERSION. The result says which version judged it.
 */
import { describe, expect, test } from 'vitest';
import { createDecoder, decode, safeDecode } from '../src/decode.js';
import { DecodeError, SchemaMismatchError } from '../src/errors.js';
import { defaultVersion, tasks, versions } from '../src/versions.js';
import { a2a10, mcp } from './fixtures/envelopes.js';
import { payload } from './fixtures/payloads.js';

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DecodeError);
    return (error as DecodeError).code;
  }
  return 'no error';
}

test('the bundled versions, default first', () => {
  expect(versions).toEqual(['3.1.19', '3.0.26']);
  expect(defaultVersion).toBe('3.1.19');
});

describe("version: 'auto'", () => {
  test('a payload announcing "3.1" is judged by 3.1.19', () => {
    expect(safeDecode('get_products', mcp.structured(payload('3.1.19/get_products.valid')))).toMatchObject({ success: true, version: '3.1.19' });
  });

  test('a payload announcing "3.0" is judged by 3.0.26, where cache_scope is not required', () => {
    const body = payload('3.0.26/get_products.valid');
    expect(body['cache_scope']).toBeUndefined();
    expect(safeDecode('get_products', a2a10.taskEnvelope('TASK_STATE_COMPLETED', body))).toMatchObject({ success: true, version: '3.0.26', data: body });
  });

  test('a payload without adcp_version is judged by the default pin', () => {
    const body = payload('3.0.26/get_products.valid');
    delete body['adcp_version'];
    const result = safeDecode('get_products', mcp.structured(body));
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error).toBeInstanceOf(SchemaMismatchError);
    expect(result.error).toMatchObject({ version: '3.1.19' });
    expect((result.error as SchemaMismatchError).issues).toContainEqual(expect.objectContaining({ path: '', params: { missingProperty: 'cache_scope' } }));
  });

  test('a 3.0 error arm, announced, is judged by 3.0.26', () => {
    expect(safeDecode('activate_signal', mcp.text(payload('3.0.26/activate_signal.errors')))).toMatchObject({ success: true, version: '3.0.26' });
  });

  test.each([
    ['a release that is not bundled', '3.2'],
    ['a future major', '4.0'],
    ['a pre-release', '3.1-rc.1'],
    ['a patch version (not a wire value)', '3.1.19'],
    ['another patch of a bundled release', '3.0.26'],
    ['a "v" prefix', 'v3.1'],
    ['a bare major', '3'],
  ])('an announced %s is UNSUPPORTED_VERSION', (_name, announced) => {
    const body = { ...payload('3.1.19/list_accounts.valid'), adcp_version: announced };
    const result = safeDecode('list_accounts', mcp.structured(body));
    expect(result).toMatchObject({ success: false, error: { code: 'UNSUPPORTED_VERSION', task: 'list_accounts' } });
  });

  test('the messages say what was announced and what is bundled', () => {
    const message = (announced: string) => {
      const r = safeDecode('list_accounts', mcp.structured({ ...payload('3.1.19/list_accounts.valid'), adcp_version: announced }));
      return r.success ? '' : r.error.message;
    };
    expect(message('3.1-rc.1')).toMatchInlineSnapshot(`"the payload announces AdCP version "3.1-rc.1", a release that is not bundled; expected one of the bundled releases 3.1, 3.0 (or a version option)"`);
    expect(message('3.0.26')).toMatchInlineSnapshot(`"the payload announces AdCP version "3.0.26", not a release-precision version; expected one of the bundled releases 3.1, 3.0 (or a version option)"`);
  });

  test('a non-string adcp_version is left to the default schema, which rejects it', () => {
    const body = { ...payload('3.1.19/list_accounts.valid'), adcp_version: 3.1 };
    const result = safeDecode('list_accounts', mcp.structured(body));
    expect(result).toMatchObject({ success: false, error: { code: 'SCHEMA_MISMATCH', version: '3.1.19' } });
    if (!result.success) expect((result.error as SchemaMismatchError).issues[0]).toMatchObject({ path: '/adcp_version', keyword: 'type' });
  });
});

describe('an explicit version', () => {
  test.each([['3.0.26'], ['3.0']] as const)('%s selects 3.0.26', (version) => {
    expect(safeDecode('get_media_buys', mcp.structured(payload('3.0.26/get_media_buys.valid')), { version })).toMatchObject({ success: true, version: '3.0.26' });
  });

  test.each([['3.1.19'], ['3.1']] as const)('%s selects 3.1.19', (version) => {
    expect(safeDecode('get_media_buys', mcp.structured(payload('3.1.19/get_media_buys.valid')), { version })).toMatchObject({ success: true, version: '3.1.19' });
  });

  test('wins over the announced version', () => {
    // A 3.0 payload forced through 3.1: the 3.1 rules apply (status and cache_scope required).
    const result = safeDecode('get_products', mcp.structured(payload('3.0.26/get_products.valid')), { version: '3.1' });
    expect(result).toMatchObject({ success: false, error: { code: 'SCHEMA_MISMATCH', version: '3.1.19' } });
    // A payload announcing a version that is not bundled decodes under an explicit one.
    const future = { ...payload('3.1.19/list_accounts.valid'), adcp_version: '3.2' };
    expect(safeDecode('list_accounts', mcp.structured(future), { version: '3.1.19' })).toMatchObject({ success: true, version: '3.1.19' });
  });

  test.each([['2.5'], ['3.2'], ['3.1.0'], ['latest'], ['']])('%j is UNSUPPORTED_VERSION', (version) => {
    expect(codeOf(() => decode('get_products', mcp.structured(payload('3.1.19/get_products.valid')), { version: version as '3.1' }))).toBe('UNSUPPORTED_VERSION');
  });

  test('a task not in the requested version is UNKNOWN_TASK there', () => {
    expect(tasks('3.1')).toContain('list_tasks');
    expect(tasks('3.0')).not.toContain('list_tasks');
    expect(codeOf(() => decode('list_tasks', mcp.structured({ status: 'completed', tasks: [] }), { version: '3.0' }))).toBe('UNKNOWN_TASK');
  });
});

describe('createDecoder binds a version; a call can override it', () => {
  test('bound 3.0, auto per call', () => {
    const seller = createDecoder({ version: '3.0' });
    const body = payload('3.1.19/get_products.valid');
    expect(seller.safeDecode('get_products', mcp.structured(body))).toMatchObject({ success: true, version: '3.0.26' });
    expect(seller.safeDecode('get_products', mcp.structured(body), { version: 'auto' })).toMatchObject({ success: true, version: '3.1.19' });
    expect(seller.safeDecode('get_products', mcp.structured(body), { version: '3.1.19' })).toMatchObject({ success: true, version: '3.1.19' });
  });

  test('a bad bound version fails when a call needs it', () => {
    const seller = createDecoder({ version: '9.9' as '3.1' });
    expect(seller.safeDecode('get_products', mcp.structured(payload('3.1.19/get_products.valid')))).toMatchObject({ success: false, error: { code: 'UNSUPPORTED_VERSION' } });
  });
});
