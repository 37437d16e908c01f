/**
 * The benchmark's payloads: realistic AdCP 3.1 responses generated in code from a seed, so every
 * run (and every machine) measures the same bytes. test/bench/bench.test.ts checks that they are valid
 * against 3.1.19 and that their sizes stay where the table says.
 *
 * get_products: a seller's answer to a brief, products drawn from a small catalogue of
 * publishers, channels, formats and pricing models, with the optional parts real sellers send
 * (forecasts, placements, creative policy, expiry) on some products, and a share of non-ASCII
 * text (publisher names, city names, dashes) as multilingual sellers send it.
 *
 * They also satisfy the older schemas of @adcp/client 4.8 (a peer measured on the same bytes):
 * every product carries `delivery_measurement.provider` (deprecated in 3.1, still valid), forecast
 * ranges carry `mid`, metrics are ones AdCP 3.0 already lists, and the media buy has a `buyer_ref`.
 */

/** Mulberry32: a small, well-mixed 32-bit PRNG; deterministic for a seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const pick = <T>(r: Rand, list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;
const chance = (r: Rand, p: number): boolean => r() < p;
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const money = (r: Rand, lo: number, hi: number): number => Math.round((lo + r() * (hi - lo)) * 100) / 100;
function some<T>(r: Rand, list: readonly T[], lo: number, hi: number): T[] {
  const pool = [...list];
  const n = Math.min(pool.length, int(r, lo, hi));
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(pool.splice(Math.floor(r() * pool.length), 1)[0] as T);
  return out;
}

interface Publisher {
  readonly domain: string;
  readonly name: string;
  readonly properties: readonly string[];
  readonly tags: readonly string[];
  readonly channels: readonly string[];
  readonly timezone: string;
  readonly currency: string;
}

/** A catalogue row: the domain's label (under `.example`) and the lists as space-separated words, one publisher a line. */
function pub(
  label: string,
  name: string,
  properties: string,
  tags: string,
  channels: string,
  timezone: string,
  currency: string,
): Publisher {
  const list = (words: string): string[] => words.split(' ');
  return { domain: `${label}.example`, name, properties: list(properties), tags: list(tags), channels: list(channels), timezone, currency };
}

const PUBLISHERS: readonly Publisher[] = [
  pub('trailheadtv', 'Trailhead TV', 'trailhead_ctv_app trailhead_web', 'outdoor adventure', 'ctv olv', 'America/Denver', 'USD'),
  pub('alpineoutdoors', 'Alpine Outdoors', 'alpine_web alpine_app', 'editorial gear_reviews', 'display olv', 'Europe/Zurich', 'CHF'),
  pub('dailyledger', 'The Daily Ledger', 'ledger_web ledger_newsletter', 'news business', 'display email', 'America/New_York', 'USD'),
  pub('radiocafe', 'Radio Café', 'radiocafe_stream radiocafe_podcasts', 'music talk', 'streaming_audio podcast', 'Europe/Paris', 'EUR'),
  pub('saopaulo-metro', 'São Paulo Metrô Screens', 'linha_azul linha_verde', 'transit dooh', 'dooh', 'America/Sao_Paulo', 'BRL'),
  pub('zuerich-anzeiger', 'Zürcher Anzeiger', 'anzeiger_web anzeiger_epaper', 'news regional', 'display print', 'Europe/Zurich', 'CHF'),
  pub('gamehub', 'GameHub Network', 'gamehub_web gamehub_mobile', 'gaming esports', 'gaming display olv', 'America/Los_Angeles', 'USD'),
  pub('shopmart', 'ShopMart Retail Media', 'shopmart_web shopmart_app', 'retail grocery', 'retail_media display', 'America/Chicago', 'USD'),
  pub('tokyo-life', '東京ライフ', 'tokyo_life_web', 'lifestyle', 'display social', 'Asia/Tokyo', 'JPY'),
];

