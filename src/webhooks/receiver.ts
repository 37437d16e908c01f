/**
 * createWebhookReceiver(): the whole receiving side in the spec's order. Size (413) and content
 * type (415) before anything is hashed; then the RFC 9421 webhook verifier checklist, or the
 * legacy HMAC scheme when (and only when) a secret was configured; then duplicate keys and the
 * bounded, prototype-safe parse; then the envelope and the result, decoded as decode() would.
 */
import type { VersionFor } from '../decode/decode.js';
import type { Version } from '../schema/versions.js';
import { boundsOf, decodeWebhookValue, type DecodedWebhook, type DecodeWebhookOptions } from './decode-webhook.js';
import { WebhookError } from './errors.js';
import { parseWebhookBody, bodyText } from './body/body.js';
import { checkHmacSecret, verifyLegacyHmac } from './signature/hmac.js';
import { createJwksResolver, type JwksResolverOptions } from './signature/jwks.js';
import type { KeyResolver } from './signature/keys.js';
import { createMemoryReplayStore, type ReplayStore } from './replay/replay.js';
import { createRevocationList, type RevocationListOptions } from './signature/revocation.js';
import { checkContentType, readWebhookRequest, type IncomingWebhook } from './body/request.js';
import { DEFAULT_MAX_SIGNATURE_HEADER_BYTES } from './signature/signature-headers.js';
import { registeredEndpoint, type RegisteredEndpoint } from './signature/target-uri.js';
import { shownText } from '../errors/format.js';
import {
  verifyWebhookSignature,
  type ReplayScope,
  type RevocationCheck,
  type WebhookCrypto,
  type WebhookSigner,
} from './signature/verify.js';

/** Default body bound (webhooks.mdx: receivers SHOULD enforce 1 MB). */
export const DEFAULT_WEBHOOK_MAX_BYTES = 1_000_000;

/** Who signed a received webhook: an RFC 9421 key, or the legacy HMAC secret. */
export type ReceivedSigner =
  | WebhookSigner
  | { readonly keyid: 'hmac-current' | 'hmac-previous'; readonly alg: 'hmac-sha256'; readonly agent: string };

/** A received, verified, decoded webhook (judged by version(s) `V`): narrow on `taskType` to type `data`. */
export type ReceivedWebhook<V extends Version = Version> = DecodedWebhook<V> & { readonly signer: ReceivedSigner };

/** The legacy HMAC opt-in (deprecated; removed in AdCP 4.0). */
export interface LegacyHmacConfig {
  /** The shared secret, or `[current, previous]` during a rotation (at most 5 minutes). */
  readonly secret: string | readonly [string, string];
  /** The seller agent this secret belongs to (the signer identity to dedupe under). */
  readonly agent: string;
}

/** Options of {@link createWebhookReceiver}. */
export interface WebhookReceiverOptions extends DecodeWebhookOptions {
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
  /** The clock in milliseconds. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /** WebCrypto. Default `crypto.subtle`. */
  readonly subtle?: WebhookCrypto | undefined;
}

/** A configured receiver, whose webhooks are judged by version(s) `V`. */
export interface WebhookReceiver<V extends Version = Version> {
  /**
   * Verifies and decodes one webhook request.
   *
   * @throws {WebhookError} The refusal, with `webhookCode` and `httpStatus` (see `webhookResponse`).
   * @throws {WebhookTaskFailedError} A verified webhook reporting a failed task (answer 2xx).
   * @throws {DecodeError} A verified webhook whose result does not decode (`SCHEMA_MISMATCH`, ...).
   */
  receive(request: IncomingWebhook): Promise<ReceivedWebhook<V>>;
}

function optionError(message: string): TypeError {
  return new TypeError(`createWebhookReceiver: ${message}`);
}

/** The revocation check: the caller's own, or a polled list verified with the list's keys or the receiver's. */
function revocationOf(
  custom: RevocationCheck | undefined,
  list: WebhookReceiverOptions['revocationList'],
  keys: KeyResolver | undefined,
  now: (() => number) | undefined,
): RevocationCheck | undefined {
  if (list === undefined) return custom;
  const listKeys = list.keys ?? keys;
  if (listKeys === undefined) throw optionError('revocationList needs keys to verify the list (this receiver has none)');
  return createRevocationList({ ...list, keys: listKeys, now: list.now ?? now }).check;
}

/**
 * The signature options of an RFC 9421 receiver: the endpoint, canonical (its absence is refused:
 * a target built from `Host` is the sender's to choose), and the header bound.
 */
function signatureOptions(options: Pick<WebhookReceiverOptions, 'endpoint' | 'maxSignatureHeaderBytes'>): {
  endpoint: RegisteredEndpoint;
  maxSignatureHeaderBytes: number;
} {
  const { endpoint, maxSignatureHeaderBytes = DEFAULT_MAX_SIGNATURE_HEADER_BYTES } = options;
  if (!Number.isSafeInteger(maxSignatureHeaderBytes) || maxSignatureHeaderBytes < 1)
    throw optionError('maxSignatureHeaderBytes must be a positive integer');
  if (endpoint === undefined)
    throw optionError(
      "endpoint is required with keys or jwks: the URL (or origin) registered with the seller, e.g. endpoint: 'https://buyer.example'",
    );
  try {
    return { endpoint: registeredEndpoint(String(endpoint)), maxSignatureHeaderBytes };
  } catch {
    throw optionError(`endpoint must be an absolute http(s) URL or origin; got "${shownText(String(endpoint), 80)}"`);
  }
}

