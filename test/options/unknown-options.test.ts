/**
 * An option name an entry does not take is refused, in every public entry that takes options and in
 * every nested option object (README "Options"): given a call its options pass, plus one misspelt
 * name, the entry ends with INVALID_OPTION `<who>: option <name> is not an option of <who>; did you
 * mean <nearest>?`, and nothing was sent, fetched, read or started: the clients, fetches, stores and
 * key resolvers handed to it were never called, and the payload was never read.
 * test/options/unknown-options.test-d.ts holds the same names at compile time.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import * as a2a from '../../src/a2a/index.js';
import { boundedFetch, FETCH_BOUNDS, withFetchBounds } from '../../src/fetch/index.js';
import * as v31 from '../../src/generated/v3_1/pinned.js';
import {
  classifyRecovery,
  createDecoder,
  DecodeError,
  decode,
  decoderFor,
  decodeTaskStatus,
  encode,
  extractMcpError,
  extractMcpResponse,
  safeDecode,
  safeEncode,
  taskHandle,
} from '../../src/index.js';
import * as mcp from '../../src/mcp/index.js';
import { createRequestSigner, withRequestSigning } from '../../src/signatures/sign/index.js';
import {
  createJwksResolver,
  createMemoryDedupStore,
  createMemoryReplayStore,
  createRedisDedupStore,
  createRedisReplayStore,
  createRevocationList,
  createWebhookReceiver,
  decodeWebhook,
  type ReplayClaim,
  type ResolvedKey,
  verifyLegacyHmac,
  verifyWebhookSignature,
} from '../../src/webhooks/index.js';
import { mcp as envelope } from '../fixtures/envelopes.js';
import { fixture } from '../fixtures/payloads.js';
import { privateJwk } from '../signatures/sign/helpers.js';
import { BUYER_ORIGIN, completedBody, ed25519, HOOK_URL, SELLER } from '../webhooks/fixtures.js';

/** What the entries were handed did: every send, fetch, read, store command or key lookup counts one. */
let effects = 0;
const effect = (): void => {
  effects++;
};

/** A payload that counts each read of it: options refused are refused before the payload is looked at. */
function counted<T extends object>(value: T): T {
  return new Proxy(value, {
    get: (target, key, receiver) => (effect(), Reflect.get(target, key, receiver)),
    has: (target, key) => (effect(), Reflect.has(target, key)),
    ownKeys: (target) => (effect(), Reflect.ownKeys(target)),
    getOwnPropertyDescriptor: (target, key) => (effect(), Reflect.getOwnPropertyDescriptor(target, key)),
  });
}

const fetchCounted = async (): Promise<Response> => {
  effect();
  return new Response('{}', { headers: { 'content-type': 'application/json' } });
};
const mcpClient = {
  callTool: async () => {
    effect();
    return envelope.structured({ products: [] });
  },
};
const a2aClient = {
  sendMessage: async () => {
    effect();
    return {};
  },
  sendMessageStream: (): AsyncIterable<unknown> => {
    effect();
    return (async function* () {})();
  },
};
const redisClient = {
  eval: async () => {
    effect();
    return 0;
  },
};
const keys = (_kid: string): ResolvedKey | undefined => {
  effect();
  return undefined;
};
const replayStore = {
  capReached: () => (effect(), false),
  claim: (): ReplayClaim => (effect(), 'claimed'),
  newKeyidAdmissions: () => (effect(), 0),
};
const dedupStore = {
  claim: () => (effect(), 'claimed' as const),
  complete: () => (effect(), true),
  release: () => (effect(), true),
};
const countingSubtle = {
  digest: async () => (effect(), new ArrayBuffer(32)),
  importKey: async () => {
    effect();
    throw new Error('no key here');
  },
  sign: async () => (effect(), new ArrayBuffer(64)),
  verify: async () => (effect(), false),
};

