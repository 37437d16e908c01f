/**
 * The one home of the option rules, for every entry that takes options: the one wording of an
 * `INVALID_OPTION` (`<who>: option <name> must be <expected>; got <value>`), one rule per kind
 * (byte bound, count bound, deadline, function, object, methods, positive integer), and the check
 * that refuses an option name the entry does not know, naming the nearest one it does. In errors/
 * (not options/) because every stage that takes options, bounds/ and signatures/ among them, checks them.
 */
import { DecodeError, describeThrown, describeValue, type ErrorContext, NO_CONTEXT } from './errors.js';
import { shownText } from './format.js';

/** Largest delay `setTimeout` honours (2^31 - 1 ms), the ceiling of every deadline. */
export const MAX_TIMER_MS = 2_147_483_647;

/** What a byte bound must be: a count of bytes, or Infinity for "no limit" (0 would refuse everything). */
const BYTE_LIMIT = 'a positive safe integer or Infinity';

/** What a count bound must be (`maxDepth`, `maxNodes`): 0 is a bound there (a depth of 0 is a lone scalar). */
const COUNT_LIMIT = 'a non-negative safe integer or Infinity';

/** What a deadline must be: whole ms a timer can hold (a fraction of a ms is no timer's unit). */
const DEADLINE = `a positive safe integer of ms up to ${MAX_TIMER_MS}`;

/** Who took an option and where, for the message and the error. */
export interface OptionOwner {
  /** The function given it (`createWebhookReceiver`, `decode`). */
  readonly who: string;
  /** The call it was given to, for the error's context. */
  readonly context?: ErrorContext | undefined;
}

/**
 * The error for an option that is not what it must be.
 *
 * @param who - The function given it, e.g. `createWebhookReceiver`, `decode`.
 * @param name - The option's name (a dotted path for a nested one: `jwks.maxBytes`).
 * @param expected - What it must be.
 * @param got - What it is: a string quoted and cut, a number as is, anything else by its kind, never echoed.
 * @param context - The call it was given to (decode's task), for the error.
 * @returns A DecodeError `INVALID_OPTION`, to throw.
 * @throws Never.
 * @example
 * throw optionError('createMemoryReplayStore', 'maxBytes', 'a positive integer', -1);
 * // createMemoryReplayStore: option maxBytes must be a positive integer; got -1
 */
export function optionError(who: string, name: string, expected: string, got: unknown, context: ErrorContext = NO_CONTEXT): DecodeError {
  const shown = typeof got === 'string' ? `"${shownText(got, 40)}"` : typeof got === 'number' ? String(got) : describeValue(got);
  return new DecodeError('INVALID_OPTION', `${who}: option ${name} must be ${expected}; got ${shown}`, context);
}

/**
 * The error for options that could not be read at all (a throwing getter, a revoked Proxy).
 *
 * @param who - The function given them.
 * @param name - What was read (`options`, an option's name).
 * @param cause - What reading threw.
 * @param context - The call, for the error.
 * @returns A DecodeError `INVALID_OPTION`, to throw.
 * @throws Never.
 * @example
 * throw unreadableOption('callTask', 'options', cause);
 */
export function unreadableOption(who: string, name: string, cause: unknown, context: ErrorContext = NO_CONTEXT): DecodeError {
  const what = name === 'options' ? 'the options' : `option ${name}`;
  return new DecodeError('INVALID_OPTION', `${who}: ${what} could not be read: ${describeThrown(cause)} thrown`, {
    ...context,
    cause,
  });
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

/**
 * A byte bound: a positive safe integer, or Infinity.
 *
 * @param name - The option's name (`maxBytes`, `jwks.maxBytes`).
 * @param value - What the caller passed; `undefined` is "not set".
 * @param owner - Who took it.
 * @returns The bound, or `undefined` when not set.
 * @throws {DecodeError} `INVALID_OPTION` for anything else (0, a fraction, NaN, 2^53, a string).
 * @example
 * byteLimit('maxBytes', 0, { who: 'boundedFetch' }); // throws: boundedFetch: option maxBytes must be a positive safe integer or Infinity; got 0
 */
export function byteLimit(name: string, value: unknown, owner: OptionOwner): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && value >= 1 && (Number.isSafeInteger(value) || value === Infinity)) return value;
  throw optionError(owner.who, name, BYTE_LIMIT, value, owner.context);
}

