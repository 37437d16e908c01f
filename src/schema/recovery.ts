/**
 * Recovery classification of an extracted `adcp_error` (the "action layer" of transport-errors.mdx
 * § Recovery Behavior and error-handling.mdx § Forward-compatible decoding).
 *
 * Precedence, as the pages define it:
 * 1. `recovery` on the error, when present (truthy, as in the spec's `getRecovery`): one of
 *    `transient` / `correctable` / `terminal` is used as is; any other value is classified
 *    `terminal` (and left untouched on the error object).
 * 2. Otherwise the code's entry in the version's error-code table.
 * 3. Otherwise (unknown code) the table's `defaultUnknownRecovery` (the manifest's
 *    `error_code_policy.default_unknown_recovery`, `transient` in 3.1), unless the caller overrides
 *    it: transport-errors.mdx still says `terminal`, error-handling.mdx (normative, 3.1+) says the
 *    manifest default.
 */
import {
  type AdcpError,
  DecodeError,
  describeValue,
  type ErrorContext,
  NO_CONTEXT,
  type Recovery,
  type RecoveryClassification,
  wrapInputFault,
} from '../errors/errors.js';
import { knownOptions, optionError } from '../errors/option-rules.js';
import { hasOwn, own } from '../json/own.js';
import type { FailedStatus } from './statuses.js';
import { defaultVersion, resolveVersion, tablesFor, type Version } from './versions.js';

/** Lower bound of a usable `retry_after`, in seconds. */
const RETRY_AFTER_MIN_SECONDS = 1;

/** Upper bound of a usable `retry_after`, in seconds. */
const RETRY_AFTER_MAX_SECONDS = 3600;

/** A version's error-code → recovery table plus its policy for codes not in it. */
export interface RecoveryTable {
  readonly codes: Readonly<Record<string, Recovery>>;
  readonly defaultUnknownRecovery: Recovery;
}

/** Options for {@link classifyRecoveryWith}. */
export interface ClassifyRecoveryOptions {
  /** Recovery for a code missing from the table when the error has no `recovery`: `'manifest'` (default) uses the table's. */
  readonly unknownRecovery?: 'manifest' | Recovery | undefined;
}

/** Every option classifyRecovery takes, by name (a type test holds it to `keyof ClassifyRecoveryOptions`). */
export const CLASSIFY_RECOVERY_OPTION_KEYS = ['unknownRecovery'] as const satisfies readonly (keyof ClassifyRecoveryOptions)[];

/**
 * Tells whether a value is one of the three recovery classes, by exact string equality.
 *
 * @param value - Anything.
 * @returns `true` for `'transient'`, `'correctable'` or `'terminal'`.
 * @throws Never.
 * @example
 * isRecovery('permanent'); // false
 */
export function isRecovery(value: unknown): value is Recovery {
  return value === 'transient' || value === 'correctable' || value === 'terminal';
}

/**
 * Turns a seller's `retry_after` into a usable delay: a finite number is rounded up, then clamped
 * to 1-3600 seconds; anything else (absent, NaN, Infinity, a numeric string) counts as absent.
 *
 * @param raw - The `retry_after` value as sent.
 * @returns Whole seconds in [1, 3600], or `undefined`.
 * @throws Never.
 * @example
 * normalizeRetryAfter(0.2); // 1
 */
export function normalizeRetryAfter(raw: unknown): number | undefined {
  if (typeof raw !== 'number' || !Number.isFinite(raw)) return undefined;
  // Ceiling before clamping, so a fractional delay never schedules a retry earlier than asked.
  return Math.min(RETRY_AFTER_MAX_SECONDS, Math.max(RETRY_AFTER_MIN_SECONDS, Math.ceil(raw)));
}

function resolveUnknown(table: RecoveryTable, options: ClassifyRecoveryOptions | null | undefined, context: ErrorContext): Recovery {
  const choice = options == null ? undefined : options.unknownRecovery;
  if (choice === undefined || choice === 'manifest') {
    if (!isRecovery(table.defaultUnknownRecovery)) {
      throw new DecodeError(
        'INVALID_OPTION',
        `table.defaultUnknownRecovery must be a recovery class, got ${describeValue(table.defaultUnknownRecovery)}`,
        context,
      );
    }
    return table.defaultUnknownRecovery;
  }
  if (!isRecovery(choice)) {
    throw new DecodeError(
      'INVALID_OPTION',
      `option unknownRecovery must be 'manifest' or a recovery class, got ${describeValue(choice)}`,
      context,
    );
  }
  return choice;
}

function classify(adcpError: AdcpError, table: RecoveryTable, unknown: Recovery): Recovery {
  const sent = own(adcpError, 'recovery');
  // Truthiness, as the spec's getRecovery: '' / null / 0 / false mean "absent", not "unknown".
  if (sent) return isRecovery(sent) ? sent : 'terminal';
  const code = own(adcpError, 'code');
  // Own lookup only: 'constructor' or '__proto__' as a code must not hit Object.prototype.
  if (typeof code === 'string' && hasOwn(table.codes, code)) {
    const listed = table.codes[code];
    if (isRecovery(listed)) return listed;
  }
  return unknown;
}

