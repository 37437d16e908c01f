/**
 * Every vector of the AdCP `transport-error-mapping.json` set through the error extractors and the
 * recovery classifier.
 *
 * Vector fields and readings:
 * - `transport` picks the extractor (`mcp` → extractMcpError, `a2a` → extractA2aError).
 * - `expected_error` is the extracted `adcp_error`, unchanged (retry_after 86400 stays 86400: the
 *   page says extraction preserves values and clamping is the action layer's job), or `null`.
 * - `path` is where the error is found; asserted against the reported source when one is expected
 *   (`text_fallback` / `jsonrpc_error` / ... are this module's source names verbatim).
 * - `expected_action` is the action layer: `retry` = transient, `surface_to_caller` = correctable,
 *   `escalate_to_human` = terminal, `generic_error` = no structured error extracted. These vectors
 *   follow transport-errors.mdx, where an unknown code without `recovery` is terminal, so the
 *   classifier runs with `unknownRecovery: 'terminal'` over the 3.1 manifest's code table.
 * - The vectors are newer than the 3.1 manifest: `ACCOUNT_MOVED` and `ACCOUNT_IDENTITY_CONFLICT`
 *   are absent from it, yet two vectors expect "the canonical correctable fallback" for them. The
 *   spec text's own code tables (transport-errors.mdx `CODE_RECOVERY`, error-handling.mdx) list both
 *   as `correctable`, and every other entry of `CODE_RECOVERY` agrees with the manifest, so the test
 *   table is the manifest plus exactly those two page entries (`PAGE_ONLY_CODES`). A test below pins
 *   the gap so it is visible when the manifest catches up.
 * - For `retry`, the delay is `retry_after` clamped to 1-3600 (the `mcp-extreme-retry-after`
 *   description: "clients should clamp to 3600"), and absent when the seller sent none
 *   (`mcp-transient-no-retry-after`: "client should use exponential backoff").
 */
import { describe, expect, test } from 'vitest';
import type { AdcpError, Recovery } from '../../src/errors/errors.js';
import { extractA2aError, extractMcpError, locateA2aError, locateMcpError } from '../../src/extract/errors.js';
import { classifyRecoveryWith, isRecovery, type RecoveryTable } from '../../src/schema/recovery.js';
import { readSchema, readVector } from '../fixtures/vectors.js';
import { V3_1 } from '../fixtures/versions.js';

interface TransportVector {
  readonly id: string;
  readonly description: string;
  readonly transport: 'mcp' | 'a2a';
  readonly path: string;
  readonly response: Record<string, unknown>;
  readonly expected_error: Record<string, unknown> | null;
  readonly expected_action: 'retry' | 'surface_to_caller' | 'escalate_to_human' | 'generic_error';
}

const vectors = readVector<{ vectors: TransportVector[] }>('transport-error-mapping.json').vectors;

function loadTable(): RecoveryTable {
  const manifest = readSchema<{
    error_codes: Record<string, { recovery: unknown }>;
    error_code_policy: { default_unknown_recovery: unknown };
  }>(V3_1, 'manifest.json');
  const codes: Record<string, Recovery> = {};
  for (const [code, entry] of Object.entries(manifest.error_codes)) {
    if (!isRecovery(entry.recovery)) throw new Error(`manifest code ${code} has no valid recovery`);
    codes[code] = entry.recovery;
  }
  const fallback = manifest.error_code_policy.default_unknown_recovery;
  if (!isRecovery(fallback)) throw new Error('manifest default_unknown_recovery is not a recovery class');
  return { codes, defaultUnknownRecovery: fallback };
}

/** Codes in transport-errors.mdx `CODE_RECOVERY` (and error-handling.mdx) but not in the 3.1 manifest. */
const PAGE_ONLY_CODES: Readonly<Record<string, Recovery>> = {
  ACCOUNT_MOVED: 'correctable',
  ACCOUNT_IDENTITY_CONFLICT: 'correctable',
};

const manifestTable = loadTable();
const table: RecoveryTable = {
  codes: { ...manifestTable.codes, ...PAGE_ONLY_CODES },
  defaultUnknownRecovery: manifestTable.defaultUnknownRecovery,
};

const ACTION: Record<Recovery, TransportVector['expected_action']> = {
  transient: 'retry',
  correctable: 'surface_to_caller',
  terminal: 'escalate_to_human',
};

describe('transport-error-mapping vectors', () => {
  test('the vector file holds all 32 vectors', () => {
    expect(vectors).toHaveLength(32);
  });

  test(`the manifest table is the ${V3_1} one and defaults unknown codes to transient`, () => {
    expect(manifestTable.codes['RATE_LIMITED']).toBe('transient');
    expect(manifestTable.defaultUnknownRecovery).toBe('transient');
  });

  test(`the page-only codes are exactly the ones the ${V3_1} manifest lacks`, () => {
    for (const code of Object.keys(PAGE_ONLY_CODES)) {
      expect(Object.hasOwn(manifestTable.codes, code)).toBe(false);
      // With the manifest alone they are unknown codes: terminal under the page's rule.
      expect(classifyRecoveryWith({ code }, manifestTable, { unknownRecovery: 'terminal' }).recovery).toBe('terminal');
    }
  });

  test.each(vectors)('$id: $description', (vector) => {
    const extract = vector.transport === 'mcp' ? extractMcpError : extractA2aError;
    const locate = vector.transport === 'mcp' ? locateMcpError : locateA2aError;
    const error = extract(vector.response);
    expect(error).toEqual(vector.expected_error);

    if (vector.expected_error === null) {
      expect(vector.expected_action).toBe('generic_error');
      return;
    }
    const location = locate(vector.response);
    expect(location.kind).toBe('found');
    if (location.kind === 'found') expect(location.source).toBe(vector.path);

    const classification = classifyRecoveryWith(error as AdcpError, table, { unknownRecovery: 'terminal' });
    expect(ACTION[classification.recovery]).toBe(vector.expected_action);

    const sent = vector.expected_error['retry_after'];
    if (classification.recovery === 'transient' && typeof sent === 'number') {
      expect(classification.retryAfterSeconds).toBe(Math.min(3600, Math.max(1, Math.ceil(sent))));
    } else {
      expect(classification.retryAfterSeconds).toBeUndefined();
    }
  });

  test('mcp-extreme-retry-after clamps to 3600 while the extracted error keeps 86400', () => {
    const vector = vectors.find((v) => v.id === 'mcp-extreme-retry-after');
    const error = extractMcpError(vector?.response);
    expect(error?.retry_after).toBe(86400);
    expect(classifyRecoveryWith(error as AdcpError, table).retryAfterSeconds).toBe(3600);
  });
});
