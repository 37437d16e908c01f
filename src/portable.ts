/**
 * adcp-decode's portable core, for browsers, workers and bundles: decode, the extractors and
 * the errors, on web-standard APIs only. Validators load through {@link preload}.
 */
export { decode, safeDecode, createDecoder } from './decode.js';
export type { DecodeOptions, Decoded, DecodeSuccess, Decoder, Merged, ReleaseOf, SafeDecodeResult, TaskName } from './decode/types.js';
export type { Transport } from './options.js';
export { classifyRecovery } from './recovery.js';
export { preload } from './validators.js';
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
export { decodeTaskStatus } from './polling.js';
export type { PolledTask, PolledTaskOf } from './polling.js';
// Every named type of each bundled version, so that a consumer's declaration emit can name what decode() returns.
export type * as v3_1 from './generated/v3_1_19/pinned.js';
export type * as v3_0 from './generated/v3_0_26/pinned.js';
