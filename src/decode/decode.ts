/**
 * decode(): the one call between a seller's answer and the buyer's state. It finds the payload
 * the way the spec's extraction algorithms say, bounds it, picks the schema (task, version,
 * sync or async variant by `status`), validates it with the ahead-of-time compiled validator,
 * and returns it typed, or throws a DecodeError that says what went wrong and where. The steps
 * it calls live in decode/: public types, option resolution, transport adapters, failures.
 */
import { withinBounds } from '../bounds/bounds.js';
import { checkTree } from '../bounds/check-tree.js';
import { snapshot } from '../bounds/snapshot.js';
import { encoderOver } from '../encode/encode.js';
import { DecodeError, NO_CONTEXT, SchemaMismatchError, type ValidationIssue } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { checkAdcpError } from '../extract/errors.js';
import { hasOwn } from '../json/own.js';
import { type Resolved, resolveDefaults, resolveOptions } from '../options/resolve-options.js';
import { isAsyncStatus, isTaskStatus, TASK_STATUSES } from '../schema/statuses.js';
import type { TaskSchemaIds } from '../schema/tables.js';
import {
  type AnnouncedResolution,
  defaultVersion,
  judgedAs,
  knownVersions,
  resolveAnnouncedVersion,
  tablesFor,
  type Version,
} from '../schema/versions.js';
import { fastValidator, listIssues, patchVerdict, type Variant } from '../validate/validators.js';
import { recordDecoded } from './decoded.js';
import { type Context, describeCallerValue, failed, guard, mismatch, payloadError } from './failures.js';
import { localFault } from './local-faults.js';
import { checkAnswer, checkRequest, stampedVersion } from './request-checks.js';
import { refuseContradiction } from './status-layers.js';
import { answerHandle } from './task-handle.js';
import { type Found, locatePayload } from './transports.js';
import type { Decoded, DecodeOptions, Decoder, Pinning, SafeDecodeResult, TaskNameFor, VersionOption } from './types.js';

export type { Transport } from '../options/options.js';
// The types a caller of decode() names, also importable from here.
export type { Decoded, DecodeOptions, Decoder, ResponseIn, SafeDecodeResult, TaskName, VersionFor } from './types.js';

/**
 * Decodes a seller's answer to `task` into its typed response, or throws.
 *
 * @param task An AdCP task name, e.g. `'get_products'`.
 * @param input An MCP `CallToolResult`, a JSON-RPC error (`McpError` or `{ error }`), an A2A
 *   task, status-update event or single-key envelope, or (with `transport: 'payload'`) a bare payload.
 * @param options See {@link DecodeOptions}.
 * @returns The payload as sent, typed as the task's response (sync, or an async variant
 *   narrowable on `status`): from text, what `JSON.parse` made of it; from an already-parsed
 *   value, a plain copy read once, which is exactly the data validated (never the caller's object).
 * @throws {DecodeError} With a stable `code`; {@link SchemaMismatchError} and
 *   {@link TaskFailedError} carry issues and the seller's error. Never the seller's: a DecodeError
 *   passed as `input` is rethrown as it is; `INVALID_OPTION` for a bad option, `INVALID_INPUT` for
 *   a Promise (a forgotten await), `TIMEOUT` for the MCP SDK client's own request timeout,
 *   `INTERNAL` for a defect of adcp-decode.
 * @example
 * const result = await client.callTool({ name: 'get_products', arguments: { brief } });
 * const response = decode('get_products', result);
 * if (response.status === 'working' || response.status === 'submitted' || response.status === 'input-required') return track(response);
 * use(response.products); // typed: the async variants are narrowed away
 */
export function decode<T extends TaskNameFor<Pinning<V>>, const V extends VersionOption | undefined = undefined>(
  task: T,
  input: unknown,
  options?: DecodeOptions<V>,
): Decoded<T, Pinning<V>> {
  return orThrow<T, Pinning<V>>(attempt<T>(task, input, { who: 'decode', options }));
}

