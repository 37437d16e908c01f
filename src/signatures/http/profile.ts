/**
 * The AdCP RFC 9421 profiles (security.mdx, "AdCP RFC 9421 profile" and "Webhook callbacks") as
 * data: what separates a webhook signature from a request signature is its `tag`, the components
 * it must cover, the alphabet of its `Signature` bytes and the key purposes that may verify it;
 * everything else (base, canonicalization, parameters, window) is shared. Signer and verifier read
 * the same entry, so the two cannot drift apart.
 */
import type { BinaryAlphabet } from './structured-fields.js';

/** One profile. */
export interface SignatureProfile {
  /** The `tag` signature parameter, matched byte for byte. */
  readonly tag: string;
  /** The alphabet of the `Signature` byte sequence. */
  readonly signatureAlphabet: Exclude<BinaryAlphabet, 'either'>;
  /** The components a signature must cover, given whether the request has a body. */
  readonly requiredComponents: (hasBody: boolean) => readonly string[];
  /** The JWK `adcp_use` values a verifier accepts. */
  readonly keyPurposes: readonly string[];
  /** The taxonomy a verifier's refusals carry: `webhook_*` or `request_*` codes. */
  readonly refusals: 'webhook' | 'request';
}

/** The label a signer writes and a verifier reads (security.mdx: conventionally `sig1`). */
export const SIGNATURE_LABEL = 'sig1';

/** The parameters every signature carries, in the order a signer writes them. */
export const SIGNATURE_PARAMS = ['created', 'expires', 'nonce', 'keyid', 'alg', 'tag'] as const;

const TARGET = ['@method', '@target-uri', '@authority'] as const;
const WITH_BODY = [...TARGET, 'content-type', 'content-digest'] as const;

/** `adcp/webhook-signing/v1`: every component, a body always; Base64URL `Signature` throughout 3.x. */
export const WEBHOOK_PROFILE: SignatureProfile = {
  tag: 'adcp/webhook-signing/v1',
  signatureAlphabet: 'base64url',
  requiredComponents: () => WITH_BODY,
  // `webhook-signing` is deprecated but still accepted on the webhook path.
  keyPurposes: ['request-signing', 'webhook-signing'],
  refusals: 'webhook',
};

const REQUEST_TAG = 'adcp/request-signing/v1';
/** `content-type` and `content-digest` whenever there is a body (3.2's rule, which 3.0/3.1 verifiers accept). */
const requestComponents = (hasBody: boolean): readonly string[] => (hasBody ? WITH_BODY : TARGET);
/** A 3.0/3.1 endpoint whose `covers_content_digest` is `forbidden`: `content-type` with a body, never `content-digest`. */
const undigestedComponents = (hasBody: boolean): readonly string[] => (hasBody ? [...TARGET, 'content-type'] : TARGET);

const request = (signatureAlphabet: 'base64url' | 'base64', requiredComponents: SignatureProfile['requiredComponents']) =>
  ({ tag: REQUEST_TAG, signatureAlphabet, requiredComponents, keyPurposes: ['request-signing'], refusals: 'request' }) as const;

/**
 * `adcp/request-signing/v1` as 3.0 and 3.1 endpoints negotiate it: `Signature` in unpadded
 * Base64URL (the legacy override), and as 3.2 defines it: RFC 8941 padded Base64.
 */
export const REQUEST_PROFILES: Readonly<Record<'base64url' | 'base64', SignatureProfile>> = {
  base64url: request('base64url', requestComponents),
  base64: request('base64', requestComponents),
};

/**
 * The legacy 3.0/3.1 posture `covers_content_digest: "forbidden"` (security.mdx: a signer MUST NOT
 * cover `content-digest`): Base64URL only, since 3.2 makes body binding mandatory.
 */
export const UNDIGESTED_REQUEST_PROFILE: SignatureProfile = request('base64url', undigestedComponents);
