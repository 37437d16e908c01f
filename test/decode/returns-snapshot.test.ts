/**
 * Every path out of the library hands back a snapshot it validated (issue 19, item 5): one property
 * over every public function that returns seller data. Whatever such a function returns shares no
 * object with its input, holds no `__proto__` or `constructor.prototype` member, and equals its
 * JSON round trip; an input holding such a member is refused with a DecodeError, never returned.
 * The public entries' exports are enumerated (every entry of package.json's exports, the typed
 * calls over client stubs included), so a new function is either covered here or listed with the
 * reason it returns no seller data, or this test fails.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isTaskType } from '../../src/decode/enclosed.js';
import { DecodeError } from '../../src/errors/errors.js';
import { isObject } from '../../src/json/own.js';
import { type Version, versions } from '../../src/schema/versions.js';
import { mediaBuyRequest } from '../encode/requests.js';
import { a2a03, a2a10, jsonRpc, mcp } from '../fixtures/envelopes.js';
import { fixtures, type PayloadFixture } from '../fixtures/payloads.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { ed25519, HOOK_URL, resolver } from '../webhooks/fixtures.js';
import { signWebhook } from '../webhooks/signer.js';

type Json = Record<string, unknown>;
type AnyFunction = (...args: never[]) => unknown;

/** The public entries, as a buyer imports them; `version` is the release a pinned entry fixes. */
const ENTRIES: ReadonlyArray<{ readonly name: string; readonly load: () => Promise<Json>; readonly version?: Version }> = [
  { name: 'adcp-decode', load: () => import('../../src/index.js') },
  { name: 'adcp-decode/webhooks', load: () => import('../../src/webhooks/index.js') },
  { name: 'adcp-decode/fetch', load: () => import('../../src/fetch/index.js') },
  { name: 'adcp-decode/3.1', load: () => import('../../src/generated/v3_1/pinned.js'), version: V3_1 },
  { name: 'adcp-decode/3.0', load: () => import('../../src/generated/v3_0/pinned.js'), version: V3_0 },
  { name: 'adcp-decode/mcp', load: () => import('../../src/mcp/index.js') },
  { name: 'adcp-decode/a2a', load: () => import('../../src/a2a/index.js') },
  { name: 'adcp-decode/sign', load: () => import('../../src/signatures/sign/index.js') },
];

/** Exported functions that hand back no seller data, and why. */
const NO_SELLER_DATA: Readonly<Record<string, string>> = {
  defineRelease: "takes a generated release module's tables, not a seller's answer",
  knownReleases: 'lists the releases this process speaks',
  extra: 'reads one member of data decode already returned as a snapshot; it copies nothing new',
  DecodeError: 'an error class',
  LimitError: 'an error class',
  SchemaMismatchError: 'an error class',
  TaskFailedError: 'an error class (its adcpError is copied by decode: test/decode/safety.test.ts)',
  TransportError: 'an error class (its sellerText is shown text, escaped and cut: test/e2e/call-hostile-mcp.test.ts)',
  WebhookError: 'an error class',
  WebhookTaskFailedError: 'an error class',
  formatIssues: "formats an error's issues as text",
  isFinal: 'a boolean',
  preload: 'loads validators; returns nothing',
  tasks: "the version's task names, from our tables",
  classifyRecovery: 'a classification built by us (recovery class, seconds)',
  boundedFetch: 'a Response of bytes, which decode() then reads',
  withFetchBounds: 'runs a callback under fetch bounds; returns what the callback returns',
  findBoundsError: 'finds our own LimitError in an error chain',
  verifyLegacyHmac: 'a verdict on a signature',
  verifyWebhookSignature: "a verdict and the signer's identity, no payload",
  createJwksResolver: 'a key resolver (CryptoKeys), no payload',
  createMemoryReplayStore: 'a replay store of nonces',
  createRedisReplayStore: 'a replay store of nonces',
  createRevocationList: 'a revocation list of key ids',
  detectWebhookFormat: "'mcp', 'a2a' or null",
  webhookResponse: 'a status and headers built by us',
  NoCommonVersionError: 'an error class',
  RequestError: 'an error class',
  VersionMismatchError: 'an error class',
  TaskMismatchError: 'an error class',
  taskHandle:
    'a frozen handle built by us: the task, version and release, and the task_id and operation_id strings (test/decode/task-handles.test.ts)',
  decoderFor: "a decoder and the release picked from the capabilities answer, none of the answer's data",
  encode: "the caller's own request, copied and frozen (test/encode), no seller data",
  safeEncode: "the caller's own request, copied and frozen (test/encode), no seller data",
  newIdempotencyKey: 'a UUID minted by us',
  createMemoryDedupStore: 'a dedup store of keys and fingerprints',
  createRedisDedupStore: 'a dedup store of keys and fingerprints',
  a2aRequest: "the caller's own encoded request as an A2A message, no seller data",
  a2aV03Request: "the caller's own encoded request as a v0.3 A2A message, no seller data",
  a2aV03Client: "the caller's 0.3 client adapted for callTask, which decodes what it answers; no seller data of its own",
  createRequestSigner: 'a signer; its signature headers are built by us from the caller’s request',
  withRequestSigning: "a fetch whose Response is the wrapped fetch's, untouched: bytes, which decode() then reads",
  RequestSigningError: 'an error class',
};

