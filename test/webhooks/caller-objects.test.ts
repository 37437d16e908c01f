/**
 * No raw error escapes from a caller's object (issue 19, item 13): `decodeWebhook(obj)` and
 * `decodeTaskStatus` read an in-process value once, into a snapshot, so a throwing getter, a
 * Proxy whose traps throw or a revoked Proxy anywhere in it (or in the options) is a typed
 * DecodeError that blames the caller's object: `MALFORMED_ENVELOPE` (`INVALID_OPTION` for the
 * options), never a TypeError, never a `webhook_envelope_invalid` that would blame the seller.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decodeTaskStatus } from '../../src/decode/polling.js';
import { DecodeError } from '../../src/errors/errors.js';
import { decodeWebhook, WebhookError } from '../../src/webhooks/index.js';
import { mcp } from '../fixtures/envelopes.js';
import { revokedProxy, throwingGetter, throwingProxy } from '../fixtures/hostile-values.js';
import { payload } from '../fixtures/payloads.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { thrown } from '../helpers.js';

type Json = Record<string, unknown>;

const webhook = (): Json => ({
  idempotency_key: 'whk_01J9Z6Q2V8W4X7Y3B5C1D9E2F0',
  operation_id: 'op_7d1e',
  task_id: 'task_cmb_4821',
  task_type: 'create_media_buy',
  status: 'completed',
  timestamp: '2026-04-18T10:00:00Z',
  result: payload('3.1/create_media_buy.valid'),
});

const a2aWebhook = (): Json => ({
  task: {
    id: 'task_a2a',
    status: { state: 'TASK_STATE_COMPLETED' },
    artifacts: [{ artifactId: 'r', parts: [{ text: 'done' }, { data: payload('3.1/create_media_buy.valid') }] }],
  },
});

const poll = (version: V3_1 | V3_0): Json => ({
  task_id: 'task_cmb_4821',
  task_type: 'create_media_buy',
  protocol: 'media-buy',
  status: 'completed',
  created_at: '2026-04-18T09:55:00Z',
  updated_at: '2026-04-18T09:59:58Z',
  result: payload(`${version}/create_media_buy.valid`),
});

/** Every container of a value, with its keys: where a hostile member can be put. */
function places(value: unknown, out: Array<[Json | unknown[], string]> = []): Array<[Json | unknown[], string]> {
  if (typeof value !== 'object' || value === null) return out;
  for (const key of Object.keys(value)) {
    out.push([value as Json, key]);
    places((value as Json)[key], out);
  }
  return out;
}

const HOSTILE = ['throwing getter', 'throwing Proxy', 'revoked Proxy', 'Proxy throwing a TypeError'] as const;

/** The value with one member (chosen by `at`) replaced by a hostile one. */
function plant(make: () => Json, how: (typeof HOSTILE)[number], at: number): Json {
  const root = make();
  const all = places(root);
  const [container, key] = all[at % all.length]!;
  if (how === 'throwing getter') {
    Object.defineProperty(container, key, {
      enumerable: true,
      configurable: true,
      get: () => {
        throw new TypeError('boom');
      },
    });
  } else if (how === 'revoked Proxy') (container as Json)[key] = revokedProxy();
  else if (how === 'throwing Proxy') (container as Json)[key] = throwingProxy();
  else (container as Json)[key] = throwingProxy({ thrown: () => new TypeError('trap') });
  return root;
}

/**
 * A caller's fault, typed: MALFORMED_ENVELOPE, not the seller's envelope fault; where the value is
 * read by our snapshot, the message says reading it threw (3.1 polls go through decode(), whose
 * transport detection reads a throwing envelope as no known transport: still MALFORMED_ENVELOPE;
 * and reads only what it needs, so a hostile member it never reads changes nothing).
 */
function expectCallerFault(error: unknown, saysReading: boolean): void {
  // decode() reads only what it needs (a summary text item beside structuredContent is never read).
  if (!saysReading && error === undefined) return;
  expect(error).toBeInstanceOf(DecodeError);
  expect(error).not.toBeInstanceOf(WebhookError);
  expect((error as DecodeError).code).toBe('MALFORMED_ENVELOPE');
  if (saysReading) expect((error as DecodeError).message).toMatch(/thrown while reading it|reading it threw/);
  expect((error as DecodeError).message).not.toMatch(/[\r\n]/);
}

const CALLS: ReadonlyArray<readonly [string, () => Json, (input: Json) => unknown, boolean]> = [
  ['decodeWebhook(MCP envelope object)', webhook, (input) => decodeWebhook(input), true],
  ['decodeWebhook(A2A task object)', a2aWebhook, (input) => decodeWebhook(input, { taskType: 'create_media_buy' }), true],
  ['decodeTaskStatus 3.0 (tasks/get)', () => poll(V3_0), (input) => decodeTaskStatus(input, { version: '3.0' }), true],
  [
    'decodeTaskStatus 3.0 (JSON-RPC)',
    () => ({ jsonrpc: '2.0', id: 1, result: poll(V3_0) }),
    (input) => decodeTaskStatus(input, { version: '3.0' }),
    true,
  ],
  ['decodeTaskStatus 3.1 (get_task_status)', () => mcp.structured(poll(V3_1)), (input) => decodeTaskStatus(input), false],
];

describe.each(CALLS)('%s', (_name, make, call, saysReading) => {
  test('the plain value decodes', () => {
    expect(thrown(() => call(make()))).toBeUndefined();
  });

  test("a throwing getter, a throwing Proxy or a revoked Proxy anywhere in it: the caller's MALFORMED_ENVELOPE", () => {
    fc.assert(
      fc.property(fc.constantFrom(...HOSTILE), fc.nat(), (how, at) => {
        expectCallerFault(
          thrown(() => call(plant(make, how, at))),
          saysReading,
        );
      }),
      { numRuns: 200 },
    );
  });

  test('the value itself a Proxy whose traps throw', () => {
    for (const proxy of [throwingProxy(), revokedProxy(), throwingGetter('status')])
      expectCallerFault(
        thrown(() => call(proxy as Json)),
        saysReading,
      );
  });
});

describe('options read once, a throwing one a typed INVALID_OPTION', () => {
  const hostileOptions = (...keys: string[]) => [...keys.map((key) => throwingGetter(key)), throwingProxy(), revokedProxy()];
  test("decodeWebhook: its own options and decode()'s", () => {
    for (const options of hostileOptions('version', 'format', 'taskType', 'maxBytes')) {
      expect(thrown(() => decodeWebhook(webhook(), options as never))).toMatchObject({ code: 'INVALID_OPTION' });
    }
  });
  test('decodeTaskStatus', () => {
    for (const options of hostileOptions('version', 'maxDepth')) {
      expect(thrown(() => decodeTaskStatus(poll(V3_0), options as never))).toMatchObject({ code: 'INVALID_OPTION' });
    }
  });
});
