/**
 * decodeWebhook(): a webhook body (already authenticated, or from a test) into its envelope
 * fields and its `result` decoded exactly as decode() decodes that task's answer. The body is
 * bounded first and read once: a caller's object into a plain snapshot, a text measured before
 * anything scans it.
 */
import { type Bounds, withinBounds } from '../bounds/bounds.js';
import { checkTree } from '../bounds/check-tree.js';
import { snapshot } from '../bounds/snapshot.js';
import { type DecodeOptions, decodeResolved, type VersionFor } from '../decode/decode.js';
import { decodeEnclosed, isTaskType, type ResultData, resultTask, type TaskType, type TaskTypeIn } from '../decode/enclosed.js';
import { guard } from '../decode/failures.js';
import { correlate, readHandle, type TaskHandle, type TaskHandleFields } from '../decode/task-handle.js';
import type { Pinning, VersionOption } from '../decode/types.js';
import { DecodeError, describeValue, SchemaMismatchError, TaskFailedError } from '../errors/errors.js';
import { optionError, unreadableOption } from '../errors/option-rules.js';
import { WebhookError } from '../errors/webhook-error.js';
import { classifyA2aState, locateA2aPayload, unwrapA2aEnvelope } from '../extract/a2a.js';
import type { ParsedShape } from '../extract/mcp.js';
import { isObject, own } from '../json/own.js';
import { DECODE_OPTION_KEYS, type Resolved, resolveOptions } from '../options/resolve-options.js';
import { isPin } from '../schema/releases.js';
import { isFailedStatus } from '../schema/statuses.js';
import { knownVersions, resolveAnnouncedVersion, type Version, versionOrDefault } from '../schema/versions.js';
import { bodyText, bodyTooLarge, parseWebhookBody } from './body/body.js';
import { checkWebhookEnvelope, detectWebhookFormat, type WebhookFormat, type WebhookStatus, type WebhookTaskType } from './envelope.js';
import { type WebhookFailure, WebhookTaskFailedError } from './errors.js';

/** What a webhook of task type `K` carries as `data` in version(s) `V` (default: any bundled). */
export type WebhookData<K extends WebhookTaskType, V extends Version = Version> = ResultData<K, V>;

/** The webhook task types of version `V`. */
export type WebhookTaskTypeIn<V extends Version> = TaskTypeIn<V>;

/** Options of {@link decodeWebhook} (and of the receiver's decoding). */
export interface DecodeWebhookOptions<V extends VersionOption | undefined = VersionOption | undefined>
  extends Omit<DecodeOptions<V>, 'transport'> {
  /** The format the registration fixed (`push_notification_config` → `'mcp'`; A2A push config → `'a2a'`); detected when omitted. */
  readonly format?: WebhookFormat | undefined;
  /**
   * The task type this webhook route was registered for. Required for A2A bodies (they do not name
   * their task); for MCP bodies, an envelope naming another task type is refused.
   */
  readonly taskType?: WebhookTaskType | undefined;
  /**
   * The handle of the task this webhook is for (taskHandle(), or its stored fields): an MCP
   * envelope naming another `task_type`, `task_id` or `operation_id` (an A2A body's payload
   * another `task_id`) is refused (`TASK_MISMATCH`); the handle's version judges the body and its
   * task is the task type.
   */
  readonly handle?: TaskHandleFields | undefined;
}

/** What decodeWebhook returns given a handle of type `H`: the webhook typed by the handle's task and version. */
export type DecodedWebhookFor<H> = H extends { readonly task: infer K; readonly version: infer V }
  ? { [P in K & WebhookTaskType]: DecodedWebhookOf<P, V extends Version ? V : Version> }[K & WebhookTaskType]
  : DecodedWebhook;

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
  /** The earlier GA patch of `version`'s release whose schema accepted the result where `version`'s refused it (as safeDecode's `patch`). */
  readonly patch?: string;
}

/**
 * A decoded webhook: a union discriminated by `taskType` (and `version`), so narrowing it types
 * `data`. `V` is the version the `version` option pins (`'3.0'` → `'3.0.26'`); without one, any.
 */
export type DecodedWebhook<V extends Version = Version> = {
  [W in V]: { [K in WebhookTaskTypeIn<W>]: DecodedWebhookOf<K, W> }[WebhookTaskTypeIn<W>];
}[V];

/** One webhook decode's options, each read once and checked. */
export interface WebhookCall {
  readonly format: WebhookFormat | undefined;
  readonly taskType: TaskType | undefined;
  readonly options: Resolved;
  /** The version the body is judged by: the handle's, else the requested one, else the default. */
  readonly version: Version;
  readonly handle: TaskHandle | undefined;
}

