/**
 * src/json/text.ts, the one parse of untrusted JSON text: it refuses exactly what secure-json-parse
 * refuses (the oracle, a test dependency only) and a text whose objects repeat a key, measures
 * what it parses as the bounds walk counts, refuses a byte-order mark, and describes a syntax
 * error without quoting the text.
 */
import fc from 'fast-check';
import sjson from 'secure-json-parse';
import { describe, expect, test } from 'vitest';
import { benchPayloads } from '../../bench/payloads.js';
import { DecodeError } from '../../src/errors/errors.js';
import { parseJsonText, parseStrict, readTextItem } from '../../src/json/text.js';

const SEED = 20_260_430;
const MAX_BYTES = 4 * 1024 * 1024;

describe('parseJsonText refuses exactly what secure-json-parse refuses, and a repeated key', () => {
  type Verdict = 'unsafe' | 'invalid' | 'duplicate' | 'ok';
  const refusedBySjson = (text: string): Verdict => {
    try {
      sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
      return 'ok';
    } catch (error) {
      return (error as Error).message === 'Object contains forbidden prototype property' ? 'unsafe' : 'invalid';
    }
  };
  const ours = (text: string): Verdict => {
    try {
      return parseJsonText(text, MAX_BYTES, '/content/0/text').ok ? 'ok' : 'invalid';
    } catch (error) {
      const { code } = error as DecodeError;
      expect(['UNSAFE_JSON', 'DUPLICATE_KEY']).toContain(code);
      return code === 'UNSAFE_JSON' ? 'unsafe' : 'duplicate';
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

  /** A generated document and whether an object in it repeats a key (its spellings unescaped). */
  interface Doc {
    readonly text: string;
    readonly repeats: boolean;
  }
  test('on generated documents with those keys, escaped or not, at any depth: prototype keys first, then repeats', () => {
    const member = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom('1', 'null', '"__proto__"', '"constructor"', '{}', '[]').map((text): Doc => ({ text, repeats: false })),
        tie('object'),
        fc.array(tie('value'), { maxLength: 3 }).map(
          (items): Doc => ({
            text: `[${(items as Doc[]).map((i) => i.text).join(',')}]`,
            repeats: (items as Doc[]).some((i) => i.repeats),
          }),
        ),
      ),
      object: fc.array(fc.tuple(fc.constantFrom(...keys), tie('value')), { maxLength: 4 }).map((entries): Doc => {
        const names = entries.map(([k]) => JSON.parse(`"${k}"`) as string);
        return {
          text: `{${entries.map(([k, v]) => `"${k}" : ${(v as Doc).text}`).join(',')}}`,
          repeats: new Set(names).size < names.length || entries.some(([, v]) => (v as Doc).repeats),
        };
      }),
    }));
    fc.assert(
      fc.property(member.object, ({ text, repeats }) => {
        const sjsonSays = refusedBySjson(text);
        expect(ours(text)).toBe(sjsonSays === 'ok' && repeats ? 'duplicate' : sjsonSays);
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

describe('a repeated key: refused, at the first repeat, blamed on the text', () => {
  const caught = (fn: () => unknown): unknown => {
    try {
      fn();
    } catch (error) {
      return error;
    }
    return expect.fail('expected a throw');
  };

  test('DUPLICATE_KEY: path under the text, the call in the error, the names bounded and sanitized', () => {
    const text =
      '{"status":"working","media_buy_id":"mb_1","packages":[{"package_id":"p1","budget":50,"budget":5000}],"status":"completed"}';
    const error = caught(() => parseJsonText(text, MAX_BYTES, '/content/0/text', { task: 'create_media_buy', version: '3.1.19' }));
    expect(error).toBeInstanceOf(DecodeError);
    expect(error).toMatchObject({
      code: 'DUPLICATE_KEY',
      task: 'create_media_buy',
      version: '3.1.19',
      path: '/content/0/text/packages/0/budget',
    });
    expect((error as DecodeError).message).toMatchInlineSnapshot(
      `"expected each key once per object in the JSON at /content/0/text; found "budget", "status" repeated, the first at /content/0/text/packages/0/budget"`,
    );
    const hostile = `{${Array.from({ length: 6 }, (_, i) => `"k${i}\u202e${'x'.repeat(500)}":1,"k${i}\u202e${'x'.repeat(500)}":2`).join(',')}}`;
    const many = caught(() => parseJsonText(hostile, MAX_BYTES, '')) as DecodeError;
    expect(many.message).toMatchInlineSnapshot(
      `"expected each key once per object in the JSON at (root); found "<sanitized:2>", "<sanitized:2>", "<sanitized:2>", "<sanitized:2>", <...2 more> repeated, the first at /k0\\u202exxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"`,
    );
    expect(many.path?.length).toBeGreaterThan(500);
  });

  test('a prototype key is refused first, as UNSAFE_JSON; a scalar or an empty container has nothing to repeat', () => {
    expect(caught(() => parseJsonText('{"__proto__":{},"a":1,"a":2}', MAX_BYTES, ''))).toMatchObject({ code: 'UNSAFE_JSON' });
    expect(parseJsonText('"a:b"', MAX_BYTES, '')).toMatchObject({ ok: true, value: 'a:b' });
    expect(parseJsonText('[]', MAX_BYTES, '')).toMatchObject({ ok: true, value: [] });
  });

  test('a surface with its own refusal gets what the scan found', () => {
    const refusal = new Error('malformed');
    let seen: unknown;
    const refuse = (found: unknown) => {
      seen = found;
      return refusal;
    };
    expect(caught(() => parseJsonText('[{"a":1},{"b":1,"b":2,"c":[{"d":0,"d":0}]}]', MAX_BYTES, '/x', undefined, refuse))).toBe(refusal);
    expect(seen).toEqual({ count: 2, names: ['b', 'd'], path: '/1/b' });
  });

  test('readTextItem refuses the text, not skips it: a later item cannot win', () => {
    expect(caught(() => readTextItem({ used: 0 }, '{"a":1,"a":2}', 100, '/content/3/text'))).toMatchObject({
      code: 'DUPLICATE_KEY',
      path: '/content/3/text/a',
    });
  });

  test('a million members: parsed and counted, and one repeat among them found', () => {
    const n = 1_000_000;
    const keys = Array.from({ length: n }, (_, i) => `"${i}":0`);
    const clean = `{${keys.join(',')}}`;
    expect(parseJsonText(clean, Infinity, '')).toMatchObject({ ok: true, shape: { nodes: n + 1 } });
    keys[n - 1] = '"17":1';
    expect(caught(() => parseJsonText(`{${keys.join(',')}}`, Infinity, ''))).toMatchObject({ code: 'DUPLICATE_KEY', path: '/17' });
  }, 30_000);
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