/**
 * A deadline in ms: a positive safe integer up to {@link MAX_TIMER_MS}.
 *
 * @param name - The option's name (`timeoutMs`, `bodyTimeoutMs`).
 * @param value - What the caller passed; `undefined` is "not set".
 * @param owner - Who took it.
 * @returns The deadline, or `undefined` when not set.
 * @throws {DecodeError} `INVALID_OPTION` for anything else (0, 1.5, Infinity, 2^31).
 * @example
 * deadlineMs('bodyTimeoutMs', 1.5, { who: 'createWebhookReceiver' }); // throws INVALID_OPTION
 */
export function deadlineMs(name: string, value: unknown, owner: OptionOwner): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= MAX_TIMER_MS) return value;
  throw optionError(owner.who, name, DEADLINE, value, owner.context);
}

/**
 * A count bound (`maxDepth`, `maxNodes`): a non-negative safe integer, or Infinity.
 *
 * @param name - The option's name.
 * @param value - What the caller passed; `undefined` is "not set".
 * @param owner - Who took it.
 * @returns The bound, or `undefined` when not set.
 * @throws {DecodeError} `INVALID_OPTION` for anything else.
 * @example
 * countLimit('maxDepth', -1, { who: 'decode' }); // throws: decode: option maxDepth must be a non-negative safe integer or Infinity; got -1
 */
export function countLimit(name: string, value: unknown, owner: OptionOwner): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && value >= 0 && (Number.isSafeInteger(value) || value === Infinity)) return value;
  throw optionError(owner.who, name, COUNT_LIMIT, value, owner.context);
}

/**
 * A positive safe integer option, or its default when unset.
 *
 * @param who - The function given it.
 * @param name - The option's name.
 * @param value - The option as given.
 * @param fallback - Its default.
 * @returns The value.
 * @throws {DecodeError} `INVALID_OPTION`.
 * @example
 * const cap = positiveInteger('createMemoryReplayStore', 'perKeyidCap', options.perKeyidCap, 100_000);
 */
export function positiveInteger(who: string, name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
    throw optionError(who, name, 'a positive safe integer', value);
  return value;
}

/**
 * One owner's share of a store's byte budget: a positive safe integer up to the budget, or by
 * default the fraction `fraction` of it (at least 1 byte).
 *
 * @param who - The factory.
 * @param name - The option's name.
 * @param value - The option as given.
 * @param budget - The store's whole budget (its `maxBytes`).
 * @param fraction - The default share, in (0, 1].
 * @returns The share, in bytes.
 * @throws {DecodeError} `INVALID_OPTION`.
 * @example
 * const perKeyid = shareOption('createMemoryReplayStore', 'perKeyidMaxBytes', undefined, 64 * 1024 * 1024, 0.1);
 */
export function shareOption(who: string, name: string, value: unknown, budget: number, fraction: number): number {
  const share = positiveInteger(who, name, value, Math.max(1, Math.floor(budget * Math.min(1, fraction))));
  if (share > budget) throw optionError(who, name, `at most maxBytes (${budget})`, value);
  return share;
}

/**
 * Checks that an option, when set, is a function (a callback: `now`, `keys`, `onStatus`).
 *
 * @param who - The function given it.
 * @param name - The option's name.
 * @param value - The option as given.
 * @throws {DecodeError} `INVALID_OPTION`.
 * @example
 * optionalFunction('createWebhookReceiver', 'now', options.now);
 */
export function optionalFunction(who: string, name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'function') throw optionError(who, name, 'a function', value);
}

/**
 * Checks that an option, when set, is a plain object (not null, not an array).
 *
 * @param who - The function given it.
 * @param name - The option's name.
 * @param value - The option as given.
 * @param context - The call, for the error.
 * @throws {DecodeError} `INVALID_OPTION`.
 * @example
 * optionalObject('createWebhookReceiver', 'jwks', options.jwks);
 */
export function optionalObject(who: string, name: string, value: unknown, context: ErrorContext = NO_CONTEXT): void {
  if (value === undefined) return;
  let array: boolean;
  try {
    array = Array.isArray(value); // throws on a revoked Proxy
  } catch (cause) {
    throw unreadableOption(who, name, cause, context);
  }
  if (typeof value !== 'object' || value === null || array) throw optionError(who, name, 'an object', value, context);
}