/** The options decodeWebhook takes, by name: decode's but `transport` (the format is the webhook's), and its own three. */
export const DECODE_WEBHOOK_OPTION_KEYS = [
  ...DECODE_OPTION_KEYS.filter((key) => key !== 'transport'),
  'format',
  'taskType',
  'handle',
] as const satisfies readonly (keyof DecodeWebhookOptions)[];

/**
 * decode()'s options resolved and the webhook's own read once, at the edge that took them
 * (decodeWebhook, or the receiver at its creation).
 *
 * @param options - The options as given.
 * @param who - The edge.
 * @param known - Every option name the edge takes.
 * @returns The call.
 * @throws {DecodeError} `INVALID_OPTION`, `UNSUPPORTED_VERSION`.
 * @example
 * const call = readCall(options, 'decodeWebhook', DECODE_WEBHOOK_OPTION_KEYS);
 */
export function readCall(options: unknown, who: string, known: readonly string[]): WebhookCall {
  const resolved = resolveOptions(options, { who }, { known });
  let format: unknown;
  let taskType: unknown;
  let handleValue: unknown;
  try {
    ({ format, taskType, handle: handleValue } = (options ?? {}) as DecodeWebhookOptions);
  } catch (cause) {
    throw unreadableOption(who, 'format, taskType or handle', cause);
  }
  const handle = handleValue === undefined ? undefined : readHandle(handleValue, 'handle', { who });
  if (format !== undefined && format !== 'mcp' && format !== 'a2a') throw optionError(who, 'format', "'mcp' or 'a2a'", format);
  const version = versionOrDefault(resolved.version);
  if (taskType !== undefined && !isTaskType(taskType, version))
    throw optionError(who, 'taskType', `an AdCP ${version} task type`, taskType);
  const call: WebhookCall = { format, taskType: taskType as TaskType | undefined, options: resolved, version, handle: undefined };
  return handle === undefined ? call : forHandle(call, handle, who);
}

/**
 * A call for one task's handle: judged by the handle's version, routed to its task.
 *
 * @param call - The call as the edge resolved it.
 * @param handle - The task's handle.
 * @param who - The edge, for the errors.
 * @returns The call with the handle.
 * @throws {DecodeError} `INVALID_OPTION` for a version or task type the handle contradicts.
 * @example
 * const one = forHandle(settings.decode, handle, 'createWebhookReceiver');
 */
export function forHandle(call: WebhookCall, handle: TaskHandle, who: string): WebhookCall {
  const version = handle.version as Version;
  if (call.options.version !== 'auto' && call.options.version !== version)
    throw optionError(who, 'version', `left out or the handle's ${version}`, call.options.version);
  if (call.taskType !== undefined && call.taskType !== handle.task)
    throw optionError(who, 'taskType', `left out or the handle's ${handle.task}`, call.taskType);
  const routed = isTaskType(handle.task, version) ? handle.task : call.taskType;
  return { ...call, taskType: routed, version, handle };
}

/**
 * The body within the bounds, as a plain value: a caller's object read once into a snapshot (its
 * getters and traps are the caller's MALFORMED_ENVELOPE), our own parse walked only when its
 * measured shape is out of bounds.
 */
function boundedBody(body: unknown, shape: ParsedShape | undefined, bounds: Bounds): unknown {
  if (shape === undefined) return snapshot(body, bounds, { what: 'webhook body' });
  if (!withinBounds(shape, bounds)) checkTree(body, bounds, { what: 'webhook body' });
  return body;
}

/**
 * Decodes a parsed body. `shape` is set when our own parser produced it.
 * @internal Shared by decodeWebhook and the receiver.
 */
export function decodeWebhookValue(
  body: unknown,
  call: WebhookCall,
  shape: ParsedShape | undefined,
  signer?: WebhookFailure['signer'],
): DecodedWebhook {
  const copy = boundedBody(body, shape, call.options);
  const format = call.format ?? detectWebhookFormat(copy);
  if (format === 'a2a') return decodeA2a(copy, call, signer);
  if (format !== 'mcp') {
    throw new WebhookError(
      'webhook_envelope_invalid',
      `expected an MCP webhook envelope (string status and task_id) or an A2A Task / status update; got ${describeValue(copy)}`,
    );
  }
  return decodeMcp(copy, call, signer);
}

/**
 * An MCP delivery judged by the release it is in: the pinned one (the `version` option, the
 * handle's), else the one its result announces, else the first known release whose envelope and
 * result accept it (the envelope announces none; a 3.0 envelope has no `operation_id`, which 3.1's requires).
 */
function decodeMcp(copy: unknown, call: WebhookCall, signer: WebhookFailure['signer']): DecodedWebhook {
  if (call.handle !== undefined || call.options.version !== 'auto') return decodeMcpIn(copy, call, call.version, signer);
  const announced = announcedRelease(isObject(copy) ? own(copy, 'result') : undefined, call);
  if (announced !== undefined) return decodeMcpIn(copy, call, announced, signer);
  return firstAccepting(call, (version) => decodeMcpIn(copy, call, version, signer));
}

