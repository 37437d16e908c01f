/**
 * A replay store shared by every receiver process through Redis (security.mdx: "Redis `SETNX`
 * with `EX`", and "atomic insert-with-cap-check at step 13 in distributed deployments"). The
 * claim is one Lua script: expired entries dropped, replay and caps checked, the nonce set with
 * its TTL, and the new-keyid admission tracked, all atomically on the server's clock. Works with the `redis` client (node-redis 4+)
 * or any client with the same `sendCommand`.
 */
import { positiveInteger, shareOption } from '../../errors/option-rules.js';
import { type AdmissionTrackingOptions, admissionTracking } from './admissions.js';
import { REDIS_NOW, type RedisCommandClient, redisTarget } from './redis-client.js';
import { DEFAULT_AGGREGATE_CAP, DEFAULT_PER_KEYID_CAP, type ReplayStore, replayKey } from './replay.js';

/** Options of {@link createRedisReplayStore}. */
export interface RedisReplayStoreOptions extends AdmissionTrackingOptions {
  /** A connected client (`createClient(...).connect()`), owned and closed by the caller. */
  readonly client: RedisCommandClient;
  /**
   * Prefix of every key. The default's hash tag keeps every key in one cluster slot, which the
   * script's aggregate cap needs. Default `{adcp-webhook-replay}:`.
   */
  readonly prefix?: string | undefined;
  /** Most live entries per `keyid`. Default 100,000. */
  readonly perKeyidCap?: number | undefined;
  /** Most live entries in all. Default 1,000,000 (the spec allows up to 10,000,000 as memory permits). */
  readonly aggregateCap?: number | undefined;
  /**
   * The byte budget of all entries, each weighed as its key's length plus 256 bytes
   * (the spec bounds no nonce's length: without it, 1,000,000 entries of 8 KB nonces would be 8 GB).
   * Default 256 MiB, which the entry cap binds before for profile-sized nonces.
   */
  readonly maxBytes?: number | undefined;
  /** Most bytes one keyid's entries weigh: one signer's long nonces cannot fill Redis for all. Default a tenth of `maxBytes`. */
  readonly perKeyidMaxBytes?: number | undefined;
}

/** The default byte budget of the Redis replay store: 256 MiB. */
const DEFAULT_REDIS_REPLAY_MAX_BYTES = 256 * 1024 * 1024;

/** KEYS: per-keyid set, aggregate set. ARGV: per-keyid cap, aggregate cap. */
const CAP_SCRIPT = `${REDIS_NOW}
if redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf') >= tonumber(ARGV[1]) then return 1 end
if redis.call('ZCOUNT', KEYS[2], '(' .. now, '+inf') >= tonumber(ARGV[2]) then return 1 end
return 0`;

/** KEYS: admissions set. ARGV: window ms. */
const ADMISSIONS_SCRIPT = `${REDIS_NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]))
return redis.call('ZCARD', KEYS[1])`;

/** Bytes counted per entry besides its key's characters (the nonce key, two set members, their overhead in Redis). */
const REDIS_ENTRY_BYTES = 256;

/**
 * KEYS: nonce key, per-keyid set, aggregate set, known-keyids set, admissions set, per-keyid
 * bytes, aggregate bytes.
 * ARGV: ttl seconds, per-keyid cap, aggregate cap, nonce, aggregate member, keyid, admission
 * window ms, keyid memory ms, most known keyids, per-keyid byte share, byte budget.
 * Returns 'replayed', 'rate_abuse', 'claimed', or 'new:<admissions in window>' for a claim that
 * is a previously-unseen keyid's first entry. An entry weighs its aggregate member's length plus
 * REDIS_ENTRY_BYTES; the expired entries a sweep drops give their weight back.
 */