/**
 * Like {@link decode}, but never throws: returns `{ success: true, data, version }` (with
 * `standInFor`, the announced release, when a newer release was judged by a bundled one) or
 * `{ success: false, error }`.
 *
 * @example
 * const r = safeDecode('get_media_buys', result);
 * if (r.success) use(r.data.media_buys, r.version); else log(r.error.code);
 */
export function safeDecode<T extends TaskNameFor<Pinning<V>>, const V extends VersionOption | undefined = undefined>(
  task: T,
  input: unknown,
  options?: DecodeOptions<V>,
): SafeDecodeResult<T, Pinning<V>> {
  return asResult<T, Pinning<V>>(attempt<T>(task, input, { who: 'safeDecode', options }));
}

/**
 * Binds default options, e.g. per seller agent: the pin and bounds of decode and of encode.
 *
 * @throws {DecodeError} `INVALID_OPTION` when an option is invalid; `UNSUPPORTED_VERSION` when
 *   `version` is not a bundled version or release. Every option is checked here, not at the first call.
 * @example
 * const seller = createDecoder({ version: '3.1', maxBytes: 1024 * 1024 });
 * const { media_buys } = seller.decode('get_media_buys', result);
 */
export function createDecoder<const V extends VersionOption | undefined = undefined>(options: DecodeOptions<V>): Decoder<Pinning<V>> {
  return decoderOver<Pinning<V>>(resolveDefaults(options, { who: 'createDecoder' }));
}

/**
 * A decoder over resolved defaults: createDecoder's, and decoderFor's (the seller's version set).
 * @internal Shared with decoderFor (capabilities.ts).
 */
export function decoderOver<B extends DecodeOptions>(defaults: Resolved): Decoder<B> {
  // `never`: the data is the task's response in the version the merged options name, as Decoder<B> types each call.
  const decode = (task: unknown, input: unknown, call?: unknown): never =>
    orThrow<never, never>(attempt<never>(task as never, input, { who: 'decode', options: call, over: defaults }));
  const safeDecode = (task: unknown, input: unknown, call?: unknown): never =>
    asResult<never, never>(attempt<never>(task as never, input, { who: 'safeDecode', options: call, over: defaults })) as never;
  return { ...encoderOver<B>(defaults), decode, safeDecode };
}

/**
 * decode()'s end of an attempt: the data, or the error thrown.
 * @internal Shared with the pinned decoders (pinned.ts).
 */
export function orThrow<T extends string, O extends DecodeOptions>(outcome: Outcome<T> | DecodeError): Decoded<T, O> {
  if (outcome instanceof DecodeError) throw outcome;
  return outcome.data as Decoded<T, O>;
}

/**
 * safeDecode()'s end of an attempt: the data and the version that judged it (and what else it says), or the error.
 * @internal Shared with the pinned decoders (pinned.ts).
 */
export function asResult<T extends string, O extends DecodeOptions>(outcome: Outcome<T> | DecodeError): SafeDecodeResult<T, O> {
  if (outcome instanceof DecodeError) return { success: false, error: outcome };
  const { data, version, standInFor, patch, replayed } = outcome;
  return {
    success: true,
    data,
    version,
    ...(standInFor === undefined ? {} : { standInFor }),
    ...(patch === undefined ? {} : { patch }),
    ...(replayed === true ? { replayed } : {}),
  } as SafeDecodeResult<T, O>;
}

/** What a decode came to: the payload as sent, the version that judged it, the release it stood in for, and whether it is a replay. */
export interface Outcome<T extends string> {
  readonly data: Decoded<T>;
  readonly version: Version;
  readonly standInFor?: string;
  /** The earlier GA patch of `version`'s release that accepted the payload where `version` refused it. */
  readonly patch?: string;
  /** With `keepMismatch`: the schema's refusal of the payload returned all the same (then `data` is unchecked). */
  readonly mismatch?: SchemaMismatchError;
  readonly replayed?: true;
}

