/**
 * An in-memory @a2a-js/sdk object is rebuilt in its wire form before decode reads it; the rebuild
 * refuses, unread, an object with more parts, artifacts and messages than it bounds: too many
 * values, not too deep, and blamed on the call's task.
 */
import { describe, expect, test } from 'vitest';
import { LimitError, safeDecode } from '../../src/index.js';

const MAX_ITEMS = 100_000;

/** A completed SDK Task (numeric state, `$case` parts) whose one artifact holds `parts` data parts. */
function sdkTask(parts: number) {
  const part = { content: { $case: 'data', value: { data: { products: [] } } } };
  return {
    id: 'task-1',
    contextId: 'ctx-1',
    status: { state: 3 },
    artifacts: [{ artifactId: 'result', parts: Array.from({ length: parts }, () => part) }],
  };
}

describe('the @a2a-js/sdk rebuild bounds what it rebuilds', () => {
  test(`past ${MAX_ITEMS} items: TOO_MANY_VALUES (unit nodes) with the call's task, not TOO_DEEP`, () => {
    const r = safeDecode('get_products', sdkTask(MAX_ITEMS + 1), { transport: 'a2a' });
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(r.error).toBeInstanceOf(LimitError);
    expect(r.error).toMatchObject({ code: 'TOO_MANY_VALUES', unit: 'nodes', limit: MAX_ITEMS, task: 'get_products' });
    expect(r.error.message).toMatch(/at most 100000 parts, artifacts and messages/);
  });

  test('at the bound the object is rebuilt and decoded on (whatever its payload then says)', () => {
    const r = safeDecode('get_products', sdkTask(MAX_ITEMS - 1), { transport: 'a2a' });
    expect(r.success ? 'decoded' : r.error.code).not.toMatch(/^TOO_/);
  });
});
