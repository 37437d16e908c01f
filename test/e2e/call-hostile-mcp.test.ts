/**
 * callTask over the real MCP SDK against hostile sellers on 127.0.0.1 (test/fixtures/hostile-sellers.ts):
 * the caller's abort is rethrown as it was, never decoded; an HTTP refusal is a TransportError
 * with the right blame (a 401's Signature error code read from WWW-Authenticate), never a
 * "JSON-RPC error 401 (transient)"; seller text is escaped and cut; a dropped connection is the
 * network's; `retry` resends the identical request (same bytes, same key, signed anew) on what is
 * retryable only, within its attempts and the call's deadline; an answer past the deadline is TIMEOUT;
 * and a text item that repeats a key is refused as decode refuses it (DUPLICATE_KEY), while a
 * repeat inside structuredContent was resolved by the SDK's JSON.parse before callTask saw it.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, test } from 'vitest';
import { boundedFetch } from '../../src/fetch/index.js';
import { DecodeError, encode, LimitError, TaskFailedError } from '../../src/index.js';
import { callTask, safeCallTask, TransportError } from '../../src/mcp/index.js';
import { REQUEST_PROFILES } from '../../src/signatures/http/profile.js';
import { createMemoryReplayStore } from '../../src/signatures/replay/replay.js';
import { createRequestSigner, withRequestSigning } from '../../src/signatures/sign/index.js';
import { verifyProfileSignature } from '../../src/signatures/verify/verify.js';
import { KEY, mediaBuyRequest, PRODUCTS_BRIEF } from '../encode/requests.js';
import { ABORTS, type Behaviour, HOSTILE_BODY, type HostileSeller, hasRawControl, serveHostileMcp } from '../fixtures/hostile-sellers.js';
import { lowLevelSeller } from '../fixtures/mcp-sellers.js';
import { privateJwk, received as receivedRequest, resolverOf } from '../signatures/sign/helpers.js';
import { ed25519 } from '../webhooks/fixtures.js';

const productsAnswer = { adcp_version: '3.1', products: [], cache_scope: 'public' };
const buyAnswer = { status: 'submitted', task_id: 'task_cmb_77', adcp_version: '3.1' };

/** The real seller behind the hostile part: echoes the context, as the spec requires. */
const seller = lowLevelSeller({
  call: (params) => {
    const payload = params.name === 'create_media_buy' ? buyAnswer : productsAnswer;
    return { content: [{ type: 'text', text: 'ok' }], structuredContent: { ...payload, context: params.arguments?.context } };
  },
});

const rateLimited =
  (retryAfter: number, code = 'RATE_LIMITED'): Behaviour =>
  (r, res) => {
    if (r.attempt > 1) return 'pass';
    const error = {
      code: -32029,
      message: 'Rate limit exceeded',
      data: { adcp_error: { code, recovery: 'transient', retry_after: retryAfter } },
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: r.body.id, error }));
    return undefined;
  };
const refuse =
  (status: number, headers: Record<string, string> = {}, body = ''): Behaviour =>
  (_, res) => {
    res.writeHead(status, headers).end(body);
    return undefined;
  };
const drop: Behaviour = (r, res) => {
  if (r.attempt > 1) return 'pass';
  res.socket?.destroy();
  return undefined;
};
const never: Behaviour = () => undefined;

let served: HostileSeller[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(served.map((s) => s.close()));
  served = [];
});

