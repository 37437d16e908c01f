/**
 * Webhook payload formats (webhooks.mdx, "Payload extraction"): which format a body is, where its
 * AdCP data sits, and whether an MCP body is a valid `core/mcp-webhook-payload.json` envelope.
 * The envelope is checked by hand against the schema's fields; its enums and required fields are
 * generated from the schemas (src/generated/envelope.ts).
 */
import { extractA2aResponse, looksLikeA2a } from '../extract/a2a.js';
import { describeValue } from '../errors/errors.js';
import type { Version } from '../schema/versions.js';
import { WebhookError } from './errors.js';
import { shownText } from '../errors/format.js';
import { TASK_STATUSES } from '../schema/response-types.js';
import { protocolsByVersion, taskTypesByVersion, webhookRequiredByVersion } from '../generated/envelope.js';

/** How a webhook body is framed: the AdCP MCP envelope, or an A2A Task / status update. */
export type WebhookFormat = 'mcp' | 'a2a';

/** The task statuses of `enums/task-status.json` (the same in every bundled version). */
export const WEBHOOK_STATUSES = TASK_STATUSES;

/** A webhook's task status. */
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** `enums/task-type.json` per bundled version: the values an envelope's `task_type` may take. */
export const WEBHOOK_TASK_TYPES = taskTypesByVersion satisfies Record<Version, readonly string[]>;

/** A webhook `task_type` of any bundled version. */
export type WebhookTaskType = (typeof WEBHOOK_TASK_TYPES)[Version][number];

/** `enums/adcp-protocol.json` per bundled version. */
export const WEBHOOK_PROTOCOLS = protocolsByVersion satisfies Record<Version, readonly string[]>;

/** The envelope's `required` list per bundled version. */
export const WEBHOOK_REQUIRED = webhookRequiredByVersion satisfies Record<Version, readonly string[]>;

/** The envelope's string properties and their bounds per version (`[minLength, maxLength, charset]`). */
const STRING_FIELDS: Readonly<Record<Version, Readonly<Record<string, readonly [number, number, RegExp | undefined]>>>> = {
  '3.1.19': {
    idempotency_key: [16, 255, /^[A-Za-z0-9_.:-]*$/],
    notification_id: [1, 255, /^[A-Za-z0-9_.:-]*$/],
    operation_id: [0, Infinity, undefined],
    task_id: [0, Infinity, undefined],
    timestamp: [0, Infinity, undefined],
    message: [0, Infinity, undefined],
    context_id: [0, Infinity, undefined],
    token: [16, 4096, undefined],
  },
  '3.0.26': {
    idempotency_key: [16, 255, /^[A-Za-z0-9_.:-]*$/],
    operation_id: [0, Infinity, undefined],
    task_id: [0, Infinity, undefined],
    timestamp: [0, Infinity, undefined],
    message: [0, Infinity, undefined],
    context_id: [0, Infinity, undefined],
  },
};

/** RFC 3339 `date-time` (JSON Schema `format: date-time`), checked for a real calendar date below. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

const hasOwn = (obj: object, key: string): boolean => Object.hasOwn(obj, key);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Detects a webhook body's format as webhooks.mdx's `detectFormat` does (`status` an object with
 * `state`: A2A; `status` a string and `task_id` present: MCP), and also recognises an A2A 1.0
 * single-key envelope (`{ task: {...} }`, `{ statusUpdate: {...} }`), the form webhooks.mdx shows.
 *
 * @param body - A parsed webhook body.
 * @returns The format, or `null` when the body is neither.
 * @throws Never.
 * @example
 * detectWebhookFormat({ task_id: 't', status: 'completed' }); // 'mcp'
 */
export function detectWebhookFormat(body: unknown): WebhookFormat | null {
  if (!isObject(body)) return null;
  const status = hasOwn(body, 'status') ? body.status : undefined;
  if (isObject(status) && hasOwn(status, 'state') && status.state) return 'a2a';
  if (typeof status === 'string' && hasOwn(body, 'task_id') && body.task_id) return 'mcp';
  if (status === undefined && looksLikeA2a(body)) return 'a2a';
  return null;
}

/**
 * Extracts the AdCP data of a webhook body per webhooks.mdx: MCP takes `result` (`null` when
 * absent or null), A2A runs the A2A extraction (last DataPart of `artifacts[0]` for final states,
 * first DataPart of `status.message` for interim ones).
 *
 * @param body - A parsed webhook body.
 * @param knownFormat - The format the receiver's registration fixed; detected when omitted.
 * @returns The format and the extracted data (`null` when there is none).
 * @throws {WebhookError} `webhook_envelope_invalid` when the format cannot be detected.
 * @throws {DecodeError} `WRAPPER_DETECTED` / `MALFORMED_ENVELOPE` from the A2A extraction.
 * @example
 * extractWebhookPayload({ task_id: 't', status: 'completed', result: { media_buy_id: 'mb_1' } });
 * // { format: 'mcp', data: { media_buy_id: 'mb_1' } }
 */
