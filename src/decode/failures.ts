/**
 * How decode() turns what went wrong into a DecodeError: the seller's failure (TaskFailedError,
 * classified by the version's error-code table), a schema mismatch (SchemaMismatchError), each
 * built with the call's context (task, version, stand-in release), down to the last line, guard().
 */
import {
  type AdcpError,
  DecodeError,
  describeThrown,
  describeValue,
  type ErrorContext,
  type RecoveryClassification,
  SchemaMismatchError,
  TaskFailedError,
  type ValidationIssue,
} from '../errors/errors.js';
import { grouped, shownPointer, shownText } from '../errors/format.js';
import { checkAdcpError } from '../extract/errors.js';
import { knownSellerError } from '../extract/seller-errors.js';
import { hasOwn, isObject } from '../json/own.js';
import type { Resolved } from '../options/resolve-options.js';
import { classifyRecoveryWith, type EndState, endStateClassification, recoveryTable } from '../schema/recovery.js';
import { defaultVersion, type Version } from '../schema/versions.js';
import type { IssueListing, Variant } from '../validate/validators.js';
import { inputMayThrow } from './local-faults.js';

/** Everything known about the call: the context every error is built with, the options. */
export interface Context extends ErrorContext {
  readonly task: string;
  /** The validators' key where it is not the task's name: a result judged by a schema of its own (`result-media_buy_delivery`). */
  readonly validators?: string;
  readonly options: Resolved;
  /** The explicitly requested version, if any. */
  readonly version: Version | undefined;
  /** The version that judges a payload announcing no `adcp_version` under `'auto'` (default: the default version). */
  readonly unannounced?: Version | undefined;
  /** The newer release the payload announced, once a bundled version was picked to judge it in its place. */
  readonly standInFor?: string | undefined;
  /** decoderFor's: keep a schema mismatch as the outcome's `mismatch` instead of throwing it. */
  readonly keepMismatch?: true;
}

/** Where a failure came from, beyond the seller's error itself. */
export interface FailureHow {
  /** The error was read from the payload's `errors[0]` (detection step 6). */
  readonly fromPayload?: boolean;
  /** Why a present `adcp_error` was unusable. */
  readonly unusable?: string | undefined;
  /** The AdCP error a reserved JSON-RPC code stands for. */
  readonly reservedCode?: string | undefined;
  /** The state the task ended in, which classifies a failure without a usable adcp_error. */
  readonly state?: EndState | undefined;
  /** What the seller said in words, already shown (shownText). */
  readonly sellerText?: string | undefined;
}

/** Longest piece of the seller's words a TASK_FAILED message quotes; `sellerText` keeps more. */
const QUOTED_TEXT = 160;

/**
 * A TASK_FAILED error, classified by the error-code table of its `version` (the requested one, else the default).
 * How a failure is classified: docs/decode.md, "How seller failures surface".
 *
 * @param ctx - The call.
 * @param adcpError - The seller's valid `adcp_error`, if any: checkAdcpError's plain copy (read once, validated as copied).
 * @param detail - What the seller did, for the message: `the seller set isError`.
 * @param how - Where the error came from (`fromPayload`: the payload's `errors[0]`, transport-errors.mdx detection
 *   step 6, since the envelope carried no `adcp_error`), why an `adcp_error` was unusable, a reserved JSON-RPC code's
 *   meaning, the end state (which, with the unknown-code policy, classifies a failure without a usable error), the
 *   seller's words.
 * @returns The error, to throw.
 * @throws {DecodeError} `MALFORMED_ENVELOPE` when reading the error object throws (getter, Proxy).
 * @example
 * throw failed(ctx, { code: 'BUDGET_TOO_LOW' }, 'the seller set isError');
 */
export function failed(ctx: Context, adcpError: AdcpError | undefined, detail: string, how: FailureHow = {}): TaskFailedError {
  const version = ctx.version ?? defaultVersion;
  const context = { task: ctx.task, version, standInFor: ctx.standInFor };
  const recovery = classifyFailure(ctx, context, adcpError, how);
  const reserved = how.reservedCode !== undefined && recoveryTable(version).codes[how.reservedCode] !== undefined;
  const code =
    adcpError !== undefined
      ? `error code "${shownText(adcpError.code, 64)}"${how.fromPayload === true ? " from the payload's errors[0]" : ''}`
      : how.unusable !== undefined
        ? `an unusable adcp_error (${how.unusable})`
        : reserved
          ? `no adcp_error; the reserved code stands for ${how.reservedCode}`
          : 'no adcp_error';
  const retry = recovery.retryAfterSeconds === undefined ? '' : `, retry after ${recovery.retryAfterSeconds} s`;
  // The error's own message first: the same error then reads the same over every transport.
  const words = typeof adcpError?.message === 'string' ? adcpError.message : how.sellerText;
  const said = words === undefined || words.trim() === '' ? '' : `; the seller said "${shownText(words, QUOTED_TEXT)}"`;
  return new TaskFailedError(
    `${ctx.task} failed: ${detail} with ${code} (${recovery.recovery}${retry})${said}`,
    { adcpError, recovery, known: adcpError === undefined ? undefined : knownSellerError(adcpError), sellerText: how.sellerText },
    context,
  );
}

/** The recovery of a failure: the seller's error classified, else a reserved code's entry, else the end state's or the unknown-code policy. */
function classifyFailure(
  ctx: Context,
  context: ErrorContext & { readonly version: Version },
  adcpError: AdcpError | undefined,
  how: FailureHow,
): RecoveryClassification {
  const { version } = context;
  const table = recoveryTable(version);
  if (adcpError !== undefined) return classifyRecoveryWith(adcpError, table, { unknownRecovery: ctx.options.unknownRecovery }, context);
  const reserved = how.reservedCode === undefined ? undefined : table.codes[how.reservedCode];
  if (reserved !== undefined) return { recovery: reserved };
  return endStateClassification(how.state ?? 'failed', version, ctx.options.unknownRecovery);
}

