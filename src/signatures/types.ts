/**
 * The types that signatures/replay/, signatures/verify/ and webhooks/ share, at the bottom of
 * signatures/ so that each can name them without importing the others.
 */

/** The WebCrypto operations the verifier uses; injectable so tests can count them. */
export type WebhookCrypto = Pick<typeof crypto.subtle, 'digest' | 'verify' | 'importKey' | 'sign'>;

/**
 * A delivery's claim on its `(sender, idempotency_key)`, held by the application. The first of
 * `complete()` and `release()` decides; later calls return its promise.
 */
export interface DedupClaim {
  /** The authenticated sender the key is scoped to (the signer's agent). */
  readonly sender: string;
  readonly idempotencyKey: string;
  /** The payload's canonical fingerprint (SHA-256 of its JCS form, Base64URL). */
  readonly fingerprint: string;
  /**
   * Commits the delivery as processed: call it once the side effects are done or durably
   * enqueued, before answering 2xx. Later identical deliveries are answered 200 for the retention.
   *
   * @throws {WebhookError} `webhook_dedup_lease_expired` when processing outlasted the lease and
   *   another delivery took over; `webhook_dedup_store_unavailable` when the store failed (answer 503).
   */
  complete(): Promise<void>;
  /** Gives the claim up after a failed processing, so the sender's retry processes it again. */
  release(): Promise<void>;
}
