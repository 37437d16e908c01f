/**
 * What the two Redis stores (the replay store, redis.ts; the dedup store, dedup-redis.ts) share:
 * the one client method they use, the options they check alike, the server's clock in Lua, and
 * the hash tags that keep each script's keys in one cluster slot.
 */

import { optionalMethods, optionError } from '../../errors/option-rules.js';

/**
 * The one client method the stores use: node-redis's `eval(script, { keys, arguments })`, which a
 * `createClient()` client runs on its server and a `createCluster()` client routes to the node of
 * the first key's slot.
 */
export interface RedisCommandClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** Milliseconds on the Redis server's clock (Lua), so every receiver judges expiry and leases alike. */
export const REDIS_NOW = "local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";

/**
 * The start of every key of one keyid, sender or counter: the prefix, then a hash tag naming it, so that the keys one
 * script touches share a cluster slot. How the tag is escaped and why it is never empty: docs/redis.md, "Keys and slots".
 *
 * @param prefix - The store's key prefix.
 * @param kind - What the id is: `k` (keyid), `s` (sender), `all` (the aggregate counters, no id).
 * @param id - The keyid or sender.
 * @returns The start of the keys, ending with `:`.
 * @throws Never.
 * @example
 * slotTag('adcp-webhook-replay:', 'k', 'kid-1'); // 'adcp-webhook-replay:{k:kid-1}:'
 */
export function slotTag(prefix: string, kind: string, id?: string): string {
  return id === undefined ? `${prefix}{${kind}}:` : `${prefix}{${kind}:${id.replace(/[\\}]/g, '\\$&')}}:`;
}

/**
 * A Redis store's client and key prefix, checked.
 *
 * @param who - The factory, for the message.
 * @param options - Its options.
 * @param defaultPrefix - The prefix when none is set.
 * @returns The client and the prefix.
 * @throws {DecodeError} `INVALID_OPTION` for a client without `eval` or a prefix that is not a string.
 * @example
 * const { client, prefix } = redisTarget('createRedisReplayStore', options, 'adcp-webhook-replay:');
 */
export function redisTarget(
  who: string,
  options: { readonly client: RedisCommandClient; readonly prefix?: string | undefined },
  defaultPrefix: string,
): { readonly client: RedisCommandClient; readonly prefix: string } {
  const { client } = options;
  optionalMethods(who, 'client', client ?? null, ['eval']);
  const prefix = options.prefix ?? defaultPrefix;
  if (typeof prefix !== 'string') throw optionError(who, 'prefix', 'a string', prefix);
  return { client, prefix };
}
