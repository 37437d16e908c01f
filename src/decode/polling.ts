/**
 * Typed polling: a `get_task_status` answer (3.1; the protocol-namespace alias of `tasks/get`)
 * or a 3.0 `tasks/get` response, with its `result` decoded by `task_type` and `status` exactly
 * as a webhook's result is, and a failed task's `error` raised as TaskFailedError.
 */
import { decode, decodeEnclosed, type DecodeOptions } from './decode.js';
import { DecodeError, describeValue } from '../errors/errors.js';
import { tasksGetRequiredByVersion } from '../generated/envelope.js';
import { defaultVersion, resolveVersion, type Version } from '../schema/versions.js';
import { WEBHOOK_STATUSES, WEBHOOK_TASK_TYPES, type WebhookStatus, type WebhookTaskType } from '../webhooks/envelope.js';
import type { WebhookData } from '../webhooks/decode-webhook.js';

/** A polled task of one task type. */
export interface PolledTaskOf<K extends WebhookTaskType> {
  readonly taskId: string;
  readonly taskType: K;
  readonly status: WebhookStatus;
  /** The result typed by task type; `null` when the response carried none (not final, or `include_result` false). */
  readonly data: WebhookData<K> | null;
  /** The status response itself (progress, timestamps, history), as sent. */
  readonly response: Readonly<Record<string, unknown>>;
  readonly version: Version;
}

/** A polled task: a union discriminated by `taskType`, so narrowing it types `data`. */
export type PolledTask = { [K in WebhookTaskType]: PolledTaskOf<K> }[WebhookTaskType];

const hasOwn = (obj: object, key: string): boolean => Object.hasOwn(obj, key);
const FAILED: readonly string[] = ['failed', 'rejected', 'canceled'];

/** 3.0's core/tasks-get-response.json `required` (3.0 has no decode task for it, so it is checked here). */
const TASKS_GET_REQUIRED = tasksGetRequiredByVersion['3.0.26'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The 3.0 `tasks/get` response: a bare object or a JSON-RPC success around one, checked by hand. */
function tasksGet30(input: unknown): Record<string, unknown> {
  const response = isObject(input) && input.jsonrpc === '2.0' && hasOwn(input, 'result') ? input.result : input;
  if (!isObject(response))
    throw new DecodeError('MALFORMED_ENVELOPE', `expected a tasks/get response object; got ${describeValue(response)}`, {
      task: 'tasks/get',
      version: '3.0.26',
    });
  for (const key of TASKS_GET_REQUIRED) {
    if (!hasOwn(response, key) || (key !== 'status' && key !== 'task_type' && typeof response[key] !== 'string')) {
      throw new DecodeError(
        'MALFORMED_ENVELOPE',
        `expected a tasks/get response with ${TASKS_GET_REQUIRED.join(', ')}; ${key} is ${hasOwn(response, key) ? describeValue(response[key]) : 'missing'}`,
        {
          task: 'tasks/get',
          version: '3.0.26',
          path: `/${key}`,
        },
      );
    }
  }
  return response;
}

/**
 * Decodes a task-status poll and its result.
 *
 * @param input - For 3.1: what `get_task_status` returned (MCP result, A2A task, or bare payload,
 *   as for decode). For 3.0: the `tasks/get` response (bare, or its JSON-RPC success).
 * @param options - decode's options; `version` picks 3.1 (`get_task_status`) or 3.0 (`tasks/get`).
 * @returns The task's id, type, status and typed result; narrow on `taskType` to type `data`.
 * @throws {TaskFailedError} For a failed, rejected or canceled task (its `error`, or the result's `adcp_error`).
 * @throws {DecodeError} As decode() throws for the status response and for the result.
 * @example
 * const task = decodeTaskStatus(await client.callTool({ name: 'get_task_status', arguments: { task_id, include_result: true } }));
 * if (task.taskType === 'create_media_buy' && task.status === 'completed') use(task.data);
 */
export function decodeTaskStatus(input: unknown, options?: DecodeOptions): PolledTask {
  const requested = options?.version;
  const version = requested === undefined || requested === 'auto' ? defaultVersion : resolveVersion(requested);
  const response = (version === '3.0.26' ? tasksGet30(input) : decode('get_task_status', input, { ...options, version })) as Record<
    string,
    unknown
  >;
  const what = version === '3.0.26' ? 'tasks/get' : 'get_task_status';
  const { task_id: taskId, task_type: taskType, status } = response;
  if (!(WEBHOOK_TASK_TYPES[version] as readonly unknown[]).includes(taskType)) {
    throw new DecodeError('MALFORMED_ENVELOPE', `expected task_type to be an AdCP ${version} task type; got ${describeValue(taskType)}`, {
      task: what,
      version,
      path: '/task_type',
    });
  }
  if (!(WEBHOOK_STATUSES as readonly unknown[]).includes(status)) {
    throw new DecodeError('MALFORMED_ENVELOPE', `expected status to be a task status; got ${describeValue(status)}`, {
      task: what,
      version,
      path: '/status',
    });
  }
  const type = taskType as WebhookTaskType;
  const task = (type === 'media_buy_delivery' ? 'get_media_buy_delivery' : type) as Parameters<typeof decode>[0];
  const result = hasOwn(response, 'result') ? response.result : undefined;
  if (result !== undefined && !isObject(result))
    throw new DecodeError('SCHEMA_MISMATCH', `expected ${what} result to be an object; got ${describeValue(result)}`, {
      task: what,
      version,
      path: '/result',
    });
  // A failed task's status response describes the failure in `error` (the spec: "for failed tasks,
  // use the error field"); it is classified as decode() classifies an adcp_error.
  const enclosed =
    result === undefined && FAILED.includes(status as string) && hasOwn(response, 'error') ? { adcp_error: response.error } : result;
  let data: unknown = null;
  if (enclosed !== undefined || FAILED.includes(status as string)) {
    data = decodeEnclosed(
      task,
      enclosed as Record<string, unknown> | undefined,
      { status: status as string, what: `${what} result` },
      { ...options, version },
    ).data;
  }
  return { taskId: taskId as string, taskType: type, status: status as WebhookStatus, data, response, version } as PolledTask;
}