/** A hostile seller and a real SDK client on it, through boundedFetch (or the fetch given), with the authProvider given. */
async function hostile(
  behaviour: Behaviour,
  fetch: typeof globalThis.fetch = boundedFetch(),
  auth?: (url: URL) => OAuthClientProvider,
): Promise<{ seller: HostileSeller; client: Client }> {
  const s = await serveHostileMcp(seller, behaviour);
  served.push(s);
  const client = new Client({ name: 'buyer', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(s.url, { fetch, ...(auth === undefined ? {} : { authProvider: auth(s.url) }) }));
  clients.push(client);
  return { seller: s, client };
}

/** A sleep that records what it was asked to wait and returns at once. */
function recordedSleep(): { waits: number[]; sleep: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}

describe("the caller's abort is rethrown as it was, never decoded", () => {
  test.each(ABORTS)('%s: callTask and safeCallTask reject with the signal reason', async (_, make) => {
    const { client, seller: s } = await hostile(never);
    for (const call of [callTask, safeCallTask]) {
      const signal = make();
      const error: unknown = await call(client, 'get_products', PRODUCTS_BRIEF, { signal, retry: { attempts: 3 } }).then(
        (r) => ({ resolved: r }),
        (e: unknown) => e,
      );
      expect(error).toBe(signal.reason);
      expect(error).toBeInstanceOf(DOMException);
    }
    // The already-aborted signal sends nothing; the others sent one request each, never retried.
    expect(s.calls.length).toBeLessThanOrEqual(2);
  });
});

describe('HTTP refusals are typed, with the right blame', () => {
  test.each([
    ['request_signature_required', 'configuration'],
    ['request_signature_digest_mismatch', 'request'],
  ])('a 401 with Signature error="%s": TransportError, blame %s, not transient, never retried', async (code, blame) => {
    const { client, seller: s } = await hostile(refuse(401, { 'www-authenticate': `Signature error="${code}"` }));
    const result = await safeCallTask(client, 'create_media_buy', mediaBuyRequest(1), { version: '3.1', retry: { attempts: 3 } });
    if (result.success) throw new Error('expected a refusal');
    expect(result.error).toBeInstanceOf(TransportError);
    expect(result.error).not.toBeInstanceOf(TaskFailedError);
    expect(result.error).toMatchObject({
      code: 'TRANSPORT_FAILED',
      status: 401,
      signatureError: code,
      blame,
      recovery: { recovery: 'correctable' },
    });
    expect(result.error.message).toContain(`HTTP 401 (Signature error "${code}")`);
    expect(result.error.message).not.toMatch(/JSON-RPC|transient/);
    expect(result.request?.args.idempotency_key).toBe(KEY);
    expect(s.calls).toHaveLength(1);
  });

  test('a 401 among other challenges and parameters: the Signature code is still read', async () => {
    const header = 'Bearer realm="seller", error="invalid_token", Signature foo=bar, error="request_signature_key_unknown"';
    const { client } = await hostile(refuse(401, { 'www-authenticate': header }));
    const error: unknown = await callTask(client, 'get_products', PRODUCTS_BRIEF).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, signatureError: 'request_signature_key_unknown', blame: 'configuration' });
  });

  test('a 503 is transient and retried with the same request; a 400 is the request, never retried', async () => {
    const { client, seller: s } = await hostile((r, res) => (r.attempt === 1 ? refuse(503, { 'retry-after': '2' })(r, res) : 'pass'));
    const { waits, sleep } = recordedSleep();
    const result = await safeCallTask(client, 'create_media_buy', mediaBuyRequest(1), { version: '3.1', retry: { attempts: 3, sleep } });
    expect(result).toMatchObject({ success: true, data: { status: 'submitted' } });
    expect(waits).toEqual([2000]); // Retry-After, as the bounded fetch saw it
    expect(s.calls).toHaveLength(2);
    expect(s.calls[1]?.body.params).toEqual(s.calls[0]?.body.params);

    const bad = await hostile(refuse(400, { 'content-type': 'text/plain' }, 'bad request'));
    const refused = await safeCallTask(bad.client, 'get_products', PRODUCTS_BRIEF, { retry: { attempts: 3 } });
    expect(refused).toMatchObject({
      success: false,
      error: { status: 400, blame: 'request', recovery: { recovery: 'correctable' }, sellerText: 'bad request' },
    });
    expect(bad.seller.calls).toHaveLength(1);
  });

  test("a gateway's 429 whose body is a JSON-RPC error: the seller's error, decoded as over A2A (adcp_error, retry_after)", async () => {
    const error = {
      code: -32029,
      message: 'Rate limit exceeded',
      data: { adcp_error: { code: 'RATE_LIMITED', recovery: 'transient', retry_after: 5 } },
    };
    const { client } = await hostile((r, res) =>
      refuse(429, { 'content-type': 'application/json' }, JSON.stringify({ jsonrpc: '2.0', id: r.body.id, error }))(r, res),
    );
    await expect(callTask(client, 'get_products', PRODUCTS_BRIEF)).rejects.toMatchObject({
      code: 'TASK_FAILED',
      known: { code: 'RATE_LIMITED' },
      recovery: { recovery: 'transient', retryAfterSeconds: 5 },
    });
  });

  test("a gateway's 429 whose JSON-RPC error body repeats a key: DUPLICATE_KEY, not the last recovery, never retried", async () => {
    const { client, seller: s } = await hostile((r, res) =>
      refuse(
        429,
        { 'content-type': 'application/json' },
        `{"jsonrpc":"2.0","id":${JSON.stringify(r.body.id)},"error":{"code":-32029,"message":"Rate limit exceeded","data":{"adcp_error":{"code":"RATE_LIMITED","recovery":"terminal","retry_after":5,"recovery":"transient"}}}}`,
      )(r, res),
    );
    const { waits, sleep } = recordedSleep();
    await expect(callTask(client, 'get_products', PRODUCTS_BRIEF, { retry: { attempts: 3, sleep } })).rejects.toMatchObject({
      code: 'DUPLICATE_KEY',
      task: 'get_products',
      path: '/error/data/adcp_error/recovery',
    });
    expect(waits).toEqual([]);
    expect(s.calls).toHaveLength(1);
  });

  test('a 300 KB hostile body: sellerText escaped and at most 1,000 characters, a one-line message', async () => {
    const { client } = await hostile(refuse(500, { 'content-type': 'text/plain' }, HOSTILE_BODY));
    const error = (await callTask(client, 'get_products', PRODUCTS_BRIEF).catch((e: unknown) => e)) as TransportError;
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ status: 500, blame: 'seller', recovery: { recovery: 'transient' } });
    expect(error.sellerText?.length).toBeLessThanOrEqual(1000);
    expect(error.sellerText).toContain('\\u001b[31mERROR');
    for (const text of [error.message, error.sellerText ?? '']) expect(hasRawControl(text)).toBe(false);
    expect(error.message.length).toBeLessThan(600);
  });
});

