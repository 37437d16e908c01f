/**
 * The profiles' strict Base64 decoders (src/signatures/http/base64.ts) against Node's Buffer: each
 * byte string has exactly one accepted text per alphabet (the canonical one), and every other
 * text (non-zero unused bits, a wrong length, the other alphabet, padding where none belongs) is
 * refused, so a signature or nonce cannot be re-spelled past the replay cache.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { base64Decode, base64UrlDecode } from '../../../src/signatures/http/base64.js';

const std = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');
const url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
const CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_=';

/** Whether `text` is the canonical encoding of what Buffer reads from it (Buffer itself is lenient). */
function canonical(text: string, encoding: 'base64' | 'base64url'): boolean {
  const pattern = encoding === 'base64' ? /^[A-Za-z0-9+/]*={0,2}$/ : /^[A-Za-z0-9_-]*$/;
  if (!pattern.test(text)) return false;
  return Buffer.from(Buffer.from(text, encoding)).toString(encoding) === text;
}

describe('base64UrlDecode', () => {
  test('decodes the canonical unpadded Base64URL of any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        expect(base64UrlDecode(url(bytes))).toEqual(bytes);
      }),
    );
  });

  test('accepts a text exactly when it is the canonical encoding of its bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...CHARS), maxLength: 24 }), (text) => {
        const decoded = base64UrlDecode(text);
        expect(decoded !== undefined).toBe(canonical(text, 'base64url'));
        if (decoded !== undefined) expect(url(decoded)).toBe(text);
      }),
      { numRuns: 5_000 },
    );
  });

  test('refuses non-zero unused bits, a length of 1 mod 4, padding and the standard alphabet', () => {
    expect(base64UrlDecode('AQ')).toEqual(new Uint8Array([1]));
    expect(base64UrlDecode('AR')).toBeUndefined();
    expect(base64UrlDecode('AQI')).toEqual(new Uint8Array([1, 2]));
    expect(base64UrlDecode('AQJ')).toBeUndefined();
    expect(base64UrlDecode('AQIDB')).toBeUndefined();
    expect(base64UrlDecode('AQ==')).toBeUndefined();
    expect(base64UrlDecode('-_8')).toEqual(new Uint8Array([0xfb, 0xff]));
    expect(base64UrlDecode('+/8')).toBeUndefined();
  });
});

describe('base64Decode', () => {
  test('decodes the canonical padded Base64 of any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        expect(base64Decode(std(bytes))).toEqual(bytes);
      }),
    );
  });

  test('accepts a text exactly when it is the canonical encoding of its bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...CHARS), maxLength: 24 }), (text) => {
        const decoded = base64Decode(text);
        expect(decoded !== undefined).toBe(text.length % 4 === 0 && canonical(text, 'base64'));
        if (decoded !== undefined) expect(std(decoded)).toBe(text);
      }),
      { numRuns: 5_000 },
    );
  });

  test('refuses non-zero unused bits, missing or extra padding and the URL alphabet', () => {
    expect(base64Decode('AQ==')).toEqual(new Uint8Array([1]));
    expect(base64Decode('AR==')).toBeUndefined();
    expect(base64Decode('AQI=')).toEqual(new Uint8Array([1, 2]));
    expect(base64Decode('AQJ=')).toBeUndefined();
    expect(base64Decode('AQ')).toBeUndefined();
    expect(base64Decode('AQ===')).toBeUndefined();
    expect(base64Decode('A===')).toBeUndefined();
    expect(base64Decode('-_8=')).toBeUndefined();
    expect(base64Decode('+/8=')).toEqual(new Uint8Array([0xfb, 0xff]));
  });
});
