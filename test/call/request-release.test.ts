/**
 * A request is answered in the release it was encoded for: callTask given what encode() returned for
 * 3.0 judges a 3.0 seller's answer (which announces no adcp_version) by 3.0.26, not by the default
 * 3.1.19, as decode() does given the same request; a `version` option naming another release is the
 * caller's contradiction, refused before anything is sent.
 */
import { describe, expect, test } from 'vitest';
import { decode, encode, safeDecode } from '../../src/index.js';
import { callTask, safeCallTask } from '../../src/mcp/index.js';
import { payload } from '../fixtures/payloads.js';
import { V3_0 } from '../fixtures/versions.js';

/** A 3.0 seller's get_products answer: 3.0 answers announce no adcp_version. */
const { adcp_version: _announced, ...answer30 } = payload('3.0/get_products.valid');

/** An MCP client whose every call answers `structured`, recording what it was asked. */
function client(structured: Record<string, unknown>) {
  const sent: unknown[] = [];
  return {
    sent,
    client: {
      callTool: async (params: unknown) => {
        sent.push(params);
        return { content: [{ type: 'text' as const, text: JSON.stringify(structured) }], structuredContent: structured };
      },
    },
  };
}

const brief = { buying_mode: 'brief', brief: 'Back-to-school display, metro news' } as const;

describe("an encoded request's release judges its answer", () => {
  test('the answer a 3.0 seller gives to a 3.0 request is judged by 3.0.26, and is valid there', async () => {
    const request = encode('get_products', brief, { version: '3.0' });
    // By the default release the same answer is the seller's fault: 3.1 requires what 3.0 did not.
    expect(safeDecode('get_products', { structuredContent: answer30, content: [] })).toMatchObject({
      success: false,
      error: { code: 'SCHEMA_MISMATCH', version: '3.1.19' },
    });
    const seller = client(answer30);
    const result = await safeCallTask(seller.client, request);
    expect(result).toMatchObject({ success: true, version: V3_0 });
    await expect(callTask(seller.client, request)).resolves.toMatchObject({ products: answer30.products });
    // decode() given the request judges it the same way.
    const decoded = safeDecode('get_products', { structuredContent: answer30, content: [] }, { request });
    expect(decoded).toMatchObject({ success: true, version: V3_0 });
    expect(decode('get_products', { structuredContent: answer30, content: [] }, { request })).toMatchObject({
      products: answer30.products,
    });
  });

  test('a version option naming another release than the request is INVALID_OPTION, before anything is sent', async () => {
    const request = encode('get_products', brief, { version: '3.0' });
    const seller = client(answer30);
    const result = await safeCallTask(seller.client, request, { version: '3.1' });
    expect(result).toMatchObject({
      success: false,
      error: {
        code: 'INVALID_OPTION',
        message: expect.stringContaining("safeCallTask: option version must be left out or the request's 3.0.26"),
      },
    });
    expect(seller.sent).toHaveLength(0);
    expect(() => decode('get_products', answer30, { version: '3.1', request, transport: 'payload' })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining('encoded for AdCP 3.0.26') }),
    );
    // The same release, named again, agrees.
    await expect(safeCallTask(seller.client, request, { version: '3.0' })).resolves.toMatchObject({ success: true, version: V3_0 });
  });
});
