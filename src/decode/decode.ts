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
import { DecodeError, type ValidationIssue } from '../errors/errors.js';
import { checkAdcpError } from '../extract/errors.js';
import type { ParsedShape } from '../json/text.js';
import { recordVariant } from './final.js';
import { shownText } from '../errors/format.js';
import { localFault } from './local-faults.js';
import { hasOwn } from '../json/own.js';
import { TASK_STATUSES } from '../schema/response-types.js';
import { fastValidator, listIssues, type Variant } from '../validate/validators.js';
import {
  defaultVersion,
  resolveAnnouncedVersion,
  resolveVersion,
  tablesFor,
  versions,
  type AnnouncedResolution,
  type Version,
} from '../schema/versions.js';
import { describeCallerValue, failed, guard, mismatch, payloadError, withContext, type Context } from './failures.js';
import { resolveOptions, type Resolved } from './resolve-options.js';
import { locatePayload, type Found } from './transports.js';
import type { Decoded, DecodeOptions, Decoder, Merged, SafeDecodeResult, TaskName } from './types.js';

// The types a caller of decode() names, also importable from here.
export type { Decoded, DecodeOptions, Decoder, ResponseIn, SafeDecodeResult, TaskName, VersionFor } from './types.js';
export type { Transport } from './options.js';

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
export function decode<T extends TaskName, const O extends DecodeOptions = DecodeOptions>(
  task: T,
  input: unknown,
  options?: O,
): Decoded<T, O> {
  return orThrow<T, O>(attempt<T>(undefined, task, input, options));
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
export function safeDecode<T extends TaskName, const O extends DecodeOptions = DecodeOptions>(
  task: T,
  input: unknown,
  options?: O,
): SafeDecodeResult<T, O> {
  return asResult<T, O>(attempt<T>(undefined, task, input, options));
}

/**
 * Binds default options, e.g. per seller agent.
 *
 * @throws {DecodeError} `INVALID_OPTION` when an option is invalid; `UNSUPPORTED_VERSION` when
 *   `version` is not a bundled version or release. Every option is checked here, not at the first call.
 * @example
 * const seller = createDecoder({ version: '3.1', maxBytes: 1024 * 1024 });
 * const { media_buys } = seller.decode('get_media_buys', result);
 */
export function createDecoder<const B extends DecodeOptions>(options: B): Decoder<B> {
  resolveOptions(options, undefined); // fail fast on a bad default, version values included
  return {
    decode: (task, input, call) =>
      orThrow<typeof task, Merged<B, NonNullable<typeof call>>>(attempt<typeof task>(options, task, input, call)),
    safeDecode: (task, input, call) =>
      asResult<typeof task, Merged<B, NonNullable<typeof call>>>(attempt<typeof task>(options, task, input, call)),
  };
}

/** decode()'s end of an attempt: the data, or the error thrown. */
function orThrow<T extends TaskName, O extends DecodeOptions>(outcome: Outcome<T> | DecodeError): Decoded<T, O> {
  if (outcome instanceof DecodeError) throw outcome;
  return outcome.data as Decoded<T, O>;
}

/** safeDecode()'s end of an attempt: the data and the version that judged it, or the error. */
function asResult<T extends TaskName, O extends DecodeOptions>(outcome: Outcome<T> | DecodeError): SafeDecodeResult<T, O> {
  if (outcome instanceof DecodeError) return { success: false, error: outcome };
  const { data, version, standInFor } = outcome;
  return (standInFor === undefined ? { success: true, data, version } : { success: true, data, version, standInFor }) as SafeDecodeResult<
    T,
    O
  >;
}

/** The async variants a `status` (or the transport's state) can pick, where the task has one. */
const ASYNC_VARIANTS: readonly string[] = ['working', 'submitted', 'input-required'];

/** What a decode came to: the payload as sent, the version that judged it, and the release it stood in for. */
interface Outcome<T extends TaskName> {
  readonly data: Decoded<T>;
  readonly version: Version;
  readonly standInFor?: string;
}

/** One decode as a result: its outcome, or the DecodeError that ends it (only the public wrappers throw). */
function attempt<T extends TaskName>(
  base: DecodeOptions | undefined,
  task: T,
  input: unknown,
  options: DecodeOptions | undefined,
): Outcome<T> | DecodeError {
  try {
    return run<T>(task, input, resolveOptions(base, options));
  } catch (error) {
    return guard(error, task, input);
  }
}

/** The task checked, then the payload located, bounded, picked a schema and validated; every error it throws carries the call's context. */
function run<T extends TaskName>(task: T, input: unknown, options: Resolved): Outcome<T> {
  const version = options.version === 'auto' ? undefined : options.version;
  // First: is the input a seller's answer at all (not an earlier DecodeError, a Promise, the SDK's own timeout)?
  const local = localFault(input, typeof task === 'string' ? task : undefined, version);
  if (local !== undefined) throw local;
  if (typeof task !== 'string') {
    throw new DecodeError('UNKNOWN_TASK', `expected a task name string; got ${describeCallerValue(task)}`);
  }
  const known = (version === undefined ? versions : [version]).some((v) => hasOwn(tablesFor(v).schemaIds, task));
  if (!known) {
    throw new DecodeError(
      'UNKNOWN_TASK',
      `"${shownText(task, 64)}" is not an AdCP ${version ?? versions.join(' or ')} task; see tasks(version) for the list`,
      { task, version },
    );
  }
  const ctx: Context = { task, options, version };
  try {
    return decodeFound<T>(ctx, locatePayload(ctx, input));
  } catch (error) {
    throw withContext(error, ctx);
  }
}

/** A located payload bounded, its own adcp_error honoured, its version and variant picked, and validated as sent. */
function decodeFound<T extends TaskName>(ctx: Context, located: Found): Outcome<T> {
  const { task } = ctx;
  const found = checked(ctx, located);
  // The payload itself may carry an AdCP error; the failure is reported even when the payload
  // announces a version that is not bundled (its table is then the default one).
  if (hasOwn(found.payload, 'adcp_error') && found.payload.adcp_error) {
    const valid = checkAdcpError(found.payload.adcp_error);
    if (valid.ok) {
      let version = ctx.version;
      if (version === undefined) {
        try {
          const picked = pickVersion(ctx, found);
          version = picked.version;
          if (picked.standInFor !== undefined) ctx.standInFor = picked.standInFor;
        } catch {
          version = undefined;
        }
      }
      throw failed({ ...ctx, version }, valid.error, `the ${found.what} carries an adcp_error`);
    }
  }
  const picked = pickVersion(ctx, found);
  const version = picked.version;
  if (picked.standInFor !== undefined) ctx.standInFor = picked.standInFor;
  // Own keys only: 'constructor' or 'toString' is not a task because Object.prototype has it.
  const table = tablesFor(version).schemaIds;
  const ids = hasOwn(table, task) ? table[task] : undefined;
  if (ids === undefined) {
    throw new DecodeError(
      'UNKNOWN_TASK',
      `"${shownText(task, 64)}" is not an AdCP ${version} task (the version ${ctx.version === undefined ? 'the payload announced' : 'requested'})`,
      {
        task,
        version,
      },
    );
  }
  const sent = hasOwn(found.payload, 'status') ? found.payload.status : undefined;
  const status = sent ?? found.a2aState ?? 'completed';
  let variant: Variant = 'response';
  if (typeof status === 'string' && ASYNC_VARIANTS.includes(status) && ids.async[status as keyof typeof ids.async] !== undefined) {
    variant = status as Variant;
  }
  const validate = fastValidator(version, task, variant);
  if (validate === undefined)
    throw new DecodeError(
      'INTERNAL',
      `adcp-decode has no validator for ${task}/${variant} in ${version}; the generated tables and validators disagree: regenerate with npm run generate`,
      { task, version },
    );
  const schemaId = variant === 'response' ? ids.response : (ids.async[variant] as string);
  // A payload is judged as sent first, so a payload valid as sent is never rejected (3.0's
  // acquire_rights and creative_approval error arms forbid `status`). Only where that fails and
  // the seller sent no status is it judged again with the stand-in: the transport state or
  // `completed` (the MCP guide's receiver rule), on a shallow view; the caller gets the payload as sent.
  const standIn = sent === undefined && variant === 'response';
  if (!validate(found.payload) && !(standIn && validate({ ...found.payload, status }))) {
    let listing = listIssues(version, task, variant, found.payload);
    // Where the schema needs a status, the issues are those left with the stand-in; unless the
    // stand-in value itself fails (3.0 check_governance's verdict, acquire_rights' outcome): then
    // as sent, which says `status` is missing, not that a value the seller never sent is wrong.
    if (standIn && listing.issues.some(missingStatus)) {
      const withStandIn = listIssues(version, task, variant, { ...found.payload, status });
      if (!withStandIn.issues.some((issue) => issue.path === '/status')) listing = withStandIn;
    }
    if (listing.issues.length === 0) {
      throw new DecodeError(
        'INTERNAL',
        `adcp-decode's fast and listing validators disagree on this ${task} ${variant} (${version}): a defect in adcp-decode, not the seller's fault`,
        { task, version },
      );
    }
    throw mismatch(ctx, version, variant, schemaId, listing.issues, listing);
  }
  // Where the schema leaves `status` open (every 3.0 response, 3.1's governance responses), a
  // present status is still the envelope's task status, as the protocol envelope of every
  // version requires and the types promise; a value the schema itself lists passes.
  if (variant === 'response' && sent !== undefined && !(TASK_STATUSES as readonly unknown[]).includes(sent)) {
    if (validate({ ...found.payload, status: UNLISTED_STATUS })) {
      throw mismatch(ctx, version, variant, schemaId, [
        {
          path: '/status',
          keyword: 'enum',
          params: { allowedValues: [...TASK_STATUSES] },
          schemaPath: `/schemas/${version}/core/protocol-envelope.json#/properties/status`,
          message: 'must be equal to one of the allowed values',
        },
      ]);
    }
  }
  recordVariant(found.payload, variant);
  return picked.standInFor === undefined
    ? { data: found.payload as Decoded<T>, version }
    : { data: found.payload as Decoded<T>, version, standInFor: picked.standInFor };
}

/**
 * The payload bounded and checked, as decode() will validate and return it: an in-process value
 * is replaced by its plain snapshot (read once; the caller's object is never returned), a parsed
 * text (already plain, measured by the parse itself) is kept and walked only when out of bounds,
 * for the error.
 */
function checked(ctx: Context, found: Found): Found {
  const { task, options } = ctx;
  if (found.inProcess) {
    return {
      ...found,
      payload: snapshot(found.payload, options, { what: found.what, task, version: ctx.version }) as Record<string, unknown>,
    };
  }
  if (found.shape === undefined || !withinBounds(found.shape, options)) {
    checkTree(found.payload, options, { what: found.what, task, version: ctx.version });
  }
  return found;
}

/** The payload's own `adcp_version`, as sent. */
function announcedVersion(found: Found): unknown {
  return hasOwn(found.payload, 'adcp_version') ? found.payload.adcp_version : undefined;
}

/** The version that judges the payload: the requested one, else the release its `adcp_version` announces, else the default. */
function pickVersion(ctx: Context, found: Found): AnnouncedResolution {
  if (ctx.version !== undefined) return { version: ctx.version };
  const announced = announcedVersion(found);
  // A non-string adcp_version is left for the schema to reject.
  if (typeof announced !== 'string') return { version: defaultVersion };
  return resolveAnnouncedVersion(announced, { task: ctx.task, newerRelease: ctx.options.newerRelease });
}

/** A string no schema lists as a status value, to ask a validator whether it pins `status` at all. */
const UNLISTED_STATUS = '\u0000unlisted';

/** The issue a schema that needs a status reports for a payload without one. */
function missingStatus(issue: ValidationIssue): boolean {
  return issue.path === '' && issue.keyword === 'required' && issue.params.missingProperty === 'status';
}

/** Where {@link decodeEnclosed}'s payload came from, and the status its envelope gave it. */
export interface EnclosedPayload {
  /** The envelope's task status (a webhook's `status`, a polled task's `status`). */
  readonly status: string;
  /** Names the payload in messages, e.g. `webhook result`. */
  readonly what: string;
  /** Set when our own parser produced the enclosing document: its measured size (the payload is no larger). */
  readonly shape?: ParsedShape | undefined;
}

/** The envelope statuses that end a task without a result. */
const FAILED_STATUSES: readonly string[] = ['failed', 'rejected', 'canceled'];

/**
 * Decodes a payload that arrived inside another envelope (a webhook's `result`, a polled task's
 * `result`) the way decode() decodes a payload: the envelope's status stands in for a `status`
 * the payload lacks (as an A2A task state does), picks the async variant, and a failed, rejected
 * or canceled status ends as TaskFailedError (its `adcp_error`, else the payload's `errors[0]`).
 *
 * @param task - The task the envelope names.
 * @param payload - The enclosed payload, or `undefined` when the envelope carried none.
 * @param how - The envelope's status and how to name the payload.
 * @param options - As for {@link decode}; `transport` is ignored.
 * @returns The payload typed as the task's response, and the version that judged it.
 * @throws {DecodeError} As decode() does; `NO_PAYLOAD` for a missing payload under a status that needs one.
 * @example
 * decodeEnclosed('create_media_buy', body.result, { status: body.status, what: 'webhook result' });
 */
export function decodeEnclosed<T extends TaskName, const O extends DecodeOptions = DecodeOptions>(
  task: T,
  payload: Record<string, unknown> | undefined,
  how: EnclosedPayload,
  options?: O,
): { data: Decoded<T, O>; version: Version } {
  let ctx: Context | undefined;
  try {
    const resolved = resolveOptions(undefined, options);
    ctx = { task, options: resolved, version: resolved.version === 'auto' ? undefined : resolveVersion(resolved.version, { task }) };
    if (FAILED_STATUSES.includes(how.status)) {
      if (payload !== undefined)
        payload = checked(ctx, {
          payload,
          inProcess: how.shape === undefined,
          what: how.what,
          ...(how.shape === undefined ? {} : { shape: how.shape }),
        }).payload;
      const valid = payload !== undefined && hasOwn(payload, 'adcp_error') ? checkAdcpError(payload.adcp_error) : undefined;
      if (valid?.ok === true) throw failed(ctx, valid.error, `the ${how.what} carries an adcp_error`);
      const fallback = payloadError(payload);
      throw failed(ctx, fallback, `the task ended in status ${how.status}`, {
        fromPayload: fallback !== undefined,
        unusable: valid?.ok === false ? valid.reason : undefined,
      });
    }
    if (payload === undefined) {
      throw new DecodeError(
        'NO_PAYLOAD',
        `expected the ${task} payload in the ${how.what} for status ${JSON.stringify(how.status.slice(0, 40))}; found none`,
        { task, version: ctx.version },
      );
    }
    const found: Found = {
      payload,
      inProcess: how.shape === undefined,
      what: how.what,
      a2aState: how.status,
      ...(how.shape === undefined ? {} : { shape: how.shape }),
    };
    return decodeFound(ctx, found) as { data: Decoded<T, O>; version: Version };
  } catch (error) {
    throw guard(ctx === undefined ? error : withContext(error, ctx), task, payload);
  }
}
