/**
 * Type tests of adcp-decode/webhooks with a pinned version: `version: '3.0'` (or `'3.1'`) on
 * decodeWebhook or createWebhookReceiver types `data` and `version` by that version alone, with
 * no cast; without it, `data` is the union over the bundled versions.
 */
import { expectTypeOf } from 'vitest';
import type { Responses as Responses30 } from '../../src/generated/v3_0/responses.js';
import type { Responses as Responses31, Results as Results31 } from '../../src/generated/v3_1/responses.js';
import type { WebhookDelivery } from '../../src/mcp/index.js';
import {
  createWebhookReceiver,
  type DecodedWebhook,
  decodeWebhook,
  type ReceivedDuplicate,
  type ReceivedTaskFailure,
  type ReceivedWebhook,
  type WebhookOutcome,
  type WebhookTaskFailedError,
} from '../../src/webhooks/index.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';

declare const body: string;
declare const request: Request;

// --- decodeWebhook ------------------------------------------------------------------------------

const hook30 = decodeWebhook(body, { version: '3.0' });
expectTypeOf(hook30.version).toEqualTypeOf<V3_0>();
if (hook30.taskType === 'create_media_buy') {
  expectTypeOf(hook30.data).toEqualTypeOf<Responses30['create_media_buy'] | null>();
}
// @ts-expect-error 3.0 has no media_buy_delivery webhooks; 3.1 does
void (hook30.taskType === 'media_buy_delivery');
expectTypeOf(hook30).toEqualTypeOf<DecodedWebhook<V3_0>>();

const hook31 = decodeWebhook(body, { version: V3_1, format: 'mcp' });
expectTypeOf(hook31.version).toEqualTypeOf<V3_1>();
if (hook31.taskType === 'create_media_buy') {
  expectTypeOf(hook31.data).toEqualTypeOf<Responses31['create_media_buy'] | null>();
}
if (hook31.taskType === 'media_buy_delivery') {
  // A delivery report, typed by the schema 3.1 names for it (media-buy-delivery-webhook-result.json).
  expectTypeOf(hook31.data).toEqualTypeOf<Results31['media_buy_delivery'] | null>();
  if (hook31.data !== null)
    expectTypeOf(hook31.data.notification_type).toEqualTypeOf<'scheduled' | 'final' | 'delayed' | 'adjusted' | 'window_update'>();
}

// Without a version (or with 'auto'), either bundled version may have judged the body.
const any = decodeWebhook(body);
expectTypeOf(any.version).toEqualTypeOf<V3_1 | V3_0>();
if (any.taskType === 'create_media_buy' && any.version === V3_0) {
  expectTypeOf(any.data).toEqualTypeOf<Responses30['create_media_buy'] | null>();
}
expectTypeOf(decodeWebhook(body, { version: 'auto' }).version).toEqualTypeOf<V3_1 | V3_0>();

// @ts-expect-error not a bundled version
decodeWebhook(body, { version: '2.5' });

// --- createWebhookReceiver ----------------------------------------------------------------------

const receiver30 = createWebhookReceiver({
  endpoint: 'https://buyer.example.com',
  version: '3.0',
  keys: (kid) => (kid === 'k' ? undefined : undefined),
});
expectTypeOf(receiver30.receive(request)).resolves.toEqualTypeOf<WebhookOutcome<V3_0>>();
expectTypeOf<WebhookOutcome<V3_0>>().toEqualTypeOf<ReceivedWebhook<V3_0> | ReceivedTaskFailure | ReceivedDuplicate>();
void (async () => {
  const outcome = await receiver30.receive(request);
  // Narrowing on kind, with no cast: the delivery types data, the failure its error, the duplicate its key.
  if (outcome.kind === 'delivered') {
    expectTypeOf(outcome.version).toEqualTypeOf<V3_0>();
    if (outcome.taskType === 'sync_creatives') {
      expectTypeOf(outcome.data).toEqualTypeOf<Responses30['sync_creatives'] | null>();
    }
  } else if (outcome.kind === 'task-failed') {
    expectTypeOf(outcome.error).toEqualTypeOf<WebhookTaskFailedError>();
    expectTypeOf(outcome.dedup?.complete).toEqualTypeOf<(() => Promise<void>) | undefined>();
  } else {
    expectTypeOf(outcome.kind).toEqualTypeOf<'duplicate'>();
    expectTypeOf(outcome.idempotencyKey).toEqualTypeOf<string>();
    // @ts-expect-error a duplicate carries no data to process again
    void outcome.data;
  }
  expectTypeOf(outcome.signer.keyid).toBeString();
});

const receiverAny = createWebhookReceiver({ endpoint: 'https://buyer.example.com', keys: () => undefined });
expectTypeOf(receiverAny.receive(request)).resolves.toEqualTypeOf<WebhookOutcome>();
// What receive() resolves is what waitForTask's webhooks read, as it is.
expectTypeOf<WebhookOutcome>().toExtend<WebhookDelivery>();
