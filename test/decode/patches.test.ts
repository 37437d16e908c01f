/**
 * The patch fallback (issue 27, item 4): an answer announcing a bundled release that a published
 * GA patch of that release accepts is not refused; safeDecode's `patch` names the patch (the
 * newest with that schema) when it is not the bundled one. The table is generated from
 * schemas/synced/patch-history/ (synced from ADCP_SCHEMAS_SOURCE); these tests read it as the codegen does.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { SYNCED_DIR } from '../../scripts/schema-paths.js';
import { decode, safeDecode } from '../../src/decode/decode.js';
import { SchemaMismatchError } from '../../src/errors/errors.js';
import { patchJudgesByVersion } from '../../src/generated/patches.js';
import { fastValidator } from '../../src/validate/validators.js';
import { mcp } from '../fixtures/envelopes.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { caughtAs } from '../helpers.js';

const index = JSON.parse(readFileSync(path.join(SYNCED_DIR, 'patch-history', 'index.json'), 'utf8')) as {
  bundled: Record<string, string>;
  patches: Record<string, { line: string; differs_from_bundled: string[] }>;
};

/** A 3.0.6 sales seller's capabilities (the official SDK's line): media_buy without `account`, which 3.0 requires. */
const sales306 = {
  adcp: { major_versions: [3], idempotency: { supported: true, replay_ttl_seconds: 86400 } },
  supported_protocols: ['media_buy'],
  media_buy: {
    supported_pricing_models: ['cpm', 'vcpm'],
    reporting_delivery_methods: ['webhook'],
    portfolio: { publisher_domains: ['harborline-news.example'], primary_channels: ['olv', 'display'], primary_countries: ['US'] },
  },
  last_updated: '2026-05-04T08:00:00Z',
};

describe('the fixture', () => {
  test(`${V3_0} refuses it (account required for media_buy); the patch history says 3.0.6 differs there`, () => {
    expect(fastValidator(V3_0, 'get_adcp_capabilities', 'response')?.(sales306)).toBe(false);
    expect(index.patches['3.0.6']?.differs_from_bundled).toContain('protocol/get-adcp-capabilities-response.json');
  });
});

describe('an answer a published patch accepts', () => {
  test("is that patch's: typed by the bundled version, `patch` the newest patch with the schema that accepted it", () => {
    const result = safeDecode('get_adcp_capabilities', mcp.structured(sales306), { version: '3.0' });
    expect(result).toMatchObject({ success: true, version: V3_0, patch: '3.0.11' });
    const judged = patchJudgesByVersion[V3_0].get_adcp_capabilities?.response?.find((j) => j.patches[0] === '3.0.11');
    expect(judged?.patches).toContain('3.0.6');
    expect(decode('get_adcp_capabilities', mcp.structured(sales306), { version: '3.0' })).toEqual(sales306);
  });

  test('an answer the bundled patch accepts gets no patch', () => {
    const withAccount = { ...sales306, account: { supported_billing: ['operator'] } };
    const result = safeDecode('get_adcp_capabilities', mcp.structured(withAccount), { version: '3.0' });
    expect(result.success && 'patch' in result).toBe(false);
    expect(result).toMatchObject({ success: true, version: V3_0 });
  });

  test('an answer no patch accepts is refused with the bundled patch’s issues', () => {
    const broken = { ...sales306, media_buy: { ...sales306.media_buy, supported_pricing_models: 'cpm' } };
    const error = caughtAs(SchemaMismatchError, () => decode('get_adcp_capabilities', mcp.structured(broken), { version: '3.0' }));
    expect(error).toMatchObject({ code: 'SCHEMA_MISMATCH', version: V3_0 });
    expect(error.issues.map((i) => i.path)).toContain('/media_buy/supported_pricing_models');
    expect(error.schemaId).toBe(`/schemas/${V3_0}/protocol/get-adcp-capabilities-response.json`);
  });
});

describe('the generated table', () => {
  const lines = Object.entries(patchJudgesByVersion);

  test('names only published patches of the bundled release, each at most once per task and variant (bounded fallbacks)', () => {
    for (const [version, tasks] of lines) {
      const line = version.split('.').slice(0, 2).join('.');
      expect(index.bundled[line]).toBe(version);
      for (const variants of Object.values(tasks)) {
        for (const judges of Object.values(variants)) {
          const patches = judges.flatMap((j) => j.patches);
          expect(new Set(patches).size).toBe(patches.length);
          for (const p of patches) expect(index.patches[p]?.line).toBe(line);
          expect(new Set(judges.map((j) => j.module)).size).toBe(judges.length);
        }
      }
    }
  });

  test('has a validator for every patch whose capabilities schema differs, none for the patches whose response schemas are the bundled ones', () => {
    const listed = (version: string) =>
      new Set(
        Object.values(patchJudgesByVersion[version as keyof typeof patchJudgesByVersion]).flatMap((v) =>
          Object.values(v)
            .flat()
            .flatMap((j) => j.patches),
        ),
      );
    const capabilities = new Set(patchJudgesByVersion[V3_0].get_adcp_capabilities?.response?.flatMap((j) => j.patches));
    for (const [p, entry] of Object.entries(index.patches)) {
      if (entry.line === '3.0' && entry.differs_from_bundled.includes('protocol/get-adcp-capabilities-response.json'))
        expect(capabilities).toContain(p);
    }
    // 3.0.25 and 3.1.14 to 3.1.18 differ in two request-side files only.
    expect(listed(V3_0).has('3.0.25')).toBe(false);
    expect(listed(V3_1).has('3.1.18')).toBe(false);
  });
});
