/**
 * callTask over A2A: the encoded request as the skill-invoking message (message.ts), sent through
 * the caller's @a2a-js/sdk 1.x client inside the call's bounds, and the answer decoded as the
 * answer to that request: the task `sendMessage` returns, or (streamTask) the task a stream's
 * events fold into. The SDK is never imported: the client is a parameter, typed by what is used.
 */
import { callTaskOver, type Send, safeCallTaskOver } from '../call/run.js';
import type { CallTask } from '../call/types.js';
import { streamFold } from './fold-stream.js';
import { type A2aSendRequest, a2aRequest } from './message.js';

/** The A2A client callTask needs: `sendMessage` and `sendMessageStream` as the @a2a-js/sdk 1.x `Client` has them. */
export interface A2aClient {
  sendMessage(params: A2aSendRequest, options?: { signal?: AbortSignal }): Promise<unknown>;
  sendMessageStream(params: A2aSendRequest, options?: { signal?: AbortSignal }): AsyncIterable<unknown>;
}

/** @internal Shared with waitForTask (wait.ts). */
export function sendOver(client: A2aClient): Send {
  return (request, signal) => client.sendMessage(a2aRequest(request), { signal });
}

/** Each event folded as it arrives (memory is the fold's, not a list of events); a refused one cuts the stream. */
function streamOver(client: A2aClient): Send {
  return async (request, signal) => {
    const fold = streamFold({ task: request.task, version: request.version });
    const cut = new AbortController();
    try {
      const events = client.sendMessageStream(a2aRequest(request), { signal: AbortSignal.any([signal, cut.signal]) });
      for await (const event of events) fold.push(event);
    } catch (error) {
      cut.abort(error);
      throw error;
    }
    return fold.result();
  };
}

/**
 * Calls an AdCP task over A2A, typed in and out: `args` checked and stamped (encode), sent as a
 * DataPart `{ skill, input }` with `client.sendMessage` within the call's deadline and byte bounds,
 * and the task it returns (the SDK's own object) decoded as the answer to that request.
 *
 * @param client - An @a2a-js/sdk 1.x `Client` (ClientFactory). Give it `boundedFetch()`
 *   (adcp-decode/fetch) as its fetch so that bytes are bounded while they arrive.
 * @param task - The AdCP task (the skill), e.g. `'get_products'`.
 * @param args - Its arguments, typed by the task's request schema.
 * @param options - As for the MCP callTask: `version`, the bounds, `timeoutMs` (default 60 s), `signal`, `retry`.
 * @returns The seller's payload, typed as the task's response (narrow the async variants on `status`).
 * @throws {RequestError} `INVALID_REQUEST` for arguments the schema refuses (nothing is sent).
 * @throws {DecodeError} What decode throws for the answer (`TASK_FAILED` for a failed task or the
 *   seller's JSON-RPC error, ...); `MALFORMED_ENVELOPE` for an answer the SDK could not read (an id
 *   not the request's, an event without `result`, a body that is not JSON); {@link LimitError}
 *   `TOO_LARGE` / `TIMEOUT` for a bound passed; `TransportError` for an HTTP refusal (the SDK's
 *   Error carrying the body: shown, escaped, cut) or a failed connection. Your own abort is
 *   rethrown with the signal's reason, as is.
 * @example
 * const response = await callTask(agent, 'get_products', { buying_mode: 'brief', brief: 'CTV, Q3' }, { version: '3.1' });
 */
export const callTask: CallTask<A2aClient> = callTaskOver(sendOver);

/**
 * Like {@link callTask}, but streamed (`sendMessageStream`): the stream's events (`task`,
 * `statusUpdate`, `artifactUpdate`) are folded into the final task as they arrive (as foldA2aStream
 * folds them), which is decoded. The deadline and byte bounds cover the whole stream; an event past
 * the fold's bounds (10,000 events) is refused while streaming, and the stream is cut.
 *
 * @example
 * const response = await streamTask(agent, 'get_products', { buying_mode: 'brief', brief }, { version: '3.1' });
 */
export const streamTask: CallTask<A2aClient> = callTaskOver(streamOver, 'streamTask');

/**
 * Like {@link callTask}, but resolves to `{ success: true, data, version, request }` or
 * `{ success: false, error, request }`; with `stream: true`, as {@link streamTask}.
 *
 * @example
 * const r = await safeCallTask(agent, 'get_products', args, { version: '3.1' });
 */
export const safeCallTask = safeCallTaskOver<A2aClient, { readonly stream?: boolean }>(
  (client, options) => (options?.stream === true ? streamOver(client) : sendOver(client)),
  ['stream'],
);
