/**
 * What one wait tells its `onEvent` listener (src/events/): made only when the wait has a listener,
 * so that a wait without one builds no event and takes no time of its own.
 */
import type { PolledTask } from '../decode/polling.js';
import type { TaskHandle } from '../decode/task-handle.js';
import { DecodeError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import type { AdcpEventListener, WaitEndedEvent } from '../events/events.js';
import { nextEventId, tell } from '../events/tell.js';
import { isObject, own } from '../json/own.js';
import { isTaskStatus } from '../schema/statuses.js';
import { callRefusal } from './event-refusal.js';

/** What ended a wait: a poll, a webhook outcome, the caller's abort, the deadline. */
export type WaitEnd = WaitEndedEvent['by'];

/** The events of one wait, in order: started, each poll, ended. */
export class WaitEvents {
  private readonly on: AdcpEventListener;
  private readonly facts: {
    readonly id: number;
    readonly task: string;
    readonly taskId: string;
    readonly agent: string | undefined;
    readonly version: string;
  };
  private readonly started = performance.now();
  private pollStartedAt = 0;

  /**
   * Tells `wait-started`.
   *
   * @param on - The listener.
   * @param handle - The task's handle, read.
   * @param method - The tool or skill each poll invokes.
   * @param webhooks - Whether webhook outcomes race the polls.
   */
  constructor(on: AdcpEventListener, handle: TaskHandle, method: string, webhooks: boolean) {
    this.on = on;
    this.facts = {
      id: nextEventId(),
      task: handle.task,
      taskId: shownText(handle.taskId, 64),
      agent: handle.agent,
      version: handle.version,
    };
    tell(on, { type: 'wait-started', ...this.facts, method, webhooks });
  }

  /** A poll is sent. */
  pollStarted(): void {
    this.pollStartedAt = performance.now();
  }

  /**
   * A poll ended: `poll`, with the status it answered or its failure, and the wait before the next.
   *
   * @param poll - Which poll: 1 for the first.
   * @param outcome - The polled task, or the poll's failure (a DecodeError; what is none is not told).
   * @param failures - Transient failures in a row, this one included.
   * @param maxFailures - Option `maxFailures`.
   * @param delayMs - The wait before the next poll; `undefined` when this poll ends the wait.
   */
  polled(
    poll: number,
    outcome: { readonly polled: PolledTask } | { readonly failure: unknown },
    failures: number,
    maxFailures: number,
    delayMs: number | undefined,
  ): void {
    const durationMs = performance.now() - this.pollStartedAt;
    const facts = { type: 'poll', ...this.facts, poll, durationMs, failures, maxFailures, delayMs } as const;
    if ('polled' in outcome) tell(this.on, { ...facts, ok: true, status: outcome.polled.status });
    else if (outcome.failure instanceof DecodeError) tell(this.on, { ...facts, ok: false, failure: callRefusal(outcome.failure) });
  }

  /**
   * The wait ended: `wait-ended`.
   *
   * @param by - What ended it.
   * @param polls - The polls made.
   * @param end - Its result, or what it throws.
   */
  ended(by: WaitEnd, polls: number, end: { readonly data: unknown } | { readonly thrown: unknown }): void {
    const durationMs = performance.now() - this.started;
    const facts = { type: 'wait-ended', ...this.facts, polls, durationMs, by } as const;
    if ('data' in end) {
      const status = isObject(end.data) ? own(end.data, 'status') : undefined;
      tell(this.on, { ...facts, ok: true, status: isTaskStatus(status) ? status : 'completed' });
      return;
    }
    const { thrown } = end;
    tell(this.on, { ...facts, ok: false, refusal: thrown instanceof DecodeError ? callRefusal(thrown) : undefined, error: thrown });
  }
}
