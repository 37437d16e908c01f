/**
 * adcp-decode/webhooks: verified, decoded AdCP webhooks (the RFC 9421 webhook profile, the legacy
 * HMAC fallback on opt-in, replay stores, revocation lists) and decodeWebhook() for bodies
 * verified elsewhere.
 * Web-standard APIs only (WebCrypto, fetch, streams), so it runs in Node, Workers and browsers.
 * What a receiver calls, and no more: defaults are documented numbers, building blocks stay inside.
 */

export type { TaskHandle, TaskHandleFields } from '../decode/task-handle.js';
export { TaskMismatchError } from '../errors/errors.js';
export type { WebhookBlame, WebhookErrorCode } from '../errors/webhook-error.js';
export { WebhookError } from '../errors/webhook-error.js';
export type { CanonicalTarget } from '../signatures/http/target-uri.js';
export type {
  DedupClaimRequest,
  DedupSettleRequest,
  DedupState,
  DedupStore,
  MemoryDedupStore,
  MemoryDedupStoreOptions,
} from '../signatures/replay/dedup.js';
export { createMemoryDedupStore } from '../signatures/replay/dedup.js';
export type { DedupOptions } from '../signatures/replay/dedup-claim.js';
export type { RedisDedupStoreOptions } from '../signatures/replay/dedup-redis.js';
export { createRedisDedupStore } from '../signatures/replay/dedup-redis.js';
export type { RedisReplayStoreOptions } from '../signatures/replay/redis.js';
export { createRedisReplayStore } from '../signatures/replay/redis.js';
export type { RedisCommandClient } from '../signatures/replay/redis-client.js';
export type {
  AdmissionTrackingOptions,
  MemoryReplayStore,
  MemoryReplayStoreOptions,
  NewKeyidAdmission,
  ReplayClaim,
  ReplayStore,
} from '../signatures/replay/replay.js';
export { createMemoryReplayStore } from '../signatures/replay/replay.js';
export type { DedupClaim, WebhookCrypto } from '../signatures/types.js';
export type { LegacyHmacOptions } from '../signatures/verify/hmac.js';
export { verifyLegacyHmac } from '../signatures/verify/hmac.js';
export type { JwksResolverOptions } from '../signatures/verify/jwks.js';
// JwksError, RevocationListError and TargetUriError stay inside: the verifier maps each to a WebhookError.
export { createJwksResolver } from '../signatures/verify/jwks.js';
export type { KeyResolver, ResolvedKey, WebhookAlg, WebhookJwk } from '../signatures/verify/keys.js';
export type { RevocationList, RevocationListOptions } from '../signatures/verify/revocation.js';
export { createRevocationList } from '../signatures/verify/revocation.js';
export type {
  ReplayScope,
  RevocationCheck,
  RevocationStatus,
  VerifiableRequest,
  VerifySignatureOptions,
  WebhookSigner,
} from '../signatures/verify/verify.js';
export { verifyWebhookSignature } from '../signatures/verify/verify.js';
// A webhook service that imports only this entry preloads its tasks' validators from it (bundles, workers).
export { preload } from '../validate/preload.js';
export type { DuplicateKeys } from './body/duplicate-keys.js';
export type { HeaderRecord, IncomingWebhook, PlainWebhookRequest, RawBody } from './body/request.js';
export type {
  DecodedWebhook,
  DecodedWebhookFor,
  DecodedWebhookOf,
  DecodeWebhookOptions,
  WebhookData,
  WebhookResultTask,
  WebhookTaskTypeIn,
} from './decode-webhook.js';
export { decodeWebhook } from './decode-webhook.js';
export type { HandleIds, HandleLookup } from './dependencies.js';
export type { WebhookEnvelope, WebhookFormat, WebhookStatus, WebhookTaskType } from './envelope.js';
export { detectWebhookFormat, extractWebhookPayload } from './envelope.js';
export type { WebhookFailure, WebhookResponseInit } from './errors.js';
export { WebhookTaskFailedError, webhookResponse } from './errors.js';
export type {
  ReceivedDuplicate,
  ReceivedSigner,
  ReceivedTaskFailure,
  ReceivedWebhook,
  WebhookOutcome,
  WebhookReceiver,
} from './receiver.js';
export { createWebhookReceiver } from './receiver.js';
export type { LegacyHmacConfig, WebhookReceiverOptions } from './receiver-options.js';