const brief = { buying_mode: 'brief', brief: 'CTV in Q3, upper funnel' } as const;
const products = () => counted(envelope.structured({ products: [] }));
const accountsText = () => counted({ content: [{ type: 'text', text: '{"accounts":[]}' }] });
const polled = () => counted(envelope.structured({ task_id: 'task_8812', task_type: 'create_media_buy', status: 'working' }));
const rateLimited = () => counted({ code: 'RATE_LIMITED', message: 'slow down', retry_after: 5 });
const capabilities31 = () =>
  JSON.parse(readFileSync(new URL('../fixtures/capabilities/seller-3-1.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const submitted31 = fixture('3.1/create_media_buy.submitted').payload;
const answer = () => decode('create_media_buy', envelope.structured(submitted31));
const answerPinned = () => v31.decode('create_media_buy', envelope.structured(submitted31));
const handle = () => {
  const made = taskHandle('create_media_buy', answer(), { agent: SELLER });
  if (made === undefined) throw new Error('expected a handle of the submitted answer');
  return made;
};
const signer = () => createRequestSigner({ key: privateJwk(ed25519), keyid: ed25519.kid, alg: 'ed25519' });
const jwksUrl = 'https://seller.example.com/.well-known/jwks.json';
const listUrl = 'https://seller.example.com/.well-known/revocations.json';
const secret = 'test-only-legacy-hmac-secret-of-40-chars!';
const unsigned = { method: 'POST', url: HOOK_URL, headers: new Map([['content-type', 'application/json']]), body: new Uint8Array(2) };
/**
 * A call's signal: for the call spelt right, already aborted (a call whose options pass ends with the
 * caller's abort, before anything is sent); for the misspelt one, live (were the name let through,
 * the call would send, and the count of what was sent would say so).
 */
let spelt = true;
const signal = () => (spelt ? AbortSignal.abort(new Error('the buyer gave up')) : AbortSignal.timeout(2_000));

/** One entry's option bag: who takes it, where it sits (a nested object's name), a misspelt name and the option it means. */
interface Row {
  readonly who: string;
  readonly path?: string;
  readonly misspelt: string;
  readonly means: string;
  /** Calls the entry with options it takes, `extra` among them (in the nested object, for a nested row). */
  readonly run: (extra: Record<string, unknown>) => unknown;
}

const ROWS: readonly Row[] = [
  // adcp-decode
  { who: 'decode', misspelt: 'maxbytes', means: 'maxBytes', run: (x) => decode('get_products', products(), { maxBytes: 65_536, ...x }) },
  {
    who: 'safeDecode',
    misspelt: 'verison',
    means: 'version',
    run: (x) => safeDecode('get_products', products(), { version: '3.1', ...x }),
  },
  { who: 'createDecoder', misspelt: 'maxNode', means: 'maxNodes', run: (x) => createDecoder({ maxNodes: 10_000, ...x }) },
  {
    who: 'decode',
    misspelt: 'unknownRecoverey',
    means: 'unknownRecovery',
    run: (x) => createDecoder({ maxBytes: 65_536 }).decode('list_accounts', accountsText(), { unknownRecovery: 'terminal', ...x }),
  },
  {
    who: 'safeDecode',
    misspelt: 'maxdepth',
    means: 'maxDepth',
    run: (x) => createDecoder({}).safeDecode('get_products', products(), { maxDepth: 32, ...x }),
  },
  {
    who: 'encode',
    misspelt: 'maxByte',
    means: 'maxBytes',
    run: (x) => createDecoder({}).encode('get_products', brief, { maxBytes: 4096, ...x }),
  },
  {
    who: 'safeEncode',
    misspelt: 'maxnodes',
    means: 'maxNodes',
    run: (x) => createDecoder({ version: '3.1' }).safeEncode('get_products', brief, { maxNodes: 500, ...x }),
  },
  {
    who: 'decoderFor',
    misspelt: 'maxbytes',
    means: 'maxBytes',
    run: (x) => decoderFor(envelope.structured(capabilities31()), { maxBytes: 65_536, ...x }),
  },
  {
    who: 'decode',
    misspelt: 'maxNode',
    means: 'maxNodes',
    run: (x) => decoderFor(envelope.structured(capabilities31())).decode('get_products', products(), { maxNodes: 10_000, ...x }),
  },
  { who: 'encode', misspelt: 'verison', means: 'version', run: (x) => encode('get_products', brief, { version: '3.1', ...x }) },
  { who: 'safeEncode', misspelt: 'maxDept', means: 'maxDepth', run: (x) => safeEncode('get_products', brief, { maxDepth: 16, ...x }) },
  { who: 'taskHandle', misspelt: 'agnet', means: 'agent', run: (x) => taskHandle('create_media_buy', answer(), { agent: SELLER, ...x }) },
  { who: 'decodeTaskStatus', misspelt: 'handel', means: 'handle', run: (x) => decodeTaskStatus(polled(), { handle: handle(), ...x }) },
  {
    who: 'extractMcpResponse',
    misspelt: 'maxbytes',
    means: 'maxBytes',
    run: (x) => extractMcpResponse(products(), { maxBytes: 2048, ...x }),
  },
  { who: 'extractMcpError', misspelt: 'maxBites', means: 'maxBytes', run: (x) => extractMcpError(products(), { maxBytes: 2048, ...x }) },
  {
    who: 'classifyRecovery',
    misspelt: 'unknownrecovery',
    means: 'unknownRecovery',
    run: (x) => classifyRecovery(rateLimited(), '3.1', { unknownRecovery: 'terminal', ...x }),
  },

  // adcp-decode/3.1
  {
    who: 'decode',
    misspelt: 'maxbytes',
    means: 'maxBytes',
    run: (x) => v31.decode('get_products', products(), { maxBytes: 65_536, ...x }),
  },
  {
    who: 'safeDecode',
    misspelt: 'maxDept',
    means: 'maxDepth',
    run: (x) => v31.safeDecode('get_products', products(), { maxDepth: 32, ...x }),
  },
  { who: 'encode', misspelt: 'maxByte', means: 'maxBytes', run: (x) => v31.encode('get_products', brief, { maxBytes: 4096, ...x }) },
  {
    who: 'safeEncode',
    misspelt: 'maxnodes',
    means: 'maxNodes',
    run: (x) => v31.safeEncode('get_products', brief, { maxNodes: 500, ...x }),
  },
  { who: 'createDecoder', misspelt: 'maxNode', means: 'maxNodes', run: (x) => v31.createDecoder({ maxNodes: 10_000, ...x }) },
  {
    who: 'decode',
    misspelt: 'unknownRecovry',
    means: 'unknownRecovery',
    run: (x) => v31.createDecoder({}).decode('list_accounts', accountsText(), { unknownRecovery: 'transient', ...x }),
  },
  {
    who: 'encode',
    misspelt: 'maxDepht',
    means: 'maxDepth',
    run: (x) => v31.createDecoder({}).encode('get_products', brief, { maxDepth: 16, ...x }),
  },
  {
    who: 'decodeTaskStatus',
    misspelt: 'maxbytes',
    means: 'maxBytes',
    run: (x) => v31.decodeTaskStatus(polled(), { maxBytes: 2048, ...x }),
  },
  {
    who: 'taskHandle',
    misspelt: 'agnet',
    means: 'agent',
    run: (x) => v31.taskHandle('create_media_buy', answerPinned(), { agent: SELLER, ...x }),
  },
  {
    who: 'classifyRecovery',
    misspelt: 'unknownRecoveries',
    means: 'unknownRecovery',
    run: (x) => v31.classifyRecovery(rateLimited(), { unknownRecovery: 'manifest', ...x }),
  },

  // adcp-decode/fetch
  {
    who: 'boundedFetch',
    misspelt: 'maxbytes',
    means: 'maxBytes',
    run: (x) => boundedFetch({ fetch: fetchCounted, maxBytes: 8_388_608, ...x }),
  },
  {
    who: 'FETCH_BOUNDS',
    misspelt: 'timeoutMS',
    means: 'timeoutMs',
    run: (x) => boundedFetch({ fetch: fetchCounted })(SELLER, { method: 'POST', [FETCH_BOUNDS]: { timeoutMs: 5_000, ...x } }),
  },
  {
    who: 'withFetchBounds',
    misspelt: 'maxbyte',
    means: 'maxBytes',
    run: (x) => withFetchBounds({ maxBytes: 1024, ...x }, async () => effect()),
  },

  // adcp-decode/sign
  {
    who: 'createRequestSigner',
    misspelt: 'validitySecond',
    means: 'validitySeconds',
    run: (x) => createRequestSigner({ key: privateJwk(ed25519), keyid: ed25519.kid, alg: 'ed25519', validitySeconds: 60, ...x }),
  },
  {
    who: 'withRequestSigning',
    misspelt: 'signs',
    means: 'sign',
    run: (x) => withRequestSigning(fetchCounted, signer(), { capabilities: capabilities31(), sign: 'supported', ...x }),
  },

  // adcp-decode/webhooks
  { who: 'decodeWebhook', misspelt: 'verison', means: 'version', run: (x) => decodeWebhook(completedBody(), { version: '3.1', ...x }) },
  {
    who: 'createWebhookReceiver',
    misspelt: 'replaystore',
    means: 'replayStore',
    run: (x) => createWebhookReceiver({ keys, endpoint: BUYER_ORIGIN, replayStore, ...x }),
  },
  {
    who: 'createWebhookReceiver',
    path: 'jwks',
    misspelt: 'cacheTTLMs',
    means: 'cacheTtlMs',
    run: (x) =>
      createWebhookReceiver({
        endpoint: BUYER_ORIGIN,
        jwks: { url: jwksUrl, agent: SELLER, fetch: fetchCounted, cacheTtlMs: 60_000, ...x },
      }),
  },
  {
    who: 'createWebhookReceiver',
    path: 'revocationList',
    misspelt: 'retryCooldown',
    means: 'retryCooldownMs',
    run: (x) =>
      createWebhookReceiver({
        keys,
        endpoint: BUYER_ORIGIN,
        revocationList: { url: listUrl, issuer: 'https://seller.example.com', fetch: fetchCounted, retryCooldownMs: 60_000, ...x },
      }),
  },
  {
    who: 'createWebhookReceiver',
    path: 'hmac',
    misspelt: 'secrets',
    means: 'secret',
    run: (x) => createWebhookReceiver({ hmac: { secret, agent: SELLER, ...x } }),
  },
  {
    who: 'createWebhookReceiver',
    path: 'dedup',
    misspelt: 'leaseSecs',
    means: 'leaseSeconds',
    run: (x) => createWebhookReceiver({ keys, endpoint: BUYER_ORIGIN, dedup: { store: dedupStore, leaseSeconds: 60, ...x } }),
  },
  {
    who: 'createWebhookReceiver',
    path: 'recent',
    misspelt: 'ageMS',
    means: 'ageMs',
    run: (x) => createWebhookReceiver({ keys, endpoint: BUYER_ORIGIN, recent: { count: 16, ageMs: 60_000, ...x } }),
  },
  {
    who: 'createMemoryReplayStore',
    misspelt: 'perKeyIdCap',
    means: 'perKeyidCap',
    run: (x) => createMemoryReplayStore({ perKeyidCap: 10_000, ...x }),
  },
  {
    who: 'createMemoryReplayStore',
    misspelt: 'admissionWindow',
    means: 'admissionWindowMs',
    run: (x) => createMemoryReplayStore({ admissionWindowMs: 60_000, onNewKeyid: effect, ...x }),
  },
  {
    who: 'createRedisReplayStore',
    misspelt: 'prefx',
    means: 'prefix',
    run: (x) => createRedisReplayStore({ client: redisClient, prefix: 'hooks:', ...x }),
  },
  {
    who: 'createRedisReplayStore',
    misspelt: 'maxKnownKeyIds',
    means: 'maxKnownKeyids',
    run: (x) => createRedisReplayStore({ client: redisClient, maxKnownKeyids: 1000, ...x }),
  },
  {
    who: 'createMemoryDedupStore',
    misspelt: 'perSenderCapacity',
    means: 'perSenderCap',
    run: (x) => createMemoryDedupStore({ perSenderCap: 1000, ...x }),
  },
  {
    who: 'createMemoryDedupStore',
    misspelt: 'maxbytes',
    means: 'maxBytes',
    run: (x) => createMemoryDedupStore({ maxBytes: 1_048_576, ...x }),
  },
  {
    who: 'createRedisDedupStore',
    misspelt: 'persenderCap',
    means: 'perSenderCap',
    run: (x) => createRedisDedupStore({ client: redisClient, perSenderCap: 1000, ...x }),
  },
  {
    who: 'createJwksResolver',
    misspelt: 'negativeCacheMS',
    means: 'negativeCacheMs',
    run: (x) => createJwksResolver({ url: jwksUrl, agent: SELLER, fetch: fetchCounted, negativeCacheMs: 30_000, ...x }),
  },
  {
    who: 'createRevocationList',
    misspelt: 'timeout',
    means: 'timeoutMs',
    run: (x) =>
      createRevocationList({ url: listUrl, issuer: 'https://seller.example.com', keys, fetch: fetchCounted, timeoutMs: 5_000, ...x }),
  },
  {
    who: 'verifyWebhookSignature',
    misspelt: 'replayscope',
    means: 'replayScope',
    run: (x) =>
      verifyWebhookSignature(unsigned, {
        keys,
        replayStore,
        endpoint: BUYER_ORIGIN,
        replayScope: 'destination',
        subtle: countingSubtle,
        ...x,
      }),
  },
  {
    who: 'verifyLegacyHmac',
    misspelt: 'secret',
    means: 'secrets',
    run: (x) => verifyLegacyHmac(unsigned.headers, unsigned.body, { secrets: [secret], subtle: countingSubtle, ...x }),
  },

  // adcp-decode/mcp
  {
    who: 'callTask',
    misspelt: 'retries',
    means: 'retry',
    run: (x) => mcp.callTask(mcpClient, 'get_products', brief, { signal: signal(), ...x }),
  },
  {
    who: 'callTask',
    misspelt: 'timeoutMS',
    means: 'timeoutMs',
    run: (x) => mcp.callTask(mcpClient, 'get_products', brief, { signal: signal(), timeoutMs: 5_000, ...x }),
  },
  {
    who: 'callTask',
    path: 'retry',
    misspelt: 'attempt',
    means: 'attempts',
    run: (x) => mcp.callTask(mcpClient, 'get_products', brief, { signal: signal(), retry: { attempts: 3, ...x } }),
  },
  {
    who: 'safeCallTask',
    misspelt: 'timeoutMS',
    means: 'timeoutMs',
    run: (x) => mcp.safeCallTask(mcpClient, 'get_products', brief, { signal: signal(), timeoutMs: 5_000, ...x }),
  },
  {
    who: 'callTask',
    misspelt: 'maxbytes',
    means: 'maxBytes',
    run: (x) => mcp.callTask(mcpClient, encode('get_products', brief, { version: '3.1' }), { signal: signal(), maxBytes: 65_536, ...x }),
  },
  {
    who: 'waitForTask',
    misspelt: 'intervalMS',
    means: 'intervalMs',
    run: (x) => mcp.waitForTask(mcpClient, handle(), { signal: signal(), intervalMs: 500, ...x }),
  },

  // adcp-decode/a2a
  {
    who: 'callTask',
    misspelt: 'maxbytes',
    means: 'maxBytes',
    run: (x) => a2a.callTask(a2aClient, 'get_products', brief, { signal: signal(), maxBytes: 65_536, ...x }),
  },
  {
    who: 'safeCallTask',
    misspelt: 'streaming',
    means: 'stream',
    run: (x) => a2a.safeCallTask(a2aClient, 'get_products', brief, { signal: signal(), stream: true, ...x }),
  },
  {
    who: 'streamTask',
    path: 'retry',
    misspelt: 'sleeps',
    means: 'sleep',
    run: (x) =>
      a2a.streamTask(a2aClient, 'get_products', brief, { signal: signal(), retry: { attempts: 2, sleep: async () => effect(), ...x } }),
  },
  {
    who: 'waitForTask',
    misspelt: 'maxFailure',
    means: 'maxFailures',
    run: (x) => a2a.waitForTask(a2aClient, handle(), { signal: signal(), maxFailures: 3, ...x }),
  },
];

/** How a run ended: what it threw or rejected with, a safe variant's error, or what it returned. */
async function ending(run: () => unknown): Promise<unknown> {
  try {
    const value = await run();
    const failed = typeof value === 'object' && value !== null && 'success' in value && value.success === false && 'error' in value;
    return failed ? value.error : value;
  } catch (error) {
    return error;
  }
}

const isInvalidOption = (value: unknown): boolean => value instanceof DecodeError && value.code === 'INVALID_OPTION';

describe('a misspelt option name, in every entry that takes options', () => {
  test.each(ROWS.map((row) => [`${row.who} ${row.path === undefined ? '' : `${row.path}.`}${row.misspelt}`, row] as const))(
    '%s',
    async (_name, { who, path, misspelt, means, run }) => {
      // The same call spelt right is taken: the refusal below is the name's and nothing else's.
      spelt = true;
      const taken = await ending(() => run({}));
      expect(isInvalidOption(taken), String(taken)).toBe(false);

      effects = 0;
      spelt = false;
      const refused = await ending(() => run({ [misspelt]: 1 }));
      const at = path === undefined ? '' : `${path}.`;
      expect(refused).toBeInstanceOf(DecodeError);
      expect(refused).toMatchObject({
        code: 'INVALID_OPTION',
        message: `${who}: option ${at}${misspelt} is not an option of ${who}; did you mean ${at}${means}?`,
      });
      expect(effects, 'sent, fetched, read or started').toBe(0);
    },
  );
});

describe('a name far from every option', () => {
  test('is refused with the names the entry takes', async () => {
    expect(await ending(() => createRedisDedupStore({ client: redisClient, colour: 'blue' } as never))).toMatchObject({
      code: 'INVALID_OPTION',
      message:
        'createRedisDedupStore: option colour is not an option of createRedisDedupStore; expected one of client, prefix, perSenderCap',
    });
    expect(
      await ending(() => mcp.callTask(mcpClient, 'get_products', brief, { retry: { attempts: 2, colour: 1 } as never })),
    ).toMatchObject({
      code: 'INVALID_OPTION',
      message: 'callTask: option retry.colour is not an option of callTask; expected one of retry.attempts, retry.sleep',
    });
  });

  test('a nested option that is not an object is refused by its name', async () => {
    expect(await ending(() => createWebhookReceiver({ keys, endpoint: BUYER_ORIGIN, dedup: 'redis' as never }))).toMatchObject({
      code: 'INVALID_OPTION',
      message: 'createWebhookReceiver: option dedup must be an object; got "redis"',
    });
    expect(await ending(() => mcp.safeCallTask(mcpClient, 'get_products', brief, { retry: 3 as never }))).toMatchObject({
      code: 'INVALID_OPTION',
      message: 'safeCallTask: option retry must be an object; got 3',
    });
  });
});
