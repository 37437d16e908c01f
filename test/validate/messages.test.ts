/**
 * The messages recordError derives at run time (src/validate/runtime/messages.js), which the
 * generated listing validators no longer carry (derivedMessages, scripts/generate/derived-messages.ts),
 * against the messages run-time Ajv writes: for every keyword and params the generated code of both
 * releases records, and for generated params of every keyword in the table (fast-check). Each case
 * is a schema and an instance run-time Ajv must reject with exactly that keyword and those params;
 * the message Ajv writes there is the one the table must give.
 */
import { readFileSync } from 'node:fs';
import AjvModule from 'ajv';
import Ajv2019Module from 'ajv/dist/2019.js';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { evaluate, Opaque, paramsOf, splitTopLevel, type Value } from '../../src/generate/derived-messages.js';
import { errorMessage, MESSAGE_KEYWORDS } from '../../src/validate/runtime/messages.js';
import { runs } from '../helpers.js';
import { chunkFiles, releases } from './generated-code.js';

// CommonJS with `exports.default`.
const Ajv = AjvModule.default;
const Ajv2019 = Ajv2019Module.default;

type Params = Record<string, unknown>;
/** A schema and an instance run-time Ajv rejects with an error of `keyword` and `params`. */
interface Case {
  readonly keyword: string;
  readonly params: Params;
  readonly schema: unknown;
  readonly data: unknown;
  /** A format the schema names, which the case's Ajv registers as failing everything. */
  readonly format?: string;
  /** Ajv's draft 2019-09 class: minContains and maxContains. */
  readonly draft2019?: boolean;
}

const TYPES = ['null', 'boolean', 'number', 'integer', 'string', 'array', 'object'] as const;
const isType = (type: string, v: unknown): boolean =>
  type === 'null'
    ? v === null
    : type === 'integer'
      ? Number.isInteger(v)
      : type === 'array'
        ? Array.isArray(v)
        : type === 'object'
          ? v !== null && typeof v === 'object' && !Array.isArray(v)
          : typeof v === type;

/** An object with these own keys (any string, `__proto__` too), none inherited. */
function objectWith(keys: readonly string[]): Record<string, number> {
  const o = Object.create(null) as Record<string, number>;
  for (const k of keys) Object.defineProperty(o, k, { value: 1, enumerable: true, writable: true, configurable: true });
  return o;
}

/** An instance that fails `pattern` (tried in order), for the patterns of the schemas and generated ones. */
function notMatching(pattern: string): string | undefined {
  const re = new RegExp(pattern, 'u');
  return ['', '!', ' ', '\u0000', 'zz', 'A'.repeat(300), '1'].find((s) => !re.test(s));
}

