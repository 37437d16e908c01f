/**
 * A throwaway Redis Cluster of three masters on 127.0.0.1 for one test file: `redis-server
 * --cluster-enabled yes` on free ports, each in its own temporary directory with append-only
 * persistence (a node stopped and started again comes back with what it held), joined by
 * `redis-cli --cluster create` (.ci/run installs both). Everything is stopped and removed after
 * the file's tests, or at once when the start fails.
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createCluster, type RedisClusterType } from 'redis';
import { afterAll, beforeAll } from 'vitest';
import { freePorts, spawnRedis, stopProcess } from './redis-server.js';

const NODES = 3;

/** The running cluster: its nodes by client port, each stopped and started again at will. */
export interface RedisClusterNodes {
  readonly ports: readonly number[];
  /** A new connected cluster client (an `error` listener set), quit with the cluster. */
  connect(): Promise<RedisClusterType>;
  /** Ends the node on `port` (SIGTERM: it writes its append-only file first). */
  stop(port: number): Promise<void>;
  /** Starts the node on `port` again, from its directory (its node id, slots and data). */
  start(port: number): Promise<void>;
  /** The `cluster_state` (`ok`, `fail`) the node on `port` reports. */
  state(port: number): Promise<string>;
}

interface Node {
  readonly port: number;
  readonly args: readonly string[];
  readonly dir: string;
  process: ChildProcess;
}

/** The `cluster_state` the node on `port` reports. */
async function clusterState(port: number): Promise<string> {
  const { stdout } = await promisify(execFile)('redis-cli', ['-p', String(port), 'cluster', 'info']);
  return /cluster_state:(\w+)/.exec(stdout)?.[1] ?? 'unknown';
}

async function untilOk(port: number): Promise<void> {
  for (let attempt = 0; (await clusterState(port)) !== 'ok'; attempt++) {
    if (attempt > 200) throw new Error(`the cluster node on ${port} is not ok after 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts the nodes and joins them; on a failure, what was started is stopped and removed before the error is thrown. */
async function startCluster(): Promise<RedisClusterNodes & { close(): Promise<void> }> {
  const nodes: Node[] = [];
  const clients: RedisClusterType[] = [];
  const close = async (): Promise<void> => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await Promise.allSettled(nodes.map((node) => stopProcess(node.process)));
    await Promise.allSettled(nodes.map((node) => rm(node.dir, { recursive: true, force: true })));
  };
  try {
    const ports = await freePorts(2 * NODES);
    for (let i = 0; i < NODES; i++) {
      const dir = await mkdtemp(join(tmpdir(), 'adcp-redis-cluster-'));
      // The bus port is set, not port + 10000, which may be taken or past 65535. A short node timeout
      // lets the cluster see a stopped node (and its return) within a test.
      const args = [
        ...['--cluster-enabled', 'yes', '--cluster-port', String(ports[NODES + i]), '--cluster-node-timeout', '1000'],
        ...['--cluster-config-file', 'nodes.conf', '--dir', dir, '--save', '', '--appendonly', 'yes'],
      ];
      const port = ports[i] as number;
      nodes.push({ port, args, dir, process: await spawnRedis(port, args, dir) });
    }
    const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
    await promisify(execFile)('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'], {
      timeout: 30_000,
    });
    const find = (port: number): Node => {
      const node = nodes.find((n) => n.port === port);
      if (node === undefined) throw new Error(`no cluster node on port ${port}`);
      return node;
    };
    // The nodes agree on the slots a moment after create returns: until then they answer CLUSTERDOWN.
    for (const node of nodes) await untilOk(node.port);
    return {
      ports: nodes.map((node) => node.port),
      async connect() {
        const client: RedisClusterType = createCluster({ rootNodes: nodes.map((node) => ({ url: `redis://127.0.0.1:${node.port}` })) });
        // Without a listener node-redis ends the process when a node goes away.
        client.on('error', () => undefined);
        clients.push(client);
        await client.connect();
        return client;
      },
      stop: (port) => stopProcess(find(port).process),
      async start(port) {
        const node = find(port);
        node.process = await spawnRedis(port, node.args, node.dir);
      },
      state: clusterState,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A Redis Cluster for the calling file: started before its tests (handed to `use`), stopped and removed after them. */
export function withRedisCluster(use: (cluster: RedisClusterNodes) => void): void {
  let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
  beforeAll(async () => {
    cluster = await startCluster();
    use(cluster);
  });
  afterAll(async () => {
    await cluster?.close();
  });
}