/** One call of a function under test: its input, and the seller data it returns (or throws). */
interface Case {
  readonly label: string;
  readonly input: unknown;
  /** False when the input holds a prototype-polluting member: the call must throw a DecodeError. */
  readonly clean: boolean;
  readonly run: () => unknown[] | Promise<unknown[]>;
}

/** How to call one exported function with seller data, given the entry's pinned version (if any). */
type Caller = (fn: AnyFunction, pinned: Version | undefined) => fc.Arbitrary<Case>;

// ---------------------------------------------------------------------------------------------
// Seller data: our own fixtures, as sent and with the members a hostile seller adds.

/** How an input is made hostile: `clean` ones must decode, the others must be refused. */
const HOSTILE = ['as sent', 'null prototype', '__proto__ member', 'constructor.prototype member'] as const;
type Hostility = (typeof HOSTILE)[number];

function hostile(payload: Json, how: Hostility): Json {
  switch (how) {
    case 'as sent':
      return payload;
    case 'null prototype':
      return Object.assign(Object.create(null) as Json, payload);
    case '__proto__ member':
      return { ...payload, ext: JSON.parse('{"__proto__":{"polluted":true}}') as Json };
    case 'constructor.prototype member':
      return { ...payload, ext: { constructor: { prototype: { polluted: true } } } };
  }
}

const isClean = (how: Hostility): boolean => how === 'as sent' || how === 'null prototype';

/** Valid fixtures of a version (any, or the pinned one), with the status each is sent under. */
function sellerPayloads(pinned: Version | undefined, filter: (f: PayloadFixture) => boolean = () => true) {
  const chosen = fixtures.filter((f) => f.valid && (pinned === undefined || f.version === pinned) && filter(f));
  return fc.record({ fixture: fc.constantFrom(...chosen), how: fc.constantFrom(...HOSTILE) });
}

/** The fixtures whose task is a task type of their version (what webhooks and polls enclose). */
const enclosable = (f: PayloadFixture): boolean => isTaskType(f.task, f.version);
const statusOf = (f: PayloadFixture): string => (f.variant === 'response' ? 'completed' : f.variant);

const TRANSPORTS: ReadonlyArray<readonly [string, (p: Json) => Json]> = [
  ['MCP structuredContent', (p) => mcp.structured(p)],
  ['MCP text', (p) => mcp.text(p)],
  ['A2A 1.0 { task }', (p) => a2a10.taskEnvelope('TASK_STATE_COMPLETED', p)],
  ['A2A 0.3 task', (p) => a2a03.task('completed', p)],
  ['JSON-RPC success', (p) => jsonRpc.success(mcp.structured(p))],
];

function answers(pinned: Version | undefined) {
  return fc
    .record({ seller: sellerPayloads(pinned, (f) => f.variant === 'response'), transport: fc.constantFrom(...TRANSPORTS) })
    .map(({ seller: { fixture, how }, transport: [via, wrap] }) => ({
      label: `${fixture.id} ${how} via ${via}`,
      fixture,
      input: wrap(hostile(fixture.payload, how)),
      clean: isClean(how),
    }));
}

