/**
 * What the two Redis stores (the replay store, redis.ts; the dedup store, dedup-redis.ts) share:
 * the one client method they use, the options they check alike, and the server's clock in Lua.
 */

import { optionalMethods, optionError } from '../../errors/option-rules.js';

/** The one client method the stores use: node-redis's `sendCommand`. */
export interface RedisCommandClient {
  sendCommand(args: ReadonlyArray<string>): Promise<unknown>;
}

/** Milliseconds on the Redis server's clock (Lua), so every receiver judges expiry and leases alike. */
export const REDIS_NOW = "local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";

/**
 * A Redis store's client and key prefix, checked.
 *
 * @param who - The factory, for the message.
 * @param options - Its options.
 * @param defaultPrefix - The prefix when none is set.
 * @returns The client and the prefix.
 * @throws {DecodeError} `INVALID_OPTION` for a client without `sendCommand` or a prefix that is not a string.
 * @example
 * const { client, prefix } = redisTarget('createRedisReplayStore', options, '{adcp-webhook-replay}:');
 */
export function redisTarget(
  who: string,
  options: { readonly client: RedisCommandClient; readonly prefix?: string | undefined },
  defaultPrefix: string,
): { readonly client: RedisCommandClient; readonly prefix: string } {
  const { client } = options;
  optionalMethods(who, 'client', client ?? null, ['sendCommand']);
  const prefix = options.prefix ?? defaultPrefix;
  if (typeof prefix !== 'string') throw optionError(who, 'prefix', 'a string', prefix);
  return { client, prefix };
}