/** What adcp-decode's own callers (decoderFor) ask of an attempt beyond the options. */
export interface AttemptHow {
  /** The version that judges a payload announcing no `adcp_version` under `'auto'`. */
  readonly unannounced?: Version | undefined;
  /** A payload its schema refuses is returned all the same, with the refusal as `mismatch` (decoderFor reads only its version members). */
  readonly keepMismatch?: boolean;
  /** The result validator the release names for this task type (enclosed.ts `resultTask`), judging in place of the task's own. */
  readonly validators?: string | undefined;
}

/** The options of one decode as its public edge took them: who took them, the call's, and a decoder's resolved defaults. */
interface GivenOptions {
  readonly who: string;
  readonly options: unknown;
  readonly over?: Resolved | undefined;
}

/**
 * One decode as a result: its outcome, or the DecodeError that ends it (only the public wrappers
 * throw); the options resolved here, at the edge, once.
 */
function attempt<T extends string>(task: T, input: unknown, given: GivenOptions, how: AttemptHow = {}): Outcome<T> | DecodeError {
  let resolved: Resolved;
  try {
    // Every error is built with the task; an option's too, before the version is known.
    const context = typeof task === 'string' ? { task } : NO_CONTEXT;
    resolved = resolveOptions(given.options, { who: given.who, context }, { over: given.over });
  } catch (error) {
    return guard(error, task, input, undefined);
  }
  return decodeResolved<T>(task, input, resolved, how);
}

/**
 * One decode under options already resolved (by the public edge that took them), as a result.
 * @internal Shared with callTask (call/run.ts), the pinned decoders and decoderFor.
 */
export function decodeResolved<T extends string>(
  task: T,
  input: unknown,
  resolved: Resolved,
  how: AttemptHow = {},
): Outcome<T> | DecodeError {
  try {
    return run<T>(task, input, resolved, how);
  } catch (error) {
    return guard(error, task, input, resolved.version === 'auto' ? undefined : resolved.version);
  }
}

/** The task checked, then the payload located, bounded, picked a schema and validated; every error it throws is built with the call's context. */
function run<T extends string>(task: T, input: unknown, options: Resolved, how: AttemptHow): Outcome<T> {
  const version = options.version === 'auto' ? undefined : options.version;
  // First: is the input a seller's answer at all (not an earlier DecodeError, a Promise, the SDK's own timeout)?
  const local = localFault(input, typeof task === 'string' ? task : undefined, version);
  if (local !== undefined) throw local;
  if (typeof task !== 'string') {
    throw new DecodeError('UNKNOWN_TASK', `expected a task name string; got ${describeCallerValue(task)}`, { version });
  }
  // A task name, not a result validator a release's `results` names.
  const known =
    how.validators !== undefined ||
    (version === undefined ? knownVersions() : [version]).some((v) => Object.hasOwn(tablesFor(v).schemaIds, task));
  if (!known) {
    const newer = version === undefined ? " (a newer release's task needs its module: npx adcp-decode generate)" : '';
    throw new DecodeError(
      'UNKNOWN_TASK',
      `"${shownText(task, 64)}" is not an AdCP ${version ?? knownVersions().join(' or ')} task; see tasks(version) for the list${newer}`,
      { task, version },
    );
  }
  const { request } = options;
  if (request !== undefined) checkRequest(task, request, version);
  const ctx: Context = {
    task,
    options,
    version,
    unannounced: how.unannounced ?? (request === undefined ? undefined : stampedVersion(request)),
    ...(how.keepMismatch === true ? { keepMismatch: true } : {}),
    ...(how.validators === undefined || how.validators === task ? {} : { validators: how.validators }),
  };
  return decodeFound<T>(ctx, locatePayload(ctx, input));
}

/**
 * A located payload bounded, its own adcp_error honoured, checked against the request it answers,
 * its version and variant picked, validated as sent, and its envelope's `replayed` read.
 * @internal Shared with decodeEnclosed (enclosed.ts).
 */
