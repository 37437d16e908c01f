/**
 * The events a call, a wait and a webhook receiver tell their `onEvent` listener: one discriminated
 * union, narrowed on `type`, the same listener type for callTask (and safeCallTask, streamTask),
 * waitForTask and createWebhookReceiver. Every text a seller chose is shown as the errors show it
 * (escaped, bounded); docs/observability.md maps the events to OpenTelemetry spans and metrics.
 */
import type { DecodeErrorCode, Recovery } from '../errors/errors.js';
import type { WebhookBlame } from '../errors/webhook-error.js';
import type { TaskStatus } from '../schema/statuses.js';

/**
 * Whose fault a call's refusal is: the request as the caller built or sent it (`request`), the
 * caller's setup (`configuration`: an option, credentials, keys, the URL, a release not bundled),
 * the seller's answer or server (`seller`), the network between or a deadline (`network`), a
 * defect of adcp-decode (`internal`), or no one's (`none`: the seller answered that the task
 * failed, and `recovery` says what to do).
 */
export type CallBlame = 'request' | 'configuration' | 'seller' | 'network' | 'internal' | 'none';

/** A refusal as an event carries it: the error's own fields, never the payload. */
export interface EventRefusal<B extends string = CallBlame | WebhookBlame> {
  /** The error's stable `code`. */
  readonly code: DecodeErrorCode;
  /**
   * The finer code, where the error has one: a `WebhookError`'s `webhookCode`, a `TransportError`'s
   * `signatureError`, a `RequestSigningError`'s `requestCode`, a `TaskFailedError`'s `adcp_error`
   * code (the seller's: shown, at most 64 characters, as the error's message shows it).
   */
  readonly detail: string | undefined;
  /** Whose fault it is. */
  readonly blame: B;
  /** What the error says to do (`transient`, `correctable`, `terminal`), where it says. */
  readonly recovery: Recovery | undefined;
  /** The seller's `retry_after` or `Retry-After`, in seconds, where it gave one. */
  readonly retryAfterSeconds: number | undefined;
  /** The HTTP status: the seller's refusal (a call), or the status the receiver answers (a webhook). */
  readonly httpStatus: number | undefined;
  /** The seller's words as the error keeps them (`sellerText`: escaped, at most 1,000 characters). */
  readonly sellerText: string | undefined;
  /** The error's one-line message (seller text in it escaped and cut, as in every message). */
  readonly message: string;
}

/** What every event of one call names. */
interface CallFacts {
  /** The call's number, the same on each of its events: it tells concurrent calls apart. */
  readonly id: number;
  /** The task as named (shown, at most 64 characters); `undefined` when what was given names none. */
  readonly task: string | undefined;
  /** The seller agent's URL, as option `agent` names it (callTask takes a client, not a URL). */
  readonly agent: string | undefined;
}

/** callTask began: its options read, nothing encoded yet. */
interface CallStartedEvent extends CallFacts {
  readonly type: 'call-started';
  /** The most attempts option `retry` allows (1 without it). */
  readonly attempts: number;
}

/** One attempt began: the request is about to be sent. */
interface AttemptStartedEvent extends CallFacts {
  readonly type: 'attempt-started';
  /** The bundled version the request was encoded in, e.g. `3.1.19`. */
  readonly version: string;
  /** Its release, as the request states it, e.g. `3.1`. */
  readonly release: string;
  /** This attempt: 1 for the first. */
  readonly attempt: number;
  /** The most attempts the call may make. */
  readonly attempts: number;
  /** The request's arguments, in UTF-8 bytes of their compact JSON (what encode bounded). */
  readonly bytes: number;
}

/** How an attempt, a call or a wait ended. */
export type Ending<B extends string> =
  | {
      readonly ok: true;
      /** The answer's `status` (`completed`, `submitted`, `working`, ...), where it has one. */
      readonly status: TaskStatus | undefined;
    }
  | {
      readonly ok: false;
      /** The refusal, or `undefined` when what ended it is no DecodeError (your abort's reason, a client's bug). */
      readonly refusal: EventRefusal<B> | undefined;
      /** What the call threw or returned as its error, as is. */
      readonly error: unknown;
    };

/** One attempt ended: with the decoded answer (`ok`), or with its refusal. */
type AttemptEndedEvent = CallFacts & {
  readonly type: 'attempt-ended';
  readonly version: string;
  readonly attempt: number;
  readonly attempts: number;
  /** From the attempt's start to its end (send, decode), in ms. */
  readonly durationMs: number;
} & Ending<CallBlame>;

/** The attempt's end is retryable and time is left: the same request is sent again after `delayMs`. */
interface RetryEvent extends CallFacts {
  readonly type: 'retry';
  /** The attempt about to be made after the wait: 2 for the first retry. */
  readonly attempt: number;
  readonly attempts: number;
  /** The wait before it, in ms: the seller's `retry_after`, else the backoff. */
  readonly delayMs: number;
  /** Why: the refusal that ended the last attempt. */
  readonly reason: EventRefusal<CallBlame>;
}

/** The call ended: resolved, or failed after its last attempt (or before any: options, arguments). */
type CallEndedEvent = CallFacts & {
  readonly type: 'call-ended';
  /** The version that judged the answer, or the request's; `undefined` when nothing was encoded. */
  readonly version: string | undefined;
  /** The attempts made (0 when nothing was sent). */
  readonly attempts: number;
  /** From the call's start to its end, retries and their waits included, in ms. */
  readonly durationMs: number;
} & Ending<CallBlame>;

