/**
 * The JWKS resolver's and the revocation list's fetch limits follow the bounded fetch's one rule
 * (src/errors/option-rules.ts): `maxBytes` a positive safe integer or Infinity, `timeoutMs` a positive
 * safe integer of ms a timer holds; anything else is INVALID_OPTION at creation, before any fetch.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DecodeError } from '../../src/errors/errors.js';
import { createJwksResolver, createRevocationList } from '../../src/webhooks/index.js';

const url = 'https://seller.example/doc.json';
const noFetch = async (): Promise<Response> => {
  throw new Error('no fetch at creation');
};
const factories = {
  createJwksResolver: (bounds: object) => createJwksResolver({ url, agent: 'https://seller.example/mcp', fetch: noFetch, ...bounds }),
  createRevocationList: (bounds: object) =>
    createRevocationList({ url, issuer: 'https://seller.example', keys: async () => undefined, fetch: noFetch, ...bounds }),
};

const badMaxBytes = fc.oneof(
  fc.integer({ max: 0 }),
  fc.double({ noInteger: true }).filter((n) => Number.isFinite(n)),
  fc.constantFrom(Number.NaN, -Infinity, 2 ** 53, null, '1024', true, {}),
);
const badTimeout = fc.oneof(
  fc.double({ max: 0, noNaN: true }),
  fc.double({ noInteger: true }).filter((n) => Number.isFinite(n)),
  fc.double({ min: 2_147_483_648, noNaN: true }),
  fc.constantFrom(Number.NaN, Infinity, null, '1000', false, []),
);

describe.each(Object.entries(factories))('%s: fetch limits by the bounded fetch rule', (name, create) => {
  test('a maxBytes or timeoutMs outside the rule is INVALID_OPTION naming the option and the factory', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          badMaxBytes.map((v) => ['maxBytes', v] as const),
          badTimeout.map((v) => ['timeoutMs', v] as const),
        ),
        ([option, value]) => {
          let thrown: unknown;
          try {
            create({ [option]: value });
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(DecodeError);
          expect(thrown).toMatchObject({ code: 'INVALID_OPTION' });
          expect((thrown as DecodeError).message).toContain(`${name}: option ${option} must be`);
        },
      ),
    );
  });

  test('a positive safe integer, Infinity bytes or whole ms are accepted, and nothing is fetched at creation', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 1, max: 2 ** 40 }), fc.constant(Infinity)),
        fc.integer({ min: 1, max: 2_147_483_647 }),
        (maxBytes, timeoutMs) => {
          expect(() => create({ maxBytes, timeoutMs })).not.toThrow();
        },
      ),
      { numRuns: 50 },
    );
  });
});
