/**
 * The official SDK's reference sellers (@adcp/sdk 6.11.0: its examples/hello_* adapters over its
 * mock upstreams), in-process: the example's own server factory over MCP (the SDK's serve()) and
 * over an A2A mount (its createA2AAdapter, express on 127.0.0.1). The examples call serve() when
 * imported; the test file's vi.mock of '@adcp/sdk/server' (serverModule below) records the call
 * instead, and signs webhooks with the test's key. Nothing leaves 127.0.0.1.
 */
import type { Server as HttpServer } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { bootMockServer } from '@adcp/sdk/mock-server';
import type * as SdkServer from '@adcp/sdk/server';
import express from 'express';
import { vi } from 'vitest';

type ServerModule = typeof SdkServer;
type Factory = Parameters<ServerModule['serve']>[0];
type ServeOptions = NonNullable<Parameters<ServerModule['serve']>[1]>;

/** What the examples handed to serve(), and the webhook key their servers sign with. */
export interface Recorder {
  served: Array<{ factory: Factory; options: ServeOptions | undefined }>;
  webhookKey: SdkServer.WebhooksConfig['signerKey'];
}

/**
 * '@adcp/sdk/server' as the examples see it: serve() recorded, not run; every server built with
 * the webhook signer key (the examples configure none), loopback webhook URLs allowed.
 */
export function serverModule(real: ServerModule, recorder: Recorder): ServerModule {
  return {
    ...real,
    serve: ((factory: Factory, options?: ServeOptions) => {
      recorder.served.push({ factory, options });
    }) as ServerModule['serve'],
    createAdcpServerFromPlatform: ((platform: never, config: Record<string, unknown>) =>
      real.createAdcpServerFromPlatform(platform, {
        ...config,
        ...(recorder.webhookKey === undefined ? {} : { webhooks: { signerKey: recorder.webhookKey } }),
        allowPrivateWebhookUrls: true, // the buyer's webhook endpoint is on 127.0.0.1
      } as never)) as unknown as ServerModule['createAdcpServerFromPlatform'],
  };
}

/** A running reference seller: its MCP and A2A endpoints, its bearer token, and how to stop it. */
export interface ReferenceSeller {
  readonly mcpUrl: string;
  readonly a2aUrl: string;
  readonly token: string;
  close(): Promise<void>;
}

/** A free port on 127.0.0.1 (the examples read theirs from the environment when imported). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function listening(server: HttpServer): Promise<void> {
  if (server.listening) return;
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
}

function closeServer(server: HttpServer): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** The SDK's server module itself (the test file's mock of it is serverModule's). */
export async function actualServerModule(): Promise<ServerModule> {
  return (await vi.importActual('@adcp/sdk/server')) as ServerModule;
}

/** An example of the SDK's package (its examples/ are shipped but not exported), as an import path. */
export function example(name: string): string {
  return `../../node_modules/@adcp/sdk/examples/${name}.ts`;
}

/** The bearer token the examples accept (their ADCP_AUTH_TOKEN default). */
const TOKEN = 'sk_harness_do_not_use_in_prod';

/**
 * Starts one example over its mock upstream: the upstream, then the example imported (its serve()
 * recorded), its factory served over MCP and mounted over A2A.
 *
 * @param load - Imports the example (a dynamic import in the test file, so vi.mock applies).
 */
export async function startReferenceSeller(
  real: ServerModule,
  recorder: Recorder,
  specialism: string,
  load: () => Promise<unknown>,
): Promise<ReferenceSeller> {
  const upstream = await bootMockServer({ specialism, port: await freePort() });
  const port = await freePort();
  const saved = { UPSTREAM_URL: process.env.UPSTREAM_URL, PORT: process.env.PORT };
  process.env.UPSTREAM_URL = upstream.url;
  process.env.PORT = String(port);
  const before = recorder.served.length;
  try {
    await load();
  } finally {
    restoreEnv(saved); // the examples read them once, when imported
  }
  const served = recorder.served[before];
  if (served === undefined) throw new Error(`the ${specialism} example did not call serve()`);
  const mcp = real.serve(served.factory, { ...served.options, port, onListening: () => undefined });
  await listening(mcp);
  const a2a = await mountA2a(real, served.factory);
  return {
    mcpUrl: `http://127.0.0.1:${port}/mcp`,
    a2aUrl: a2a.url,
    token: TOKEN,
    close: async () => {
      await Promise.all([closeServer(mcp), closeServer(a2a.server)]);
      await upstream.close();
    },
  };
}

function authorization(req: unknown): unknown {
  const headers = (req as { headers: Headers | Record<string, unknown> }).headers;
  return headers instanceof Headers ? headers.get('authorization') : headers.authorization;
}

function restoreEnv(saved: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

/** The example's server over the SDK's A2A adapter, bearer-authenticated as its MCP endpoint is. */
async function mountA2a(real: ServerModule, factory: Factory): Promise<{ url: string; server: HttpServer }> {
  const app = express();
  const server = app.listen(0, '127.0.0.1');
  await listening(server);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/a2a`;
  const adcp = factory({ taskStore: new real.InMemoryTaskStore(), host: new URL(url).host } as never);
  const adapter = real.createA2AAdapter({
    server: adcp as SdkServer.AdcpServer,
    agentCard: { name: 'reference seller', description: 'the SDK example over A2A', url, version: '1.0.0' },
    // Typed as a web Request, 6.11 hands it the express request: read the header either way.
    authenticate: async (req) =>
      authorization(req) === `Bearer ${TOKEN}` ? { token: TOKEN, clientId: 'compliance-runner', scopes: [] } : null,
    logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  adapter.mount(app);
  return { url, server };
}
