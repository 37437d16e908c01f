/**
 * Telling a listener an event without letting it change the call: what it throws, or a promise it
 * returns rejects with, is caught and reported once per listener, never rethrown and never awaited.
 */
import { type DecodeError, describeThrown } from '../errors/errors.js';
import { optionalFunction } from '../errors/option-rules.js';
import type { AdcpEvent, AdcpEventListener, EventRefusal } from './events.js';

/** The listeners whose failure was reported already: one report each, so a listener that always throws does not flood the log. */
const reported = new WeakSet<AdcpEventListener>();

/** Node's warning channel (found on globalThis, never imported: webhooks/ runs on any runtime). */
type WarningChannel = (warning: Error) => void;

/**
 * Reports a listener's failure: a process warning (`process.on('warning')`; Node prints it to
 * stderr), or `console.warn` where there is no `process`. The listener's error is the warning's `cause`.
 */
function reportFailure(listener: AdcpEventListener, thrown: unknown): void {
  if (reported.has(listener)) return;
  reported.add(listener);
  try {
    const warning = new Error(
      `an onEvent listener of adcp-decode threw ${describeThrown(thrown)}; the call went on as if it had not (reported once per listener)`,
      { cause: thrown },
    );
    warning.name = 'AdcpEventListenerWarning';
    const process = (globalThis as { process?: { emitWarning?: unknown } }).process;
    if (typeof process?.emitWarning === 'function') (process.emitWarning as WarningChannel).call(process, warning);
    else console.warn(warning);
  } catch {
    // A report that fails is dropped: the call is what matters.
  }
}

/**
 * Tells `listener` one event; nothing it does reaches the caller.
 *
 * @param listener - The caller's `onEvent`.
 * @param event - The event.
 * @throws Never.
 * @example
 * if (on !== undefined) tell(on, { type: 'retry', ... });
 */
export function tell(listener: AdcpEventListener, event: AdcpEvent): void {
  try {
    const returned: unknown = listener(event);
    if (typeof returned === 'object' && returned !== null && typeof (returned as PromiseLike<unknown>).then === 'function')
      (returned as PromiseLike<unknown>).then(undefined, (reason: unknown) => reportFailure(listener, reason));
  } catch (thrown) {
    reportFailure(listener, thrown);
  }
}

/**
 * Option `onEvent` read and checked.
 *
 * @param who - The function given it.
 * @param value - The option as given.
 * @returns The listener, or `undefined`.
 * @throws {DecodeError} `INVALID_OPTION` for anything but a function.
 * @example
 * const onEvent = readListener('waitForTask', options.onEvent);
 */
export function readListener(who: string, value: unknown): AdcpEventListener | undefined {
  optionalFunction(who, 'onEvent', value);
  return value as AdcpEventListener | undefined;
}

/** What a refusal's fields are, beyond the error's own code and message. */
export interface RefusalFields<B extends string> {
  readonly blame: B;
  readonly detail?: string | undefined;
  readonly recovery?: EventRefusal['recovery'];
  readonly retryAfterSeconds?: number | undefined;
  readonly httpStatus?: number | undefined;
  readonly sellerText?: string | undefined;
}

/**
 * A refusal for an event: the error's code and message with what its kind adds.
 *
 * @param error - The error.
 * @param fields - Its blame, and what else its kind carries.
 * @returns The refusal, every field present.
 * @throws Never.
 * @example
 * refusalOf(error, { blame: 'seller', httpStatus: 502 });
 */
export function refusalOf<B extends string>(error: DecodeError, fields: RefusalFields<B>): EventRefusal<B> {
  return {
    code: error.code,
    detail: fields.detail,
    blame: fields.blame,
    recovery: fields.recovery,
    retryAfterSeconds: fields.retryAfterSeconds,
    httpStatus: fields.httpStatus,
    sellerText: fields.sellerText,
    message: error.message,
  };
}

/** The last number given to a call or a wait. */
let lastId = 0;

/**
 * A new number for a call's or a wait's events, so that a listener shared by concurrent calls tells them apart.
 *
 * @returns 1, 2, 3, ... for this process.
 * @throws Never.
 * @example
 * const id = nextEventId();
 */
export function nextEventId(): number {
  lastId += 1;
  return lastId;
}
