/**
 * The seller errors the spec gives a meaning or data for, typed, so a buyer branches on
 * `TaskFailedError.known.code` instead of matching strings: version negotiation
 * (`VERSION_UNSUPPORTED`, versioning.mdx), idempotency (`IDEMPOTENCY_CONFLICT`,
 * `IDEMPOTENCY_EXPIRED`, `IDEMPOTENCY_IN_FLIGHT`, security.mdx) and the codes whose `details` shape
 * both bundled releases publish (`error-details/*.json`: RATE_LIMITED, CONFLICT, BUDGET_TOO_LOW,
 * AUDIENCE_TOO_SMALL). A `details` that is absent or does not match its shape is `undefined`
 * (transport-errors.mdx: agents fall back to code, message and recovery); the seller's object
 * stays on `adcpError`. Like the response types, the details types are closed: a member they do not
 * name is read with `extra()`.
 */

import type { AdcpError } from '../errors/errors.js';
import type { KnownSellerError, VersionUnsupportedDetails } from '../errors/seller-errors.js';
import { hasOwn, isObject, own } from '../json/own.js';
import { normalizeRetryAfter } from '../schema/recovery.js';
import { newestListed } from '../schema/versions.js';

/** How one `details` member is checked: a JSON type, a pattern's name, or the values of an enum. */
export type DetailKind =
  | 'string'
  | 'number'
  | 'number-or-string'
  | 'release'
  | 'releases'
  | 'build'
  | 'major'
  | 'majors'
  | readonly string[];

/** One code's `details` shape: its members and which are required. */
export interface DetailShape {
  readonly members: Readonly<Record<string, DetailKind>>;
  readonly required: readonly string[];
}

/**
 * The `details` shapes checked, as the bundled `error-details/*.json` give them (the same in 3.0.26
 * and 3.1.19 where both have one; version-unsupported.json is 3.1's, with version-envelope.json's
 * two members). test/decode/known-errors.test.ts compares this table with the synced schemas.
 */
export const DETAIL_SHAPES: Readonly<
  Record<'VERSION_UNSUPPORTED' | 'RATE_LIMITED' | 'CONFLICT' | 'BUDGET_TOO_LOW' | 'AUDIENCE_TOO_SMALL', DetailShape>
> = {
  VERSION_UNSUPPORTED: {
    members: {
      supported_versions: 'releases',
      supported_majors: 'majors',
      build_version: 'build',
      adcp_version: 'release',
      adcp_major_version: 'major',
    },
    required: ['supported_versions'],
  },
  RATE_LIMITED: {
    members: { limit: 'number', remaining: 'number', window_seconds: 'number', scope: ['account', 'tool', 'global'] },
    required: [],
  },
  CONFLICT: { members: { resource_id: 'string', expected_version: 'number-or-string', current_version: 'number-or-string' }, required: [] },
  BUDGET_TOO_LOW: { members: { minimum_budget: 'number', currency: 'string' }, required: [] },
  AUDIENCE_TOO_SMALL: { members: { minimum_size: 'number', current_size: 'number' }, required: [] },
};

/** version-envelope.json's `adcp_version` pattern: release precision, an optional pre-release tag. */
const RELEASE = /^\d+\.\d+(-[a-zA-Z0-9.-]+)?$/;
/** version-unsupported.json's `build_version` pattern: semver with its patch. */
const BUILD = /^\d+\.\d+\.\d+(-[a-zA-Z0-9.-]+)?(\+[a-zA-Z0-9.-]+)?$/;

function isMajor(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 99;
}

/** Whether `value` is of `kind`. */
function fits(kind: DetailKind, value: unknown): boolean {
  if (typeof kind !== 'string') return typeof value === 'string' && kind.includes(value);
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'number-or-string':
      return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
    case 'release':
      return typeof value === 'string' && RELEASE.test(value);
    case 'build':
      return typeof value === 'string' && BUILD.test(value);
    case 'major':
      return isMajor(value);
    case 'releases':
      return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && RELEASE.test(v));
    case 'majors':
      // supported_majors items: integers from 1 (no upper bound in the schema).
      return Array.isArray(value) && value.every((v) => Number.isInteger(v) && (v as number) >= 1);
  }
}

/**
 * The seller's `details` when it matches the code's shape (every listed member present is of its
 * kind, every required one present); other members pass, as `additionalProperties: true` says.
 *
 * @param candidate - The `details` value as sent (a plain copy).
 * @param shape - The code's shape.
 * @returns The same object, or `undefined`.
 * @throws Never.
 * @example
 * matchDetails({ minimum_budget: 25000 }, DETAIL_SHAPES.BUDGET_TOO_LOW); // { minimum_budget: 25000 }
 */
function matchDetails(candidate: unknown, shape: DetailShape): Record<string, unknown> | undefined {
  if (!isObject(candidate)) return undefined;
  for (const name of shape.required) if (!hasOwn(candidate, name)) return undefined;
  for (const [name, kind] of Object.entries(shape.members)) {
    if (hasOwn(candidate, name) && !fits(kind, candidate[name])) return undefined;
  }
  return candidate;
}

/** VERSION_UNSUPPORTED's data: `details` (error.json's member), else `data` (versioning.mdx's wording). */
function versionUnsupported(error: AdcpError): KnownSellerError {
  const sent = own(error, 'details');
  const carrier = isObject(sent) ? sent : own(error, 'data');
  const details = matchDetails(carrier, DETAIL_SHAPES.VERSION_UNSUPPORTED) as VersionUnsupportedDetails | undefined;
  return {
    code: 'VERSION_UNSUPPORTED',
    details,
    commonVersion: details === undefined ? undefined : newestListed(details.supported_versions),
  };
}

/**
 * The typed form of a seller's error, when its code is one of {@link KnownSellerError}'s.
 *
 * @param error - The seller's valid `adcp_error` (a plain copy).
 * @returns The typed error, or `undefined` for any other code.
 * @throws Never (the error is plain data).
 * @example
 * knownSellerError({ code: 'IDEMPOTENCY_IN_FLIGHT', message: 'still running', retry_after: 3 });
 * // { code: 'IDEMPOTENCY_IN_FLIGHT', retryAfterSeconds: 3 }
 */
export function knownSellerError(error: AdcpError): KnownSellerError | undefined {
  switch (error.code) {
    case 'VERSION_UNSUPPORTED':
      return versionUnsupported(error);
    case 'IDEMPOTENCY_CONFLICT':
    case 'IDEMPOTENCY_EXPIRED':
      return { code: error.code };
    case 'IDEMPOTENCY_IN_FLIGHT':
      return { code: error.code, retryAfterSeconds: normalizeRetryAfter(own(error, 'retry_after')) };
    case 'RATE_LIMITED':
    case 'CONFLICT':
    case 'BUDGET_TOO_LOW':
    case 'AUDIENCE_TOO_SMALL':
      // The cast names the arm: matchDetails checked the object against this code's shape.
      return { code: error.code, details: matchDetails(own(error, 'details'), DETAIL_SHAPES[error.code]) } as KnownSellerError;
    default:
      return undefined;
  }
}
