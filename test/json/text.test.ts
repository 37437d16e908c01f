/**
 * src/json/text.ts, the one parse of untrusted JSON text: it refuses exactly what secure-json-parse
 * refuses (the oracle, a test dependency only), measures what it parses as the bounds walk counts,
 * refuses a byte-order mark, and describes a syntax error without quoting the text.
 */
import fc from 'fast-check';
import sjson from 'secure-json-parse';
import { describe, expect, test } from 'vitest';
import { benchPayloads } from '../../bench/payloads.js';
import type { DecodeError } from '../../src/errors/errors.js';
import { parseJsonText, parseStrict, readTextItem } from '../../src/json/text.js';

const SEED = 20_260_430;
const MAX_BYTES = 4 * 1024 * 1024;

describe('parseJsonText refuses exactly what secure-json-parse refuses', () => {
  const refusedBySjson = (text: string): 'unsafe' | 'invalid' | 'ok' => {
    try {
      sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
      return 'ok';
    } catch (error) {
      return (error as Error).message === 'Object contains forbidden prototype property' ? 'unsafe' : 'invalid';
    }
  };
  const ours = (text: string): 'unsafe' | 'invalid' | 'ok' => {
    try {
      return parseJsonText(text, MAX_BYTES, '/content/0/text').ok ? 'ok' : 'invalid';
    } catch (error) {
      expect((error as DecodeError).code).toBe('UNSAFE_JSON');
      return 'unsafe';
    }
  };
  const keys = [
    '__proto__',
    '\\u005f_proto__',
    '__pro\\u0074o__',
    'constructor',
    'constructo\\u0072',
    'prototype',
    'a',
    'prototype_',
    '__proto',
    'x',
  ];

  test('on generated documents with those keys, escaped or not, at any depth', () => {
    const member = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom('1', 'null', '"__proto__"', '"constructor"', '{}', '[]'),
        tie('object'),
        fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
      ),
      object: fc
        .array(fc.tuple(fc.constantFrom(...keys), tie('value')), { maxLength: 4 })
        .map((entries) => `{${entries.map(([k, v]) => `"${k}" : ${v as string}`).join(',')}}`),
    }));
    fc.assert(
      fc.property(member.object, (text) => {
        expect(ours(text)).toBe(refusedBySjson(text));
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });

  test('on the benchmark payloads and on prose', () => {
    for (const { payload } of Object.values(benchPayloads())) expect(ours(JSON.stringify(payload))).toBe('ok');
    for (const text of [
      'Found 3 products.',
      '{"a":',
      '[1,2',
      '{"constructor":{"prototype":1}}',
      '[{"__proto__":{}}]',
      '{"constructor":null}',
    ]) {
      expect(ours(text)).toBe(refusedBySjson(text));
    }
  });
});

describe('the shape it measures is what the bounds walk counts', () => {
  /** Levels, values and finiteness of a JSON value, counted recursively (an independent model). */
  function model(value: unknown): { levels: number; nodes: number; finite: boolean } {
    if (typeof value !== 'object' || value === null)
      return { levels: 0, nodes: 1, finite: typeof value !== 'number' || Number.isFinite(value) };
    const children = Array.isArray(value) ? value : Object.values(value);
    const inner = children.map(model);
    return {
      levels: 1 + Math.max(0, ...inner.map((s) => s.levels)),
      nodes: 1 + inner.reduce((n, s) => n + s.nodes, 0),
      finite: inner.every((s) => s.finite),
    };
  }

  test('on generated JSON, with numbers past double range', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.boolean(), (value, huge) => {
        const text = JSON.stringify(value).replace(/(?<=[[,:])0(?=[,\]}])/, huge ? '1e400' : '0');
        const parsed = parseJsonText(text, MAX_BYTES, '');
        expect(parsed).toMatchObject({ ok: true, shape: model(JSON.parse(text)) });
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });
});

describe('parseStrict: one syntax-error describer, no input quoted', () => {
  test.each<[string, string, number | undefined]>([
    ['a byte-order mark', '\uFEFF{"a":1}', 0],
    ['a stray token', '{"a":1,}', 7],
    ['an early end', '{"a":', undefined],
    ['prose (V8 quotes it: the message is dropped)', 'Found 3 products.', undefined],
  ])('%s', (_name, text, position) => {
    const parsed = parseStrict(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.position).toBe(position);
    expect(parsed.error.parseError).not.toContain('"a"');
    expect(parsed.error.parseError).not.toContain('Found');
  });

  test('what parses is JSON.parse’s value', () => {
    expect(parseStrict('{"a":[1,"x",null]}')).toEqual({ ok: true, value: { a: [1, 'x', null] } });
  });

  test('a byte-order mark is refused where the text looks like JSON, and reported as not JSON otherwise', () => {
    expect(parseJsonText('\uFEFF{}', MAX_BYTES, '')).toMatchObject({ ok: false, reason: 'invalid-json', position: 0 });
    expect(parseJsonText('\uFEFFhello', MAX_BYTES, '')).toMatchObject({ ok: false, reason: 'not-json', position: 0 });
  });
});

describe('readTextItem: one budget per scan, one parse per distinct text', () => {
  test('the same text twice is parsed once; the budget ends a scan at 4 × maxBytes', () => {
    const budget = { used: 0 };
    const text = '{"a":1}';
    const first = readTextItem(budget, text, 10, '/content/0/text');
    expect(readTextItem(budget, text, 10, '/content/1/text')).toBe(first);
    expect(budget.used).toBe(14);
    readTextItem(budget, 'x'.repeat(10), 10, '/content/2/text');
    readTextItem(budget, 'y'.repeat(10), 10, '/content/3/text');
    let thrown: unknown;
    try {
      readTextItem(budget, 'z'.repeat(10), 10, '/content/4/text');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'TOO_LARGE', path: '/content/4/text', limit: 40, actual: 44 });
  });

  test('an item over maxBytes is skipped unmeasured and uncharged', () => {
    const budget = { used: 0 };
    expect(readTextItem(budget, 'x'.repeat(11), 10, '')).toMatchObject({ ok: false, reason: 'too-large' });
    expect(budget.used).toBe(0);
  });
});