export function extractWebhookPayload(body: unknown, knownFormat?: WebhookFormat): { format: WebhookFormat; data: unknown } {
  const format = knownFormat ?? detectWebhookFormat(body);
  if (format === null) {
    throw new WebhookError(
      'webhook_envelope_invalid',
      `expected an MCP webhook envelope (string status and task_id) or an A2A Task / status update (status.state); got ${isObject(body) ? 'an object that is neither' : describeValue(body)}`,
    );
  }
  if (format === 'a2a') return { format, data: extractA2aResponse(body) };
  const result = isObject(body) && hasOwn(body, 'result') ? body.result : null;
  return { format, data: result ?? null };
}

/** A validated MCP webhook envelope's fields. */
export interface WebhookEnvelope {
  readonly idempotencyKey: string;
  readonly taskId: string;
  readonly taskType: WebhookTaskType;
  readonly operationId: string | undefined;
  readonly status: WebhookStatus;
  readonly timestamp: string;
}

function fieldError(reason: string, path: string): WebhookError {
  return new WebhookError('webhook_envelope_invalid', reason, { path });
}

function shownString(value: string): string {
  return `"${shownText(value, 40)}"`;
}

function isDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (m === null) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Leap seconds (60) are valid RFC 3339; an out-of-range day is not.
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day && hour < 24 && minute < 60 && second <= 60;
}

/**
 * Validates an MCP webhook body against `core/mcp-webhook-payload.json` of `version` (every
 * field the schema types except `result`, which the caller decodes by `task_type` and `status`).
 *
 * @param body - The parsed body.
 * @param version - The bundled version whose envelope applies.
 * @returns The envelope's fields.
 * @throws {WebhookError} `webhook_envelope_invalid`, with `path` naming the field.
 * @example
 * validateWebhookEnvelope(JSON.parse(raw), '3.1.19').taskType; // 'create_media_buy'
 */
export function validateWebhookEnvelope(body: unknown, version: Version): WebhookEnvelope {
  if (!isObject(body)) throw fieldError(`expected a webhook envelope object; got ${describeValue(body)}`, '');
  const missing = WEBHOOK_REQUIRED[version].filter((key) => !hasOwn(body, key));
  if (missing.length > 0) {
    // A body with none of the envelope's identity fields is a bare result posted as the body.
    const bare = !hasOwn(body, 'task_id') && !hasOwn(body, 'status') && !hasOwn(body, 'task_type');
    const what = bare ? 'a bare task result, not a webhook envelope' : `an envelope without ${missing.join(', ')}`;
    throw fieldError(
      `expected the AdCP ${version} webhook envelope (${WEBHOOK_REQUIRED[version].join(', ')}); got ${what}`,
      `/${missing[0] ?? ''}`,
    );
  }
  for (const [key, [min, max, charset]] of Object.entries(STRING_FIELDS[version])) {
    if (!hasOwn(body, key)) continue;
    const value = body[key];
    if (typeof value !== 'string') throw fieldError(`expected ${key} to be a string; got ${describeValue(value)}`, `/${key}`);
    if (value.length < min || value.length > max || (charset !== undefined && !charset.test(value))) {
      const bounds = max === Infinity ? `at least ${min}` : `${min}-${max}`;
      throw fieldError(
        `expected ${key} of ${bounds} characters${charset === undefined ? '' : ' from [A-Za-z0-9_.:-]'}; got ${describeValue(value)}`,
        `/${key}`,
      );
    }
  }
  const { status, task_type: taskType, timestamp } = body;
  if (!(WEBHOOK_STATUSES as readonly unknown[]).includes(status)) {
    throw fieldError(
      `expected status to be a task status (${WEBHOOK_STATUSES.join(', ')}); got ${typeof status === 'string' ? shownString(status) : describeValue(status)}`,
      '/status',
    );
  }
  if (!(WEBHOOK_TASK_TYPES[version] as readonly unknown[]).includes(taskType)) {
    throw fieldError(
      `expected task_type to be an AdCP ${version} task type; got ${typeof taskType === 'string' ? shownString(taskType) : describeValue(taskType)}`,
      '/task_type',
    );
  }
  if (hasOwn(body, 'protocol') && !(WEBHOOK_PROTOCOLS[version] as readonly unknown[]).includes(body.protocol)) {
    throw fieldError(`expected protocol to be an AdCP ${version} protocol; got ${describeValue(body.protocol)}`, '/protocol');
  }
  if (typeof timestamp !== 'string' || !isDateTime(timestamp))
    throw fieldError(`expected timestamp to be an RFC 3339 date-time; got ${describeValue(timestamp)}`, '/timestamp');
  const result = hasOwn(body, 'result') ? body.result : undefined;
  if (result !== undefined && !isObject(result))
    throw fieldError(`expected result to be an object; got ${describeValue(result)}`, '/result');
  return {
    idempotencyKey: body.idempotency_key as string,
    taskId: body.task_id as string,
    taskType: taskType as WebhookTaskType,
    operationId: typeof body.operation_id === 'string' ? body.operation_id : undefined,
    status: status as WebhookStatus,
    timestamp,
  };
}
