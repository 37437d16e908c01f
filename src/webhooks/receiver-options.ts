/**
 * createWebhookReceiver's options, checked once at creation (a wrong option is `INVALID_OPTION`
 * there, never a raw TypeError on the first webhook) and resolved to the settings `receive()`
 * runs with: every dependency held to its deadline and to the shape of its answers.
 */

import type { Bounds } from '../bounds/bounds.js';
import type { TaskHandle } from '../decode/task-handle.js';
import type { VersionOption } from '../decode/types.js';
import { DecodeError, NO_CONTEXT } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import {
  byteLimit,
  deadlineMs,
  knownOptions,
  optionalFunction,
  optionalMethods,
  optionalObject,
  optionError,
  positiveInteger,
  secretOptionError,
} from '../errors/option-rules.js';
import type { AdcpEventListener } from '../events/events.js';
import { type RegisteredEndpoint, registeredEndpoint } from '../signatures/http/target-uri.js';
import { DEDUP_OPTION_KEYS, type DedupOptions, type DedupSettings } from '../signatures/replay/dedup-claim.js';
import { createMemoryReplayStore, type ReplayStore } from '../signatures/replay/replay.js';
import type { WebhookCrypto } from '../signatures/types.js';
import { checkHmacSecret } from '../signatures/verify/hmac.js';
import { createJwksResolver, JWKS_RESOLVER_OPTION_KEYS, type JwksResolverOptions } from '../signatures/verify/jwks.js';
import type { KeyResolver } from '../signatures/verify/keys.js';
import { createRevocationList, REVOCATION_LIST_OPTION_KEYS, type RevocationListOptions } from '../signatures/verify/revocation.js';
import { DEFAULT_MAX_SIGNATURE_HEADER_BYTES } from '../signatures/verify/signature-headers.js';
import type { ReplayScope, RevocationCheck } from '../signatures/verify/verify.js';
import type { BodyLimits } from './body/request.js';
import { DECODE_WEBHOOK_OPTION_KEYS, type DecodeWebhookOptions, readCall, type WebhookCall } from './decode-webhook.js';
import { type RecentDeliveriesOptions, recentBounds } from './deliveries.js';
import { guardHandles, guardKeys, guardNow, guardReplayStore, guardRevocation, type HandleIds, type HandleLookup } from './dependencies.js';

const WHO = 'createWebhookReceiver';
const OWNER = { who: WHO } as const;

/** Default body bound (webhooks.mdx: receivers SHOULD enforce 1 MB). */
export const DEFAULT_WEBHOOK_MAX_BYTES = 1_000_000;

/** Default deadlines, in milliseconds: the body, one store command, one key or revocation lookup. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;
export const DEFAULT_STORE_TIMEOUT_MS = 2_000;
/** Above the JWKS and revocation-list fetches' own 10 s, so theirs reports first. */
export const DEFAULT_KEYS_TIMEOUT_MS = 15_000;

/** The floor of a dedup binding's retention: webhooks.mdx, at least 24 h. */
export const MIN_DEDUP_RETENTION_SECONDS = 86_400;

/** The legacy HMAC opt-in (deprecated; removed in AdCP 4.0). */
export interface LegacyHmacConfig {
  /** The shared secret, or `[current, previous]` during a rotation (at most 5 minutes). */
  readonly secret: string | readonly [string, string];
  /** The seller agent this secret belongs to (the signer identity to dedupe under). */
  readonly agent: string;
}

/** The names the receiver's `hmac` takes (a type test holds it to `keyof LegacyHmacConfig`). */
export const LEGACY_HMAC_CONFIG_KEYS = ['secret', 'agent'] as const satisfies readonly (keyof LegacyHmacConfig)[];

