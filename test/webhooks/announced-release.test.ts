/**
 * A delivery whose result announces its release (`adcp_version`) is judged by that release alone,
 * as an answer is (versioning.mdx: validate against the release served). One this buyer has not
 * loaded is RELEASE_NOT_LOADED, answered 500 and blamed on the configuration, so the seller retries
 * until the module is generated and imported; it is never judged by a bundled release in its
 * place (400, and the event lost; or delivered, typed by a release it is not). A pinned receiver
 * still judges by its pin alone.
 */
import { describe, expect, test } from 'vitest';
import { DecodeError } from '../../src/errors/errors.js';
import { fastValidator } from '../../src/validate/validators.js';
import { createWebhookReceiver, decodeWebhook, webhookResponse } from '../../src/webhooks/index.js';
import { V3_1 } from '../fixtures/versions.js';
import { caughtAs } from '../helpers.js';
import { BUYER_ORIGIN, completedBody, completedResult, ed25519, HOOK_URL, resolver } from './fixtures.js';
import { signWebhook } from './signer.js';

const NOW = 1_776_520_800;

/** A completed 3.1 create_media_buy delivery whose result announces `announced`. */
function announcing(announced: string): Record<string, unknown> {
  return { ...(JSON.parse(completedBody()) as Record<string, unknown>), result: { ...completedResult, adcp_version: announced } };
}

describe('decodeWebhook without a pin', () => {
  test('a result announcing a known release is judged by it', () => {
    expect(decodeWebhook(announcing('3.1'))).toMatchObject({ version: V3_1, taskType: 'create_media_buy', status: 'completed' });
  });

  test('a result announcing 3.2-beta.6, not loaded: RELEASE_NOT_LOADED, 500, the configuration’s, though 3.1 would accept it', () => {
    const { result } = announcing('3.2-beta.6');
    // Not a schema's refusal: 3.1.19's result schema accepts the result (with the envelope's status in, as decode stands it in).
    expect(fastValidator(V3_1, 'create_media_buy', 'response')?.({ ...(result as object), status: 'completed' })).toBe(true);
    const error = caughtAs(DecodeError, () => decodeWebhook(announcing('3.2-beta.6')));
    expect(error).toMatchObject({ code: 'RELEASE_NOT_LOADED', task: undefined });
    expect(error.message).toContain('"3.2-beta.6", a release this buyer has not loaded');
    expect(webhookResponse(error)).toMatchObject({ status: 500, blame: 'configuration' });
  });

  test("a newer release is judged in its place only on request (newerRelease: 'newest'); a pre-release never is", () => {
    expect(caughtAs(DecodeError, () => decodeWebhook(announcing('3.2'))).code).toBe('RELEASE_NOT_LOADED');
    expect(decodeWebhook(announcing('3.2'), { newerRelease: 'newest' })).toMatchObject({ version: V3_1, status: 'completed' });
    const beta = caughtAs(DecodeError, () => decodeWebhook(announcing('3.2-beta.6'), { newerRelease: 'newest' }));
    expect(beta.code).toBe('RELEASE_NOT_LOADED');
  });

  test('an A2A body whose DataPart announces it: the same', () => {
    const task = {
      id: 'task_a2a_77',
      status: { state: 'completed' },
      artifacts: [{ artifactId: 'result', parts: [{ kind: 'data', data: { ...completedResult, adcp_version: '3.2-beta.6' } }] }],
    };
    const error = caughtAs(DecodeError, () => decodeWebhook(task, { taskType: 'create_media_buy' }));
    expect(error).toMatchObject({ code: 'RELEASE_NOT_LOADED', task: 'create_media_buy' });
  });

  test('a pinned decode judges by its pin alone, whatever the result announces', () => {
    expect(decodeWebhook(announcing('3.2-beta.6'), { version: '3.1' })).toMatchObject({ version: V3_1, status: 'completed' });
  });
});

describe('a receiver with default options', () => {
  test('refuses a signed delivery in a release it has not loaded with 500: the seller retries', async () => {
    const receiver = createWebhookReceiver({ endpoint: BUYER_ORIGIN, keys: resolver, now: () => NOW * 1000 });
    const signed = await signWebhook({ key: ed25519, url: HOOK_URL, body: JSON.stringify(announcing('3.2-beta.6')), created: NOW - 5 });
    const request = { method: 'POST', url: HOOK_URL, headers: { host: 'buyer.example.com', ...signed.headers }, body: signed.body };
    const error = await receiver.receive(request).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'RELEASE_NOT_LOADED' });
    expect(webhookResponse(error)).toMatchObject({ status: 500, blame: 'configuration' });
  });
});
