/**
 * The official clients the command line talks through, imported from where the user installed
 * them: `@modelcontextprotocol/sdk` for MCP, `@a2a-js/sdk` (1.x, or 0.3.x through a2aV03Client)
 * for A2A. Both are optional peer dependencies of adcp-decode: one that is not installed is a
 * usage error naming the install command, raised only when its transport is used.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { isObject, own } from '../json/own.js';
import { UsageError } from './usage.js';

/** The MCP SDK's client, its Streamable HTTP transport, and the schema of a `tools/list` result. */
export interface McpSdk {
  readonly Client: typeof Client;
  readonly StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  readonly ListToolsResultSchema: typeof ListToolsResultSchema;
}

/** The fetch the A2A SDK is given, with the v0.3 compatibility switch 1.x reads (0.3.x ignores it). */
interface A2aFactoryOptions {
  readonly fetchImpl: typeof fetch;
  readonly legacyCompat: { readonly enabled: boolean };
}

/** The parts of `@a2a-js/sdk/client` used, as 1.x and 0.3.x both have them. */
export interface A2aSdk {
  readonly ClientFactory: new (options: {
    transports: unknown[];
    cardResolver: unknown;
  }) => { createFromAgentCard(card: unknown): Promise<unknown> };
  readonly JsonRpcTransportFactory: new (options: A2aFactoryOptions) => unknown;
  readonly RestTransportFactory: new (options: A2aFactoryOptions) => unknown;
  readonly DefaultAgentCardResolver: new (options: A2aFactoryOptions) => unknown;
  /** 0.3.x's legacy client, which 1.x dropped: its presence says which major's messages to send. */
  readonly A2AClient?: unknown;
}

/** How the SDKs are imported: the bin imports the user's; a test may hand in another major, or none. */
export interface SdkImports {
  readonly mcp: () => Promise<McpSdk>;
  readonly a2a: () => Promise<unknown>;
}

/** The user's installed SDKs, imported on first use. */
export const INSTALLED: SdkImports = {
  mcp: async () => {
    const [client, transport, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    return {
      Client: client.Client,
      StreamableHTTPClientTransport: transport.StreamableHTTPClientTransport,
      ListToolsResultSchema: types.ListToolsResultSchema,
    };
  },
  a2a: () => import('@a2a-js/sdk/client'),
};

/** Module-resolution failures: the package (or the subpath used) is not installed. */
const NOT_INSTALLED: ReadonlySet<unknown> = new Set(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND', 'ERR_PACKAGE_PATH_NOT_EXPORTED']);

function notInstalled(error: unknown): boolean {
  return error instanceof Error && NOT_INSTALLED.has(own(error, 'code'));
}

function missing(pkg: string, transport: string): UsageError {
  return new UsageError(`talking ${transport} needs ${pkg}, which is not installed; run npm install ${pkg}`);
}

/**
 * The MCP SDK, or a usage error when it is not installed.
 *
 * @param imports - Where the SDKs come from.
 * @returns Its Client and Streamable HTTP transport.
 * @throws {UsageError} `@modelcontextprotocol/sdk` is not installed.
 * @example
 * const { Client } = await loadMcp(INSTALLED);
 */
export async function loadMcp(imports: SdkImports): Promise<McpSdk> {
  try {
    return await imports.mcp();
  } catch (error) {
    if (notInstalled(error)) throw missing('@modelcontextprotocol/sdk', 'MCP');
    throw error;
  }
}

/** Whether a module has the A2A client parts, each a class. */
function isA2aSdk(module: unknown): module is A2aSdk {
  return (
    isObject(module) &&
    ['ClientFactory', 'JsonRpcTransportFactory', 'RestTransportFactory', 'DefaultAgentCardResolver'].every(
      (name) => typeof own(module, name) === 'function',
    )
  );
}

/**
 * The A2A SDK's client module, or a usage error when it is not installed or lacks its client.
 *
 * @param imports - Where the SDKs come from.
 * @returns Its client parts.
 * @throws {UsageError} `@a2a-js/sdk` is not installed, or is no version with ClientFactory.
 * @example
 * const sdk = await loadA2a(INSTALLED);
 */
export async function loadA2a(imports: SdkImports): Promise<A2aSdk> {
  let module: unknown;
  try {
    module = await imports.a2a();
  } catch (error) {
    if (notInstalled(error)) throw missing('@a2a-js/sdk', 'A2A');
    throw error;
  }
  if (!isA2aSdk(module)) throw new UsageError('the installed @a2a-js/sdk has no ClientFactory; run npm install @a2a-js/sdk@^1.3.0');
  return module;
}