function webhookBody(f: PayloadFixture, result: Json): Json {
  return {
    idempotency_key: 'whk_01J9Z6Q2V8W4X7Y3B5C1D9E2F0',
    operation_id: 'op_7d1e',
    task_id: 'task_cmb_4821',
    task_type: f.task,
    status: statusOf(f),
    timestamp: '2026-04-18T10:00:00Z',
    result,
  };
}

function webhooks(pinned: Version | undefined) {
  return sellerPayloads(pinned, enclosable).map(({ fixture, how }) => ({
    label: `${fixture.id} ${how}`,
    fixture,
    body: webhookBody(fixture, hostile(fixture.payload, how)),
    clean: isClean(how),
  }));
}

/** An A2A push body in the state the payload's own status goes with (a2a-response-format). */
function a2aFor(f: PayloadFixture, data: Json): Json {
  if (f.variant === 'working') return a2a10.statusUpdate('TASK_STATE_WORKING', data);
  if (f.variant === 'input-required') return a2a10.statusUpdate('TASK_STATE_INPUT_REQUIRED', data);
  // A final response, or an AdCP submitted one (the profile carries it in a completed task).
  return a2a10.taskEnvelope('TASK_STATE_COMPLETED', data);
}

function adcpErrors() {
  return fc.constantFrom(...HOSTILE).map((how) => ({
    how,
    error: hostile({ code: 'BUDGET_TOO_LOW', message: 'total_budget is below the floor', recovery: 'correctable' }, how),
  }));
}

// ---------------------------------------------------------------------------------------------
// The callers, by export name.

const decodeLike =
  (call: (fn: AnyFunction, task: string, input: unknown, pinned: Version | undefined, version: Version) => unknown[]): Caller =>
  (fn, pinned) =>
    answers(pinned).map((a) => ({
      label: a.label,
      input: a.input,
      clean: a.clean,
      run: () => call(fn, a.fixture.task, a.input, pinned, a.fixture.version),
    }));

/** A pinned entry's functions take no version option; the root's are given the fixture's. */
const optionsFor = (pinned: Version | undefined, version: Version) => (pinned === undefined ? { version } : undefined);

function safeData(result: unknown): unknown {
  const r = result as { success: boolean; data?: unknown; error?: unknown };
  if (!r.success) throw r.error;
  return r.data;
}

