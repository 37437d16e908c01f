/**
 * An A2A stream folded into the task it built: the events of `message/stream` (`task`,
 * `statusUpdate`, `artifactUpdate`; A2A 1.0 envelopes, v0.3 `kind`-tagged objects, or the
 * @a2a-js/sdk client's in-memory objects) applied in order, the way A2A defines them: a task
 * replaces the state, a status update replaces `status`, an artifact update adds an artifact or,
 * with `append`, adds its parts to the artifact of the same id. No event decodes alone (an artifact
 * update has no state, the last status update no data); the folded task does.
 */
import { DEFAULT_BOUNDS } from '../bounds/bounds.js';
import { snapshot } from '../bounds/snapshot.js';
import { DecodeError, LimitError, describeValue } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { fromA2aSdk } from '../extract/a2a-sdk.js';
import { isObject, own } from '../json/own.js';

/** Most events folded from one stream (each is small; the bytes are the fetch's to bound). */
const MAX_EVENTS = 10_000;

/** The task as folded so far. */
interface Folded {
  task: Record<string, unknown> | undefined;
  artifacts: Array<Record<string, unknown>>;
  /** A bare Message the stream answered with instead of a task. */
  message: Record<string, unknown> | undefined;
}

type Event = { kind: 'task' | 'statusUpdate' | 'artifactUpdate' | 'message'; value: Record<string, unknown> };

const V03_KINDS: Readonly<Record<string, Event['kind']>> = {
  task: 'task',
  'status-update': 'statusUpdate',
  'artifact-update': 'artifactUpdate',
  message: 'message',
};

/** An event as one of the four kinds, whatever form it came in; or a refusal naming its index. */
function eventOf(raw: unknown, index: number): Event {
  const wire = fromA2aSdk(raw);
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
    { path: `/${index}` },
  );
}

/** The task id an event names (`id` of a task, `taskId` of an update), if any. */
function taskIdOf(event: Event): unknown {
  return event.kind === 'task' ? own(event.value, 'id') : own(event.value, 'taskId');
}

function apply(folded: Folded, event: Event, index: number): void {
  const { value } = event;
  const id = folded.task === undefined ? undefined : own(folded.task, 'id');
  const named = taskIdOf(event);
  if (id !== undefined && named !== undefined && named !== '' && named !== id)
    throw new DecodeError(
      'MALFORMED_ENVELOPE',
      `expected every event of the stream to be for task "${shownText(String(id), 64)}"; event ${index} is for ${typeof named === 'string' ? `"${shownText(named, 64)}"` : describeValue(named)}`,
      { path: `/${index}` },
    );
  switch (event.kind) {
    case 'task': {
      folded.task = { ...value };
      const artifacts = own(value, 'artifacts');
      folded.artifacts = Array.isArray(artifacts) ? artifacts.filter(isObject).map((a) => ({ ...a })) : [];
      return;
    }
    case 'statusUpdate':
      folded.task = { ...(folded.task ?? { id: named, contextId: own(value, 'contextId') }), status: own(value, 'status') };
      return;
    case 'artifactUpdate':
      folded.task ??= { id: named, contextId: own(value, 'contextId') };
      addArtifact(folded.artifacts, own(value, 'artifact'), own(value, 'append') === true);
      return;
    case 'message':
      folded.message = value;
      return;
  }
}

/** An artifact update: a new artifact, the same id replaced, or (append) its parts added to the same id's. */
function addArtifact(artifacts: Array<Record<string, unknown>>, artifact: unknown, append: boolean): void {
  if (!isObject(artifact)) return;
  const id = own(artifact, 'artifactId');
  const at = artifacts.findIndex((a) => own(a, 'artifactId') === id);
  const existing = at === -1 ? undefined : artifacts[at];
  if (existing === undefined) {
    artifacts.push({ ...artifact });
    return;
  }
  if (!append) {
    artifacts[at] = { ...artifact };
    return;
  }
  const before = own(existing, 'parts');
  const added = own(artifact, 'parts');
  existing.parts = [...(Array.isArray(before) ? before : []), ...(Array.isArray(added) ? added : [])];
}

/**
 * Folds a completed A2A stream's events into the final task, in its wire form, for decode().
 *
 * @param events - The events as the stream delivered them: A2A 1.0 envelopes, v0.3 `kind`-tagged
 *   events, or the @a2a-js/sdk client's StreamResponse objects (`for await` them into an array).
 * @returns The task (`id`, `contextId`, the last `status`, the `artifacts` built), or `{ message }`
 *   when the stream answered with a Message and no task.
 * @throws {DecodeError} `MALFORMED_ENVELOPE` for an event that is none of the four, or one for
 *   another task; `NO_PAYLOAD` for an empty stream; {@link LimitError} `TOO_DEEP` (unit `nodes`)
 *   past 10,000 events.
 * @example
 * const events = [];
 * for await (const event of client.sendMessageStream(request)) events.push(event);
 * const response = decode('get_products', foldA2aStream(events));
 */
export function foldA2aStream(events: Iterable<unknown>): Record<string, unknown> {
  const folded: Folded = { task: undefined, artifacts: [], message: undefined };
  let index = 0;
  for (const raw of events) {
    if (index === MAX_EVENTS) throw tooManyEvents();
    apply(folded, eventOf(raw, index), index);
    index++;
  }
  // What leaves is a bounded, prototype-safe copy, as from every function that returns seller data.
  if (folded.task !== undefined) return copied({ ...folded.task, artifacts: folded.artifacts });
  if (folded.message !== undefined) return copied({ message: folded.message });
  throw new DecodeError('NO_PAYLOAD', 'expected an A2A stream with a task or a message; the stream ended with no event');
}

function copied(task: Record<string, unknown>): Record<string, unknown> {
  return snapshot(task, DEFAULT_BOUNDS, { what: 'the folded A2A stream' }) as Record<string, unknown>;
}

function tooManyEvents(): LimitError {
  return new LimitError('TOO_MANY_VALUES', `expected an A2A stream of at most ${MAX_EVENTS} events; got more`, {
    unit: 'nodes',
    limit: MAX_EVENTS,
    actual: MAX_EVENTS + 1,
  });
}
