/**
 * decoderFor: a seller's decoder from its get_adcp_capabilities answer. A 3.0 seller (no
 * adcp_version, no supported_versions) gets a 3.0 decoder, so its answers are no longer judged by
 * 3.1's rules under `'auto'`; a 3.1 seller gets the newest release both speak; no release in
 * common is NO_COMMON_VERSION. The table pins the negotiation for every shape of `adcp`. The two
 * sellers' answers (test/fixtures/capabilities) are checked against their release's schema here;
 * they live apart from test/fixtures/payloads, whose order seeds the fuzzer's recorded cases.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { decoderFor } from '../../src/decode/capabilities.js';
import { safeDecode } from '../../src/decode/decode.js';
import { DecodeError, NoCommonVersionError, SchemaMismatchError } from '../../src/errors/errors.js';
import { versionForSeller } from '../../src/schema/versions.js';
import { fastValidator } from '../../src/validate/validators.js';
import { a2a10, mcp } from '../fixtures/envelopes.js';
import { payload } from '../fixtures/payloads.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { caughtAs } from '../helpers.js';

type Json = Record<string, unknown>;

const CAPABILITIES = { [V3_0]: 'seller-3-0.json', [V3_1]: 'seller-3-1.json' } as const;

/** A fresh copy of a seller's capabilities answer: a 3.0 seller's, or a 3.1 seller's. */
function capabilities(version: keyof typeof CAPABILITIES): Json {
  return JSON.parse(readFileSync(new URL(`../fixtures/capabilities/${CAPABILITIES[version]}`, import.meta.url), 'utf8')) as Json;
}

describe('the fixtures', () => {
  test.each(Object.keys(CAPABILITIES) as Array<keyof typeof CAPABILITIES>)(
    "the %s seller's answer is valid in its release, as sent",
    (version) => {
      expect(fastValidator(version, 'get_adcp_capabilities', 'response')?.(capabilities(version))).toBe(true);
      expect(safeDecode('get_adcp_capabilities', mcp.structured(capabilities(version)), { version })).toMatchObject({
        success: true,
        version,
      });
    },
  );
});

/** A 3.0 seller's get_products answer: valid in 3.0, which has no adcp_version to announce it. */
function products30(): Json {
  const { adcp_version: _announced, ...bare } = payload('3.0/get_products.valid');
  return bare;
}

/** The 3.1 seller's capabilities with `adcp` replaced, announcing `announced` (`null`: no adcp_version). */
function seller31(adcp: Json, announced: string | null = '3.1'): Json {
  const { adcp_version: _v, ...rest } = capabilities(V3_1);
  const base = { ...rest, adcp: { idempotency: { supported: true, replay_ttl_seconds: 86400 }, ...adcp } };
  return announced === null ? base : { adcp_version: announced, ...base };
}

describe('a 3.0 seller', () => {
  const answer = () => capabilities(V3_0);

  test.each([
    ['MCP structuredContent', () => mcp.structured(answer())],
    ['MCP text', () => mcp.text(answer())],
    ['A2A 1.0 task', () => a2a10.taskEnvelope('TASK_STATE_COMPLETED', answer())],
  ])('over %s: pinned to 3.0, the stamp is "3.0", the capabilities are returned as sent', (_name, input) => {
    const seller = decoderFor(input());
    expect(seller).toMatchObject({ version: V3_0, release: '3.0', majorVersion: 3, sellerVersions: ['3'] });
    expect(seller.capabilities).toEqual(answer());
  });

  test(`its answers are judged by 3.0, which 'auto' judges by ${V3_1} and refuses`, () => {
    const auto = safeDecode('get_products', mcp.structured(products30()));
    expect(auto.success).toBe(false);
    if (!auto.success) expect(auto.error).toMatchObject({ code: 'SCHEMA_MISMATCH', version: V3_1 });
    const seller = decoderFor(mcp.structured(answer()));
    expect(seller.safeDecode('get_products', mcp.structured(products30()))).toMatchObject({ success: true, version: V3_0 });
    expect(seller.decode('get_products', mcp.structured(products30()))).toEqual(products30());
  });
});