const CREATIVE_AGENTS = [
  'https://creative.adcontextprotocol.org',
  'https://creatives.trailheadtv.example',
  'https://formats.shopmart.example/adcp',
];
const DISPLAY_SIZES: ReadonlyArray<readonly [number, number]> = [
  [300, 250],
  [728, 90],
  [160, 600],
  [320, 50],
  [970, 250],
  [300, 600],
];
const VIDEO_FORMATS = ['video_15s', 'video_30s', 'video_6s_bumper', 'video_30s_ctv', 'video_vertical_15s'];
const AUDIO_FORMATS = ['audio_15s', 'audio_30s', 'audio_host_read_60s'];
const DAYPARTS = ['Prime Time', 'Daytime', 'Late Night', 'Morning Drive', 'Weekend', 'Run of Network'];
const AUDIENCES = [
  'adults 25–54',
  'sports fans',
  'new parents',
  'outdoor enthusiasts',
  'business decision makers',
  'gamers 18–34',
  'grocery shoppers',
  'commuters',
];
const CITIES = ['Zürich', 'São Paulo', 'Montréal', 'München', 'Kraków', 'Reykjavík', 'Denver', 'Chicago', 'Tokyo'];
const MEASUREMENT = [
  'Google Ad Manager with IAS viewability',
  'Nielsen DAR',
  'Geopath for DOOH impressions',
  'Publisher ad server (first-party)',
  'Comscore Campaign Ratings',
];
// Only metrics that AdCP 3.0 also lists, so that @adcp/client 4.8 (whose schemas predate 3.1) accepts them too.
const METRICS_BY_CHANNEL: Readonly<Record<string, readonly string[]>> = {
  ctv: ['impressions', 'spend', 'completed_views', 'completion_rate', 'reach', 'frequency'],
  olv: ['impressions', 'spend', 'views', 'completed_views', 'completion_rate', 'viewability'],
  display: ['impressions', 'spend', 'clicks', 'ctr', 'viewability', 'conversions'],
  email: ['impressions', 'spend', 'clicks', 'ctr'],
  streaming_audio: ['impressions', 'spend', 'reach', 'frequency'],
  podcast: ['impressions', 'spend', 'reach'],
  dooh: ['impressions', 'spend', 'dooh_metrics'],
  print: ['impressions', 'spend'],
  gaming: ['impressions', 'spend', 'views', 'engagement_rate'],
  retail_media: ['impressions', 'spend', 'clicks', 'roas', 'conversions', 'new_to_brand_rate'],
  social: ['impressions', 'spend', 'clicks', 'engagement_rate', 'reach'],
};

function formatIds(r: Rand, channel: string): JsonObject[] {
  const agent = pick(r, CREATIVE_AGENTS);
  if (channel === 'display' || channel === 'email' || channel === 'retail_media' || channel === 'social' || channel === 'print') {
    return some(r, DISPLAY_SIZES, 1, 4).map(([w, h]) => ({ agent_url: agent, id: `display_${w}x${h}`, width: w, height: h }));
  }
  if (channel === 'streaming_audio' || channel === 'podcast') return some(r, AUDIO_FORMATS, 1, 2).map((id) => ({ agent_url: agent, id }));
  if (channel === 'dooh') return [{ agent_url: agent, id: 'dooh_landscape_1920x1080', width: 1920, height: 1080 }];
  return some(r, VIDEO_FORMATS, 1, 3).map((id) => ({
    agent_url: agent,
    id,
    duration_ms: id.includes('6s') ? 6000 : id.includes('15s') ? 15000 : 30000,
  }));
}

function pricingOptions(r: Rand, id: string, channel: string, currency: string, guaranteed: boolean): JsonObject[] {
  const out: JsonObject[] = [];
  const video = channel === 'ctv' || channel === 'olv';
  const base = channel === 'ctv' ? 35 : video ? 18 : channel === 'dooh' ? 12 : 4;
  if (guaranteed) {
    out.push({
      pricing_option_id: `${id}_cpm_fixed_${currency.toLowerCase()}`,
      pricing_model: 'cpm',
      currency,
      fixed_price: money(r, base, base * 1.6),
      min_spend_per_package: int(r, 5, 50) * 1000,
    });
  } else {
    const floor = money(r, base * 0.5, base);
    out.push({
      pricing_option_id: `${id}_cpm_auction_${currency.toLowerCase()}`,
      pricing_model: 'cpm',
      currency,
      floor_price: floor,
      price_guidance: {
        p25: money(r, floor, floor * 1.2),
        p50: money(r, floor * 1.2, floor * 1.4),
        p75: money(r, floor * 1.4, floor * 1.7),
        p90: money(r, floor * 1.7, floor * 2.2),
      },
    });
  }
  if (video && chance(r, 0.6))
    out.push({
      pricing_option_id: `${id}_cpcv_${currency.toLowerCase()}`,
      pricing_model: 'cpcv',
      currency,
      fixed_price: money(r, 0.02, 0.09),
    });
  if (channel === 'display' && chance(r, 0.5))
    out.push({
      pricing_option_id: `${id}_vcpm_${currency.toLowerCase()}`,
      pricing_model: 'vcpm',
      currency,
      floor_price: money(r, base, base * 2),
    });
  if ((channel === 'display' || channel === 'retail_media' || channel === 'email') && chance(r, 0.5)) {
    out.push({ pricing_option_id: `${id}_cpc_${currency.toLowerCase()}`, pricing_model: 'cpc', currency, fixed_price: money(r, 0.3, 2.5) });
  }
  return out;
}

