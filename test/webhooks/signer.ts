/**
 * A small, independent RFC 9421 webhook signer for the tests (the seller's side). It shares no
 * code with src/webhooks: it builds the signature base itself from an already-canonical URL,
 * and test/webhooks/receiver.test.ts checks its bases against the vectors' expected ones.
 */
import { webcrypto } from 'node:crypto';

/** A private JWK as keys.json carries it (`_private_d_for_test_only` holds `d`). */
export interface TestKey {
  readonly kid: string;
  readonly kty: string;
  readonly crv: string;
  readonly x: string;
  readonly y?: string;
  readonly _private_d_for_test_only: string;
}

export interface SignOptions {
  readonly key: TestKey;
  /** Canonical absolute URL (lowercase host, no default port, no dot segments). */
  readonly url: string;
  readonly body: string | Uint8Array;
  readonly created: number;
  readonly expires?: number;
  readonly nonce?: string;
  readonly tag?: string;
  readonly components?: readonly string[];
  readonly contentType?: string;
  readonly method?: string;
}

export interface Signed {
  readonly headers: Record<string, string>;
  readonly base: string;
  readonly body: Uint8Array;
}

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');

/** Signs a webhook POST the way a seller following the profile would. */
export async function signWebhook(o: SignOptions): Promise<Signed> {
  const body = typeof o.body === 'string' ? new TextEncoder().encode(o.body) : o.body;
  const digest = Buffer.from(await webcrypto.subtle.digest('SHA-256', body)).toString('base64');
  const contentType = o.contentType ?? 'application/json';
  const method = o.method ?? 'POST';
  const u = new URL(o.url);
  const values: Record<string, string> = {
    '@method': method,
    '@target-uri': o.url,
    '@authority': u.host,
    'content-type': contentType,
    'content-digest': `sha-256=:${digest}:`,
  };
  const components = o.components ?? ['@method', '@target-uri', '@authority', 'content-type', 'content-digest'];
  const alg = o.key.kty === 'OKP' ? 'ed25519' : 'ecdsa-p256-sha256';
  const nonce = o.nonce ?? b64url(webcrypto.getRandomValues(new Uint8Array(16)));
  const params = `(${components.map((c) => `"${c}"`).join(' ')});created=${o.created};expires=${o.expires ?? o.created + 300};nonce="${nonce}";keyid="${o.key.kid}";alg="${alg}";tag="${o.tag ?? 'adcp/webhook-signing/v1'}"`;
  const base = `${components.map((c) => `"${c}": ${values[c]}`).join('\n')}\n"@signature-params": ${params}`;
  const jwk = {
    kty: o.key.kty,
    crv: o.key.crv,
    x: o.key.x,
    ...(o.key.y === undefined ? {} : { y: o.key.y }),
    d: o.key._private_d_for_test_only,
  };
  const algorithm = alg === 'ed25519' ? { name: 'Ed25519' } : { name: 'ECDSA', namedCurve: 'P-256' };
  const key = await webcrypto.subtle.importKey('jwk', jwk, algorithm, false, ['sign']);
  const signature = new Uint8Array(
    await webcrypto.subtle.sign(
      alg === 'ed25519' ? { name: 'Ed25519' } : { name: 'ECDSA', hash: 'SHA-256' },
      key,
      new TextEncoder().encode(base),
    ),
  );
  return {
    base,
    body,
    headers: {
      'content-type': contentType,
      'content-digest': values['content-digest'] as string,
      'signature-input': `sig1=${params}`,
      signature: `sig1=:${b64url(signature)}:`,
    },
  };
}