/** What callTask, safeCallTask and streamTask tell, in this order: started, then per attempt started and ended (and a retry between two), then ended. */
export type CallEvent = CallStartedEvent | AttemptStartedEvent | AttemptEndedEvent | RetryEvent | CallEndedEvent;

/** What every event of one wait names. */
interface WaitFacts {
  /** The wait's number, the same on each of its events. */
  readonly id: number;
  /** The handle's task, e.g. `create_media_buy`. */
  readonly task: string;
  /** The handle's task id (the seller's: shown, at most 64 characters). */
  readonly taskId: string;
  /** The handle's `agent`, the seller agent's URL, when it records one. */
  readonly agent: string | undefined;
  /** The handle's version, which judges every poll. */
  readonly version: string;
}

/** waitForTask began: its options and handle read. */
interface WaitStartedEvent extends WaitFacts {
  readonly type: 'wait-started';
  /** The tool or skill each poll invokes (`get_task_status`, `tasks_get`, or option `method`). */
  readonly method: string;
  /** Whether webhook outcomes race the polls (option `webhooks`). */
  readonly webhooks: boolean;
}

/**
 * One poll ended: with the task's `status`, or with a `failure`. A transient failure the wait
 * swallowed has a `delayMs` (the next poll comes); `delayMs` is `undefined` when this poll ends
 * the wait (a final status, a failure that is not transient, `maxFailures` in a row).
 */
type PollEvent = WaitFacts & {
  readonly type: 'poll';
  /** This poll: 1 for the first. */
  readonly poll: number;
  /** The poll's send and decode, in ms. */
  readonly durationMs: number;
  /** Transient failures in a row, this one included (0 after an answer). */
  readonly failures: number;
  /** The most in a row before the last is thrown (option `maxFailures`). */
  readonly maxFailures: number;
  /** The wait before the next poll, in ms; `undefined` when the wait ends with this poll. */
  readonly delayMs: number | undefined;
} & ({ readonly ok: true; readonly status: TaskStatus } | { readonly ok: false; readonly failure: EventRefusal<CallBlame> });

/** The wait ended: with the task's result, or with what it throws. */
export type WaitEndedEvent = WaitFacts & {
  readonly type: 'wait-ended';
  /** The polls made. */
  readonly polls: number;
  /** From the wait's start to its end, in ms. */
  readonly durationMs: number;
  /** What settled it: a poll, a webhook outcome, your abort, or the deadline. */
  readonly by: 'poll' | 'webhook' | 'abort' | 'deadline';
} & Ending<CallBlame>;

/** What waitForTask tells: started, each poll, ended. */
export type WaitEvent = WaitStartedEvent | PollEvent | WaitEndedEvent;

/** What every event of one received webhook names. */
interface DeliveryFacts {
  /** The body's bytes as read; `undefined` when it was refused before it was read whole. */
  readonly bytes: number | undefined;
  /** receive()'s work on it, in ms. */
  readonly durationMs: number;
}

/** What a verified delivery says of itself. */
interface DeliveredFacts extends DeliveryFacts {
  /** Who signed it, as the receiver verified: the seller agent's URL. */
  readonly agent: string;
  readonly format: 'mcp' | 'a2a';
  /** Its `task_type` (checked against the release's enum). */
  readonly taskType: string;
  /** Its `task_id` (the seller's: shown, at most 64 characters), when it names one. */
  readonly taskId: string | undefined;
  /** Its status (checked against the release's enum). */
  readonly status: string;
}

/** receive() resolved a delivery: a result (`delivered`), or a task's failure (`task-failed`, with that failure). */
type DeliveryReceivedEvent = DeliveredFacts & { readonly type: 'delivery-received' } & (
    | { readonly kind: 'delivered'; readonly version: string }
    | { readonly kind: 'task-failed'; readonly failure: EventRefusal<WebhookBlame> }
  );

/** receive() resolved a duplicate (option `dedup`): the same delivery was processed already. */
interface DeliveryDuplicateEvent extends DeliveredFacts {
  readonly type: 'delivery-duplicate';
}

/** receive() threw: the delivery was refused, answered `refusal.httpStatus` (webhookResponse). */
interface DeliveryRefusedEvent extends DeliveryFacts {
  readonly type: 'delivery-refused';
  /** Who signed it, when the refusal came after its signature was verified. */
  readonly agent: string | undefined;
  /** The refusal: `code`, `detail` (the `webhook_*` code), the HTTP status answered and `blame`, as `webhookResponse` answers it. */
  readonly refusal: EventRefusal<WebhookBlame>;
  /** What receive() threw, as is. */
  readonly error: unknown;
}

/** What a webhook receiver tells: one event per `receive()`. */
export type WebhookEvent = DeliveryReceivedEvent | DeliveryDuplicateEvent | DeliveryRefusedEvent;

/** Every event: narrow on `type`. */
export type AdcpEvent = CallEvent | WaitEvent | WebhookEvent;

/**
 * Option `onEvent` of callTask, waitForTask and createWebhookReceiver: called with each event, at
 * once, inside the call. What it throws (or a promise it returns rejects with) never changes the
 * call: it is caught, and reported once per listener as a process warning (console.warn where
 * there is no `process`). Without a listener no event is built and no time is taken.
 */
export type AdcpEventListener = (event: AdcpEvent) => void;
