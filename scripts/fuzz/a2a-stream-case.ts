/**
 * A case of the A2A stream lane, a pure function of `(seed, index)`: a stream of `message/stream`
 * events (a task, status updates, artifact updates with `append` and `lastChunk`, now and then a
 * message, an event of another task or no event at all) in one of the forms foldA2aStream takes
 * (A2A 1.0 envelopes, v0.3 `kind`-tagged objects, the @a2a-js/sdk client's objects), with hostile
 * task and artifact ids (`__proto__`, `constructor`, numbers, null), empty appends by the
 * thousand, large parts lists and counts around the 10,000-event bound.
 */
import { StreamResponse } from '@a2a-js/sdk-v1';
import { type CaseRecord, type CaseView, type Ctx, type Json, note, type Profile, size } from './context.js';
import { Rng } from './rng.js';
import { seeds } from './seeds.js';

/** A stream case: the events foldA2aStream folds, and what the generator knows of them. */
export interface StreamCase extends CaseRecord {
  readonly kind: 'stream';
  readonly events: readonly unknown[];
  /** Every part the events carry, replaced or not: the reference fold runs only on small streams. */
  readonly parts: number;
}

type Form = '1.0' | '0.3' | 'sdk';

const ARTIFACT_IDS: readonly unknown[] = [
  'a-0',
  'a-1',
  'result',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '',
  0,
  '0',
  null,
];
const TASK_IDS: readonly unknown[] = ['__proto__', 'constructor', '', 'x'.repeat(5_000), 42, null, undefined];
const STATES_10 = ['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING', 'TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_INPUT_REQUIRED'];
const STATES_03 = ['submitted', 'working', 'completed', 'failed', 'input-required'];

const products = seeds.find((s) => s.id === '3.1/get_products.valid');
if (products === undefined) throw new Error('the A2A stream lane needs the 3.1/get_products.valid fixture');

/** What one case builds its events from. */
interface Stream {
  readonly ctx: Ctx;
  readonly form: Form;
  readonly taskId: unknown;
  readonly ids: readonly unknown[];
  parts: number;
  /** No refused event (another task's, none of the four): a long stream then reaches the event bound. */
  clean: boolean;
}

function part(s: Stream): unknown {
  const { rng } = s.ctx;
  const kind = s.form === '0.3' ? { kind: 'data' } : {};
  return rng.weighted<() => unknown>([
    [60, () => (s.form === '0.3' ? { kind: 'text', text: `chunk ${rng.int(1000)}` } : { text: `chunk ${rng.int(1000)}` })],
    [30, () => ({ ...kind, data: { status: 'working', percentage: rng.int(100) } })],
    [3, () => ({ ...kind, data: JSON.parse(rng.pick(['{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"p":1}}}'])) })],
    [3, () => rng.pick<unknown>([5, null, 'text', [], {}])],
    [4, () => ({ ...kind, data: JSON.parse(products!.text) })],
  ])();
}

/** A parts list: empty most of the time (the empty appends of issue 28), a few parts, now and then thousands. */
function parts(s: Stream): unknown {
  const { rng } = s.ctx;
  if (rng.chance(0.02)) return rng.pick<unknown>([undefined, 'parts', 7, { 0: 'x' }]);
  const n = rng.weighted<number>([
    [450, 0],
    [500, 1 + rng.int(4)],
    [45, 5 + rng.int(200)],
    [5, s.ctx.profile === 'ci' ? 2_000 : size(s.ctx, 60_000)],
  ]);
  s.parts += n;
  // A long list is one part repeated: the fold copies what it holds, the generator need not.
  if (n > 8) return new Array<unknown>(n).fill(part(s));
  return Array.from({ length: n }, () => part(s));
}

function status(s: Stream, state?: string): Json {
  const states = s.form === '0.3' ? STATES_03 : STATES_10;
  return { state: state ?? s.ctx.rng.pick(states), timestamp: '2026-03-01T10:00:00Z' };
}

