/**
 * callTask over MCP: the encoded request as a `tools/call` through the caller's MCP client (the
 * official @modelcontextprotocol/sdk `Client`, or anything with its `callTool`), inside the call's
 * bounds, and the result decoded as the answer to that request. The SDK is never imported: the
 * client is a parameter, typed by the one method used.
 */

import { wireName } from '../call/poll-method.js';
import { callTaskOver, type Send, safeCallTaskOver } from '../call/run.js';
import type { CallTask, SafeCallTask } from '../call/types.js';
import type { EncodedRequest } from '../encode/request.js';

/**
 * The MCP client callTask needs: `callTool` as the official SDK's `Client` has it (1.x), with the
 * SDK's own request options (`signal`, `timeout`).
 */
export interface McpClient {
  callTool(
    params: { name: string; arguments?: { readonly [key: string]: unknown } },
    resultSchema?: undefined,
    options?: { signal?: AbortSignal; timeout?: number },
  ): Promise<unknown>;
}

/** @internal Shared with waitForTask (wait.ts). */
export function sendOver(client: McpClient): Send {
  return (request: EncodedRequest, signal, timeout) =>
    client.callTool({ name: wireName(request.task), arguments: request.args }, undefined, { signal, timeout });
}

/**
 * Calls an AdCP task over MCP, typed in and out: encoded, sent with `client.callTool` within the call's bounds, decoded as its answer.
 * What a client throws, the retries and the deadline: docs/calling.md, "callTask", and docs/robustness.md, "The call layer".
 *
 * @param client - A connected MCP `Client`, its transport given `boundedFetch()` so that bytes are bounded while they arrive.
 * @param task - The AdCP task, e.g. `'get_products'` (or, alone, what encode() returned: `callTask(client, request, options?)`).
 * @param args - Its arguments, typed by the task's request schema.
 * @param options - decode's options (its bounds bound the request too), `timeoutMs` (60 s, the whole call), `signal`, `retry`.
 * @returns The seller's payload, typed as the task's response.
 * @throws {RequestError} `INVALID_REQUEST` for arguments the schema refuses (nothing is sent).
 * @throws {DecodeError} What decode throws for the answer; `MALFORMED_ENVELOPE` for a body the SDK could not read;
 *   {@link LimitError} `TOO_LARGE` / `TIMEOUT` for a bound passed; `TransportError` for an HTTP refusal or a failed
 *   connection. Your own abort is rethrown with its reason, as is.
 * @example
 * const response = await callTask(client, 'get_products', { buying_mode: 'brief', brief: 'CTV, Q3' }, { version: '3.1' });
 * if (isFinal(response)) use(response.products);
 */
export const callTask: CallTask<McpClient> = callTaskOver(sendOver);

/**
 * Like {@link callTask}, but resolves to `{ success: true, data, version, request }` or
 * `{ success: false, error, request }` (the request sent, whatever the end; a failed connection
 * included); it rejects only with your abort's reason and what the client throws that it cannot class.
 *
 * @example
 * const r = await safeCallTask(client, 'create_media_buy', plan, { version: '3.1' });
 * if (!r.success) log(r.error.code); else if (r.data.status === 'submitted') track(r.request, r.data.task_id);
 */
export const safeCallTask: SafeCallTask<McpClient> = safeCallTaskOver(sendOver);
