/**
 * Type tests of the Redis stores' `client` option: node-redis's single client (`createClient`),
 * cluster client (`createCluster`) and pool, with the default RESP 3 or RESP 2, are taken as they
 * are, with no cast; what cannot run the stores' scripts (`eval(script, { keys, arguments })`) is not.
 */
import { createClient, type RedisClientPoolType, type RedisClientType, type RedisClusterType } from 'redis';
import { expectTypeOf } from 'vitest';
import { createRedisDedupStore, createRedisReplayStore, type RedisCommandClient } from '../../src/webhooks/index.js';

declare const single: RedisClientType;
declare const cluster: RedisClusterType;
declare const pool: RedisClientPoolType;
// Never connected: a type test is compiled, not run.
const resp2 = createClient({ RESP: 2 });

for (const client of [single, cluster, pool, resp2]) {
  createRedisReplayStore({ client });
  createRedisDedupStore({ client, prefix: 'app:' });
}
expectTypeOf(cluster).toExtend<RedisCommandClient>();
expectTypeOf(single).toExtend<RedisCommandClient>();

// @ts-expect-error not a client: nothing to run a script with
createRedisReplayStore({ client: {} });
// @ts-expect-error a URL is not a connected client
createRedisDedupStore({ client: 'redis://127.0.0.1:6379' });
// @ts-expect-error a client that only sends raw commands: the stores run their scripts through eval
createRedisReplayStore({ client: { sendCommand: async (args: string[]) => args.length } });
// @ts-expect-error ioredis's eval takes the key count and the keys inline, not { keys, arguments }
createRedisDedupStore({ client: { eval: async (script: string, keyCount: number, ...args: string[]) => [script, keyCount, args] } });
// @ts-expect-error eval must answer a promise
createRedisReplayStore({ client: { eval: (script: string) => script } });
