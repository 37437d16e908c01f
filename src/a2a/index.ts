/**
 * adcp-decode/a2a: one typed call over the @a2a-js/sdk 1.x client (or a 0.3.x one through a2aV03Client), the message that invokes a
 * task, and a completed stream folded into its final task. Node only (the call's byte bounds
 * reach the bounded fetch through the async context, as adcp-decode/fetch does); the A2A SDK is a
 * peer the caller brings, never imported here.
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
export { type A2aClient, callTask, safeCallTask, streamTask } from './call-task.js';
export { foldA2aStream } from './fold-stream.js';
export { type A2aSdkPart, type A2aSendRequest, a2aRequest } from './message.js';
export { type A2aV03Client, type A2aV03DataPart, type A2aV03SendParams, a2aV03Client, a2aV03Request } from './v0-3.js';
export { waitForTask } from './wait.js';