/** Options of {@link createWebhookReceiver}. */
export interface WebhookReceiverOptions<V extends VersionOption | undefined = VersionOption | undefined> extends DecodeWebhookOptions<V> {
  /** Resolves a `keyid` to its JWK and agent. Either this or `jwks`. */
  readonly keys?: KeyResolver | undefined;
  /** A seller's JWKS URL and agent, fetched with bounds and cached. Either this or `keys`. */
  readonly jwks?: JwksResolverOptions | undefined;
  /**
   * The legacy HMAC-SHA256 scheme, for a registration made with `authentication.credentials`.
   * When set, RFC 9421 signatures are refused (`webhook_mode_mismatch`), and vice versa.
   */
  readonly hmac?: LegacyHmacConfig | undefined;
  /**
   * The URL the buyer registered with the seller (`push_notification_config.url`), or its origin
   * (`https://buyer.example`), whose request path and query then complete each target. Required
   * with `keys` or `jwks`: the signed `@target-uri` and `@authority` are checked against it, never
   * against the request's own `Host` or URL, which a client or a TLS-terminating proxy sets.
   */
  readonly endpoint?: string | URL | undefined;
  /** Longest `Signature-Input`, `Signature` and `Content-Digest` read, each, in bytes. Default 8192. */
  readonly maxSignatureHeaderBytes?: number | undefined;
  /** The `(keyid, nonce)` store. Default: a bounded in-memory store (one process only). */
  readonly replayStore?: ReplayStore | undefined;
  /** The revocation list check (step 9), your own. Or `revocationList`. */
  readonly revocation?: RevocationCheck | undefined;
  /**
   * The signer's revocation list, polled and verified (see `createRevocationList`); its signature
   * is checked with this receiver's `keys` or `jwks` unless you pass `keys`.
   */
  readonly revocationList?: (Omit<RevocationListOptions, 'keys'> & { readonly keys?: KeyResolver | undefined }) | undefined;
  /**
   * `'destination'` scopes the replay key to the canonical `@target-uri` (security.mdx,
   * "Cross-endpoint scoping", option 2); default `'keyid'` (option 1: share one store instead).
   */
  readonly replayScope?: ReplayScope | undefined;
  /** Largest body, in bytes, refused before any digest or parse. Default 1,000,000. */
  readonly maxBodyBytes?: number | undefined;
  /**
   * Deadline for reading a streamed body (a WHATWG `Request`, a `ReadableStream` or an async
   * iterable such as Node's `IncomingMessage`), in ms: past it `webhook_body_timeout` (408) and the
   * stream is cancelled. Default 10,000.
   */
  readonly bodyTimeoutMs?: number | undefined;
  /**
   * Deadline of each replay- and dedup-store command, in ms: past it the receiver fails closed
   * (`webhook_replay_store_unavailable` / `webhook_dedup_store_unavailable`, 503). Default 2,000.
   */
  readonly storeTimeoutMs?: number | undefined;
  /** Deadline of each key resolution and revocation check, in ms (503 past it). Default 15,000. */
  readonly keysTimeoutMs?: number | undefined;
  /**
   * The `idempotency_key` dedup webhooks.mdx makes a MUST: a durable store shared by every
   * endpoint (`createRedisDedupStore`), the retention (at least 24 h) and the processing lease.
   * Without it the application must dedup itself (see the README).
   */
  readonly dedup?: DedupOptions | undefined;
  /**
   * The handle of the task a delivery names, looked up by its verified sender's `agent`, `task_id`
   * and `operation_id` (held to `storeTimeoutMs`): every MCP delivery is then correlated to it.
   * What each mismatch is answered: docs/calling.md, "Task handles: correlating polls and webhooks to the task".
   */
  readonly handles?: HandleLookup | undefined;
  /**
   * What is kept of the recent outcomes for `deliveries(handle)`, so that a wait started after its
   * task's webhook came still reads it: most outcomes (64), their body bytes (8 MiB), their age (10 min).
   */
  readonly recent?: RecentDeliveriesOptions | undefined;
  /** The clock in milliseconds. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /** WebCrypto. Default `crypto.subtle`. */
  readonly subtle?: WebhookCrypto | undefined;
  /**
   * Told once per `receive()`: the delivery received, the duplicate, or the refusal with the code,
   * HTTP status and blame `webhookResponse` answers. What it throws never changes the answer. docs/observability.md.
   */
  readonly onEvent?: AdcpEventListener | undefined;
}

