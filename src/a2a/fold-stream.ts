/**
 * An A2A stream folded into the task it built: the events of `message/stream` (`task`,
 * `statusUpdate`, `artifactUpdate`; A2A 1.0 envelopes, v0.3 `kind`-tagged objects, or the
 * @a2a-js/sdk client's in-memory objects) applied in order, the way A2A defines them: a task
 * replaces the state, a status update replaces `status`, an artifact update adds an artifact or,
 * with `append`, adds its parts to the artifact of the same id. No event decodes alone (an artifact
 * update has no state, the last status update no data); the folded task does.
 *
 * The fold is linear in the events' size: artifacts are found by id in a Map, appended parts are
 * pushed in place onto the fold's own array, and the task is copied once, at the end. It folds as
 * events arrive (streamFold), so a stream is bounded while it is read, not after.
 */
import { DEFAULT_BOUNDS } from '../bounds/bounds.js';
import { snapshot } from '../bounds/snapshot.js';
import { DecodeError, describeValue, type ErrorContext, LimitError, NO_CONTEXT, wrapInputFault } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { fromA2aSdk } from '../extract/a2a-sdk.js';
import { isObject, own } from '../json/own.js';

/** Most events folded from one stream (each is small; the bytes are the fetch's to bound). */
const MAX_EVENTS = 10_000;

/** Most artifacts and parts the folded task holds: past it the copy would be refused anyway (one node each). */
const MAX_HELD = DEFAULT_BOUNDS.maxNodes;

type Event = { kind: 'task' | 'statusUpdate' | 'artifactUpdate' | 'message'; value: Record<string, unknown> };

const V03_KINDS: Readonly<Record<string, Event['kind']>> = {
  task: 'task',
  'status-update': 'statusUpdate',
  'artifact-update': 'artifactUpdate',
  message: 'message',
};

/** An event as one of the four kinds, whatever form it came in; or a refusal naming its index. */
function eventOf(raw: unknown, index: number, context: ErrorContext): Event {
  const wire = fromA2aSdk(raw, context);
  if (isObject(wire)) {
    const keys = Object.keys(wire);
    const only = keys.length === 1 ? keys[0] : undefined;
    const inner = only === undefined ? undefined : own(wire, only);
    if ((only === 'task' || only === 'statusUpdate' || only === 'artifactUpdate' || only === 'message') && isObject(inner))
      return { kind: only, value: inner };
    const kind = own(wire, 'kind');
    if (typeof kind === 'string' && Object.hasOwn(V03_KINDS, kind)) return { kind: V03_KINDS[kind]!, value: wire };
  }
  throw new DecodeError(
    'MALFORMED_ENVELOPE',
    `expected an A2A stream event ({ task }, { statusUpdate }, { artifactUpdate } or { message }); event ${index} is ${describeValue(raw)}`,
    { ...context, path: `/${index}` },
  );
}

/** The task id an event names (`id` of a task, `taskId` of an update), if any. */
function taskIdOf(event: Event): unknown {
  return event.kind === 'task' ? own(event.value, 'id') : own(event.value, 'taskId');
}

/** One artifact of the folded task: its copy, what it is charged, and (once appended to) the parts array the fold owns. */
interface Held {
  artifact: Record<string, unknown>;
  /** 1 for the artifact and its parts' count, as charged against {@link MAX_HELD}. */
  count: number;
  parts: unknown[] | undefined;
}

/** An A2A stream folded event by event: `push` each event as it arrives, `result` once it ended. */
export interface StreamFold {
  /**
   * Folds the next event in.
   *
   * @throws {DecodeError} `MALFORMED_ENVELOPE` for an event that is none of the four, one for another
   *   task, or one whose reading throws (a getter, a Proxy trap), at the event's index.
   * @throws {LimitError} `TOO_MANY_VALUES` (unit `nodes`) past 10,000 events, or past 1,000,000 artifacts and parts held.
   */
  push(event: unknown): void;
  /**
   * The task folded so far, as a bounded plain copy.
   *
   * @throws {DecodeError} `NO_PAYLOAD` when no event brought a task or a message; what snapshot throws.
   */
  result(): Record<string, unknown>;
}

