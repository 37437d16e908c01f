/**
 * Type tests for the request half of decoding: TaskFailedError.known narrows on the seller's code
 * (so a buyer branches without string matching, and a misspelt code does not compile); option
 * `request` takes `{ task, args }` and whatever satisfies it; safeDecode's success may say
 * `replayed: true`; decoderFor returns a decoder whose answers are typed in the bundled versions.
 */
import { expectTypeOf } from 'vitest';
import type { ResponsesByVersion } from '../../src/generated/index.js';
import * as v31 from '../../src/generated/v3_1/pinned.js';
import {
  decode,
  decoderFor,
  type KnownSellerError,
  type SentRequest,
  safeDecode,
  type TaskFailedError,
  type Version,
  type VersionUnsupportedDetails,
} from '../../src/index.js';
import { V3_0, type V3_1 } from '../fixtures/versions.js';

declare const result: unknown;
declare const failure: TaskFailedError;

// --- TaskFailedError.known narrows on the seller's code ------------------------------------

const known = failure.known;
expectTypeOf(known).toEqualTypeOf<KnownSellerError | undefined>();
switch (known?.code) {
  case 'VERSION_UNSUPPORTED':
    expectTypeOf(known.details).toEqualTypeOf<VersionUnsupportedDetails | undefined>();
    expectTypeOf(known.commonVersion).toEqualTypeOf<Version | undefined>();
    if (known.details !== undefined) expectTypeOf(known.details.supported_versions).toEqualTypeOf<readonly [string, ...string[]]>();
    break;
  case 'IDEMPOTENCY_IN_FLIGHT':
    expectTypeOf(known.retryAfterSeconds).toEqualTypeOf<number | undefined>();
    // @ts-expect-error an in-flight error carries no details
    void known.details;
    break;
  case 'IDEMPOTENCY_CONFLICT':
  case 'IDEMPOTENCY_EXPIRED':
    expectTypeOf(known).toEqualTypeOf<{ readonly code: 'IDEMPOTENCY_CONFLICT' } | { readonly code: 'IDEMPOTENCY_EXPIRED' }>();
    break;
  case 'RATE_LIMITED':
    if (known.details !== undefined) expectTypeOf(known.details.scope).toEqualTypeOf<'account' | 'tool' | 'global' | undefined>();
    break;
  case 'CONFLICT':
    if (known.details !== undefined) expectTypeOf(known.details.current_version).toEqualTypeOf<number | string | undefined>();
    break;
  case 'BUDGET_TOO_LOW':
    if (known.details !== undefined) expectTypeOf(known.details.minimum_budget).toEqualTypeOf<number | undefined>();
    break;
  case 'AUDIENCE_TOO_SMALL':
    if (known.details !== undefined) expectTypeOf(known.details.minimum_size).toEqualTypeOf<number | undefined>();
    break;
  case undefined:
    expectTypeOf(known).toEqualTypeOf<undefined>();
    break;
  default:
    // Every arm is handled above.
    expectTypeOf(known).toBeNever();
}
// @ts-expect-error not a code the spec gives data for: a misspelling does not compile
if (known?.code === 'IDEMPOTENCY_CONFLICTS') void 0;
expectTypeOf(failure.sellerText).toEqualTypeOf<string | undefined>();

// --- option request --------------------------------------------------------------------------

const sent = { task: 'create_media_buy', args: { adcp_version: '3.1', context: { trace_id: 't-1' } } } as const;
decode('create_media_buy', result, { request: sent });
// What encode will return (task, release, frozen args) satisfies it structurally.
declare const encoded: {
  readonly task: 'create_media_buy';
  readonly release: '3.1';
  readonly args: Readonly<{ brief?: string; context?: object }>;
};
expectTypeOf(encoded).toExtend<SentRequest>();
decode('create_media_buy', result, { request: encoded });
// @ts-expect-error a request has its args
decode('create_media_buy', result, { request: { task: 'create_media_buy' } });
// @ts-expect-error a request names its task
decode('create_media_buy', result, { request: { args: {} } });
v31.decode('create_media_buy', result, { request: sent });

// --- replayed on safeDecode's success --------------------------------------------------------

const safe = safeDecode('create_media_buy', result, { request: sent });
if (safe.success) expectTypeOf(safe.replayed).toEqualTypeOf<true | undefined>();
const pinnedSafe = v31.safeDecode('create_media_buy', result);
if (pinnedSafe.success) expectTypeOf(pinnedSafe.replayed).toEqualTypeOf<true | undefined>();

// --- decoderFor --------------------------------------------------------------------------------

const seller = decoderFor(result, { maxBytes: 1024 * 1024 });
expectTypeOf(seller.version).toEqualTypeOf<Version>();
expectTypeOf(seller.release).toEqualTypeOf<string>();
expectTypeOf(seller.decode('get_media_buys', result)).toEqualTypeOf<
  ResponsesByVersion[V3_1]['get_media_buys'] | ResponsesByVersion[V3_0]['get_media_buys']
>();
const fromSeller = seller.safeDecode('get_media_buys', result);
if (fromSeller.success && fromSeller.version === V3_0)
  expectTypeOf(fromSeller.data).toEqualTypeOf<ResponsesByVersion[V3_0]['get_media_buys']>();
// @ts-expect-error the answer decides the version
decoderFor(result, { version: '3.1' });
