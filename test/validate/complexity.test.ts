/**
 * The rewrites codegen applies to Ajv's standalone code (scripts/generate/rewrites.ts; issue 4, fuzz findings):
 * - linearErrors: a referenced schema's errors are appended in place, not `concat`ed (quadratic);
 * - linearUniqueItems: `uniqueItems` over `$ref` or object items keys items by canonical JSON
 *   instead of comparing every pair with deep-equal (quadratic);
 * - boundedListing: the error listing stops past LISTING_LIMIT errors held at once (memory);
 * - linearKeyPointers: a map key is escaped into a JSON Pointer once per visit, not once per error
 *   built under it (issue 11: quadratic in key length × items);
 * - namedLeafPaths: a schema without `$ref`s compiled once (`inlineRefs: false`) names its errors'
 *   schema paths as Ajv's inlined copies of it do.
 * Each must leave verdicts and errors exactly as Ajv's own code gives them; that is what is
 * checked here, on a small schema set built to hit every rewritten site, with fast-check, and on
 * the real generated get_products modules against Ajv compiling the same schemas at run time.
 * No timing: the reproductions of the fuzz findings that used to run for 25-70 s are checked for
 * their outcome (the test timeout is the only clock).
 */

import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import standaloneModule from 'ajv/dist/standalone/index.js';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { makeCase } from '../../scripts/fuzz/case.js';
import { runCase } from '../../scripts/fuzz/oracle.js';
import { REPO_ROOT, schemaDir } from '../../scripts/schema-paths.js';
import { loadSchemas } from '../../src/generate/load.js';
import { rewrite } from '../../src/generate/rewrites.js';
import { createAjv, leafPaths, stripAnnotations } from '../../src/generate/validators.js';
import { tablesByVersion, versionFolders, versions } from '../../src/generated/index.js';
import { requestTablesByVersion } from '../../src/generated/requests.js';
import { SchemaMismatchError, safeDecode } from '../../src/index.js';
import * as runtime from '../../src/validate/runtime/index.js';
import type { CompiledValidator } from '../../src/validate/validators.js';
import { type Child, mapPayload, mapSites } from '../fixtures/map-sites.js';
import { payloadFolder } from '../fixtures/payloads.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { runs, share, UNIT_LANE } from '../helpers.js';
import { chunkFiles, closure, entryFiles, reached, releases as releasesOf } from './generated-code.js';

const standaloneCode = standaloneModule.default;
const requireHere = createRequire(import.meta.url);

type Module = Record<string, unknown>;

const { LISTING_LIMIT, UNIQUE_PAIRWISE_MAX } = runtime;

/**
 * Runs a validator module's code (Ajv's output, rewritten or not) as a CommonJS module: its
 * imports become require()s, of the runtime module this test imports or of the package.
 */
