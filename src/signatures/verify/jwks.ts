/**
 * A KeyResolver over a seller's JWKS URL (security.mdx, "JWKS discovery"): fetched with a byte
 * bound and a deadline, cached (TTL bounded by the revocation polling ceiling), refetched at once
 * on an unknown `kid` but not twice within the 30 s cooldown, and, after a failed fetch (an HTTP
 * error, a network error, a refresh of an expired cache that fails), not fetched again for the
 * negative-cache period (the trust-root fetch budgets: at most 60 s), so a failing endpoint is not
 * fetched once per incoming request. Web-standard fetch only.
 *
 * jose's createRemoteJWKSet was weighed for this and not adopted: it caches nothing after a failed
 * fetch (each call refetches), reads the clock itself, and selects keys by JWS header where this
 * resolver hands the raw JWK (with `adcp_use`) to the verifier's purpose check.
 */

import { shownText } from '../../errors/format.js';
import { deadlineMs, knownOptions, MAX_TIMER_MS, optionError } from '../../errors/option-rules.js';
import { findDuplicateKeys, shownKeys } from '../../json/duplicate-keys.js';
import { documentSource, fetchBoundedText, REMOTE_DOCUMENT_OPTION_KEYS, type RemoteDocumentOptions } from '../remote-document.js';
import type { KeyResolver, ResolvedKey, WebhookJwk } from './keys.js';

/** Options of {@link createJwksResolver}. */
export interface JwksResolverOptions extends RemoteDocumentOptions {
  /** The signing agent's `jwks_uri` (pinned at onboarding). */
  readonly url: string | URL;
  /** The signing agent's URL: the identity every key of this JWKS establishes. */
  readonly agent: string;
  /** Cache lifetime, in ms. Default 5 min; at most 30 min (the revocation polling ceiling): more is `INVALID_OPTION`. */
  readonly cacheTtlMs?: number | undefined;
  /** Least time between two refetches for an unknown `kid`. Default 30 s. */
  readonly refetchCooldownMs?: number | undefined;
  /**
   * How long a failed fetch is remembered: until then, a `kid` the cache cannot answer is refused
   * as unavailable without a fetch. Default 30 s; at most 60 s (the spec's negative-cache ceiling):
   * more is `INVALID_OPTION`.
   */
  readonly negativeCacheMs?: number | undefined;
}

/** Every option createJwksResolver takes, by name, and the receiver's `jwks` (a type test holds it to `keyof JwksResolverOptions`). */
export const JWKS_RESOLVER_OPTION_KEYS = [
  ...REMOTE_DOCUMENT_OPTION_KEYS,
  'agent',
  'cacheTtlMs',
  'refetchCooldownMs',
  'negativeCacheMs',
] as const satisfies readonly (keyof JwksResolverOptions)[];

/** Default JWKS body bound. */
export const JWKS_MAX_BYTES = 256 * 1024;

/** Why a JWKS could not be used; the verifier reports it as `webhook_signature_jwks_unavailable`. */
export class JwksError extends Error {
  override readonly name = 'JwksError';
}

function keysOf(text: string): Map<string, WebhookJwk> {
  const parsed = JSON.parse(text) as unknown;
  // One reading of a key set: a repeated member would be read as its last value here and maybe its first elsewhere.
  const repeated = findDuplicateKeys(text);
  if (repeated !== undefined) throw new JwksError(`JWKS repeats ${shownKeys(repeated)} in one object (at ${shownText(repeated.path, 80)})`);
  const keys = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as { keys?: unknown }).keys : undefined;
  if (!Array.isArray(keys)) throw new JwksError('JWKS has no keys array');
  const map = new Map<string, WebhookJwk>();
  for (const key of keys as unknown[]) {
    if (typeof key !== 'object' || key === null || Array.isArray(key)) continue;
    const kid = (key as WebhookJwk).kid;
    if (typeof kid !== 'string') continue;
    // kid collisions are forbidden: a kid must resolve to exactly one key.
    if (map.has(kid)) throw new JwksError(`JWKS repeats kid "${shownText(kid, 64)}"`);
    map.set(kid, key as WebhookJwk);
  }
  return map;
}

