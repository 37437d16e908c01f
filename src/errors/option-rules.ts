/**
 * The one rule per kind of option, for every entry that takes one (README "Options"): a byte bound
 * and a deadline are accepted and refused alike, with the same `INVALID_OPTION` wording, whoever
 * takes them. In errors/ (not options/) because bounds/ and extract/, below options/, check them too.
 */
import type { ErrorContext } from './errors.js';
import { optionError } from './option-error.js';

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
  /** The function given it (`createWebhookReceiver`); absent for decode's own options. */
  readonly who?: string | undefined;
  /** The call it was given to, for the error's context. */
  readonly context?: ErrorContext | undefined;
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
export function byteLimit(name: string, value: unknown, owner: OptionOwner = {}): number | undefined {
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
export function deadlineMs(name: string, value: unknown, owner: OptionOwner = {}): number | undefined {
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
 * countLimit('maxDepth', -1); // throws: option maxDepth must be a non-negative safe integer or Infinity; got -1
 */
export function countLimit(name: string, value: unknown, owner: OptionOwner = {}): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && value >= 0 && (Number.isSafeInteger(value) || value === Infinity)) return value;
  throw optionError(owner.who, name, COUNT_LIMIT, value, owner.context);
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