/** The schema and instance of a keyword's error with these params (params in Ajv's field order). */
function caseOf(keyword: string, params: Params): Case | undefined {
  const p = params;
  const at = (schema: unknown, data: unknown, extra: Partial<Case> = {}): Case => ({ keyword, params, schema, data, ...extra });
  const n = Number(p.limit);
  switch (keyword) {
    case 'type': {
      const types = [p.type].flat() as string[];
      const data = [null, true, 1.5, 'x', [], {}].filter((v) => !types.some((t) => isType(t, v)));
      return data.length === 0 ? undefined : at({ type: p.type }, data[0]);
    }
    case 'required':
      return at({ required: [p.missingProperty] }, objectWith([]));
    case 'additionalProperties':
      return at({ additionalProperties: false }, objectWith([String(p.additionalProperty)]));
    case 'propertyNames':
      return at({ propertyNames: false }, objectWith([String(p.propertyName)]));
    case 'dependencies': {
      const deps = String(p.deps).split(', ');
      return at({ dependencies: { [String(p.property)]: deps } }, objectWith([String(p.property)]));
    }
    case 'minLength':
      return at({ minLength: n }, '');
    case 'maxLength':
      return at({ maxLength: n }, 'x'.repeat(n + 1));
    case 'minItems':
      return at({ minItems: n }, []);
    case 'maxItems':
      return at({ maxItems: n }, Array(n + 1).fill(0));
    case 'additionalItems':
      return at({ items: Array(n).fill({}), additionalItems: false }, Array(n + 1).fill(0));
    case 'minProperties':
      return at({ minProperties: n }, {});
    case 'maxProperties':
      return at({ maxProperties: n }, objectWith(Array.from({ length: n + 1 }, (_, i) => `k${i}`)));
    case 'minimum':
      return at({ minimum: n }, n - 1);
    case 'maximum':
      return at({ maximum: n }, n + 1);
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return at({ [keyword]: n }, n);
    case 'multipleOf':
      return at({ multipleOf: p.multipleOf }, Number(p.multipleOf) * 1.5);
    case 'format':
      return at({ format: p.format }, 'x', { format: String(p.format) });
    case 'pattern': {
      const data = notMatching(String(p.pattern));
      return data === undefined ? undefined : at({ pattern: p.pattern }, data);
    }
    case 'enum':
      return at({ enum: p.allowedValues }, ['\u0000 in no enum']);
    case 'const':
      return at({ const: p.allowedValue }, ['\u0000 no constant']);
    case 'uniqueItems': {
      const data = Array.from({ length: Number(p.i) + 2 }, (_, k) => k);
      data[Number(p.i)] = Number(p.j);
      return at({ uniqueItems: true }, data);
    }
    case 'contains':
      return at({ contains: false, minContains: p.minContains, maxContains: p.maxContains }, [], { draft2019: true });
    case 'anyOf':
      return at({ anyOf: [false] }, 1);
    case 'oneOf': {
      const passing = p.passingSchemas as [number, number] | null;
      const branches = Array.from({ length: passing === null ? 2 : passing[1] + 2 }, (_, k) => passing?.includes(k) ?? false);
      return at({ oneOf: branches }, 1);
    }
    case 'not':
      return at({ not: {} }, 1);
    case 'if':
      return at(p.failingKeyword === 'then' ? { if: true, then: false } : { if: false, else: false }, 1);
    case 'false schema':
      return at(false, 1);
    default:
      return undefined;
  }
}

const draft07 = new Ajv({ allErrors: true, strict: false });
const draft2019 = new Ajv2019({ allErrors: true, strict: false });
const withFormat = new Map<string, InstanceType<typeof Ajv>>();
function ajvOf(c: Case): InstanceType<typeof Ajv> {
  if (c.draft2019) return draft2019;
  if (c.format === undefined) return draft07;
  let ajv = withFormat.get(c.format);
  if (ajv === undefined) withFormat.set(c.format, (ajv = new Ajv({ allErrors: true, strict: false }).addFormat(c.format, () => false)));
  return ajv;
}

/** Run-time Ajv's error of the case's keyword and params (JSON-equal, as -0 prints 0), or undefined. */
function ajvError(c: Case): { message?: string } | undefined {
  const validate = ajvOf(c).compile(c.schema as object);
  validate(c.data);
  const want = JSON.stringify(c.params);
  return validate.errors?.find((e) => e.keyword === c.keyword && JSON.stringify(e.params) === want);
}

function expectAjvMessage(c: Case): void {
  const error = ajvError(c);
  expect(error, `run-time Ajv gives no ${c.keyword} error with params ${JSON.stringify(c.params)}`).toBeDefined();
  expect(errorMessage(c.keyword, c.params)).toBe(error?.message);
}

/** A value the generated code names (a loop index, a key, a schema literal) in place of a literal, by the param it fills. */
const STAND_INS: Record<string, unknown> = {
  i: 3,
  j: 1,
  passingSchemas: [0, 1],
  additionalProperty: 'extra~/key',
  missingProperty: 'missing',
  propertyName: 'name',
  failingKeyword: 'else',
  allowedValues: ['a', 'b'],
  allowedValue: { a: [1] },
  type: ['string', 'null'],
};