function load(code: string): Module {
  const module = { exports: {} as Module };
  const cjs = code
    .replace(/^import (?:\* as )?(\w+) from ("[^"]+");$/gm, 'const $1 = require($2);')
    .replace(/^import \{ ([\w, ]+) \} from ("[^"]+");$/gm, 'const { $1 } = require($2);')
    .replace(/\bexport const (\w+) = /g, 'exports.$1 = ')
    .replace(/\bexport \{ ([\w, ]+) \};/g, (_m, names: string) =>
      names
        .split(', ')
        .map((n) => n.split(' as '))
        .map(([local, exported]) => `exports.${exported ?? local} = ${local};`)
        .join(''),
    );
  const imports = (specifier: string): unknown => (specifier === '../../../validate/runtime/index.js' ? runtime : requireHere(specifier));
  new Function('module', 'exports', 'require', cjs)(module, module.exports, imports);
  return module.exports;
}

function validatorOf(mod: Module, name: string): CompiledValidator {
  const v = mod[name];
  if (typeof v !== 'function') throw new Error(`no export ${name}`);
  return v as CompiledValidator;
}

/** Verdict and errors, as plain data. */
function outcome(validate: CompiledValidator, data: unknown): { valid: boolean; errors: unknown } {
  const valid = validate(data);
  return { valid, errors: JSON.parse(JSON.stringify(validate.errors ?? null)) };
}

/**
 * Ajv with its default options over every schema of a release, as run time would compile them: one
 * per release and mode for the whole file, since compiling is most of what the comparisons below cost.
 */
const runtimeAjvs = new Map<string, ReturnType<typeof createAjv>>();
function runtimeAjv(version: string, allErrors: boolean): ReturnType<typeof createAjv> {
  const key = `${version} ${allErrors}`;
  const known = runtimeAjvs.get(key);
  if (known !== undefined) return known;
  const ajv = createAjv(allErrors);
  for (const file of loadSchemas(version, schemaDir(version)).values()) ajv.addSchema(stripAnnotations(file.schema) as object, file.id);
  runtimeAjvs.set(key, ajv);
  return ajv;
}

// A schema set that reaches every rewritten site: `$ref` items that carry `$ref`s of their own
// (so Ajv calls a function and merges its errors instead of inlining), uniqueItems over `$ref`
// enum items, over object items and over untyped items, inside a oneOf (errors of a failing arm
// are discarded when another passes).
const SCHEMAS = [
  { $id: '/t/tag.json', type: 'string', enum: ['a', 'b', 'c'] },
  // A leaf inside its own file (`#/definitions/...`), as namedLeafPaths names them.
  {
    $id: '/t/named.json',
    type: 'object',
    additionalProperties: { type: 'array', items: { $ref: '#/definitions/word' } },
    definitions: { word: { type: 'string', pattern: '^[~/a-z]+$' } },
  },
  {
    $id: '/t/item.json',
    type: 'object',
    required: ['id'],
    properties: {
      id: { type: 'string' },
      tag: { $ref: '/t/tag.json' },
      tags: { type: 'array', uniqueItems: true, items: { $ref: '/t/tag.json' } },
    },
    additionalProperties: false,
  },
  {
    $id: '/t/list.json',
    type: 'object',
    required: ['items'],
    properties: {
      // Maps (first, so that first-error validation reaches them): items under a key in a oneOf (a
      // failing branch builds a discarded error), a $ref'd value (the key's pointer is passed to
      // the referenced validator), a patternProperties map.
      maps: {
        type: 'object',
        additionalProperties: {
          type: 'object',
          properties: {
            values: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'object' }] } },
            item: { $ref: '/t/item.json' },
          },
          additionalProperties: false,
        },
      },
      named: {
        type: 'object',
        patternProperties: { '^[~/a-z]+$': { type: 'array', items: { $ref: '/t/tag.json' } } },
        additionalProperties: false,
      },
      words: { $ref: '/t/named.json' },
      items: { type: 'array', uniqueItems: true, items: { $ref: '/t/item.json' } },
      tags: { type: 'array', uniqueItems: true, items: { $ref: '/t/tag.json' } },
      any: { type: 'array', uniqueItems: true },
      either: {
        oneOf: [
          { type: 'array', uniqueItems: true, items: { $ref: '/t/item.json' } },
          { type: 'array', maxItems: 2 },
        ],
      },
    },
  },
];

/** The small set's module, as Ajv writes it and rewritten; `inlineRefs: false` as codegen compiles. */
function compileSet(allErrors: boolean, inlineRefs = true): { original: string; rewritten: string } {
  const ajv = createAjv(allErrors, [], inlineRefs);
  for (const schema of SCHEMAS) ajv.addSchema(schema);
  const original = standaloneCode(ajv, { list: '/t/list.json' });
  const context = { leafPaths: allErrors ? leafPaths(ajv, ['/t/list.json']) : new Map<string, string>() };
  return { original, rewritten: rewrite(original, allErrors ? 'listing' : 'fast', undefined, context) };
}

const fast = compileSet(false);
const full = compileSet(true);
// As codegen compiles: each schema one function; the listing names its leaves' paths (namedLeafPaths).
const fastShared = compileSet(false, false);
const fullShared = compileSet(true, false);

