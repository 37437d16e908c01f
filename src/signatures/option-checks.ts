/**
 * The checks every webhook factory applies to its options at creation: a wrong option is the
 * buyer's configuration fault, reported as `INVALID_OPTION` before any webhook arrives. Byte bounds
 * and deadlines follow the shared rules (errors/option-rules.ts); these are the webhook-only kinds.
 */
import { optionError } from '../errors/option-error.js';

/**
 * A positive safe integer option, or its default when unset.
 *
 * @param who - The factory.
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