interface Site {
  readonly keyword: string;
  readonly params: Record<string, Value>;
  /** The message the site keeps (7 or 8 arguments), as code. */
  readonly message?: string;
  /** The 8th argument, under `propertyNames`. */
  readonly propertyName?: string;
  readonly file: string;
}

/** Every recordError call of the generated validator modules of both releases and their chunks. */
function sites(): Site[] {
  const files = [...releases().flatMap((r) => r.entries.filter((f) => f.endsWith('.errors.js'))), ...chunkFiles()];
  const out: Site[] = [];
  for (const file of files) {
    const code = readFileSync(file, 'utf8');
    for (let at = code.indexOf('recordError(vErrors'); at !== -1; at = code.indexOf('recordError(vErrors', at + 1)) {
      // (vErrors, ++errors, instancePath, schemaPath, params, message?, propertyName?): the keyword ends the schema path.
      const { parts } = splitTopLevel(code, at + 'recordError('.length);
      const params = paramsOf(parts[4] ?? '');
      if (params === undefined) throw new Error(`${file}: params not read: ${parts[4]}`);
      const [message, propertyName] = parts.slice(5);
      out.push({
        keyword: String(evaluate(parts[3]!)).split('/').pop()!,
        params,
        ...(message === undefined ? {} : { message }),
        ...(propertyName === undefined ? {} : { propertyName }),
        file,
      });
    }
  }
  return out;
}

