/**
 * A delivery announcing no release, with no `version` and no `handles`: it is the first bundled
 * release's whose envelope and result accept it (issue 27, item 5). A 3.0 seller's MCP delivery
 * has no `operation_id`, which the 3.1 envelope requires: with default options it was answered
 * 400 and the event lost; it is now 3.0's. A delivery no bundled release accepts is still a
 * 4xx, with the error of the release whose envelope accepted it (the result is at fault).
 */
import { describe, expect, test } from 'vitest';
import { SchemaMismatchError } from '../../src/errors/errors.js';
import { fastValidator } from '../../src/validate/validators.js';
import { createWebhookReceiver, decodeWebhook, WebhookError } from '../../src/webhooks/index.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { caughtAs } from '../helpers.js';
import { BUYER_ORIGIN, ed25519, HOOK_URL, resolver } from './fixtures.js';
import { signWebhook } from './signer.js';

const NOW = 1_776_520_800;

/** A 3.0 sales seller's delivery of a buy that went live after approval: no operation_id, as 3.0 allows. */
const delivery30 = {
  idempotency_key: 'whk_30_01J9Z6Q2V8W4X7Y3B5C1D9',
  task_id: 'task_cmb_3007',
  task_type: 'create_media_buy',
  protocol: 'media-buy',
  status: 'completed',
  timestamp: '2026-04-18T09:59:58Z',
  message: 'Media buy approved and live',
  result: {
    media_buy_id: 'mb_3007',
    status: 'completed',
    packages: [
      { package_id: 'pkg_ctv_prime', buyer_ref: 'ctv-prime-q2' },
      { package_id: 'pkg_olv_news', buyer_ref: 'olv-news-q2' },
    ],
    buyer_ref: 'trailhead-q2-launch',
  },
};

describe('the fixture', () => {
  test(`is valid under ${V3_0} (envelope and result) and fails the ${V3_1} envelope on operation_id`, () => {
    const { result, ...envelope } = delivery30;
    expect(fastValidator(V3_0, 'mcp-webhook-payload', 'response')?.({ ...envelope, result: {} })).toBe(true);
    expect(fastValidator(V3_0, 'create_media_buy', 'response')?.(result)).toBe(true);
    expect(fastValidator(V3_1, 'mcp-webhook-payload', 'response')?.({ ...envelope, result: {} })).toBe(false);
  });
});

describe('decodeWebhook with default options', () => {
  test(`a 3.0 delivery without operation_id is ${V3_0}'s, decoded and typed`, () => {
    const hook = decodeWebhook(JSON.stringify(delivery30));
    expect(hook).toMatchObject({ version: V3_0, taskType: 'create_media_buy', operationId: undefined, status: 'completed' });
    expect(hook.data).toEqual(delivery30.result);
  });

  test('a pinned version still judges by that version alone', () => {
    const error = caughtAs(WebhookError, () => decodeWebhook(JSON.stringify(delivery30), { version: '3.1' }));
    expect(error).toMatchObject({ webhookCode: 'webhook_envelope_invalid', path: '/operation_id' });
  });

  test('a delivery no release accepts: the error of the release whose envelope accepted it, about the result', () => {
    const broken = { ...delivery30, result: { ...delivery30.result, packages: 'pkg_ctv_prime' } };
    const error = caughtAs(SchemaMismatchError, () => decodeWebhook(JSON.stringify(broken)));
    expect(error).toMatchObject({ code: 'SCHEMA_MISMATCH', task: 'create_media_buy', version: V3_0 });
    expect(error.issues[0]?.path).toBe('/packages');
  });

  test('an envelope no release accepts is refused by the default release', () => {
    const { task_id: _id, ...without } = delivery30;
    const error = caughtAs(WebhookError, () => decodeWebhook(JSON.stringify(without)));
    expect(error).toMatchObject({ webhookCode: 'webhook_envelope_invalid', httpStatus: 400 });
  });
});

describe('a receiver with default options', () => {
  test('receives a signed 3.0 delivery without operation_id (no 400: the event is kept)', async () => {
    const receiver = createWebhookReceiver({ endpoint: BUYER_ORIGIN, keys: resolver, now: () => NOW * 1000 });
    const signed = await signWebhook({ key: ed25519, url: HOOK_URL, body: JSON.stringify(delivery30), created: NOW - 5 });
    const hook = await receiver.receive({
      method: 'POST',
      url: HOOK_URL,
      headers: { host: 'buyer.example.com', ...signed.headers },
      body: signed.body,
    });
    expect(hook).toMatchObject({ version: V3_0, taskId: 'task_cmb_3007', operationId: undefined });
  });
});
