/** Signed requests at a fixed clock, and what a receiver made of one: the outcome, or the error, each with its answer. */
import { type WebhookOutcome, type WebhookResponseInit, webhookResponse } from '../../src/webhooks/index.js';
import { BUYER_ORIGIN, ed25519, HOOK_URL, resolver } from './fixtures.js';
import { type SignOptions, signWebhook } from './signer.js';

/** The clock every receiver of these tests runs at (seconds). */
export const NOW = 1_776_520_800;
export const nowMs = (): number => NOW * 1000;

/** What every receiver of these tests starts from: the test keys, the fixed clock (one place to add a required option). */
export const RECEIVER_BASE = { endpoint: BUYER_ORIGIN, keys: resolver, now: nowMs } as const;

/** A plain request as Node `http` hands it over, signed for HOOK_URL a few seconds before NOW. */
export interface PlainRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

export async function signedRequest(body: string | Uint8Array, extra: Partial<SignOptions> = {}): Promise<PlainRequest> {
  const signed = await signWebhook({ key: ed25519, url: HOOK_URL, body, created: NOW - 5, ...extra });
  return { method: 'POST', url: HOOK_URL, headers: { host: 'buyer.example.com', ...signed.headers }, body: signed.body };
}

export type Outcome =
  | { readonly ok: true; readonly hook: WebhookOutcome; readonly answer: WebhookResponseInit }
  | { readonly ok: false; readonly error: unknown; readonly answer: WebhookResponseInit };

/** The outcome, when it is the one of `kind` the test expects; any other fails the test, saying which it was. */
export function outcomeOf<K extends WebhookOutcome['kind'], O extends WebhookOutcome>(kind: K, received: O): Extract<O, { kind: K }> {
  if (received.kind !== kind) throw new Error(`expected a ${kind} outcome; receive() resolved ${received.kind}`);
  return received as Extract<O, { kind: K }>;
}

/** The delivery receive() resolved (a `delivered` outcome), or the test fails. */
export async function delivered<O extends WebhookOutcome>(promise: Promise<O>): Promise<Extract<O, { kind: 'delivered' }>> {
  return outcomeOf('delivered', await promise);
}

export async function outcome(promise: Promise<WebhookOutcome>): Promise<Outcome> {
  return promise.then(
    (hook) => ({ ok: true, hook, answer: webhookResponse(hook) }) as const,
    (error: unknown) => ({ ok: false, error, answer: webhookResponse(error) }) as const,
  );
}

/** The status class a blame must be answered with (errors.ts): only the delivery's fault is 4xx. */
export function statusFits(blame: WebhookResponseInit['blame'], status: number): boolean {
  switch (blame) {
    case 'delivery':
      return status >= 400 && status < 500;
    case 'dependency':
      return status === 503;
    case 'configuration':
    case 'internal':
      return status === 500;
    case 'none':
      return status === 200 || status === 503;
  }
}
