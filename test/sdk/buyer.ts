/**
 * The README's buyer, over either transport, against a reference seller: the MCP SDK client, or
 * the @a2a-js/sdk 0.3.x client (the major @adcp/sdk runs on) through a2aV03Client; both with
 * boundedFetch. `raw` is the seller's answer as the client returns it (for decoderFor,
 * decodeTaskStatus); `call` is callTask with version 3.0 (the SDK builds 3.0.x sellers).
 */
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTask as a2aCallTask, a2aV03Client, a2aV03Request } from '../../src/a2a/index.js';
import { boundedFetch } from '../../src/fetch/index.js';
import { callTask as mcpCallTask } from '../../src/mcp/index.js';
import type { ReferenceSeller } from './sellers.js';

export type Transport = 'mcp' | 'a2a';

export interface Buyer {
  raw(task: string, args: Record<string, unknown>): Promise<unknown>;
  call(task: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** A fetch that sends the seller's bearer token, bounded as the README wires it. */
function authedFetch(token: string): typeof fetch {
  const bounded = boundedFetch({
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${token}`);
      return fetch(input, { ...init, headers });
    },
  });
  return bounded as typeof fetch;
}

type Loose = (client: unknown, task: string, args: unknown, options: { version: '3.0' }) => Promise<unknown>;

export async function connectBuyer(seller: ReferenceSeller, transport: Transport): Promise<Buyer> {
  const fetchImpl = authedFetch(seller.token);
  if (transport === 'mcp') {
    const client = new Client({ name: 'adcp-decode-sdk-lane', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(seller.mcpUrl), { fetch: fetchImpl }));
    return {
      raw: (task, args) => client.callTool({ name: task, arguments: args }),
      call: async (task, args) => (await (mcpCallTask as Loose)(client, task, args, { version: '3.0' })) as Record<string, unknown>,
      close: () => client.close(),
    };
  }
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl })] }),
  );
  const client = await factory.createFromUrl(seller.a2aUrl);
  const agent = a2aV03Client(client);
  return {
    raw: (task, args) => client.sendMessage(a2aV03Request({ task, args })),
    call: async (task, args) => (await (a2aCallTask as Loose)(agent, task, args, { version: '3.0' })) as Record<string, unknown>,
    close: async () => undefined,
  };
}