/** The fold's state; every step costs the size of the event it applies (Map lookups, parts pushed once). */
class Fold implements StreamFold {
  /** The call the stream answers (its task and version), for the errors. */
  constructor(private readonly context: ErrorContext) {}

  private task: Record<string, unknown> | undefined;
  /** A bare Message the stream answered with instead of a task. */
  private message: Record<string, unknown> | undefined;
  private artifacts: Held[] = [];
  /** The first artifact of each id (a Map: an id is seller text, `__proto__` included). */
  private byId = new Map<unknown, Held>();
  private held = 0;
  private events = 0;

  push(raw: unknown): void {
    if (this.events === MAX_EVENTS) throw tooManyEvents(this.context);
    const index = this.events++;
    try {
      this.apply(eventOf(raw, index, this.context), index);
    } catch (error) {
      // An in-process event's getter or Proxy trap that throws is a broken event, never a raw throw.
      throw wrapInputFault(error, `/${index}`, this.context);
    }
  }

  result(): Record<string, unknown> {
    // What leaves is a bounded, prototype-safe copy, as from every function that returns seller data.
    if (this.task !== undefined) return copied({ ...this.task, artifacts: this.artifacts.map((h) => h.artifact) }, this.context);
    if (this.message !== undefined) return copied({ message: this.message }, this.context);
    throw new DecodeError('NO_PAYLOAD', 'expected an A2A stream with a task or a message; the stream ended with no event', this.context);
  }

  private apply(event: Event, index: number): void {
    const { value } = event;
    const id = this.task === undefined ? undefined : own(this.task, 'id');
    const named = taskIdOf(event);
    if (id !== undefined && named !== undefined && named !== '' && named !== id)
      throw new DecodeError(
        'MALFORMED_ENVELOPE',
        `expected every event of the stream to be for task "${shownText(String(id), 64)}"; event ${index} is for ${typeof named === 'string' ? `"${shownText(named, 64)}"` : describeValue(named)}`,
        { ...this.context, path: `/${index}` },
      );
    switch (event.kind) {
      case 'task':
        this.task = { ...value };
        this.setArtifacts(own(value, 'artifacts'), index);
        return;
      case 'statusUpdate':
        // The task is the fold's own copy: replaced in place, not copied per update.
        this.task ??= { id: named, contextId: own(value, 'contextId') };
        this.task.status = own(value, 'status');
        return;
      case 'artifactUpdate':
        this.task ??= { id: named, contextId: own(value, 'contextId') };
        this.addArtifact(own(value, 'artifact'), own(value, 'append') === true, index);
        return;
      case 'message':
        this.message = value;
        return;
    }
  }

  /** A task event's artifacts replace the fold's: its objects, copied, the first of each id found by it. */
  private setArtifacts(artifacts: unknown, index: number): void {
    this.artifacts = [];
    this.byId = new Map();
    this.held = 0;
    if (!Array.isArray(artifacts)) return;
    const length = artifacts.length;
    // The claimed length is bounded before the loop, so a sparse 2^32 - 1 costs nothing.
    if (length > MAX_HELD) throw tooMuchHeld(length, index, this.context);
    for (let i = 0; i < length; i++) {
      const artifact: unknown = artifacts[i];
      if (!isObject(artifact)) continue;
      const held = this.hold(artifact, index);
      this.artifacts.push(held);
      this.remember(held);
    }
  }

  /** An artifact update: a new artifact, the same id replaced, or (append) its parts added to the same id's. */
  private addArtifact(artifact: unknown, append: boolean, index: number): void {
    if (!isObject(artifact)) return;
    const existing = this.find(own(artifact, 'artifactId'));
    if (existing === undefined) {
      const held = this.hold(artifact, index);
      this.artifacts.push(held);
      this.remember(held);
      return;
    }
    if (!append) {
      this.held -= existing.count;
      Object.assign(existing, this.hold(artifact, index));
      return;
    }
    const added = own(artifact, 'parts');
    const addedCount = Array.isArray(added) ? added.length : 0;
    this.charge(addedCount, index);
    existing.parts ??= this.ownParts(existing);
    existing.count += addedCount;
    if (Array.isArray(added)) pushAll(existing.parts, added, addedCount);
  }

