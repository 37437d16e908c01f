/**
 * The signer's revocation list (security.mdx, "Revocation" and "Transport revocation"), polled
 * for verifier checklist step 9: a JWS-signed JSON list (`typ` `adcp-gov-revocation+jws`, flattened
 * or general JSON serialization, or compact), fetched with the JWKS bounds, polled on the
 * `next_update` it declares (floor 1 min, ceiling 30 min), and failing closed: past
 * `next_update + 4 × the polling interval` without a refresh, every keyid is `stale`.
 * The JWS itself (three serializations, the algorithm allowlist, `crit`) is verified by `jose`,
 * on WebCrypto like the rest; the key, its purpose and the `typ` are checked here.
 */
import {
  type CompactVerifyResult,
  compactVerify,
  errors,
  type FlattenedJWSInput,
  flattenedVerify,
  type JWK,
  type JWSHeaderParameters,
} from 'jose';
import { shownText } from '../../errors/format.js';
import { deadlineMs, knownOptions } from '../../errors/option-rules.js';
import { findDuplicateKeys, shownKeys } from '../../json/duplicate-keys.js';
import { documentSource, fetchBoundedText, REMOTE_DOCUMENT_OPTION_KEYS, type RemoteDocumentOptions } from '../remote-document.js';
import { JWKS_MAX_BYTES } from './jwks.js';
import { jwkFitsAlg, type KeyResolver, verifiesFor, type WebhookAlg } from './keys.js';
import type { RevocationCheck, RevocationStatus } from './verify.js';

/** Options of {@link createRevocationList}. */
export interface RevocationListOptions extends RemoteDocumentOptions {
  /** The revocation list's URL at the signer's brand.json origin (pinned at onboarding). */
  readonly url: string | URL;
  /** The `issuer` the list must name: the signer's origin (a list for another issuer is refused). */
  readonly issuer: string;
  /** Resolves the `kid` of the list's signature: the signer's JWKS (the receiver passes its own). */
  readonly keys: KeyResolver;
  /** Least time between two attempts after a failed refresh. Default 30 s (the JWKS cooldown). */
  readonly retryCooldownMs?: number | undefined;
}

/** Every option createRevocationList takes, by name, and the receiver's `revocationList` (a type test holds it to `keyof RevocationListOptions`). */
export const REVOCATION_LIST_OPTION_KEYS = [
  ...REMOTE_DOCUMENT_OPTION_KEYS,
  'issuer',
  'keys',
  'retryCooldownMs',
] as const satisfies readonly (keyof RevocationListOptions)[];

/** A polled revocation list: `check` is the receiver's `revocation` option. */
export interface RevocationList {
  /** Step 9: `revoked`, `stale` (not refreshed within grace, or never fetched), or `valid`. */
  readonly check: RevocationCheck;
  /** Fetches and verifies the list now; rejects with a RevocationListError (the held list stays). */
  refresh(): Promise<void>;
  /** Why the last refresh failed (for the operator's logs), or `undefined` after a success. */
  readonly lastError: RevocationListError | undefined;
}

/** Why a revocation list could not be fetched, verified or read. */
export class RevocationListError extends Error {
  override readonly name = 'RevocationListError';
}

/** The `typ` of a signed revocation list. */
const REVOCATION_LIST_TYP = 'adcp-gov-revocation+jws';

/** Polling floor and ceiling (security.mdx), and the grace factor of the fail-closed rule. */
const FLOOR_MS = 60_000;
const CEILING_MS = 30 * 60_000;
const GRACE_FACTOR = 4;

const JWS_ALGS: Readonly<Record<string, WebhookAlg>> = { EdDSA: 'ed25519', ES256: 'ecdsa-p256-sha256' };
/** Agent signing purposes a combined list may be signed under. */
const LIST_PURPOSES: readonly string[] = ['governance-signing', 'request-signing', 'webhook-signing'];

interface Held {
  readonly revoked: ReadonlySet<string>;
  readonly updated: number;
  readonly nextPollAt: number;
  readonly staleAt: number;
}

const fail = (message: string): RevocationListError => new RevocationListError(message);
const decoder = new TextDecoder('utf-8', { fatal: true });

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail(`${what} is not a JSON object`);
  return value as Record<string, unknown>;
}