/**
 * Classifies an `adcp_error` as transient, correctable or terminal against a version's error-code
 * table, and reads the seller's `retry_after` for transient errors.
 *
 * @param adcpError - The extracted `adcp_error` (not modified).
 * @param table - The version's code table and unknown-code default.
 * @param options - `unknownRecovery` overrides the table's default for unknown codes without `recovery`.
 * @param context - The call the error came in (decode's task and version), for the errors thrown.
 * @returns `{ recovery }`, plus `retryAfterSeconds` (whole seconds, 1-3600) only when the class is
 *   `transient` and the seller sent a finite `retry_after`.
 * @throws {DecodeError} `MALFORMED_ENVELOPE` when reading the error object throws (getter, Proxy).
 * @throws {DecodeError} `INVALID_OPTION` when `unknownRecovery` or the table's default is not a recovery class.
 * @example
 * classifyRecoveryWith({ code: 'RATE_LIMITED', retry_after: 86400 }, { codes: { RATE_LIMITED: 'transient' }, defaultUnknownRecovery: 'transient' });
 * // { recovery: 'transient', retryAfterSeconds: 3600 }
 */
export function classifyRecoveryWith(
  adcpError: AdcpError,
  table: RecoveryTable,
  options?: ClassifyRecoveryOptions,
  context: ErrorContext = NO_CONTEXT,
): RecoveryClassification {
  const unknown = resolveUnknown(table, options, context);
  try {
    if (typeof adcpError !== 'object' || adcpError === null) return { recovery: unknown };
    const recovery = classify(adcpError, table, unknown);
    if (recovery !== 'transient') return { recovery };
    const retryAfterSeconds = normalizeRetryAfter(own(adcpError, 'retry_after'));
    return retryAfterSeconds === undefined ? { recovery } : { recovery, retryAfterSeconds };
  } catch (error) {
    throw wrapInputFault(error, '', context);
  }
}

/** A bundled version's error-code table and unknown-code policy. */
export function recoveryTable(version: Version): RecoveryTable {
  const tables = tablesFor(version);
  return {
    codes: tables.errorCodes as Readonly<Record<string, Recovery>>,
    defaultUnknownRecovery: tables.defaultUnknownRecovery as Recovery,
  };
}

/** The classification of a failure without a usable adcp_error: the unknown-code policy, or the version's default for it. */
function unknownClassification(version: Version, unknownRecovery: 'manifest' | Recovery): RecoveryClassification {
  return { recovery: unknownRecovery === 'manifest' ? recoveryTable(version).defaultUnknownRecovery : unknownRecovery };
}

/** The task states that end a task without its result: one list, generated from enums/task-status.json. */
export type EndState = FailedStatus;

/**
 * How to react to a task that ended in a state without a usable `adcp_error`: `failed` by the unknown-code policy,
 * `rejected` and `canceled` as `terminal`. Why: docs/decode.md, "How seller failures surface".
 *
 * @example
 * END_STATE_RECOVERY.rejected; // 'terminal'
 */
export const END_STATE_RECOVERY: Readonly<Record<EndState, Recovery | 'policy'>> = {
  failed: 'policy',
  rejected: 'terminal',
  canceled: 'terminal',
};

/**
 * The classification of a task that ended in `state` without a usable `adcp_error`.
 *
 * @param state - The end state (a webhook's or polled task's `status`, an A2A task state).
 * @param version - The version whose unknown-code policy applies to `failed`.
 * @param unknownRecovery - The caller's policy for unknown codes.
 * @returns `{ recovery }` per {@link END_STATE_RECOVERY}.
 * @throws Never.
 * @example
 * endStateClassification('canceled', '3.1.19', 'manifest'); // { recovery: 'terminal' }
 */
export function endStateClassification(state: EndState, version: Version, unknownRecovery: 'manifest' | Recovery): RecoveryClassification {
  const fixed = END_STATE_RECOVERY[state];
  return fixed === 'policy' ? unknownClassification(version, unknownRecovery) : { recovery: fixed };
}

/**
 * Classifies an AdCP error: its own valid `recovery`, else the version's error-code table, else
 * the unknown-code policy. An unknown `recovery` value is classified `terminal`.
 *
 * @param adcpError The `adcp_error` object, e.g. from {@link extractMcpError}.
 * @param version A bundled version or release; default: the default version.
 * @param options `unknownRecovery`: `'manifest'` (default) or a recovery class for unknown codes.
 * @throws {DecodeError} `UNSUPPORTED_VERSION` for a version not bundled; `INVALID_OPTION` for an
 *   `unknownRecovery` that is neither, or a name that is not an option.
 * @example
 * classifyRecovery({ code: 'RATE_LIMITED', retry_after: 5 }); // { recovery: 'transient', retryAfterSeconds: 5 }
 */
export function classifyRecovery(
  adcpError: AdcpError,
  version: string = defaultVersion,
  options: { readonly unknownRecovery?: 'manifest' | Recovery } = {},
): RecoveryClassification {
  knownOptions('classifyRecovery', options, CLASSIFY_RECOVERY_OPTION_KEYS);
  const { unknownRecovery } = options;
  if (unknownRecovery !== undefined && unknownRecovery !== 'manifest' && !isRecovery(unknownRecovery))
    throw optionError('classifyRecovery', 'unknownRecovery', "'manifest' or a recovery class", unknownRecovery);
  return classifyRecoveryWith(adcpError, recoveryTable(resolveVersion(version)), options);
}