export function decodeFound<T extends string>(call: Context, located: Found): Outcome<T> {
  const found = checked(call, located);
  refuseCarriedError(call, found);
  checkAnswer(call, found.payload);
  const picked = pickVersion(call, found);
  const version = picked.version;
  // Every error from here on says which newer release the picked version judged in its place.
  const ctx: Context = picked.standInFor === undefined ? call : { ...call, standInFor: picked.standInFor };
  const ids = schemaIdsOf(ctx, version);
  const sent = hasOwn(found.payload, 'status') ? found.payload.status : undefined;
  // The payload's own status picks its schema; one its envelope contradicts is refused.
  if (found.state !== undefined)
    refuseContradiction(found.state, sent, found.what, { task: ctx.task, version, standInFor: ctx.standInFor });
  const status = sent ?? found.state?.status ?? 'completed';
  const variant: Variant = isAsyncStatus(status) && ids.async[status] !== undefined ? status : 'response';
  const { patch, mismatch: kept } = judge(ctx, { version, variant, ids, found, sent, status });
  const replayed = replayedFlag(
    ctx,
    version,
    variant,
    variant === 'response' ? ids.response : (ids.async[variant] as string),
    found.payload,
  );
  const handle = answerHandle(found.payload, { task: ctx.task, version, status, operationId: ctx.options.request?.operationId });
  recordDecoded(found.payload, { variant, handle });
  return {
    data: found.payload as Decoded<T>,
    version,
    ...(picked.standInFor === undefined ? {} : { standInFor: picked.standInFor }),
    ...(patch === undefined ? {} : { patch }),
    ...(kept === undefined ? {} : { mismatch: kept }),
    ...(replayed ? { replayed: true as const } : {}),
  };
}

/**
 * The payload itself may carry an AdCP error: the failure is reported, even when the payload
 * announces a version that is not bundled (its table is then the default one).
 */
function refuseCarriedError(ctx: Context, found: Found): void {
  if (!hasOwn(found.payload, 'adcp_error') || !found.payload.adcp_error) return;
  const valid = checkAdcpError(found.payload.adcp_error, '', ctx);
  if (!valid.ok) return;
  let picked: AnnouncedResolution | undefined;
  if (ctx.version === undefined) {
    try {
      picked = pickVersion(ctx, found);
    } catch {
      picked = undefined;
    }
  }
  const version = ctx.version ?? picked?.version;
  throw failed({ ...ctx, version, standInFor: picked?.standInFor }, valid.error, `the ${found.what} carries an adcp_error`);
}

/** The task's schema ids in `version`, own keys only: 'constructor' or 'toString' is not a task because Object.prototype has it. */
function schemaIdsOf(ctx: Context, version: Version): TaskSchemaIds {
  const ids = judgedAs(version, ctx.validators ?? ctx.task);
  if (ids !== undefined) return ids;
  throw new DecodeError(
    'UNKNOWN_TASK',
    `"${shownText(ctx.task, 64)}" is not an AdCP ${version} task (the version ${ctx.version === undefined ? 'the payload announced' : 'requested'})`,
    { task: ctx.task, version, standInFor: ctx.standInFor },
  );
}

/** What {@link judge} validates: the payload, the schema picked for it, and the status it was picked by. */
interface Judged {
  readonly version: Version;
  readonly variant: Variant;
  readonly ids: TaskSchemaIds;
  readonly found: Found;
  /** The payload's own `status`, as sent. */
  readonly sent: unknown;
  /** The status that picked the variant: the payload's own, else the stated one, else `completed`. */
  readonly status: unknown;
}

/** What judging a payload concluded: the earlier GA patch that accepted it (the patch fallback), or the refusal decoderFor keeps. */
interface Verdict {
  readonly patch?: string | undefined;
  readonly mismatch?: SchemaMismatchError | undefined;
}

/**
 * Validates a payload as sent against the picked variant, or throws what it is instead. Returns
 * the earlier GA patch that accepted it where the bundled patch refused it (the patch fallback),
 * or, for decoderFor (`keepMismatch`), the schema's refusal it keeps.
 */
