/**
 * The signer against the request-signing canonicalization vectors (read from the synced copy):
 * for each accepted case, the signature verifies over a base written here from the vector's
 * expected `@target-uri` and `@authority` (independently of src/http-signature); each refused case
 * is `UNSIGNABLE_REQUEST`. Then the options checked at creation and the requests it cannot sign.
 */
import { webcrypto } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { DecodeError } from '../../../src/errors/errors.js';
import { createRequestSigner, type RequestSignerOptions, withRequestSigning } from '../../../src/signatures/sign/index.js';
import { canonicalizationCases } from '../../fixtures/vectors.js';
import { ed25519, es256 } from '../../webhooks/fixtures.js';
import { capturingFetch, privateJwk } from './helpers.js';

const cases = canonicalizationCases();
const publicKey = webcrypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: ed25519.x }, { name: 'Ed25519' }, false, ['verify']);
const signer = createRequestSigner({ key: privateJwk(ed25519), keyid: ed25519.kid, alg: 'ed25519' });

async function codeOf(work: () => unknown): Promise<string | undefined> {
  try {
    await work();
    return undefined;
  } catch (error) {
    if (error instanceof DecodeError) return error.code;
    throw error;
  }
}

describe('request-signing/canonicalization.json through the signer', () => {
  test('the vectors hold accepted and refused cases', () => {
    expect(cases.filter((c) => c.reject !== true).length).toBeGreaterThan(10);
    expect(cases.filter((c) => c.reject === true).length).toBeGreaterThan(2);
  });
  for (const c of cases) {
    test(c.name, async () => {
      if (c.reject === true) {
        expect(await codeOf(() => signer.sign({ method: 'POST', url: c.input_url }))).toBe('UNSIGNABLE_REQUEST');
        return;
      }
      const headers = await signer.sign({ method: 'post', url: c.input_url });
      const params = headers['signature-input'].slice('sig1='.length);
      const base = `"@method": POST\n"@target-uri": ${c.expected_target_uri}\n"@authority": ${c.expected_authority}\n"@signature-params": ${params}`;
      const signature = Buffer.from(headers.signature.slice('sig1=:'.length, -1), 'base64url');
      expect(await webcrypto.subtle.verify({ name: 'Ed25519' }, await publicKey, signature, new TextEncoder().encode(base))).toBe(true);
    });
  }
});

