/**
 * What one call tells its `onEvent` listener (src/events/): made only when the call has a listener,
 * so that a call without one builds no event and takes no time of its own.
 */
import type { Outcome } from '../decode/decode.js';
import type { TaskName } from '../decode/types.js';
import type { EncodedRequest } from '../encode/request.js';
import { DecodeError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import type { AdcpEventListener, CallBlame, Ending } from '../events/events.js';
import { nextEventId, tell } from '../events/tell.js';
import { isObject, own } from '../json/own.js';
import { utf8Length } from '../json/utf8.js';
import { isTaskStatus, type TaskStatus } from '../schema/statuses.js';
import { callRefusal } from './event-refusal.js';

/** An attempt's or a call's end, as run.ts has it. */
type End =
  | { readonly ok: true; readonly outcome: Outcome<TaskName>; readonly request: EncodedRequest }
  | { readonly ok: false; readonly error: DecodeError; readonly request: EncodedRequest | undefined };

/** What a call or an attempt throws instead of ending: the caller's abort, what a client threw that no one can class. */
export interface Thrown {
  readonly thrown: unknown;
}

/** An end as an event's `ok`, `status` or `refusal` and `error`. */
function ending(end: End | Thrown): Ending<CallBlame> {
  if ('thrown' in end) {
    const { thrown } = end;
    return { ok: false, refusal: thrown instanceof DecodeError ? callRefusal(thrown) : undefined, error: thrown };
  }
  return end.ok ? { ok: true, status: statusOf(end.outcome.data) } : { ok: false, refusal: callRefusal(end.error), error: end.error };
}

/** The `status` of a decoded answer (a validated copy, or a polled task), when it has one. */
function statusOf(data: unknown): TaskStatus | undefined {
  const status = isObject(data) ? own(data, 'status') : undefined;
  return isTaskStatus(status) ? status : undefined;
}

/** The task a call names, shown; `undefined` for what names none (or cannot be read). */
function namedTask(task: unknown, encoded: unknown): string | undefined {
  let named = task;
  if (encoded !== undefined) {
    try {
      named = isObject(encoded) ? own(encoded, 'task') : undefined;
    } catch {
      named = undefined;
    }
  }
  return typeof named === 'string' ? shownText(named, 64) : undefined;
}

/** The events of one call, in order: started, per attempt started and ended (a retry between two), ended. */
export class CallEvents {
  private readonly on: AdcpEventListener;
  private readonly id = nextEventId();
  private readonly started = performance.now();
  private task: string | undefined;
  private readonly agent: string | undefined;
  private readonly attempts: number;
  private made = 0;
  private version: string | undefined;
  private attemptStartedAt = 0;
  /** The request's bytes, counted once: every attempt sends the same request. */
  private bytes: number | undefined;

  /**
   * Tells `call-started`.
   *
   * @param on - The listener.
   * @param what - The task and the encoded request, as given.
   * @param agent - Option `agent`.
   * @param attempts - The most attempts the call may make.
   */
  constructor(
    on: AdcpEventListener,
    what: { readonly task: unknown; readonly encoded?: unknown },
    agent: string | undefined,
    attempts: number,
  ) {
    this.on = on;
    this.task = namedTask(what.task, what.encoded);
    this.agent = agent;
    this.attempts = attempts;
    tell(on, { type: 'call-started', id: this.id, task: this.task, agent, attempts });
  }

  /** An attempt begins: `attempt-started`, with the request's size. */
  attemptStarted(request: EncodedRequest, attempt: number): void {
    this.made = attempt;
    this.task = shownText(request.task, 64);
    this.version = request.version;
    this.bytes ??= utf8Length(JSON.stringify(request.args));
    const { id, task, agent, attempts, bytes } = this;
    tell(this.on, {
      type: 'attempt-started',
      id,
      task,
      agent,
      version: request.version,
      release: request.release,
      attempt,
      attempts,
      bytes,
    });
    this.attemptStartedAt = performance.now();
  }

  /** The attempt ended, with its end or what it throws (the caller's abort, a client's bug): `attempt-ended`. */
  attemptEnded(request: EncodedRequest, end: End | Thrown): void {
    const durationMs = performance.now() - this.attemptStartedAt;
    const { id, task, agent, made: attempt, attempts } = this;
    tell(this.on, { type: 'attempt-ended', id, task, agent, version: request.version, attempt, attempts, durationMs, ...ending(end) });
  }

  /** A retry is coming after `delayMs`: `retry`. */
  retry(reason: DecodeError, attempt: number, delayMs: number): void {
    const { id, task, agent, attempts } = this;
    tell(this.on, { type: 'retry', id, task, agent, attempt, attempts, delayMs, reason: callRefusal(reason) });
  }

  /** The call ended, with its end or what it throws: `call-ended`. */
  ended(end: End | Thrown): void {
    const durationMs = performance.now() - this.started;
    const { id, task, agent, made: attempts } = this;
    const version = 'thrown' in end || !end.ok ? this.version : end.outcome.version;
    tell(this.on, { type: 'call-ended', id, task, agent, version, attempts, durationMs, ...ending(end) });
  }
}
