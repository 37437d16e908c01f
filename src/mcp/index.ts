/**
 * adcp-decode/mcp: one typed call over the official MCP client. Node only (the call's byte bounds
 * reach the bounded fetch through the async context, as adcp-decode/fetch does); the MCP SDK is
 * a peer the caller brings, never imported here.
 */

export { type HttpRefusal, type TransportBlame, TransportError } from '../call/transport-error.js';
export type { CallArgs, Called, CallOptions, CallTaskName, RequestOptions, RetryOptions, SafeCallResult } from '../call/types.js';
export type { WaitForTask, WaitResult } from '../call/wait.js';
export type { WaitClock, WaitOptions, WebhookDelivery } from '../call/wait-options.js';
export type {
  AdcpEvent,
  AdcpEventListener,
  CallBlame,
  CallEvent,
  EventRefusal,
  WaitEvent,
} from '../events/events.js';
export { callTask, type McpClient, safeCallTask } from './call-task.js';
export { waitForTask } from './wait.js';
