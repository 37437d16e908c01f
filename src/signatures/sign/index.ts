/**
 * adcp-decode/sign: the buyer's signature on its requests, per the AdCP RFC 9421 request profile
 * (`tag="adcp/request-signing/v1"`), for sellers that advertise `request_signing`. WebCrypto only,
 * so it runs in Node, Workers and browsers.
 */

export type { SignatureAlg } from '../http/algorithms.js';
export { type RequestSigningBlame, type RequestSigningCode, RequestSigningError } from './errors.js';
export { type SigningFetch, withRequestSigning } from './fetch.js';
export type { PrivateJwk, RequestSignerOptions, SignFunction, SigningCryptoKey } from './options.js';
export type { RequestSigningCapability, SigningPolicyOptions } from './policy.js';
export { createRequestSigner, type RequestSigner, type SignableRequest, type SignatureHeaders } from './signer.js';
