/**
 * The `idempotency_key` dedup store in Redis, shared by every receiver process (webhooks.mdx:
 * durable, shared across endpoints, at least 24 h). Each act is one Lua script on the server's
 * clock: the claim binds the fingerprint and the owner's lease atomically, so two receivers can
 * never both own one delivery; `complete` and `release` are fenced by the owner token. A
 * sender's keys share a hash tag, so each script touches one cluster slot and the senders spread
 * over a cluster's nodes.
 */
import { knownOptions, positiveInteger } from '../../errors/option-rules.js';
import { DEFAULT_DEDUP_PER_SENDER_CAP, type DedupState, type DedupStore } from './dedup.js';
import { REDIS_NOW, type RedisCommandClient, redisTarget, slotTag } from './redis-client.js';

/** Options of {@link createRedisDedupStore}. */
export interface RedisDedupStoreOptions {
  /**
   * A connected client (`createClient(...)` or `createCluster(...)`, with an `error` listener, then
   * `connect()`), owned and closed by the caller.
   */
  readonly client: RedisCommandClient;
  /**
   * Prefix of every key. After it, a sender's keys carry the hash tag `{s:<sender>}`, so that on a
   * cluster each script touches one slot and the senders spread over the nodes; a prefix with a
   * hash tag of its own (`{app}:`) puts every key in its slot. Default `adcp-webhook-dedup:`.
   */
  readonly prefix?: string | undefined;
  /** Most live bindings per sender (webhooks.mdx: SHOULD bound per sender, 429). Default 1,000,000. */
  readonly perSenderCap?: number | undefined;
}

/** Every option createRedisDedupStore takes, by name (a type test holds it to `keyof RedisDedupStoreOptions`). */
export const REDIS_DEDUP_STORE_OPTION_KEYS = [
  'client',
  'prefix',
  'perSenderCap',
] as const satisfies readonly (keyof RedisDedupStoreOptions)[];

/** Keeps a sender's set alive as long as its longest binding. */
const KEEP_SET = "if redis.call('PTTL', KEYS[2]) < retention then redis.call('PEXPIRE', KEYS[2], retention) end";

/**
 * KEYS: binding hash, sender set. ARGV: fingerprint, owner, lease ms, retention ms, per-sender cap, key.
 * Returns a DedupState.
 */
const CLAIM_SCRIPT = `${REDIS_NOW}
local b = redis.call('HMGET', KEYS[1], 'fp', 'state', 'lease')
local retention = tonumber(ARGV[4])
if b[1] then
  if b[1] ~= ARGV[1] then return 'conflict' end
  if b[2] == 'completed' then return 'completed' end
  if tonumber(b[3]) > now then return 'processing' end
  redis.call('HSET', KEYS[1], 'owner', ARGV[2], 'lease', now + tonumber(ARGV[3]))
  return 'claimed'
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 'rate_abuse' end
redis.call('HSET', KEYS[1], 'fp', ARGV[1], 'state', 'processing', 'owner', ARGV[2], 'lease', now + tonumber(ARGV[3]))
redis.call('PEXPIRE', KEYS[1], retention)
redis.call('ZADD', KEYS[2], now + retention, ARGV[6])
${KEEP_SET}
return 'claimed'`;

/** KEYS: binding hash, sender set. ARGV: owner, retention ms, key. Returns 1, or 0 when the owner lost the claim. */
const COMPLETE_SCRIPT = `${REDIS_NOW}
local b = redis.call('HMGET', KEYS[1], 'state', 'owner')
if b[2] ~= ARGV[1] then return 0 end
if b[1] == 'completed' then return 1 end
local retention = tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'state', 'completed')
redis.call('PEXPIRE', KEYS[1], retention)
redis.call('ZADD', KEYS[2], now + retention, ARGV[3])
${KEEP_SET}
return 1`;

/** KEYS: binding hash, sender set. ARGV: owner, key. Returns 1, or 0 when the owner lost the claim (or it completed). */
const RELEASE_SCRIPT = `local b = redis.call('HMGET', KEYS[1], 'state', 'owner')
if b[2] ~= ARGV[1] or b[1] == 'completed' then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
return 1`;

const STATES: readonly unknown[] = ['claimed', 'processing', 'completed', 'conflict', 'rate_abuse'] satisfies DedupState[];

/**
 * An `idempotency_key` dedup store in Redis, for receivers on several processes or machines. Run
 * Redis with persistence (AOF) and `maxmemory-policy noeviction`: a Redis that restarts empty, or
 * evicts, forgets bindings inside their retention and lets a retry run twice.
 *
 * @param options - The client, key prefix and per-sender cap.
 * @returns The store; its calls reject when Redis does (the receiver answers 503 and holds each
 *   call to its `storeTimeoutMs`).
 * @throws {DecodeError} `INVALID_OPTION` for an invalid cap, prefix or client, or a name that is not an option.
 * @example
 * const receiver = createWebhookReceiver({ jwks, replayStore, dedup: { store: createRedisDedupStore({ client }) } });
 */
export function createRedisDedupStore(options: RedisDedupStoreOptions): DedupStore {
  const who = 'createRedisDedupStore';
  knownOptions(who, options, REDIS_DEDUP_STORE_OPTION_KEYS);
  const { client, prefix } = redisTarget(who, options, 'adcp-webhook-dedup:');
  const cap = String(positiveInteger(who, 'perSenderCap', options.perSenderCap, DEFAULT_DEDUP_PER_SENDER_CAP));
  const keys = (sender: string, key: string): string[] => {
    const tag = slotTag(prefix, 's', sender);
    return [`${tag}b:${key}`, `${tag}set`];
  };
  const run = (script: string, r: { sender: string; key: string }, args: string[]): Promise<unknown> =>
    client.eval(script, { keys: keys(r.sender, r.key), arguments: args });
  return {
    async claim(r) {
      const args = [r.fingerprint, r.owner, String(r.leaseMs), String(r.retentionMs), cap, r.key];
      const reply = await run(CLAIM_SCRIPT, r, args);
      if (!STATES.includes(reply)) throw new Error(`unexpected Redis reply to the dedup claim: ${typeof reply}`);
      return reply as DedupState;
    },
    async complete(r) {
      return Number(await run(COMPLETE_SCRIPT, r, [r.owner, String(r.retentionMs), r.key])) === 1;
    },
    async release(r) {
      return Number(await run(RELEASE_SCRIPT, r, [r.owner, r.key])) === 1;
    },
  };
}
