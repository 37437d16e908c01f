/**
 * adcp-decode: turn what an AdCP seller agent sends back (over MCP or A2A) into typed,
 * schema-checked data, or a precise, typed error, before the buyer trusts it.
 */
export { decode, safeDecode, createDecoder, classifyRecovery } from './decode.js';
export type {
  DecodeOptions,
  Decoded,
  DecodeSuccess,
  Decoder,
  Merged,
  ReleaseOf,
  SafeDecodeResult,
  TaskName,
  Transport,
} from './decode.js';
export { extractMcpResponse } from './extract-mcp.js';
export { extractA2aResponse } from './extract-a2a.js';
export { extractMcpError, extractA2aError } from './extract-errors.js';
export { DecodeError, LimitError, SchemaMismatchError, TaskFailedError } from './errors.js';
export type { AdcpError, DecodeErrorCode, Recovery, RecoveryClassification, ValidationIssue } from './errors.js';
export { formatIssues } from './format.js';
export { versions, tasks, defaultVersion } from './versions.js';
export type { NewerRelease, Version } from './versions.js';
export { isFinal } from './final.js';
export type { Final } from './final.js';
export type { Pinned, PinnedDecoder, PinnedOptions, PinnedResult, PinnedTask } from './pinned.js';
export type { AsyncStatus, AsyncVariant, SyncVariant, TaskStatus } from './response-types.js';
export type { ResponsesByVersion } from './generated/index.js';
export { boundedFetch, withFetchBounds, findBoundsError, FETCH_BOUNDS, DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS } from './bounded-fetch.js';
export type { BoundedFetch, BoundedFetchOptions, BoundedRequestInit, BoundsViolation, FetchBounds } from './bounded-fetch.js';
// Every named type of each bundled version, so that a consumer's declaration emit can name what decode() returns.
export type * as v3_1 from './generated/v3_1_19/pinned.js';
export type * as v3_0 from './generated/v3_0_26/pinned.js';
export { decodeTaskStatus } from './polling.js';
export type { PolledTask, PolledTaskOf } from './polling.js';
