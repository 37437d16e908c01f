/**
 * What the call entries (`adcp-decode/mcp`, `adcp-decode/a2a`) both export, once: the transport
 * error, the call's and the wait's types, and the events they tell. Each entry adds its own client.
 */

export type { AdcpEvent, AdcpEventListener, CallBlame, CallEvent, EventRefusal, WaitEvent } from '../events/events.js';
export { type HttpRefusal, type TransportBlame, TransportError } from './transport-error.js';
export type { CallArgs, Called, CallOptions, CallTaskName, RequestOptions, RetryOptions, SafeCallResult } from './types.js';
export type { WaitForTask, WaitResult } from './wait.js';
export type { WaitClock, WaitOptions, WebhookDelivery } from './wait-options.js';
