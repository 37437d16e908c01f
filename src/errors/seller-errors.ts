/**
 * The seller errors the spec gives a meaning or data for, as types: what `TaskFailedError.known`
 * holds (extract/seller-errors.ts reads them from the seller's `adcp_error`). Beside the errors
 * because TaskFailedError carries them; typed by the generated version list, which ranks here.
 */
import type { Version } from '../generated/versions.js';

/** `error-details/version-unsupported.json`: the releases the seller speaks, to re-pin and retry. */
export interface VersionUnsupportedDetails {
  /** Release-precision versions the seller speaks (`["3.0", "3.1"]`); authoritative for a retry. */
  readonly supported_versions: readonly [string, ...string[]];
  /** Deprecated: the majors the seller speaks. */
  readonly supported_majors?: readonly number[];
  /** Advisory build (`"3.1.2+vendor.42"`); never for negotiation. */
  readonly build_version?: string;
  /** The release the buyer declared, echoed. */
  readonly adcp_version?: string;
  /** The major the buyer declared, echoed. */
  readonly adcp_major_version?: number;
}

/** `error-details/rate-limited.json`. */
export interface RateLimitedDetails {
  readonly limit?: number;
  readonly remaining?: number;
  readonly window_seconds?: number;
  readonly scope?: 'account' | 'tool' | 'global';
}

/** `error-details/conflict.json`: re-read the resource at `current_version` and retry. */
export interface ConflictDetails {
  readonly resource_id?: string;
  readonly expected_version?: number | string;
  readonly current_version?: number | string;
}

/** `error-details/budget-too-low.json`. */
export interface BudgetTooLowDetails {
  readonly minimum_budget?: number;
  readonly currency?: string;
}

/** `error-details/audience-too-small.json`. */
export interface AudienceTooSmallDetails {
  readonly minimum_size?: number;
  readonly current_size?: number;
}

/** A seller error whose code the spec gives a meaning or data for; narrow on `code`. */
export type KnownSellerError =
  | {
      /** The seller cannot honour the request's `adcp_version` / `adcp_major_version`. */
      readonly code: 'VERSION_UNSUPPORTED';
      /** From `details` (error.json), else `data` (versioning.mdx's wording), when it matches the shape. */
      readonly details: VersionUnsupportedDetails | undefined;
      /** The newest bundled version whose release the seller lists: pin to it and stamp its release; `undefined` when none. */
      readonly commonVersion: Version | undefined;
    }
  /** The key was used with a different payload: mint a fresh key for a new request, or resend the original bytes. */
  | { readonly code: 'IDEMPOTENCY_CONFLICT' }
  /** The key is past the seller's replay window: check by a natural key whether the first call succeeded before resending. */
  | { readonly code: 'IDEMPOTENCY_EXPIRED' }
  /**
   * The first request with this key is still running: retry with the SAME key after `retryAfterSeconds`
   * (the seller's `retry_after`, rounded up and clamped to 1-3600 s), never a fresh one.
   */
  | { readonly code: 'IDEMPOTENCY_IN_FLIGHT'; readonly retryAfterSeconds: number | undefined }
  | { readonly code: 'RATE_LIMITED'; readonly details: RateLimitedDetails | undefined }
  | { readonly code: 'CONFLICT'; readonly details: ConflictDetails | undefined }
  | { readonly code: 'BUDGET_TOO_LOW'; readonly details: BudgetTooLowDetails | undefined }
  | { readonly code: 'AUDIENCE_TOO_SMALL'; readonly details: AudienceTooSmallDetails | undefined };
