/**
 * Type tests, run by tsc in vitest's typecheck mode with every `vitest run` (and by
 * `tsc -p tsconfig.json --noEmit`): unknown task names do not compile, fields are typed, async variants narrow on
 * `status`, the sync variant never carries an async status, safeDecode pairs data with the
 * version that judged it, version options narrow the result, a misspelt member does not compile,
 * and members the schemas do not name are read through extra().
 */
import { expectTypeOf } from 'vitest';
import type { ResponsesByVersion } from '../../src/generated/index.js';
import * as v30 from '../../src/generated/v3_0/pinned.js';
import type { Product as Product30 } from '../../src/generated/v3_0/types.js';
import * as v31 from '../../src/generated/v3_1/pinned.js';
import type {
  TaskStatus as GeneratedTaskStatus,
  MediaBuyStatus as MediaBuyStatus31,
  Product as Product31,
} from '../../src/generated/v3_1/types.js';
import {
  createDecoder,
  type Decoded,
  decode,
  extra,
  isFinal,
  type PolledTask,
  safeDecode,
  type TaskFailedError,
  type TaskName,
  type v3_1,
} from '../../src/index.js';
import type { TaskStatus } from '../../src/schema/response-types.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';

declare const result: unknown;

// --- Task names are checked at compile time -------------------------------------------------

// @ts-expect-error 'get_product' is not an AdCP task
decode('get_product', result);
// @ts-expect-error nor for safeDecode
safeDecode('get_product', result);
// @ts-expect-error nor on a decoder
createDecoder({ version: '3.1' }).decode('getProducts', result);
// @ts-expect-error a task name is a literal, not any string
decode('get_products' as string, result);
expectTypeOf<'get_products'>().toExtend<TaskName>();
expectTypeOf<'list_tasks'>().toExtend<TaskName>(); // 3.1-only tasks are names too

// --- Options are checked at compile time ----------------------------------------------------

// @ts-expect-error no such transport
decode('get_products', result, { transport: 'http' });
// @ts-expect-error a version is a bundled version or release
decode('get_products', result, { version: '2.5' });
// @ts-expect-error maxBytes is a number
decode('get_products', result, { maxBytes: '4MB' });

// --- Fields are typed ------------------------------------------------------------------------

// A task without async variants: typed at once.
expectTypeOf(decode('get_media_buys', result).media_buys).toEqualTypeOf<
  ResponsesByVersion[V3_1]['get_media_buys']['media_buys'] | ResponsesByVersion[V3_0]['get_media_buys']['media_buys']
>();
expectTypeOf(decode('list_accounts', result, { version: '3.1' }).accounts[0]!.account_id).toEqualTypeOf<string>();
expectTypeOf(decode('get_products', result)).not.toBeAny();

// get_products: once the async variants are ruled out by status, products is Product[].
const products = decode('get_products', result);
if (products.status !== 'working' && products.status !== 'submitted' && products.status !== 'input-required') {
  expectTypeOf(products.products).toEqualTypeOf<Product31[] | Product30[] | undefined>();
}
const pinned = decode('get_products', result, { version: '3.1' });
if (pinned.status === undefined || pinned.status === 'completed') {
  expectTypeOf(pinned.products).toEqualTypeOf<Product31[] | undefined>();
  expectTypeOf(pinned.cache_scope).toEqualTypeOf<'public' | 'account' | undefined>();
}
// Before narrowing, an async variant does not declare products: not readable, let alone as Product[].
// @ts-expect-error products is not a member of every variant
void products.products;

// --- Async variants narrow on status ---------------------------------------------------------

const buy = decode('create_media_buy', result);
if (buy.status === 'working') {
  expectTypeOf(buy.percentage).toEqualTypeOf<number | undefined>();
  expectTypeOf(buy.current_step).toEqualTypeOf<string | undefined>();
} else if (buy.status === 'submitted') {
  expectTypeOf(buy.status).toEqualTypeOf<'submitted'>();
  const pinnedBuy = decode('create_media_buy', result, { version: V3_1 });
  if (pinnedBuy.status === 'submitted') expectTypeOf(pinnedBuy.task_id).toEqualTypeOf<string>();
} else if (buy.status === 'input-required') {
  expectTypeOf(buy.reason).toEqualTypeOf<'APPROVAL_REQUIRED' | 'BUDGET_EXCEEDS_LIMIT' | undefined>();
} else {
  // The final response: never an async status.
  expectTypeOf(buy.status).toEqualTypeOf<Exclude<TaskStatus, 'working' | 'submitted' | 'input-required'> | MediaBuyStatus31 | undefined>();
}
// get_signals has no input-required schema: that status stays on the final response.
const signals = decode('get_signals', result, { version: '3.1' });
if (signals.status === 'input-required') {
  expectTypeOf(signals.signals).not.toBeUnknown();
  expectTypeOf(signals.signals).toExtend<unknown[] | undefined>();
}