/** Every option createWebhookReceiver takes, by name: its own, and decodeWebhook's (`handle` is refused with the reason). */
const RECEIVER_OPTION_KEYS = [
  'keys',
  'jwks',
  'hmac',
  'endpoint',
  'maxSignatureHeaderBytes',
  'replayStore',
  'revocation',
  'revocationList',
  'replayScope',
  'maxBodyBytes',
  'bodyTimeoutMs',
  'storeTimeoutMs',
  'keysTimeoutMs',
  'dedup',
  'handles',
  'recent',
  'now',
  'subtle',
  'onEvent',
  ...DECODE_WEBHOOK_OPTION_KEYS,
] as const satisfies readonly (keyof WebhookReceiverOptions)[];

/** The receiver's option objects and the names each takes (`recent`'s are read by recentBounds). */
const NESTED_OPTION_KEYS = {
  jwks: JWKS_RESOLVER_OPTION_KEYS,
  revocationList: REVOCATION_LIST_OPTION_KEYS,
  hmac: LEGACY_HMAC_CONFIG_KEYS,
  dedup: DEDUP_OPTION_KEYS,
} as const satisfies { readonly [K in keyof WebhookReceiverOptions]?: readonly string[] };

/** What `receive()` runs with. */
export interface ReceiverSettings {
  /** The guarded key resolver (absent in HMAC mode). */
  readonly keys: KeyResolver | undefined;
  readonly hmac: { readonly secrets: readonly string[]; readonly agent: string } | undefined;
  readonly replayStore: ReplayStore;
  readonly revocation: RevocationCheck | undefined;
  readonly replayScope: ReplayScope | undefined;
  /** The registered endpoint and the header bound of an RFC 9421 receiver (absent in HMAC mode). */
  readonly signature: { readonly endpoint: RegisteredEndpoint; readonly maxSignatureHeaderBytes: number } | undefined;
  readonly body: BodyLimits;
  readonly now: (() => number) | undefined;
  readonly subtle: WebhookCrypto | undefined;
  readonly dedup: DedupSettings | undefined;
  /** The guarded `handles` lookup (storeTimeoutMs), when configured. */
  readonly handles: ((ids: HandleIds) => Promise<TaskHandle | undefined>) | undefined;
  /** decode's options and the route's (format, task type), resolved once, here. */
  readonly decode: WebhookCall;
  /** decode's bounds, `maxBytes` no larger than the body bound. */
  readonly bounds: Bounds;
  /** What deliveries() keeps of the recent outcomes. */
  readonly recent: ReturnType<typeof recentBounds>;
  /** The listener each receive() tells, when given. */
  readonly onEvent: AdcpEventListener | undefined;
}

