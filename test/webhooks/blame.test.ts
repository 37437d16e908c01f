/**
 * Blame: the receiver never answers its own fault as the sender's. Every code's HTTP status class
 * matches whose fault it is (4xx for the delivery's only); then faults of each source are
 * generated and sent through a receiver: mutations of a genuine delivery's bytes and headers
 * (never 5xx), the buyer's configuration at run time (500), dependencies that throw, hang or fail
 * (503), and defects of our own or of WebCrypto (500 INTERNAL). Every throw is a DecodeError.
 *
 * One defect is planted for this file only, on a switch: the duplicate-key scan throws a TypeError.
 */
import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import { DecodeError } from '../../src/errors/errors.js';
import { DECODE_ERROR_ANSWER, WEBHOOK_BLAME, WEBHOOK_HTTP_STATUS } from '../../src/errors/webhook-error.js';
import {
  createMemoryDedupStore,
  createMemoryReplayStore,
  createWebhookReceiver,
  type DedupStore,
  type ReplayStore,
  type WebhookErrorCode,
  type WebhookReceiverOptions,
} from '../../src/webhooks/index.js';
import { completedBody, completedBodyOfSize, completedResult, failedBody, HOOK_URL } from './fixtures.js';
import { NOW, nowMs, type Outcome, outcome, type PlainRequest, RECEIVER_BASE, signedRequest, statusFits } from './outcomes.js';

const defect = vi.hoisted(() => ({ planted: false }));
vi.mock('../../src/json/duplicate-keys.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/json/duplicate-keys.js')>();
  return {
    ...actual,
    countMembers: (text: string) => {
      if (defect.planted) throw new TypeError("Cannot read properties of undefined (reading 'length')");
      return actual.countMembers(text);
    },
  };
});

describe('every code: the status class matches the blame', () => {
  test.each(Object.keys(WEBHOOK_HTTP_STATUS) as WebhookErrorCode[])('%s', (code) => {
    expect(statusFits(WEBHOOK_BLAME[code], WEBHOOK_HTTP_STATUS[code])).toBe(true);
  });
  test.each(Object.entries(DECODE_ERROR_ANSWER))('DecodeError %s', (_code, answer) => {
    expect(statusFits(answer.blame, answer.status)).toBe(true);
  });
  test('only a delivery fault is 4xx, and every 4xx is a delivery fault', () => {
    const answers = [
      ...Object.entries(WEBHOOK_HTTP_STATUS).map(([code, status]) => ({ status, blame: WEBHOOK_BLAME[code as WebhookErrorCode] })),
      ...Object.values(DECODE_ERROR_ANSWER),
    ];
    for (const { status, blame } of answers) expect(status >= 400 && status < 500).toBe(blame === 'delivery');
  });
});

const genuine = await signedRequest(completedBody());

function receiver(extra: Partial<WebhookReceiverOptions> = {}) {
  return createWebhookReceiver({ ...RECEIVER_BASE, replayStore: createMemoryReplayStore({ now: nowMs }), ...extra });
}

/** The outcome, checked for the invariants every outcome holds: typed, and answered as blamed. */
async function judged(run: Promise<Outcome>): Promise<Outcome> {
  const result = await run;
  if (!result.ok) {
    expect(result.error).toBeInstanceOf(DecodeError);
    expect(statusFits(result.answer.blame, result.answer.status)).toBe(true);
    expect((result.error as Error).message).not.toMatch(/\n/);
  }
  return result;
}

const signedBodies = fc.constantFrom(
  'not json',
  '[]',
  '{"task_id":"a","task_id":"b"}',
  completedBody({ result: { ...completedResult, revision: 'one' } }),
  completedBody({ task_type: 'no_such_task' }),
  completedBody({ idempotency_key: undefined }),
  `${'['.repeat(500)}${']'.repeat(500)}`,
  '{"__proto__":{"polluted":true}}',
  failedBody(),
  completedBodyOfSize(1_100_000),
);

/** A genuine delivery, changed the way a network or a hostile sender can change it. */
const deliveryFaults: fc.Arbitrary<() => Promise<PlainRequest>> = fc.oneof(
  fc.constantFrom('GET', 'PUT', 'post', 'DELETE').map((method) => async () => ({ ...genuine, method })),
  fc.constantFrom('text/plain', 'application/jsonx', '', 'application/xml').map((type) => async () => ({
    ...genuine,
    headers: { ...genuine.headers, 'content-type': type },
  })),
  fc.constantFrom('signature', 'signature-input', 'content-digest', 'content-type', 'host').map((name) => async () => {
    const { [name]: _dropped, ...headers } = genuine.headers;
    return { ...genuine, headers };
  }),
  fc
    .tuple(fc.constantFrom('signature', 'signature-input', 'content-digest', 'content-length'), fc.string({ maxLength: 200 }))
    .map(([name, value]) => async () => ({ ...genuine, headers: { ...genuine.headers, [name]: value } })),
  fc.tuple(fc.nat({ max: genuine.body.length - 1 }), fc.integer({ min: 1, max: 255 })).map(([at, delta]) => async () => {
    const body = genuine.body.slice();
    body[at] = ((body[at] as number) + delta) % 256;
    return { ...genuine, body };
  }),
  signedBodies.map((body) => () => signedRequest(body)),
  fc.integer({ min: -100_000, max: 100_000 }).map((shift) => () => signedRequest(completedBody(), { created: NOW + shift })),
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => () => signedRequest(new Uint8Array([0xff, ...bytes]))),
  // A request-target in origin-form (RFC 9112: empty segments allowed, so `//x` too) is what the
  // sender sent, as Node's req.url holds it (fuzz finding, webhook lane: `//adcp/...` was a 500).
  fc
    .tuple(fc.array(fc.stringMatching(/^[a-z0-9._~%-]{0,8}$/), { minLength: 1, maxLength: 5 }), fc.boolean())
    .map(([segments, absolute]) => async () => {
      const target = `/${segments.join('/')}`;
      return { ...genuine, url: absolute ? `${new URL(HOOK_URL).origin}${target}` : target };
    }),
);

