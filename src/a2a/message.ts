/**
 * The A2A message that invokes an AdCP task (a2a-guide, "explicit skill invocation"; the A2A
 * examples of a2a-response-format.mdx and webhooks.mdx): one DataPart `{ skill, input }`, the skill
 * named by the task (3.0's poll `tasks/get`: `tasks_get`, poll-method.ts) and `input` the encoded arguments, as the @a2a-js/sdk 1.x client takes it
 * (its in-memory form: `content.$case`, numeric role), which it sends as A2A 1.0 ProtoJSON.
 */

import { wireName } from '../call/poll-method.js';
import type { EncodedRequest } from '../encode/request.js';

/** The SDK's Role.ROLE_USER. */
const ROLE_USER = 1;

/** A DataPart as the @a2a-js/sdk 1.x client takes it. */
export interface A2aSdkPart {
  content: { $case: 'data'; value: unknown };
  metadata: { [key: string]: unknown } | undefined;
  filename: string;
  mediaType: string;
}

/** A `SendMessageRequest` as the @a2a-js/sdk 1.x client takes it (the members callTask sets). */
export interface A2aSendRequest {
  tenant: string;
  message:
    | {
        messageId: string;
        contextId: string;
        taskId: string;
        role: number;
        parts: A2aSdkPart[];
        metadata: { [key: string]: unknown } | undefined;
        extensions: string[];
        referenceTaskIds: string[];
      }
    | undefined;
  configuration: undefined;
  metadata: { [key: string]: unknown } | undefined;
}

/**
 * The SendMessageRequest that invokes `request.task` with `request.args`: a user message whose one
 * DataPart is `{ skill: task, input: args }`, with a fresh `messageId`.
 *
 * @param request - What encode() returned.
 * @param contextId - The A2A context to continue, if any.
 * @returns The request to hand to `client.sendMessage` or `client.sendMessageStream`.
 * @example
 * await agent.sendMessage(a2aRequest(encode('get_products', { buying_mode: 'brief', brief })));
 */
export function a2aRequest(request: Pick<EncodedRequest, 'task' | 'args'>, contextId = ''): A2aSendRequest {
  return {
    tenant: '',
    message: {
      messageId: crypto.randomUUID(),
      contextId,
      taskId: '',
      role: ROLE_USER,
      parts: [
        {
          content: { $case: 'data', value: { skill: wireName(request.task), input: request.args } },
          metadata: undefined,
          filename: '',
          mediaType: 'application/json',
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  };
}
