/**
 * Webhook payload formats (webhooks.mdx, "Payload extraction"): which format a body is, where its
 * AdCP data sits, and whether an MCP body is a valid `core/mcp-webhook-payload.json` envelope,
 * judged by the envelope module generated from that schema (scripts/generate/envelopes.ts).
 */
import { DEFAULT_BOUNDS } from '../bounds/bounds.js';
import { snapshot } from '../bounds/snapshot.js';
import { TASK_TYPES, type TaskType } from '../decode/enclosed.js';
import { envelopeFault } from '../decode/envelope-check.js';
import { describeValue } from '../errors/errors.js';
import { WebhookError } from '../errors/webhook-error.js';
import { extractA2aResponse, looksLikeA2a } from '../extract/a2a.js';
import { protocolsByVersion, webhookRequiredByVersion } from '../generated/envelope.js';
import { isObject, own } from '../json/own.js';
import { releaseFor } from '../schema/releases.js';
import { TASK_STATUSES, type TaskStatus } from '../schema/statuses.js';
import type { Version } from '../schema/versions.js';

/** How a webhook body is framed: the AdCP MCP envelope, or an A2A Task / status update. */
export type WebhookFormat = 'mcp' | 'a2a';

/** The task statuses of `enums/task-status.json` (the same in every bundled version). */
export const WEBHOOK_STATUSES = TASK_STATUSES;

/** A webhook's task status. */
export type WebhookStatus = TaskStatus;

/** `enums/task-type.json` per bundled version: the values an envelope's `task_type` may take. */
export const WEBHOOK_TASK_TYPES = TASK_TYPES;

/** A webhook `task_type` of any bundled version. */
export type WebhookTaskType = TaskType;

/** `enums/adcp-protocol.json` per bundled version. */
export const WEBHOOK_PROTOCOLS = protocolsByVersion satisfies Record<Version, readonly string[]>;

/** The envelope's `required` list per bundled version. */
export const WEBHOOK_REQUIRED = webhookRequiredByVersion satisfies Record<Version, readonly string[]>;

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
  try {
    if (!isObject(body)) return null;
    const status = own(body, 'status');
    if (isObject(status) && own(status, 'state')) return 'a2a';
    if (typeof status === 'string' && own(body, 'task_id')) return 'mcp';
    if (status === undefined && looksLikeA2a(body)) return 'a2a';
    return null;
  } catch {
    return null; // a getter or Proxy trap that throws: not a body of either format
  }
}

/**
 * Extracts the AdCP data of a webhook body per webhooks.mdx: MCP takes `result` (`null` when
 * absent or null), A2A runs the A2A extraction (last DataPart of `artifacts[0]` for final states,
 * first DataPart of `status.message` for interim ones).
 *
 * @param body - A parsed webhook body.
 * @param knownFormat - The format the receiver's registration fixed; detected when omitted.
 * @returns The format and the extracted data (`null` when there is none): a plain copy, never the caller's object.
 * @throws {WebhookError} `webhook_envelope_invalid` when the format cannot be detected.
 * @throws {DecodeError} `WRAPPER_DETECTED` / `MALFORMED_ENVELOPE` from the A2A extraction; the
 *   bounds' and snapshot's errors (`TOO_LARGE`, `UNSAFE_JSON`, `MALFORMED_ENVELOPE`) for the body.
 * @example
 * extractWebhookPayload({ task_id: 't', status: 'completed', result: { media_buy_id: 'mb_1' } });
 * // { format: 'mcp', data: { media_buy_id: 'mb_1' } }
 */
export function extractWebhookPayload(body: unknown, knownFormat?: WebhookFormat): { format: WebhookFormat; data: unknown } {
  body = plainBody(body);
  const format = knownFormat ?? detectWebhookFormat(body);
  if (format === null) {
    throw new WebhookError(
      'webhook_envelope_invalid',
      `expected an MCP webhook envelope (string status and task_id) or an A2A Task / status update (status.state); got ${isObject(body) ? 'an object that is neither' : describeValue(body)}`,
    );
  }
  if (format === 'a2a') return { format, data: extractA2aResponse(body) };
  const result = isObject(body) ? own(body, 'result') : null;
  return { format, data: result ?? null };
}

/** A caller's body read once into a plain, bounded copy (a getter or Proxy that throws is the caller's MALFORMED_ENVELOPE). */
function plainBody(body: unknown): unknown {
  return snapshot(body, DEFAULT_BOUNDS, { what: 'webhook body' });
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

/**
 * Validates an MCP webhook body against `core/mcp-webhook-payload.json` of `version` (every
 * field the schema types; `result` only as an object, the caller decodes it by `task_type` and
 * `status`), on a plain copy of the body.
 *
 * @param body - The parsed body.
 * @param version - The bundled version whose envelope applies.
 * @returns The envelope's fields.
 * @throws {WebhookError} `webhook_envelope_invalid`, with `path` naming the field.
 * @throws {DecodeError} The snapshot's errors for a body that is not plain JSON data or is out of the default bounds.
 * @example
 * validateWebhookEnvelope(JSON.parse(raw), '3.1.19').taskType; // 'create_media_buy'
 */
export function validateWebhookEnvelope(body: unknown, version: Version): WebhookEnvelope {
  return checkWebhookEnvelope(plainBody(body), version);
}

/**
 * {@link validateWebhookEnvelope} on a body that is already a plain copy (a snapshot or our parse).
 * @internal Used by decodeWebhook and the receiver.
 */
export function checkWebhookEnvelope(body: unknown, version: Version): WebhookEnvelope {
  if (!isObject(body)) throw fieldError(`expected a webhook envelope object; got ${describeValue(body)}`, '');
  const fault = envelopeFault(version, releaseFor(version).envelope.webhookEnvelope, body);
  if (fault !== undefined) throw envelopeError(body, version, fault.path, fault.reason, fault.issue.keyword === 'required');
  // The schema just checked the types of these members.
  return {
    idempotencyKey: body.idempotency_key as string,
    taskId: body.task_id as string,
    taskType: body.task_type as WebhookTaskType,
    operationId: typeof body.operation_id === 'string' ? body.operation_id : undefined,
    status: body.status as WebhookStatus,
    timestamp: body.timestamp as string,
  };
}

function fieldError(reason: string, path: string): WebhookError {
  return new WebhookError('webhook_envelope_invalid', reason, { path });
}

/** The envelope's first fault; a missing member says which required ones are missing, and whether the body is a bare result. */
function envelopeError(body: Record<string, unknown>, version: Version, path: string, reason: string, missing: boolean): WebhookError {
  if (!missing) return fieldError(`expected the AdCP ${version} webhook envelope; ${reason}`, path);
  const required = releaseFor(version).envelope.webhookRequired;
  const absent = required.filter((key) => own(body, key) === undefined);
  // A body with none of the envelope's identity fields is a bare result posted as the body.
  const bare = own(body, 'task_id') === undefined && own(body, 'status') === undefined && own(body, 'task_type') === undefined;
  const what = bare ? 'a bare task result, not a webhook envelope' : `an envelope without ${absent.join(', ')}`;
  return fieldError(`expected the AdCP ${version} webhook envelope (${required.join(', ')}); got ${what}`, path);
}
