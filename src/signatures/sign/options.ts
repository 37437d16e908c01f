/**
 * createRequestSigner's options, checked once at creation: a wrong key, keyid, algorithm or
 * window is `INVALID_OPTION` there, never a failure on the first signed request.
 */

import { describeValue } from '../../errors/errors.js';
import { shownText } from '../../errors/format.js';
import { knownOptions, optionError, secretOptionError } from '../../errors/option-rules.js';
import { JWK_FOR, SIGNATURE_ALGS, type SignatureAlg, WEBCRYPTO_FOR } from '../http/algorithms.js';
import { PROFILE_WINDOW } from '../http/window.js';

const WHO = 'createRequestSigner';

/** WebCrypto's SubtleCrypto, typed from the runtime's `crypto` global (Node, browsers, Workers). */
type Subtle = typeof crypto.subtle;

/** A WebCrypto key (`CryptoKey`), typed from the runtime's `crypto` global. */
export type SigningCryptoKey = Awaited<ReturnType<Subtle['importKey']>>;

/** A private JWK: the public members and `d` (other members, `kid` and `alg` included, are allowed). */
export interface PrivateJwk {
  readonly kty: string;
  readonly crv: string;
  readonly x: string;
  readonly y?: string;
  readonly d: string;
  readonly kid?: string;
  readonly alg?: string;
  readonly [member: string]: unknown;
}

/**
 * A signing function over the signature base, for a key held in a KMS or HSM: it answers the
 * raw signature, 64 bytes (ECDSA P-256 in IEEE P1363 `r || s`, not DER).
 */
export type SignFunction = (base: Uint8Array) => Promise<Uint8Array>;

/** The options of {@link createRequestSigner}. */
export interface RequestSignerOptions {
  /** The private key: a WebCrypto key (type `private`, usage `sign`), a private JWK, or a signing function. */
  readonly key: SigningCryptoKey | PrivateJwk | SignFunction;
  /** The `kid` the seller resolves in the agent's published JWKS. */
  readonly keyid: string;
  /** The RFC 9421 algorithm: `ed25519` (JWK `EdDSA`) or `ecdsa-p256-sha256` (JWK `ES256`). */
  readonly alg: SignatureAlg;
  /**
   * How `Signature`'s bytes are written: `'base64url'` (default), the override of 3.0 and 3.1
   * request-signing endpoints; `'base64'`, RFC 8941 sf-binary, for an endpoint that negotiated 3.2.
   */
  readonly signatureEncoding?: 'base64url' | 'base64' | undefined;
  /** Seconds from `created` to `expires`: 1 to 300 (the profile's longest). Default 300. */
  readonly validitySeconds?: number | undefined;
  /** The clock in milliseconds. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /** Default `crypto.subtle`. */
  readonly subtle?: Pick<Subtle, 'importKey' | 'sign' | 'digest'> | undefined;
}

/** Every option createRequestSigner takes, by name (a type test holds it to `keyof RequestSignerOptions`). */
export const REQUEST_SIGNER_OPTION_KEYS = [
  'key',
  'keyid',
  'alg',
  'signatureEncoding',
  'validitySeconds',
  'now',
  'subtle',
] as const satisfies readonly (keyof RequestSignerOptions)[];

/** What signing runs with. */
export interface SignerSettings {
  readonly key: SigningCryptoKey | PrivateJwk | SignFunction;
  readonly keyid: string;
  readonly alg: SignatureAlg;
  readonly signatureEncoding: 'base64url' | 'base64';
  readonly validitySeconds: number;
  readonly now: () => number;
  readonly subtle: Pick<Subtle, 'importKey' | 'sign' | 'digest'>;
}

/** Printable ASCII, so the keyid is an RFC 8941 sf-string; bounded like any header parameter. */
const KEYID = /^[\x20-\x7e]{1,256}$/;

function isCryptoKey(key: object): key is SigningCryptoKey {
  return 'algorithm' in key && 'type' in key && 'usages' in key;
}

/** A WebCrypto key must be a private signing key of the algorithm named. */
function checkCryptoKey(key: SigningCryptoKey, alg: SignatureAlg): void {
  const want = WEBCRYPTO_FOR[alg].key;
  const algorithm = key.algorithm as { name?: unknown; namedCurve?: unknown };
  if (algorithm.name !== want.name || (want.namedCurve !== undefined && algorithm.namedCurve !== want.namedCurve))
    throw optionError(
      WHO,
      'key',
      `a ${want.namedCurve ?? want.name} key for alg ${alg}`,
      `a ${String(algorithm.namedCurve ?? algorithm.name)} key`,
    );
  if (key.type !== 'private' || !key.usages.includes('sign'))
    throw optionError(WHO, 'key', 'a private key with usage "sign"', `a ${key.type} key with usages [${key.usages.join(', ')}]`);
}

