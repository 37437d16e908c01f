/** Starts a throwaway redis-server on 127.0.0.1 on a free port for a test file, and stops it. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll } from 'vitest';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface RedisServer {
  readonly url: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/** Spawns redis-server (no persistence) and waits until it answers PING. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const url = `redis://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`))));
  for (let attempt = 0; ; attempt++) {
    const client = createClient({ url, socket: { reconnectStrategy: false } });
    client.on('error', () => undefined);
    try {
      await Promise.race([client.connect(), exited]);
      await client.ping();
      await client.quit();
      break;
    } catch (error) {
      if (attempt > 100 || child.exitCode !== null) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
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