  /** The artifact's parts moved, once, into an array the fold owns and appends to in place. */
  private ownParts(existing: Held): unknown[] {
    const before = own(existing.artifact, 'parts');
    const parts: unknown[] = [];
    if (Array.isArray(before)) pushAll(parts, before, existing.count - 1);
    existing.artifact.parts = parts;
    return parts;
  }

  /** A copy of an artifact, charged for itself and its parts' count. */
  private hold(artifact: Record<string, unknown>, index: number): Held {
    const parts = own(artifact, 'parts');
    const count = 1 + (Array.isArray(parts) ? parts.length : 0);
    this.charge(count, index);
    return { artifact: { ...artifact }, count, parts: undefined };
  }

  /** The artifact an update names: as `===` finds it (so never a NaN id). */
  private find(id: unknown): Held | undefined {
    return matchable(id) ? this.byId.get(id) : undefined;
  }

  private remember(held: Held): void {
    const id = own(held.artifact, 'artifactId');
    if (matchable(id) && !this.byId.has(id)) this.byId.set(id, held);
  }

  private charge(count: number, index: number): void {
    this.held += count;
    if (this.held > MAX_HELD) throw tooMuchHeld(this.held, index, this.context);
  }
}

/** Whether an id can name an artifact: `===` never matches NaN, where a Map would. */
function matchable(id: unknown): boolean {
  return !(typeof id === 'number' && Number.isNaN(id));
}

/** `count` elements of `source` pushed onto `target` (read by index: a hole reads as `undefined`, as a spread reads it). */
function pushAll(target: unknown[], source: readonly unknown[], count: number): void {
  for (let i = 0; i < count; i++) target.push(source[i]);
}

/**
 * A fold to feed a stream's events as they arrive, so that what a stream holds is bounded by the
 * fold, never by a list of every event (streamTask folds this way).
 *
 * @param context - The call the stream answers (its task and version), for the errors.
 * @returns An empty fold.
 * @throws Never.
 * @example
 * const fold = streamFold();
 * for await (const event of client.sendMessageStream(request)) fold.push(event);
 * const task = fold.result();
 */
export function streamFold(context: ErrorContext = NO_CONTEXT): StreamFold {
  return new Fold(context);
}

/**
 * Folds a completed A2A stream's events into the final task, in its wire form, for decode().
 *
 * @param events - The events as the stream delivered them: A2A 1.0 envelopes, v0.3 `kind`-tagged
 *   events, or the @a2a-js/sdk client's StreamResponse objects (`for await` them into an array).
 * @returns The task (`id`, `contextId`, the last `status`, the `artifacts` built), or `{ message }`
 *   when the stream answered with a Message and no task.
 * @throws {DecodeError} `MALFORMED_ENVELOPE` for an event that is none of the four, one for
 *   another task, or one whose reading throws; `NO_PAYLOAD` for an empty stream; {@link LimitError} `TOO_MANY_VALUES` (unit
 *   `nodes`) past 10,000 events, or past 1,000,000 artifacts and parts.
 * @example
 * const events = [];
 * for await (const event of client.sendMessageStream(request)) events.push(event);
 * const response = decode('get_products', foldA2aStream(events));
 */
export function foldA2aStream(events: Iterable<unknown>): Record<string, unknown> {
  const fold = new Fold(NO_CONTEXT);
  for (const raw of events) fold.push(raw);
  return fold.result();
}

function copied(task: Record<string, unknown>, context: ErrorContext): Record<string, unknown> {
  return snapshot(task, DEFAULT_BOUNDS, { ...context, what: 'the folded A2A stream' }) as Record<string, unknown>;
}

function tooManyEvents(context: ErrorContext): LimitError {
  return new LimitError(
    'TOO_MANY_VALUES',
    `expected an A2A stream of at most ${MAX_EVENTS} events; got more`,
    { unit: 'nodes', limit: MAX_EVENTS, actual: MAX_EVENTS + 1 },
    context,
  );
}

function tooMuchHeld(held: number, index: number, context: ErrorContext): LimitError {
  return new LimitError(
    'TOO_MANY_VALUES',
    `expected an A2A stream folding into at most ${MAX_HELD} artifacts and parts; event ${index} brings it to ${held}`,
    { unit: 'nodes', limit: MAX_HELD, actual: held },
    { ...context, path: `/${index}` },
  );
}