/**
 * Creates a webhook receiver for one registration mode (RFC 9421 or, on opt-in, legacy HMAC).
 *
 * @param options - Key resolution (`keys` or `jwks`), or `hmac`; replay store, revocation, bounds;
 *   a `version` (`'3.0'`, `'3.1.19'`) judges every webhook by that version and types `data` by it alone.
 * @returns The receiver.
 * @throws {TypeError} For a missing key source, a weak HMAC secret or an invalid bound.
 * @example
 * const receiver = createWebhookReceiver({ jwks: { url: sellerJwksUri, agent: sellerAgentUrl }, replayStore });
 * const hook = await receiver.receive(request); // { taskType, taskId, status, data, signer, ... }
 */
export function createWebhookReceiver<O extends WebhookReceiverOptions>(options: O): WebhookReceiver<VersionFor<O>> {
  const {
    keys: customKeys,
    jwks,
    hmac,
    replayStore,
    revocation: customRevocation,
    revocationList,
    replayScope,
    endpoint,
    maxSignatureHeaderBytes,
    maxBodyBytes = DEFAULT_WEBHOOK_MAX_BYTES,
    now,
    subtle,
    ...decodeOptions
  } = options;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) throw optionError('maxBodyBytes must be a positive integer');
  if (replayScope !== undefined && replayScope !== 'keyid' && replayScope !== 'destination')
    throw optionError("replayScope must be 'keyid' or 'destination'");
  const secrets = hmac === undefined ? undefined : typeof hmac.secret === 'string' ? [hmac.secret] : [...hmac.secret];
  for (const secret of secrets ?? []) checkHmacSecret(secret);
  if (hmac !== undefined && (customKeys !== undefined || jwks !== undefined))
    throw optionError('hmac selects the legacy scheme; it cannot be combined with keys or jwks (mode selection is a switch)');
  if (hmac === undefined && (customKeys === undefined) === (jwks === undefined))
    throw optionError('exactly one of keys or jwks is required (or hmac for the legacy scheme)');
  const signature = hmac === undefined ? signatureOptions({ endpoint, maxSignatureHeaderBytes }) : undefined;
  if (customRevocation !== undefined && revocationList !== undefined) throw optionError('pass revocation or revocationList, not both');
  const keys = customKeys ?? (jwks === undefined ? undefined : createJwksResolver(jwks));
  const revocation = revocationOf(customRevocation, revocationList, keys, now);
  const store = replayStore ?? createMemoryReplayStore(now === undefined ? {} : { now });
  // The body is never larger than the parse bound either.
  const decodeBounds = boundsOf(decodeOptions);
  const bounds = { ...decodeBounds, maxBytes: Math.min(decodeBounds.maxBytes, maxBodyBytes) };

  return {
    async receive(request) {
      const read = await readWebhookRequest(request, maxBodyBytes);
      checkContentType(read.headers);
      const signed9421 = read.headers.has('signature-input') || read.headers.has('signature');
      const signedHmac = read.headers.has('x-adcp-signature') || read.headers.has('x-adcp-timestamp');
      let signer: ReceivedSigner;
      if (secrets !== undefined && hmac !== undefined) {
        if (signed9421)
          throw new WebhookError(
            'webhook_mode_mismatch',
            'this registration uses the legacy HMAC scheme; the webhook carries an RFC 9421 signature',
          );
        if (!signedHmac)
          throw new WebhookError(
            'webhook_signature_required',
            'expected X-ADCP-Signature and X-ADCP-Timestamp (legacy HMAC registration); got neither',
          );
        const which = await verifyLegacyHmac(read.headers, read.body, { secrets, now, subtle });
        signer = { keyid: which === 0 ? 'hmac-current' : 'hmac-previous', alg: 'hmac-sha256', agent: hmac.agent };
      } else {
        if (signedHmac && !signed9421)
          throw new WebhookError(
            'webhook_mode_mismatch',
            'this registration uses RFC 9421 signatures; the webhook carries the legacy HMAC headers',
          );
        signer = await verifyWebhookSignature(read, {
          keys: keys as KeyResolver,
          replayStore: store,
          revocation,
          replayScope,
          ...signature,
          now,
          subtle,
        });
      }
      // Step 14 (duplicate keys) and the secure parse run only on an authenticated body.
      const parsed = parseWebhookBody(bodyText(read.body), bounds);
      const decoded = decodeWebhookValue(parsed.value, decodeOptions, parsed.shape, signer);
      // The version option fixed the schemas that judged the body, so its version is in VersionFor<O>.
      return { ...decoded, signer } as ReceivedWebhook<VersionFor<O>>;
    },
  };
}
