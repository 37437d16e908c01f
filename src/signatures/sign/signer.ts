/**
 * The buyer's half of the AdCP RFC 9421 request profile (security.mdx, "Signed Requests"):
 * `@method`, `@target-uri` and `@authority` always, `content-type` and `content-digest` whenever
 * there is a body, the six parameters with `tag="adcp/request-signing/v1"`, a fresh 128-bit nonce
 * and a window from now. The base is built by the same code the webhook verifier checks with
 * (src/http-signature/), so signer and verifier cannot canonicalize differently.
 */
import { DecodeError } from '../../errors/errors.js';
import { shownText } from '../../errors/format.js';
import { SIGNATURE_BYTES, type SignatureAlg, WEBCRYPTO_FOR } from '../http/algorithms.js';
import { base64Encode, base64UrlEncode } from '../http/base64.js';
import { contentDigest } from '../http/content-digest.js';
import { REQUEST_PROFILES, SIGNATURE_LABEL, type SignatureProfile, UNDIGESTED_REQUEST_PROFILE } from '../http/profile.js';
import { SignatureBaseError, signatureBase } from '../http/signature-base.js';
import { type BareItem, type InnerList, serializeInnerList } from '../http/structured-fields.js';
import { canonicalTarget, TargetUriError } from '../http/target-uri.js';
import { type RequestSigningCode, RequestSigningError } from './errors.js';
import { type PrivateJwk, type RequestSignerOptions, type SignerSettings, type SigningCryptoKey, signerSettings } from './options.js';

/** A request as the signer reads it. */
export interface SignableRequest {
  readonly method: string;
  /** The absolute URL the request goes to. */
  readonly url: string | URL;
  /** The headers that will be sent (`content-type` is covered when there is a body). */
  readonly headers?: ConstructorParameters<typeof Headers>[0];
  /** The body bytes exactly as sent (a string is sent as UTF-8); absent for a request without a body. */
  readonly body?: Uint8Array | string | undefined;
  /**
   * Whether a body's signature covers `content-digest`: `true` (default; the 3.2 rule), or `false`
   * for a 3.0/3.1 seller whose `covers_content_digest` is `forbidden` (a Base64URL signer only: 3.2
   * makes body binding mandatory).
   */
  readonly coverContentDigest?: boolean | undefined;
}

/** The headers a signed request carries in addition to its own (lowercase names). */
export interface SignatureHeaders {
  readonly 'signature-input': string;
  readonly signature: string;
  /** Present when the request has a body. */
  readonly 'content-digest'?: string;
}

/** A signer for one key: see {@link createRequestSigner}. */
export interface RequestSigner {
  readonly keyid: string;
  readonly alg: SignatureAlg;
  /** The profile's `tag`. */
  readonly tag: string;
  /**
   * Signs one request: call it for each send, a retry included (each signature has its own nonce
   * and window; a seller refuses a nonce it has seen).
   */
  sign(request: SignableRequest): Promise<SignatureHeaders>;
}

const encoder = new TextEncoder();
/** 16 random bytes: the profile's floor of 128 bits of entropy. */
const NONCE_BYTES = 16;

function unsignable(code: RequestSigningCode, message: string, cause?: unknown): RequestSigningError {
  return new RequestSigningError(code, message, cause === undefined ? {} : { cause });
}

/** The key's signing function: a WebCrypto key is used as is, a JWK imported once (a failed import is retried). */
function signingFunction(settings: SignerSettings): (base: Uint8Array) => Promise<Uint8Array> {
  const { key, alg, subtle } = settings;
  if (typeof key === 'function') return key;
  const algorithms = WEBCRYPTO_FOR[alg];
  let imported: Promise<SigningCryptoKey> | undefined = 'd' in key ? undefined : Promise.resolve(key as SigningCryptoKey);
  const load = (): Promise<SigningCryptoKey> => {
    if (imported !== undefined) return imported;
    const { kty, crv, x, y, d } = key as PrivateJwk;
    // Only the key's own members reach importKey: strict importers refuse unknown ones (adcp_use).
    const jwk = y === undefined ? { kty, crv, x, d } : { kty, crv, x, y, d };
    imported = subtle.importKey('jwk', jwk, algorithms.key, false, ['sign']).catch((error: unknown) => {
      imported = undefined;
      throw new DecodeError('INVALID_OPTION', `createRequestSigner: option key does not import as a ${alg} private key`, { cause: error });
    });
    return imported;
  };
  return async (base) => new Uint8Array(await subtle.sign(algorithms.sign, await load(), base as Uint8Array<ArrayBuffer>));
}

/** The covered components and parameters, as the RFC 8941 inner list `Signature-Input` carries. */
function signatureParams(components: readonly string[], params: ReadonlyArray<readonly [string, BareItem]>): InnerList {
  return {
    kind: 'inner-list',
    items: components.map((name) => ({ kind: 'item', value: { type: 'string', value: name }, params: new Map() })),
    params: new Map(params),
  };
}

