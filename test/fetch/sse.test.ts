/**
 * The SSE scanner alone (src/fetch/sse.ts): which event ids it reports and how large it measures
 * each event, whatever the chunking. The bounded fetch around it: bounded-fetch.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type ScannedId, SseScanner } from '../../src/fetch/sse.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function scanAll(chunks: readonly Uint8Array[]): { ids: ScannedId[]; largest: number } {
  const scanner = new SseScanner();
  const ids: ScannedId[] = [];
  let largest = 0;
  for (const chunk of chunks) {
    const r = scanner.scan(chunk, 0);
    ids.push(...r.ids);
    largest = Math.max(largest, r.largest);
  }
  return { ids, largest };
}

describe('SseScanner', () => {
  test('reports the id of each complete event, and whether it carried data', () => {
    const stream = bytes('id: 1\ndata: {"a":1}\n\nid:2\n\n: comment\ndata\nid: 3\r\n\r\nid: 4\n');
    expect(scanAll([stream]).ids).toEqual([
      { id: '1', withData: true },
      { id: '2', withData: false },
      { id: '3', withData: true },
    ]);
  });

  test('ignores a leading BOM and an id holding U+0000', () => {
    expect(scanAll([bytes('\ufeffid: a\n\nid: b\0c\ndata: x\n\n')]).ids).toEqual([{ id: 'a', withData: false }]);
  });

  test('measures the largest event in bytes, line ends included', () => {
    expect(scanAll([bytes('data: é\n\ndata: 12345678\n\n')]).largest).toBe('data: 12345678\n\n'.length);
  });

  test('any chunking of the same stream gives the same ids and the same largest event', () => {
    const line = fc.oneof(
      fc.constantFrom('id: 7', 'id:', 'id', 'data: x', 'data', ': c', 'event: e', 'retry: 5', ''),
      fc.string({ unit: 'grapheme-ascii', maxLength: 6 }).map((s) => `id: ${s.replace(/[\r\n]/g, '')}`),
    );
    const ending = fc.constantFrom('\n', '\r', '\r\n');
    fc.assert(
      fc.property(fc.array(fc.tuple(line, ending), { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 8 }), (lines, cuts) => {
        const whole = bytes(lines.map(([l, e]) => l + e).join(''));
        const at = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
        const chunks: Uint8Array[] = [];
        let from = 0;
        for (const c of [...at, whole.length]) {
          chunks.push(whole.slice(from, c));
          from = c;
        }
        expect(scanAll(chunks)).toEqual(scanAll([whole]));
      }),
      { numRuns: 500 },
    );
  });
});
