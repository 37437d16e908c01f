/**
 * The receiver's dependencies (key resolver, revocation check, replay store, clock, handles lookup) held to a
 * deadline and to the shape of their answers, so that a dependency that throws, hangs or answers
 * nonsense fails closed as a fault of the receiver's side (5xx), never as the sender's (4xx), and
 * never lets a webhook through.
 */

import { readHandle, type TaskHandle, type TaskHandleFields } from '../decode/task-handle.js';
import { DecodeError, describeThrown, describeValue } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { WebhookError } from '../errors/webhook-error.js';
import { call } from '../signatures/deadline.js';
import type { ReplayClaim, ReplayStore } from '../signatures/replay/replay.js';
import type { KeyResolver, ResolvedKey } from '../signatures/verify/keys.js';
import type { RevocationCheck, RevocationStatus } from '../signatures/verify/verify.js';

function misconfigured(message: string): WebhookError {
  return new WebhookError('webhook_receiver_misconfigured', message);
}

function keysUnavailable(why: string, cause?: unknown): WebhookError {
  return new WebhookError(
    'webhook_signature_jwks_unavailable',
    `the key resolver ${why}; check the seller's JWKS endpoint or your keys function (the sender may retry)`,
    { cause },
  );
}

function isResolvedKey(value: unknown): value is ResolvedKey {
  if (typeof value !== 'object' || value === null) return false;
  const { jwk, agent } = value as Record<string, unknown>;
  return typeof jwk === 'object' && jwk !== null && !Array.isArray(jwk) && typeof agent === 'string' && agent.length > 0;
}

/**
 * The key resolver held to `ms` and to its contract: `{ jwk, agent }` or `undefined`.
 *
 * @param keys - The resolver (yours, or the JWKS one).
 * @param ms - The deadline (`keysTimeoutMs`).
 * @returns The guarded resolver; it rejects with `webhook_signature_jwks_unavailable` (503) or
 *   `webhook_receiver_misconfigured` (500), never with the sender's fault.
 * @example
 * const keys = guardKeys(options.keys, 15_000);
 */
export function guardKeys(keys: KeyResolver, ms: number): KeyResolver {
  return async (keyid) => {
    const resolved: unknown = await call(() => keys(keyid), ms, keysUnavailable, 'keysTimeoutMs');
    let ok: boolean;
    try {
      ok = resolved === undefined || isResolvedKey(resolved);
    } catch {
      ok = false;
    }
    if (!ok)
      throw misconfigured(
        `the key resolver must answer { jwk, agent } (a JWK object and the agent's URL) or undefined for keyid "${shownText(keyid, 64)}"; it answered ${describeValue(resolved)}`,
      );
    return resolved as ResolvedKey | undefined;
  };
}

const REVOCATION_STATUSES: readonly unknown[] = ['valid', 'revoked', 'stale'] satisfies RevocationStatus[];

/**
 * The revocation check held to `ms` and to its contract: `'valid'`, `'revoked'` or `'stale'`
 * (anything else would be read as valid, letting a revoked key through).
 *
 * @param check - The revocation check (yours, or the polled list's).
 * @param ms - The deadline (`keysTimeoutMs`).
 * @returns The guarded check.
 * @example
 * const revocation = guardRevocation(list.check, 15_000);
 */
export function guardRevocation(check: RevocationCheck, ms: number): RevocationCheck {
  return async (keyid) => {
    const unavailable = (why: string, cause?: unknown): WebhookError =>
      new WebhookError('webhook_signature_jwks_unavailable', `the revocation check ${why}; the sender may retry`, { cause });
    const status: unknown = await call(() => check(keyid), ms, unavailable, 'keysTimeoutMs');
    if (!REVOCATION_STATUSES.includes(status))
      throw misconfigured(`the revocation check must answer 'valid', 'revoked' or 'stale'; it answered ${describeValue(status)}`);
    return status as RevocationStatus;
  };
}

function storeUnavailable(why: string, cause?: unknown): WebhookError {
  return new WebhookError(
    'webhook_replay_store_unavailable',
    `the replay store ${why}; the receiver fails closed: check that the store (Redis) is reachable and not blocked (the sender may retry)`,
    { cause },
  );
}