describe('faults of the delivery are answered 4xx (or 2xx for a delivered failure), never 5xx', () => {
  test('generated mutations of a genuine delivery', async () => {
    await fc.assert(
      fc.asyncProperty(deliveryFaults, async (make) => {
        const result = await judged(outcome(receiver().receive(await make())));
        if (!result.ok) expect(['delivery', 'none']).toContain(result.answer.blame);
      }),
      { numRuns: 250 },
    );
  });
  test('a replayed delivery', async () => {
    const rx = receiver();
    await rx.receive(genuine);
    const again = await judged(outcome(rx.receive(genuine)));
    expect(again.ok ? undefined : again.answer).toMatchObject({ status: 401, blame: 'delivery' });
  });
});

const notRaw = fc.oneof(fc.object(), fc.constant(null), fc.integer(), fc.boolean(), fc.constant(undefined), fc.array(fc.nat()));
const wrongShape = fc.anything().filter((v) => v !== undefined);
const notAStatus = fc.anything().filter((v) => v !== 'valid' && v !== 'revoked' && v !== 'stale');
const notAClaim = fc.anything().filter((v) => v !== 'claimed' && v !== 'replayed' && v !== 'rate_abuse');

function replayStoreAnswering(claim: unknown, capReached: unknown = false): ReplayStore {
  return { capReached: () => capReached as boolean, claim: () => claim as 'claimed', newKeyidAdmissions: () => 0 };
}

/** The buyer's setup, wrong in a way only a request can show. */
const configurationFaults: fc.Arbitrary<() => Promise<Outcome>> = fc.oneof(
  notRaw.map((body) => () => outcome(receiver().receive({ ...genuine, body: body as unknown as string }))),
  fc
    .constantFrom('adcp/webhook', 'buyer.example.com/x', '', 'ftp://buyer.example.com/x')
    .map((url) => () => outcome(receiver().receive({ ...genuine, url }))),
  fc.constantFrom(null, undefined, 42, 'POST /').map((request) => () => outcome(receiver().receive(request as unknown as PlainRequest))),
  fc
    .oneof(fc.integer(), fc.object(), fc.constant(null))
    .map(
      (value) => () => outcome(receiver().receive({ ...genuine, headers: { ...genuine.headers, 'x-extra': value as unknown as string } })),
    ),
  wrongShape
    .filter((v) => !(typeof v === 'object' && v !== null && 'jwk' in v))
    .map((answer) => () => outcome(receiver({ keys: () => answer as unknown as undefined }).receive(genuine))),
  notAStatus.map((answer) => () => outcome(receiver({ revocation: () => answer as 'valid' }).receive(genuine))),
  notAClaim.map((answer) => () => outcome(receiver({ replayStore: replayStoreAnswering(answer) }).receive(genuine))),
  wrongShape
    .filter((v) => typeof v !== 'boolean')
    .map((answer) => () => outcome(receiver({ replayStore: replayStoreAnswering('claimed', answer) }).receive(genuine))),
  fc
    .constantFrom(Number.NaN, Number.POSITIVE_INFINITY, '1776520800000', undefined)
    .map((t) => () => outcome(receiver({ now: () => t as number }).receive(genuine))),
  wrongShape.map((answer) => {
    const store: DedupStore = { claim: () => answer as 'claimed', complete: () => true, release: () => true };
    return () => outcome(receiver({ dedup: { store } }).receive(genuine));
  }),
);

describe("the buyer's configuration is answered 500 with what to fix, never blamed on the sender", () => {
  test('generated misconfigurations', async () => {
    await fc.assert(
      fc.asyncProperty(configurationFaults, async (run) => {
        const result = await judged(run());
        // A dedup store answering 'claimed' is right, so that case may be accepted.
        if (!result.ok) expect(result.answer).toMatchObject({ status: 500, blame: 'configuration' });
      }),
      { numRuns: 200 },
    );
  });
  test('a body a framework already parsed (express.json()): webhook_body_not_raw, which says to pass the raw bytes', async () => {
    const result = await outcome(receiver().receive({ ...genuine, body: JSON.parse(completedBody()) as string }));
    expect(result.ok ? undefined : result.error).toMatchObject({
      webhookCode: 'webhook_body_not_raw',
      httpStatus: 500,
      message: expect.stringMatching(/^webhook_body_not_raw: the receiver needs the raw bytes: .*express\.raw\(\)/),
    });
  });
  test('a Request whose body was already read: webhook_body_not_raw', async () => {
    const request = new Request(HOOK_URL, { method: 'POST', headers: genuine.headers, body: genuine.body });
    await request.text();
    const result = await outcome(receiver().receive(request));
    expect(result.ok ? undefined : result.answer).toMatchObject({ status: 500, blame: 'configuration' });
  });
});

