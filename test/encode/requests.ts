/**
 * Realistic request arguments for the encode tests, typed by the generated AdCP 3.1 request
 * types (so the fixtures themselves are checked at compile time) and checked against the request
 * schemas by the tests that use them.
 */
import type { CreateMediaBuyRequest, GetProductsRequest, PackageRequest } from '../../src/generated/v3_1/pinned.js';

/** A fixed idempotency key of the schema's pattern, so tests compare bytes. */
export const KEY = '7c1d3b0e-5f4a-4d8e-9b2c-a1e0f3d5c7b9';

/** Package `i` of a media buy: a product, its pricing option, a budget, pacing, targeting and a correlation value. */
export function mediaBuyPackage(i: number): PackageRequest {
  return {
    product_id: `ctv-premium-${i % 7}`,
    pricing_option_id: `cpm-usd-${i % 3}`,
    budget: 5000 + 250 * i,
    bid_price: 18.5,
    pacing: 'even',
    format_ids: [{ agent_url: 'https://creative.seller.example', id: `video_${i % 4}_30s` }],
    targeting_overlay: { geo_countries: ['US', 'CA'], language: ['en'] },
    context: { buyer_ref: `pkg-${i}` },
  };
}

/**
 * A create_media_buy request with `packages` packages, as a buyer plans it (without the version
 * fields: encode stamps them).
 *
 * @param packages How many packages (at least 1).
 * @param key The idempotency key.
 * @returns The arguments.
 */
export function mediaBuyRequest(packages: number, key: string = KEY): CreateMediaBuyRequest {
  return {
    idempotency_key: key,
    account: { brand: { domain: 'acme-outdoor.example' }, operator: 'agency.example' },
    brand: { domain: 'acme-outdoor.example' },
    start_time: '2026-07-01T00:00:00Z',
    end_time: '2026-09-30T23:59:59Z',
    po_number: 'PO-2026-0042',
    packages: [mediaBuyPackage(0), ...Array.from({ length: packages - 1 }, (_, i) => mediaBuyPackage(i + 1))],
    context: { trace_id: 'trace-8f14e45f', campaign: 'summer-ctv' },
  };
}

/** A get_products brief. */
export const PRODUCTS_BRIEF: GetProductsRequest = {
  buying_mode: 'brief',
  brief: 'Premium CTV inventory for an outdoor gear launch, US and Canada, adults 25-54, Q3',
  context: { trace_id: 'trace-0cc175b9' },
};