/**
 * The known release a delivery's result announces (its `adcp_version`), which alone judges it, as
 * it judges an answer (versioning.mdx: validate against the release served). A well-formed release
 * this process has not loaded is RELEASE_NOT_LOADED, the buyer's to load (the receiver answers 500,
 * so the sender retries). `undefined` when the result announces no pin (the schemas judge a malformed one).
 */
function announcedRelease(result: unknown, call: WebhookCall): Version | undefined {
  const announced = isObject(result) ? own(result, 'adcp_version') : undefined;
  if (!isPin(announced)) return undefined;
  return resolveAnnouncedVersion(announced, { newerRelease: call.options.newerRelease, context: { task: call.taskType } }).version;
}

/**
 * A delivery announcing no release, pinned to none: the first known release, the default first,
 * that accepts it. Only a schema's refusal tries the next (at most one try per known release);
 * anything else, the task's reported failure included, is the answer. Refused by every release:
 * the error of the first release whose envelope accepted it (its result is at fault), else the default's.
 */
function firstAccepting(call: WebhookCall, decodeIn: (version: Version) => DecodedWebhook): DecodedWebhook {
  let refused: { error: unknown; inResult: boolean } | undefined;
  for (const version of [call.version, ...knownVersions().filter((v) => v !== call.version)]) {
    try {
      return decodeIn(version);
    } catch (error) {
      const inEnvelope = error instanceof WebhookError && error.webhookCode === 'webhook_envelope_invalid';
      if (!inEnvelope && !(error instanceof SchemaMismatchError)) throw error;
      if (refused === undefined || (!inEnvelope && !refused.inResult)) refused = { error, inResult: !inEnvelope };
    }
  }
  throw refused?.error;
}

/** An MCP envelope judged by `version`'s generated module, then its `result` decoded by task type and status. */
function decodeMcpIn(copy: unknown, call: WebhookCall, version: Version, signer: WebhookFailure['signer']): DecodedWebhook {
  const envelope = checkWebhookEnvelope(copy, version);
  if (call.handle !== undefined) correlate(call.handle, envelope, 'webhook');
  if (call.taskType !== undefined && call.taskType !== envelope.taskType) {
    throw new WebhookError(
      'webhook_envelope_invalid',
      `expected a ${call.taskType} webhook on this route; the envelope names ${envelope.taskType}`,
      { path: '/task_type' },
    );
  }
  // The envelope module checked that a present result is an object.
  const result = isObject(copy) ? (own(copy, 'result') as Record<string, unknown> | undefined) : undefined;
  const { taskType, taskId, operationId, idempotencyKey, status } = envelope;
  // What the webhook says of itself: reported on success and on failure alike.
  const about = { format: 'mcp', taskType, taskId, operationId, idempotencyKey, status } as const;
  let data: unknown = null;
  let patch: string | undefined;
  // webhooks.mdx, "Status-specific result data": completed and failed carry the task response; the others may carry none.
  if (result !== undefined || status === 'completed' || isFailedStatus(status)) {
    try {
      ({ data, patch } = decodeEnclosed(taskType, result, { status, what: 'webhook result' }, { ...call.options, version }));
    } catch (error) {
      if (!(error instanceof TaskFailedError)) throw error;
      throw new WebhookTaskFailedError(error, { ...about, signer });
    }
  }
  return { ...about, data, version, ...(patch === undefined ? {} : { patch }) } as DecodedWebhook;
}

/** An A2A Task or status update, decoded as decode() decodes an A2A answer of the registered task type. */
function decodeA2a(copy: unknown, call: WebhookCall, signer: WebhookFailure['signer']): DecodedWebhook {
  const expected = call.taskType;
  if (expected === undefined) {
    throw new DecodeError(
      'INVALID_OPTION',
      'option taskType is required for A2A webhook bodies, which do not name their task; pass the task type the push registration was made for',
    );
  }
  if (call.handle !== undefined || call.options.version !== 'auto') return decodeA2aIn(copy, call, call.version, signer);
  const location = locateA2aPayload(copy);
  const announced = announcedRelease(location.kind === 'payload' ? location.value : undefined, call);
  if (announced !== undefined) return decodeA2aIn(copy, call, announced, signer);
  return firstAccepting(call, (version) => decodeA2aIn(copy, call, version, signer));
}

