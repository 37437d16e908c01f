/**
 * The receiver's `idempotency_key` dedup step (webhooks.mdx, "Reliability"), run after the
 * signature verified and the payload decoded: fingerprint the payload, claim `(sender, key)` in
 * the store, and answer the spec's states: a fresh claim is handed to the application, which
 * commits it with `complete()` once its side effects are durable (or `release()` when they
 * failed), so a failed processing never swallows the sender's retry.
 */
import { describeValue } from '../../errors/errors.js';
import { WebhookError } from '../../errors/webhook-error.js';
import type { DedupClaim, WebhookCrypto } from '../types.js';
import type { DedupState, DedupStore } from './dedup.js';
import { dedupCall } from './dedup-call.js';
import { payloadFingerprint } from './fingerprint.js';

/** The receiver's `dedup` option. */
export interface DedupOptions {
  /** The store: `createRedisDedupStore` (durable, shared), or `createMemoryDedupStore` for tests and one process. */
  readonly store: DedupStore;
  /**
   * How long a binding is kept, in seconds: at least 86,400 (24 h, the spec's floor); raise it to
   * the seller's `webhook_signing.delivery_retry_horizon_seconds` when that is longer.
   */
  readonly retentionSeconds?: number | undefined;
  /**
   * How long a claim holds off identical deliveries (503) while its owner processes it; once it
   * runs out without `complete()` or `release()` (a crash), the next retry takes over. Default 300.
   */
  readonly leaseSeconds?: number | undefined;
}

/** The names the receiver's `dedup` takes (a type test holds it to `keyof DedupOptions`). */
export const DEDUP_OPTION_KEYS = ['store', 'retentionSeconds', 'leaseSeconds'] as const satisfies readonly (keyof DedupOptions)[];

/** The dedup settings a receiver runs with. */
export interface DedupSettings {
  readonly store: DedupStore;
  readonly retentionMs: number;
  readonly leaseMs: number;
  /** The store command deadline (`storeTimeoutMs`). */
  readonly timeoutMs: number;
  readonly subtle: Pick<WebhookCrypto, 'digest'>;
}

const REFUSALS: Partial<Record<DedupState, () => WebhookError>> = {
  processing: () =>
    new WebhookError('webhook_duplicate_in_progress', 'the same delivery is being processed now; the sender retries after the 503'),
  conflict: () =>
    new WebhookError(
      'webhook_idempotency_conflict',
      'this idempotency_key is bound to a different payload from this sender; the first binding is kept, this payload is not processed',
    ),
  rate_abuse: () => new WebhookError('webhook_dedup_rate_abuse', 'the sender has filled its dedup cap (perSenderCap)'),
  full: () =>
    new WebhookError(
      'webhook_dedup_store_unavailable',
      'the dedup store is full (maxBytes); raise its budget or use createRedisDedupStore (the sender may retry)',
    ),
};

function ownerToken(): string {
  let hex = '';
  for (const byte of crypto.getRandomValues(new Uint8Array(16))) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

function settle(settings: DedupSettings, request: { sender: string; key: string; owner: string }, act: 'complete' | 'release') {
  return async (): Promise<void> => {
    const { store } = settings;
    const word = { ...request, retentionMs: settings.retentionMs };
    const done = await dedupCall(() => (act === 'complete' ? store.complete(word) : store.release(word)), settings.timeoutMs, act);
    if (done === true) return;
    if (done !== false)
      throw new WebhookError(
        'webhook_receiver_misconfigured',
        `the dedup store's ${act} must answer a boolean; it answered ${describeValue(done)}`,
      );
    throw new WebhookError(
      'webhook_dedup_lease_expired',
      `${act}() came after the claim's lease ran out and another delivery took it over; raise dedup.leaseSeconds above your processing time`,
    );
  };
}

/**
 * Claims a decoded delivery for processing.
 *
 * @param settings - Store, retention, lease, deadline, WebCrypto.
 * @param sender - The signer's agent.
 * @param idempotencyKey - The envelope's `idempotency_key`.
 * @param payload - The parsed, authenticated body.
 * @returns The claim, for the application to complete or release; `'duplicate'` when this
 *   `(sender, idempotency_key)` was already completed with this payload (answer 2xx, process nothing).
 * @throws {WebhookError} `webhook_duplicate_in_progress` (503),
 *   `webhook_idempotency_conflict` (409), `webhook_dedup_rate_abuse` (429),
 *   `webhook_dedup_store_unavailable` (503), `webhook_receiver_misconfigured` (500).
 * @example
 * const claim = await claimDelivery(settings, hook.signer.agent, hook.idempotencyKey, parsed.value);
 */
export async function claimDelivery(
  settings: DedupSettings,
  sender: string,
  idempotencyKey: string,
  payload: unknown,
): Promise<DedupClaim | 'duplicate'> {
  const fingerprint = await payloadFingerprint(payload, settings.subtle);
  const owner = ownerToken();
  const request = { sender, key: idempotencyKey, fingerprint, owner, leaseMs: settings.leaseMs, retentionMs: settings.retentionMs };
  const state = await dedupCall(() => settings.store.claim(request), settings.timeoutMs, 'claim');
  if (state === 'completed') return 'duplicate';
  if (state !== 'claimed') {
    const refusal = typeof state === 'string' && Object.hasOwn(REFUSALS, state) ? REFUSALS[state as DedupState] : undefined;
    if (refusal !== undefined) throw refusal();
    throw new WebhookError(
      'webhook_receiver_misconfigured',
      `the dedup store's claim must answer a DedupState ('claimed', 'processing', ...); it answered ${describeValue(state)}`,
    );
  }
  const complete = settle(settings, request, 'complete');
  const release = settle(settings, request, 'release');
  let decided: Promise<void> | undefined;
  return {
    sender,
    idempotencyKey,
    fingerprint,
    complete: () => (decided ??= complete()),
    release: () => (decided ??= release()),
  };
}