function forecast(r: Rand, id: string, currency: string): JsonObject {
  const points: JsonObject[] = [];
  let budget = int(r, 2, 10) * 5000;
  for (let i = 0; i < int(r, 2, 4); i++) {
    const impressions = Math.round((budget / money(r, 8, 40)) * 1000);
    points.push({
      budget,
      product_id: id,
      metrics: {
        impressions: { low: Math.round(impressions * 0.85), mid: impressions, high: Math.round(impressions * 1.15) },
        reach: { low: Math.round(impressions * 0.3), mid: Math.round(impressions * 0.38), high: Math.round(impressions * 0.45) },
        spend: { mid: budget },
      },
    });
    budget *= 2;
  }
  return {
    points,
    method: pick(r, ['estimate', 'modeled']),
    currency,
    generated_at: '2026-03-04T15:21:09Z',
    valid_until: '2026-03-11T15:21:09Z',
  };
}

function product(r: Rand, n: number): JsonObject {
  const pub = pick(r, PUBLISHERS);
  const channel = pick(r, pub.channels);
  const guaranteed = chance(r, 0.45);
  const daypart = pick(r, DAYPARTS);
  const audience = pick(r, AUDIENCES);
  const city = pick(r, CITIES);
  const id = `${pub.domain.split('.')[0]!.replace(/-/g, '_')}_${channel}_${n.toString(36).padStart(4, '0')}`;
  const p: JsonObject = {
    product_id: id,
    name: `${pub.name} ${channel.toUpperCase().replace('_', ' ')} — ${daypart}`,
    description: `${guaranteed ? 'Guaranteed' : 'Auction-priced'} ${channel.replace('_', ' ')} inventory on ${pub.name}, ${daypart.toLowerCase()}, reaching ${audience} in and around ${city}. Brand-safe placements, viewability measured by the publisher's ad server; frequency capped at ${int(r, 2, 6)} per day.`,
    publisher_properties: [
      chance(r, 0.5)
        ? { publisher_domain: pub.domain, selection_type: 'by_id', property_ids: some(r, pub.properties, 1, pub.properties.length) }
        : { publisher_domain: pub.domain, selection_type: 'by_tag', property_tags: some(r, pub.tags, 1, pub.tags.length) },
    ],
    channels: [channel],
    format_ids: formatIds(r, channel),
    delivery_type: guaranteed ? 'guaranteed' : 'non_guaranteed',
    pricing_options: pricingOptions(r, id, channel, pub.currency, guaranteed),
    reporting_capabilities: {
      available_reporting_frequencies: guaranteed ? ['daily'] : ['hourly', 'daily'],
      expected_delay_minutes: pick(r, [30, 60, 120, 240]),
      timezone: pub.timezone,
      supports_webhooks: chance(r, 0.6),
      available_metrics: METRICS_BY_CHANNEL[channel] as string[],
      date_range_support: 'date_range',
    },
    delivery_measurement: { provider: pick(r, MEASUREMENT) },
    brief_relevance: `Matches the brief's focus on ${audience}; ${channel.replace('_', ' ')} in ${city} with ${guaranteed ? 'guaranteed delivery' : 'flexible auction pricing'}.`,
  };
  if (chance(r, 0.4)) p.forecast = forecast(r, id, pub.currency);
  if (chance(r, 0.3)) {
    p.placements = some(r, ['homepage', 'article_top', 'article_inline', 'sidebar', 'preroll'], 1, 3).map((slot) => ({
      kind: 'seller_inline',
      placement_id: `${id}_${slot}`,
      name: `${pub.name} ${slot.replace('_', ' ')}`,
      mode: pick(r, ['targetable', 'included']),
      tags: [slot, channel],
    }));
  }
  if (chance(r, 0.35))
    p.creative_policy = { co_branding: pick(r, ['optional', 'none']), landing_page: 'any', templates_available: chance(r, 0.5) };
  if (chance(r, 0.5)) p.expires_at = `2026-03-${String(int(r, 10, 28)).padStart(2, '0')}T23:59:59Z`;
  if (chance(r, 0.3)) p.property_targeting_allowed = true;
  if (chance(r, 0.15)) p.is_custom = true;
  return p;
}

