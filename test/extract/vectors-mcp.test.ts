/**
 * Every vector of the AdCP `mcp-response-extraction.json` set through the MCP success extractor.
 *
 * Vector fields: `response` is the CallToolResult; `expected_data` the extracted object or `null`;
 * `path` names where the algorithm *looks* (`structuredContent` or `text_fallback`), not where data
 * was found, so it is asserted only when data is expected (e.g. `is-error-true` has path
 * `structuredContent` and expects null because the isError guard fires first).
 * `proto-pollution-structured` expects the data with its `__proto__` key ("extraction succeeds but
 * clients MUST NOT merge"): the extractor hands back a plain copy and refuses a prototype key with
 * `UNSAFE_JSON` instead (a deliberate deviation, as for a text item); the locator still finds it.
 */
import { describe, expect, test } from 'vitest';
import { extractMcpResponse, locateMcpPayload } from '../../src/extract/mcp.js';
import { readVector } from '../fixtures/vectors.js';
import { thrown } from '../helpers.js';

interface McpVector {
  readonly id: string;
  readonly description: string;
  readonly path: 'structuredContent' | 'text_fallback';
  readonly response: Record<string, unknown>;
  readonly expected_data: Record<string, unknown> | null;
}

const vectors = readVector<{ vectors: McpVector[] }>('mcp-response-extraction.json').vectors;

describe('mcp-response-extraction vectors', () => {
  test('the vector file holds all 16 vectors', () => {
    expect(vectors).toHaveLength(16);
  });

  test.each(vectors)('$id: $description', (vector) => {
    const unsafe = vector.expected_data !== null && Object.hasOwn(vector.expected_data, '__proto__');
    const extracted = unsafe ? thrown(() => extractMcpResponse(vector.response)) : extractMcpResponse(vector.response);
    if (unsafe) expect(extracted).toMatchObject({ code: 'UNSAFE_JSON', path: '/__proto__' });
    else expect(extracted).toEqual(vector.expected_data);

    const location = locateMcpPayload(vector.response);
    if (vector.expected_data === null) {
      expect(location.kind).not.toBe('payload');
      return;
    }
    expect(location.kind).toBe('payload');
    if (location.kind !== 'payload') return;
    expect(location.source).toBe(vector.path === 'structuredContent' ? 'structuredContent' : 'text');
    // structuredContent comes back as a plain copy, never the caller's object.
    if (location.source === 'structuredContent') expect(extracted).not.toBe(vector.response['structuredContent']);
  });
});
