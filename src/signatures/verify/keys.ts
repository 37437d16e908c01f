/**
 * Signing keys of the webhook profile: the JWK members the verifier checks (step 8: `use`,
 * `key_ops`, `adcp_use`; the JWK `alg` against the signature's), and WebCrypto verification of
 * Ed25519 and ECDSA P-256 (IEEE P1363 `r || s`) signatures.
 */

import { shownText } from '../../errors/format.js';
import { WebhookError } from '../../errors/webhook-error.js';
import { JWK_FOR, SIGNATURE_ALGS, SIGNATURE_BYTES, type SignatureAlg, WEBCRYPTO_FOR } from '../http/algorithms.js';
import { WEBHOOK_PROFILE } from '../http/profile.js';

/** WebCrypto's SubtleCrypto, typed from the runtime's `crypto` global (Node, browsers, Workers). */
export type Subtle = typeof crypto.subtle;
type Key = Awaited<ReturnType<Subtle['importKey']>>;

/** A public JWK as a seller publishes it (unknown members are kept and ignored). */
export interface WebhookJwk {
  readonly kid?: string;
  readonly kty?: string;
  readonly crv?: string;
  readonly alg?: string;
  readonly use?: string;
  readonly key_ops?: readonly string[];
  readonly adcp_use?: string;
  readonly x?: string;
  readonly y?: string;
  readonly [member: string]: unknown;
}

/** A `keyid` resolved to its key and the agent whose `agents[]` entry published it. */
export interface ResolvedKey {
  readonly jwk: WebhookJwk;
  /** The signing agent's URL (the `agents[]` entry whose JWKS holds the key): the signer identity. */
  readonly agent: string;
}

/** Finds the key of a `keyid`: `undefined` when the signer's JWKS has none (after any refetch). */
export type KeyResolver = (keyid: string) => ResolvedKey | undefined | Promise<ResolvedKey | undefined>;

/** The signature algorithms of the profile (RFC 9421 names). */
export type WebhookAlg = SignatureAlg;

/** The allowlist (verifier checklist step 4), independent of any library default. */
export const WEBHOOK_ALGS: readonly WebhookAlg[] = SIGNATURE_ALGS;

/**
 * Whether a JWK is a key for `alg`: its JWS `alg`, key type and curve all match.
 *
 * @param jwk - The key.
 * @param alg - The algorithm a signature names.
 * @returns Whether the key fits.
 * @throws Never.
 * @example
 * jwkFitsAlg({ alg: 'EdDSA', kty: 'OKP', crv: 'Ed25519' }, 'ed25519'); // true
 */
export function jwkFitsAlg(jwk: WebhookJwk, alg: WebhookAlg): boolean {
  const want = JWK_FOR[alg];
  return jwk.alg === want.alg && jwk.kty === want.kty && jwk.crv === want.crv;
}

/**
 * Whether a JWK is a verification key (`use` "sig", `key_ops` holding "verify") for one of `purposes`.
 *
 * @param jwk - The resolved key.
 * @param purposes - The `adcp_use` values the caller accepts.
 * @returns True when the key may verify for one of them.
 * @example
 * verifiesFor({ use: 'sig', key_ops: ['verify'], adcp_use: 'request-signing' }, ['request-signing']); // true
 */
export function verifiesFor(jwk: WebhookJwk, purposes: readonly string[]): boolean {
  const ops = jwk.key_ops;
  return (
    jwk.use === 'sig' && Array.isArray(ops) && ops.includes('verify') && typeof jwk.adcp_use === 'string' && purposes.includes(jwk.adcp_use)
  );
}

/**
 * Checks a JWK's purpose for the profile (step 8) and that it fits the signature's `alg`.
 *
 * @param jwk - The resolved key.
 * @param alg - The signature's (allowlisted) algorithm.
 * @param purposes - The `adcp_use` values the profile accepts (default: the webhook profile's).
 * @throws {WebhookError} `webhook_signature_key_purpose_invalid`; `webhook_signature_alg_not_allowed` when the key is for another algorithm.
 * @example
 * checkKeyPurpose({ use: 'sig', key_ops: ['verify'], adcp_use: 'request-signing', alg: 'EdDSA', kty: 'OKP', crv: 'Ed25519' }, 'ed25519');
 */