const CLAIM_SCRIPT = `${REDIS_NOW}
local overhead = ${REDIS_ENTRY_BYTES}
local function sweep(set, counter, extra)
  local gone = redis.call('ZRANGEBYSCORE', set, '-inf', now)
  if #gone == 0 then return end
  local freed = 0
  for _, m in ipairs(gone) do freed = freed + #m + extra end
  redis.call('ZREMRANGEBYSCORE', set, '-inf', now)
  if redis.call('DECRBY', counter, freed) <= 0 then redis.call('DEL', counter) end
end
sweep(KEYS[2], KEYS[6], #ARGV[6] + 1 + overhead)
sweep(KEYS[3], KEYS[7], overhead)
if redis.call('EXISTS', KEYS[1]) == 1 then return 'replayed' end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) or redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[3]) then return 'rate_abuse' end
local weight = #ARGV[5] + overhead
if tonumber(redis.call('GET', KEYS[6]) or '0') + weight > tonumber(ARGV[10]) then return 'rate_abuse' end
if tonumber(redis.call('GET', KEYS[7]) or '0') + weight > tonumber(ARGV[11]) then return 'rate_abuse' end
local ttl = tonumber(ARGV[1]) * 1000
redis.call('SET', KEYS[1], '1', 'PX', ttl)
redis.call('ZADD', KEYS[2], now + ttl, ARGV[4])
redis.call('ZADD', KEYS[3], now + ttl, ARGV[5])
redis.call('INCRBY', KEYS[6], weight)
redis.call('INCRBY', KEYS[7], weight)
for _, i in ipairs({2, 3, 6, 7}) do
  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
end
local window = tonumber(ARGV[7])
local memory = tonumber(ARGV[8])
local last = redis.call('ZSCORE', KEYS[4], ARGV[6])
redis.call('ZADD', KEYS[4], now, ARGV[6])
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now - memory)
local excess = redis.call('ZCARD', KEYS[4]) - tonumber(ARGV[9])
if excess > 0 then redis.call('ZREMRANGEBYRANK', KEYS[4], 0, excess - 1) end
redis.call('PEXPIRE', KEYS[4], memory)
if last and tonumber(last) > now - memory then return 'claimed' end
redis.call('ZADD', KEYS[5], now, now .. '|' .. ARGV[6])
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now - window)
excess = redis.call('ZCARD', KEYS[5]) - tonumber(ARGV[9])
if excess > 0 then redis.call('ZREMRANGEBYRANK', KEYS[5], 0, excess - 1) end
redis.call('PEXPIRE', KEYS[5], window)
return 'new:' .. redis.call('ZCARD', KEYS[5])`;

/**
 * A `(keyid, nonce)` replay store in Redis, for receivers on several processes or machines.
 *
 * @param options - The client, key prefix and caps.
 * @returns The store; its calls reject when Redis does (the receiver answers 503, and holds each
 *   call to its `storeTimeoutMs`, so a blocked Redis fails closed too).
 * @throws {DecodeError} `INVALID_OPTION` for an invalid cap or a client without `sendCommand`.
 * @example
 * const client = createClient({ url: process.env.REDIS_URL });
 * client.on('error', (error) => log(error)); // without a listener, node-redis ends the process when Redis goes away
 * await client.connect();
 * const receiver = createWebhookReceiver({ jwks, replayStore: createRedisReplayStore({ client }) });
 */
export function createRedisReplayStore(options: RedisReplayStoreOptions): ReplayStore {
  const who = 'createRedisReplayStore';
  const { client, prefix } = redisTarget(who, options, '{adcp-webhook-replay}:');
  const perKeyidCap = String(positiveInteger(who, 'perKeyidCap', options.perKeyidCap, DEFAULT_PER_KEYID_CAP));
  const aggregateCap = String(positiveInteger(who, 'aggregateCap', options.aggregateCap, DEFAULT_AGGREGATE_CAP));
  const maxBytes = positiveInteger(who, 'maxBytes', options.maxBytes, DEFAULT_REDIS_REPLAY_MAX_BYTES);
  const budgets = [String(shareOption(who, 'perKeyidMaxBytes', options.perKeyidMaxBytes, maxBytes, 0.1)), String(maxBytes)];
  const tracking = admissionTracking(options, who);
  const trackingArgs = [String(tracking.windowMs), String(tracking.memoryMs), String(tracking.maxKnown)];
  const keyidSet = (keyid: string): string => `${prefix}k:${keyid}`;
  const all = `${prefix}all`;
  const known = `${prefix}known`;
  const admissions = `${prefix}admissions`;
  return {
    async capReached(keyid) {
      const reply = await client.sendCommand(['EVAL', CAP_SCRIPT, '2', keyidSet(keyid), all, perKeyidCap, aggregateCap]);
      return Number(reply) === 1;
    },
    async claim(keyid, nonce, ttlSeconds, destination) {
      const ttl = String(Math.max(1, Math.ceil(ttlSeconds)));
      const key = replayKey(keyid, nonce, destination);
      const member = destination === undefined ? nonce : `${destination}\n${nonce}`;
      const reply = await client.sendCommand([
        'EVAL',
        CLAIM_SCRIPT,
        '7',
        `${prefix}n:${key}`,
        keyidSet(keyid),
        all,
        known,
        admissions,
        `${prefix}kb:${keyid}`,
        `${prefix}bytes`,
        ttl,
        perKeyidCap,
        aggregateCap,
        member,
        key,
        keyid,
        ...trackingArgs,
        ...budgets,
      ]);
      if (reply === 'claimed' || reply === 'replayed' || reply === 'rate_abuse') return reply;
      if (typeof reply === 'string' && reply.startsWith('new:')) {
        options.onNewKeyid?.({ keyid, admissionsInWindow: Number(reply.slice(4)), windowMs: tracking.windowMs });
        return 'claimed';
      }
      throw new Error(`unexpected Redis reply to the replay claim: ${typeof reply}`);
    },
    async newKeyidAdmissions() {
      return Number(await client.sendCommand(['EVAL', ADMISSIONS_SCRIPT, '1', admissions, String(tracking.windowMs)]));
    },
  };
}
