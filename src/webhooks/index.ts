/**
 * adcp-decode/webhooks: verified, decoded AdCP webhooks (the RFC 9421 webhook profile, the legacy
 * HMAC fallback on opt-in, replay stores, revocation lists) and decodeWebhook() for bodies
 * verified elsewhere.
 * Web-standard APIs only (WebCrypto, fetch, streams), so it runs in Node, Workers and browsers.
 * What a receiver calls, and no more: defaults are documented numbers, building blocks stay inside.
 */

export type { TaskHandle, TaskHandleFields } from '../decode/task-handle.js';
export { TaskMismatchError } from '../errors/errors.js';
export { type WebhookBlame, WebhookError, type WebhookErrorCode } from '../errors/webhook-error.js';
export type { AdcpEvent, AdcpEventListener, EventRefusal, WebhookEvent } from '../events/events.js';
export type { DuplicateKeys } from '../json/duplicate-keys.js';
export type { CanonicalTarget } from '../signatures/http/target-uri.js';
export {
  createMemoryDedupStore,
  type DedupClaimRequest,
  type DedupSettleRequest,
  type DedupState,
  type DedupStore,
  type MemoryDedupStore,
  type MemoryDedupStoreOptions,
} from '../signatures/replay/dedup.js';
export type { DedupOptions } from '../signatures/replay/dedup-claim.js';
export { createRedisDedupStore, type RedisDedupStoreOptions } from '../signatures/replay/dedup-redis.js';
export { createRedisReplayStore, type RedisReplayStoreOptions } from '../signatures/replay/redis.js';
export type { RedisCommandClient } from '../signatures/replay/redis-client.js';
export {
  type AdmissionTrackingOptions,
  createMemoryReplayStore,
  type MemoryReplayStore,
  type MemoryReplayStoreOptions,
  type NewKeyidAdmission,
  type ReplayClaim,
  type ReplayStore,
} from '../signatures/replay/replay.js';
export type { DedupClaim, WebhookCrypto } from '../signatures/types.js';
export { type LegacyHmacOptions, verifyLegacyHmac } from '../signatures/verify/hmac.js';
export { createJwksResolver, type JwksResolverOptions } from '../signatures/verify/jwks.js';
// JwksError, RevocationListError and TargetUriError stay inside: the verifier maps each to a WebhookError.
export type { KeyResolver, ResolvedKey, WebhookAlg, WebhookJwk } from '../signatures/verify/keys.js';
export { createRevocationList, type RevocationList, type RevocationListOptions } from '../signatures/verify/revocation.js';
export {
  type ReplayScope,
  type RevocationCheck,
  type RevocationStatus,
  type VerifiableRequest,
  type VerifySignatureOptions,
  verifyWebhookSignature,
  type WebhookSigner,
} from '../signatures/verify/verify.js';
// A webhook service that imports only this entry preloads its tasks' validators from it (bundles, workers).
export { preload } from '../validate/preload.js';
export type { HeaderRecord, IncomingWebhook, PlainWebhookRequest, RawBody } from './body/request.js';
export {
  type DecodedWebhook,
  type DecodedWebhookFor,
  type DecodedWebhookOf,
  type DecodeWebhookOptions,
  decodeWebhook,
  type WebhookData,
  type WebhookTaskTypeIn,
} from './decode-webhook.js';
export type { RecentDeliveriesOptions } from './deliveries.js';
export type { HandleIds, HandleLookup } from './dependencies.js';
export {
  detectWebhookFormat,
  extractWebhookPayload,
  type WebhookEnvelope,
  type WebhookFormat,
  type WebhookStatus,
  type WebhookTaskType,
} from './envelope.js';
export { type WebhookFailure, type WebhookResponseInit, WebhookTaskFailedError, webhookResponse } from './errors.js';
export {
  createWebhookReceiver,
  type ReceivedDuplicate,
  type ReceivedSigner,
  type ReceivedTaskFailure,
  type ReceivedWebhook,
  type WebhookOutcome,
  type WebhookReceiver,
} from './receiver.js';
export type { LegacyHmacConfig, WebhookReceiverOptions } from './receiver-options.js';
