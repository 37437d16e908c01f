/**
 * A receiver's outcomes handed to the waits of their tasks (`receiver.deliveries(handle)`): each
 * outcome goes to every open reader whose handle it is tied to (its verified sender and task, the
 * rule of tieOf), and the most recent are kept, bounded in count, bytes and age, so that a delivery
 * that came before its wait started is read too.
 */
import { namedBy, readHandle, type TaskHandle, tieOf } from '../decode/task-handle.js';
import { LimitError, NO_CONTEXT } from '../errors/errors.js';
import { byteLimit, countLimit, deadlineMs, knownOptions, optionError } from '../errors/option-rules.js';

/** How much of its recent outcomes a receiver keeps for a wait that starts after its task's webhook came. */
export interface RecentDeliveriesOptions {
  /** Most outcomes kept (default 64; 0 keeps none). */
  readonly count?: number | undefined;
  /** Most body bytes they hold together (default 8 MiB). */
  readonly maxBytes?: number | undefined;
  /** Oldest kept, in ms (default 600,000). */
  readonly ageMs?: number | undefined;
}

/** The names the receiver's `recent` takes (a type test holds it to `keyof RecentDeliveriesOptions`). */
export const RECENT_DELIVERIES_OPTION_KEYS = ['count', 'maxBytes', 'ageMs'] as const satisfies readonly (keyof RecentDeliveriesOptions)[];

/** The members of an outcome this module reads (receiver.ts's `WebhookOutcome`, named here below the receiver). */
export interface RoutedOutcome {
  readonly kind: 'delivered' | 'task-failed' | 'duplicate';
  readonly format: 'mcp' | 'a2a';
  readonly taskType: string;
  readonly taskId: string | undefined;
  readonly operationId: string | undefined;
  readonly signer: { readonly agent: string };
  readonly data?: unknown;
}

/** One outcome kept: the outcome, its body's bytes, and when it came. */
interface Kept<O> {
  readonly outcome: O;
  readonly bytes: number;
  readonly at: number;
}

/** One open reader: its handle, what it has not read yet, and the waiting `next()`, if any. */
interface Reader<O> {
  readonly handle: TaskHandle;
  readonly queue: O[];
  wake: (() => void) | undefined;
  ended: LimitError | true | undefined;
}

/** The receiver's side of deliveries(): outcomes published as they are resolved, readers opened per handle. */
export interface DeliveryHub<O> {
  publish(outcome: O, bytes: number): void;
  deliveries(handle: unknown): AsyncIterableIterator<O>;
}

const WHO = 'createWebhookReceiver';

/** Most outcomes a reader holds unread: past it the reader ends with TOO_MANY_VALUES (nothing is dropped unsaid). */
const MAX_UNREAD = 1_000;

/**
 * Reads the `recent` option.
 *
 * @param options - The option as given.
 * @returns The bounds, defaults filled in.
 * @throws {DecodeError} `INVALID_OPTION`: not an object, a name it does not take, a bound broken.
 * @example
 * recentBounds({ count: 16 }); // { count: 16, maxBytes: 8388608, ageMs: 600000 }
 */
export function recentBounds(options: RecentDeliveriesOptions | undefined): Required<{ [K in keyof RecentDeliveriesOptions]: number }> {
  knownOptions(WHO, options, RECENT_DELIVERIES_OPTION_KEYS, NO_CONTEXT, 'recent');
  const owner = { who: WHO };
  return {
    count: countLimit('recent.count', options?.count, owner) ?? 64,
    maxBytes: byteLimit('recent.maxBytes', options?.maxBytes, owner) ?? 8 * 1024 * 1024,
    ageMs: deadlineMs('recent.ageMs', options?.ageMs, owner) ?? 600_000,
  };
}

/**
 * Creates a receiver's delivery hub.
 *
 * @param bounds - What is kept of the recent outcomes (from {@link recentBounds}).
 * @param now - The clock in ms.
 * @returns The hub.
 * @throws Never.
 * @example
 * const hub = createDeliveryHub(recentBounds(undefined), Date.now);
 */
export function createDeliveryHub<O extends RoutedOutcome>(bounds: ReturnType<typeof recentBounds>, now: () => number): DeliveryHub<O> {
  const kept: Kept<O>[] = [];
  let keptBytes = 0;
  const readers = new Set<Reader<O>>();

  const tied = (handle: TaskHandle, outcome: O): boolean =>
    outcome.kind !== 'duplicate' && tieOf(handle, { agent: outcome.signer.agent, ...namedBy(outcome) }) === 'tied';

  const prune = (at: number): void => {
    while (kept.length > 0) {
      const first = kept[0] as Kept<O>;
      if (kept.length <= bounds.count && keptBytes <= bounds.maxBytes && at - first.at <= bounds.ageMs) return;
      kept.shift();
      keptBytes -= first.bytes;
    }
  };

  const push = (reader: Reader<O>, outcome: O): void => {
    if (reader.ended !== undefined) return;
    if (reader.queue.length >= MAX_UNREAD)
      reader.ended = new LimitError(
        'TOO_MANY_VALUES',
        `expected the deliveries of ${reader.handle.task} task to be read as they come; more than ${MAX_UNREAD} were left unread`,
        { unit: 'nodes', limit: MAX_UNREAD, actual: MAX_UNREAD + 1 },
        { task: reader.handle.task, version: reader.handle.version },
      );
    else reader.queue.push(outcome);
    reader.wake?.();
  };

  return {
    publish(outcome, bytes) {
      if (outcome.kind === 'duplicate') return;
      for (const reader of readers) if (tied(reader.handle, outcome)) push(reader, outcome);
      const at = now();
      if (bounds.count > 0 && bytes <= bounds.maxBytes) {
        kept.push({ outcome, bytes, at });
        keptBytes += bytes;
      }
      prune(at);
    },
    deliveries(handleValue) {
      const handle = readHandle(handleValue, 'handle', { who: 'deliveries' });
      if (handle.agent === undefined)
        throw optionError(
          'deliveries',
          'handle.agent',
          "the seller agent's URL (taskHandle(task, answer, { agent })), so that only its deliveries are this task's",
          undefined,
        );
      prune(now());
      const reader: Reader<O> = {
        handle,
        queue: kept.filter((k) => tied(handle, k.outcome)).map((k) => k.outcome),
        wake: undefined,
        ended: undefined,
      };
      readers.add(reader);
      const finish = (): IteratorReturnResult<undefined> => {
        readers.delete(reader);
        reader.ended ??= true;
        reader.queue.length = 0;
        return { done: true, value: undefined };
      };
      const iterator: AsyncIterableIterator<O> = {
        async next() {
          for (;;) {
            const next = reader.queue.shift();
            if (next !== undefined) return { done: false, value: next };
            if (reader.ended instanceof LimitError) {
              const error = reader.ended;
              finish();
              throw error;
            }
            if (reader.ended === true) return finish();
            await new Promise<void>((resolve) => {
              reader.wake = resolve;
            });
            reader.wake = undefined;
          }
        },
        async return() {
          const done = finish();
          reader.wake?.();
          return done;
        },
        [Symbol.asyncIterator]() {
          return iterator;
        },
      };
      return iterator;
    },
  };
}