export function checkKeyPurpose(jwk: WebhookJwk, alg: WebhookAlg, purposes: readonly string[] = WEBHOOK_PROFILE.keyPurposes): void {
  if (!verifiesFor(jwk, purposes)) {
    const ops = jwk.key_ops;
    const why =
      jwk.use !== 'sig'
        ? 'use is not "sig"'
        : !Array.isArray(ops) || !ops.includes('verify')
          ? 'key_ops lacks "verify"'
          : `adcp_use is ${typeof jwk.adcp_use === 'string' ? `"${shownText(jwk.adcp_use, 40)}"` : 'absent'}, not ${purposes.map((p) => `"${p}"`).join(' or ')}`;
    throw new WebhookError('webhook_signature_key_purpose_invalid', `the key cannot verify this profile's signatures: ${why}`);
  }
  if (!jwkFitsAlg(jwk, alg)) {
    const want = JWK_FOR[alg];
    throw new WebhookError(
      'webhook_signature_alg_not_allowed',
      `the signature says ${alg} but the key is ${shownText(String(jwk.alg), 16)}/${shownText(String(jwk.crv), 16)}; expected ${want.alg}/${want.crv}`,
    );
  }
}

// Per WebCrypto implementation: a key one implementation imported is not a key another can verify with.
const importedBy = new WeakMap<object, WeakMap<WebhookJwk, Promise<Key>>>();

/** Imports the public part of a JWK for verification, once per JWK object and WebCrypto implementation. */
function importKey(jwk: WebhookJwk, alg: WebhookAlg, subtle: Pick<Subtle, 'importKey'>): Promise<Key> {
  let imported = importedBy.get(subtle);
  if (imported === undefined) {
    imported = new WeakMap();
    importedBy.set(subtle, imported);
  }
  const cached = imported.get(jwk);
  if (cached !== undefined) return cached;
  // Only the public members go to importKey: strict importers refuse unknown ones (adcp_use).
  const publicJwk =
    alg === 'ed25519'
      ? { kty: 'OKP', crv: 'Ed25519', x: jwk.x as string }
      : { kty: 'EC', crv: 'P-256', x: jwk.x as string, y: jwk.y as string };
  const key = subtle.importKey('jwk', publicJwk, WEBCRYPTO_FOR[alg].key, false, ['verify']);
  imported.set(jwk, key);
  return key;
}

/**
 * Verifies a signature over the signature base with WebCrypto.
 *
 * @param jwk - The (purpose-checked) key.
 * @param alg - The algorithm.
 * @param signature - Raw signature bytes (64 for both algorithms; ECDSA in P1363 form).
 * @param base - The signature base bytes.
 * @param subtle - The WebCrypto implementation (default `crypto.subtle`).
 * @returns Whether the signature verifies.
 * @throws {WebhookError} `webhook_signature_key_purpose_invalid` when the key material does not import.
 * @example
 * await verifySignature(jwk, 'ed25519', signatureBytes, new TextEncoder().encode(base));
 */
export async function verifySignature(
  jwk: WebhookJwk,
  alg: WebhookAlg,
  signature: Uint8Array,
  base: Uint8Array,
  subtle: Pick<Subtle, 'importKey' | 'verify'> = crypto.subtle,
): Promise<boolean> {
  let key: Key;
  try {
    key = await importKey(jwk, alg, subtle);
  } catch {
    importedBy.get(subtle)?.delete(jwk);
    throw new WebhookError('webhook_signature_key_purpose_invalid', `the ${alg} key's material does not import as a public key`);
  }
  if (signature.length !== SIGNATURE_BYTES) return false;
  return subtle.verify(WEBCRYPTO_FOR[alg].sign, key, signature as Uint8Array<ArrayBuffer>, base as Uint8Array<ArrayBuffer>);
}