/** Runs a factory of another module at creation; a TypeError it throws is the caller's option. */
function building<T>(name: string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof DecodeError) throw error;
    throw new DecodeError('INVALID_OPTION', `${WHO}: option ${name}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

/** The legacy HMAC option: its secrets checked (length, not degenerate) and its agent named. */
function hmacSettings(hmac: unknown): ReceiverSettings['hmac'] {
  if (hmac === undefined) return undefined;
  optionalObject(WHO, 'hmac', hmac);
  const { secret, agent } = hmac as { secret: unknown; agent: unknown };
  const secrets =
    typeof secret === 'string' ? [secret] : Array.isArray(secret) && secret.length === 2 ? [...(secret as unknown[])] : undefined;
  if (secrets === undefined || !secrets.every((s) => typeof s === 'string'))
    throw secretOptionError(WHO, 'hmac.secret', 'a string or [current, previous] strings', secret);
  for (const s of secrets as string[]) building('hmac.secret', () => checkHmacSecret(s));
  if (typeof agent !== 'string' || agent.length === 0) throw optionError(WHO, 'hmac.agent', "the seller agent's URL", agent);
  return { secrets: secrets as string[], agent };
}

/** The route's options: a handle is per task (a receiver serves many), an A2A route names its task type. */
function checkRoute(options: WebhookReceiverOptions, call: WebhookCall): void {
  if (options.handle !== undefined)
    throw optionError(
      WHO,
      'handle',
      'left out: a receiver serves many tasks; pass handles, a lookup by task_id and operation_id',
      options.handle,
    );
  if (call.format === 'a2a' && call.taskType === undefined)
    throw optionError(WHO, 'taskType', 'set for an A2A route (A2A push bodies do not name their task)', call.taskType);
  if (options.handles !== undefined && call.format === 'a2a')
    throw new DecodeError(
      'INVALID_OPTION',
      `${WHO}: option handles correlates MCP task webhooks; it cannot serve format 'a2a' (A2A push bodies name the A2A transport task, not an AdCP task_id)`,
    );
}

/**
 * The signature options of an RFC 9421 receiver: the registered endpoint, canonical (its absence is
 * refused: a target built from `Host` is the sender's to choose), and the header bound.
 */
function signatureSettings(options: WebhookReceiverOptions): ReceiverSettings['signature'] {
  if (options.hmac !== undefined) return undefined;
  const { endpoint } = options;
  const maxSignatureHeaderBytes =
    byteLimit('maxSignatureHeaderBytes', options.maxSignatureHeaderBytes, OWNER) ?? DEFAULT_MAX_SIGNATURE_HEADER_BYTES;
  if (endpoint === undefined)
    throw new DecodeError(
      'INVALID_OPTION',
      `${WHO}: option endpoint is required with keys or jwks: the URL (or origin) registered with the seller, e.g. endpoint: 'https://buyer.example'`,
    );
  if (typeof endpoint !== 'string' && !(endpoint instanceof URL)) throw optionError(WHO, 'endpoint', 'a URL string or URL', endpoint);
  try {
    return { endpoint: registeredEndpoint(String(endpoint)), maxSignatureHeaderBytes };
  } catch (cause) {
    throw new DecodeError(
      'INVALID_OPTION',
      `${WHO}: option endpoint must be an absolute http(s) URL or origin; got "${shownText(String(endpoint), 80)}"`,
      {
        cause,
      },
    );
  }
}

/** The dedup option: store, retention (at least 24 h) and lease. */
function dedupSettings(dedup: unknown, timeoutMs: number, subtle: WebhookCrypto | undefined): DedupSettings | undefined {
  if (dedup === undefined) return undefined;
  optionalObject(WHO, 'dedup', dedup);
  const { store, retentionSeconds, leaseSeconds } = dedup as DedupOptions;
  optionalMethods(WHO, 'dedup.store', store ?? null, ['claim', 'complete', 'release']);
  const retention = positiveInteger(WHO, 'dedup.retentionSeconds', retentionSeconds, MIN_DEDUP_RETENTION_SECONDS);
  if (retention < MIN_DEDUP_RETENTION_SECONDS)
    throw optionError(WHO, 'dedup.retentionSeconds', `at least ${MIN_DEDUP_RETENTION_SECONDS} (24 h, webhooks.mdx)`, retentionSeconds);
  const lease = positiveInteger(WHO, 'dedup.leaseSeconds', leaseSeconds, 300);
  return { store, retentionMs: retention * 1000, leaseMs: lease * 1000, timeoutMs, subtle: subtle ?? crypto.subtle };
}

/** Checks every option's type; the values that need more are checked where they are resolved. */
function checkShapes(options: WebhookReceiverOptions): void {
  if (options === undefined) throw optionError(WHO, 'options', 'an object', options);
  knownOptions(WHO, options, RECEIVER_OPTION_KEYS);
  for (const name of ['jwks', 'revocationList', 'hmac', 'dedup'] as const)
    knownOptions(WHO, options[name], NESTED_OPTION_KEYS[name], NO_CONTEXT, name);
  for (const name of ['keys', 'revocation', 'now', 'handles', 'onEvent'] as const) optionalFunction(WHO, name, options[name]);
  optionalMethods(WHO, 'replayStore', options.replayStore, ['capReached', 'claim']);
  optionalMethods(WHO, 'subtle', options.subtle, ['digest', 'verify', 'importKey', 'sign']);
  const scope = options.replayScope;
  if (scope !== undefined && scope !== 'keyid' && scope !== 'destination')
    throw optionError(WHO, 'replayScope', "'keyid' or 'destination'", scope);
  if (options.hmac !== undefined && (options.keys !== undefined || options.jwks !== undefined))
    throw new DecodeError(
      'INVALID_OPTION',
      `${WHO}: hmac selects the legacy scheme; it cannot be combined with keys or jwks (mode selection is a switch)`,
    );
  if (options.hmac === undefined && (options.keys === undefined) === (options.jwks === undefined))
    throw new DecodeError('INVALID_OPTION', `${WHO}: exactly one of keys or jwks is required (or hmac for the legacy scheme)`);
  if (options.revocation !== undefined && options.revocationList !== undefined)
    throw new DecodeError('INVALID_OPTION', `${WHO}: pass revocation or revocationList, not both`);
}

/** The key resolver and the revocation check, built and guarded. */
function keySources(options: WebhookReceiverOptions, now: (() => number) | undefined, keysTimeoutMs: number) {
  const { jwks, revocationList } = options;
  if (jwks !== undefined && (typeof jwks.agent !== 'string' || jwks.agent.length === 0))
    throw optionError(WHO, 'jwks.agent', "the seller agent's URL", jwks.agent);
  const keys = options.keys ?? (jwks === undefined ? undefined : building('jwks', () => createJwksResolver(jwks)));
  const listKeys = revocationList?.keys ?? keys;
  if (revocationList !== undefined && listKeys === undefined)
    throw new DecodeError('INVALID_OPTION', `${WHO}: revocationList needs keys to verify the list (this receiver has none)`);
  const revocation =
    revocationList === undefined || listKeys === undefined
      ? options.revocation
      : building(
          'revocationList',
          () =>
            createRevocationList({
              ...revocationList,
              keys: listKeys,
              now: revocationList.now ?? now,
            }).check,
        );
  return {
    keys: keys === undefined ? undefined : guardKeys(keys, keysTimeoutMs),
    revocation: revocation === undefined ? undefined : guardRevocation(revocation, keysTimeoutMs),
  };
}

/**
 * Checks a receiver's options and resolves them.
 *
 * @param options - The receiver's options (decode's among them).
 * @returns The settings.
 * @throws {DecodeError} `INVALID_OPTION` (or `UNSUPPORTED_VERSION`) for any option that is wrong.
 * @example
 * const settings = receiverSettings({ keys, maxBodyBytes: 500_000 });
 */
export function receiverSettings(options: WebhookReceiverOptions): ReceiverSettings {
  checkShapes(options);
  const {
    keys: _k,
    jwks: _j,
    hmac,
    replayStore,
    revocation: _r,
    revocationList: _l,
    replayScope,
    endpoint: _e,
    maxSignatureHeaderBytes: _m,
    maxBodyBytes,
    bodyTimeoutMs,
    storeTimeoutMs,
    keysTimeoutMs,
    dedup,
    handles,
    recent,
    now,
    subtle,
    onEvent,
    handle: _h,
    ...decodeOptions
  } = options;
  const decode = readCall(decodeOptions, WHO, DECODE_WEBHOOK_OPTION_KEYS);
  checkRoute(options, decode);
  const maxBytes = byteLimit('maxBodyBytes', maxBodyBytes, OWNER) ?? DEFAULT_WEBHOOK_MAX_BYTES;
  const body = { maxBytes, timeoutMs: deadlineMs('bodyTimeoutMs', bodyTimeoutMs, OWNER) ?? DEFAULT_BODY_TIMEOUT_MS };
  const storeMs = deadlineMs('storeTimeoutMs', storeTimeoutMs, OWNER) ?? DEFAULT_STORE_TIMEOUT_MS;
  const clock = now === undefined ? undefined : guardNow(now);
  const sources = keySources(options, clock, deadlineMs('keysTimeoutMs', keysTimeoutMs, OWNER) ?? DEFAULT_KEYS_TIMEOUT_MS);
  // The body is never larger than the parse bound either.
  const decodeBounds = decode.options;
  const store = replayStore ?? createMemoryReplayStore(clock === undefined ? {} : { now: clock });
  return {
    ...sources,
    hmac: hmacSettings(hmac),
    replayStore: guardReplayStore(store, storeMs),
    replayScope,
    signature: signatureSettings(options),
    body,
    now: clock,
    subtle,
    dedup: dedupSettings(dedup, storeMs, subtle),
    handles: handles === undefined ? undefined : guardHandles(handles, storeMs),
    decode,
    bounds: { maxDepth: decodeBounds.maxDepth, maxNodes: decodeBounds.maxNodes, maxBytes: Math.min(decodeBounds.maxBytes, maxBytes) },
    recent: recentBounds(recent),
    onEvent,
  };
}