describe('an answer the SDK could not take', () => {
  test('a 401 the authProvider does not resolve (UnauthorizedError): TransportError 401, the configuration, never retried', async () => {
    const redirected: URL[] = [];
    // An OAuth client with no token yet: the SDK starts an authorization (a redirect) and throws UnauthorizedError.
    const provider = (url: URL): OAuthClientProvider => ({
      redirectUrl: 'http://127.0.0.1/callback',
      clientMetadata: { redirect_uris: ['http://127.0.0.1/callback'], client_name: 'buyer' },
      clientInformation: () => ({ client_id: 'buyer' }),
      tokens: () => undefined,
      saveTokens: () => undefined,
      redirectToAuthorization: (at) => void redirected.push(at),
      saveCodeVerifier: () => undefined,
      codeVerifier: () => 'verifier',
      discoveryState: () => ({
        authorizationServerUrl: url.origin,
        resourceMetadata: { resource: url.href, authorization_servers: [url.origin] },
        authorizationServerMetadata: {
          issuer: url.origin,
          authorization_endpoint: `${url.origin}/authorize`,
          token_endpoint: `${url.origin}/token`,
          response_types_supported: ['code'],
        },
      }),
    });
    const { client, seller: s } = await hostile(refuse(401, { 'www-authenticate': 'Bearer realm="seller"' }), boundedFetch(), provider);
    const result = await safeCallTask(client, 'get_products', PRODUCTS_BRIEF, { retry: { attempts: 3 } });
    if (result.success) throw new Error('expected a refusal');
    expect(result.error).toBeInstanceOf(TransportError);
    expect(result.error).toMatchObject({ status: 401, blame: 'configuration', recovery: { recovery: 'correctable' } });
    expect(result.error.message).toContain('UnauthorizedError');
    expect(redirected).toHaveLength(1);
    expect(s.calls).toHaveLength(1);
  });

  test.each([
    ['a JSON body that is no JSON-RPC message', (_id: unknown) => ({ note: HOSTILE_BODY.slice(0, 5000) })],
    ['a result that is no CallToolResult (content: 5)', (id: unknown) => ({ jsonrpc: '2.0', id, result: { content: 5 } })],
  ])('%s (the SDK throws a multi-line ZodError): MALFORMED_ENVELOPE, one line', async (_, body) => {
    const { client } = await hostile((r, res) =>
      refuse(200, { 'content-type': 'application/json' }, JSON.stringify(body(r.body.id)))(r, res),
    );
    const result = await safeCallTask(client, 'get_products', PRODUCTS_BRIEF);
    if (result.success) throw new Error('expected a failure');
    expect(result.error).toMatchObject({ code: 'MALFORMED_ENVELOPE', task: 'get_products' });
    expect(result.error.message).not.toMatch(/[\r\n]/);
    expect(result.error.cause).toBeUndefined();
  });

  test('a 200 whose JSON body is not JSON (the SDK throws a SyntaxError quoting it): MALFORMED_ENVELOPE, escaped', async () => {
    const { client } = await hostile(refuse(200, { 'content-type': 'application/json' }, HOSTILE_BODY));
    const result = await safeCallTask(client, 'get_products', PRODUCTS_BRIEF);
    if (result.success) throw new Error('expected a failure');
    expect(result.error).toMatchObject({ code: 'MALFORMED_ENVELOPE', task: 'get_products' });
    expect(result.error.cause).toBeUndefined();
    expect(hasRawControl(result.error.message)).toBe(false);
    expect(result.error.message.length).toBeLessThanOrEqual(500);
  });
});

