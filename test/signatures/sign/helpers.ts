/**
 * What the signer tests share: the public test keys of the webhook-signing vectors (read from the
 * synced copy, never copied), published as request-signing keys, and a fetch that captures what
 * the signing fetch sends, turned into the verifier's view of a received request.
 */
import type { ResolvedKey, WebhookJwk } from '../../../src/signatures/verify/keys.js';
import type { VerifiableRequest } from '../../../src/signatures/verify/verify.js';
import { ed25519, es256 } from '../../webhooks/fixtures.js';
import type { TestKey } from '../../webhooks/signer.js';

export const BUYER_AGENT = 'https://buyer.example.com/adcp';

/** A test key's private JWK, as a buyer would load it. */
export function privateJwk(key: TestKey) {
  return { kty: key.kty, crv: key.crv, x: key.x, ...(key.y === undefined ? {} : { y: key.y }), d: key._private_d_for_test_only };
}

/** The same key as the buyer publishes it for request signing. */
export function publishedJwk(key: TestKey): WebhookJwk {
  const { _private_d_for_test_only: _d, ...rest } = key;
  return { ...rest, adcp_use: 'request-signing', use: 'sig', key_ops: ['verify'] };
}

export const KEYS = [
  { key: ed25519, alg: 'ed25519' as const },
  { key: es256, alg: 'ecdsa-p256-sha256' as const },
];

/** The seller's resolver over the buyer's published keys. */
export function resolverOf(...keys: TestKey[]): (kid: string) => ResolvedKey | undefined {
  const jwks = new Map(keys.map((k) => [k.kid, publishedJwk(k)]));
  return (kid) => {
    const jwk = jwks.get(kid);
    return jwk === undefined ? undefined : { jwk, agent: BUYER_AGENT };
  };
}

/** A fetch that records each Request and answers 200. */
export function capturingFetch(): { fetch: (input: string | URL | Request) => Promise<Response>; sent: Request[] } {
  const sent: Request[] = [];
  return {
    sent,
    fetch: async (input) => {
      sent.push(input instanceof Request ? input : new Request(input));
      return new Response('{}', { headers: { 'content-type': 'application/json' } });
    },
  };
}

/** What a seller receives: the request's URL, lowercase headers and body bytes. */
export async function received(request: Request): Promise<VerifiableRequest> {
  return {
    method: request.method,
    url: request.url,
    headers: new Map(request.headers),
    body: new Uint8Array(await request.arrayBuffer()),
  };
}
