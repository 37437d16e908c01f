/**
 * optionError, the one form of an INVALID_OPTION for a wrong option: for any value given (fast-check,
 * seed 20260502), one bounded line that names the function, the option and what it must be, and
 * shows the value as a quoted, cut string, a number as is, or anything else by its kind only.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DecodeError } from '../../src/errors/errors.js';
import { shownText } from '../../src/errors/format.js';
import { knownOptions, nearestOption, optionError } from '../../src/errors/option-rules.js';

describe('optionError', () => {
  test('the examples: the function named, a number, a long string, an object', () => {
    expect(optionError('createMemoryReplayStore', 'maxBytes', 'a positive integer', -1).message).toBe(
      'createMemoryReplayStore: option maxBytes must be a positive integer; got -1',
    );
    expect(optionError('decode', 'transport', "'auto', 'mcp', 'a2a' or 'payload'", 'smtp').message).toBe(
      `decode: option transport must be 'auto', 'mcp', 'a2a' or 'payload'; got "smtp"`,
    );
    expect(optionError('decode', 'version', 'a release', 'x'.repeat(100)).message).toBe(
      `decode: option version must be a release; got "${shownText('x'.repeat(100), 40)}"`,
    );
    expect(shownText('x'.repeat(100), 40).length).toBeLessThanOrEqual(40);
    expect(optionError('w', 'keys', 'a function', { secret: 'do not echo' }).message).toBe('w: option keys must be a function; got object');
  });

  test('any value: INVALID_OPTION, one line, the value never echoed past 40 characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.anything(), (who, got) => {
        const error = optionError(who, 'maxBytes', 'a positive integer', got);
        expect(error).toBeInstanceOf(DecodeError);
        expect(error.code).toBe('INVALID_OPTION');
        const prefix = `${who}: option maxBytes must be a positive integer; got `;
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

describe('knownOptions: a name the entry does not take', () => {
  test.each([
    [
      'callTask',
      { retries: 3 },
      ['retry', 'timeoutMs', 'signal'],
      'callTask: option retries is not an option of callTask; did you mean retry?',
    ],
    [
      'callTask',
      { timeoutMS: 5 },
      ['retry', 'timeoutMs', 'signal'],
      'callTask: option timeoutMS is not an option of callTask; did you mean timeoutMs?',
    ],
    [
      'createWebhookReceiver',
      { replaystore: {} },
      ['replayStore', 'dedup', 'handles'],
      'createWebhookReceiver: option replaystore is not an option of createWebhookReceiver; did you mean replayStore?',
    ],
    [
      'decode',
      { colour: 1 },
      ['version', 'maxBytes'],
      'decode: option colour is not an option of decode; expected one of version, maxBytes',
    ],
  ])('%s %o', (who, options, known, message) => {
    expect(() => knownOptions(who, options, known)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', message }));
  });

  test('known names, undefined values and no options pass; options that are no object or cannot be read are INVALID_OPTION', () => {
    expect(() => knownOptions('decode', { maxBytes: undefined }, ['maxBytes'])).not.toThrow();
    expect(() => knownOptions('decode', undefined, ['maxBytes'])).not.toThrow();
    for (const bad of [null, 3, 'x', [1]])
      expect(() => knownOptions('decode', bad, ['maxBytes'])).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    expect(() => knownOptions('decode', revoked.proxy, ['maxBytes'])).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining('decode: the options could not be read') }),
    );
  });

  test('a nested option object: its names shown under its path, and the object refused by its name', () => {
    const known = ['attempts', 'sleep'];
    expect(() => knownOptions('callTask', { attempt: 3 }, known, undefined, 'retry')).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTION',
        message: 'callTask: option retry.attempt is not an option of callTask; did you mean retry.attempts?',
      }),
    );
    expect(() => knownOptions('callTask', { colour: 1 }, known, undefined, 'retry')).toThrow(
      expect.objectContaining({
        message: 'callTask: option retry.colour is not an option of callTask; expected one of retry.attempts, retry.sleep',
      }),
    );
    expect(() => knownOptions('callTask', [3], known, undefined, 'retry')).toThrow(
      expect.objectContaining({ message: 'callTask: option retry must be an object; got array (1 items)' }),
    );
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    expect(() => knownOptions('callTask', revoked.proxy, known, undefined, 'retry')).toThrow(
      expect.objectContaining({ message: expect.stringContaining('callTask: option retry could not be read') }),
    );
  });

  test('a long or distant name gets no suggestion; the name shown is cut and escaped', () => {
    expect(nearestOption('x'.repeat(100), ['maxBytes'])).toBeUndefined();
    expect(nearestOption('handless', ['handles'])).toBe('handles');
    expect(nearestOption('MAXBYTES', ['maxBytes'])).toBe('maxBytes');
    expect(nearestOption('zzz', ['maxBytes'])).toBeUndefined();
    const error = (() => {
      try {
        knownOptions('decode', { ['\u001b[31m'.repeat(40)]: 1 }, ['maxBytes']);
      } catch (e) {
        return e as DecodeError;
      }
      return undefined;
    })();
    expect(error?.message).not.toContain('\u001b');
    expect(error?.message.length).toBeLessThan(200);
  });
});
