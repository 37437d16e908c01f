/**
 * adcp-decode's portable core, for browsers, workers and bundles: decode, the extractors and
 * the errors, on web-standard APIs only. Validators load through {@link preload}.
 */
export { decode, safeDecode, createDecoder, classifyRecovery } from './decode.js';
export type {
  DecodeOptions,
  Decoded,
  DecodeSuccess,
  Decoder,
  ReleaseOf,
  SafeDecodeResult,
  TaskName,
  Transport,
} from './decode.js';
export { preload } from './validators.js';
export { extractMcpResponse } from './extract-mcp.js';
export { extractA2aResponse } from './extract-a2a.js';
export { extractMcpError, extractA2aError } from './extract-errors.js';
export { DecodeError, LimitError, SchemaMismatchError, TaskFailedError } from './errors.js';
export type { AdcpError, DecodeErrorCode, Recovery, RecoveryClassification, ValidationIssue } from './errors.js';
export { formatIssues } from './format.js';
export { versions, tasks, defaultVersion } from './versions.js';
export type { Version } from './versions.js';
export type { AsyncStatus, AsyncVariant, SyncVariant } from './response-types.js';
export type { ResponsesByVersion } from './generated/index.js';