describe('a 3.1 seller', () => {
  test('listing 3.0 and 3.1: pinned to 3.1', () => {
    const seller = decoderFor(mcp.structured(capabilities(V3_1)));
    expect(seller).toMatchObject({ version: V3_1, release: '3.1', majorVersion: 3, sellerVersions: ['3.0', '3.1'] });
    expect(seller.safeDecode('get_products', mcp.structured(payload('3.1/get_products.valid')))).toMatchObject({
      success: true,
      version: V3_1,
    });
  });
});

describe('the release picked, for every shape of adcp', () => {
  test.each([
    ['supported 3.0 and 3.1', { major_versions: [3], supported_versions: ['3.0', '3.1'] }, '3.1', V3_1],
    ['supported up to a newer 3.2', { major_versions: [3], supported_versions: ['3.0', '3.1', '3.2'] }, '3.1', V3_1],
    ['a gap: 3.0 and 3.2', { major_versions: [3], supported_versions: ['3.0', '3.2'] }, '3.1', V3_0],
    [
      'a pre-release is matched exactly, never range-resolved',
      { major_versions: [3], supported_versions: ['3.0', '3.1-beta'] },
      '3.0',
      V3_0,
    ],
    ['only 3.1, served in 3.1', { major_versions: [3], supported_versions: ['3.1'] }, '3.1', V3_1],
    ['majors only, announced 3.1', { major_versions: [3] }, '3.1', V3_1],
    ['majors only, announcing nothing (treated as 3.0-only)', { major_versions: [3] }, null, V3_0],
    ['majors 3 and 4, announcing nothing', { major_versions: [3, 4] }, null, V3_0],
  ] as const)('%s', (_name, adcp, announced, version) => {
    const seller = decoderFor(mcp.structured(seller31(adcp, announced)));
    expect(seller.version).toBe(version);
    expect(seller.release).toBe(version.slice(0, 3));
  });

  test.each([
    ['only 4.0', { major_versions: [4], supported_versions: ['4.0'] }, '3.1', ['4.0']],
    ['only a 3.1 pre-release', { major_versions: [3], supported_versions: ['3.1-beta'] }, '3.1', ['3.1-beta']],
    ['majors only, 2', { major_versions: [2] }, null, ['2']],
  ] as const)('%s: NO_COMMON_VERSION', (_name, adcp, announced, listed) => {
    const e = caughtAs(NoCommonVersionError, () => decoderFor(mcp.structured(seller31(adcp, announced))));
    expect(e).toMatchObject({
      code: 'NO_COMMON_VERSION',
      task: 'get_adcp_capabilities',
      sellerVersions: listed,
      bundledReleases: ['3.1', '3.0'],
    });
    expect(e.message).not.toMatch(/[\r\n]/);
  });

  test('the message of NO_COMMON_VERSION', () => {
    const e = caughtAs(NoCommonVersionError, () =>
      decoderFor(mcp.structured(seller31({ major_versions: [4], supported_versions: ['4.0', '4.1'] }))),
    );
    expect(e.message).toMatchInlineSnapshot(`"the seller speaks AdCP 4.0, 4.1; adcp-decode bundles 3.1, 3.0: no release in common"`);
  });

  test('versionForSeller agrees with decoderFor on the table above', () => {
    expect(versionForSeller({ supportedVersions: ['3.0', '3.2'], majorVersions: [3] })).toBe(V3_0);
    expect(versionForSeller({ majorVersions: [3], announced: '3.0' })).toBe(V3_0);
    expect(versionForSeller({ majorVersions: [3], announced: '3.9' })).toBe(V3_0);
    expect(versionForSeller({ majorVersions: [] })).toBeUndefined();
  });
});

