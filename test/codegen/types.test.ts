/**
 * The types half of codegen that issue 12 added: keys an arm's `not` forbids become `k?: never`,
 * each version's pinned entry exports every named type under one name, and package.json exports
 * a pinned entry per bundled release.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { REPO_ROOT } from '../../scripts/schema-paths.js';
import { pinnedNames } from '../../src/generate/entries.js';
import { banner, type Stamp } from '../../src/generate/output.js';
import { absentKeys, forbiddenKeys } from '../../src/generate/shapes.js';
import { typesModule } from '../../src/generate/type-module.js';
import { versionFolders } from '../../src/generated/index.js';
import { versions } from '../../src/index.js';

test.each([
  ['not: { required: [k] }', { required: ['errors'] }, ['errors']],
  [
    'not: { anyOf: [{ required: [k] }, ...] }',
    { anyOf: [{ required: ['media_buy_id'] }, { required: ['packages'] }] },
    ['media_buy_id', 'packages'],
  ],
  // An alternative that also constrains a value forbids no key by itself.
  [
    'an alternative with a value constraint',
    { anyOf: [{ required: ['sandbox'] }, { properties: { status: { const: 'submitted' } }, required: ['status'] }] },
    ['sandbox'],
  ],
  // Two keys required together: each alone is allowed.
  ['two keys together', { required: ['a', 'b'] }, []],
  ['anyOf beside another keyword', { anyOf: [{ required: ['a'] }], type: 'object' }, []],
  ['no not', undefined, []],
] as const)('forbiddenKeys: %s', (_name, not, keys) => {
  expect(forbiddenKeys(not as never)).toEqual(keys);
});

test('absentKeys declares forbidden keys as never, keeps required ones, and leaves conditions alone', () => {
  const arm = {
    type: 'object',
    required: ['errors'],
    properties: { errors: { type: 'array' } },
    not: { anyOf: [{ required: ['media_buy_id'] }, { required: ['errors'] }] },
    if: { not: { required: ['x'] } },
  };
  const out = absentKeys(arm) as { properties: Record<string, unknown>; if: unknown };
  expect(Object.keys(out.properties)).toEqual(['errors', 'media_buy_id']);
  expect(out.properties.media_buy_id).toMatchObject({ tsType: 'never' });
  expect(out.properties.errors).toEqual({ type: 'array' });
  expect(out.if).toEqual(arm.if);
  expect(arm.properties).toEqual({ errors: { type: 'array' } }); // the input is not changed
});

test('pinnedNames: a schema file keeps its own name; the others that collide are prefixed', () => {
  const types = new Map([
    ['types/a-response.ts', 'export type AResponse = 1\nexport interface ASubmitted {}\nexport type Fixed = 2'],
    ['types/a-submitted.ts', 'export interface ASubmitted {}'],
    ['types/b.ts', 'export type B = 1\nexport type Fixed = 3'],
  ]);
  const main = new Map([
    ['types/a-response.ts', 'AResponse'],
    ['types/a-submitted.ts', 'ASubmitted'],
    ['types/b.ts', 'B'],
  ]);
  expect(Object.fromEntries(pinnedNames(types, main))).toEqual({
    'types/a-response.ts': [
      ['AResponse', 'AResponse'],
      ['ASubmitted', 'AResponseASubmitted'],
      ['Fixed', 'AResponseFixed'],
    ],
    'types/a-submitted.ts': [['ASubmitted', 'ASubmitted']],
    'types/b.ts': [
      ['B', 'B'],
      ['Fixed', 'BFixed'],
    ],
  });
  expect(() => pinnedNames(new Map([['types/x.ts', 'export type decode = 1']]), new Map([['types/x.ts', 'decode']]))).toThrow(
    /both export decode/,
  );
});

test('typesModule joins the modules under their exported names: imports dropped, members and comments untouched', () => {
  const stamp: Stamp = {
    generator: 'adcp-decode 9.9.9',
    tools: 'none',
    regenerate: 'again',
    sources: new Map([['9.9.9', 'ab'.repeat(32)]]),
  };
  const head = banner(stamp, '9.9.9');
  const types = new Map([
    [
      'types/core/a.ts',
      `import type { B as $B } from '../enums/b.js';\n\n/** Fixed or $B, 'Fixed'. */\nexport type A = Fixed | $B\nexport interface Fixed { Fixed?: Fixed; B: string; "Fixed-x": Fixed }`,
    ],
    ['types/enums/b.ts', `export type B = Fixed\nexport type Fixed = 'fixed'`],
  ]);
  const main = new Map([
    ['types/core/a.ts', 'A'],
    ['types/enums/b.ts', 'B'],
  ]);
  const text = typesModule(stamp, '9.9.9', types, pinnedNames(types, main));
  expect(head).toContain(`AdCP 9.9.9 (source sha256 ${'ab'.repeat(32)})`);
  expect(text).toBe(
    `${head}\n// core/a.json\n\n/** Fixed or $B, 'Fixed'. */\nexport type A = AFixed | B\nexport interface AFixed { Fixed?: AFixed; B: string; "Fixed-x": AFixed }\n\n` +
      `// enums/b.json\n\nexport type B = BFixed\nexport type BFixed = 'fixed'\n`,
  );
  // A name from another module that is not imported, or an import of a name it does not declare, fails the build.
  const stray = new Map([['types/x.ts', 'export type X = $Y']]);
  expect(() => typesModule(stamp, '9.9.9', stray, pinnedNames(stray, new Map([['types/x.ts', 'X']])))).toThrow(/names \$Y/);
  const missing = new Map([['types/x.ts', `import type { Z as $Z } from './y.js';\nexport type X = $Z`]]);
  expect(() => typesModule(stamp, '9.9.9', missing, pinnedNames(missing, new Map([['types/x.ts', 'X']])))).toThrow(/imports Z/);
});

test('package.json exports a pinned entry per bundled release, the same on every runtime; types first', () => {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { exports: Record<string, Record<string, string>> };
  for (const version of versions) {
    const release = version.split('.').slice(0, 2).join('.');
    const dir = `./dist/generated/${versionFolders[version]}`;
    const entry = pkg.exports[`./${release}`];
    expect(entry).toEqual({ types: `${dir}/pinned.d.ts`, default: `${dir}/pinned.js` });
    expect(Object.keys(entry ?? {})[0]).toBe('types');
  }
});