/**
 * A cache period of the resolver, checked at creation: a NaN, a negative or a string would turn the
 * cache off (every request a fetch), a value over the spec's ceiling would outlive a revocation.
 */
function cacheMs(name: string, value: unknown, fallback: number, ceiling: number): number {
  const ms = deadlineMs(name, value, { who: 'createJwksResolver' }) ?? fallback;
  if (ms > ceiling) throw optionError('createJwksResolver', name, `at most ${ceiling}`, value);
  return ms;
}

/**
 * A key resolver over a JWKS URL.
 *
 * @param options - URL, agent and bounds.
 * @returns The resolver: a key with its agent, `undefined` for an unknown `kid`; it rejects with a
 *   JwksError when the JWKS cannot be fetched or read (the receiver answers 503).
 * @throws {TypeError} For a URL that is not http(s).
 * @throws {DecodeError} `INVALID_OPTION` for `maxBytes` or `timeoutMs` outside the bounded fetch's rule, or a
 *   `cacheTtlMs` (at most 30 min), `refetchCooldownMs` or `negativeCacheMs` (at most 60 s) that is not a
 *   positive integer of milliseconds within its ceiling; or a name that is not an option.
 * @example
 * const keys = createJwksResolver({ url: 'https://seller.example/.well-known/jwks.json', agent: 'https://seller.example/mcp' });
 */
export function createJwksResolver(options: JwksResolverOptions): KeyResolver {
  knownOptions('createJwksResolver', options, JWKS_RESOLVER_OPTION_KEYS);
  const { url, maxBytes, timeoutMs } = documentSource('createJwksResolver', options, JWKS_MAX_BYTES);
  const ttl = cacheMs('cacheTtlMs', options.cacheTtlMs, 5 * 60_000, 30 * 60_000);
  const cooldown = cacheMs('refetchCooldownMs', options.refetchCooldownMs, 30_000, MAX_TIMER_MS);
  const negative = cacheMs('negativeCacheMs', options.negativeCacheMs, 30_000, 60_000);
  const now = options.now ?? Date.now;
  let cache: { keys: Map<string, WebhookJwk>; fetchedAt: number } | undefined;
  let failure: { message: string; retryAt: number } | undefined;
  let inFlight: Promise<Map<string, WebhookJwk>> | undefined;
  let lastFetchAt = -Infinity;

  const load = (): Promise<Map<string, WebhookJwk>> => {
    inFlight ??= (async () => {
      lastFetchAt = now();
      try {
        const keys = keysOf(
          await fetchBoundedText(url, { fetch: options.fetch, maxBytes, timeoutMs }, (message) => new JwksError(message), 'JWKS'),
        );
        cache = { keys, fetchedAt: now() };
        failure = undefined;
        return keys;
      } catch (error) {
        const message =
          error instanceof JwksError ? error.message : `JWKS is not valid JSON (${error instanceof Error ? error.name : typeof error})`;
        failure = { message, retryAt: now() + negative };
        throw error instanceof JwksError ? error : Object.assign(new JwksError(message), { cause: error });
      } finally {
        inFlight = undefined;
      }
    })();
    return inFlight;
  };

  return async (keyid: string): Promise<ResolvedKey | undefined> => {
    const t = now();
    const fresh = cache !== undefined && t - cache.fetchedAt < ttl ? cache.keys : undefined;
    const known = fresh?.get(keyid);
    if (known !== undefined) return { jwk: known, agent: options.agent };
    if (failure !== undefined && t < failure.retryAt)
      throw new JwksError(`${failure.message}; not fetched again for ${Math.ceil((failure.retryAt - t) / 1000)} s`);
    if (fresh !== undefined && t - lastFetchAt < cooldown) return undefined;
    const jwk = (await load()).get(keyid);
    return jwk === undefined ? undefined : { jwk, agent: options.agent };
  };
}
