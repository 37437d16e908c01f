/**
 * decodeWebhook(): a webhook body (already authenticated, or from a test) into its envelope
 * fields and its `result` decoded exactly as decode() decodes that task's answer.
 */
import { DEFAULT_BOUNDS, type Bounds } from '../bounds/bounds.js';
import { decode, decodeEnclosed, type DecodeOptions, type ResponseIn, type VersionFor } from '../decode/decode.js';
import { resolveOptions } from '../decode/resolve-options.js';
import { DecodeError, describeValue } from '../errors/errors.js';
import type { ParsedShape } from '../extract/mcp.js';
import { classifyA2aState, unwrapA2aEnvelope } from '../extract/a2a.js';
import { defaultVersion, resolveVersion, type Version } from '../schema/versions.js';
import { bodyText, parseWebhookBody } from './body/body.js';
import {
  detectWebhookFormat,
  validateWebhookEnvelope,
  WEBHOOK_TASK_TYPES,
  type WebhookFormat,
  type WebhookStatus,
  type WebhookTaskType,
} from './envelope.js';
import { WebhookError, WebhookTaskFailedError, type WebhookFailure } from './errors.js';
import { TaskFailedError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';

/**
 * The decode task whose response schema checks a webhook `result` of a task type: the same name,
 * except `media_buy_delivery` (reporting webhooks), whose result is `get_media_buy_delivery`'s
 * response without the API-only `aggregated_totals`.
 */
export type WebhookResultTask<K extends string> = K extends 'media_buy_delivery' ? 'get_media_buy_delivery' : K;

/** What a webhook of task type `K` carries as `data` in version(s) `V` (default: any bundled). */
export type WebhookData<K extends WebhookTaskType, V extends Version = Version> = ResponseIn<WebhookResultTask<K>, V>;

/** The webhook task types of version `V`. */
export type WebhookTaskTypeIn<V extends Version> = (typeof WEBHOOK_TASK_TYPES)[V][number];

/** Options of {@link decodeWebhook} (and of the receiver's decoding). */
export interface DecodeWebhookOptions extends Omit<DecodeOptions, 'transport'> {
  /** The format the registration fixed (`push_notification_config` → `'mcp'`; A2A push config → `'a2a'`); detected when omitted. */
  readonly format?: WebhookFormat | undefined;
  /**
   * The task type this webhook route was registered for. Required for A2A bodies (they do not name
   * their task); for MCP bodies, an envelope naming another task type is refused.
   */
  readonly taskType?: WebhookTaskType | undefined;
}

/** A decoded webhook of one task type, judged by version(s) `V`. */
export interface DecodedWebhookOf<K extends WebhookTaskType, V extends Version = Version> {
  readonly format: WebhookFormat;
  readonly taskType: K;
  readonly taskId: string | undefined;
  readonly operationId: string | undefined;
  /** The envelope's `idempotency_key` (MCP); `undefined` for A2A bodies, which carry none. */
  readonly idempotencyKey: string | undefined;
  readonly status: WebhookStatus;
  /** The result typed by task type; `null` when a non-final status carried no result. */
  readonly data: WebhookData<K, V> | null;
  /** The AdCP version whose schemas judged the body. */
  readonly version: V;
}

/**
 * A decoded webhook: a union discriminated by `taskType` (and `version`), so narrowing it types
 * `data`. `V` is the version the `version` option pins (`'3.0'` → `'3.0.26'`); without one, any.
 */
export type DecodedWebhook<V extends Version = Version> = {
  [W in V]: { [K in WebhookTaskTypeIn<W>]: DecodedWebhookOf<K, W> }[WebhookTaskTypeIn<W>];
}[V];

const hasOwn = (obj: object, key: string): boolean => Object.hasOwn(obj, key);

/** Statuses whose webhook carries no result necessarily (webhooks.mdx, "Status-specific result data"). */
const RESULT_OPTIONAL: readonly string[] = ['working', 'submitted', 'input-required', 'auth-required', 'unknown'];

function isTaskType(value: unknown, version: Version): value is WebhookTaskType {
  return (WEBHOOK_TASK_TYPES[version] as readonly unknown[]).includes(value);
}

/** The version an envelope is judged by: the requested one, else the default. */
function envelopeVersion(options: DecodeWebhookOptions | undefined): Version {
  const requested = options?.version;
  return requested === undefined || requested === 'auto' ? defaultVersion : resolveVersion(requested);
}

/**
 * Decodes a parsed body. `shape` is set when our own parser produced it.
 * @internal Shared by decodeWebhook and the receiver.
 */
export function decodeWebhookValue(
  body: unknown,
  options: DecodeWebhookOptions | undefined,
  shape: ParsedShape | undefined,
  signer?: WebhookFailure['signer'],
): DecodedWebhook {
  const format = options?.format ?? detectWebhookFormat(body);
  const expected = options?.taskType;
  const decodeOptions: DecodeOptions = { ...stripWebhookOptions(options) };
  if (format === 'a2a') return decodeA2a(body, expected, decodeOptions, signer);
  if (format !== 'mcp') {
    throw new WebhookError(
      'webhook_envelope_invalid',
      `expected an MCP webhook envelope (string status and task_id) or an A2A Task / status update; got ${describeValue(body)}`,
    );
  }
  const version = envelopeVersion(options);
  const envelope = validateWebhookEnvelope(body, version);
  if (expected !== undefined && expected !== envelope.taskType) {
    throw new WebhookError(
      'webhook_envelope_invalid',
      `expected a ${expected} webhook on this route; the envelope names ${envelope.taskType}`,
      { path: '/task_type' },
    );
  }
  const record = body as Record<string, unknown>;
  const result = hasOwn(record, 'result') ? (record.result as Record<string, unknown>) : undefined;
  const task = resultTask(envelope.taskType);
  const { taskType, taskId, operationId, idempotencyKey, status } = envelope;
  // What the webhook says of itself: reported on success and on failure alike.
  const about = { format: 'mcp', taskType, taskId, operationId, idempotencyKey, status } as const;
  let data: unknown = null;
  if (result !== undefined || !RESULT_OPTIONAL.includes(status)) {
    try {
      data = decodeEnclosed(task, result, { status, what: 'webhook result', shape }, { ...decodeOptions, version }).data;
    } catch (error) {
      if (!(error instanceof TaskFailedError)) throw error;
      throw new WebhookTaskFailedError(error, { ...about, signer });
    }
  }
  return { ...about, data, version } as DecodedWebhook;
}

function resultTask(taskType: WebhookTaskType): Parameters<typeof decode>[0] {
  return (taskType === 'media_buy_delivery' ? 'get_media_buy_delivery' : taskType) as Parameters<typeof decode>[0];
}

function stripWebhookOptions(options: DecodeWebhookOptions | undefined): DecodeOptions {
  if (options === undefined) return {};
  const { format: _format, taskType: _taskType, ...rest } = options;
  return rest;
}

function decodeA2a(
  body: unknown,
  expected: WebhookTaskType | undefined,
  options: DecodeOptions,
  signer: WebhookFailure['signer'],
): DecodedWebhook {
  if (expected === undefined) {
    throw new DecodeError(
      'INVALID_OPTION',
      'option taskType is required for A2A webhook bodies, which do not name their task; pass the task type the push registration was made for',
    );
  }
  const unwrapped = unwrapA2aEnvelope(body);
  const task = unwrapped.kind === 'object' ? unwrapped.value : undefined;
  const state =
    task !== undefined && typeof task.status === 'object' && task.status !== null
      ? classifyA2aState((task.status as Record<string, unknown>).state)
      : null;
  const version = options.version === undefined || options.version === 'auto' ? defaultVersion : resolveVersion(options.version);
  if (!isTaskType(expected, version))
    throw new DecodeError('INVALID_OPTION', `option taskType "${shownText(String(expected), 40)}" is not an AdCP ${version} task type`);
  let data: unknown = null;
  const interim = state !== null && !state.final;
  const taskId =
    task !== undefined && typeof task.id === 'string'
      ? task.id
      : task !== undefined && typeof task.taskId === 'string'
        ? task.taskId
        : undefined;
  const status = (state?.state ?? 'unknown') as WebhookStatus;
  // What the webhook says of itself: reported on success and on failure alike.
  const about = { format: 'a2a', taskType: expected, taskId, operationId: undefined, idempotencyKey: undefined, status } as const;
  try {
    data = decode(resultTask(expected), body, { ...options, transport: 'a2a' });
  } catch (error) {
    if (error instanceof TaskFailedError) throw new WebhookTaskFailedError(error, { ...about, signer });
    // An interim update without a DataPart carries no data (webhooks.mdx: progress "may" be included).
    if (!(interim && error instanceof DecodeError && error.code === 'NO_PAYLOAD')) throw error;
  }
  return { ...about, data, version } as DecodedWebhook;
}

/**
 * Decodes a webhook body that arrived by other means (already verified, or a test): detects the
 * format (webhooks.mdx), validates the MCP envelope (`core/mcp-webhook-payload.json`) or runs the
 * A2A extraction, then decodes the result exactly as decode() would for the task type and status.
 * Raw text or bytes get the receiver's body checks (UTF-8, duplicate keys, prototype keys, bounds).
 *
 * @param body - The raw body (string or bytes), or an already-parsed object.
 * @param options - Format, expected task type, version and decode's bounds. A `version`
 *   (`'3.0'`, `'3.1.19'`) judges the body by that version only and types `data` by it alone.
 * @returns The envelope's fields and the typed result; narrow on `taskType` to type `data`.
 * @throws {WebhookError} `webhook_envelope_invalid`, `webhook_body_malformed`.
 * @throws {DecodeError} As decode() throws for the result (`SCHEMA_MISMATCH`, `TASK_FAILED`, ...).
 * @example
 * const hook = decodeWebhook(rawBody, { format: 'mcp' });
 * if (hook.taskType === 'create_media_buy' && hook.status === 'completed') use(hook.data);
 */
export function decodeWebhook<O extends DecodeWebhookOptions = DecodeWebhookOptions>(
  body: string | Uint8Array | Record<string, unknown>,
  options?: O,
): DecodedWebhook<VersionFor<O>> {
  let decoded: DecodedWebhook;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const bounds: Bounds = boundsOf(options);
    const text = typeof body === 'string' ? body : bodyText(body);
    const parsed = parseWebhookBody(text, bounds);
    decoded = decodeWebhookValue(parsed.value, options, parsed.shape);
  } else {
    decoded = decodeWebhookValue(body, options, undefined);
  }
  // The version option fixed the schemas that judged the body, so `decoded.version` is in VersionFor<O>.
  return decoded as DecodedWebhook<VersionFor<O>>;
}

/** decode()'s bounds as the options set them (checked the same way). */
export function boundsOf(options: DecodeWebhookOptions | undefined): Bounds {
  if (options === undefined) return DEFAULT_BOUNDS;
  const resolved = resolveOptions(undefined, stripWebhookOptions(options));
  return { maxBytes: resolved.maxBytes, maxDepth: resolved.maxDepth, maxNodes: resolved.maxNodes };
}
