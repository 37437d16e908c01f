/** Realistic webhook bodies for the receiver tests (checked against the 3.1 schemas by decoding them). */

import type { ResolvedKey, WebhookJwk } from '../../src/signatures/verify/keys.js';
import { readVector } from '../fixtures/vectors.js';
import type { TestKey } from './signer.js';

export const SELLER = 'https://seller.example.com/adcp/mcp';
export const HOOK_URL = 'https://buyer.example.com/adcp/webhook/create_media_buy/agent_123/op_7d1e';
/** The origin the buyer registered its webhook URLs under: the receivers' `endpoint`. */
export const BUYER_ORIGIN = 'https://buyer.example.com';

export const testKeys = readVector<{ keys: TestKey[] }>('webhook-signing/keys.json').keys;
export const ed25519 = testKeys.find((k) => k.kid === 'test-ed25519-webhook-2026') as TestKey;
export const es256 = testKeys.find((k) => k.kid === 'test-es256-webhook-2026') as TestKey;
export const requestKey = testKeys.find((k) => k.kid === 'test-wrong-purpose-2026') as TestKey;

/** The public JWKS the seller publishes (private members removed). */
export const publicJwks: WebhookJwk[] = testKeys.map(({ _private_d_for_test_only: _d, ...rest }) => rest as WebhookJwk);

/** A resolver over the public keys, all published under SELLER. */
export function resolver(kid: string): ResolvedKey | undefined {
  const jwk = publicJwks.find((k) => k.kid === kid);
  return jwk === undefined ? undefined : { jwk, agent: SELLER };
}

const envelope = {
  idempotency_key: 'whk_01J9Z6Q2V8W4X7Y3B5C1D9E2F0',
  operation_id: 'op_7d1e',
  task_id: 'task_cmb_4821',
  task_type: 'create_media_buy',
  protocol: 'media-buy',
  timestamp: '2026-04-18T09:59:58Z',
};

export const completedResult = {
  media_buy_id: 'mb_4821',
  media_buy_status: 'active',
  confirmed_at: '2026-04-18T09:59:50Z',
  revision: 1,
  packages: [
    { package_id: 'pkg_ctv_sports', status: 'active' },
    { package_id: 'pkg_olv_news', status: 'active' },
  ],
};

export function completedBody(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...envelope, status: 'completed', message: 'Media buy created', result: completedResult, ...extra });
}

export function failedBody(): string {
  return JSON.stringify({
    ...envelope,
    idempotency_key: 'whk_01J9Z6Q2V8W4X7Y3B5C1D9E2F1',
    status: 'failed',
    message: 'Budget below the floor',
    result: {
      adcp_error: {
        code: 'BUDGET_TOO_LOW',
        message: 'total_budget is below the 5,000 USD floor',
        recovery: 'correctable',
        field: 'total_budget',
      },
    },
  });
}

export function workingBody(): string {
  return JSON.stringify({
    ...envelope,
    idempotency_key: 'whk_01J9Z6Q2V8W4X7Y3B5C1D9E2F2',
    status: 'working',
    result: { percentage: 60, current_step: 'trafficking' },
  });
}

/** A completed body of about `size` bytes (packages repeated), for the bench and the size tests. */
export function completedBodyOfSize(size: number): string {
  const base = completedBody().length;
  const one = JSON.stringify({ package_id: 'pkg_00000', status: 'active' }).length + 1;
  const count = Math.max(1, Math.floor((size - base) / one));
  const packages = Array.from({ length: count }, (_, i) => ({ package_id: `pkg_${String(i).padStart(5, '0')}`, status: 'active' }));
  return JSON.stringify({ ...envelope, status: 'completed', result: { ...completedResult, packages } });
}
