/**
 * A seller agent over MCP: the user's `@modelcontextprotocol/sdk` Client over Streamable HTTP with
 * the bounded fetch, its tools listed, each call made with MCP's safeCallTask and recorded.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpClient } from '../mcp/index.js';
import { type Agent, type AgentOptions, type Fetch, MAX_LISTED, MAX_NAME, NotMcp, recorded, requestFailure } from './agent.js';
import { mcpCallNamed } from './named.js';
import { loadMcp, type McpSdk } from './sdk.js';

/** Pages of `tools/list` read at most. */
const MAX_PAGES = 20;

/**
 * Connects over MCP (`initialize`).
 *
 * @param options - Where, how and within which bounds.
 * @param fetch - The bounded fetch every request goes through.
 * @param meter - Where the bytes of answers are counted.
 * @returns The connected agent.
 * @throws {UsageError} The MCP SDK is not installed.
 * @throws {NotMcp} Something answered `initialize`, but not as an MCP server (a refusal, a JSON-RPC error).
 * @throws {DecodeError} A failed connection (`TransportError`), a bound passed.
 * @example
 * const agent = await connectMcp(options, fetch, meter);
 */
export async function connectMcp(options: AgentOptions, fetch: Fetch, meter: { bytes: number }): Promise<Agent> {
  const sdk = await loadMcp(options.sdks);
  const client = new sdk.Client(options.client);
  try {
    await client.connect(new sdk.StreamableHTTPClientTransport(options.url, { fetch }), { timeout: options.timeoutMs });
  } catch (thrown) {
    await client.close().catch(() => undefined);
    const { error, answered } = requestFailure(thrown, 'initialize', '; expected an MCP endpoint (or --transport a2a)');
    // Something answered, but not as an MCP server: with `auto`, the URL may be an A2A agent's.
    throw answered ? new NotMcp(error) : error;
  }
  const timeout = options.timeoutMs;
  return {
    transport: 'mcp',
    list: async () => {
      try {
        return await listTools(client, sdk.ListToolsResultSchema, timeout);
      } catch (thrown) {
        throw requestFailure(thrown, 'tools/list').error;
      }
    },
    call: (what, version) =>
      recorded(what.task, meter, (seen) => {
        const recording: McpClient = {
          callTool: async (params, _schema, callOptions) => seen(() => client.callTool(params, undefined, callOptions)),
        };
        const bounds = { maxBytes: options.maxBytes, timeoutMs: options.timeoutMs, ...(version === undefined ? {} : { version }) };
        return 'version' in what ? mcpCallNamed(recording, what, bounds) : mcpCallNamed(recording, what.task, what.args, bounds);
      }),
    close: () => client.close().catch(() => undefined),
  };
}

/**
 * The tool names, page by page. Through `request`, not `listTools`: listTools makes the client
 * check every later answer against the tool's outputSchema and throw what it refuses as if the
 * seller had sent a JSON-RPC error, where the probe judges the answer itself.
 */
async function listTools(client: Client, schema: McpListSchema, timeout: number): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES && names.length < MAX_LISTED; page++) {
    const listed = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, schema, { timeout });
    for (const tool of listed.tools.slice(0, MAX_LISTED - names.length)) names.push(tool.name.slice(0, MAX_NAME));
    cursor = listed.nextCursor;
    if (cursor === undefined) break;
  }
  return names.slice(0, MAX_LISTED);
}

/** The SDK's schema of a `tools/list` result. */
type McpListSchema = McpSdk['ListToolsResultSchema'];