const SELLER_DATA: Readonly<Record<string, Caller>> = {
  decode: decodeLike((fn, task, input, pinned, version) => [
    (fn as (t: string, i: unknown, o?: unknown) => unknown)(task, input, optionsFor(pinned, version)),
  ]),
  safeDecode: decodeLike((fn, task, input, pinned, version) => [
    safeData((fn as (t: string, i: unknown, o?: unknown) => unknown)(task, input, optionsFor(pinned, version))),
  ]),
  createDecoder: decodeLike((fn, task, input, pinned, version) => {
    const decoder = (fn as (o: unknown) => { decode: AnyFunction; safeDecode: AnyFunction })(optionsFor(pinned, version) ?? {});
    const call = (method: AnyFunction) => (method as (t: string, i: unknown) => unknown)(task, input);
    return [call(decoder.decode), safeData(call(decoder.safeDecode))];
  }),
  decodeTaskStatus: (fn, pinned) =>
    sellerPayloads(pinned, (f) => enclosable(f) && f.variant === 'response').map(({ fixture, how }) => {
      const status = {
        task_id: 'task_cmb_4821',
        task_type: fixture.task,
        protocol: 'media-buy',
        status: 'completed',
        created_at: '2026-04-18T09:55:00Z',
        updated_at: '2026-04-18T09:59:58Z',
        result: fixture.payload,
      };
      // 3.1 polls get_task_status (an MCP answer); 3.0 answers tasks/get (a JSON-RPC success).
      const input = fixture.version === V3_0 ? jsonRpc.success(hostile(status, how)) : mcp.structured(hostile(status, how));
      return {
        label: `${fixture.id} ${how}`,
        input,
        clean: isClean(how),
        run: () => {
          const task = (fn as (i: unknown, o?: unknown) => { data: unknown; response: unknown })(
            input,
            optionsFor(pinned, fixture.version),
          );
          return [task.data, task.response];
        },
      };
    }),
  decodeWebhook: (fn, pinned) =>
    fc.record({ hook: webhooks(pinned), form: fc.constantFrom('object', 'text', 'bytes', 'A2A task') }).map(({ hook, form }) => {
      const text = JSON.stringify(hook.body);
      const a2a = a2aFor(hook.fixture, hook.body.result as Json);
      const input = form === 'object' ? hook.body : form === 'text' ? text : form === 'bytes' ? new TextEncoder().encode(text) : a2a;
      const options = { version: hook.fixture.version, ...(form === 'A2A task' ? { taskType: hook.fixture.task } : {}) };
      return {
        label: `${hook.label} as ${form}`,
        input,
        clean: hook.clean,
        run: () => [(fn as (b: unknown, o: unknown) => { data: unknown })(input, options).data],
      };
    }),
  createWebhookReceiver: (fn) =>
    webhooks(undefined).map((hook) => ({
      label: `${hook.label} signed and received`,
      input: hook.body,
      clean: hook.clean,
      run: async () => {
        const receiver = (fn as (o: unknown) => { receive: (r: unknown) => Promise<{ data: unknown }> })({
          keys: resolver,
          version: hook.fixture.version,
          endpoint: HOOK_URL,
        });
        const signed = await signWebhook({
          key: ed25519,
          url: HOOK_URL,
          body: JSON.stringify(hook.body),
          created: Math.floor(Date.now() / 1000),
        });
        const received = await receiver.receive({ method: 'POST', url: HOOK_URL, headers: signed.headers, body: signed.body });
        return [received.data];
      },
    })),
  extractWebhookPayload: (fn, pinned) =>
    webhooks(pinned).map((hook) => ({
      label: hook.label,
      input: hook.body,
      clean: hook.clean,
      run: () => [(fn as (b: unknown) => { data: unknown })(hook.body).data],
    })),
  extractMcpResponse: (fn, pinned) =>
    answers(pinned)
      .filter((a) => a.label.includes('via MCP'))
      .map((a) => ({ label: a.label, input: a.input, clean: a.clean, run: () => [(fn as (r: unknown) => unknown)(a.input)] })),
  extractA2aResponse: (fn, pinned) =>
    answers(pinned)
      .filter((a) => a.label.includes('via A2A'))
      .map((a) => ({ label: a.label, input: a.input, clean: a.clean, run: () => [(fn as (r: unknown) => unknown)(a.input)] })),
  extractMcpError: (fn) =>
    adcpErrors().map(({ how, error }) => {
      const input = mcp.error(error);
      return { label: how, input, clean: isClean(how), run: () => [(fn as (r: unknown) => unknown)(input)] };
    }),
  extractA2aError: (fn) =>
    adcpErrors().map(({ how, error }) => {
      const input = a2a10.taskEnvelope('TASK_STATE_FAILED', { adcp_error: error });
      return { label: how, input, clean: isClean(how), run: () => [(fn as (r: unknown) => unknown)(input)] };
    }),
};

// ---------------------------------------------------------------------------------------------
// The typed call (adcp-decode/mcp, adcp-decode/a2a): a client stub hands back the seller's answer.

/** Arguments of the 3.1 tasks the typed call is driven with, the answer's context echoed as the spec requires. */
function argsFor(fixture: PayloadFixture): Json {
  const context = fixture.payload.context === undefined ? {} : { context: fixture.payload.context };
  if (fixture.task === 'get_products') return { buying_mode: 'brief', brief: 'CTV, US, Q3', ...context };
  const { context: _ours, ...plan } = mediaBuyRequest(1);
  return { ...plan, ...context };
}