/** The JWS in one of its three serializations: a compact string, or a flattened one (a general JWS with exactly one signature is read as it). */
function jwsOf(text: string): string | FlattenedJWSInput {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) {
    if (trimmed.split('.', 4).length !== 3) throw fail('the list is neither JWS JSON nor JWS compact serialization');
    return trimmed;
  }
  let parsed: Record<string, unknown>;
  try {
    parsed = record(JSON.parse(trimmed), 'the list');
  } catch (error) {
    throw error instanceof RevocationListError ? error : fail('the list is not valid JSON');
  }
  refuseRepeats(trimmed, 'the list');
  let signed = parsed;
  if (parsed.signatures !== undefined) {
    if (!Array.isArray(parsed.signatures) || parsed.signatures.length !== 1)
      throw fail('expected exactly one signature in the JWS signatures array');
    signed = record(parsed.signatures[0], 'the JWS signature entry');
  }
  const { payload } = parsed;
  const { protected: header, signature } = signed;
  if (typeof payload !== 'string' || typeof header !== 'string' || typeof signature !== 'string')
    throw fail('the JWS needs string payload, protected and signature members');
  // Everything the verifier reads must be signed: no unprotected header.
  if (signed.header !== undefined) throw fail('the JWS carries an unprotected header');
  return { payload, protected: header, signature };
}

/** Verifies the list's JWS with jose: its key comes from `keys` by the protected `kid`, for a signing purpose and the header's `alg`. */
async function verifiedPayload(text: string, keys: KeyResolver): Promise<Uint8Array> {
  const jws = jwsOf(text);
  const key = async (header: JWSHeaderParameters) => {
    if (header.typ !== REVOCATION_LIST_TYP) throw fail(`expected typ ${REVOCATION_LIST_TYP}`);
    if (header.crit !== undefined) throw fail('the JWS names crit extensions, which this verifier does not understand');
    const alg = typeof header.alg === 'string' ? JWS_ALGS[header.alg] : undefined;
    if (alg === undefined) throw fail('expected JWS alg EdDSA or ES256');
    if (typeof header.kid !== 'string') throw fail('the JWS protected header has no kid');
    const resolved = await keys(header.kid);
    if (resolved === undefined) throw fail(`the list is signed by kid "${shownText(header.kid, 64)}", which is not in the signer's JWKS`);
    const { jwk } = resolved;
    if (!verifiesFor(jwk, LIST_PURPOSES) || !jwkFitsAlg(jwk, alg))
      throw fail(`kid "${shownText(header.kid, 64)}" is not a ${header.alg} signing key (use, key_ops, adcp_use, alg)`);
    // Only the public members go to the import: strict importers refuse unknown ones (adcp_use).
    const { kty, crv, x, y } = jwk;
    const publicJwk: JWK = {
      ...(kty === undefined ? {} : { kty }),
      ...(crv === undefined ? {} : { crv }),
      ...(x === undefined ? {} : { x }),
    };
    return y === undefined ? publicJwk : { ...publicJwk, y };
  };
  const options = { algorithms: Object.keys(JWS_ALGS) };
  let result: Pick<CompactVerifyResult, 'payload'>;
  try {
    result = typeof jws === 'string' ? await compactVerify(jws, key, options) : await flattenedVerify(jws, key, options);
  } catch (error) {
    if (error instanceof RevocationListError) throw error;
    if (error instanceof errors.JWSSignatureVerificationFailed) throw fail('the list signature does not verify');
    const why = error instanceof errors.JOSEError ? error.code : error instanceof Error ? error.name : typeof error;
    throw Object.assign(fail(`the list is not a valid JWS (${why})`), { cause: error });
  }
  return result.payload;
}

function payloadOf(bytes: Uint8Array): Record<string, unknown> {
  let text: string;
  let payload: Record<string, unknown>;
  try {
    text = decoder.decode(bytes);
    payload = record(JSON.parse(text), 'the list payload');
  } catch (error) {
    throw error instanceof RevocationListError ? error : fail('the JWS payload is not UTF-8 JSON');
  }
  refuseRepeats(text, 'the list payload');
  return payload;
}

/** One reading of the list: a repeated member would be read as its last value here and maybe its first elsewhere. */
function refuseRepeats(text: string, what: string): void {
  const repeated = findDuplicateKeys(text);
  if (repeated !== undefined) throw fail(`${what} repeats ${shownKeys(repeated)} in one object (at ${shownText(repeated.path, 80)})`);
}

