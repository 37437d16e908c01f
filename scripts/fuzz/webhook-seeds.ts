/**
 * The webhook lane's seeds: genuine signed deliveries (the team's fixture payloads as MCP webhook
 * envelopes and A2A push bodies, both releases, signed with the spec's public test keys read from
 * schemas/synced), forged ones (a key of the wrong purpose, the request-signing tag, a component
 * left out), and valid polling answers (3.1 get_task_status, 3.0 tasks/get). Each is checked
 * before use: a genuine delivery must be received, a poll decoded, or the lane refuses to start.
 */
import { createHash } from 'node:crypto';
import { isTaskType } from '../../src/decode/enclosed.js';
import { decodeTaskStatus } from '../../src/decode/polling.js';
import { TaskFailedError } from '../../src/errors/errors.js';
import { releaseOf, type Version } from '../../src/schema/versions.js';
import { createWebhookReceiver } from '../../src/webhooks/receiver.js';
import { a2a10 } from '../../test/fixtures/envelopes.js';
import { fixtures, type PayloadFixture } from '../../test/fixtures/payloads.js';
import { BUYER_ORIGIN, ed25519, es256, resolver, testKeys } from '../../test/webhooks/fixtures.js';
import { signWebhook, type TestKey } from '../../test/webhooks/signer.js';
import type { Json } from './context.js';
import { stringify } from './stringify.js';
import { OLDEST_FIRST } from './versions.js';

/** The signing time of every delivery (seconds); the lane's receivers run at this clock. */
const CREATED = 1_776_506_400;
/** The lane's receivers' clock: 5 s after the signature's `created`. */
const NOW_MS = (CREATED + 5) * 1000;
/** Where the buyer registered its webhooks (the receivers' `endpoint` is its origin). */
const HOOK_PATH = '/adcp/webhook/agent_123/op_7d1e';

/** A key published by the seller for response signing: a webhook signed with it must be refused (step 8). */
const responseKey = testKeys.find((k) => k.kid === 'test-response-purpose-2026') as TestKey;

/** One signed delivery, as a receiver is handed it. */
export interface Delivery {
  /** `3.1/create_media_buy.valid mcp ed25519`, or `forged:<how> ...`. */
  readonly id: string;
  readonly version: Version;
  readonly format: 'mcp' | 'a2a';
  /** The A2A registration's task type (an A2A body does not carry one). */
  readonly taskType: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  /** Why a forged delivery must be refused; undefined for a genuine one. */
  readonly forged: string | undefined;
}

/** One valid polling answer and the version it is decoded under. */
export interface PollSeed {
  readonly id: string;
  readonly version: Version;
  /** The status response (3.1 get_task_status payload, 3.0 tasks/get response). */
  readonly response: Json;
}

const taskTypeOf = (f: PayloadFixture): string =>
  f.task === 'get_media_buy_delivery' && releaseOf(f.version) !== '3.0' ? 'media_buy_delivery' : f.task;
/** What a delivery encloses: 3.1's delivery report is the delivery answer with its notification_type (task-type.json). */
const resultOf = (f: PayloadFixture): Json =>
  taskTypeOf(f) === f.task ? f.payload : { notification_type: 'scheduled', ...(f.payload as Record<string, Json>) };
const statusOf = (f: PayloadFixture): string => (f.variant === 'response' ? 'completed' : f.variant);
const STATE: Readonly<Record<string, string>> = {
  working: 'TASK_STATE_WORKING',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
};

/** The fixtures a webhook or a poll can enclose: valid, of a task type of their version. */
function enclosable(): PayloadFixture[] {
  return fixtures.filter((f) => f.valid && !f.case.startsWith('errors') && isTaskType(taskTypeOf(f), f.version));
}

function mcpBody(f: PayloadFixture, n: number): string {
  return JSON.stringify({
    idempotency_key: `whk_fuzz_${String(n).padStart(6, '0')}_${f.task}`,
    operation_id: 'op_7d1e',
    task_id: `task_${n}`,
    task_type: taskTypeOf(f),
    status: statusOf(f),
    timestamp: '2026-04-18T10:00:00Z',
    result: resultOf(f),
  });
}

function a2aBody(f: PayloadFixture): string {
  const state = STATE[f.variant];
  return JSON.stringify(
    state === undefined ? a2a10.taskEnvelope('TASK_STATE_COMPLETED', resultOf(f)) : a2a10.statusUpdate(state, resultOf(f)),
  );
}

interface Plan {
  readonly f: PayloadFixture;
  readonly format: 'mcp' | 'a2a';
  readonly key: TestKey;
  readonly forged: string | undefined;
}

async function sign(plan: Plan, n: number): Promise<Delivery> {
  const { f, format, key, forged } = plan;
  const body = format === 'mcp' ? mcpBody(f, n) : a2aBody(f);
  const url = `${BUYER_ORIGIN}${HOOK_PATH}`;
  const signed = await signWebhook({
    key,
    url,
    body,
    created: CREATED,
    nonce: `fuzz-nonce-${String(n).padStart(6, '0')}-abcdefghij`,
    ...(forged === 'request-tag' ? { tag: 'adcp/request-signing/v1' } : {}),
    ...(forged === 'no-digest' ? { components: ['@method', '@target-uri', '@authority', 'content-type'] } : {}),
    ...(forged === 'expired' ? { created: CREATED - 3600, expires: CREATED - 3000 } : {}),
  });
  const id = `${forged === undefined ? '' : `forged:${forged} `}${f.id} ${format} ${key.kid}`;
  return { id, version: f.version, format, taskType: taskTypeOf(f), url, headers: signed.headers, body: signed.body, forged };
}