describe('options are checked at creation', () => {
  const valid: RequestSignerOptions = { key: privateJwk(ed25519), keyid: ed25519.kid, alg: 'ed25519' };
  const wrong: Array<[string, Record<string, unknown>, RegExp]> = [
    ['an ES256 JWK for ed25519', { key: privateJwk(es256) }, /option key must be a OKP\/Ed25519 JWK/],
    ['a public JWK', { key: { kty: 'OKP', crv: 'Ed25519', x: ed25519.x } }, /without d/],
    ['a JWK naming another kid', { key: { ...privateJwk(ed25519), kid: 'other' } }, /option key\.kid/],
    ['a JWK of another JWS alg', { key: { ...privateJwk(ed25519), alg: 'ES256' } }, /option key\.alg/],
    ['no key', { key: undefined }, /option key must be/],
    ['an empty keyid', { keyid: '' }, /option keyid/],
    ['a keyid with a line break', { keyid: 'a\nb' }, /option keyid/],
    ['an alg outside the allowlist', { alg: 'rsa-pss-sha512' }, /option alg must be one of ed25519, ecdsa-p256-sha256/],
    ['a validity over 300 s', { validitySeconds: 301 }, /option validitySeconds must be an integer from 1 to 300/],
    ['a validity of 0', { validitySeconds: 0 }, /option validitySeconds/],
    ['an unknown encoding', { signatureEncoding: 'hex' }, /option signatureEncoding/],
    ['a clock that is no function', { now: 5 }, /option now/],
    ['a subtle without sign', { subtle: { importKey() {}, digest() {} } }, /option subtle/],
  ];
  for (const [name, change, message] of wrong) {
    test(name, () => {
      let error: unknown;
      try {
        createRequestSigner({ ...valid, ...change } as RequestSignerOptions);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DecodeError);
      expect((error as DecodeError).code).toBe('INVALID_OPTION');
      expect((error as DecodeError).message).toMatch(message);
    });
  }

  test('key material is never shown: a string key, a key in the options’ place, a JWK whose members hold the key (issue 28, item 7)', () => {
    const secret = privateJwk(ed25519).d as string;
    const attempts: unknown[] = [
      { ...valid, key: secret },
      { ...valid, key: `-----BEGIN PRIVATE KEY-----${secret}` },
      secret,
      { ...valid, key: { kty: secret, crv: secret, d: secret } },
    ];
    for (const options of attempts) {
      let error: unknown;
      try {
        createRequestSigner(options as RequestSignerOptions);
      } catch (e) {
        error = e;
      }
      expect((error as DecodeError).code).toBe('INVALID_OPTION');
      const { message } = error as DecodeError;
      // Not even a few characters of it: any 8-character run of the secret is absent.
      for (let i = 0; i + 8 <= secret.length; i++) expect(message).not.toContain(secret.slice(i, i + 8));
    }
  });

  test('a WebCrypto key: a private signing key of the algorithm is taken, a public or foreign one refused', async () => {
    const pair = (await webcrypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
    expect(createRequestSigner({ key: pair.privateKey, keyid: 'k', alg: 'ed25519' }).alg).toBe('ed25519');
    expect(await codeOf(() => createRequestSigner({ key: pair.publicKey, keyid: 'k', alg: 'ed25519' }))).toBe('INVALID_OPTION');
    expect(await codeOf(() => createRequestSigner({ key: pair.privateKey, keyid: 'k', alg: 'ecdsa-p256-sha256' }))).toBe('INVALID_OPTION');
    const headers = await createRequestSigner({ key: pair.privateKey, keyid: 'k', alg: 'ed25519' }).sign({
      method: 'GET',
      url: 'https://s.example/',
    });
    expect(headers.signature).toMatch(/^sig1=:[A-Za-z0-9_-]{86}:$/);
  });

  test('key material that does not import is INVALID_OPTION at the first signature, and withRequestSigning checks its arguments', async () => {
    const bad = createRequestSigner({ key: { ...privateJwk(ed25519), d: 'AAAA' }, keyid: ed25519.kid, alg: 'ed25519' });
    expect(await codeOf(() => bad.sign({ method: 'GET', url: 'https://s.example/' }))).toBe('INVALID_OPTION');
    expect(await codeOf(() => withRequestSigning('fetch' as never, signer))).toBe('INVALID_OPTION');
    expect(await codeOf(() => withRequestSigning(fetch, {} as never))).toBe('INVALID_OPTION');
  });
});

describe('requests the profile cannot sign are refused, nothing sent', () => {
  test('a body without a Content-Type', async () => {
    const { fetch: capture, sent } = capturingFetch();
    const send = withRequestSigning(capture, signer);
    expect(await codeOf(() => send('https://seller.example.com/mcp', { method: 'POST', body: new Uint8Array([1, 2]) }))).toBe(
      'UNSIGNABLE_REQUEST',
    );
    expect(sent).toHaveLength(0);
  });

  test('a signing function that answers a DER or short signature', async () => {
    const kms = createRequestSigner({ key: async () => new Uint8Array(70), keyid: 'kms-1', alg: 'ecdsa-p256-sha256' });
    expect(await codeOf(() => kms.sign({ method: 'GET', url: 'https://s.example/' }))).toBe('UNSIGNABLE_REQUEST');
  });

  test('a signing function gets the base and its 64 bytes are the Signature', async () => {
    let seen = '';
    const kms = createRequestSigner({
      key: async (base) => {
        seen = new TextDecoder().decode(base);
        return new Uint8Array(64).fill(7);
      },
      keyid: 'kms-1',
      alg: 'ecdsa-p256-sha256',
      signatureEncoding: 'base64',
    });
    const headers = await kms.sign({ method: 'DELETE', url: 'https://S.example:443/a/../b' });
    expect(seen.split('\n').slice(0, 3)).toEqual(['"@method": DELETE', '"@target-uri": https://s.example/b', '"@authority": s.example']);
    expect(headers.signature).toBe(`sig1=:${Buffer.from(new Uint8Array(64).fill(7)).toString('base64')}:`);
  });

  test('the signing fetch replaces signature headers the caller set, and sends the bytes it digested', async () => {
    const { fetch: capture, sent } = capturingFetch();
    await withRequestSigning(capture, signer)('https://seller.example.com/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', signature: 'sig0=:AAAA:', 'content-digest': 'sha-256=:AAAA:' },
      body: '{"a":1}',
    });
    const request = sent[0] as Request;
    expect(request.headers.get('signature')).toMatch(/^sig1=:[A-Za-z0-9_-]{86}:$/);
    const digest = Buffer.from(await webcrypto.subtle.digest('SHA-256', new TextEncoder().encode('{"a":1}'))).toString('base64');
    expect(request.headers.get('content-digest')).toBe(`sha-256=:${digest}:`);
    expect(await request.text()).toBe('{"a":1}');
  });
});