/**
 * Transport-errors.mdx detection step 6: a failure the envelope signals (isError, a failed A2A
 * task) without an `adcp_error` is described by the payload's `errors[0]`, when that is a valid
 * AdCP error. Without it a correctable error such as BUDGET_TOO_LOW would be classified by the
 * unknown-code policy (transient) and retried.
 *
 * @param payload - The payload the failed answer carries, if any.
 * @param context - The call, for the error.
 * @returns Its `errors[0]` when that is a valid AdCP error.
 * @throws {DecodeError} `UNSAFE_JSON` for an `errors[0]` with prototype keys.
 * @example
 * payloadError({ errors: [{ code: 'BUDGET_TOO_LOW' }] }, ctx); // { code: 'BUDGET_TOO_LOW' }
 */
export function payloadError(payload: unknown, context: ErrorContext): AdcpError | undefined {
  if (!isObject(payload) || !hasOwn(payload, 'errors')) return undefined;
  const errors = payload.errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const valid = checkAdcpError(errors[0], '', context);
  return valid.ok ? valid.error : undefined;
}

/** `; first: <pointer> <message>`, the message's summary of the first issue. */
function issueSummary(issues: readonly ValidationIssue[]): string {
  const first = issues[0];
  if (first === undefined) return '';
  return `; first: ${shownPointer(first.path)} ${shownText(first.message, 200)}`;
}

/**
 * The SCHEMA_MISMATCH error of a payload the version's schema rejects: how many issues (and
 * whether the listing was cut), the first one, and the version that judged it.
 *
 * @param ctx - The call.
 * @param version - The version whose schema judged the payload.
 * @param variant - The response variant validated.
 * @param schemaId - That variant's schema `$id`.
 * @param issues - The issues found, JSON Pointer paths first.
 * @param listing - How the full listing went, when it ran.
 * @returns The error, to throw.
 * @throws Never.
 * @example
 * throw mismatch(ctx, '3.1.19', 'response', schemaId, issues, listing);
 */
export function mismatch(
  ctx: Context,
  version: Version,
  variant: Variant,
  schemaId: string,
  issues: readonly ValidationIssue[],
  listing?: IssueListing,
): SchemaMismatchError {
  const what = variant === 'response' ? 'response' : `${variant} payload`;
  let count = `${grouped(issues.length)} ${issues.length === 1 ? 'issue' : 'issues'}`;
  if (listing?.stopped === true) count = `more than ${grouped(listing.limit)} issues; the listing stopped, the first is given`;
  else if (listing !== undefined && !listing.complete)
    count = `${grouped(listing.found)} issues; the listing was cut to the first ${issues.length === 1 ? 'one' : grouped(issues.length)}`;
  if (listing !== undefined && listing.shortened > 0) count += `; long keys shortened in ${grouped(listing.shortened)}`;
  return new SchemaMismatchError(
    `${ctx.task} ${what} does not match the AdCP ${version} schema${ctx.standInFor === undefined ? '' : `, judged in place of the announced ${ctx.standInFor}`} (${count})${issueSummary(issues)}`,
    {
      schemaId,
      issues,
      issuesComplete: listing === undefined || listing.complete,
      issuesFound: listing === undefined || listing.stopped ? undefined : Math.max(listing.found, issues.length),
      issuesShortened: listing?.shortened ?? 0,
    },
    { task: ctx.task, version, standInFor: ctx.standInFor },
  );
}

/**
 * describeValue for a value the caller passed, which may be a Proxy that throws when looked at.
 *
 * @param value - Anything the caller passed.
 * @returns A short description: `array (3 items)`, `undefined`.
 * @throws Never.
 * @example
 * describeCallerValue(42); // 'number'
 */
export function describeCallerValue(value: unknown): string {
  try {
    return describeValue(value);
  } catch {
    return 'an unreadable value';
  }
}

/**
 * The last line: whatever escaped decoding becomes a DecodeError, blamed on the input (`MALFORMED_ENVELOPE`) or on
 * adcp-decode (`INTERNAL`), never on the seller.
 * How the input tells which: docs/robustness.md, "Exceptions that escape decoding".
 *
 * @param error - Anything thrown while decoding.
 * @param task - The task the caller named (any value).
 * @param input - The caller's input, to tell a throwing input from a defect.
 * @param version - The version the call is pinned to, if any (and known), for the new error.
 * @returns The DecodeError thrown, unchanged (the caller's own is not ours to fill in), or a new one that carries the task.
 * @throws Never.
 * @example
 * catch (error) { return guard(error, task, input); }
 */
export function guard(error: unknown, task: unknown, input: unknown, version?: string): DecodeError {
  const name = typeof task === 'string' ? task : undefined;
  try {
    if (error instanceof DecodeError) return error;
  } catch {
    // A thrown Proxy (from a caller's getter or trap) can throw again from instanceof; describeThrown names it.
  }
  const thrown = describeThrown(error);
  if (inputMayThrow(input)) {
    return new DecodeError(
      'MALFORMED_ENVELOPE',
      `input could not be decoded: ${thrown} thrown while reading it; expected plain JSON data (it holds getters or proxies)`,
      { task: name, version, cause: error },
    );
  }
  const shown = name === undefined ? 'a task' : name.length > 64 ? `${name.slice(0, 64)}…` : name;
  return new DecodeError(
    'INTERNAL',
    `adcp-decode failed on its own: ${thrown} thrown while decoding ${shown}; a defect in adcp-decode, not in the seller's answer (please report it)`,
    { task: name, version, cause: error },
  );
}