type SyncOf<T extends TaskName, V extends keyof ResponsesByVersion> = Exclude<
  Decoded<T, { version: V }>,
  { status: 'working' | 'submitted' | 'input-required' }
>;
expectTypeOf<Extract<NonNullable<SyncOf<'create_media_buy', V3_0>['status']>, 'working' | 'submitted' | 'input-required'>>().toBeNever();
expectTypeOf<Extract<NonNullable<SyncOf<'get_products', V3_1>['status']>, 'working' | 'submitted' | 'input-required'>>().toBeNever();

// Where a schema leaves status open (3.0), the type is the envelope's task status, as decode() enforces.
expectTypeOf(decode('get_media_buys', result, { version: '3.0' }).status).toEqualTypeOf<TaskStatus | undefined>();
// Where a 3.0 schema declares its own status, that is the type (check_governance's verdict).
expectTypeOf(decode('check_governance', result, { version: '3.0' }).status).toEqualTypeOf<
  'approved' | 'denied' | 'conditions' | undefined
>();
// The hand-written TaskStatus is the generated enum.
expectTypeOf<TaskStatus>().toEqualTypeOf<GeneratedTaskStatus>();

// --- safeDecode pairs data with the version that judged it -----------------------------------

const safe = safeDecode('get_media_buys', result);
if (safe.success) {
  expectTypeOf(safe.version).toEqualTypeOf<V3_1 | V3_0>();
  if (safe.version === V3_0) expectTypeOf(safe.data).toEqualTypeOf<ResponsesByVersion[V3_0]['get_media_buys']>();
  else expectTypeOf(safe.data).toEqualTypeOf<ResponsesByVersion[V3_1]['get_media_buys']>();
} else {
  expectTypeOf(safe.error.code).toExtend<string>();
}
const safePinned = safeDecode('get_media_buys', result, { version: '3.0' });
if (safePinned.success) expectTypeOf(safePinned.version).toEqualTypeOf<V3_0>();

// --- Version options narrow the result -------------------------------------------------------

expectTypeOf(decode('get_media_buys', result, { version: V3_0 })).toEqualTypeOf<ResponsesByVersion[V3_0]['get_media_buys']>();
expectTypeOf(decode('get_media_buys', result, { version: '3.1' })).toEqualTypeOf<ResponsesByVersion[V3_1]['get_media_buys']>();
expectTypeOf(decode('get_media_buys', result, { version: 'auto' })).toEqualTypeOf<Decoded<'get_media_buys'>>();
// A 3.1-only task pinned to 3.0 does not compile (decode() throws UNKNOWN_TASK there); unpinned, it is 3.1's.
// @ts-expect-error list_tasks is not a 3.0 task
decode('list_tasks', result, { version: '3.0' });
// @ts-expect-error nor through a decoder pinned to 3.0
createDecoder({ version: V3_0 }).decode('list_tasks', result);
expectTypeOf(decode('list_tasks', result)).toEqualTypeOf<ResponsesByVersion[V3_1]['list_tasks']>();

// --- createDecoder binds options; a call overrides them ---------------------------------------

const seller = createDecoder({ version: '3.0', maxBytes: 1024 * 1024 });
expectTypeOf(seller.decode('get_media_buys', result)).toEqualTypeOf<ResponsesByVersion[V3_0]['get_media_buys']>();
expectTypeOf(seller.decode('get_media_buys', result, { version: '3.1' })).toEqualTypeOf<ResponsesByVersion[V3_1]['get_media_buys']>();
const sellerSafe = seller.safeDecode('get_media_buys', result);
if (sellerSafe.success) expectTypeOf(sellerSafe.version).toEqualTypeOf<V3_0>();

// --- isFinal narrows to the final arms, or to the async variants ------------------------------

const any = decode('get_products', result);
if (isFinal(any)) expectTypeOf(any.products).toEqualTypeOf<Product31[] | Product30[] | undefined>();
else expectTypeOf(any.status).toEqualTypeOf<'working' | 'submitted' | 'input-required'>();
// get_signals has no input-required schema: that status is final there.
const sig = v31.decode('get_signals', result);
if (isFinal(sig)) expectTypeOf<'input-required'>().toExtend<NonNullable<typeof sig.status>>();
else expectTypeOf(sig.status).toEqualTypeOf<'working' | 'submitted'>();
// A task without async schemas is final whatever its status.
const buys = v31.decode('get_media_buys', result);
if (!isFinal(buys)) expectTypeOf(buys).toBeNever();

// --- Pinned imports: one version, its named types ---------------------------------------------

