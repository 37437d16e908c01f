/**
 * Type tests, run by tsc (`npm run typecheck`): in every public entry that takes options, an options
 * literal is held to the entry's option names, so a misspelt one is a compile error (TypeScript's
 * excess-property check, with its "Did you mean"), nested option objects included; and beside each,
 * the same call spelt right compiles, so the error is the name's and nothing else's.
 * test/options/unknown-options.test.ts holds the same names at run time.
 */
import type { Client as A2aSdkClient } from '@a2a-js/sdk-v1/client';
import type { Client as McpSdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { expectTypeOf } from 'vitest';
import * as a2a from '../../src/a2a/index.js';
import type { FETCH_BOUNDS_KEYS, FetchBounds } from '../../src/bounds/fetch-bounds.js';
import type { RETRY_OPTION_KEYS } from '../../src/call/retry.js';
import type { BOUNDED_FETCH_OPTION_KEYS, BoundedFetchOptions } from '../../src/fetch/bounded-fetch.js';
import { type BoundedFetch, boundedFetch, FETCH_BOUNDS, withFetchBounds } from '../../src/fetch/index.js';
import * as v31 from '../../src/generated/v3_1/pinned.js';
import {
  type AdcpError,
  classifyRecovery,
  createDecoder,
  type Decoded,
  decode,
  decoderFor,
  decodeTaskStatus,
  type Encoded,
  encode,
  extractMcpError,
  extractMcpResponse,
  safeDecode,
  safeEncode,
  type TaskHandle,
  taskHandle,
} from '../../src/index.js';
import * as mcp from '../../src/mcp/index.js';
import type { CLASSIFY_RECOVERY_OPTION_KEYS, ClassifyRecoveryOptions } from '../../src/schema/recovery.js';
import type { REMOTE_DOCUMENT_OPTION_KEYS, RemoteDocumentOptions } from '../../src/signatures/remote-document.js';
import type { ADMISSION_TRACKING_OPTION_KEYS } from '../../src/signatures/replay/admissions.js';
import type { MEMORY_DEDUP_STORE_OPTION_KEYS } from '../../src/signatures/replay/dedup.js';
import type { DEDUP_OPTION_KEYS } from '../../src/signatures/replay/dedup-claim.js';
import type { REDIS_DEDUP_STORE_OPTION_KEYS } from '../../src/signatures/replay/dedup-redis.js';
import type { MEMORY_BUDGET_OPTION_KEYS, MemoryBudgetOptions } from '../../src/signatures/replay/memory-bytes.js';
import type { REDIS_REPLAY_STORE_OPTION_KEYS } from '../../src/signatures/replay/redis.js';
import type { MEMORY_REPLAY_STORE_OPTION_KEYS } from '../../src/signatures/replay/replay.js';
import {
  createRequestSigner,
  type PrivateJwk,
  type RequestSignerOptions,
  type SigningPolicyOptions,
  withRequestSigning,
} from '../../src/signatures/sign/index.js';
import type { REQUEST_SIGNER_OPTION_KEYS } from '../../src/signatures/sign/options.js';
import type { SIGNING_POLICY_OPTION_KEYS } from '../../src/signatures/sign/policy.js';
import type { LEGACY_HMAC_OPTION_KEYS } from '../../src/signatures/verify/hmac.js';
import type { JWKS_RESOLVER_OPTION_KEYS } from '../../src/signatures/verify/jwks.js';
import type { REVOCATION_LIST_OPTION_KEYS } from '../../src/signatures/verify/revocation.js';
import type { VERIFY_SIGNATURE_OPTION_KEYS } from '../../src/signatures/verify/verify.js';
import type { RECENT_DELIVERIES_OPTION_KEYS } from '../../src/webhooks/deliveries.js';
import {
  type AdmissionTrackingOptions,
  createJwksResolver,
  createMemoryDedupStore,
  createMemoryReplayStore,
  createRedisDedupStore,
  createRedisReplayStore,
  createRevocationList,
  createWebhookReceiver,
  type DedupOptions,
  type DedupStore,
  decodeWebhook,
  type JwksResolverOptions,
  type KeyResolver,
  type LegacyHmacConfig,
  type LegacyHmacOptions,
  type MemoryDedupStoreOptions,
  type MemoryReplayStoreOptions,
  type RecentDeliveriesOptions,
  type RedisCommandClient,
  type RedisDedupStoreOptions,
  type RedisReplayStoreOptions,
  type ReplayStore,
  type RevocationListOptions,
  type VerifiableRequest,
  type VerifySignatureOptions,
  verifyLegacyHmac,
  verifyWebhookSignature,
  type WebhookReceiverOptions,
} from '../../src/webhooks/index.js';
import type { LEGACY_HMAC_CONFIG_KEYS } from '../../src/webhooks/receiver-options.js';

declare const result: unknown;
declare const adcpError: AdcpError;
declare const mcpClient: McpSdkClient;
declare const a2aClient: A2aSdkClient;
declare const handle: TaskHandle<'create_media_buy', string>;
declare const answer: Decoded<'create_media_buy'>;
declare const answer31: v31.Response<'create_media_buy'>;
declare const jwk: PrivateJwk;
declare const capabilities: SigningPolicyOptions['capabilities'];
declare const keys: KeyResolver;
declare const replayStore: ReplayStore;
declare const dedupStore: DedupStore;
declare const client: RedisCommandClient;
declare const request: VerifiableRequest;
declare const headers: ReadonlyMap<string, string>;
declare const body: Uint8Array;
declare const bounded: BoundedFetch;
const brief = { buying_mode: 'brief', brief: 'CTV in Q3' } as const;
const url = 'https://seller.example/.well-known/jwks.json';
const agent = 'https://seller.example/mcp';
const endpoint = 'https://buyer.example';

// --- adcp-decode ----------------------------------------------------------------------------------

decode('get_products', result, { maxBytes: 1024 });
// @ts-expect-error maxbytes is not an option of decode
decode('get_products', result, { maxbytes: 1024 });
safeDecode('get_products', result, { version: '3.1', maxDepth: 8 });
// @ts-expect-error maxDept is not an option of safeDecode
safeDecode('get_products', result, { version: '3.1', maxDept: 8 });
const decoder = createDecoder({ maxNodes: 1000 });
// @ts-expect-error maxNode is not an option of createDecoder
createDecoder({ maxNode: 1000 });
decoder.decode('get_products', result, { version: '3.0' });
// @ts-expect-error verison is not an option of a decoder's decode
decoder.decode('get_products', result, { verison: '3.0' });
decoder.safeDecode('get_products', result, { unknownRecovery: 'terminal' });
// @ts-expect-error unknownRecoverey is not an option of a decoder's safeDecode
decoder.safeDecode('get_products', result, { unknownRecoverey: 'terminal' });
decoder.encode('get_products', brief, { maxBytes: 4096 });
// @ts-expect-error maxByte is not an option of a decoder's encode
decoder.encode('get_products', brief, { maxByte: 4096 });
decoder.safeEncode('get_products', brief, { maxDepth: 16 });
// @ts-expect-error maxdepth is not an option of a decoder's safeEncode
decoder.safeEncode('get_products', brief, { maxdepth: 16 });
const seller = decoderFor(result, { maxBytes: 65_536 });
// @ts-expect-error maxbytes is not an option of decoderFor
decoderFor(result, { maxbytes: 65_536 });
seller.decode('get_products', result, { maxNodes: 500 });
// @ts-expect-error maxnodes is not an option of a seller decoder's decode
seller.decode('get_products', result, { maxnodes: 500 });
encode('get_products', brief, { version: '3.1' });
// @ts-expect-error verison is not an option of encode
encode('get_products', brief, { verison: '3.1' });
safeEncode('get_products', brief, { maxNodes: 100 });
// @ts-expect-error maxNode is not an option of safeEncode
safeEncode('get_products', brief, { maxNode: 100 });
taskHandle('create_media_buy', answer, { agent });
// @ts-expect-error agnet is not an option of taskHandle
taskHandle('create_media_buy', answer, { agnet: agent });
decodeTaskStatus(result, { handle });
// @ts-expect-error handel is not an option of decodeTaskStatus
decodeTaskStatus(result, { handel: handle });
decodeTaskStatus(result, { maxBytes: 2048 });
// @ts-expect-error maxByte is not an option of decodeTaskStatus
decodeTaskStatus(result, { maxByte: 2048 });
extractMcpResponse(result, { maxBytes: 2048 });
// @ts-expect-error maxbytes is not an option of extractMcpResponse
extractMcpResponse(result, { maxbytes: 2048 });
extractMcpError(result, { maxBytes: 2048 });
// @ts-expect-error maxBites is not an option of extractMcpError
extractMcpError(result, { maxBites: 2048 });
classifyRecovery(adcpError, '3.1', { unknownRecovery: 'terminal' });
// @ts-expect-error unknownrecovery is not an option of classifyRecovery
classifyRecovery(adcpError, '3.1', { unknownrecovery: 'terminal' });

// --- adcp-decode/3.1 ------------------------------------------------------------------------------

v31.decode('get_products', result, { maxBytes: 1024 });
// @ts-expect-error maxbytes is not an option of the pinned decode
v31.decode('get_products', result, { maxbytes: 1024 });
v31.safeDecode('get_products', result, { maxDepth: 8 });
// @ts-expect-error maxDept is not an option of the pinned safeDecode
v31.safeDecode('get_products', result, { maxDept: 8 });
v31.encode('get_products', brief, { maxBytes: 4096 });
// @ts-expect-error maxByte is not an option of the pinned encode
v31.encode('get_products', brief, { maxByte: 4096 });
v31.safeEncode('get_products', brief, { maxNodes: 100 });
// @ts-expect-error maxnodes is not an option of the pinned safeEncode
v31.safeEncode('get_products', brief, { maxnodes: 100 });
const pinned = v31.createDecoder({ maxNodes: 1000 });
// @ts-expect-error maxNode is not an option of the pinned createDecoder
v31.createDecoder({ maxNode: 1000 });
pinned.decode('get_products', result, { unknownRecovery: 'transient' });
// @ts-expect-error unknownRecovry is not an option of a pinned decoder's decode
pinned.decode('get_products', result, { unknownRecovry: 'transient' });
pinned.encode('get_products', brief, { maxDepth: 16 });
// @ts-expect-error maxDepht is not an option of a pinned decoder's encode
pinned.encode('get_products', brief, { maxDepht: 16 });
v31.decodeTaskStatus(result, { maxBytes: 2048 });
// @ts-expect-error maxbytes is not an option of the pinned decodeTaskStatus
v31.decodeTaskStatus(result, { maxbytes: 2048 });
v31.taskHandle('create_media_buy', answer31, { agent });
// @ts-expect-error agnet is not an option of the pinned taskHandle
v31.taskHandle('create_media_buy', answer31, { agnet: agent });
v31.classifyRecovery(adcpError, { unknownRecovery: 'manifest' });
// @ts-expect-error unknownRecoveries is not an option of the pinned classifyRecovery
v31.classifyRecovery(adcpError, { unknownRecoveries: 'manifest' });

// --- adcp-decode/fetch ----------------------------------------------------------------------------

boundedFetch({ maxBytes: 8_388_608, onLimit: () => undefined });
// @ts-expect-error maxbytes is not an option of boundedFetch
boundedFetch({ maxbytes: 8_388_608 });
await withFetchBounds({ timeoutMs: 5_000 }, async () => 1);
// @ts-expect-error timeoutMS is not a bound of withFetchBounds
await withFetchBounds({ timeoutMS: 5_000 }, async () => 1);
await bounded(url, { [FETCH_BOUNDS]: { maxBytes: 1024 } });
// @ts-expect-error maxbytes is not a per-call bound
await bounded(url, { [FETCH_BOUNDS]: { maxbytes: 1024 } });

// --- adcp-decode/sign -----------------------------------------------------------------------------

const signer = createRequestSigner({ key: jwk, keyid: 'buyer-2026', alg: 'ed25519', validitySeconds: 60 });
// @ts-expect-error validitySecond is not an option of createRequestSigner
createRequestSigner({ key: jwk, keyid: 'buyer-2026', alg: 'ed25519', validitySecond: 60 });
withRequestSigning(fetch, signer, { capabilities, sign: 'supported' });
// @ts-expect-error signs is not an option of withRequestSigning
withRequestSigning(fetch, signer, { capabilities, signs: 'supported' });

// --- adcp-decode/webhooks -------------------------------------------------------------------------

decodeWebhook('{}', { version: '3.1' });
// @ts-expect-error verison is not an option of decodeWebhook
decodeWebhook('{}', { verison: '3.1' });
decodeWebhook('{}', { handle });
// @ts-expect-error handles is not an option of decodeWebhook (handle is)
decodeWebhook('{}', { handles: handle });
createWebhookReceiver({ keys, endpoint, replayStore });
// @ts-expect-error replaystore is not an option of createWebhookReceiver
createWebhookReceiver({ keys, endpoint, replaystore: replayStore });
createWebhookReceiver({ endpoint, jwks: { url, agent, cacheTtlMs: 60_000 } });
// @ts-expect-error cacheTTLMs is not an option of the receiver's jwks
createWebhookReceiver({ endpoint, jwks: { url, agent, cacheTTLMs: 60_000 } });
createWebhookReceiver({ keys, endpoint, revocationList: { url, issuer: agent, retryCooldownMs: 60_000 } });
// @ts-expect-error retryCooldown is not an option of the receiver's revocationList
createWebhookReceiver({ keys, endpoint, revocationList: { url, issuer: agent, retryCooldown: 60_000 } });
createWebhookReceiver({ hmac: { secret: 'a'.repeat(40), agent } });
// @ts-expect-error secrets is not an option of the receiver's hmac (secret is)
createWebhookReceiver({ hmac: { secrets: ['a'.repeat(40)], agent } });
createWebhookReceiver({ keys, endpoint, dedup: { store: dedupStore, leaseSeconds: 60 } });
// @ts-expect-error leaseSecs is not an option of the receiver's dedup
createWebhookReceiver({ keys, endpoint, dedup: { store: dedupStore, leaseSecs: 60 } });
createWebhookReceiver({ keys, endpoint, recent: { count: 16, ageMs: 60_000 } });
// @ts-expect-error ageMS is not an option of the receiver's recent
createWebhookReceiver({ keys, endpoint, recent: { count: 16, ageMS: 60_000 } });
createMemoryReplayStore({ perKeyidCap: 10_000, admissionWindowMs: 60_000 });
// @ts-expect-error perKeyIdCap is not an option of createMemoryReplayStore
createMemoryReplayStore({ perKeyIdCap: 10_000 });
// @ts-expect-error admissionWindow is not an option of createMemoryReplayStore's admission tracking
createMemoryReplayStore({ admissionWindow: 60_000 });
createRedisReplayStore({ client, prefix: 'hooks:', maxKnownKeyids: 1000 });
// @ts-expect-error prefx is not an option of createRedisReplayStore
createRedisReplayStore({ client, prefx: 'hooks:' });
// @ts-expect-error maxKnownKeyIds is not an option of createRedisReplayStore's admission tracking
createRedisReplayStore({ client, maxKnownKeyIds: 1000 });
createMemoryDedupStore({ perSenderCap: 1000, maxBytes: 1_048_576 });
// @ts-expect-error perSenderCapacity is not an option of createMemoryDedupStore
createMemoryDedupStore({ perSenderCapacity: 1000 });
createRedisDedupStore({ client, perSenderCap: 1000 });
// @ts-expect-error persenderCap is not an option of createRedisDedupStore
createRedisDedupStore({ client, persenderCap: 1000 });
createJwksResolver({ url, agent, negativeCacheMs: 30_000 });
// @ts-expect-error negativeCacheMS is not an option of createJwksResolver
createJwksResolver({ url, agent, negativeCacheMS: 30_000 });
createRevocationList({ url, issuer: agent, keys, timeoutMs: 5_000 });
// @ts-expect-error timeout is not an option of createRevocationList
createRevocationList({ url, issuer: agent, keys, timeout: 5_000 });
await verifyWebhookSignature(request, { keys, replayStore, endpoint, replayScope: 'destination' });
// @ts-expect-error replayscope is not an option of verifyWebhookSignature
await verifyWebhookSignature(request, { keys, replayStore, endpoint, replayscope: 'destination' });
await verifyLegacyHmac(headers, body, { secrets: ['a'.repeat(40)] });
// @ts-expect-error secret is not an option of verifyLegacyHmac (secrets is)
await verifyLegacyHmac(headers, body, { secret: 'a'.repeat(40) });

// --- adcp-decode/mcp ------------------------------------------------------------------------------

await mcp.callTask(mcpClient, 'get_products', brief, { retry: { attempts: 3 } });
// @ts-expect-error retries is not an option of callTask (retry is)
await mcp.callTask(mcpClient, 'get_products', brief, { retries: 3 });
// @ts-expect-error timeoutMS is not an option of callTask
await mcp.callTask(mcpClient, 'get_products', brief, { timeoutMS: 5_000 });
// @ts-expect-error attempt is not an option of callTask's retry
await mcp.callTask(mcpClient, 'get_products', brief, { retry: { attempt: 3 } });
await mcp.safeCallTask(mcpClient, 'get_products', brief, { timeoutMs: 5_000 });
// @ts-expect-error timeoutMS is not an option of safeCallTask
await mcp.safeCallTask(mcpClient, 'get_products', brief, { timeoutMS: 5_000 });
declare const encoded: Encoded<'get_products', { version: '3.1' }>;
await mcp.callTask(mcpClient, encoded, { timeoutMs: 5_000 });
// @ts-expect-error timeoutMS is not an option of callTask given an encoded request
await mcp.callTask(mcpClient, encoded, { timeoutMS: 5_000 });
await mcp.waitForTask(mcpClient, handle, { intervalMs: 500 });
// @ts-expect-error intervalMS is not an option of waitForTask
await mcp.waitForTask(mcpClient, handle, { intervalMS: 500 });

// --- adcp-decode/a2a ------------------------------------------------------------------------------

await a2a.callTask(a2aClient, 'get_products', brief, { maxBytes: 65_536 });
// @ts-expect-error maxbytes is not an option of callTask
await a2a.callTask(a2aClient, 'get_products', brief, { maxbytes: 65_536 });
await a2a.safeCallTask(a2aClient, 'get_products', brief, { stream: true });
// @ts-expect-error streaming is not an option of safeCallTask (stream is)
await a2a.safeCallTask(a2aClient, 'get_products', brief, { streaming: true });
await a2a.streamTask(a2aClient, 'get_products', brief, { retry: { attempts: 2 } });
// @ts-expect-error retry.sleeps is not an option of streamTask's retry
await a2a.streamTask(a2aClient, 'get_products', brief, { retry: { attempts: 2, sleeps: async () => undefined } });
await a2a.waitForTask(a2aClient, handle, { maxFailures: 3 });
// @ts-expect-error maxFailure is not an option of waitForTask
await a2a.waitForTask(a2aClient, handle, { maxFailure: 3 });

// --- every key list is its option type's names --------------------------------------------------
// The run-time check reads these lists: a name added to an option type and left out of its list
// would be refused at run time though it compiles, and one left in after it is gone would pass unread.

expectTypeOf<(typeof FETCH_BOUNDS_KEYS)[number]>().toEqualTypeOf<keyof FetchBounds>();
expectTypeOf<(typeof BOUNDED_FETCH_OPTION_KEYS)[number]>().toEqualTypeOf<keyof BoundedFetchOptions>();
expectTypeOf<(typeof REQUEST_SIGNER_OPTION_KEYS)[number]>().toEqualTypeOf<keyof RequestSignerOptions>();
expectTypeOf<(typeof SIGNING_POLICY_OPTION_KEYS)[number]>().toEqualTypeOf<keyof SigningPolicyOptions>();
expectTypeOf<(typeof ADMISSION_TRACKING_OPTION_KEYS)[number]>().toEqualTypeOf<keyof AdmissionTrackingOptions>();
expectTypeOf<(typeof MEMORY_BUDGET_OPTION_KEYS)[number]>().toEqualTypeOf<keyof MemoryBudgetOptions>();
expectTypeOf<(typeof MEMORY_REPLAY_STORE_OPTION_KEYS)[number]>().toEqualTypeOf<keyof MemoryReplayStoreOptions>();
expectTypeOf<(typeof REDIS_REPLAY_STORE_OPTION_KEYS)[number]>().toEqualTypeOf<keyof RedisReplayStoreOptions>();
expectTypeOf<(typeof MEMORY_DEDUP_STORE_OPTION_KEYS)[number]>().toEqualTypeOf<keyof MemoryDedupStoreOptions>();
expectTypeOf<(typeof REDIS_DEDUP_STORE_OPTION_KEYS)[number]>().toEqualTypeOf<keyof RedisDedupStoreOptions>();
expectTypeOf<(typeof REMOTE_DOCUMENT_OPTION_KEYS)[number]>().toEqualTypeOf<keyof RemoteDocumentOptions>();
expectTypeOf<(typeof JWKS_RESOLVER_OPTION_KEYS)[number]>().toEqualTypeOf<keyof JwksResolverOptions>();
expectTypeOf<(typeof REVOCATION_LIST_OPTION_KEYS)[number]>().toEqualTypeOf<keyof RevocationListOptions>();
expectTypeOf<(typeof REVOCATION_LIST_OPTION_KEYS)[number]>().toEqualTypeOf<keyof NonNullable<WebhookReceiverOptions['revocationList']>>();
expectTypeOf<(typeof VERIFY_SIGNATURE_OPTION_KEYS)[number]>().toEqualTypeOf<keyof VerifySignatureOptions>();
expectTypeOf<(typeof LEGACY_HMAC_OPTION_KEYS)[number]>().toEqualTypeOf<keyof LegacyHmacOptions>();
expectTypeOf<(typeof LEGACY_HMAC_CONFIG_KEYS)[number]>().toEqualTypeOf<keyof LegacyHmacConfig>();
expectTypeOf<(typeof DEDUP_OPTION_KEYS)[number]>().toEqualTypeOf<keyof DedupOptions>();
expectTypeOf<(typeof RECENT_DELIVERIES_OPTION_KEYS)[number]>().toEqualTypeOf<keyof RecentDeliveriesOptions>();
expectTypeOf<(typeof RETRY_OPTION_KEYS)[number]>().toEqualTypeOf<keyof mcp.RetryOptions>();
expectTypeOf<(typeof CLASSIFY_RECOVERY_OPTION_KEYS)[number]>().toEqualTypeOf<keyof ClassifyRecoveryOptions>();
expectTypeOf<(typeof CLASSIFY_RECOVERY_OPTION_KEYS)[number]>().toEqualTypeOf<keyof NonNullable<Parameters<typeof classifyRecovery>[2]>>();
expectTypeOf<(typeof CLASSIFY_RECOVERY_OPTION_KEYS)[number]>().toEqualTypeOf<
  keyof NonNullable<Parameters<typeof v31.classifyRecovery>[1]>
>();