/** The canonical target, a refusal of the URL being the caller's. */
function targetOf(url: string | URL) {
  try {
    return canonicalTarget(String(url));
  } catch (error) {
    if (!(error instanceof TargetUriError)) throw error;
    throw unsignable('request_target_uri_malformed', `cannot sign a request to "${shownText(String(url), 96)}": ${error.message}`, error);
  }
}

/** Runs one signing: the digest, the parameters, the base, the signature. */
async function signOne(
  settings: SignerSettings,
  profile: SignatureProfile,
  signBase: (base: Uint8Array) => Promise<Uint8Array>,
  request: SignableRequest,
): Promise<SignatureHeaders> {
  const target = targetOf(request.url);
  const headers = new Map(new Headers(request.headers));
  const body = typeof request.body === 'string' ? encoder.encode(request.body) : request.body;
  if (body !== undefined) {
    if (!headers.has('content-type'))
      throw unsignable(
        'request_content_type_missing',
        'cannot sign a request with a body and no Content-Type: the profile covers content-type',
      );
    if (profile.requiredComponents(true).includes('content-digest'))
      headers.set('content-digest', await contentDigest(body, settings.subtle));
    else headers.delete('content-digest'); // not covered, so not sent: a stale digest would bind nothing
  }
  const components = profile.requiredComponents(body !== undefined);
  const created = Math.floor(settings.now() / 1000);
  const nonce = base64UrlEncode(crypto.getRandomValues(new Uint8Array(NONCE_BYTES)));
  const paramsValue = serializeInnerList(
    signatureParams(components, [
      ['created', { type: 'integer', value: created }],
      ['expires', { type: 'integer', value: created + settings.validitySeconds }],
      ['nonce', { type: 'string', value: nonce }],
      ['keyid', { type: 'string', value: settings.keyid }],
      ['alg', { type: 'string', value: settings.alg }],
      ['tag', { type: 'string', value: profile.tag }],
    ]),
  );
  let base: string;
  try {
    base = signatureBase({ components, paramsValue }, { method: request.method, target, headers });
  } catch (error) {
    if (!(error instanceof SignatureBaseError)) throw error;
    const code = error.reason === 'header-absent' ? 'request_content_type_missing' : 'request_header_unsignable';
    throw unsignable(code, `cannot sign the request: ${error.message}`, error);
  }
  const signature = await signBase(encoder.encode(base));
  if (!(signature instanceof Uint8Array) || signature.length !== SIGNATURE_BYTES)
    throw unsignable(
      'request_signer_failed',
      `the signing function must answer ${SIGNATURE_BYTES} signature bytes (ECDSA in IEEE P1363 form, not DER)`,
    );
  const encoded = profile.signatureAlphabet === 'base64' ? base64Encode(signature) : base64UrlEncode(signature);
  const signed = { 'signature-input': `${SIGNATURE_LABEL}=${paramsValue}`, signature: `${SIGNATURE_LABEL}=:${encoded}:` };
  const digest = headers.get('content-digest');
  return body === undefined || digest === undefined ? signed : { ...signed, 'content-digest': digest };
}

/** The request's profile: the signer's, or (a seller forbidding it) the one that does not cover `content-digest`. */
async function profileFor(settings: SignerSettings, request: SignableRequest): Promise<SignatureProfile> {
  if (request.coverContentDigest !== false) return REQUEST_PROFILES[settings.signatureEncoding];
  if (settings.signatureEncoding === 'base64')
    throw unsignable(
      'request_digest_forbidden',
      "the seller forbids content-digest coverage (a 3.0/3.1 posture) but this signer speaks 3.2 (signatureEncoding 'base64'), where a signed body is always bound: the postures are incompatible",
    );
  return UNDIGESTED_REQUEST_PROFILE;
}

/**
 * Creates a signer for the AdCP RFC 9421 request profile (`tag="adcp/request-signing/v1"`), for a
 * buyer answering a seller that advertises `request_signing`. WebCrypto only: it runs in Node,
 * Workers and browsers.
 *
 * @param options - The key (WebCrypto private key, private JWK or signing function), its `keyid`
 *   and `alg`; optionally the `Signature` encoding, the validity, the clock and WebCrypto.
 * @returns The signer.
 * @throws {DecodeError} `INVALID_OPTION` for an option that is not what it must be (a key of
 *   another algorithm, a public key, a keyid that is not printable ASCII, a validity over 300 s).
 * @example
 * const signer = createRequestSigner({ key: privateJwk, keyid: 'buyer-2026-04', alg: 'ed25519' });
 * const headers = await signer.sign({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body });
 */
export function createRequestSigner(options: RequestSignerOptions): RequestSigner {
  const settings = signerSettings(options);
  const profile = REQUEST_PROFILES[settings.signatureEncoding];
  const signBase = signingFunction(settings);
  return {
    keyid: settings.keyid,
    alg: settings.alg,
    tag: profile.tag,
    sign: async (request) => signOne(settings, await profileFor(settings, request), signBase, request),
  };
}
