/**
 * One object per seller agent holds the pin and the bounds for both directions: createDecoder's
 * options bind encode and safeEncode as they bind decode, at the root and in the pinned entries;
 * per-call options win, and a pinned decoder's version cannot be overridden.
 */
import { describe, expect, test } from 'vitest';
import * as v30 from '../../src/generated/v3_0/pinned.js';
import * as v31 from '../../src/generated/v3_1/pinned.js';
import { createDecoder, DecodeError, RequestError } from '../../src/index.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { caughtAs } from '../helpers.js';
import { mediaBuyRequest, PRODUCTS_BRIEF } from './requests.js';

describe('root createDecoder', () => {
  test('its version and bounds bind encode', () => {
    const seller = createDecoder({ version: '3.0', maxBytes: 2048 });
    expect(seller.encode('get_products', { buying_mode: 'wholesale' }).version).toBe(V3_0);
    const big = seller.safeEncode('create_media_buy', mediaBuyRequest(20) as never);
    expect(!big.success && big.error instanceof RequestError && big.error.fault).toBe('limit');
    // The same decoder's decode is bound by the same options.
    expect(seller.safeDecode('get_products', { products: [] }, { transport: 'payload' })).toMatchObject({
      success: true,
      version: V3_0,
    });
  });

  test('per-call options win; undefined leaves the decoder’s bound in place', () => {
    const seller = createDecoder({ maxBytes: 2048 });
    expect(seller.encode('create_media_buy', mediaBuyRequest(20), { maxBytes: 1024 * 1024 }).task).toBe('create_media_buy');
    expect(seller.safeEncode('create_media_buy', mediaBuyRequest(20), { maxBytes: undefined }).success).toBe(false);
    expect(seller.encode('get_products', { buying_mode: 'wholesale' }, { version: '3.0' }).version).toBe(V3_0);
  });

  test('a decoder without a version speaks the default version', () => {
    expect(createDecoder({}).encode('get_products', PRODUCTS_BRIEF).args.adcp_version).toBe('3.1');
  });

  test('an invalid per-call option is the caller’s error, thrown or returned', () => {
    const seller = createDecoder({});
    expect(caughtAs(DecodeError, () => seller.encode('get_products', PRODUCTS_BRIEF, { maxDepth: -1 })).code).toBe('INVALID_OPTION');
    const r = seller.safeEncode('get_products', PRODUCTS_BRIEF, { maxDepth: -1 });
    expect(!r.success && r.error.code).toBe('INVALID_OPTION');
  });
});

describe('pinned createDecoder', () => {
  test('binds the bounds; the version is the import’s', () => {
    const seller = v31.createDecoder({ maxNodes: 40 });
    expect(seller.encode('get_products', PRODUCTS_BRIEF).version).toBe(V3_1);
    const r = seller.safeEncode('create_media_buy', mediaBuyRequest(5));
    expect(!r.success && r.error instanceof RequestError && r.error.fault).toBe('limit');
    expect(v30.createDecoder({}).encode('get_products', { buying_mode: 'wholesale' }).release).toBe('3.0');
  });

  test('a version option is refused, per call and per decoder', () => {
    const seller = v31.createDecoder({});
    expect(caughtAs(DecodeError, () => seller.encode('get_products', PRODUCTS_BRIEF, { version: '3.0' } as never)).code).toBe(
      'INVALID_OPTION',
    );
    expect(caughtAs(DecodeError, () => v31.createDecoder({ version: '3.0' } as never)).code).toBe('INVALID_OPTION');
  });

  test.each([
    ['root', createDecoder],
    ['pinned', v31.createDecoder],
  ] as const)('%s: a decoder’s options are read at creation, never by encode', (_, create) => {
    let reads = 0;
    const options = {
      get maxBytes() {
        reads++;
        return 4096;
      },
    };
    const seller = (create as typeof v31.createDecoder)(options);
    const after = reads;
    seller.encode('get_products', PRODUCTS_BRIEF);
    seller.encode('get_products', PRODUCTS_BRIEF, { maxDepth: 32 });
    expect(reads).toBe(after);
  });
});