const thrown = fc.oneof(
  fc.anything(),
  fc.string().map((m) => new Error(m)),
  fc.constant(new TypeError('fetch failed')),
);
const never = (): Promise<never> => new Promise(() => undefined);
const failing = fc.oneof(
  thrown.map((value) => () => {
    throw value;
  }),
  thrown.map((value) => () => Promise.reject(value)),
  fc.constant(never),
);

/** Something the receiver relies on throws, rejects, or never answers. */
const dependencyFaults: fc.Arbitrary<() => Promise<Outcome>> = fc.oneof(
  failing.map((fail) => () => outcome(receiver({ keys: fail, keysTimeoutMs: 20 }).receive(genuine))),
  failing.map((fail) => () => outcome(receiver({ revocation: fail, keysTimeoutMs: 20 }).receive(genuine))),
  fc.tuple(failing, fc.boolean()).map(([fail, atCap]) => {
    const replayStore: ReplayStore = atCap
      ? { capReached: fail, claim: () => 'claimed', newKeyidAdmissions: () => 0 }
      : { capReached: () => false, claim: fail, newKeyidAdmissions: () => 0 };
    return () => outcome(receiver({ replayStore, storeTimeoutMs: 20 }).receive(genuine));
  }),
  failing.map((fail) => {
    const store: DedupStore = { claim: fail, complete: () => true, release: () => true };
    return () => outcome(receiver({ dedup: { store }, storeTimeoutMs: 20 }).receive(genuine));
  }),
  fc.constantFrom(500, 404, 302).map((status) => {
    const fetch = async () => new Response('{}', { status });
    return () =>
      outcome(receiver({ keys: undefined, jwks: { url: 'https://seller.example.com/jwks', agent: 'x', fetch } }).receive(genuine));
  }),
);

describe('a failing, hanging or erring dependency is answered 503 (a retry can succeed)', () => {
  test('generated dependency faults', async () => {
    await fc.assert(
      fc.asyncProperty(dependencyFaults, async (run) => {
        const result = await judged(run());
        expect(result.ok ? undefined : result.answer).toMatchObject({ status: 503, blame: 'dependency' });
      }),
      { numRuns: 150 },
    );
  });
  test('the message names the dependency and the deadline option', async () => {
    const result = await outcome(receiver({ keys: never, keysTimeoutMs: 20 }).receive(genuine));
    expect(result.ok ? undefined : (result.error as Error).message).toMatch(
      /^webhook_signature_jwks_unavailable: the key resolver did not answer within 20 ms \(keysTimeoutMs\)/,
    );
  });
  test('a full in-memory dedup store: 503, with the budget to raise', async () => {
    const result = await outcome(receiver({ dedup: { store: createMemoryDedupStore({ maxBytes: 64 }) } }).receive(genuine));
    expect(result.ok ? undefined : result.error).toMatchObject({ webhookCode: 'webhook_dedup_store_unavailable', httpStatus: 503 });
  });
});

describe('a defect of our own or of the runtime is INTERNAL (500), never the sender', () => {
  const broken = (op: 'digest' | 'verify') =>
    thrown.map((value) => {
      const subtle = {
        ...crypto.subtle,
        digest: crypto.subtle.digest.bind(crypto.subtle),
        verify: crypto.subtle.verify.bind(crypto.subtle),
      };
      subtle.importKey = crypto.subtle.importKey.bind(crypto.subtle);
      subtle.sign = crypto.subtle.sign.bind(crypto.subtle);
      subtle[op] = () => {
        throw value;
      };
      return subtle;
    });
  test('a WebCrypto that throws', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(broken('digest'), broken('verify')), async (subtle) => {
        const result = await judged(outcome(receiver({ subtle }).receive(await signedRequest(completedBody()))));
        expect(result.ok ? undefined : result.error).toMatchObject({ code: 'INTERNAL' });
        expect(result.ok ? undefined : result.answer).toMatchObject({ status: 500, blame: 'internal' });
      }),
      { numRuns: 50 },
    );
  });
  test('a planted defect in the duplicate-key scan', async () => {
    defect.planted = true;
    try {
      const result = await judged(outcome(receiver().receive(await signedRequest(completedBody()))));
      expect(result.ok ? undefined : result.error).toMatchObject({
        code: 'INTERNAL',
        message: expect.stringMatching(/^the webhook receiver failed on its own side \(TypeError: Cannot read/),
      });
    } finally {
      defect.planted = false;
    }
  });
});
