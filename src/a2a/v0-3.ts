/**
 * The @a2a-js/sdk 0.3.x clients (the major @adcp/sdk 6.x depends on) behind callTask: the
 * skill-invoking message in v0.3's form (`kind: 'data'`, role `'user'`), and what the client answers
 * handed to decode as it is (a v0.3 Task or Message, which decode reads as the v0.3 wire form).
 * The legacy `A2AClient` answers a JSON-RPC response object, errors as data; the `Client`
 * (ClientFactory) throws the JSON-RPC error inside an Error's `errorResponse`, which callTask
 * reads as the seller's answer (src/call/classify.ts), as it reads 1.x's. The SDK is never imported.
 */

import type { EncodedRequest } from '../encode/request.js';
import { isObject } from '../json/own.js';
import type { A2aClient } from './call-task.js';
import { type A2aSendRequest, a2aRequest } from './message.js';

/** A v0.3 DataPart. */
export interface A2aV03DataPart {
  kind: 'data';
  data: { [key: string]: unknown };
}

/** The v0.3 `MessageSendParams` callTask sends (the members it sets). */
export interface A2aV03SendParams {
  message: { kind: 'message'; messageId: string; role: 'user'; parts: A2aV03DataPart[]; contextId?: string };
}

/** An @a2a-js/sdk 0.3.x client: its `Client` (ClientFactory) or its legacy `A2AClient`. */
export interface A2aV03Client {
  sendMessage(params: A2aV03SendParams, options?: { signal?: AbortSignal }): Promise<unknown>;
  sendMessageStream(params: A2aV03SendParams, options?: { signal?: AbortSignal }): AsyncIterable<unknown>;
}

/** The v0.3 form of a request a2aRequest built: its DataParts as `kind: 'data'`, an empty context left out. */
function v03Params(request: A2aSendRequest): A2aV03SendParams {
  const message = request.message;
  if (message === undefined) throw new TypeError('a2aV03Client: the request has no message');
  const parts = message.parts.map((part): A2aV03DataPart => {
    const value = part.content.value;
    if (!isObject(value)) throw new TypeError('a2aV03Client: a DataPart must hold an object');
    return { kind: 'data', data: value };
  });
  const sent = { kind: 'message' as const, messageId: message.messageId, role: 'user' as const, parts };
  return { message: message.contextId === '' ? sent : { ...sent, contextId: message.contextId } };
}

/**
 * The v0.3 SendMessageParams that invoke `request.task` with `request.args`, for a 0.3 client of
 * your own: `{ message: { kind: 'message', role: 'user', parts: [{ kind: 'data', data: { skill, input } }] } }`.
 *
 * @param request - What encode() returned.
 * @param contextId - The A2A context to continue, if any.
 * @returns The params to hand to a 0.3 client's `sendMessage` or `sendMessageStream`.
 * @example
 * const answer = await client.sendMessage(a2aV03Request(encode('get_products', { buying_mode: 'brief', brief })));
 */
export function a2aV03Request(request: Pick<EncodedRequest, 'task' | 'args'>, contextId = ''): A2aV03SendParams {
  return v03Params(a2aRequest(request, contextId));
}

/**
 * An @a2a-js/sdk 0.3.x client as callTask, streamTask and safeCallTask take it: each message sent
 * in v0.3's form. What the client throws is classed by the call as 1.x's is: a JSON-RPC error
 * (its `errorResponse`) is the seller's answer, an HTTP refusal a TransportError, an answer it
 * could not read (an id not the request's, an event without `result`) MALFORMED_ENVELOPE.
 *
 * @param client - A 0.3 `Client` (ClientFactory) or `A2AClient`. Give it `boundedFetch()` as its fetch.
 * @returns The client callTask takes.
 * @example
 * const data = await callTask(a2aV03Client(client), 'get_products', { buying_mode: 'brief', brief }, { version: '3.0' });
 */
export function a2aV03Client(client: A2aV03Client): A2aClient {
  return {
    sendMessage: (params, options) => client.sendMessage(v03Params(params), options),
    sendMessageStream: (params, options) => client.sendMessageStream(v03Params(params), options),
  };
}