describe('a dropped connection is the network, and retried', () => {
  test('without retry: TransportError (no status, transient), the request handed back', async () => {
    const { client } = await hostile(drop);
    const result = await safeCallTask(client, 'create_media_buy', mediaBuyRequest(1), { version: '3.1' });
    if (result.success) throw new Error('expected a failure');
    expect(result.error).toMatchObject({
      code: 'TRANSPORT_FAILED',
      status: undefined,
      blame: 'network',
      recovery: { recovery: 'transient' },
    });
    expect(result.request?.args).toMatchObject({ idempotency_key: KEY });
  });

  test('with retry: the same bytes again, after the backoff (2 s ± 25%)', async () => {
    const { client, seller: s } = await hostile(drop);
    const { waits, sleep } = recordedSleep();
    await expect(
      callTask(client, 'create_media_buy', mediaBuyRequest(1), { version: '3.1', retry: { attempts: 2, sleep } }),
    ).resolves.toMatchObject({ status: 'submitted' });
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(1500);
    expect(waits[0]).toBeLessThanOrEqual(2500);
    expect(s.calls.map((c) => c.body.params)).toEqual([s.calls[0]?.body.params, s.calls[0]?.body.params]);
  });
});

describe('retry: the same request on what is retryable, within attempts and the deadline', () => {
  test('RATE_LIMITED retry_after 5: waits 5 s, resends what encode() returned (same key, same arguments)', async () => {
    const { client, seller: s } = await hostile(rateLimited(5));
    const { waits, sleep } = recordedSleep();
    const request = encode('create_media_buy', mediaBuyRequest(2), { version: '3.1' });
    const result = await safeCallTask(client, request, { retry: { attempts: 3, sleep } });
    expect(result).toMatchObject({ success: true, data: { status: 'submitted', task_id: 'task_cmb_77' } });
    expect(waits).toEqual([5000]);
    expect(s.calls).toHaveLength(2);
    expect(s.calls[0]?.body.params?.arguments).toEqual(request.args);
    expect(s.calls[1]?.body.params?.arguments).toEqual(request.args);
    expect(result.request).toEqual(request);
  });

  test('IDEMPOTENCY_IN_FLIGHT: retried after retryAfterSeconds with the same key', async () => {
    const { client, seller: s } = await hostile(rateLimited(3, 'IDEMPOTENCY_IN_FLIGHT'));
    const { waits, sleep } = recordedSleep();
    await callTask(client, 'create_media_buy', mediaBuyRequest(1), { version: '3.1', retry: { attempts: 2, sleep } });
    expect(waits).toEqual([3000]);
    expect(s.calls.map((c) => c.body.params?.arguments?.idempotency_key)).toEqual([KEY, KEY]);
  });

  test('a correctable seller error is never retried; attempts bound a seller that always throttles', async () => {
    const budget: Behaviour = (r, res) => {
      const error = { code: -32000, message: 'no', data: { adcp_error: { code: 'BUDGET_TOO_LOW', recovery: 'correctable' } } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: r.body.id, error }));
      return undefined;
    };
    const low = await hostile(budget);
    const { sleep } = recordedSleep();
    await expect(callTask(low.client, 'get_products', PRODUCTS_BRIEF, { retry: { attempts: 5, sleep } })).rejects.toBeInstanceOf(
      TaskFailedError,
    );
    expect(low.seller.calls).toHaveLength(1);

    const always = await hostile((r, res) => rateLimited(1)({ ...r, attempt: 1 }, res));
    const recorded = recordedSleep();
    const error = await callTask(always.client, 'get_products', PRODUCTS_BRIEF, { retry: { attempts: 4, sleep: recorded.sleep } }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'TASK_FAILED', known: { code: 'RATE_LIMITED' } });
    expect(always.seller.calls).toHaveLength(4);
    expect(recorded.waits).toEqual([1000, 1000, 1000]);
  });

  test("a wait past the call's deadline is not started: the seller's error ends the call at once", async () => {
    // Throttles the first two tools/call, serves the third.
    const { client, seller: s } = await hostile((r, res) => (r.attempt >= 3 ? 'pass' : rateLimited(5)({ ...r, attempt: 1 }, res)));
    const { waits, sleep } = recordedSleep();
    const error = await callTask(client, 'get_products', PRODUCTS_BRIEF, { timeoutMs: 2000, retry: { attempts: 3, sleep } }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'TASK_FAILED', recovery: { recovery: 'transient', retryAfterSeconds: 5 } });
    expect(waits).toEqual([]);
    expect(s.calls).toHaveLength(1);
    // The same seller within a deadline that holds the wait: it is waited, and the retry served.
    await expect(
      callTask(client, 'get_products', PRODUCTS_BRIEF, { timeoutMs: 60_000, retry: { attempts: 3, sleep } }),
    ).resolves.toMatchObject({
      products: [],
    });
    expect(waits).toEqual([5000]);
  });

  test('a signed request is signed anew on each attempt: two nonces, both verify, the same body', async () => {
    const signer = createRequestSigner({ key: privateJwk(ed25519), keyid: ed25519.kid, alg: 'ed25519' });
    const sent: Request[] = [];
    const recording: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      sent.push(request.clone());
      return fetch(request);
    };
    const capabilities = {
      request_signing: { supported: true, covers_content_digest: 'required', required_for: ['create_media_buy'] },
    } as const;
    const { client, seller: s } = await hostile(
      rateLimited(1),
      withRequestSigning(boundedFetch({ fetch: recording }), signer, { capabilities }),
    );
    const { sleep } = recordedSleep();
    await callTask(client, 'create_media_buy', mediaBuyRequest(1), { version: '3.1', retry: { attempts: 2, sleep } });
    expect(s.calls).toHaveLength(2);
    const [first, second] = s.calls.map((c) => c.headers);
    expect(first?.['signature-input']).toBeDefined();
    expect(second?.['signature-input']).not.toBe(first?.['signature-input']);
    expect(s.calls[1]?.body.params).toEqual(s.calls[0]?.body.params);
    const options = { keys: resolverOf(ed25519), replayStore: createMemoryReplayStore() };
    for (const request of sent.filter((r) => r.headers.has('signature-input')))
      await expect(verifyProfileSignature(await receivedRequest(request), options, REQUEST_PROFILES.base64url)).resolves.toMatchObject({
        keyid: ed25519.kid,
      });
  });
});

