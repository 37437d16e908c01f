/**
 * adcp-decode's portable core, for browsers, workers and bundles: decode, the extractors and
 * the errors, on web-standard APIs only. Validators load through {@link preload}.
 */
export { decode, safeDecode, createDecoder } from './decode/decode.js';
export type { DecodeOptions, Decoded, DecodeSuccess, Decoder, Merged, ReleaseOf, SafeDecodeResult, TaskName } from './decode/types.js';
export type { Transport } from './decode/options.js';
export { classifyRecovery } from './schema/recovery.js';
export { preload } from './validate/validators.js';
export { extractMcpResponse } from './extract/mcp.js';
export { extractA2aResponse } from './extract/a2a.js';
export { extractMcpError, extractA2aError } from './extract/errors.js';
export { DecodeError, LimitError, SchemaMismatchError, TaskFailedError } from './errors/errors.js';
export type { AdcpError, DecodeErrorCode, Recovery, RecoveryClassification, ValidationIssue } from './errors/errors.js';
export { formatIssues } from './errors/format.js';
export { versions, tasks, defaultVersion } from './schema/versions.js';
export type { NewerRelease, Version } from './schema/versions.js';
export { isFinal } from './decode/final.js';
export type { Final } from './decode/final.js';
export type { Pinned, PinnedDecoder, PinnedOptions, PinnedResult, PinnedTask } from './decode/pinned.js';
export type { AsyncStatus, AsyncVariant, SyncVariant, TaskStatus } from './schema/response-types.js';
export type { ResponsesByVersion } from './generated/index.js';
export { decodeTaskStatus } from './decode/polling.js';
export type { PolledTask, PolledTaskOf } from './decode/polling.js';
// Every named type of each bundled version, so that a consumer's declaration emit can name what decode() returns.
export type * as v3_1 from './generated/v3_1_19/pinned.js';
export type * as v3_0 from './generated/v3_0_26/pinned.js';
export { decoderFor } from './decode/capabilities.js';
export type { SellerDecoder } from './decode/capabilities.js';
export type { SentRequest } from './decode/sent-request.js';
export { NoCommonVersionError, VersionMismatchError } from './errors/errors.js';
export type {
  AudienceTooSmallDetails,
  BudgetTooLowDetails,
  ConflictDetails,
  KnownSellerError,
  RateLimitedDetails,
  VersionUnsupportedDetails,
} from './errors/seller-errors.js';
