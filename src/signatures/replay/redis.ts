/**
 * A replay store shared by every receiver process through Redis, one server or a cluster
 * (security.mdx: "Redis `SETNX` with `EX`", and "atomic insert-with-cap-check at step 13 in
 * distributed deployments"). A claim is two Lua scripts, each atomic on its slot's server clock:
 * in the keyid's slot, expired entries dropped, the replay and the keyid's caps checked and the
 * nonce held; in the aggregate slot, the aggregate caps checked and the entry counted, and the
 * new-keyid admission tracked. Works with node-redis 4+ (`createClient` or `createCluster`) or any
 * client with the same `eval`.
 */
import { knownOptions, positiveInteger, shareOption } from '../../errors/option-rules.js';
import { ADMISSION_TRACKING_OPTION_KEYS, type AdmissionTrackingOptions, admissionTracking } from './admissions.js';
import { REDIS_NOW, type RedisCommandClient, redisTarget, slotTag } from './redis-client.js';
import { DEFAULT_AGGREGATE_CAP, DEFAULT_PER_KEYID_CAP, type ReplayStore, replayKey } from './replay.js';

/** Options of {@link createRedisReplayStore}. */
export interface RedisReplayStoreOptions extends AdmissionTrackingOptions {
  /** A connected client (`createClient(...)` or `createCluster(...)`, then `connect()`), owned and closed by the caller. */
  readonly client: RedisCommandClient;
  /**
   * Prefix of every key. After it, a keyid's keys carry the hash tag `{k:<keyid>}` and the
   * aggregate counters `{all}`, so that on a cluster each script touches one slot and the keyids
   * spread over the nodes; a prefix with a hash tag of its own (`{app}:`) puts every key in its
   * slot. Default `adcp-webhook-replay:`.
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

/** Every option createRedisReplayStore takes, by name (a type test holds it to `keyof RedisReplayStoreOptions`). */
export const REDIS_REPLAY_STORE_OPTION_KEYS = [
  'client',
  'prefix',
  'perKeyidCap',
  'aggregateCap',
  'maxBytes',
  'perKeyidMaxBytes',
  ...ADMISSION_TRACKING_OPTION_KEYS,
] as const satisfies readonly (keyof RedisReplayStoreOptions)[];

/** The default byte budget of the Redis replay store: 256 MiB. */
const DEFAULT_REDIS_REPLAY_MAX_BYTES = 256 * 1024 * 1024;

/** Bytes counted per entry besides its key's characters (the nonce key, its set member, their overhead in Redis). */
const REDIS_ENTRY_BYTES = 256;

/** KEYS: per-keyid set. ARGV: per-keyid cap. Returns 1 when the keyid's live entries fill its cap. */
const KEYID_CAP_SCRIPT = `${REDIS_NOW}
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf') >= tonumber(ARGV[1]) and 1 or 0`;

/**
 * The aggregate slot. KEYS: expiry seconds (a sorted set), totals (a hash). ARGV: aggregate cap.
 * Returns 1 when the live entries fill the cap. Reads only. The hash holds the totals (`count`,
 * `bytes`) and, per second at which entries expire, their count (`c<second>`) and bytes
 * (`b<second>`): counted by the second, the aggregate slot's node holds no per-entry data.
 */
const AGGREGATE_CAP_SCRIPT = `${REDIS_NOW}
local live = tonumber(redis.call('HGET', KEYS[2], 'count') or '0')
for _, s in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', math.floor(now / 1000))) do
  live = live - tonumber(redis.call('HGET', KEYS[2], 'c' .. s) or '0')
end
return live >= tonumber(ARGV[1]) and 1 or 0`;

/** KEYS: admissions set. ARGV: window ms. */
const ADMISSIONS_SCRIPT = `${REDIS_NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]))
return redis.call('ZCARD', KEYS[1])`;

/**
 * The keyid's slot. KEYS: nonce key, per-keyid set, per-keyid bytes. ARGV: ttl ms, per-keyid cap,
 * set member, keyid, per-keyid byte share, token. Returns 'replayed', 'rate_abuse', or 'held': the
 * nonce is set (its value the token) and counted against the keyid. An entry weighs its key's
 * length (member, keyid and a line feed) plus REDIS_ENTRY_BYTES; swept entries give their weight back.
 */
const HOLD_SCRIPT = `${REDIS_NOW}
local extra = #ARGV[4] + 1 + ${REDIS_ENTRY_BYTES}
local gone = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)
if #gone > 0 then
  local freed = 0
  for _, m in ipairs(gone) do freed = freed + #m + extra end
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  if redis.call('DECRBY', KEYS[3], freed) <= 0 then redis.call('DEL', KEYS[3]) end
end
if redis.call('EXISTS', KEYS[1]) == 1 then return 'replayed' end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return 'rate_abuse' end
local weight = #ARGV[3] + extra
if tonumber(redis.call('GET', KEYS[3]) or '0') + weight > tonumber(ARGV[5]) then return 'rate_abuse' end
local ttl = tonumber(ARGV[1])
redis.call('SET', KEYS[1], ARGV[6], 'PX', ttl)
redis.call('ZADD', KEYS[2], now + ttl, ARGV[3])
redis.call('INCRBY', KEYS[3], weight)
for _, i in ipairs({2, 3}) do
  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
end
return 'held'`;

/** The keyid's slot. KEYS: as HOLD_SCRIPT's. ARGV: token, set member, keyid. Gives back the hold, if it is still this claim's. */
const UNHOLD_SCRIPT = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
if redis.call('ZREM', KEYS[2], ARGV[2]) == 1 then
  if redis.call('DECRBY', KEYS[3], #ARGV[2] + #ARGV[3] + 1 + ${REDIS_ENTRY_BYTES}) <= 0 then redis.call('DEL', KEYS[3]) end
end
return 1`;

/**
 * The aggregate slot. KEYS: expiry seconds, totals, known-keyids set, admissions set. ARGV: ttl ms, replay key, aggregate
 * cap, byte budget, keyid, admission window ms, keyid memory ms, most known keyids. Returns 'rate_abuse', 'claimed', or
 * 'new:<admissions in window>' for a previously-unseen keyid's first entry. An entry counts until the end of the second
 * it expires in, on this node's clock (docs/redis.md, "What to size and configure", Clocks).
 */
const ADMIT_SCRIPT = `${REDIS_NOW}
local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', math.floor(now / 1000))
for _, s in ipairs(gone) do
  local held = redis.call('HMGET', KEYS[2], 'c' .. s, 'b' .. s)
  redis.call('HINCRBY', KEYS[2], 'count', -tonumber(held[1] or '0'))
  redis.call('HINCRBY', KEYS[2], 'bytes', -tonumber(held[2] or '0'))
  redis.call('HDEL', KEYS[2], 'c' .. s, 'b' .. s)
end
if #gone > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', math.floor(now / 1000)) end
local totals = redis.call('HMGET', KEYS[2], 'count', 'bytes')
local weight = #ARGV[2] + ${REDIS_ENTRY_BYTES}
if tonumber(totals[1] or '0') >= tonumber(ARGV[3]) then return 'rate_abuse' end
if tonumber(totals[2] or '0') + weight > tonumber(ARGV[4]) then return 'rate_abuse' end
local second = math.ceil((now + tonumber(ARGV[1])) / 1000)
redis.call('ZADD', KEYS[1], second, second)
redis.call('HINCRBY', KEYS[2], 'c' .. second, 1)
redis.call('HINCRBY', KEYS[2], 'b' .. second, weight)
redis.call('HINCRBY', KEYS[2], 'count', 1)
redis.call('HINCRBY', KEYS[2], 'bytes', weight)
local keep = second * 1000 - now
for _, i in ipairs({1, 2}) do
  if redis.call('PTTL', KEYS[i]) < keep then redis.call('PEXPIRE', KEYS[i], keep) end
end
local window = tonumber(ARGV[6])
local memory = tonumber(ARGV[7])
local last = redis.call('ZSCORE', KEYS[3], ARGV[5])
redis.call('ZADD', KEYS[3], now, ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - memory)
local excess = redis.call('ZCARD', KEYS[3]) - tonumber(ARGV[8])
if excess > 0 then redis.call('ZREMRANGEBYRANK', KEYS[3], 0, excess - 1) end
redis.call('PEXPIRE', KEYS[3], memory)
if last and tonumber(last) > now - memory then return 'claimed' end
redis.call('ZADD', KEYS[4], now, now .. '|' .. ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now - window)
excess = redis.call('ZCARD', KEYS[4]) - tonumber(ARGV[8])
if excess > 0 then redis.call('ZREMRANGEBYRANK', KEYS[4], 0, excess - 1) end
redis.call('PEXPIRE', KEYS[4], window)
return 'new:' .. redis.call('ZCARD', KEYS[4])`;

/**
 * A `(keyid, nonce)` replay store in Redis, for receivers on several processes or machines.
 *
 * @param options - The client, key prefix and caps.
 * @returns The store; its calls reject when Redis does (the receiver answers 503, and holds each
 *   call to its `storeTimeoutMs`, so a blocked Redis fails closed too).
 * @throws {DecodeError} `INVALID_OPTION` for an invalid cap or a client without `eval`, or a name that is not an option.
 * @example
 * const client = createClient({ url: process.env.REDIS_URL });
 * client.on('error', (error) => log(error)); // without a listener, node-redis ends the process when Redis goes away
 * await client.connect();
 * const receiver = createWebhookReceiver({ jwks, replayStore: createRedisReplayStore({ client }) });
 */
export function createRedisReplayStore(options: RedisReplayStoreOptions): ReplayStore {
  const who = 'createRedisReplayStore';
  knownOptions(who, options, REDIS_REPLAY_STORE_OPTION_KEYS);
  const { client, prefix } = redisTarget(who, options, 'adcp-webhook-replay:');
  const perKeyidCap = String(positiveInteger(who, 'perKeyidCap', options.perKeyidCap, DEFAULT_PER_KEYID_CAP));
  const aggregateCap = String(positiveInteger(who, 'aggregateCap', options.aggregateCap, DEFAULT_AGGREGATE_CAP));
  const maxBytes = positiveInteger(who, 'maxBytes', options.maxBytes, DEFAULT_REDIS_REPLAY_MAX_BYTES);
  const perKeyidBytes = String(shareOption(who, 'perKeyidMaxBytes', options.perKeyidMaxBytes, maxBytes, 0.1));
  const tracking = admissionTracking(options, who);
  const trackingArgs = [String(tracking.windowMs), String(tracking.memoryMs), String(tracking.maxKnown)];
  const all = slotTag(prefix, 'all');
  const [seconds, totals, known, admissions] = [`${all}seconds`, `${all}totals`, `${all}known`, `${all}admissions`];
  const keyidSet = (keyid: string): string => `${slotTag(prefix, 'k', keyid)}set`;
  const run = (script: string, keys: string[], args: string[]): Promise<unknown> => client.eval(script, { keys, arguments: args });
  return {
    async capReached(keyid) {
      const replies = await Promise.all([
        run(KEYID_CAP_SCRIPT, [keyidSet(keyid)], [perKeyidCap]),
        run(AGGREGATE_CAP_SCRIPT, [seconds, totals], [aggregateCap]),
      ]);
      return replies.some((reply) => Number(reply) === 1);
    },
    async claim(keyid, nonce, ttlSeconds, destination) {
      const ttl = String(Math.max(1, Math.ceil(ttlSeconds)) * 1000);
      const member = destination === undefined ? nonce : `${destination}\n${nonce}`;
      const tag = slotTag(prefix, 'k', keyid);
      const own = [`${tag}n:${member}`, `${tag}set`, `${tag}bytes`];
      const token = crypto.randomUUID();
      const held = await run(HOLD_SCRIPT, own, [ttl, perKeyidCap, member, keyid, perKeyidBytes, token]);
      if (held === 'replayed' || held === 'rate_abuse') return held;
      if (held !== 'held') throw new Error(`unexpected Redis reply to the replay claim: ${typeof held}`);
      // A script touches one slot, so the aggregate is a second step; when it refuses or fails, the
      // hold is given back, and one never given back only counts until its TTL (refuses more, never admits more).
      const unhold = () => run(UNHOLD_SCRIPT, own, [token, member, keyid]).catch(() => undefined);
      const args = [ttl, replayKey(keyid, nonce, destination), aggregateCap, String(maxBytes), keyid, ...trackingArgs];
      const reply = await run(ADMIT_SCRIPT, [seconds, totals, known, admissions], args).catch(async (error: unknown) => {
        await unhold();
        throw error;
      });
      if (reply === 'claimed') return reply;
      if (typeof reply === 'string' && reply.startsWith('new:')) {
        options.onNewKeyid?.({ keyid, admissionsInWindow: Number(reply.slice(4)), windowMs: tracking.windowMs });
        return 'claimed';
      }
      await unhold();
      if (reply === 'rate_abuse') return reply;
      throw new Error(`unexpected Redis reply to the replay claim: ${typeof reply}`);
    },
    async newKeyidAdmissions() {
      return Number(await run(ADMISSIONS_SCRIPT, [admissions], [String(tracking.windowMs)]));
    },
  };
}
