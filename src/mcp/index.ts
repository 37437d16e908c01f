/**
 * adcp-decode/mcp: one typed call over the official MCP client. Node only (the call's byte bounds
 * reach the bounded fetch through the async context, as adcp-decode/fetch does); the MCP SDK is
 * a peer the caller brings, never imported here.
 */

// The transport error, the call's and the wait's types and the events, as every call entry exports them.
export * from '../call/entry.js';
export { callTask, type McpClient, safeCallTask } from './call-task.js';
export { waitForTask } from './wait.js';
