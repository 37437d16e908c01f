/**
 * Type tests of encode (run by tsc in vitest's typecheck mode): the arguments are typed by the
 * task's request schema of the version the options speak (a missing required member, or a typo'd
 * member where the schema is closed, does not compile), the result is the frozen request typed
 * in that version, decoders and pinned entries bind the version, and any encoded request is an
 * `EncodedRequest` (what decode's `request` option takes) whose `args` an MCP client accepts.
 */
import type { CallToolRequest } from '@modelcontextprotocol/sdk/types.js';
import { expectTypeOf } from 'vitest';
import * as v30 from '../../src/generated/v3_0/pinned.js';
import * as v31 from '../../src/generated/v3_1/pinned.js';
import {
  createDecoder,
  type EncodedRequest,
  encode,
  type Frozen,
  newIdempotencyKey,
  type RequestsByVersion,
  safeEncode,
  type v3_0,
  type v3_1,
} from '../../src/index.js';
import type { V3_0, V3_1 } from '../fixtures/versions.js';

declare const plan: v3_1.CreateMediaBuyRequest;
const base = {
  idempotency_key: newIdempotencyKey(),
  account: { account_id: 'acc-1' },
  brand: { domain: 'acme.example' },
  start_time: 'asap',
  end_time: '2026-09-30T23:59:59Z',
} as const;

// --- Arguments are typed by the request schema ------------------------------------------------

expectTypeOf(encode<'create_media_buy'>)
  .parameter(1)
  .toEqualTypeOf<v3_1.CreateMediaBuyRequest>();
encode('create_media_buy', base);
encode('create_media_buy', plan);
// @ts-expect-error idempotency_key is required by the create_media_buy request schema
encode('create_media_buy', { ...base, idempotency_key: undefined });
encode('create_media_buy', { ...base, total_budget: { amount: 10_000, currency: 'USD' } });
encode('create_media_buy', { ...base, packages: [{ product_id: 'p', pricing_option_id: 'o', budget: 5000 }] });
// @ts-expect-error total_budget is closed (additionalProperties: false): a typo'd member does not compile
encode('create_media_buy', { ...base, total_budget: { amount: 10_000, currency: 'USD', curency: 'USD' } });
// @ts-expect-error budget is a number
encode('create_media_buy', { ...base, packages: [{ product_id: 'p', pricing_option_id: 'o', budget: '5000' }] });
// @ts-expect-error not a task
encode('create_media_by', base);
// @ts-expect-error get_task_status is a 3.1 task, not a 3.0 one
encode('get_task_status', { task_id: 't' }, { version: '3.0' });
// 3.0's check_governance request is closed at its root: a typo'd member does not compile.
v30.encode('check_governance', { plan_id: 'p', caller: 'https://buyer.example' });
// @ts-expect-error plann_id is no member of the 3.0 check_governance request
v30.encode('check_governance', { plan_id: 'p', caller: 'https://buyer.example', plann_id: 'p' });

// --- What encode returns -------------------------------------------------------------------

const request = encode('create_media_buy', base);
expectTypeOf(request.task).toEqualTypeOf<'create_media_buy'>();
expectTypeOf(request.version).toEqualTypeOf<V3_1>();
expectTypeOf(request.release).toEqualTypeOf<'3.1'>();
expectTypeOf(request.args).toEqualTypeOf<Frozen<v3_1.CreateMediaBuyRequest>>();
expectTypeOf(request.args.idempotency_key).toEqualTypeOf<string>();
// @ts-expect-error the request is frozen: a retry resends it as is
request.args.idempotency_key = newIdempotencyKey();
// @ts-expect-error deeply
request.args.packages?.[0] && (request.args.packages[0].budget = 1);

const old = encode('create_media_buy', { ...base, adcp_major_version: 3 }, { version: '3.0' });
expectTypeOf(old.version).toEqualTypeOf<V3_0>();
expectTypeOf(old.args).toEqualTypeOf<Frozen<v3_0.CreateMediaBuyRequest>>();

const r = safeEncode('get_products', { buying_mode: 'wholesale' });
if (r.success) expectTypeOf(r.data.args.buying_mode).toEqualTypeOf<'brief' | 'wholesale' | 'refine'>();
else expectTypeOf(r.error.code).toBeString();

// --- Decoders and pinned entries bind the version ------------------------------------------

const seller = createDecoder({ version: '3.0' });
expectTypeOf(seller.encode('get_products', { buying_mode: 'wholesale' }).version).toEqualTypeOf<V3_0>();
// @ts-expect-error a 3.0 decoder has no get_task_status
seller.encode('get_task_status', { task_id: 't' });
expectTypeOf(seller.encode('get_products', { buying_mode: 'wholesale' }, { version: '3.1' }).version).toEqualTypeOf<V3_1>();
expectTypeOf(createDecoder({}).encode('get_products', { buying_mode: 'wholesale' }).version).toEqualTypeOf<V3_1>();

expectTypeOf(v31.encode('create_media_buy', base)).toEqualTypeOf<v31.EncodedRequest<'create_media_buy'>>();
expectTypeOf(v31.encode<'create_media_buy'>)
  .parameter(1)
  .toEqualTypeOf<v31.Request<'create_media_buy'>>();
expectTypeOf(v31.createDecoder({}).safeEncode('get_products', { buying_mode: 'brief' })).toEqualTypeOf<
  v31.SafeEncodeResult<'get_products'>
>();
// @ts-expect-error a pinned encoder takes no version
v31.encode('get_products', { buying_mode: 'brief' }, { version: '3.0' });
expectTypeOf<RequestsByVersion[V3_1]>().toEqualTypeOf<v3_1.Requests>();

// --- Any encoded request is an EncodedRequest, and its args are what an MCP client sends ------

expectTypeOf(request).toExtend<EncodedRequest>();
expectTypeOf(v30.encode('get_products', { buying_mode: 'wholesale' })).toExtend<EncodedRequest>();
expectTypeOf(request.args).toExtend<NonNullable<CallToolRequest['params']['arguments']>>();
