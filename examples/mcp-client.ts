/**
 * Ask an AdCP seller agent for products over MCP, and trust only what adcp-decode lets through.
 *
 *   npx tsx examples/mcp-client.ts <seller MCP URL> ["brief"]
 *   npx tsx examples/mcp-client.ts https://seller.example/mcp "Premium CTV in the US, Q3"
 *
 * Exit status: 0 products listed, 1 the seller's answer did not decode, 2 usage.
 * In your own project, import from 'adcp-decode' and 'adcp-decode/fetch' instead of '../src/...'.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { boundedFetch } from '../src/fetch/index.js';
import { DecodeError, decode, formatIssues, TaskFailedError } from '../src/index.js';

const [url, brief = 'Premium video inventory in the US for Q3'] = process.argv.slice(2);
if (url === undefined || !URL.canParse(url)) {
  console.error('usage: tsx examples/mcp-client.ts <seller MCP URL> ["brief"]');
  process.exit(2);
}

const client = new Client({ name: 'adcp-decode-example', version: '1.0.0' });
// boundedFetch caps what the seller can make us read (4 MiB, 60 s) while it arrives.
await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: boundedFetch() }));
try {
  let result: unknown;
  try {
    result = await client.callTool({ name: 'get_products', arguments: { buying_mode: 'brief', brief } });
  } catch (error) {
    // A seller may answer with a JSON-RPC error (McpError) carrying data.adcp_error: decode that too.
    result = error;
  }
  const response = decode('get_products', result);
  if (response.status === 'working' || response.status === 'submitted' || response.status === 'input-required') {
    console.log(`get_products is ${response.status}; poll or wait for the seller's webhook`);
  } else {
    for (const product of response.products ?? []) {
      console.log(`${product.product_id}\t${product.delivery_type}\t${product.name}`);
    }
  }
} catch (error) {
  if (error instanceof TaskFailedError) {
    const retry = error.recovery.retryAfterSeconds === undefined ? '' : `, retry after ${error.recovery.retryAfterSeconds} s`;
    console.error(`seller error ${error.adcpError?.code ?? '(none)'}: ${error.recovery.recovery}${retry}`);
  } else if (error instanceof DecodeError) {
    console.error(`${error.code}: ${error.message}\n${formatIssues(error)}`);
  } else {
    throw error;
  }
  process.exitCode = 1;
} finally {
  await client.close();
}
