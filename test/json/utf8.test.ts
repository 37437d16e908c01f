/**
 * utf8Length and its web-standard path encodedLength (src/json/utf8.ts) against Node's own encoder (and
 * jsonStringBytes against JSON.stringify's output), on strings of every UTF-16 shape: ASCII,
 * 2- and 3-byte characters, surrogate pairs, lone surrogates (3 bytes, as U+FFFD), on both sides
 * of the loop/encoder threshold and of the 64 KiB scratch buffer.
 */
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { encodedLength, jsonStringBytes, utf8Length } from '../../src/json/utf8.js';

const unit = fc.oneof(
  fc.constantFrom('a', '"', 'é', '€', '中', '😀', '\uD800', '\uDFFF', '\uDBFF\uDFFF'),
  fc.string({ unit: 'binary', maxLength: 3 }),
);

test('equals Buffer.byteLength on any string', () => {
  fc.assert(
    fc.property(fc.array(unit, { maxLength: 200 }), fc.nat({ max: 70_000 }), (parts, pad) => {
      const short = parts.join('');
      expect(utf8Length(short)).toBe(Buffer.byteLength(short, 'utf8'));
      expect(encodedLength(short)).toBe(Buffer.byteLength(short, 'utf8'));
      // Long: a pair or lone surrogate may straddle the 64 KiB chunk boundary.
      const long = 'x'.repeat(pad) + short;
      expect(utf8Length(long)).toBe(Buffer.byteLength(long, 'utf8'));
      expect(encodedLength(long)).toBe(Buffer.byteLength(long, 'utf8'));
    }),
    { seed: 20_260_430, numRuns: 200 },
  );
});

test('a pair split across the scratch buffer is counted whole', () => {
  for (let pad = 65_530; pad < 65_540; pad++) {
    const text = `${'x'.repeat(pad)}😀\uD800😀`;
    expect(encodedLength(text)).toBe(Buffer.byteLength(text, 'utf8'));
  }
});

test('jsonStringBytes equals the UTF-8 length of JSON.stringify on any string (escapes, controls, lone surrogates)', () => {
  const jsonUnit = fc.oneof(unit, fc.constantFrom('\\', '\n', '\t', '\b', '\f', '\r', '\u0000', '\u001f', '\u007f', '\u2028', '\uFEFF'));
  fc.assert(
    fc.property(fc.array(jsonUnit, { maxLength: 200 }), (parts) => {
      const text = parts.join('');
      expect(jsonStringBytes(text)).toBe(Buffer.byteLength(JSON.stringify(text), 'utf8'));
    }),
    { seed: 20_260_430, numRuns: 2000 },
  );
  expect(jsonStringBytes('')).toBe(2);
  expect(jsonStringBytes('\uD800\uDC00')).toBe(6);
  expect(jsonStringBytes('\uDC00\uD800')).toBe(14);
});
