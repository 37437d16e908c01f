/**
 * The signature algorithms of the AdCP RFC 9421 profiles (security.mdx: `ed25519` and
 * `ecdsa-p256-sha256`, the allowlist a verifier enforces independently of library defaults), the
 * JWK each needs, and the WebCrypto parameters that sign and verify with it: one table for the
 * signer and every verifier.
 */

/** The RFC 9421 algorithm names the profiles allow. */
export type SignatureAlg = 'ed25519' | 'ecdsa-p256-sha256';

/** The allowlist, in the profile's order. */
export const SIGNATURE_ALGS: readonly SignatureAlg[] = ['ed25519', 'ecdsa-p256-sha256'];

/** JWK `alg` (JWS name), key type and curve each RFC 9421 algorithm requires. */
export const JWK_FOR: Readonly<Record<SignatureAlg, { readonly alg: string; readonly kty: string; readonly crv: string }>> = {
  ed25519: { alg: 'EdDSA', kty: 'OKP', crv: 'Ed25519' },
  'ecdsa-p256-sha256': { alg: 'ES256', kty: 'EC', crv: 'P-256' },
};

/** WebCrypto's `importKey` algorithm and `sign` / `verify` algorithm of each (ECDSA signatures in IEEE P1363 `r || s`). */
export const WEBCRYPTO_FOR: Readonly<
  Record<
    SignatureAlg,
    {
      readonly key: { readonly name: string; readonly namedCurve?: string };
      readonly sign: { readonly name: string; readonly hash?: string };
    }
  >
> = {
  ed25519: { key: { name: 'Ed25519' }, sign: { name: 'Ed25519' } },
  'ecdsa-p256-sha256': { key: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } },
};

/** Signature length in bytes: 64 for both algorithms (ECDSA P-256 in P1363 form). */
export const SIGNATURE_BYTES = 64;