/**
 * A receiver as the lane runs one: the public test keys, the registered origin, the lane's clock,
 * the delivery's release pinned, and for A2A the registration's task type.
 *
 * @param d - The delivery it will be handed.
 * @param extra - More options (a replay store, dedup).
 * @returns The receiver.
 * @throws Never for the lane's own options.
 * @example
 * await receiverFor(d).receive({ method: 'POST', url: d.url, headers: d.headers, body: d.body });
 */
export function receiverFor(d: Delivery, extra: Record<string, unknown> = {}) {
  return createWebhookReceiver({
    endpoint: BUYER_ORIGIN,
    keys: resolver,
    now: () => NOW_MS,
    version: releaseOf(d.version) === '3.0' ? '3.0' : '3.1',
    ...(d.format === 'a2a' ? { taskType: d.taskType as 'create_media_buy' } : {}),
    ...extra,
  });
}

/** Whether a genuine delivery is received (resolved: delivered, or a delivered failed task). */
async function received(d: Delivery): Promise<boolean> {
  try {
    await receiverFor(d).receive({ method: 'POST', url: d.url, headers: d.headers, body: d.body });
    return true;
  } catch {
    return false;
  }
}

/**
 * Signs the lane's deliveries and checks each: every genuine one is received, every forged one refused.
 *
 * @returns The deliveries, genuine first, in a fixed order.
 * @throws {Error} A genuine delivery the receiver refuses (a fixture or the signer went wrong).
 * @example
 * const deliveries = await buildDeliveries();
 */
export async function buildDeliveries(): Promise<Delivery[]> {
  const plans: Plan[] = [];
  for (const f of enclosable()) {
    const key = plans.length % 3 === 2 ? es256 : ed25519;
    plans.push({ f, format: 'mcp', key, forged: undefined });
    if (f.variant !== 'submitted') plans.push({ f, format: 'a2a', key: ed25519, forged: undefined });
  }
  const genuine = plans.length;
  const sample = plans.filter((_, i) => i % 7 === 0);
  for (const forged of ['wrong-purpose', 'request-tag', 'no-digest', 'expired'])
    for (const p of sample) plans.push({ ...p, key: forged === 'wrong-purpose' ? responseKey : p.key, forged });
  const out = await Promise.all(plans.map((p, n) => sign(p, n)));
  for (const d of out) {
    const ok = await received(d);
    if (ok !== (d.forged === undefined)) throw new Error(`the webhook lane's seed ${d.id} was ${ok ? 'received' : 'refused'}`);
  }
  if (genuine < 20) throw new Error(`expected at least 20 genuine deliveries, got ${genuine}`);
  return out;
}

/**
 * The polling answers: a status response around every enclosable fixture, and a failed one per release.
 *
 * @returns The seeds, each checked to decode (the failed ones to raise their failure).
 * @throws {Error} A seed that does not decode.
 * @example
 * const polls = buildPolls();
 */
export function buildPolls(): PollSeed[] {
  const out: PollSeed[] = [];
  for (const f of enclosable()) {
    const status = statusOf(f);
    const response: Json = {
      task_id: `task_${out.length}`,
      task_type: taskTypeOf(f),
      protocol: 'media-buy',
      status,
      created_at: '2026-04-18T09:55:00Z',
      updated_at: '2026-04-18T09:59:58Z',
      ...(status === 'completed' ? { completed_at: '2026-04-18T09:59:58Z' } : {}),
      result: resultOf(f),
    };
    out.push({ id: `${f.id} poll`, version: f.version, response });
  }
  for (const version of OLDEST_FIRST) {
    const response = {
      task_id: 'task_failed',
      task_type: 'create_media_buy',
      protocol: 'media-buy',
      status: 'failed',
      created_at: '2026-04-18T09:55:00Z',
      updated_at: '2026-04-18T09:59:58Z',
      error: { code: 'BUDGET_TOO_LOW', message: 'total_budget is below the floor' },
    };
    out.push({ id: `${version}/failed poll`, version, response });
  }
  for (const p of out) {
    try {
      decodeTaskStatus(...pollCall(p.version, p.response, 'wrapped'));
    } catch (error) {
      if (!(error instanceof TaskFailedError) || p.response['status'] !== 'failed')
        throw new Error(`the webhook lane's polling seed ${p.id} does not decode: ${String(error)}`);
    }
  }
  return out;
}

/**
 * The arguments of decodeTaskStatus for a status response: 3.1 as an MCP tool result or a bare
 * payload, 3.0 as a JSON-RPC success or the bare tasks/get response.
 *
 * @param version - The release the poll is decoded under.
 * @param response - The status response (or what a mutation left of it).
 * @param how - `wrapped` (MCP, JSON-RPC) or `bare`.
 * @returns The input and the options.
 * @throws Never.
 * @example
 * decodeTaskStatus(...pollCall(resolveVersion('3.1'), response, 'wrapped'));
 */
export function pollCall(
  version: Version,
  response: unknown,
  how: 'wrapped' | 'bare',
): [unknown, { version: Version; transport?: 'payload' }] {
  if (releaseOf(version) === '3.0') return [how === 'bare' ? response : { jsonrpc: '2.0', id: 1, result: response }, { version }];
  if (how === 'bare') return [response, { version, transport: 'payload' }];
  // Bounded: a value of 2^60 shared references would never finish serializing (nor would the case).
  const text = stringify(response);
  return [{ content: [{ type: 'text', text }], structuredContent: response }, { version }];
}

/**
 * The SHA-256 Content-Digest of a body, as a seller computes it.
 *
 * @param body - The bytes.
 * @returns `sha-256=:<base64>:`.
 * @throws Never.
 * @example
 * headers['content-digest'] = contentDigest(newBody);
 */
export function contentDigest(body: Uint8Array): string {
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}