function judge(ctx: Context, j: Judged): Verdict {
  const { version, variant, ids, found, sent, status } = j;
  let validate = fastValidator(version, ctx.validators ?? ctx.task, variant, pickedBy(ctx, found), ctx);
  if (validate === undefined)
    throw new DecodeError(
      'INTERNAL',
      `adcp-decode has no validator for ${ctx.task}/${variant} in ${version}; the generated tables and validators disagree: regenerate with npm run generate`,
      { task: ctx.task, version, standInFor: ctx.standInFor },
    );
  // A payload is judged as sent first, so a payload valid as sent is never rejected (3.0's
  // acquire_rights and creative_approval error arms forbid `status`). Only where that fails and
  // the seller sent no status is it judged again with the stand-in: the transport state or
  // `completed` (the MCP guide's receiver rule), on a shallow view; the caller gets the payload as sent.
  const standIn = sent === undefined && variant === 'response';
  const accepts = (v: (data: unknown) => boolean): boolean => v(found.payload) || (standIn && v({ ...found.payload, status }));
  let patch: string | undefined;
  if (!accepts(validate)) {
    // A published GA patch of the release whose schema accepts it: the answer is that patch's (versioning.mdx: patches never change schema).
    const verdict = patchVerdict(version, ctx.validators ?? ctx.task, variant, accepts, ctx);
    if (verdict === undefined) return { mismatch: keptRefusal(ctx, j, standIn) };
    ({ patch, validate } = verdict);
  }
  // Where the schema leaves `status` open (every 3.0 response, 3.1's governance responses), a
  // present status is still the envelope's task status, as the protocol envelope of every
  // version requires and the types promise; a value the schema itself lists passes.
  if (variant === 'response' && sent !== undefined && !isTaskStatus(sent) && validate({ ...found.payload, status: UNLISTED_STATUS })) {
    throw mismatch(ctx, version, variant, ids.response, [
      {
        path: '/status',
        keyword: 'enum',
        params: { allowedValues: [...TASK_STATUSES] },
        schemaPath: `/schemas/${version}/core/protocol-envelope.json#/properties/status`,
        message: 'must be equal to one of the allowed values',
      },
    ]);
  }
  return { patch };
}

/**
 * The protocol envelope's `replayed` (core/protocol-envelope.json of both releases), where the
 * task's schema leaves it open: a boolean, else SCHEMA_MISMATCH. Returns whether the answer is a replay.
 */
function replayedFlag(ctx: Context, version: Version, variant: Variant, schemaId: string, payload: Record<string, unknown>): boolean {
  const replayed = hasOwn(payload, 'replayed') ? payload.replayed : undefined;
  if (replayed === undefined || typeof replayed === 'boolean') return replayed === true;
  throw mismatch(ctx, version, variant, schemaId, [
    {
      path: '/replayed',
      keyword: 'type',
      params: { type: 'boolean' },
      schemaPath: `/schemas/${version}/core/protocol-envelope.json#/properties/replayed/type`,
      message: 'must be boolean',
    },
  ]);
}

/** The refusal of a payload no patch accepts: thrown, or, for decoderFor (`keepMismatch`), returned when it is a schema mismatch. */
function keptRefusal(ctx: Context, j: Judged, standIn: boolean): SchemaMismatchError {
  try {
    return refuseInvalid(ctx, j, standIn);
  } catch (error) {
    if (ctx.keepMismatch !== true || !(error instanceof SchemaMismatchError)) throw error;
    return error;
  }
}

