/**
 * verifySignature imports a JWK once and reuses the key: the reuse is per WebCrypto implementation,
 * since a CryptoKey one implementation imported is not a key another can verify with (two receivers
 * with their own `subtle` may share one resolver's JWK objects).
 */
import { describe, expect, test } from 'vitest';
import { verifySignature, type WebhookJwk } from '../../../src/signatures/verify/keys.js';

type Subtle = typeof crypto.subtle;
type Key = Awaited<ReturnType<Subtle['importKey']>>;

/** A WebCrypto whose keys are its own objects: its verify refuses any other implementation's key. */
function wrappingSubtle() {
  const own = new WeakMap<object, Key>();
  let imports = 0;
  const subtle: Pick<Subtle, 'importKey' | 'verify'> = {
    importKey: (async (...args: Parameters<Subtle['importKey']>) => {
      imports++;
      const wrapper = {};
      own.set(wrapper, await crypto.subtle.importKey(...args));
      return wrapper;
    }) as Subtle['importKey'],
    verify: async (alg, key, signature, data) => {
      const inner = own.get(key);
      if (inner === undefined) throw new TypeError('not a key of this implementation');
      return crypto.subtle.verify(alg, inner, signature, data);
    },
  };
  return { subtle, imports: () => imports };
}

async function signedBase() {
  const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
  if (!('privateKey' in pair)) throw new Error('Ed25519 generateKey gave no key pair');
  const { x } = await crypto.subtle.exportKey('jwk', pair.publicKey);
  const jwk: WebhookJwk = { kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', ...(x === undefined ? {} : { x }) };
  const base = new TextEncoder().encode('"@method": POST');
  const signature = new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, pair.privateKey, base));
  return { jwk, base, signature };
}

describe('verifySignature keeps imported keys per WebCrypto implementation', () => {
  test('one JWK object verified by two implementations: each verifies with a key it imported', async () => {
    const { jwk, base, signature } = await signedBase();
    const a = wrappingSubtle();
    const b = wrappingSubtle();
    expect(await verifySignature(jwk, 'ed25519', signature, base, a.subtle)).toBe(true);
    expect(await verifySignature(jwk, 'ed25519', signature, base, crypto.subtle)).toBe(true);
    expect(await verifySignature(jwk, 'ed25519', signature, base, b.subtle)).toBe(true);
    expect(await verifySignature(jwk, 'ed25519', signature, base, a.subtle)).toBe(true);
    expect([a.imports(), b.imports()]).toEqual([1, 1]);
  });

  test('a wrong signature is still false under each implementation', async () => {
    const { jwk, base, signature } = await signedBase();
    signature[0]! ^= 1;
    expect(await verifySignature(jwk, 'ed25519', signature, base, wrappingSubtle().subtle)).toBe(false);
    expect(await verifySignature(jwk, 'ed25519', signature, base, crypto.subtle)).toBe(false);
  });
});