function envelope(products: JsonObject[]): JsonObject {
  return {
    adcp_version: '3.1',
    status: 'completed',
    message: `Found ${products.length} products for the spring outdoor-gear brief.`,
    context_id: 'ctx_7f3a9c21',
    timestamp: '2026-03-04T15:21:09Z',
    cache_scope: 'public',
    products,
  };
}

/**
 * A get_products response whose JSON text is as close to `targetBytes` UTF-8 bytes as whole
 * products allow (one product at least). Deterministic for a seed.
 */
export function getProductsResponse(targetBytes: number, seed = 7): JsonObject {
  const r = rng(seed);
  const products: JsonObject[] = [];
  let size = utf8Bytes(JSON.stringify(envelope(products)));
  for (;;) {
    const next = product(r, products.length);
    const grown = size + utf8Bytes(JSON.stringify(next)) + (products.length > 0 ? 1 : 0);
    // Stop at whichever of "without" and "with" the next product lands nearer the target.
    if (products.length > 0 && Math.abs(grown - targetBytes) > Math.abs(size - targetBytes)) break;
    products.push(next);
    size = grown;
  }
  return envelope(products);
}

/** A create_media_buy response: a confirmed buy with a handful of packages. */
export function createMediaBuyResponse(seed = 11): JsonObject {
  const r = rng(seed);
  const packages: JsonObject[] = [];
  let total = 0;
  for (let i = 0; i < 6; i++) {
    const p = product(r, i);
    const option = (p.pricing_options as JsonObject[])[0] as JsonObject;
    const budget = int(r, 5, 60) * 1000;
    total += budget;
    const pkg: JsonObject = {
      package_id: `pkg_${String(i + 1).padStart(2, '0')}_${(p.product_id as string).slice(0, 24)}`,
      product_id: p.product_id as string,
      pricing_option_id: option.pricing_option_id as string,
      budget,
      pacing: pick(r, ['even', 'front_loaded']),
      start_time: '2026-04-15T00:00:00-06:00',
      end_time: '2026-06-30T23:59:59-06:00',
    };
    if (option.floor_price !== undefined) pkg.bid_price = money(r, option.floor_price as number, (option.floor_price as number) * 1.5);
    packages.push(pkg);
  }
  return {
    adcp_version: '3.1',
    status: 'completed',
    message: 'Media buy created; creatives due by April 1.',
    media_buy_id: 'mb_2026_trailhead_0412',
    buyer_ref: 'trailhead-spring-2026',
    media_buy_status: 'pending_creatives',
    confirmed_at: '2026-03-04T16:02:44Z',
    creative_deadline: '2026-04-01T23:59:59Z',
    revision: 1,
    currency: 'USD',
    total_budget: total,
    valid_actions: ['pause', 'update_budget', 'sync_creatives', 'cancel'],
    packages,
    context: { trace_id: 'buyer-trace-51c2' },
  };
}

/**
 * The same get_products payload made invalid in many places (every product loses a required
 * field and gets a bad enum value): the "many errors" rejection case.
 */
export function invalidGetProducts(payload: JsonObject): JsonObject {
  const copy = JSON.parse(JSON.stringify(payload)) as JsonObject;
  for (const p of copy.products as JsonObject[]) {
    delete p.reporting_capabilities;
    p.delivery_type = 'sometimes';
    for (const o of p.pricing_options as JsonObject[]) o.currency = 'dollars';
  }
  return copy;
}

/**
 * A valid get_products of about `targetBytes` of JSON built to make Ajv's map-key escaping
 * quadratic (issue 11): a small answer, then one `filter_diagnostics.excluded_by` key holding
 * half the bytes as `~/` runs, over one-letter strings that fill the other half (each fails the
 * `object` branch of a oneOf, whose discarded error Ajv's own code gave the escaped key).
 */
export function quadraticKeysGetProducts(targetBytes: number): JsonObject {
  const base = getProductsResponse(2 * 1024, 33);
  const room = targetBytes - utf8Bytes(JSON.stringify(base)) - 100;
  const key = '~/'.repeat(Math.floor(room / 4));
  const values = Array.from({ length: Math.floor(room / 8) }, () => 'a');
  return { ...base, filter_diagnostics: { excluded_by: { [key]: { count: 1, values } } } };
}

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** An MCP CallToolResult with the payload as JSON text in content[0] (the text path). */
export function mcpText(payload: unknown): { content: Array<{ type: 'text'; text: string }> } {
  return { content: [{ type: 'text', text: JSON.stringify(payload) }] };
}

