/**
 * The SSE scanner (src/fetch/sse.ts) against eventsource-parser, the parser the MCP SDK reads
 * streams with: for any stream and any chunking, the scanner reports the ids of exactly the events
 * the parser dispatches with an id (events with data), in order. That id is the SDK's resumption
 * token, so the scanner must find it where the SDK will.
 */
import { createParser } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { SseScanner } from '../../src/fetch/sse.js';

/** The ids of the events eventsource-parser dispatches, fed as the SDK feeds it (decoded text, chunk by chunk). */
function parserIds(chunks: readonly Uint8Array[]): string[] {
  const ids: string[] = [];
  const parser = createParser({ onEvent: (event) => event.id && ids.push(event.id) });
  const decoder = new TextDecoder();
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
  return ids;
}

/** The ids the scanner reports for events that carried data, over the same chunks. */
function scannerIds(chunks: readonly Uint8Array[]): string[] {
  const scanner = new SseScanner();
  const ids: string[] = [];
  for (const chunk of chunks) {
    for (const found of scanner.scan(chunk, 0).ids) if (found.withData) ids.push(found.id);
  }
  return ids;
}

/**
 * The stream with a trailing lone CR written as CRLF, the same line end: eventsource-parser holds a
 * final CR until it sees whether an LF follows (so an event it ends is dispatched only with the next
 * byte), while the scanner counts the event at once; on a stream that goes on, both agree.
 */
function settled(bytes: Uint8Array): Uint8Array {
  return bytes.at(-1) === 0x0d ? Uint8Array.from([...bytes, 0x0a]) : bytes;
}

/** `bytes` cut at the given offsets (each taken modulo its length), in order. */
function split(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((c) => (bytes.length === 0 ? 0 : c % (bytes.length + 1))))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const to of at) {
    chunks.push(bytes.slice(from, to));
    from = to;
  }
  chunks.push(bytes.slice(from));
  return chunks;
}

const lineEnd = fc.constantFrom('\n', '\r', '\r\n');
const value = fc.oneof(
  fc.constantFrom('', ' ', '1', ' 42', 'abc', 'é', '\u0000', 'a\u0000b', ':', '  two spaces', '\ufeff', '💥'),
  fc.string({ maxLength: 8 }),
);
const field = fc.constantFrom('id', 'data', 'event', 'retry', '', 'i', 'ids', 'Id', 'dat', 'data ', ' id', 'x');
const separator = fc.constantFrom(':', ': ', '', ':  ');
const line = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(field, separator, value, lineEnd).map(([f, s, v, e]) => `${f}${s === '' ? '' : s + v}${e}`) },
  { weight: 2, arbitrary: lineEnd },
  { weight: 1, arbitrary: fc.tuple(value, lineEnd).map(([v, e]) => `:${v}${e}`) },
);
const stream = fc
  .tuple(fc.constantFrom('', '\ufeff'), fc.array(line, { maxLength: 40 }))
  .map(([bom, lines]) => new TextEncoder().encode(bom + lines.join('')));
const cuts = fc.array(fc.nat(), { maxLength: 12 });

/** Bytes that make up SSE structure, a BOM, UTF-8 multi-byte pieces and a stray invalid byte. */
const sseByte = fc.constantFrom(...[...'idat: \n\r\nx'].map((c) => c.charCodeAt(0)), 0xef, 0xbb, 0xbf, 0x00, 0xc3, 0xa9, 0xff);

describe('SseScanner agrees with eventsource-parser on the ids of dispatched events', () => {
  test('generated SSE streams, any chunking', () => {
    fc.assert(
      fc.property(stream.map(settled), cuts, (bytes, at) => {
        const chunks = split(bytes, at);
        expect(scannerIds(chunks)).toEqual(parserIds(chunks));
        // And the chunking makes no difference to either.
        expect(scannerIds(chunks)).toEqual(scannerIds([bytes]));
      }),
      { numRuns: 2000 },
    );
  });

  test('byte soup from the SSE alphabet, any chunking', () => {
    fc.assert(
      fc.property(fc.array(sseByte, { maxLength: 200 }), cuts, (list, at) => {
        const chunks = split(settled(Uint8Array.from(list)), at);
        expect(scannerIds(chunks)).toEqual(parserIds(chunks));
      }),
      { numRuns: 2000 },
    );
  });

  test('the property sees events: a known stream yields its ids from both', () => {
    const chunks = split(new TextEncoder().encode('id: 1\ndata: a\n\nid: 2\n\nid: 3\r\ndata\r\n\r\n'), [3, 17]);
    expect(parserIds(chunks)).toEqual(['1', '3']);
    expect(scannerIds(chunks)).toEqual(['1', '3']);
  });

  test('an id that starts with U+FEFF keeps it (a BOM is stripped only at the start of the stream)', () => {
    const chunks = [new TextEncoder().encode('\ufeffid:\ufeff\ndata:\n\n')];
    expect(parserIds(chunks)).toEqual(['\ufeff']);
    expect(scannerIds(chunks)).toEqual(['\ufeff']);
  });
});