describe('a capabilities answer that cannot be trusted', () => {
  test('supported_versions malformed where 3.0 judges (no adcp_version): SCHEMA_MISMATCH at its pointer', () => {
    const answer = { ...capabilities(V3_0) };
    answer.adcp = { ...(answer.adcp as Json), supported_versions: ['3.1.2'] };
    const e = caughtAs(SchemaMismatchError, () => decoderFor(mcp.structured(answer)));
    expect(e).toMatchObject({ task: 'get_adcp_capabilities', version: V3_0 });
    expect(e.issues.map((i) => i.path)).toEqual(['/adcp/supported_versions']);
  });

  test('supported_versions malformed where 3.1 judges: the schema says so', () => {
    const e = caughtAs(SchemaMismatchError, () =>
      decoderFor(mcp.structured(seller31({ major_versions: [3], supported_versions: ['v3.1'] }))),
    );
    expect(e).toMatchObject({ version: V3_1 });
    expect(e.issues[0]).toMatchObject({ path: '/adcp/supported_versions/0', keyword: 'pattern' });
  });

  test('a failed capabilities call is TASK_FAILED', () => {
    const e = caughtAs(DecodeError, () => decoderFor(mcp.error({ code: 'SERVICE_UNAVAILABLE', message: 'Try later' })));
    expect(e).toMatchObject({ code: 'TASK_FAILED', task: 'get_adcp_capabilities' });
  });
});

describe('options', () => {
  test('version is refused: the answer decides it', () => {
    const input = mcp.structured(capabilities(V3_1));
    const e = caughtAs(DecodeError, () => decoderFor(input, { version: '3.0' } as never));
    expect(e).toMatchObject({ code: 'INVALID_OPTION' });
  });

  test('request is refused: it is per call', () => {
    const input = mcp.structured(capabilities(V3_1));
    const e = caughtAs(DecodeError, () => decoderFor(input, { request: { task: 'get_adcp_capabilities', args: {} } }));
    expect(e).toMatchObject({ code: 'INVALID_OPTION' });
  });

  test('bounds judge the capabilities answer and bind the decoder', () => {
    const input = mcp.text(capabilities(V3_1));
    expect(caughtAs(DecodeError, () => decoderFor(input, { maxBytes: 64 }))).toMatchObject({ code: 'TOO_LARGE' });
    const seller = decoderFor(input, { maxBytes: 1024 });
    const big = mcp.text(payload('3.1/get_products.valid'));
    expect(seller.safeDecode('get_products', big)).toMatchObject({ success: false, error: { code: 'TOO_LARGE' } });
  });
});

describe('negotiation reads the version members only (issue 27, item 3)', () => {
  /** A 3.0.6 sales seller (the official SDK's line): media_buy without `account`, which 3.0 requires. */
  const sdkSeller = () => {
    const { account: _account, ...rest } = capabilities(V3_0);
    return rest;
  };

  test('a 3.0.6-style sales seller without account gets its 3.0 decoder; the check says which patch accepted the answer', () => {
    const seller = decoderFor(mcp.structured(sdkSeller()));
    expect(seller).toMatchObject({ version: V3_0, release: '3.0', sellerVersions: ['3'], check: { valid: true, patch: '3.0.11' } });
    expect(seller.capabilities).toEqual(sdkSeller());
    expect(seller.safeDecode('get_products', mcp.structured(products30()))).toMatchObject({ success: true, version: V3_0 });
  });

  test('an answer its schema refuses outside the version members: the decoder all the same, the refusal beside it', () => {
    const answer = { ...capabilities(V3_0), media_buy: { supported_pricing_models: 'cpm' } };
    const seller = decoderFor(mcp.structured(answer));
    expect(seller).toMatchObject({ version: V3_0, release: '3.0', capabilities: undefined, check: { valid: false } });
    if (seller.check.valid) throw new Error('expected the refusal');
    expect(seller.check.error).toBeInstanceOf(SchemaMismatchError);
    expect(seller.check.error.issues.map((i) => i.path)).toContain('/media_buy/supported_pricing_models');
  });

  test('unusable version members are still refused, with the schema’s issues', () => {
    const answer = { ...capabilities(V3_0), adcp: { major_versions: ['three'] } };
    const error = caughtAs(SchemaMismatchError, () => decoderFor(mcp.structured(answer)));
    expect(error.issues.some((i) => i.path.startsWith('/adcp'))).toBe(true);
  });
});