describe('no call resolves after its deadline, whatever runs inside it', () => {
  test('an answer that arrives after synchronous work past the deadline is TIMEOUT, not a late success', async () => {
    const client = {
      callTool: async () => {
        // Work that holds the event loop past the deadline (as a fold of a huge stream did): the timer cannot fire.
        const until = performance.now() + 120;
        while (performance.now() < until);
        return { content: [], structuredContent: { ...productsAnswer, context: PRODUCTS_BRIEF.context } };
      },
    };
    const result = await safeCallTask(client, 'get_products', PRODUCTS_BRIEF, { version: '3.1', timeoutMs: 20 });
    if (result.success) throw new Error('expected a TIMEOUT');
    expect(result.error).toBeInstanceOf(LimitError);
    expect(result.error).toMatchObject({ code: 'TIMEOUT', unit: 'ms', limit: 20 });
  });

  test('an error the client throws that no one can class is rethrown as it was', async () => {
    const bug = new RangeError('the client broke');
    const client = { callTool: async () => Promise.reject(bug) };
    await expect(safeCallTask(client, 'get_products', PRODUCTS_BRIEF)).rejects.toBe(bug);
    await expect(callTask(client, 'get_products', PRODUCTS_BRIEF)).rejects.not.toBeInstanceOf(DecodeError);
  });
});