expectTypeOf(v31.decode('get_products', result)).toEqualTypeOf<ResponsesByVersion[V3_1]['get_products']>();
expectTypeOf(v30.decode('get_products', result)).toEqualTypeOf<ResponsesByVersion[V3_0]['get_products']>();
// @ts-expect-error a pinned decoder takes no version option
v31.decode('get_products', result, { version: '3.0' });
// @ts-expect-error list_tasks is not a 3.0 task
v30.decode('list_tasks', result);
// @ts-expect-error nor on a pinned decoder
v30.createDecoder({ maxBytes: 1 }).decode('list_tasks', result);
const safe31 = v31.safeDecode('get_media_buys', result);
if (safe31.success) expectTypeOf(safe31.version).toEqualTypeOf<V3_1>();
expectTypeOf<v31.Product>().toEqualTypeOf<Product31>();
expectTypeOf<v30.Product>().toEqualTypeOf<Product30>();
expectTypeOf<v3_1.Product>().toEqualTypeOf<Product31>();
expectTypeOf<v31.Response<'get_products'>>().toEqualTypeOf<ResponsesByVersion[V3_1]['get_products']>();
// A decoded final response is assignable to its task's schema type and arms.
const created = v31.decode('create_media_buy', result);
if (isFinal(created)) {
  expectTypeOf(created).toExtend<v31.CreateMediaBuyResponse>();
  if (created.errors !== undefined) expectTypeOf(created).toExtend<v31.CreateMediaBuyError>();
  else expectTypeOf(created).toExtend<v31.CreateMediaBuySuccess>();
} else {
  expectTypeOf(created).toExtend<v31.CreateMediaBuyWorking | v31.CreateMediaBuySubmitted | v31.CreateMediaBuyInputRequired>();
}

// --- A misspelt member does not compile; extras go through extra() -------------------------------

// No arm of any task's response, final or async, in either release, has an index signature.
type OpenArms<U> = U extends unknown ? (string extends keyof U ? U : never) : never;
type OpenTasks<R> = { [T in keyof R]: [OpenArms<R[T]>] extends [never] ? never : T }[keyof R];
expectTypeOf<OpenTasks<ResponsesByVersion[V3_1]>>().toBeNever();
expectTypeOf<OpenTasks<ResponsesByVersion[V3_0]>>().toBeNever();
// Nor do the declared objects inside them (a Product, a package, an error).
expectTypeOf<OpenArms<Product31 | Product30 | v31.Package | v30.Package | v31.Error | v30.Error>>().toBeNever();

if (isFinal(pinned)) {
  // @ts-expect-error a misspelt member of the 3.1 get_products response
  void pinned.prodcts;
  const first = pinned.products?.[0];
  // @ts-expect-error nor of a product inside it
  void first?.product_idd;
  // A seller's extra member is in the data, read by name, typed unknown.
  expectTypeOf(extra(pinned, 'x_seller_note')).toBeUnknown();
  if (first !== undefined) expectTypeOf(extra(first, 'x_vendor_score')).toBeUnknown();
  // @ts-expect-error a declared member is read as a property, not through extra()
  extra(pinned, 'products');
  // @ts-expect-error nor a product's
  if (first !== undefined) extra(first, 'product_id');
}
const products30 = v30.decode('get_products', result);
if (isFinal(products30)) {
  // @ts-expect-error a misspelt member of the 3.0 get_products response
  void products30.prodcts;
  expectTypeOf(extra(products30, 'x_seller_note')).toBeUnknown();
}
const created31 = v31.decode('create_media_buy', result);
if (isFinal(created31)) {
  if (created31.errors !== undefined) {
    // @ts-expect-error a misspelt member of an error
    void created31.errors[0].cod;
  } else {
    // @ts-expect-error a misspelt member of the 3.1 success arm
    void created31.media_buy_idd;
  }
} else if (created31.status === 'working') {
  // @ts-expect-error a misspelt member of an async variant
  void created31.percentag;
}
const created30 = v30.decode('create_media_buy', result);
if (isFinal(created30) && created30.errors === undefined) {
  // @ts-expect-error a misspelt member of the 3.0 success arm
  void created30.packges;
}
const buys30 = decode('get_media_buys', result, { version: '3.0' });
// @ts-expect-error a misspelt member, through the root import pinned by an option
void buys30.media_buy;
const signals30 = v30.decode('get_signals', result);
// @ts-expect-error a task without async variants: misspelt at once
if (isFinal(signals30)) void signals30.signal;
// The root import's 'auto' result: a member misspelt in both releases does not compile either.
const auto = decode('list_creatives', result);
// @ts-expect-error list_creatives' creatives, misspelt
if (isFinal(auto)) void auto.creativs;

// The typed surfaces of polling and seller errors are closed too.
declare const polled: PolledTask;
if (polled.taskType === 'create_media_buy' && polled.data !== null && isFinal(polled.data) && polled.data.errors === undefined) {
  expectTypeOf(polled.data.media_buy_id).toEqualTypeOf<string>();
  // @ts-expect-error a misspelt member of a polled result
  void polled.data.media_buy_idd;
}
declare const sellerFailure: TaskFailedError;
if (sellerFailure.known?.code === 'VERSION_UNSUPPORTED' && sellerFailure.known.details !== undefined) {
  // @ts-expect-error a misspelt member of a seller error's details
  void sellerFailure.known.details.supported_version;
  expectTypeOf(extra(sellerFailure.known.details, 'x_retry_hint')).toBeUnknown();
}