/** An A2A body decoded by `version`, as decode() decodes an A2A answer of the registered task type. */
function decodeA2aIn(copy: unknown, call: WebhookCall, version: Version, signer: WebhookFailure['signer']): DecodedWebhook {
  const expected = call.taskType as TaskType;
  const unwrapped = unwrapA2aEnvelope(copy);
  const task = unwrapped.kind === 'object' ? unwrapped.value : undefined;
  const taskStatus = task === undefined ? undefined : own(task, 'status');
  const state = isObject(taskStatus) ? classifyA2aState(own(taskStatus, 'state')) : null;
  const id = task === undefined ? undefined : (own(task, 'id') ?? own(task, 'taskId'));
  const status = (state?.state ?? 'unknown') as WebhookStatus;
  // What the webhook says of itself: reported on success and on failure alike.
  const about = {
    format: 'a2a',
    taskType: expected,
    taskId: typeof id === 'string' ? id : undefined,
    operationId: undefined,
    idempotencyKey: undefined,
    status,
  } as const;
  // An interim update without a DataPart carries no data (webhooks.mdx: progress "may" be included).
  const location = locateA2aPayload(copy);
  if (state?.final === false && location.kind === 'none' && location.reason === 'no-data-part')
    return { ...about, data: null, version } as DecodedWebhook;
  try {
    const outcome = decodeResolved(
      expected,
      copy,
      { ...call.options, version, transport: 'a2a' },
      { validators: resultTask(expected, version) },
    );
    if (outcome instanceof DecodeError) throw outcome;
    const data: unknown = outcome.data;
    // The A2A Task id is the transport's, not the AdCP task_id (a2a-response-format.mdx); the payload's own is compared.
    if (call.handle !== undefined && isObject(data))
      correlate(call.handle, { taskType: expected, taskId: own(data, 'task_id') }, 'webhook');
    return { ...about, data, version } as DecodedWebhook;
  } catch (error) {
    if (error instanceof TaskFailedError) throw new WebhookTaskFailedError(error, { ...about, signer });
    throw error;
  }
}

/**
 * Decodes a webhook body that arrived by other means (already verified, or a test): detects the
 * format (webhooks.mdx), validates the MCP envelope (`core/mcp-webhook-payload.json`) or runs the
 * A2A extraction, then decodes the result exactly as decode() would for the task type and status.
 * Raw text or bytes get the receiver's body checks (UTF-8, duplicate keys, prototype keys, bounds).
 *
 * @param body - The raw body (string or bytes), or an already-parsed object.
 * @param options - Format, expected task type, version and decode's bounds. A `version`
 *   (`'3.0'`, `'3.1.19'`) judges the body by that version only and types `data` by it alone; a
 *   `handle` (the task's) does the same with its version and task, and refuses another task's webhook.
 * @returns The envelope's fields and the typed result; narrow on `taskType` to type `data`.
 * @throws {WebhookError} `webhook_envelope_invalid`, `webhook_body_malformed`.
 * @throws {TaskMismatchError} With `handle`: `TASK_MISMATCH` for a webhook naming another task (`path`).
 * @throws {DecodeError} As decode() throws for the result (`SCHEMA_MISMATCH`, `TASK_FAILED`, ...).
 * @example
 * const hook = decodeWebhook(rawBody, { format: 'mcp' });
 * if (hook.taskType === 'create_media_buy' && hook.status === 'completed') use(hook.data);
 */
export function decodeWebhook<const H extends TaskHandleFields>(
  body: string | Uint8Array | Record<string, unknown>,
  options: DecodeWebhookOptions & { readonly handle: H },
): DecodedWebhookFor<H>;
export function decodeWebhook<const V extends VersionOption | undefined = undefined>(
  body: string | Uint8Array | Record<string, unknown>,
  options?: DecodeWebhookOptions<V>,
): DecodedWebhook<VersionFor<Pinning<V>>>;
export function decodeWebhook(body: string | Uint8Array | Record<string, unknown>, options?: DecodeWebhookOptions): DecodedWebhook {
  let decoded: DecodedWebhook;
  try {
    decoded = decodeBody(body, options);
  } catch (error) {
    // Only our own DecodeErrors leave: a caller's getter or Proxy is its MALFORMED_ENVELOPE, anything else our INTERNAL.
    throw guard(error, undefined, body);
  }
  return decoded;
}

function decodeBody(body: unknown, options: DecodeWebhookOptions | undefined): DecodedWebhook {
  const call = readCall(options, 'decodeWebhook', DECODE_WEBHOOK_OPTION_KEYS);
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) return decodeWebhookValue(body, call, undefined);
  const bounds = call.options;
  // Bounds first: bytes over maxBytes are refused before they are decoded or scanned.
  if (typeof body !== 'string' && body.byteLength > bounds.maxBytes) throw bodyTooLarge(body.byteLength, true, bounds.maxBytes);
  const parsed = parseWebhookBody(typeof body === 'string' ? body : bodyText(body), bounds);
  return decodeWebhookValue(parsed.value, call, parsed.shape);
}
