/**
 * The checks an answer gets when decode() is given the request it answers (option `request`):
 * - the request is for the task decoded, and its stamps agree with each other and with a pinned
 *   version (a caller's fault otherwise: INVALID_OPTION);
 * - the `adcp_version` the seller served is one the stamp allows (versioning.mdx, "Version
 *   negotiation": a pre-release pin is matched exactly; a release pin is served by that release or
 *   a lower release of its major, never by a pre-release or a newer release; a major-only stamp
 *   by a release of that major). An answer without `adcp_version` (a 3.0 seller) passes and is
 *   judged by the request's own pin, as the page says;
 * - `context` comes back unchanged: every release's core/context.json says "echoed unchanged in
 *   responses" and every response schema of 3.0.26 and 3.1.19 declares it, so an answer to a
 *   request that sent one must carry it, equal as JSON, and one to a request that sent none
 *   carries none (it would be no echo, and a buyer routing by it would be misled).
 */
import { DecodeError, describeValue, type ErrorContext, VersionMismatchError } from '../errors/errors.js';
import { shownPointer, shownText } from '../errors/format.js';
import { hasOwn } from '../json/own.js';
import type { CheckedRequest } from '../options/sent-request.js';
import { pinOf } from '../schema/release.js';
import { isPin } from '../schema/releases.js';
import { type Version, versionOfPin } from '../schema/versions.js';
import type { Context } from './failures.js';
import { firstDifference } from './first-difference.js';

/** A wire `adcp_version`: major, minor, an optional pre-release tag (version-envelope.json's pattern). */
const WIRE_VERSION = /^(\d+)\.(\d+)(-[a-zA-Z0-9.-]+)?$/;

/** The request's stamps, checked: `adcp_version` (release precision) and `adcp_major_version`. */
interface Stamps {
  readonly release: string | undefined;
  readonly major: number | undefined;
}

function invalid(message: string, context: ErrorContext): DecodeError {
  return new DecodeError('INVALID_OPTION', message, context);
}

/** The request's stamps, each well formed and agreeing with the other. */
function stampsOf(request: CheckedRequest, context: ErrorContext): Stamps {
  const { adcp_version: release, adcp_major_version: major } = request.args;
  if (release !== undefined && (typeof release !== 'string' || !WIRE_VERSION.test(release)))
    throw invalid(
      `option request.args.adcp_version must be a release-precision version ("3.1", "3.1-beta"); got ${shownStamp(release)}`,
      context,
    );
  if (major !== undefined && (!Number.isInteger(major) || (major as number) < 1 || (major as number) > 99))
    throw invalid(`option request.args.adcp_major_version must be an integer from 1 to 99; got ${shownStamp(major)}`, context);
  const stamps = { release: release as string | undefined, major: major as number | undefined };
  if (stamps.release !== undefined && stamps.major !== undefined && majorOf(stamps.release) !== stamps.major)
    throw invalid(
      `option request stamps adcp_version "${stamps.release}" and adcp_major_version ${stamps.major}, which disagree (a seller must refuse it)`,
      context,
    );
  return stamps;
}

function shownStamp(value: unknown): string {
  return typeof value === 'string' ? `"${shownText(value, 32)}"` : typeof value === 'number' ? String(value) : describeValue(value);
}

function majorOf(release: string): number {
  return Number(release.split('.')[0]);
}

/**
 * Checks option `request` against the call before the answer is read.
 *
 * @param task - The task decoded.
 * @param request - The request, as read by readRequest.
 * @param pinned - The version the call is pinned to, if any.
 * @throws {DecodeError} `INVALID_OPTION` when the request is for another task, its stamps are
 *   malformed or disagree, or they name another release than the pinned version's.
 * @example
 * checkRequest('get_products', request, '3.1.19');
 */
export function checkRequest(task: string, request: CheckedRequest, pinned: Version | undefined): void {
  const context = { task, version: pinned };
  if (request.task !== task)
    throw invalid(`option request is a ${shownText(request.task, 64)} request; it cannot be answered by a ${task} answer`, context);
  const stamps = stampsOf(request, context);
  if (pinned === undefined) return;
  if (request.version !== undefined && request.version !== pinned)
    throw invalid(
      `option request was encoded for AdCP ${request.version}, but this call is pinned to ${pinned}: leave version out (the request's judges its answer), or encode the request for ${pinned}`,
      context,
    );
  if (
    (stamps.release !== undefined && stamps.release !== pinOf(pinned)) ||
    (stamps.major !== undefined && stamps.major !== majorOf(pinned))
  )
    throw invalid(
      `option request stamps AdCP ${stamps.release ?? `major ${stamps.major}`}, but this call is pinned to ${pinned}: stamp "${pinOf(pinned)}", or pin the version the request speaks`,
      context,
    );
}

