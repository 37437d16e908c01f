/**
 * The idempotency key a buyer mints for each new request (security.mdx, "Buyer obligations"): a
 * fresh UUID v4 per `(seller, request)`, from the web-standard `crypto.randomUUID()`.
 */

/**
 * A fresh idempotency key: a UUID v4 (36 characters, within every AdCP task's
 * `^[A-Za-z0-9_.:-]{16,255}$`). Mint one per new request (a first send, a re-plan, a re-read);
 * a network retry resends the encoded request it went into, key and all.
 *
 * @returns A new random UUID v4, e.g. `'3f2b8c1e-9a4d-4e2f-8b7a-1c5d6e7f8a9b'`.
 * @throws Never in a runtime with Web Crypto (Node ≥ 19, browsers in a secure context, workers).
 * @example
 * const request = encode('create_media_buy', { ...plan, idempotency_key: newIdempotencyKey() });
 */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}
