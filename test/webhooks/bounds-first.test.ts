/**
 * Bounds first (issue 19, item 11): decodeWebhook measured the whole text only after its
 * duplicate-key scan (32 MiB: 6.5 s before the refusal). A text or bytes over `maxBytes` is now
 * refused before anything scans or decodes it: the work done on a body far over the bound is
 * counted here (characters handed to the duplicate-key scan, bytes handed to the UTF-8 decoder),
 * and it is none; a body within the bound is scanned once.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { decodeWebhook } from '../../src/webhooks/index.js';
import { thrown } from '../helpers.js';
import { completedBody } from './fixtures.js';

/** Characters handed to the duplicate-key scans (the member count, the search for names); every buffer handed to a UTF-8 decoder. */
const work = { scanned: 0, decoded: [] as unknown[] };

vi.mock('../../src/json/duplicate-keys.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/json/duplicate-keys.js')>();
  return {
    ...actual,
    countMembers: (text: string) => {
      work.scanned += text.length;
      return actual.countMembers(text);
    },
    findDuplicateKeys: (text: string) => {
      work.scanned += text.length;
      return actual.findDuplicateKeys(text);
    },
  };
});

const decodeBytes = TextDecoder.prototype.decode;
type Decoder = InstanceType<typeof TextDecoder>;
vi.spyOn(TextDecoder.prototype, 'decode').mockImplementation(function (
  this: Decoder,
  input?: Parameters<Decoder['decode']>[0],
  options?: Parameters<Decoder['decode']>[1],
) {
  work.decoded.push(input);
  return decodeBytes.call(this, input, options);
});

afterEach(() => {
  work.scanned = 0;
  work.decoded = [];
});

/** A body of `size` bytes: a valid envelope, padded inside its message with ASCII or 3-byte characters. */
function bodyOf(size: number, wide: boolean): string {
  const base = completedBody({ message: '' });
  const pad = Math.max(0, size - base.length);
  return completedBody({ message: wide ? '€'.repeat(Math.ceil(pad / 3)) : 'x'.repeat(pad) });
}

describe('a body over maxBytes is refused before it is scanned or decoded', () => {
  test('text and bytes from just over the bound to thousands of times over it: no work, webhook_body_too_large', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 512, max: 4096 }),
        fc.oneof(fc.double({ min: 1.05, max: 4, noNaN: true }), fc.integer({ min: 4, max: 4000 })),
        fc.boolean(),
        fc.boolean(),
        (maxBytes, times, wide, bytes) => {
          const text = bodyOf(Math.ceil(maxBytes * times), wide);
          const body = bytes ? new TextEncoder().encode(text) : text;
          work.scanned = 0;
          work.decoded = [];
          const error = thrown(() => decodeWebhook(body, { maxBytes }));
          expect(error).toMatchObject({ webhookCode: 'webhook_body_too_large', httpStatus: 413 });
          expect(work.scanned).toBe(0);
          expect(work.decoded.some((input) => input === body)).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });

  test('a body over the bound that repeats keys is too large, not malformed: the bound is checked first', () => {
    const text = `{"task_id":"a","task_id":"b","message":"${'x'.repeat(4096)}"}`;
    expect(thrown(() => decodeWebhook(text, { maxBytes: 1024 }))).toMatchObject({ webhookCode: 'webhook_body_too_large' });
    expect(work.scanned).toBe(0);
  });

  test('a body within the bound is decoded and scanned once', () => {
    for (const wide of [false, true]) {
      const text = bodyOf(2048, wide);
      work.scanned = 0;
      const bytes = new TextEncoder().encode(text);
      expect(decodeWebhook(bytes, { maxBytes: 16_384 }).status).toBe('completed');
      expect(work.scanned).toBe(text.length);
      expect(work.decoded.filter((input) => input === bytes).length).toBe(1);
    }
  });
});