/** A JWK's `kty` or `crv` as shown: a name of their short form as is, anything else by its kind (it may be key material). */
function member(value: unknown): string {
  return typeof value === 'string' && /^[A-Za-z0-9-]{1,10}$/.test(value) ? value : describeValue(value);
}

/** A JWK must be the private key of the algorithm named, and name the same `kid` if it names one. */
function checkJwk(jwk: Record<string, unknown>, alg: SignatureAlg, keyid: string): void {
  const want = JWK_FOR[alg];
  if (jwk.kty !== want.kty || jwk.crv !== want.crv)
    throw optionError(WHO, 'key', `a ${want.kty}/${want.crv} JWK for alg ${alg}`, `a ${member(jwk.kty)}/${member(jwk.crv)} JWK`);
  if (jwk.alg !== undefined && jwk.alg !== want.alg) throw optionError(WHO, 'key.alg', `"${want.alg}" for alg ${alg}`, jwk.alg);
  const members = alg === 'ed25519' ? ['x', 'd'] : ['x', 'y', 'd'];
  const missing = members.filter((m) => typeof jwk[m] !== 'string');
  if (missing.length > 0) throw optionError(WHO, 'key', `a private JWK with ${members.join(', ')}`, `a JWK without ${missing.join(', ')}`);
  if (jwk.kid !== undefined && jwk.kid !== keyid)
    throw optionError(WHO, 'key.kid', `the keyid "${shownText(keyid, 40)}" when present`, jwk.kid);
}

function checkKey(key: unknown, alg: SignatureAlg, keyid: string): SignerSettings['key'] {
  if (typeof key === 'function') return key as SignFunction;
  if (typeof key !== 'object' || key === null || Array.isArray(key))
    throw secretOptionError(WHO, 'key', 'a WebCrypto private key, a private JWK or a signing function', key);
  if (isCryptoKey(key)) checkCryptoKey(key, alg);
  else checkJwk(key as Record<string, unknown>, alg, keyid);
  return key as SigningCryptoKey | PrivateJwk;
}

/**
 * Checks the options and resolves the defaults.
 *
 * @param options - The caller's options.
 * @returns The settings.
 * @throws {DecodeError} `INVALID_OPTION`, naming the option, what it must be and what it is; or a name that is not an option.
 * @example
 * const settings = signerSettings({ key: jwk, keyid: 'buyer-2026', alg: 'ed25519' });
 */
export function signerSettings(options: RequestSignerOptions): SignerSettings {
  // A key passed in the options' place is key material too.
  if (typeof options !== 'object' || options === null) throw secretOptionError(WHO, 'options', 'an object', options);
  knownOptions(WHO, options, REQUEST_SIGNER_OPTION_KEYS);
  const { keyid, alg, signatureEncoding = 'base64url', validitySeconds = PROFILE_WINDOW.maxValiditySeconds, now, subtle } = options;
  if (typeof keyid !== 'string' || !KEYID.test(keyid))
    throw optionError(WHO, 'keyid', 'a string of 1 to 256 printable ASCII characters', keyid);
  if (!(SIGNATURE_ALGS as readonly unknown[]).includes(alg)) throw optionError(WHO, 'alg', `one of ${SIGNATURE_ALGS.join(', ')}`, alg);
  if (signatureEncoding !== 'base64url' && signatureEncoding !== 'base64')
    throw optionError(WHO, 'signatureEncoding', '"base64url" or "base64"', signatureEncoding);
  const longest = PROFILE_WINDOW.maxValiditySeconds;
  if (typeof validitySeconds !== 'number' || !Number.isInteger(validitySeconds) || validitySeconds < 1 || validitySeconds > longest)
    throw optionError(WHO, 'validitySeconds', `an integer from 1 to ${longest}`, validitySeconds);
  if (now !== undefined && typeof now !== 'function') throw optionError(WHO, 'now', 'a function answering milliseconds', now);
  const methods = ['importKey', 'sign', 'digest'] as const;
  if (subtle !== undefined && (typeof subtle !== 'object' || subtle === null || methods.some((m) => typeof subtle[m] !== 'function')))
    throw optionError(WHO, 'subtle', `an object with ${methods.join(', ')}`, subtle);
  return {
    key: checkKey(options.key, alg, keyid),
    keyid,
    alg,
    signatureEncoding,
    validitySeconds,
    now: now ?? Date.now,
    subtle: subtle ?? crypto.subtle,
  };
}
