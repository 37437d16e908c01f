/** Starts throwaway redis-server processes on 127.0.0.1 on free ports for a test file, and stops them. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll } from 'vitest';

/** `count` distinct free ports on 127.0.0.1, each held open until all are found. */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
    }
    return servers.map((server) => {
      const address = server.address();
      if (typeof address !== 'object' || address === null) throw new Error('no port');
      return address.port;
    });
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

/** Every redis-server this process started and has not seen exit: killed when the test worker exits, whatever ends it. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Spawns redis-server on `port` with `args` (in `cwd`) and waits until it answers PING; kills it when it does not. */
export async function spawnRedis(port: number, args: readonly string[], cwd?: string): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', ...args], { stdio: 'ignore', cwd });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`))));
  exited.catch(() => undefined);
  for (let attempt = 0; ; attempt++) {
    const client = createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: false } });
    client.on('error', () => undefined);
    try {
      await Promise.race([client.connect(), exited]);
      await client.ping();
      await client.quit();
      return child;
    } catch (error) {
      if (attempt > 100 || child.exitCode !== null) {
        await stopProcess(child);
        throw error;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Ends a redis-server (SIGTERM: it saves what its persistence asks for) and waits for its exit. */
export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface RedisServer {
  readonly url: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/** Spawns redis-server (no persistence) and waits until it answers PING. */
export async function startRedis(): Promise<RedisServer> {
  const [port] = await freePorts(1);
  const child = await spawnRedis(port as number, ['--save', '', '--appendonly', 'no']);
  return { url: `redis://127.0.0.1:${port}`, process: child, stop: () => stopProcess(child) };
}

/**
 * A redis-server and a client connected to it for the calling file or describe block: started
 * before its tests (the client handed to `use`), the client quit and the server stopped after them.
 */
export function withRedis(use: (client: RedisClientType) => void): void {
  let server: RedisServer | undefined;
  let client: RedisClientType | undefined;
  beforeAll(async () => {
    server = await startRedis();
    client = createClient({ url: server.url });
    client.on('error', () => undefined);
    await client.connect();
    use(client);
  });
  afterAll(async () => {
    await client?.quit();
    await server?.stop();
  });
}