/** 3.1 answers of get_products and create_media_buy (the tasks argsFor builds), hostile or not, in one transport's form. */
function callAnswers(transport: 'MCP' | 'A2A') {
  // Final and submitted answers: the transports' wrappers carry them in a completed task (a2a-response-format).
  const callable = (f: PayloadFixture) =>
    f.version === V3_1 &&
    (f.task === 'get_products' || f.task === 'create_media_buy') &&
    (f.variant === 'response' || f.variant === 'submitted');
  return fc
    .record({
      seller: sellerPayloads(undefined, callable),
      via: fc.constantFrom(...TRANSPORTS.filter(([via]) => via.startsWith(transport))),
    })
    .map(({ seller: { fixture, how }, via: [via, wrap] }) => ({
      label: `${fixture.id} ${how} via ${via}`,
      fixture,
      input: wrap(hostile(fixture.payload, how)),
      clean: isClean(how),
    }));
}

type CallFn = (client: unknown, task: string, args: unknown, options: unknown) => Promise<unknown>;

/** callTask and safeCallTask over an MCP client whose callTool answers the seller's result. */
const mcpCall =
  (safe: boolean): Caller =>
  (fn) =>
    callAnswers('MCP').map((a) => ({
      label: a.label,
      input: a.input,
      clean: a.clean,
      run: async () => {
        const client = { callTool: async () => a.input };
        const out = await (fn as CallFn)(client, a.fixture.task, argsFor(a.fixture), { version: '3.1' });
        return [safe ? safeData(out) : out];
      },
    }));

/** callTask, safeCallTask and streamTask over an A2A client whose send answers (or streams) the seller's task. */
const a2aCall =
  (how: 'call' | 'safe' | 'stream'): Caller =>
  (fn) =>
    callAnswers('A2A').map((a) => ({
      label: a.label,
      input: a.input,
      clean: a.clean,
      run: async () => {
        const event = isObject(a.input) && 'task' in a.input ? a.input : { task: a.input };
        const client = {
          sendMessage: async () => a.input,
          sendMessageStream: async function* () {
            yield event;
          },
        };
        const out = await (fn as CallFn)(client, a.fixture.task, argsFor(a.fixture), { version: '3.1' });
        return [how === 'safe' ? safeData(out) : out];
      },
    }));

/** waitForTask over a client whose poll answers the task completed with the seller's result (decodeTaskStatus's cases). */
const waitCall =
  (transport: 'MCP' | 'A2A'): Caller =>
  (fn, pinned) =>
    SELLER_DATA.decodeTaskStatus!(fn, pinned)
      // A handle is of a task: a reporting webhook's type (media_buy_delivery) is none, so no wait has one.
      .filter((c) => !JSON.stringify(c.input).includes('"task_type":"media_buy_delivery"'))
      .map((c) => ({
        ...c,
        run: async () => {
          const input = c.input;
          const client =
            transport === 'MCP'
              ? { callTool: async () => input }
              : { sendMessage: async () => input, sendMessageStream: async function* () {} };
          const polled = isObject(input) ? (isObject(input.structuredContent) ? input.structuredContent : input.result) : undefined;
          const type = isObject(polled) ? polled.task_type : undefined;
          const version = isObject(input) && isObject(input.structuredContent) ? V3_1 : V3_0;
          const handle = { task: type, taskId: 'task_cmb_4821', version };
          return [await (fn as (client: unknown, handle: unknown) => Promise<unknown>)(client, handle)];
        },
      }));

const CALLS: Readonly<Record<string, Caller>> = {
  'adcp-decode/mcp:callTask': mcpCall(false),
  'adcp-decode/mcp:safeCallTask': mcpCall(true),
  'adcp-decode/a2a:callTask': a2aCall('call'),
  'adcp-decode/a2a:safeCallTask': a2aCall('safe'),
  'adcp-decode/a2a:streamTask': a2aCall('stream'),
  'adcp-decode/mcp:waitForTask': waitCall('MCP'),
  'adcp-decode/a2a:waitForTask': waitCall('A2A'),
  foldA2aStream: (fn) =>
    callAnswers('A2A').map((a) => {
      const task = isObject(a.input) && isObject(a.input.task) ? a.input.task : a.input;
      const events = [
        { task },
        { statusUpdate: { taskId: (task as Json).id, contextId: (task as Json).contextId, status: { state: 'TASK_STATE_COMPLETED' } } },
      ];
      return { label: a.label, input: events, clean: a.clean, run: () => [(fn as (e: unknown) => unknown)(events)] };
    }),
};