/** One event, in the stream's form (its body with the 1.0 key, or the v0.3 kind). */
function wrap(s: Stream, kind: 'task' | 'statusUpdate' | 'artifactUpdate' | 'message', body: Json): unknown {
  if (s.form === '0.3')
    return { kind: { task: 'task', statusUpdate: 'status-update', artifactUpdate: 'artifact-update', message: 'message' }[kind], ...body };
  return { [kind]: body };
}

function artifactEvent(s: Stream, id: unknown, append: unknown): unknown {
  const { rng } = s.ctx;
  const artifact: Json = { artifactId: id, parts: parts(s) };
  if (id === undefined) delete artifact['artifactId'];
  if (rng.chance(0.1)) artifact['name'] = 'products';
  return wrap(s, 'artifactUpdate', { taskId: s.taskId, contextId: 'c-1', artifact, append, lastChunk: rng.chance(0.3) });
}

function event(s: Stream): unknown {
  const { rng } = s.ctx;
  return rng.weighted<() => unknown>([
    [
      700,
      () =>
        artifactEvent(
          s,
          rng.pick(s.ids),
          rng.weighted<unknown>([
            [70, true],
            [27, false],
            [3, 'true'],
          ]),
        ),
    ],
    [180, () => wrap(s, 'statusUpdate', { taskId: rng.chance(0.1) ? '' : s.taskId, contextId: 'c-1', status: status(s) })],
    [
      20,
      () =>
        wrap(s, 'task', {
          id: s.taskId,
          contextId: 'c-1',
          status: status(s),
          artifacts: [{ artifactId: rng.pick(s.ids), parts: parts(s) }],
        }),
    ],
    [20, () => wrap(s, 'message', { messageId: 'm-1', role: 'ROLE_AGENT', parts: [{ text: 'later' }] })],
    [s.clean ? 0 : 2, () => rng.pick<unknown>([42, null, {}, { task: 1 }, { kind: 'nope' }, { task: {}, message: {} }])],
    [s.clean ? 0 : 2, () => wrap(s, 'statusUpdate', { taskId: 'other-task', contextId: 'c-1', status: status(s) })],
  ])();
}

/** How many events: mostly a few, some thousands, now and then at or past the 10,000-event bound. */
function count(ctx: Ctx): number {
  const { rng } = ctx;
  const n = rng.weighted<number>([
    [800, 1 + rng.int(10)],
    [170, 10 + rng.int(90)],
    [25, 100 + rng.int(1_900)],
    [4, 2_000 + rng.int(8_000)],
    [1, rng.pick([9_997, 9_998, 10_000, 10_001, 12_000])],
  ]);
  return ctx.profile === 'ci' ? Math.min(n, 600) : n;
}

/** The SDK's object for a 1.0 event, or the event as it was when the SDK cannot hold it (an id of the wrong type). */
function sdkForm(ctx: Ctx, event: unknown): unknown {
  try {
    return StreamResponse.fromJSON(event);
  } catch {
    ctx.steps.push('(an event the SDK cannot hold stays in the wire form)');
    return event;
  }
}

