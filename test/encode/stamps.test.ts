/**
 * The version a request states (versioning.mdx, "Version negotiation"): encode() stamps
 * `adcp_version` at release precision (`"3.1"`, never a patch) and `adcp_major_version`, only
 * where the task's request schema defines them, and a caller's stamp that contradicts the pin is
 * refused, never overwritten.
 */

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { stamp } from '../../src/encode/stamp.js';
import * as v30 from '../../src/generated/v3_0/pinned.js';
import * as v31 from '../../src/generated/v3_1/pinned.js';
import { createDecoder, encode, RequestError, safeEncode } from '../../src/index.js';
import type { Version } from '../../src/schema/versions.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { caughtAs } from '../helpers.js';
import { KEY, mediaBuyRequest, PRODUCTS_BRIEF } from './requests.js';

describe('stamps', () => {
  test('3.1 states its release and major, after the caller’s own members', () => {
    const { args } = v31.encode('get_products', PRODUCTS_BRIEF);
    expect(Object.keys(args)).toEqual([...Object.keys(PRODUCTS_BRIEF), 'adcp_version', 'adcp_major_version']);
    expect(args.adcp_version).toBe('3.1');
    expect(args.adcp_major_version).toBe(3);
  });

  test('3.0 defines only adcp_major_version, so only that is stamped', () => {
    const { args, release } = v30.encode('get_products', { buying_mode: 'wholesale' });
    expect(args).toEqual({ buying_mode: 'wholesale', adcp_major_version: 3 });
    expect(release).toBe('3.0');
  });

  test('a closed 3.0 request schema would refuse adcp_version: none is stamped, and it encodes', () => {
    const { args } = v30.encode('check_governance', { plan_id: 'plan-7', caller: 'https://buyer.example/agent' });
    expect(args).toEqual({ plan_id: 'plan-7', caller: 'https://buyer.example/agent', adcp_major_version: 3 });
  });

  test('a schema that defines neither gets neither (3.1 validate_input)', () => {
    const args = { manifest: { format_id: { agent_url: 'https://creative.seller.example', id: 'video_30s' }, assets: {} } };
    const r = v31.safeEncode('validate_input', args as never);
    if (!r.success) return expect.fail(r.error.message);
    expect(r.data.args).not.toHaveProperty('adcp_version');
    expect(r.data.args).not.toHaveProperty('adcp_major_version');
  });

  test('the root speaks the default version unless a version is given; a decoder’s version binds encode', () => {
    expect(encode('get_products', PRODUCTS_BRIEF).args.adcp_version).toBe('3.1');
    expect(encode('get_products', PRODUCTS_BRIEF, { version: 'auto' }).version).toBe(V3_1);
    expect(encode('get_products', { buying_mode: 'wholesale' }, { version: '3.0' }).args).toEqual({
      buying_mode: 'wholesale',
      adcp_major_version: 3,
    });
    expect(createDecoder({ version: V3_0 }).encode('get_products', { buying_mode: 'wholesale' }).version).toBe(V3_0);
  });

  test('a pre-release states its wire pin, kept whole: "3.2-beta.6", never the "3.2" it is not', () => {
    // A generated module's version (3.2.0-beta.6 is no bundled one): the stamp reads the version alone.
    const version = '3.2.0-beta.6' as Version;
    const args: Record<string, unknown> = { criteria: { channels: ['ctv'] } };
    stamp(args, ['adcp_version', 'adcp_major_version'], version, 'list_products');
    expect(args).toEqual({ criteria: { channels: ['ctv'] }, adcp_version: '3.2-beta.6', adcp_major_version: 3 });
    // The caller's "3.2" contradicts the pin: a release pin is not the pre-release.
    expect(() => stamp({ adcp_version: '3.2' }, ['adcp_version'], version, 'list_products')).toThrow(RequestError);
  });
});

describe('a stamp the caller set', () => {
  test('that agrees is kept where the caller put it', () => {
    const args = { adcp_major_version: 3, adcp_version: '3.1', ...PRODUCTS_BRIEF };
    expect(Object.keys(v31.encode('get_products', args).args)).toEqual(Object.keys(args));
    // 3.0 does not define adcp_version, but "3.0" is its release: kept, not refused.
    expect(v30.encode('get_products', { buying_mode: 'wholesale', adcp_version: '3.0' } as never).args).toEqual({
      buying_mode: 'wholesale',
      adcp_version: '3.0',
      adcp_major_version: 3,
    });
  });

  test.each([
    ['adcp_version', '3.0', v31],
    ['adcp_version', V3_1, v31],
    ['adcp_version', '3.1-beta', v31],
    ['adcp_version', 3.1, v31],
    ['adcp_major_version', 2, v31],
    ['adcp_major_version', '3', v31],
    ['adcp_version', '3.1', v30],
    ['adcp_major_version', 4, v30],
  ] as const)('%s %j contradicting the pin is refused, not overwritten', (field, value, pinned) => {
    const args = { ...PRODUCTS_BRIEF, [field]: value };
    const error = caughtAs(RequestError, () => (pinned.encode as typeof v31.encode)('get_products', args as never));
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.fault).toBe('stamp');
    expect(error.path).toBe(`/${field}`);
    expect(error.issues).toEqual([]);
    expect(error.message).not.toMatch(/[\r\n]/);
  });

  test('the message says what was expected and what arrived', () => {
    const r = safeEncode('get_products', { ...PRODUCTS_BRIEF, adcp_version: '3.0' });
    if (r.success) return expect.fail('encoded');
    expect(r.error.message).toMatchInlineSnapshot(
      `"the get_products request's adcp_version is "3.0", which contradicts the pinned AdCP ${V3_1}: expected "3.1" or leave it out (encode stamps "3.1"); to speak another release, pin it"`,
    );
    const major = v30.safeEncode('create_media_buy', { ...mediaBuyRequest(1), adcp_major_version: 2 } as never);
    if (major.success) return expect.fail('encoded');
    expect(major.error.message).toMatchInlineSnapshot(
      `"the create_media_buy request's adcp_major_version is 2, which contradicts the pinned AdCP ${V3_0}: expected 3 or leave it out (encode stamps 3); to speak another release, pin it"`,
    );
  });

  test('any adcp_version but the pinned release is refused (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer(), fc.constantFrom('3.0', '3.1.0', '3.1-rc.1', ' 3.1', '3.10')), (value) => {
        const r = v31.safeEncode('create_media_buy', { ...mediaBuyRequest(1, KEY), adcp_version: value } as never);
        if (value === '3.1') return r.success;
        return !r.success && r.error instanceof RequestError && r.error.fault === 'stamp';
      }),
    );
  });
});
