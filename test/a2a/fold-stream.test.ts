/**
 * foldA2aStream (src/a2a/fold-stream.ts), issue 28: linear in the events' size, counted (the
 * elements every array walk visits and the own-property reads, not time), so doubling the stream
 * doubles the work; the A2A semantics exactly as the naive reference fold of the fuzzer states
 * them (scripts/fuzz/a2a-stream-reference.ts), on generated streams with hostile ids; and what the
 * fold holds bounded while it folds.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { referenceFold } from '../../scripts/fuzz/a2a-stream-reference.js';
import { foldA2aStream } from '../../src/a2a/fold-stream.js';
import { DecodeError, LimitError } from '../../src/errors/errors.js';
import { runs } from '../helpers.js';

const ArrayIterator = Object.getPrototypeOf([][Symbol.iterator]()) as { next: (...args: unknown[]) => unknown };

/**
 * The work of `run`: every element an array iterator steps over (a spread, `for...of`), every
 * `push`, and every own-property read (`Object.hasOwn`, which `own()` and the copy use). Counts
 * work, not time.
 */
function work(run: () => unknown): number {
  const { next } = ArrayIterator;
  const { push } = Array.prototype;
  const { hasOwn } = Object;
  let steps = 0;
  ArrayIterator.next = function counting(this: unknown, ...args: unknown[]) {
    steps++;
    return Reflect.apply(next, this, args);
  };
  Array.prototype.push = function counting(this: unknown[], ...items: unknown[]) {
    steps += items.length;
    return Reflect.apply(push, this, items) as number;
  };
  Object.hasOwn = (o: object, k: PropertyKey) => {
    steps++;
    return hasOwn(o, k);
  };
  try {
    run();
  } finally {
    ArrayIterator.next = next;
    Array.prototype.push = push;
    Object.hasOwn = hasOwn;
  }
  return steps;
}

const task = { task: { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } } };
const update = (artifactId: string, parts: unknown[], append: boolean) => ({
  artifactUpdate: { taskId: 't1', contextId: 'c1', artifact: { artifactId, parts }, append, lastChunk: false },
});
const text = (i: number) => ({ text: `chunk ${i}` });

/** Issue 28's stream: one artifact of `n` parts, then `n` empty appends to it. */
const emptyAppends = (n: number) => [
  task,
  update(
    'a',
    Array.from({ length: n }, (_, i) => text(i)),
    false,
  ),
  ...Array.from({ length: n }, () => update('a', [], true)),
];
/** `n` artifacts, each appended to once: every update names an artifact among `n`. */
const manyArtifacts = (n: number) => [
  task,
  ...Array.from({ length: n }, (_, i) => update(`a${i}`, [text(i)], false)),
  ...Array.from({ length: n }, (_, i) => update(`a${i}`, [text(i)], true)),
];

describe('foldA2aStream is linear in the stream (issue 28)', () => {
  test.each([
    ['empty appends to one large artifact', emptyAppends],
    ['appends to many artifacts', manyArtifacts],
  ])('%s: twice the stream costs twice the work, not four times', (_name, stream) => {
    const n = 2_000;
    const [once, twice] = [work(() => foldA2aStream(stream(n))), work(() => foldA2aStream(stream(2 * n)))];
    // The rebuilt parts and the linear search did n² steps: 4,000,000 at n = 2,000.
    expect(twice / once).toBeLessThan(2.2);
    expect(once).toBeLessThan(100 * n);
  });

  test('a status update per event replaces the status in place: the last one wins, the task keeps its members', () => {
    const events = [
      task,
      ...Array.from({ length: 50 }, (_, i) => ({ statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: `S${i}` } } })),
    ];
    expect(foldA2aStream(events)).toEqual({ ...task.task, status: { state: 'S49' }, artifacts: [] });
  });
});

describe('foldA2aStream folds as A2A states it (the reference fold)', () => {
  const ids = fc.constantFrom<unknown>('a', 'b', '__proto__', 'constructor', 'toString', 'hasOwnProperty', '', 0, '0', null, undefined);
  const parts = fc.oneof(
    fc.array(fc.oneof(fc.record({ text: fc.string({ maxLength: 3 }) }), fc.constant(5), fc.constant(null)), { maxLength: 4 }),
    fc.constantFrom<unknown>(undefined, 'parts', {}),
  );
  const artifact = fc.record({ artifactId: ids, parts }, { requiredKeys: [] });
  const taskId = fc.constantFrom<unknown>('t1', 't1', 't1', '', 't2', undefined);
  const event = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({ artifactUpdate: fc.record({ taskId, artifact, append: fc.constantFrom<unknown>(true, false, 'true') }) }),
    },
    { weight: 2, arbitrary: fc.record({ statusUpdate: fc.record({ taskId, status: fc.record({ state: fc.constantFrom('A', 'B') }) }) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        task: fc.record({ id: taskId, contextId: fc.constant('c'), artifacts: fc.array(artifact, { maxLength: 3 }) }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('artifact-update'), taskId, artifact, append: fc.boolean() }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>({ message: { role: 'ROLE_AGENT', parts: [] } }, 42, { nope: {} }) },
  );
  const outcome = (run: () => unknown): unknown => {
    try {
      return { folded: run() };
    } catch (error) {
      if (!(error instanceof DecodeError)) throw error;
      return { refused: error.code };
    }
  };

  test('every generated stream: the same task, or the same refusal', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 25 }), (events) => {
        expect(outcome(() => foldA2aStream(events))).toStrictEqual(outcome(() => referenceFold(events)));
      }),
      { seed: 28, numRuns: runs(3_000) },
    );
  });

  test('prototype keys as artifact ids are ids like any other: appended to, replaced, never looked up on a prototype', () => {
    const events = [task, update('__proto__', [text(1)], false), update('__proto__', [text(2)], true), update('toString', [text(3)], true)];
    expect(foldA2aStream(events)['artifacts']).toEqual([
      { artifactId: '__proto__', parts: [text(1), text(2)] },
      { artifactId: 'toString', parts: [text(3)] },
    ]);
  });
});

describe('what the fold holds is bounded while it folds', () => {
  test('past 1,000,000 artifacts and parts: TOO_MANY_VALUES at the event that passes it', () => {
    const half = Array.from({ length: 500_001 }, () => text(0));
    const error = (() => {
      try {
        foldA2aStream([task, update('a', half, false), update('a', half, true)]);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ code: 'TOO_MANY_VALUES', unit: 'nodes', limit: 1_000_000, actual: 1_000_003, path: '/2' });
  });

  test('a parts list that claims 10,000,000 elements and stores one is refused before any is read', () => {
    const sparse: unknown[] = [text(0)];
    sparse.length = 10_000_000;
    const steps = work(() => expect(() => foldA2aStream([task, update('a', [], false), update('a', sparse, true)])).toThrow(LimitError));
    expect(steps).toBeLessThan(1_000);
  });
});
