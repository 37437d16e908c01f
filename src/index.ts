/**
 * adcp-decode: turn what an AdCP seller agent sends back (over MCP or A2A) into typed,
 * schema-checked data, or a precise, typed error, before the buyer trusts it.
 *
 * The same API on every runtime, on web-standard APIs only (the bounded fetch, Node-only, is at
 * `adcp-decode/fetch`). Validators load on first use where the runtime can (Node), else through
 * {@link preload}: src/validate/validators.ts imports `#validator-loader`, which package.json#imports
 * resolves by the runtime's conditions.
 */

export { type CapabilitiesCheck, decoderFor, type SellerDecoder } from './decode/capabilities.js';
export { createDecoder, decode, safeDecode } from './decode/decode.js';
export { extra } from './decode/extra.js';
export { type Final, isFinal } from './decode/final.js';
// Task handles: a submitted or working answer's task, to correlate its polls and webhooks.
export { taskHandle } from './decode/handle-of.js';
export type {
  Pinned,
  PinnedDecoder,
  PinnedOptions,
  PinnedPolledTaskFor,
  PinnedResult,
  PinnedTask,
  PinnedTaskStatusOptions,
} from './decode/pinned.js';
export { decodeTaskStatus, type PolledTask, type PolledTaskFor, type PolledTaskOf, type TaskStatusOptions } from './decode/polling.js';
export type { TaskHandle, TaskHandleFields, TaskHandleOptions } from './decode/task-handle.js';
export type { Decoded, DecodeOptions, Decoder, DecodeSuccess, Merged, ReleaseOf, SafeDecodeResult, TaskName } from './decode/types.js';
// The request half: encode, the idempotency key, and the request types by version.
export { encode, safeEncode } from './encode/encode.js';
export { newIdempotencyKey } from './encode/idempotency.js';
// The request types, all public: EncodedRequest, Frozen, the bounds and the pinned encoder's.
export type * from './encode/request.js';
export type { Encoded, EncodeOptions, Encoder, EncodeVersionFor, RequestIn, RequestTask, SafeEncodeResult } from './encode/types.js';
export {
  type AdcpError,
  DecodeError,
  type DecodeErrorCode,
  LimitError,
  NoCommonVersionError,
  type Recovery,
  type RecoveryClassification,
  RequestError,
  type RequestFault,
  SchemaMismatchError,
  TaskFailedError,
  TaskMismatchError,
  type ValidationIssue,
  VersionMismatchError,
} from './errors/errors.js';
export { formatIssues } from './errors/format.js';
// The seller errors' types, all public: KnownSellerError and its details.
export type * from './errors/seller-errors.js';
export { extractA2aResponse } from './extract/a2a.js';
export { extractA2aError, extractMcpError } from './extract/errors.js';
export { extractMcpResponse } from './extract/mcp.js';
// What the types know of each release, by version: a generated release module augments each.
export type { KnownReleases, ResponsesByVersion, ResultsByVersion, TaskTypesByVersion } from './generated/index.js';
export type { RequestsByVersion } from './generated/requests.js';
export type * as v3_0 from './generated/v3_0/pinned.js';
// Every named type of each bundled version, so that a consumer's declaration emit can name what decode() returns.
export type * as v3_1 from './generated/v3_1/pinned.js';
export type { Transport } from './options/options.js';
export type { SentRequest } from './options/sent-request.js';
export { classifyRecovery } from './schema/recovery.js';
// Releases as data: what a generated release module defines, and the releases this process speaks.
export type { AdcpRelease, ReleaseEnvelope, ReleaseFiles, RequestRow, TaskStatusPoll, ToolFacts } from './schema/release.js';
export { defineRelease, knownReleases } from './schema/releases.js';
export type { AsyncStatus, AsyncVariant, SyncVariant, TaskStatus } from './schema/response-types.js';
export { defaultVersion, type NewerRelease, tasks, type Version, versions } from './schema/versions.js';
export { preload } from './validate/preload.js';