function buildEvents(s: Stream): unknown[] {
  const { ctx } = s;
  const { rng } = ctx;
  const events: unknown[] = [];
  const opening = rng.weighted<string>([
    [85, 'task'],
    [10, 'update'],
    [5, 'none'],
  ]);
  note(ctx, `open:${opening}`, '');
  if (opening === 'task')
    events.push(
      wrap(s, 'task', { id: s.taskId, contextId: 'c-1', status: status(s, s.form === '0.3' ? 'submitted' : 'TASK_STATE_SUBMITTED') }),
    );
  const n = opening === 'none' && rng.chance(0.5) ? 0 : count(ctx);
  // One event in 460 is refused: a stream of thousands would almost never reach the 10,000-event bound.
  s.clean = n > 1_000 && rng.chance(0.9);
  if (s.clean) note(ctx, 'events:clean', '');
  for (let i = 0; i < n; i++) events.push(event(s));
  if (ctx.profile === 'full' && rng.chance(0.002)) {
    // Past the fold's 1,000,000 artifacts and parts: two appends of half a million parts each.
    note(ctx, 'parts:over-bound', '2 × 500,001 parts');
    const huge = (): unknown => new Array<unknown>(500_001).fill({ text: 'x' });
    for (const append of [false, true])
      events.push(
        wrap(s, 'artifactUpdate', { taskId: s.taskId, contextId: 'c-1', artifact: { artifactId: 'huge', parts: huge() }, append }),
      );
    s.parts += 1_000_002;
  }
  if (n > 0 && rng.chance(0.6)) {
    // The answer: a DataPart in a last artifact, then the terminal status.
    events.push(
      wrap(s, 'artifactUpdate', {
        taskId: s.taskId,
        contextId: 'c-1',
        artifact: { artifactId: 'result', parts: [{ data: JSON.parse(products!.text) }] },
        append: false,
        lastChunk: true,
      }),
    );
    events.push(
      wrap(s, 'statusUpdate', {
        taskId: s.taskId,
        contextId: 'c-1',
        status: status(s, s.form === '0.3' ? 'completed' : 'TASK_STATE_COMPLETED'),
      }),
    );
  }
  return events;
}

/**
 * Builds case `index` of `seed` of the A2A stream lane, deterministically.
 *
 * @param seed - The run's seed.
 * @param index - The case number.
 * @param profile - `full`, or `ci` (at most 600 events, parts capped).
 * @returns The case.
 * @throws Never.
 * @example
 * const c = makeStreamCase(1, 42, 'ci'); runStreamCase(c);
 */
export function makeStreamCase(seed: number, index: number, profile: Profile = 'full'): StreamCase {
  const rng = new Rng(seed ^ 0xa2a5, index);
  const ctx: Ctx = { rng, steps: [], classes: new Set(), profile };
  const form = rng.weighted<Form>([
    [45, '1.0'],
    [35, '0.3'],
    [20, 'sdk'],
  ]);
  const taskId = rng.chance(0.9) ? 't-1' : rng.pick(TASK_IDS);
  if (taskId !== 't-1') note(ctx, 'taskId', JSON.stringify(taskId)?.slice(0, 40) ?? 'undefined');
  const ids = Array.from({ length: 1 + rng.int(4) }, () => (rng.chance(0.05) ? undefined : rng.pick(ARTIFACT_IDS)));
  const hostile = ids.filter((id) => typeof id !== 'string' || !/^(a-\d|result)$/.test(id));
  if (hostile.length > 0) note(ctx, 'artifactId', JSON.stringify(hostile));
  const stream: Stream = { ctx, form: form === 'sdk' ? '1.0' : form, taskId, ids, parts: 0, clean: false };
  let events = buildEvents(stream);
  if (form === 'sdk') events = events.map((e) => sdkForm(ctx, e));
  ctx.steps.push(`${events.length} events, ${stream.parts} parts`);
  ctx.classes.add(events.length > 10_000 ? 'events:over-bound' : events.length > 1_000 ? 'events:thousands' : 'events:few');
  return {
    seed,
    index,
    kind: 'stream',
    events,
    parts: stream.parts,
    steps: ctx.steps,
    classes: [...ctx.classes],
    envelope: `a2a-stream ${form}`,
  };
}

/**
 * A case as a finding's file shows it: its first 50 events, each cut at 2,000 characters of JSON.
 *
 * @param c - The case.
 * @returns The view.
 * @throws Never.
 * @example
 * report.add(finding); // calls streamViewOf(makeStreamCase(...))
 */
export function streamViewOf(c: StreamCase): CaseView {
  const input = c.events.slice(0, 50).map((e) => JSON.stringify(e)?.slice(0, 2_000));
  return {
    task: 'foldA2aStream',
    options: { events: c.events.length, parts: c.parts },
    envelope: c.envelope,
    classes: c.classes,
    steps: c.steps,
    input,
  };
}