/**
 * The version that judges an answer announcing no `adcp_version`, under `version: 'auto'`: the
 * version the request was encoded in, else the bundled release it stamped (versioning.mdx:
 * "validate against their own pin"; a 3.0 request stamps only its major).
 *
 * @param request - The request.
 * @returns The bundled version of the stamped release, or `undefined` (no stamp, a release not bundled).
 * @throws Never.
 * @example
 * stampedVersion({ task: 'get_products', args: { adcp_version: '3.0' } }); // '3.0.26'
 */
export function stampedVersion(request: CheckedRequest): Version | undefined {
  if (request.version !== undefined) return request.version;
  const release = request.args.adcp_version;
  return isPin(release) ? versionOfPin(release) : undefined;
}

/** Why `served` is not allowed by the stamps, or undefined when it is. */
function refusal(stamps: Stamps, served: string): string | undefined {
  const wire = WIRE_VERSION.exec(served);
  if (wire === null) return 'not a release-precision version';
  if (stamps.release === undefined) return Number(wire[1]) === stamps.major ? undefined : 'another major';
  if (stamps.release.includes('-')) return served === stamps.release ? undefined : 'not the pre-release pinned, which is matched exactly';
  if (Number(wire[1]) !== majorOf(stamps.release)) return 'another major';
  if (wire[3] !== undefined) return 'a pre-release, which never serves a release pin';
  return Number(wire[2]) > Number(stamps.release.split('.')[1]) ? 'newer than the pin' : undefined;
}

/** What the stamps allow, for the message. */
function allowed(stamps: Stamps): string {
  if (stamps.release === undefined) return `a ${stamps.major}.x release`;
  if (stamps.release.includes('-')) return `"${stamps.release}" exactly`;
  return `"${stamps.release}" or a lower ${majorOf(stamps.release)}.x release`;
}

/** The served `adcp_version` against the request's stamps, and against the pinned version. */
function checkServed(ctx: Context, request: CheckedRequest, payload: Record<string, unknown>): void {
  if (!hasOwn(payload, 'adcp_version')) return;
  const stamps = stampsOf(request, ctx);
  if (stamps.release === undefined && stamps.major === undefined) return;
  const served = payload.adcp_version;
  const why = typeof served === 'string' ? refusal(stamps, served) : 'not a string';
  const shown = typeof served === 'string' ? shownText(served, 64) : describeValue(served);
  const opts = { task: ctx.task, version: ctx.version, path: '/adcp_version' };
  if (why !== undefined) {
    throw new VersionMismatchError(
      `expected the ${ctx.task} answer's adcp_version to be ${allowed(stamps)}, as the request stamped; got ${typeof served === 'string' ? `"${shown}"` : shown}, ${why}`,
      { requested: stamps.release ?? String(stamps.major), served: shown },
      opts,
    );
  }
  // A downshift the spec allows, which a pinned call cannot judge by its own release.
  if (ctx.version !== undefined && served !== pinOf(ctx.version)) {
    throw new DecodeError(
      'UNSUPPORTED_VERSION',
      `the seller served AdCP "${shown}", a downshift from the request's ${stamps.release === undefined ? `major ${stamps.major}` : `"${stamps.release}"`} that the spec allows, but this call is pinned to ${ctx.version}: decode with version 'auto', or pin the release the seller speaks (decoderFor)`,
      opts,
    );
  }
}

/** `context` echoed unchanged. */
function checkContext(ctx: Context, request: CheckedRequest, payload: Record<string, unknown>): void {
  const sent = hasOwn(request.args, 'context');
  const echoed = hasOwn(payload, 'context');
  const opts = { task: ctx.task, version: ctx.version, path: '/context' };
  if (!sent && !echoed) return;
  if (!echoed)
    throw new DecodeError('CONTEXT_MISMATCH', `expected the ${ctx.task} answer to echo the request's context unchanged; it has none`, opts);
  if (!sent)
    throw new DecodeError(
      'CONTEXT_MISMATCH',
      `expected no context in the ${ctx.task} answer, as the request sent none; it carries ${describeValue(payload.context)}`,
      opts,
    );
  const difference = firstDifference(request.args.context, payload.context);
  if (difference === undefined) return;
  const path = `/context${difference.path}`;
  throw new DecodeError(
    'CONTEXT_MISMATCH',
    `expected the ${ctx.task} answer to echo the request's context unchanged; at ${shownPointer(path)} the request sent ${difference.expected}, the answer holds ${difference.received}`,
    { ...opts, path },
  );
}

/**
 * Checks an answer's payload against the request it answers: the served version, then `context`.
 *
 * @param ctx - The call (its resolved options hold the request).
 * @param payload - The located, bounded payload.
 * @throws {VersionMismatchError} `VERSION_MISMATCH` for a served release the stamp does not allow.
 * @throws {DecodeError} `UNSUPPORTED_VERSION` for an allowed downshift a pinned call cannot judge;
 *   `CONTEXT_MISMATCH` for a context not echoed unchanged.
 * @example
 * checkAnswer(ctx, found.payload);
 */
export function checkAnswer(ctx: Context, payload: Record<string, unknown>): void {
  const request = ctx.options.request;
  if (request === undefined) return;
  checkServed(ctx, request, payload);
  checkContext(ctx, request, payload);
}