/**
 * Checks that an object option, when set, has the named methods.
 *
 * @param who - The factory.
 * @param name - The option's name.
 * @param value - The option as given.
 * @param methods - The methods it must have.
 * @throws {DecodeError} `INVALID_OPTION`.
 * @example
 * optionalMethods('createWebhookReceiver', 'replayStore', options.replayStore, ['capReached', 'claim']);
 */
export function optionalMethods(who: string, name: string, value: unknown, methods: readonly string[]): void {
  if (value === undefined) return;
  const missing =
    typeof value === 'object' && value !== null
      ? methods.filter((m) => typeof (value as Record<string, unknown>)[m] !== 'function')
      : methods;
  if (missing.length > 0) throw optionError(who, name, `an object with ${methods.map((m) => `${m}()`).join(', ')}`, value);
}

/** The longest unknown name a suggestion is sought for: beyond it a name is just unknown. */
const MAX_SUGGEST_LENGTH = 64;

/** The edit distance of two short names (insert, delete, substitute, swap of neighbours). */
function distance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    const up = rows[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = best;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/** How many leading characters two names share. */
function sharedPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/**
 * The known option nearest to an unknown name, when one is near enough to be a slip: equal but for
 * case, within two edits (or a third of its length), or the same word with another ending (`retries`, `retry`).
 *
 * @param name - The unknown name.
 * @param known - The known names.
 * @returns The suggestion, if any.
 * @throws Never.
 * @example
 * nearestOption('replaystore', ['replayStore', 'dedup']); // 'replayStore'
 */
export function nearestOption(name: string, known: readonly string[]): string | undefined {
  if (name.length > MAX_SUGGEST_LENGTH) return undefined;
  const lower = name.toLowerCase();
  let best: { readonly name: string; readonly distance: number } | undefined;
  for (const candidate of known) {
    const other = candidate.toLowerCase();
    const d = distance(lower, other);
    const prefix = sharedPrefix(lower, other);
    const near = d <= Math.max(2, Math.floor(candidate.length / 3)) || (prefix >= 4 && prefix >= Math.min(lower.length, other.length) - 1);
    if (near && (best === undefined || d < best.distance)) best = { name: candidate, distance: d };
  }
  return best?.name;
}

/**
 * Refuses an option name the entry does not know (a misspelt option would otherwise be ignored
 * without a word): `INVALID_OPTION` naming it and the nearest known option. `undefined` passes.
 *
 * @param who - The function given the options.
 * @param options - The options as given (or, with `path`, the nested option object).
 * @param known - Every option name the function (or the nested object) takes.
 * @param context - The call, for the error.
 * @param path - The nested object's option name (`retry`, `jwks`), which prefixes the names shown.
 * @throws {DecodeError} `INVALID_OPTION` for options that are not an object, cannot be read, or hold a name not in `known`.
 * @example
 * knownOptions('callTask', { retries: 3 }, ['retry', 'timeoutMs']);
 * // throws: callTask: option retries is not an option of callTask; did you mean retry?
 * knownOptions('callTask', { attempt: 3 }, ['attempts', 'sleep'], NO_CONTEXT, 'retry');
 * // throws: callTask: option retry.attempt is not an option of callTask; did you mean retry.attempts?
 */
export function knownOptions(
  who: string,
  options: unknown,
  known: readonly string[],
  context: ErrorContext = NO_CONTEXT,
  path?: string,
): void {
  if (options === undefined) return;
  const what = path ?? 'options';
  optionalObject(who, what, options, context);
  let names: string[];
  try {
    names = Object.keys(options as object);
  } catch (cause) {
    throw unreadableOption(who, what, cause, context);
  }
  const dotted = (name: string): string => (path === undefined ? name : `${path}.${name}`);
  for (const name of names) {
    if (known.includes(name)) continue;
    const near = nearestOption(name, known);
    throw new DecodeError(
      'INVALID_OPTION',
      `${who}: option ${dotted(shownText(name, 40))} is not an option of ${who}; ${near === undefined ? `expected one of ${known.map(dotted).join(', ')}` : `did you mean ${dotted(near)}?`}`,
      context,
    );
  }
}