const REPLAY_CLAIMS: readonly unknown[] = ['claimed', 'replayed', 'rate_abuse'] satisfies ReplayClaim[];

/**
 * The replay store held to `ms` per command and to its contract (`capReached` a boolean, `claim`
 * one of `'claimed'`, `'replayed'`, `'rate_abuse'`): a blocked store fails closed (503).
 *
 * @param store - The store.
 * @param ms - The command deadline (`storeTimeoutMs`).
 * @returns The guarded store.
 * @example
 * const replayStore = guardReplayStore(createRedisReplayStore({ client }), 2_000);
 */
export function guardReplayStore(store: ReplayStore, ms: number): ReplayStore {
  return {
    async capReached(keyid) {
      const reached: unknown = await call(() => store.capReached(keyid), ms, storeUnavailable, 'storeTimeoutMs');
      if (typeof reached !== 'boolean')
        throw misconfigured(`the replay store's capReached must answer a boolean; it answered ${describeValue(reached)}`);
      return reached;
    },
    async claim(keyid, nonce, ttlSeconds, destination) {
      const claim: unknown = await call(
        () => (destination === undefined ? store.claim(keyid, nonce, ttlSeconds) : store.claim(keyid, nonce, ttlSeconds, destination)),
        ms,
        storeUnavailable,
        'storeTimeoutMs',
      );
      if (!REPLAY_CLAIMS.includes(claim))
        throw misconfigured(
          `the replay store's claim must answer 'claimed', 'replayed' or 'rate_abuse'; it answered ${describeValue(claim)}`,
        );
      return claim as ReplayClaim;
    },
    newKeyidAdmissions: () => store.newKeyidAdmissions(),
  };
}

/**
 * The clock held to its contract, a finite number of milliseconds (a NaN would open every
 * signature window).
 *
 * @param now - The clock.
 * @returns The guarded clock; it throws `webhook_receiver_misconfigured`.
 * @example
 * const clock = guardNow(options.now ?? Date.now);
 */
export function guardNow(now: () => number): () => number {
  return () => {
    const t: unknown = now();
    if (typeof t !== 'number' || !Number.isFinite(t))
      throw misconfigured(`the now option must return finite milliseconds; it returned ${describeValue(t)}`);
    return t;
  };
}

/**
 * What the receiver's `handles` lookup is asked: the verified sender, and the delivery's `task_id`
 * and `operation_id` (absent in a 3.0 envelope that omits it). Key your store by `agent` and
 * `taskId`: two sellers may both name a task `task_1`.
 */
export interface HandleIds {
  /** The signer's agent URL, from key resolution (or `hmac.agent`), never from the payload. */
  readonly agent: string;
  readonly taskId: string;
  readonly operationId: string | undefined;
}

/** The receiver's `handles` option: the handle of the task a delivery names, or `undefined` when none is known. */
export type HandleLookup = (ids: HandleIds) => TaskHandleFields | undefined | Promise<TaskHandleFields | undefined>;

/**
 * The `handles` lookup held to `ms` and to its contract (a handle's fields, or `undefined`): a
 * lookup that throws or hangs fails closed (503), one that answers nonsense is misconfigured (500).
 *
 * @param lookup - Your lookup.
 * @param ms - The deadline (`storeTimeoutMs`).
 * @returns The guarded lookup, answering a checked handle or `undefined`.
 * @example
 * const handles = guardHandles(({ taskId }) => db.handle(taskId), 2_000);
 */
export function guardHandles(lookup: HandleLookup, ms: number): (ids: HandleIds) => Promise<TaskHandle | undefined> {
  const unavailable = (why: string, cause?: unknown): WebhookError =>
    new WebhookError('webhook_handles_unavailable', `the handles lookup ${why}; the sender may retry`, { cause });
  return async (ids) => {
    const found: unknown = await call(() => lookup(ids), ms, unavailable, 'storeTimeoutMs');
    if (found === undefined) return undefined;
    try {
      return readHandle(found, 'handles()', { who: 'createWebhookReceiver' });
    } catch (error) {
      const why = error instanceof DecodeError ? error.message : describeThrown(error);
      throw misconfigured(`the handles lookup must answer a task handle or undefined for task_id "${shownText(ids.taskId, 64)}"; ${why}`);
    }
  };
}
