/**
 * createWebhookReceiver(): the whole receiving side in the spec's order. Size (413), body deadline
 * (408) and content type (415) before anything is hashed; then the RFC 9421 webhook verifier
 * checklist, or the legacy HMAC scheme when (and only when) a secret was configured; then
 * duplicate keys and the bounded, prototype-safe parse; then the envelope and the result, decoded
 * as decode() would; then, when configured, the `idempotency_key` dedup. A delivery, a delivered
 * failure of the task and a completed duplicate are outcomes it resolves; what it throws is a
 * refusal, typed and blamed: only a fault of the delivery is answered 4xx (see `webhookResponse`).
 */
import type { VersionFor } from '../decode/decode.js';
import { type TaskHandle, type TaskHandleFields, tieOf } from '../decode/task-handle.js';
import type { Pinning, VersionOption } from '../decode/types.js';
import { DecodeError, describeThrown, TaskMismatchError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { WebhookError } from '../errors/webhook-error.js';
import { tell } from '../events/tell.js';
import { isObject, own } from '../json/own.js';
import type { Version } from '../schema/versions.js';
import { claimDelivery } from '../signatures/replay/dedup-claim.js';
import type { DedupClaim } from '../signatures/types.js';
import { verifyLegacyHmac } from '../signatures/verify/hmac.js';
import type { KeyResolver } from '../signatures/verify/keys.js';
import { verifyWebhookSignature, type WebhookSigner } from '../signatures/verify/verify.js';
import { bodyText, parseWebhookBody } from './body/body.js';
import { checkContentType, type IncomingWebhook, type ReadRequest, readWebhookRequest } from './body/request.js';
import { type DecodedWebhook, decodeWebhookValue, forHandle } from './decode-webhook.js';
import { createDeliveryHub, type DeliveryHub } from './deliveries.js';
import { checkWebhookEnvelope, detectWebhookFormat } from './envelope.js';
import { type WebhookFailure, WebhookTaskFailedError } from './errors.js';
import { receivedEvent, refusedEvent, type Seen } from './receiver-events.js';
import { type ReceiverSettings, receiverSettings, type WebhookReceiverOptions } from './receiver-options.js';

/** Who signed a received webhook: an RFC 9421 key, or the legacy HMAC secret. */
export type ReceivedSigner =
  | WebhookSigner
  | { readonly keyid: 'hmac-current' | 'hmac-previous'; readonly alg: 'hmac-sha256'; readonly agent: string };

/** A received, verified, decoded webhook (judged by version(s) `V`): narrow on `taskType` to type `data`. */
export type ReceivedWebhook<V extends Version = Version> = DecodedWebhook<V> & {
  readonly kind: 'delivered';
  readonly signer: ReceivedSigner;
  /**
   * With the `dedup` option, this delivery's claim on its `idempotency_key`: `complete()` it once
   * the side effects are durable, before answering 2xx; `release()` it when they failed. Absent
   * without the option, and for A2A bodies (they carry no `idempotency_key`).
   */
  readonly dedup: DedupClaim | undefined;
  /** With the `handles` option, the handle of the task this delivery was correlated to; absent without it. */
  readonly handle: TaskHandle | undefined;
};

/** The envelope fields of a delivery, as it says them of itself. */
type Envelope = Pick<WebhookFailure, 'format' | 'taskType' | 'taskId' | 'operationId' | 'idempotencyKey' | 'status'>;

/**
 * A verified webhook reporting that its task failed (`adcp_error`, or status `failed` /
 * `rejected` / `canceled`): delivered intact, so record it and answer 2xx.
 */
export interface ReceivedTaskFailure extends Envelope {
  readonly kind: 'task-failed';
  /** The task's failure: `adcpError`, `recovery`, `known`, `sellerText`, and `.webhook`, the envelope and signer. */
  readonly error: WebhookTaskFailedError;
  readonly signer: ReceivedSigner;
  /**
   * With `dedup`, this delivery's claim on its `idempotency_key`: a delivered failure is recorded
   * once too. `complete()` it once the failure is recorded, `release()` if recording it failed.
   */
  readonly dedup: DedupClaim | undefined;
  /** With the `handles` option, the handle of the task this delivery was correlated to. */
  readonly handle: TaskHandle | undefined;
}

/**
 * With `dedup`: a delivery whose `(signer agent, idempotency_key)` was already processed with
 * the same payload (a seller's retry). Answer 2xx and process nothing: it carries no data.
 */
export interface ReceivedDuplicate extends Envelope {
  readonly kind: 'duplicate';
  /** The key of the delivery it repeats (scoped to `signer.agent`). */
  readonly idempotencyKey: string;
  readonly signer: ReceivedSigner;
  /** With the `handles` option, the handle of the task this delivery was correlated to. */
  readonly handle: TaskHandle | undefined;
}

/** What `receive()` resolves: narrow on `kind` (`delivered`, `task-failed`, `duplicate`). */
export type WebhookOutcome<V extends Version = Version> = ReceivedWebhook<V> | ReceivedTaskFailure | ReceivedDuplicate;

/** A configured receiver, whose webhooks are judged by version(s) `V`. */
export interface WebhookReceiver<V extends Version = Version> {
  /**
   * Verifies and decodes one webhook request.
   *
   * @returns The outcome: `delivered` (the typed result), `task-failed` (a verified webhook
   *   reporting a failed task) or, with `dedup`, `duplicate` (already processed); each is answered 2xx.
   * @throws {WebhookError} The refusal, with `webhookCode`, `httpStatus` and `blame` (see `webhookResponse`).
   * @throws {DecodeError} A verified webhook whose result does not decode (`SCHEMA_MISMATCH`, ...),
   *   or `INTERNAL` for a defect on our side. Nothing else: every throw is typed and blamed.
   */
  receive(request: IncomingWebhook): Promise<WebhookOutcome<V>>;
  /**
   * The outcomes this receiver resolves for one task, for waitForTask's `webhooks`: those tied to
   * the handle (signed by its `agent`, naming its `task_id` or `operation_id`), the recent ones it
   * kept first (option `recent`), then each as it comes; `return()` (the wait's end) closes it.
   *
   * @param handle - The task's handle; it must record its `agent`.
   * @returns The outcomes, in order.
   * @throws {DecodeError} `INVALID_OPTION` for a handle that is not one or records no agent.
   * @example
   * const result = await waitForTask(client, handle, { webhooks: receiver.deliveries(handle) });
   */
  deliveries(handle: TaskHandleFields): AsyncIterableIterator<WebhookOutcome<V>>;
}

/** Anything but a DecodeError escaping `receive()` is a defect on our side: INTERNAL, never the sender's. */
function typed(error: unknown): unknown {
  let detail = describeThrown(error);
  try {
    if (error instanceof DecodeError) return error;
    if (error instanceof Error) detail = `${detail}: ${shownText(String(error.message), 160)}`;
  } catch {
    // A thrown Proxy or a throwing getter: the class alone is said.
  }
  return new DecodeError(
    'INTERNAL',
    `the webhook receiver failed on its own side (${detail}); a defect of adcp-decode or of the runtime's WebCrypto: please report it`,
    {
      cause: error,
    },
  );
}

/** Steps 1-13: the RFC 9421 checklist, or the legacy HMAC scheme when configured. */
async function authenticate(settings: ReceiverSettings, read: ReadRequest): Promise<ReceivedSigner> {
  const signed9421 = read.headers.has('signature-input') || read.headers.has('signature');
  const signedHmac = read.headers.has('x-adcp-signature') || read.headers.has('x-adcp-timestamp');
  const { hmac, now, subtle } = settings;
  if (hmac !== undefined) {
    if (signed9421)
      throw new WebhookError(
        'webhook_mode_mismatch',
        'this registration uses the legacy HMAC scheme; the webhook carries an RFC 9421 signature',
      );
    if (!signedHmac)
      throw new WebhookError(
        'webhook_signature_required',
        'expected X-ADCP-Signature and X-ADCP-Timestamp (legacy HMAC registration); got neither',
      );
    const which = await verifyLegacyHmac(read.headers, read.body, { secrets: hmac.secrets, now, subtle });
    return { keyid: which === 0 ? 'hmac-current' : 'hmac-previous', alg: 'hmac-sha256', agent: hmac.agent };
  }
  if (signedHmac && !signed9421)
    throw new WebhookError(
      'webhook_mode_mismatch',
      'this registration uses RFC 9421 signatures; the webhook carries the legacy HMAC headers',
    );
  return verifyWebhookSignature(read, {
    keys: settings.keys as KeyResolver,
    replayStore: settings.replayStore,
    revocation: settings.revocation,
    replayScope: settings.replayScope,
    ...settings.signature,
    now,
    subtle,
  });
}

/**
 * One delivery through every step; the dedup claim (when configured) comes last, on a decoded
 * payload. With a listener, `seen` learns the body's size and the verified sender as they are known.
 */
async function receiveOne(
  settings: ReceiverSettings,
  request: IncomingWebhook,
  hub: DeliveryHub<WebhookOutcome>,
  seen?: Seen,
): Promise<WebhookOutcome> {
  const read = await readWebhookRequest(request, settings.body);
  if (seen !== undefined) seen.bytes = read.body.byteLength;
  const outcome = await outcomeOf(settings, read, seen);
  hub.publish(outcome, read.body.byteLength);
  return outcome;
}

/** A read request's outcome: verified, parsed, decoded and claimed. */
async function outcomeOf(settings: ReceiverSettings, read: ReadRequest, seen: Seen | undefined): Promise<WebhookOutcome> {
  checkContentType(read.headers);
  const signer = await authenticate(settings, read);
  if (seen !== undefined) seen.agent = signer.agent;
  // Step 14 (duplicate keys) and the secure parse run only on an authenticated body.
  const parsed = parseWebhookBody(bodyText(read.body), settings.bounds);
  const { dedup } = settings;
  const handle = settings.handles === undefined ? undefined : await handleOf(settings, parsed.value, signer.agent);
  const call = handle === undefined ? settings.decode : forHandle(settings.decode, handle, 'createWebhookReceiver');
  let decoded: DecodedWebhook | WebhookTaskFailedError;
  try {
    decoded = decodeWebhookValue(parsed.value, call, parsed.shape, signer);
  } catch (error) {
    // A delivered failure is an outcome, not a refusal: it is claimed and resolved like a delivery.
    if (!(error instanceof WebhookTaskFailedError)) throw error;
    decoded = error;
  }
  const about: Envelope = decoded instanceof WebhookTaskFailedError ? decoded.webhook : decoded;
  const { format, taskType, taskId, operationId, idempotencyKey, status } = about;
  let claim: DedupClaim | undefined;
  if (dedup !== undefined && idempotencyKey !== undefined) {
    const claimed = await claimDelivery(dedup, signer.agent, idempotencyKey, parsed.value);
    // Already processed: said as such, with nothing to process again (no data, no claim).
    if (claimed === 'duplicate')
      return { kind: 'duplicate', format, taskType, taskId, operationId, idempotencyKey, status, signer, handle };
    claim = claimed;
  }
  if (decoded instanceof WebhookTaskFailedError)
    return {
      kind: 'task-failed',
      format,
      taskType,
      taskId,
      operationId,
      idempotencyKey,
      status,
      error: decoded,
      signer,
      dedup: claim,
      handle,
    };
  return { kind: 'delivered', ...decoded, signer, dedup: claim, handle };
}

/**
 * The handle of the task a delivery names, by its verified sender, `task_id` and `operation_id`. A
 * body without a string `task_id` is left for the envelope check to refuse; one whose handle is
 * unknown is refused after the envelope check (its own faults first), as `webhook_task_unknown`.
 */
async function handleOf(settings: ReceiverSettings, body: unknown, agent: string): Promise<TaskHandle | undefined> {
  const lookup = settings.handles as NonNullable<ReceiverSettings['handles']>;
  const format = settings.decode.format ?? detectWebhookFormat(body);
  if (format === 'a2a')
    throw new WebhookError(
      'webhook_envelope_invalid',
      'expected an MCP task webhook envelope on this route (option handles); got an A2A push body, which names the A2A transport task, not an AdCP task_id',
    );
  const taskId = isObject(body) ? own(body, 'task_id') : undefined;
  if (typeof taskId !== 'string') return undefined;
  const operationId = own(body as Record<string, unknown>, 'operation_id');
  const handle = await lookup({ agent, taskId, operationId: typeof operationId === 'string' ? operationId : undefined });
  if (handle !== undefined) return senderChecked(handle, agent, taskId);
  checkWebhookEnvelope(body, settings.decode.version);
  throw new WebhookError(
    'webhook_task_unknown',
    `no task handle is known for task_id "${shownText(taskId, 64)}"${typeof operationId === 'string' ? ` (operation_id "${shownText(operationId, 64)}")` : ''} from ${shownText(agent, 80)}; answered 503 so that the sender retries once the task's answer is stored`,
  );
}

/**
 * The handle, when the task is the verified sender's: a handle of another seller's task is the
 * delivery's fault (TASK_MISMATCH, 400; that seller's handle and later deliveries are untouched),
 * and one that records no seller cannot be checked, so it is the configuration's (500).
 */
function senderChecked(handle: TaskHandle, agent: string, taskId: string): TaskHandle {
  const tie = tieOf(handle, { agent, taskType: handle.task, taskId });
  if (tie === 'no-agent')
    throw new WebhookError(
      'webhook_receiver_misconfigured',
      `the handles lookup answered a handle that records no agent for task_id "${shownText(taskId, 64)}"; mint it with taskHandle(task, answer, { agent }) or store its agent, so that another seller's delivery cannot be correlated to it`,
    );
  // A handle of this sender naming another task is left to correlate(), field by field.
  if (tie !== 'other-sender' || handle.agent === undefined) return handle;
  const expected = shownText(handle.agent, 128);
  const received = shownText(agent, 128);
  throw new TaskMismatchError(
    `expected the webhook for ${handle.task} task "${shownText(handle.taskId, 64)}" to be signed by "${expected}", the agent its handle records; it was signed by "${received}", so it is not this sender's task (a correlation failure)`,
    { expected, received },
    { task: handle.task, version: handle.version, path: '/task_id' },
  );
}

/**
 * Creates a webhook receiver for one registration mode (RFC 9421 or, on opt-in, legacy HMAC).
 *
 * @param options - Key resolution (`keys` or `jwks`), or `hmac`; replay store, revocation, bounds,
 *   deadlines, `dedup`; a `version` (`'3.0'`, `'3.1.19'`) judges every webhook by that version and
 *   types `data` by it alone.
 * @returns The receiver.
 * @throws {DecodeError} `INVALID_OPTION` for any option that is wrong (a missing key source, a weak
 *   HMAC secret, a bound, a store without its methods, ...), at creation.
 * @example
 * const receiver = createWebhookReceiver({ jwks: { url: sellerJwksUri, agent: sellerAgentUrl }, replayStore });
 * const outcome = await receiver.receive(request); // { kind: 'delivered', taskType, taskId, status, data, signer, ... }
 */
export function createWebhookReceiver<const V extends VersionOption | undefined = undefined>(
  options: WebhookReceiverOptions<V>,
): WebhookReceiver<VersionFor<Pinning<V>>> {
  type Judged = VersionFor<Pinning<V>>;
  const settings = receiverSettings(options);
  // The version option fixed the schemas that judged each body, so every outcome's version is in Judged.
  const hub = createDeliveryHub<WebhookOutcome<Judged>>(settings.recent, settings.now ?? Date.now);
  const { onEvent } = settings;
  return {
    async receive(request) {
      if (onEvent === undefined)
        try {
          return (await receiveOne(settings, request, hub as DeliveryHub<WebhookOutcome>)) as WebhookOutcome<Judged>;
        } catch (error) {
          throw typed(error);
        }
      const started = performance.now();
      const seen: Seen = { bytes: undefined, agent: undefined };
      try {
        const outcome = await receiveOne(settings, request, hub as DeliveryHub<WebhookOutcome>, seen);
        tell(onEvent, receivedEvent(outcome, seen.bytes, performance.now() - started));
        return outcome as WebhookOutcome<Judged>;
      } catch (error) {
        const thrown = typed(error);
        tell(onEvent, refusedEvent(thrown, seen, performance.now() - started));
        throw thrown;
      }
    },
    deliveries: (handle) => hub.deliveries(handle),
  };
}
