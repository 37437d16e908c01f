/**
 * optionError, the one form of an INVALID_OPTION for a wrong option: for any value given (fast-check,
 * seed 20260502), one bounded line that names the function, the option and what it must be, and
 * shows the value as a quoted, cut string, a number as is, or anything else by its kind only.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DecodeError } from '../../src/errors/errors.js';
import { shownText } from '../../src/errors/format.js';
import { optionError } from '../../src/errors/option-error.js';

describe('optionError', () => {
  test('the examples: a function named or not, a number, a long string, an object', () => {
    expect(optionError('createMemoryReplayStore', 'maxBytes', 'a positive integer', -1).message).toBe(
      'createMemoryReplayStore: option maxBytes must be a positive integer; got -1',
    );
    expect(optionError(undefined, 'transport', "'auto', 'mcp', 'a2a' or 'payload'", 'smtp').message).toBe(
      `option transport must be 'auto', 'mcp', 'a2a' or 'payload'; got "smtp"`,
    );
    expect(optionError(undefined, 'version', 'a release', 'x'.repeat(100)).message).toBe(
      `option version must be a release; got "${shownText('x'.repeat(100), 40)}"`,
    );
    expect(shownText('x'.repeat(100), 40).length).toBeLessThanOrEqual(40);
    expect(optionError('w', 'keys', 'a function', { secret: 'do not echo' }).message).toBe('w: option keys must be a function; got object');
  });

  test('any value: INVALID_OPTION, one line, the value never echoed past 40 characters', () => {
    fc.assert(
      fc.property(fc.option(fc.string({ maxLength: 20 })), fc.anything(), (who, got) => {
        const error = optionError(who ?? undefined, 'maxBytes', 'a positive integer', got);
        expect(error).toBeInstanceOf(DecodeError);
        expect(error.code).toBe('INVALID_OPTION');
        const prefix = `${who === null ? '' : `${who}: `}option maxBytes must be a positive integer; got `;
        expect(error.message.startsWith(prefix)).toBe(true);
        const shown = error.message.slice(prefix.length);
        if (typeof got === 'number') expect(shown).toBe(String(got));
        else if (typeof got === 'string') expect(shown.startsWith('"')).toBe(true);
        else expect(shown).toMatch(/^(null|object|undefined|boolean|bigint|symbol|function|array \(\d+ items\))$/);
        expect(shown.length).toBeLessThanOrEqual(typeof got === 'number' ? 24 : 42);
        expect(shown).not.toMatch(/[\n\r\u2028\u2029]/);
      }),
      { seed: 20260502, numRuns: 500 },
    );
  });
});