/** A payload its schema rejects: the issues listed (SCHEMA_MISMATCH), or what the answer is instead of the response. */
function refuseInvalid(ctx: Context, j: Judged, standIn: boolean): never {
  const { version, variant, ids, found, status } = j;
  if (found.alone === true) {
    // The seller sent an interim state and no data, as the spec allows; this task's schema for it needs data.
    throw new DecodeError(
      'NO_PAYLOAD',
      `found no DataPart with the ${ctx.task} payload in the ${found.what} (optional in an interim state), and the ${variant} schema of ${ctx.task} needs data the state alone does not give; decode a later update that carries it`,
      { task: ctx.task, version, standInFor: ctx.standInFor },
    );
  }
  let listing = listIssues(version, ctx.validators ?? ctx.task, variant, found.payload, ctx);
  // Where the schema needs a status, the issues are those left with the stand-in; unless the
  // stand-in value itself fails (3.0 check_governance's verdict, acquire_rights' outcome): then
  // as sent, which says `status` is missing, not that a value the seller never sent is wrong.
  if (standIn && listing.issues.some(missingStatus)) {
    const withStandIn = listIssues(version, ctx.validators ?? ctx.task, variant, { ...found.payload, status }, ctx);
    if (!withStandIn.issues.some((issue) => issue.path === '/status')) listing = withStandIn;
  }
  if (listing.issues.length === 0) {
    throw new DecodeError(
      'INTERNAL',
      `adcp-decode's fast and listing validators disagree on this ${ctx.task} ${variant} (${version}): a defect in adcp-decode, not the seller's fault`,
      { task: ctx.task, version, standInFor: ctx.standInFor },
    );
  }
  // transport-errors.mdx, detection step 6: an answer that is not the response (it lacks a member
  // the response requires) and carries errors[] reports the seller's error in errors[0].
  const reported = variant === 'response' && listing.issues.some(missingMember) ? payloadError(found.payload, ctx) : undefined;
  if (reported !== undefined) {
    throw failed({ ...ctx, version }, reported, `the ${found.what} holds errors[], not a ${ctx.task} response`, { fromPayload: true });
  }
  const schemaId = variant === 'response' ? ids.response : (ids.async[variant] as string);
  throw mismatch(ctx, version, variant, schemaId, listing.issues, listing);
}

/**
 * The payload bounded and checked, as decode() will validate and return it: an in-process value
 * is replaced by its plain snapshot (read once; the caller's object is never returned), a parsed
 * text (already plain, measured by the parse itself) is kept and walked only when out of bounds,
 * for the error; a payload already bounded (part of a snapshot) is kept as it is.
 * @internal Shared with the 3.0 poll (polling.ts), whose response is no task's payload.
 */
export function checked(ctx: Context, found: Found): Found {
  const { task, options } = ctx;
  if (found.bounded === true) return found;
  if (found.inProcess) {
    return {
      ...found,
      payload: snapshot(found.payload, options, { what: found.what, task, version: ctx.version, standInFor: ctx.standInFor }) as Record<
        string,
        unknown
      >,
    };
  }
  if (found.shape === undefined || !withinBounds(found.shape, options)) {
    checkTree(found.payload, options, { what: found.what, task, version: ctx.version, standInFor: ctx.standInFor });
  }
  return found;
}

/** The payload's own `adcp_version`, as sent. */
function announcedVersion(found: Found): unknown {
  return hasOwn(found.payload, 'adcp_version') ? found.payload.adcp_version : undefined;
}

/** The release the payload announced when it picked the version (under 'auto'), for the error when that version's validators are not loaded. */
function pickedBy(ctx: Context, found: Found): string | undefined {
  const announced = ctx.version === undefined ? announcedVersion(found) : undefined;
  return typeof announced === 'string' ? announced : undefined;
}

/**
 * The version that judges the payload: the requested one, else the release its `adcp_version`
 * announces, else the request's stamped release (or decoderFor's choice), else the default.
 */
function pickVersion(ctx: Context, found: Found): AnnouncedResolution {
  if (ctx.version !== undefined) return { version: ctx.version };
  const announced = announcedVersion(found);
  // A non-string adcp_version is left for the schema to reject.
  if (typeof announced !== 'string') return { version: ctx.unannounced ?? defaultVersion };
  return resolveAnnouncedVersion(announced, { newerRelease: ctx.options.newerRelease, context: ctx });
}

/** A string no schema lists as a status value, to ask a validator whether it pins `status` at all. */
const UNLISTED_STATUS = '\u0000unlisted';

/** The issue a schema that needs a status reports for a payload without one. */
function missingStatus(issue: ValidationIssue): boolean {
  return issue.path === '' && issue.keyword === 'required' && issue.params.missingProperty === 'status';
}

/** An issue that says the payload lacks a member the response requires (other than `status`). */
function missingMember(issue: ValidationIssue): boolean {
  return issue.path === '' && issue.keyword === 'required' && issue.params.missingProperty !== 'status';
}