/** A verified list's payload read into what is held, at `t`, given the list held before (if any). */
function heldOf(list: Record<string, unknown>, issuer: string, held: Held | undefined, t: number): Held {
  if (list.version !== 1) throw fail('expected list version 1');
  let listIssuer: string | undefined;
  try {
    listIssuer = typeof list.issuer === 'string' ? new URL(list.issuer).origin : undefined;
  } catch {
    listIssuer = undefined;
  }
  if (listIssuer !== issuer) throw fail(`the list's issuer is not ${issuer}`);
  const updated = timestamp(list.updated, 'updated');
  const nextUpdate = timestamp(list.next_update, 'next_update');
  const kids = list.revoked_kids;
  if (!Array.isArray(kids) || !kids.every((kid) => typeof kid === 'string')) throw fail('revoked_kids must be an array of strings');
  // An older list, or one already past its next_update, may be a replay that un-revokes a key.
  if (held !== undefined && updated < held.updated) throw fail('the list is older than the one held');
  if (nextUpdate <= t) throw fail("the list's next_update has already passed");
  const interval = Math.min(Math.max(nextUpdate - t, FLOOR_MS), CEILING_MS);
  return { revoked: new Set(kids as string[]), updated, nextPollAt: t + interval, staleAt: t + interval + GRACE_FACTOR * interval };
}

function timestamp(value: unknown, name: string): number {
  const t = typeof value === 'string' && value.length <= 40 ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(t)) throw fail(`${name} is not an RFC 3339 timestamp`);
  return t;
}

/**
 * Polls a signer's revocation list for the webhook verifier (checklist step 9).
 *
 * @param options - URL, expected issuer, the key resolver for the list's signature, bounds.
 * @returns The list: pass `list.check` as the receiver's `revocation` (or use the receiver's
 *   `revocationList` option, which builds one over the receiver's keys).
 * @throws {TypeError} For a URL that is not http(s).
 * @throws {DecodeError} `INVALID_OPTION` for `maxBytes` or `timeoutMs` outside the bounded fetch's rule, or a
 *   `retryCooldownMs` that is not a positive safe integer; or a name that is not an option.
 * @example
 * const list = createRevocationList({ url: 'https://seller.example/.well-known/revocations.json', issuer: 'https://seller.example', keys });
 * const receiver = createWebhookReceiver({ keys, revocation: list.check });
 */
export function createRevocationList(options: RevocationListOptions): RevocationList {
  knownOptions('createRevocationList', options, REVOCATION_LIST_OPTION_KEYS);
  const { url, maxBytes, timeoutMs } = documentSource('createRevocationList', options, JWKS_MAX_BYTES);
  const cooldown = deadlineMs('retryCooldownMs', options.retryCooldownMs, { who: 'createRevocationList' }) ?? 30_000;
  let issuer: string;
  try {
    issuer = new URL(options.issuer).origin;
  } catch {
    throw new TypeError('createRevocationList: issuer must be an absolute URL (the signer origin)');
  }
  const now = options.now ?? Date.now;
  let held: Held | undefined;
  let lastError: RevocationListError | undefined;
  let retryAt = -Infinity;
  let inFlight: Promise<void> | undefined;

  const load = async (): Promise<Held> => {
    const text = await fetchBoundedText(
      url,
      { fetch: options.fetch, maxBytes, timeoutMs, accept: 'application/jose+json, application/json, application/jose' },
      fail,
      'revocation list',
    );
    return heldOf(payloadOf(await verifiedPayload(text, options.keys)), issuer, held, now());
  };

  const refresh = (): Promise<void> => {
    inFlight ??= (async () => {
      try {
        held = await load();
        lastError = undefined;
      } catch (error) {
        retryAt = now() + cooldown;
        lastError =
          error instanceof RevocationListError
            ? error
            : Object.assign(fail(`revocation list refresh failed (${error instanceof Error ? error.name : typeof error})`), {
                cause: error,
              });
        throw lastError;
      } finally {
        inFlight = undefined;
      }
    })();
    return inFlight;
  };

  const check = async (keyid: string): Promise<RevocationStatus> => {
    const t = now();
    if ((held === undefined || t >= held.nextPollAt) && t >= retryAt) {
      // A failed refresh keeps the held list until its grace runs out; lastError tells the operator.
      await refresh().catch(() => undefined);
    }
    if (held === undefined || now() > held.staleAt) return 'stale';
    return held.revoked.has(keyid) ? 'revoked' : 'valid';
  };

  return {
    check,
    refresh,
    get lastError() {
      return lastError;
    },
  };
}
