/**
 * adcp-decode/a2a: one typed call over the @a2a-js/sdk 1.x client (or a 0.3.x one through a2aV03Client), the message that invokes a
 * task, and a completed stream folded into its final task. Node only (the call's byte bounds
 * reach the bounded fetch through the async context, as adcp-decode/fetch does); the A2A SDK is a
 * peer the caller brings, never imported here.
 */

// The transport error, the call's and the wait's types and the events, as every call entry exports them.
export * from '../call/entry.js';
export { type A2aClient, callTask, safeCallTask, streamTask } from './call-task.js';
export { foldA2aStream } from './fold-stream.js';
export { type A2aSdkPart, type A2aSendRequest, a2aRequest } from './message.js';
export { type A2aV03Client, type A2aV03DataPart, type A2aV03SendParams, a2aV03Client, a2aV03Request } from './v0-3.js';
export { waitForTask } from './wait.js';
