/**
 * The one form of an `INVALID_OPTION` for an option that is not what it must be, whichever
 * function it was given to: what it must be, and what it is (a string quoted and cut, a number as
 * is, anything else by its kind, never echoed).
 */
import { DecodeError, describeValue, type ErrorContext, NO_CONTEXT } from './errors.js';
import { shownText } from './format.js';

/**
 * The error for an option that is not what it must be.
 *
 * @param who - The function given it, e.g. `createWebhookReceiver`; `undefined` for decode's own options.
 * @param name - The option's name (a dotted path for a nested one; `maxBytes of boundedFetch`).
 * @param expected - What it must be.
 * @param got - What it is.
 * @param context - The call it was given to (decode's task), for the error.
 * @returns A DecodeError `INVALID_OPTION`, to throw.
 * @throws Never.
 * @example
 * throw optionError('createMemoryReplayStore', 'maxBytes', 'a positive integer', -1);
 * // createMemoryReplayStore: option maxBytes must be a positive integer; got -1
 */
export function optionError(
  who: string | undefined,
  name: string,
  expected: string,
  got: unknown,
  context: ErrorContext = NO_CONTEXT,
): DecodeError {
  const shown = typeof got === 'string' ? `"${shownText(got, 40)}"` : typeof got === 'number' ? String(got) : describeValue(got);
  return new DecodeError(
    'INVALID_OPTION',
    `${who === undefined ? '' : `${who}: `}option ${name} must be ${expected}; got ${shown}`,
    context,
  );
}

/**
 * The error for an option that holds key material (a private key, an HMAC secret): what it must
 * be, and only the kind and length of what it is, never a character of it.
 *
 * @param who - The function given it, e.g. `createRequestSigner`.
 * @param name - The option's name.
 * @param expected - What it must be.
 * @param got - What it is (never shown).
 * @returns A DecodeError `INVALID_OPTION`, to throw.
 * @throws Never.
 * @example
 * throw secretOptionError('createRequestSigner', 'key', 'a private JWK', pem);
 * // createRequestSigner: option key must be a private JWK; got string (43 chars, not shown: key material)
 */
export function secretOptionError(who: string, name: string, expected: string, got: unknown): DecodeError {
  return new DecodeError(
    'INVALID_OPTION',
    `${who}: option ${name} must be ${expected}; got ${describeValue(got)} (not shown: key material)`,
  );
}