describe('a repeated key in what the seller sent as text', () => {
  /** A JSON-RPC answer written by hand, byte for byte: `result` is the raw JSON text given. */
  const rawResult =
    (result: (r: Parameters<Behaviour>[0]) => string): Behaviour =>
    (r, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(`{"jsonrpc":"2.0","id":${JSON.stringify(r.body.id)},"result":${result(r)}}`);
      return undefined;
    };
  /** The products answer with the request's context echoed, as JSON text; `extra` members spliced in first. */
  const productsText = (r: Parameters<Behaviour>[0], extra = ''): string =>
    `{${extra}${JSON.stringify({ ...productsAnswer, status: 'completed', context: r.body.params?.arguments?.context }).slice(1)}`;
  const textItem = (text: string) => `{"content":[{"type":"text","text":${JSON.stringify(text)}}]}`;

  test('a text item that says failed, then completed: DUPLICATE_KEY at the repeat, blamed on the seller, not retried', async () => {
    const { client, seller: s } = await hostile(rawResult((r) => textItem(productsText(r, '"status":"failed",'))));
    const result = await safeCallTask(client, 'get_products', PRODUCTS_BRIEF, { retry: { attempts: 3 } });
    if (result.success) throw new Error(`expected a refusal; got status ${String(result.data.status)}`);
    expect(result.error).not.toBeInstanceOf(TransportError);
    expect(result.error).toMatchObject({ code: 'DUPLICATE_KEY', task: 'get_products', path: '/content/0/text/status' });
    expect(s.calls).toHaveLength(1);
    await expect(callTask(client, 'get_products', PRODUCTS_BRIEF)).rejects.toMatchObject({ code: 'DUPLICATE_KEY' });
  });

  test('the same text without the repeat decodes: the refusal is the repeat, not the hand-written answer', async () => {
    const { client } = await hostile(rawResult((r) => textItem(productsText(r))));
    await expect(callTask(client, 'get_products', PRODUCTS_BRIEF)).resolves.toMatchObject({ status: 'completed', products: [] });
  });

  test('an isError result whose text repeats a key in its adcp_error: DUPLICATE_KEY, not a retryable RATE_LIMITED', async () => {
    const text = '{"adcp_error":{"code":"RATE_LIMITED","recovery":"transient","retry_after":1,"recovery":"terminal"}}';
    const { client, seller: s } = await hostile(
      rawResult(() => `{"isError":true,"content":[{"type":"text","text":${JSON.stringify(text)}}]}`),
    );
    const { waits, sleep } = recordedSleep();
    await expect(callTask(client, 'get_products', PRODUCTS_BRIEF, { retry: { attempts: 3, sleep } })).rejects.toMatchObject({
      code: 'DUPLICATE_KEY',
      path: '/content/0/text/adcp_error/recovery',
    });
    expect(waits).toEqual([]);
    expect(s.calls).toHaveLength(1);
  });

  test('a repeat inside structuredContent cannot be seen: the SDK client parsed the message (the last value kept)', async () => {
    const { client } = await hostile(
      rawResult((r) => `{"content":[{"type":"text","text":"ok"}],"structuredContent":${productsText(r, '"status":"failed",')}}`),
    );
    await expect(callTask(client, 'get_products', PRODUCTS_BRIEF)).resolves.toMatchObject({ status: 'completed' });
  });
});