/** The caller of one export of one entry: an entry's own (`entry:name`, where names collide across entries), else by name. */
const callerOf = (entry: string, key: string): Caller | undefined => CALLS[`${entry}:${key}`] ?? CALLS[key] ?? SELLER_DATA[key];

// ---------------------------------------------------------------------------------------------
// The property.

/** Every object reachable from a value. */
function objectsOf(value: unknown, out = new Set<object>()): Set<object> {
  if (typeof value !== 'object' || value === null || out.has(value) || ArrayBuffer.isView(value)) return out;
  out.add(value);
  for (const key of Reflect.ownKeys(value)) objectsOf((value as Record<PropertyKey, unknown>)[key], out);
  return out;
}

/** A plain snapshot: nothing of the input, no prototype-polluting member, plain prototypes, equal to its JSON round trip. */
function expectSnapshot(value: unknown, input: unknown, label: string): void {
  const theirs = objectsOf(input);
  for (const node of objectsOf(value)) {
    expect(theirs.has(node), `${label}: returns an object of the input`).toBe(false);
    expect(Object.hasOwn(node, '__proto__'), `${label}: a __proto__ member`).toBe(false);
    const ctor = Object.hasOwn(node, 'constructor') ? (node as Json)['constructor'] : undefined;
    expect(typeof ctor === 'object' && ctor !== null && Object.hasOwn(ctor, 'prototype'), `${label}: constructor.prototype`).toBe(false);
    expect([Object.prototype, Array.prototype], `${label}: a foreign prototype`).toContain(Object.getPrototypeOf(node));
  }
  expect(JSON.parse(JSON.stringify(value)), `${label}: differs from its JSON round trip`).toStrictEqual(value);
}

async function check(c: Case): Promise<boolean> {
  let parts: unknown[];
  try {
    parts = await c.run();
  } catch (error) {
    expect(error, c.label).toBeInstanceOf(DecodeError);
    if (c.clean) expect.fail(`${c.label}: refused (${(error as Error).message})`);
    return false;
  }
  if (!c.clean) expect.fail(`${c.label}: a prototype-polluting member was returned, not refused`);
  for (const part of parts) expectSnapshot(part, c.input, c.label);
  return true;
}

describe('every public function that returns seller data returns a plain snapshot', async () => {
  const loaded = await Promise.all(ENTRIES.map(async (entry) => ({ ...entry, exports: await entry.load() })));

  test('each exported function is covered here, or listed with the reason it returns no seller data', () => {
    const listed = new Set([...Object.keys(SELLER_DATA), ...Object.keys(CALLS), ...Object.keys(NO_SELLER_DATA)]);
    const exported = new Set<string>();
    for (const { name, exports } of loaded) {
      for (const [key, value] of Object.entries(exports)) {
        if (typeof value !== 'function') continue;
        exported.add(key).add(`${name}:${key}`);
        const covered = callerOf(name, key) !== undefined || key in NO_SELLER_DATA;
        expect(covered, `${name} exports ${key}: add it to SELLER_DATA, CALLS or NO_SELLER_DATA`).toBe(true);
      }
    }
    expect([...Object.keys(SELLER_DATA), ...Object.keys(CALLS)].filter((k) => k in NO_SELLER_DATA)).toEqual([]);
    // No stale entry: each listed name is still exported somewhere.
    expect([...listed].filter((k) => !exported.has(k))).toEqual([]);
  });

  for (const { name, exports, version } of loaded) {
    for (const [key, value] of Object.entries(exports)) {
      const caller = callerOf(name, key);
      if (caller === undefined || typeof value !== 'function') continue;
      test(`${name}: ${key}`, async () => {
        let returned = 0;
        await fc.assert(
          fc.asyncProperty(caller(value as AnyFunction, version), async (c) => {
            if (await check(c)) returned++;
          }),
          { numRuns: key === 'createWebhookReceiver' ? 24 : 60 },
        );
        // Not vacuous: clean seller data is returned (hostile forms are a minority of the draws).
        expect(returned).toBeGreaterThan(0);
      });
    }
  }

  test('each version is reached by the root entry: fixtures of both releases decode', () => {
    expect(new Set(fixtures.filter((f) => f.valid).map((f) => f.version))).toEqual(new Set(versions));
  });
});