/** An MCP CallToolResult with the payload in structuredContent and a one-line summary in content. */
export function mcpStructured(payload: JsonObject): { structuredContent: JsonObject; content: Array<{ type: 'text'; text: string }> } {
  return { structuredContent: payload, content: [{ type: 'text', text: String(payload.message ?? 'done') }] };
}

/**
 * The payloads the benchmark measures, by label: get_products at about 2 KB, 100 KB and 1 MB of
 * JSON, and a create_media_buy. The seed of the 2 KB one is picked so that whole products land
 * near 2 KB.
 */
export function benchPayloads(): Record<string, { task: 'get_products' | 'create_media_buy'; payload: JsonObject }> {
  return {
    'get_products 2KB': { task: 'get_products', payload: getProductsResponse(2 * 1024, 33) },
    'get_products 100KB': { task: 'get_products', payload: getProductsResponse(100 * 1024, 7) },
    'get_products 1MB': { task: 'get_products', payload: getProductsResponse(1024 * 1024, 7) },
    create_media_buy: { task: 'create_media_buy', payload: createMediaBuyResponse(11) },
  };
}

/** A text whose UTF-16 length is within maxBytes but whose UTF-8 size is maxBytes + 1: a valid JSON object. */
export function oversizeText(maxBytes: number): string {
  // '{"p":"' + body + '"}' with body of 2-byte characters (é) and one ASCII pad to land on maxBytes + 1.
  const frame = 8;
  const room = maxBytes + 1 - frame;
  const twoByte = Math.floor(room / 2);
  const text = `{"p":"${'é'.repeat(twoByte)}${'a'.repeat(room - twoByte * 2)}"}`;
  return text;
}

/** `{"a":{"a":...}}`, `depth` objects deep: valid JSON that only a depth bound rejects. */
export function deepText(depth: number): string {
  return `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
}

/**
 * The inputs the rejection benchmark times, each with the code decode must refuse it with: text one
 * byte over `maxBytes` (ASCII, and UTF-8 whose UTF-16 length is within it), nesting past the depth
 * bound, and the many-errors form of `payload`.
 */
export function rejectionCases(
  payload: JsonObject,
  maxBytes: number,
): Array<{ label: string; text: string; code: 'TOO_LARGE' | 'TOO_DEEP' | 'SCHEMA_MISMATCH' }> {
  const over = `${maxBytes / 1048576} MiB + 1 B`;
  const bytes = utf8Bytes(JSON.stringify(payload));
  return [
    { label: `${over}, ASCII`, text: `{"p":"${'a'.repeat(maxBytes - 7)}"}`, code: 'TOO_LARGE' },
    { label: `${over} UTF-8 in 2.1 M UTF-16 units`, text: oversizeText(maxBytes), code: 'TOO_LARGE' },
    { label: '100,000-deep nesting', text: deepText(100_000), code: 'TOO_DEEP' },
    {
      label: `invalid get_products ${(bytes / 1048576).toFixed(0)} MB, many errors`,
      text: JSON.stringify(invalidGetProducts(payload)),
      code: 'SCHEMA_MISMATCH',
    },
  ];
}

/**
 * Raw issues, as the error-listing validator would give them, for the worst listing the bounds
 * of src/validate/issue-listing.ts allow: a first issue whose pointer holds a key of `firstKeyChars` `~`
 * (escaped to twice that), then more issues than MAX_ISSUES, each with control characters and
 * long segments in its pointer and a long message, as near the character budget as they fit.
 */
export function worstIssues(
  firstKeyChars: number,
  count: number,
): Array<{ path: string; keyword: string; params: Record<string, unknown>; schemaPath: string; message: string }> {
  const first = {
    path: `/filter_diagnostics/excluded_by/${'~0'.repeat(firstKeyChars)}/values/0`,
    keyword: 'type',
    params: { type: 'string' },
    schemaPath: '#/oneOf/0/type',
    message: 'must be string',
  };
  const segment = '\u0001\u202e~1'.repeat(75);
  return [
    first,
    ...Array.from({ length: count }, (_, i) => ({
      path: `/${segment}/${i}/${segment}`,
      keyword: 'additionalProperties',
      params: { additionalProperty: segment },
      schemaPath: '#/additionalProperties',
      message: `must NOT have additional properties ${'x'.repeat(100)}`,
    })),
  ];
}
