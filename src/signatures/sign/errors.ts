/**
 * The signer's refusal of the buyer's own request: nothing was sent, and the fault is the
 * caller's (the request), its configuration (the key, the signer's options against the seller's
 * posture, an agent URL that redirects), never the seller's answer.
 */
import { DecodeError } from '../../errors/errors.js';

/**
 * Why a request was not signed and sent. `request_target_uri_malformed` is the spec's (a URL the
 * `@target-uri` canonicalization refuses, on the signing path); the others name refusals the
 * spec describes without a code.
 */
export type RequestSigningCode =
  | 'request_target_uri_malformed'
  /** A body without a Content-Type: the profile covers `content-type` whenever there is a body. */
  | 'request_content_type_missing'
  /** A covered header the signature base cannot carry (a line break in its value). */
  | 'request_header_unsignable'
  /** The signing function (a KMS, an HSM) answered no usable signature. */
  | 'request_signer_failed'
  /**
   * The seller forbids `content-digest` coverage (`covers_content_digest: "forbidden"`, a 3.0/3.1
   * posture) and the signer speaks 3.2 (`signatureEncoding: 'base64'`), where body binding is
   * mandatory: the two postures are incompatible (security.mdx), not a reason to sign unbound.
   */
  | 'request_digest_forbidden'
  /**
   * The seller answered a signed request with a redirect: it is not re-sent to the new target
   * (the signature covers `@target-uri` and `@authority`, and a signed request is not handed to
   * an origin the caller did not choose); configure the URL the seller redirects to.
   */
  | 'request_redirect_refused';

/** Whose fault a refusal is: the request as the caller built it, or the caller's configuration. */
export type RequestSigningBlame = 'caller' | 'configuration';

const BLAME: Readonly<Record<RequestSigningCode, RequestSigningBlame>> = {
  request_target_uri_malformed: 'caller',
  request_content_type_missing: 'caller',
  request_header_unsignable: 'caller',
  request_signer_failed: 'configuration',
  request_digest_forbidden: 'configuration',
  request_redirect_refused: 'configuration',
};

/**
 * A request the signer refused (`code` `UNSIGNABLE_REQUEST`), with the reason as a stable
 * `requestCode` and whose fault it is.
 *
 * @example
 * try { await signedFetch(url, init) } catch (e) {
 *   if (e instanceof RequestSigningError && e.requestCode === 'request_redirect_refused') reconfigure(e.message);
 * }
 */
export class RequestSigningError extends DecodeError {
  override readonly name = 'RequestSigningError';
  override readonly code: 'UNSIGNABLE_REQUEST' = 'UNSIGNABLE_REQUEST';
  /** Why: see {@link RequestSigningCode}. */
  readonly requestCode: RequestSigningCode;
  /** Whose fault: the request (`caller`) or the setup (`configuration`). */
  readonly blame: RequestSigningBlame;

  constructor(requestCode: RequestSigningCode, message: string, options: { cause?: unknown } = {}) {
    super('UNSIGNABLE_REQUEST', `${requestCode}: ${message}`, options);
    this.requestCode = requestCode;
    this.blame = BLAME[requestCode];
  }
}