const pairwise = /outer\d+:for\(;i\d+--;\)\{for\(j\d+ = i\d+; j\d+--;\)/;
/** A map key escaped where it is used, not through its once-per-visit `keyNPtr`. */
const bareEscape = /[^=] key\d+\.replace\(\/~\/g/;

describe('the small schema set reaches every rewritten site', () => {
  test("Ajv's own code has the quadratic shapes, the rewritten code has none", () => {
    expect(fast.original).toMatch(pairwise);
    expect(full.original).toMatch(pairwise);
    expect(full.original).toContain('vErrors.concat(');
    for (const code of [fast.original, full.original]) expect(code).toMatch(bareEscape);
    for (const code of [fast.rewritten, full.rewritten]) {
      expect(code).not.toMatch(pairwise);
      expect(code).not.toContain('.concat(');
      expect(code).toContain('uniquePair(');
      expect(code).not.toMatch(bareEscape);
    }
    expect(full.rewritten).toMatch(/\(key\d+Ptr \?\?= key\d+\.replace\(/);
    // Every error recorded and merged by the runtime's calls, which check the listing's limit.
    expect(full.rewritten).toContain('vErrors = recordError(vErrors, ++errors, ');
    expect(full.rewritten).toContain('vErrors = mergeErrors(vErrors, validate');
    expect(full.rewritten).not.toMatch(/= \{instancePath|vErrors\.push\(e\)/);
    // Compiled once each (inlineRefs: false), the leaf schemas name their paths as the inlined copies do.
    expect(fullShared.original).toContain('schemaPath:"#/enum"');
    expect(fullShared.rewritten).toContain('"/t/tag.json/enum"');
    expect(fullShared.rewritten).toContain('"#/definitions/word/type"');
    expect(fullShared.rewritten).not.toContain('"#/enum"');
    // The fast module gives a verdict only: no pointer, no error detail is built at all.
    expect(fast.original).toContain('instancePath');
    expect(fast.rewritten).not.toContain('instancePath');
    expect(fast.rewritten).not.toContain('.replace(');
  });
});

// Values that collide often: small strings, reordered keys, nested arrays, numbers that are equal
// as JSON (1 and 1.0), so duplicates are common and near-duplicates too.
const tag = fc.constantFrom('a', 'b', 'c', 'd');
const item = fc.oneof(
  fc.record(
    {
      id: fc.constantFrom('x', 'y'),
      tag: fc.option(tag, { nil: undefined }),
      tags: fc.option(fc.array(tag, { maxLength: 3 }), { nil: undefined }),
    },
    { requiredKeys: [] },
  ),
  fc.constantFrom({ id: 'x', tag: 'a' }, { tag: 'a', id: 'x' }, { id: 'x', extra: true }, 'x', 1, null),
);
const loose = fc.oneof(
  fc.constantFrom(1, 1.0, -0, 0, '1', true, null),
  fc.dictionary(fc.constantFrom('p', 'q'), fc.constantFrom(1, 'p', null), { maxKeys: 2 }),
  fc.array(fc.constantFrom(1, 'a'), { maxLength: 2 }),
);
// Map keys with `~` and `/` (and the escapes' own spellings `~0`, `~1`), over values that pass
// and fail, so the pointers of kept and discarded errors under a key are compared too.
const mapKey = fc.stringMatching(/^[~/a-z01]{0,6}$/);
const mapValue = fc.record(
  { values: fc.array(fc.oneof(fc.constantFrom('s', 1, null), fc.constant({})), { maxLength: 4 }), item: item, extra: fc.constant(1) },
  { requiredKeys: [] },
);
const maps = fc.dictionary(mapKey, fc.oneof(mapValue, fc.constantFrom(1, 'x')), { maxKeys: 4 });
const named = fc.dictionary(mapKey, fc.oneof(fc.array(tag, { maxLength: 3 }), fc.constant('x')), { maxKeys: 3 });
const words = fc.dictionary(mapKey, fc.oneof(fc.array(fc.oneof(mapKey, fc.constant(1)), { maxLength: 3 }), fc.constant('x')), {
  maxKeys: 3,
});
const list = fc.record(
  {
    items: fc.array(item, { maxLength: 8 }),
    tags: fc.array(tag, { maxLength: 6 }),
    any: fc.array(loose, { maxLength: 8 }),
    either: fc.array(item, { maxLength: 4 }),
    maps,
    named,
    words,
  },
  { requiredKeys: [] },
);
// Arrays longer than UNIQUE_PAIRWISE_MAX, where uniquePair keys items instead of comparing pairs:
// generated without repeats (as JSON text), then half the time a copy of an earlier item appended
// (keys reordered), so that long arrays both pass and fail, and repeats can be far apart.
// (1 and 1.0, or 0 and -0, stay repeats the generator cannot see: deep-equal says equal.)
const wide = fc.oneof(
  fc.integer({ min: 0, max: 1_000_000 }),
  fc.string({ maxLength: 6 }),
  fc.constantFrom(null, true, false, 0, '0', 'null'),
  fc.record({ p: fc.integer({ min: 0, max: 100_000 }), q: fc.constantFrom('a', 'b') }),
  fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 2 }),
);
const withCopy = <T>(items: fc.Arbitrary<T[]>) =>
  fc.tuple(items, fc.nat(), fc.boolean()).map(([arr, k, copy]) => {
    const v = arr[k % arr.length];
    if (copy && arr.length > 0)
      arr.push(
        v !== null && typeof v === 'object' && !Array.isArray(v) ? (Object.fromEntries(Object.entries(v).reverse()) as T) : (v as T),
      );
    return arr;
  });
const long = { minLength: UNIQUE_PAIRWISE_MAX - 2, maxLength: UNIQUE_PAIRWISE_MAX + 40, selector: (v: unknown) => JSON.stringify(v) };
const longList = fc.record(
  {
    items: withCopy(fc.uniqueArray(fc.record({ id: fc.string({ maxLength: 6 }), tag: fc.constantFrom('a', 'b', 'c') }), long)),
    any: withCopy(fc.uniqueArray(wide, long)),
    either: withCopy(fc.uniqueArray(fc.record({ id: fc.string({ maxLength: 6 }) }), long)),
  },
  { requiredKeys: ['items'] },
);
/** Generated objects without `undefined` values: what JSON text gives. */
const json = fc.oneof(list, longList).map((v) => JSON.parse(JSON.stringify(v)) as unknown);

describe('rewritten validators give exactly the verdicts and errors of the originals', () => {
  // Against Ajv's own code with its default options (refs inlined), as run-time Ajv compiles.
  for (const [mode, set] of [
    ['first error', fast],
    ['allErrors', full],
    ['first error, one function per schema', fastShared],
    ['allErrors, one function per schema', fullShared],
  ] as const) {
    // 3,000 payloads under npm test, a quarter in the unit lane; the floors below are shares of the count.
    const n = runs(3_000);
    test(`${mode}: fast-check, ${n.toLocaleString('en-US')} payloads, short and long arrays`, () => {
      const allErrors = mode.startsWith('allErrors');
      const before = validatorOf(load((allErrors ? full : fast).original), 'list');
      const patched = validatorOf(load(set.rewritten), 'list');
      let invalid = 0;
      let duplicates = 0;
      let escapedKeys = 0;
      let leafPathsSeen = 0;
      fc.assert(
        fc.property(json, (data) => {
          const want = outcome(before, data);
          const errors = JSON.stringify(want.errors);
          if (!want.valid) invalid++;
          if (!want.valid && errors.includes('uniqueItems')) duplicates++;
          if (!want.valid && /"instancePath":"\/(maps|named|words)\/[^"]*~[01]/.test(errors)) escapedKeys++;
          if (/"schemaPath":"(\/t\/tag\.json|#\/definitions\/word)\//.test(errors)) leafPathsSeen++;
          // The fast module keeps Ajv's verdict and drops its details (decode lists them with the listing module).
          if (!allErrors) expect(patched(data)).toBe(want.valid);
          else expect(outcome(patched, data)).toEqual(want);
        }),
        { seed: 20261130, numRuns: n },
      );
      // The generator must reach failures and passes, or the check says little.
      expect(invalid).toBeGreaterThan(n / 6);
      expect(invalid).toBeLessThan(n * 0.95);
      expect(duplicates).toBeGreaterThan(n / 10);
      expect(escapedKeys).toBeGreaterThan(allErrors ? n / 5 : n / 10);
      // Errors inside leaf schemas (an enum file, a local definition), whose paths namedLeafPaths names.
      if (allErrors) expect(leafPathsSeen).toBeGreaterThan(n / 10);
    });
  }

  test('the reported pair is the one Ajv reports: the last repeated item and its nearest earlier copy', () => {
    const patched = validatorOf(load(full.rewritten), 'list');
    expect(patched({ items: [{ id: 'x' }, { id: 'y' }, { id: 'x' }, { id: 'y' }, { id: 'z' }] })).toBe(false);
    expect(patched.errors).toEqual([expect.objectContaining({ instancePath: '/items', keyword: 'uniqueItems', params: { i: 3, j: 1 } })]);
    expect(patched({ items: [], any: [{ p: 1, q: 'p' }, 2, { q: 'p', p: 1 }] })).toBe(false);
    expect(patched.errors).toEqual([expect.objectContaining({ instancePath: '/any', keyword: 'uniqueItems', params: { i: 2, j: 0 } })]);
    // A long array, keyed not compared: 1 equals 1.0; an object repeats with its keys reordered.
    const any = [...Array.from({ length: UNIQUE_PAIRWISE_MAX + 10 }, (_, k) => k), { p: 1, q: 'p' }, 'x', { q: 'p', p: 1 }, 7.0, 'y'];
    expect(patched({ items: [], any })).toBe(false);
    expect(patched.errors).toEqual([
      expect.objectContaining({ instancePath: '/any', keyword: 'uniqueItems', params: { i: any.length - 2, j: 7 } }),
    ]);
    expect(patched({ items: [], any: any.slice(0, -2) })).toBe(false);
    expect(patched.errors).toEqual([expect.objectContaining({ params: { i: any.length - 3, j: any.length - 5 } })]);
  });
});

describe('the listing stops past LISTING_LIMIT errors', () => {
  test('more errors than the limit: ListingStopped; exactly the limit: every error', () => {
    const mod = load(full.rewritten);
    const validate = validatorOf(mod, 'list');
    const Stopped = runtime.ListingStopped;
    // Each item's `id` is a number, not a string: one error per item, and the items are distinct.
    const items = (n: number) => Array.from({ length: n }, (_, id) => ({ id }));
    let stopped: unknown;
    try {
      validate({ items: items(LISTING_LIMIT + 1) });
    } catch (error) {
      stopped = error;
    }
    expect(stopped).toBeInstanceOf(Stopped);
    // It carries the first error the listing recorded, which decode() reports.
    expect((stopped as { first: unknown }).first).toMatchObject({ instancePath: '/items/0/id', keyword: 'type' });
    expect(validate({ items: items(LISTING_LIMIT) })).toBe(false);
    expect(validate.errors).toHaveLength(LISTING_LIMIT);
  });

  test('decode(): a payload with too many violations lists the first and says the listing stopped', () => {
    const products = Array.from({ length: 10_001 }, () => ({})); // 10 required properties each
    const result = safeDecode('get_products', { content: [], structuredContent: { products } });
    expect(result.success).toBe(false);
    const error = result.success ? undefined : result.error;
    expect(error).toBeInstanceOf(SchemaMismatchError);
    const mismatch = error as SchemaMismatchError;
    expect(mismatch.issuesComplete).toBe(false);
    expect(mismatch.message).toContain('more than 100,000 issues; the listing stopped, the first is given');
    // Under the limit the listing is complete; its first issue is the one the stopped listing gave.
    const some = safeDecode('get_products', { content: [], structuredContent: { products: products.slice(0, 50) } });
    expect(mismatch.issues).toEqual([(some.success ? undefined : (some.error as SchemaMismatchError).issues[0])!]);
    expect(some).toMatchObject({ success: false, error: { code: 'SCHEMA_MISMATCH', issuesComplete: true } });
    expect(some.success ? 0 : (some.error as SchemaMismatchError).issues.length).toBeGreaterThan(500);
  });
});

describe('the generated get_products modules agree with Ajv compiling the same schemas at run time', () => {
  const version = V3_1;
  const id = `/schemas/${version}/media-buy/get-products-response.json`;
  const runtime = (allErrors: boolean): CompiledValidator => {
    return runtimeAjv(version, allErrors).getSchema(id) as CompiledValidator;
  };
  const folder = path.join(REPO_ROOT, 'src/generated', versionFolders[version], 'validators');
  const generatedFast = validatorOf(requireHere(path.join(folder, 'get_products.js')) as Module, 'response');
  const generatedAll = validatorOf(requireHere(path.join(folder, 'get_products.errors.js')) as Module, 'response');
  const valid = JSON.parse(readFileSync(path.join(payloadFolder(version), 'get_products.valid.json'), 'utf8')) as {
    products: Record<string, unknown>[];
  };

  const product = valid.products[0] as Record<string, unknown> & { reporting_capabilities: Record<string, unknown> };
  const window = { window: 'live', duration_days: 0, expected_availability: 'immediate', is_guaranteed_basis: false };
  const variants: [string, unknown][] = [
    ['valid', valid],
    ['duplicate $ref enum items', { ...valid, products: [{ ...product, channels: ['display', 'olv', 'display'] }] }],
    [
      'duplicate metrics among many',
      {
        ...valid,
        products: [
          {
            ...product,
            reporting_capabilities: {
              ...product.reporting_capabilities,
              available_metrics: ['impressions', 'spend', 'clicks', 'spend', 'impressions'],
            },
          },
        ],
      },
    ],
    [
      'duplicate object items, keys reordered',
      {
        ...valid,
        products: [
          {
            ...product,
            reporting_capabilities: {
              ...product.reporting_capabilities,
              measurement_windows: [window, Object.fromEntries(Object.entries(window).reverse())],
            },
          },
        ],
      },
    ],
    [
      'map keys with ~ and / over items that fail',
      { ...valid, filter_diagnostics: { excluded_by: { 'a~b/c~1~0//': { count: 1, values: ['x', 1, {}, null] }, '~': { count: -1 } } } },
    ],
    [
      'many invalid products merged from referenced validators',
      { ...valid, products: Array.from({ length: 40 }, (_, i) => ({ ...product, product_id: i, channels: ['display', 'display'] })) },
    ],
  ];

  test('same verdicts and errors, first-error and allErrors', () => {
    const rtFast = runtime(false);
    const rtAll = runtime(true);
    let failures = 0;
    for (const [name, payload] of variants) {
      const want = outcome(rtAll, payload);
      if (!want.valid) failures++;
      expect(outcome(generatedAll, payload), name).toEqual(want);
      expect(generatedFast(payload), name).toBe(rtFast(payload)); // the fast module: the verdict only
    }
    expect(failures).toBe(variants.length - 1);
  }, 60_000);
});

describe('every generated task module agrees with Ajv compiling the same schemas at run time', () => {
  // Each fixture of test/fixtures/payloads, and each of its values replaced in turn by a value of
  // another type: the verdicts of the fast modules, and the errors of the listing modules (whose
  // leaf schemas are compiled once and name their paths as Ajv's inlined copies do, and whose
  // errors are recorded by the runtime's calls), exactly as run-time Ajv with its default options.
  const replacements: unknown[] = [1, 'x', null, {}, [], -1];
  const paths = (value: unknown, at: string[] = []): string[][] =>
    value !== null && typeof value === 'object' ? [at, ...Object.entries(value).flatMap(([k, v]) => paths(v, [...at, k]))] : [at];
  const replaced = (root: unknown, at: readonly string[], value: unknown): unknown => {
    if (at.length === 0) return value;
    const copy = structuredClone(root) as Record<string, unknown>;
    let node = copy;
    for (const k of at.slice(0, -1)) node = node[k] as Record<string, unknown>;
    node[at.at(-1)!] = value;
    return copy;
  };

  // Every mutant under npm test; in the unit lane a fixed quarter of each fixture's mutants (share()),
  // still against every task module. The floors are shares of the count.
  test.each([...versions])(
    `AdCP %s: every fixture and its mutants${UNIT_LANE ? ' (a quarter of the mutants in this lane)' : ''}`,
    (version) => {
      const ajvs = { fast: runtimeAjv(version, false), all: runtimeAjv(version, true) };
      const dir = payloadFolder(version);
      const folder = path.join(REPO_ROOT, 'src/generated', versionFolders[version], 'validators');
      let cases = 0;
      let errors = 0;
      let leafPaths = 0;
      for (const file of readdirSync(dir)) {
        const task = file.slice(0, file.indexOf('.'));
        const payload = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as unknown;
        const mutants = share(paths(payload).flatMap((at) => replacements.map((value) => ({ at, value }))));
        const ids = tablesByVersion[version].schemaIds[task]!;
        const variants = [['response', ids.response], ...Object.entries(ids.async).map(([s, id]) => [s.replace('-', '_'), id])];
        for (const [variant, id] of variants as Array<[string, string]>) {
          const rtFast = ajvs.fast.getSchema(id) as CompiledValidator;
          const rtAll = ajvs.all.getSchema(id) as CompiledValidator;
          const fast = validatorOf(requireHere(path.join(folder, `${task}.js`)) as Module, variant);
          const all = validatorOf(requireHere(path.join(folder, `${task}.errors.js`)) as Module, variant);
          for (const { at, value } of mutants) {
            const data = replaced(payload, at, value);
            const want = outcome(rtAll, data);
            expect(outcome(all, data), `${file} ${variant} /${at.join('/')} ${JSON.stringify(value)}`).toEqual(want);
            expect(fast(data), `${file} ${variant} /${at.join('/')}`).toBe(rtFast(data));
            cases++;
            errors += want.valid ? 0 : (want.errors as unknown[]).length;
            leafPaths += JSON.stringify(want.errors).split('"schemaPath":"/schemas/').length - 1;
          }
        }
      }
      expect(cases).toBeGreaterThan(runs(5_000));
      expect(errors).toBeGreaterThan(runs(10_000));
      expect(leafPaths).toBeGreaterThan(runs(1_000));
    },
    300_000,
  );
});

describe('fuzz findings that ran 25-70 s before the rewrite (seed 20260430)', () => {
  // 104760: 50,000 distinct items appended under a uniqueItems array of $ref'd items;
  // 578752: the same inside reporting_capabilities; 372242: 50,000 invalid accounts (error merging).
  for (const index of [104760, 578752, 372242]) {
    test(`case ${index} is rejected as SCHEMA_MISMATCH`, () => {
      const result = runCase(makeCase(20260430, index));
      expect(result.findings.filter((f) => f.kind !== 'slow')).toEqual([]);
      expect(result.outcome).toBe('SCHEMA_MISMATCH');
    }, 60_000);
  }
});

describe('every generated validator module', () => {
  test('has no pairwise uniqueItems loop and no error concat; the listing modules stop past the limit', () => {
    // A module's variant: what the entries that load it are (a chunk serves one variant).
    const variants = new Map<string, Set<'fast' | 'listing'>>();
    for (const { version } of releasesOf())
      for (const entry of entryFiles(version))
        for (const file of closure(entry))
          variants.set(file, (variants.get(file) ?? new Set()).add(entry.endsWith('.errors.js') ? 'listing' : 'fast'));
    expect([...variants.keys()].sort()).toEqual([...releasesOf().flatMap((r) => entryFiles(r.version)), ...chunkFiles()].sort());
    for (const [file, kinds] of variants) {
      const code = readFileSync(file, 'utf8');
      const name = path.relative(REPO_ROOT, file);
      expect(code, name).not.toMatch(pairwise);
      expect(code, name).not.toContain('.concat(');
      expect(code, name).not.toMatch(/\brequire\s*\(/);
      // Every map key escape goes through its loop's once-per-visit pointer; a fast module escapes none.
      expect(code, name).not.toMatch(bareEscape);
      expect(kinds.size, name).toBe(1);
      if (kinds.has('fast')) expect(code, name).not.toMatch(/instancePath|\.replace\(/);
      for (const [, key] of code.matchAll(/\((key\d+)Ptr \?\?= /g)) expect(code, name).toContain(`for(const ${key} in `);
      // Every recorded or merged error is checked against the limit (in line, or by recordError and mergeErrors).
      if (kinds.has('listing')) {
        expect(code.split('errors++;if(errors > LISTING_LIMIT){stopListing(vErrors);}').length, name).toBe(code.split('errors++;').length);
        expect(code, name).not.toMatch(/= \{instancePath|vErrors\.push\(e\)/);
      }
      if (file.endsWith('.errors.js'))
        expect(code).toContain('export { ListingStopped, LISTING_LIMIT as listingLimit } from "../../../validate/runtime/index.js";');
    }
    expect(variants.size).toBeGreaterThan(240);
  });
});

/**
 * The work of escaping map keys into JSON Pointers while `run` runs: the characters of every
 * string Ajv's key escape (`.replace(/~/g, "~0")`) is called on. Counts work, not time.
 */
function escapedChars(run: () => unknown): number {
  const replace = String.prototype.replace;
  let chars = 0;
  function counting(this: string, pattern: unknown, replacement: unknown): string {
    if (pattern instanceof RegExp && pattern.source === '~') chars += this.length;
    return Reflect.apply(replace, this, [pattern, replacement]) as string;
  }
  String.prototype.replace = counting as typeof replace;
  try {
    run();
  } finally {
    String.prototype.replace = replace;
  }
  return chars;
}

/**
 * Key length and items under it, then both doubled. The unit lane takes a quarter of each (250
 * characters, 50 items): the work is counted, so doubling still tells linear (2×) from L × N (4×).
 */
const SMALL = { length: runs(1_000), items: runs(200) };

describe('escaping map keys is linear in key length × items (issue 11)', () => {
  // Every map of every task variant of both versions, in the error-listing validators (which visit
  // every member whatever else is wrong, so a bare payload reaches each map): one key of length L
  // holding `~/` runs over N items (numbers, strings or objects; in an array or in the members of
  // an object), then 2L and 2N. Linear: twice the work. Ajv's own code did L × N: four times.
  const rows = versions.flatMap((version) => {
    const tables = tablesByVersion[version];
    return tables.tasks.flatMap((task) => {
      const ids = tables.schemaIds[task]!;
      const variants: [string, string][] = [
        ['response', ids.response],
        ...Object.entries(ids.async).map(([s, id]): [string, string] => [s.replace('-', '_'), id]),
      ];
      // The request validator (encode) sits in the same modules.
      variants.push(['request', (requestTablesByVersion[version] as Record<string, { schemaId: string }>)[task]!.schemaId]);
      return variants.flatMap(([variant, id]) => mapSites(version, id).map((site) => ({ version, task, variant, site })));
    });
  });

  test('the table covers every task that has a map, in both versions', () => {
    const tasks = new Set(rows.map((r) => `${r.version} ${r.task}`));
    // Tasks whose listing validator escapes a key are exactly the tasks that have a map site.
    for (const version of versions) {
      for (const file of entryFiles(version).filter((f) => f.endsWith('.errors.js'))) {
        const escapes = reached(file).some((d) => d.code.includes('Ptr ??= key'));
        const task = path.basename(file, '.errors.js');
        expect(tasks.has(`${version} ${task}`), `${version} ${task}`).toBe(escapes);
      }
    }
    expect(rows.length).toBeGreaterThan(60);
  });

  test('every map site: twice the key and twice the items cost twice the escaping, not four times', () => {
    // The task's error-listing module (an ES module; Node >= 20.19 require()s it synchronously).
    const listing = (version: (typeof versions)[number], task: string) =>
      requireHere(path.join(REPO_ROOT, 'src/generated', versionFolders[version], `validators/${task}.errors.js`)) as Module;
    const unreached: string[] = [];
    const reached: string[] = [];
    const growth: number[] = [];
    for (const { version, task, variant, site } of rows) {
      const validate = validatorOf(listing(version, task), variant);
      let seen = false;
      for (const child of [0, 'x', {}] as Child[]) {
        for (const shape of ['array', 'object'] as const) {
          const work = (n: number) => escapedChars(() => validate(mapPayload(site, n * SMALL.length, n * SMALL.items, child, shape)));
          const [once, twice] = [work(1), work(2)];
          if (once === 0) continue;
          seen = true;
          growth.push(twice / once);
          // Each visit of the long key escapes it at most once: the work is a small multiple of L.
          expect(twice / once, `${version} ${task} ${variant} ${site.label} ${JSON.stringify(child)} ${shape}`).toBeLessThanOrEqual(2.01);
          expect(once, `${version} ${task} ${site.label}`).toBeLessThan(64 * SMALL.length);
        }
      }
      (seen ? reached : unreached).push(`${version} ${task} ${site.label}`);
    }
    expect(growth.length).toBeGreaterThan(300);
    // Sites the bare payload cannot reach sit behind an anyOf branch that an earlier branch
    // accepts (get_task_status' result, comply_test_controller's request params.result); each is
    // the map of another task, reached there.
    const behindResult = (version: string, task: string, at: string) => [
      `${version} ${task} ${at}/creative_manifest/assets (^[a-z0-9_]+$)`,
      `${version} ${task} ${at}/preview/previews/0/input/macros`,
      `${version} ${task} ${at}/preview/previews/0/input/macros`,
      `${version} ${task} ${at}/creatives/0/assignment_errors (^[a-zA-Z0-9_-]+$)`,
    ];
    expect(unreached).toEqual([
      ...behindResult(V3_1, 'comply_test_controller', '/params/result'),
      ...behindResult(V3_1, 'get_task_status', '/result'),
      ...behindResult(V3_0, 'comply_test_controller', '/params/result'),
    ]);
    for (const miss of unreached) {
      const tail = miss.replace(/^\S+ \w+ (\/params)?\/result(\/preview)?/, '');
      const version = miss.split(' ')[0]!;
      expect(
        reached.some(
          (r) => r.startsWith(`${version} `) && !r.includes('get_task_status') && !r.includes('comply_test_controller') && r.endsWith(tail),
        ),
        miss,
      ).toBe(true);
    }
  }, 120_000);

  describe('get_products, the reported case: a valid payload with a long filter_diagnostics key', () => {
    const version = V3_1;
    const valid = JSON.parse(readFileSync(path.join(payloadFolder(version), 'get_products.valid.json'), 'utf8')) as Record<string, unknown>;
    // A key of `~` runs over N strings: each string fails the `object` branch of a oneOf.
    const payload = (n: number) => ({
      ...valid,
      filter_diagnostics: { excluded_by: { ['~'.repeat(n * 5_000)]: { count: 1, values: Array.from({ length: n * 1_000 }, () => 'a') } } },
    });

    test('decode() accepts it without escaping the key at all (the fast module builds no pointer)', () => {
      const work = (n: number) =>
        escapedChars(() =>
          expect(safeDecode('get_products', { content: [], structuredContent: payload(n) }, { version }).success).toBe(true),
        );
      expect([work(1), work(2)]).toEqual([0, 0]);
    });

    test('listing it when it fails elsewhere: doubling key and items doubles the escaping', () => {
      const work = (n: number) =>
        escapedChars(() => {
          const result = safeDecode('get_products', { content: [], structuredContent: { ...payload(n), products: 'none' } }, { version });
          expect(result.success ? undefined : result.error.code).toBe('SCHEMA_MISMATCH');
        });
      const [once, twice] = [work(1), work(2)];
      expect(once).toBeGreaterThan(0);
      expect(twice / once).toBeLessThanOrEqual(2.01);
    });

    test("Ajv's own code (compiled at run time, no rewrite) escapes the key once per item: four times the work", () => {
      const validate = runtimeAjv(version, false).getSchema(
        `/schemas/${version}/media-buy/get-products-response.json`,
      ) as CompiledValidator;
      const work = (n: number) => escapedChars(() => expect(validate(payload(n))).toBe(true));
      const [once, twice] = [work(1), work(2)];
      expect(once).toBeGreaterThanOrEqual(1_000 * 5_000);
      expect(twice / once).toBeGreaterThan(3.9);
    }, 60_000);
  });
});