describe('the messages recordError derives are the ones run-time Ajv writes', () => {
  const all = sites();

  test('for every keyword and params the generated code of both releases records', () => {
    expect(all.length).toBeGreaterThan(15_000);
    const seen = new Map<string, Case>();
    for (const site of all) {
      const params = Object.fromEntries(
        Object.entries(site.params).map(([k, v]) => [k, v instanceof Opaque ? (STAND_INS[k] ?? v.text) : v]),
      );
      const c = caseOf(site.keyword, params);
      expect(c, `${site.file}: no case for ${site.keyword} ${JSON.stringify(params)}`).toBeDefined();
      seen.set(JSON.stringify([site.keyword, params]), c!);
    }
    for (const c of seen.values()) expectAjvMessage(c);
    // Every keyword the releases record, each with its distinct params, was compared.
    expect(new Set([...seen.values()].map((c) => c.keyword)).size).toBeGreaterThanOrEqual(25);
  });

  test("a site keeps its message only where the keyword and params do not give it: propertyNames' inner errors, a list of types", () => {
    const kept = all.filter((s) => s.message !== undefined);
    const why = (s: Site) => (s.propertyName !== undefined ? 'propertyName' : s.keyword);
    for (const s of kept) {
      if (why(s) === 'type') expect(s.params.type, s.file).toBeInstanceOf(Opaque);
      else expect(why(s), `${s.file}: ${s.keyword} kept ${s.message}`).toBe('propertyName');
    }
    // Few: the rest of the 18,000 sites derive their message.
    expect(kept.length).toBeLessThan(50);
  });

  const limit = fc.nat({ max: 40 });
  const positive = fc.integer({ min: 1, max: 40 });
  const name = fc.string({ maxLength: 12 });
  const number = fc.oneof(
    fc.integer({ min: -1e9, max: 1e9 }),
    fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(0, -0, 0.1, 1e-7, 123456789.5),
  );
  const escaped = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  const pattern = fc.oneof(
    name.map((s) => `^${escaped(s)}$`),
    fc.constantFrom('^[A-Z]{2}$', '^https://', '^[a-z0-9_]+$', '"quoted"\\d', "^it's$"),
  );
  const typeList = fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 });
  const comparison = { minimum: '>=', maximum: '<=', exclusiveMinimum: '>', exclusiveMaximum: '<' } as const;
  const deps = fc.uniqueArray(
    name.filter((s) => !s.includes(',') && s !== 'p'),
    { minLength: 1, maxLength: 4 },
  );
  /**
   * A JSON value for `enum` / `const` that run-time Ajv can compile: its deep-equal calls an own
   * `valueOf` or `toString` of an object as a method (a `{ "valueOf": false }` throws a TypeError
   * inside Ajv, a fault of the reference, not of the messages compared).
   */
  const enumValue = fc.jsonValue({ maxDepth: 2 }).filter((v) => !/"(?:valueOf|toString)":/.test(JSON.stringify(v)));
  /** Per keyword of the table, its params as Ajv builds them. */
  const PARAMS: Record<string, fc.Arbitrary<Params>> = {
    type: fc.oneof(fc.constantFrom(...TYPES), typeList).map((type) => ({ type })),
    required: name.map((missingProperty) => ({ missingProperty })),
    additionalProperties: name.map((additionalProperty) => ({ additionalProperty })),
    propertyNames: name.map((propertyName) => ({ propertyName })),
    dependencies: fc.tuple(deps, fc.nat()).map(([d, k]) => ({
      property: 'p',
      missingProperty: d[k % d.length],
      depsCount: d.length,
      deps: d.join(', '),
    })),
    minLength: positive.map((l) => ({ limit: l })),
    maxLength: limit.map((l) => ({ limit: l })),
    minItems: positive.map((l) => ({ limit: l })),
    maxItems: limit.map((l) => ({ limit: l })),
    additionalItems: positive.map((l) => ({ limit: l })),
    minProperties: positive.map((l) => ({ limit: l })),
    maxProperties: limit.map((l) => ({ limit: l })),
    ...Object.fromEntries(Object.entries(comparison).map(([k, c]) => [k, number.map((l) => ({ comparison: c, limit: l }))])),
    multipleOf: fc.oneof(fc.integer({ min: 2, max: 1000 }), fc.constantFrom(0.5, 0.01, 2.5)).map((multipleOf) => ({ multipleOf })),
    format: fc.string({ minLength: 1, maxLength: 12 }).map((format) => ({ format })),
    pattern: pattern.map((p) => ({ pattern: p })),
    enum: fc
      .uniqueArray(enumValue, { minLength: 1, maxLength: 4, selector: (v) => JSON.stringify(v) })
      .map((allowedValues) => ({ allowedValues })),
    const: enumValue.map((allowedValue) => ({ allowedValue })),
    uniqueItems: fc.tuple(fc.integer({ min: 1, max: 30 }), fc.nat()).map(([i, k]) => ({ i, j: k % i })),
    contains: fc
      .tuple(positive, fc.option(fc.nat({ max: 5 }), { nil: undefined }))
      .map(([min, more]) => (more === undefined ? { minContains: min } : { minContains: min, maxContains: min + more })),
    anyOf: fc.constant({}),
    oneOf: fc
      .option(fc.tuple(fc.nat({ max: 5 }), fc.integer({ min: 1, max: 5 })), { nil: null })
      .map((p) => ({ passingSchemas: p === null ? null : [p[0], p[0] + p[1]] })),
    not: fc.constant({}),
    if: fc.constantFrom('then', 'else').map((failingKeyword) => ({ failingKeyword })),
    'false schema': fc.constant({}),
  };

  for (const [keyword, params] of Object.entries(PARAMS)) {
    test(`${keyword}: generated params (fast-check)`, () => {
      fc.assert(
        fc.property(params, (p) => {
          const c = caseOf(keyword, p);
          fc.pre(c !== undefined);
          expectAjvMessage(c!);
        }),
        { numRuns: runs(200) },
      );
    });
  }

  test('the table has no keyword the property tests leave out', () => {
    expect([...MESSAGE_KEYWORDS].sort()).toEqual(Object.keys(PARAMS).sort());
    expect(errorMessage('unevaluatedProperties', {})).toBeUndefined();
    expect(errorMessage('constructor', {})).toBeUndefined();
  });
});
