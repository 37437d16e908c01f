/**
 * Closed types: object schemas that name their members lose the `[k: string]: unknown` that let a
 * misspelt member compile, the branches that only constrain them are closed with them, and
 * alternatives declare the members their siblings require (the schema lets them in with any
 * value). Checked on small schemas, and on every generated type module of every version.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';
import { REPO_ROOT } from '../../scripts/schema-paths.js';
import { closedShapes, type Resolve, siblingMembers } from '../../src/generate/shapes.js';
import { versionFolders } from '../../src/generated/index.js';

const targets: Record<string, object> = {
  '/a.json': { type: 'object', properties: { a_id: { type: 'string' } }, required: ['a_id'] },
  '/closed.json': { type: 'object', properties: { c: {} }, required: ['c'], additionalProperties: false },
};
const resolve: Resolve = (ref) => {
  const node = targets[ref];
  return node === undefined ? undefined : { node: node as never, resolve };
};
const close = (node: object): Record<string, unknown> => closedShapes(node as never, resolve) as Record<string, unknown>;

test('an object schema that names members is closed; one that names none stays a map', () => {
  expect(close({ type: 'object', properties: { a: { type: 'string' } } }).additionalProperties).toBe(false);
  expect(close({ type: 'object', properties: { a: {} }, additionalProperties: true }).additionalProperties).toBe(false);
  expect(close({ type: ['object', 'null'], properties: { a: {} } }).additionalProperties).toBe(false);
  expect(close({ type: 'object', additionalProperties: true })).toEqual({ type: 'object', additionalProperties: true });
  expect(close({ type: 'object' })).toEqual({ type: 'object' });
  // Typed extras and pattern members are declared by the schema: left as they are.
  expect(close({ type: 'object', properties: { a: {} }, additionalProperties: { type: 'number' } }).additionalProperties).toEqual({
    type: 'number',
  });
  expect(close({ type: 'object', properties: { a: {} }, patternProperties: { '^x_': {} } }).additionalProperties).toBeUndefined();
  expect(close({ type: 'string' })).toEqual({ type: 'string' });
});

test('nested schemas are closed too; a member named like a keyword is a member', () => {
  const out = close({
    type: 'object',
    properties: {
      properties: { type: 'object', properties: { type: { type: 'string' } } },
      list: { type: 'array', items: { type: 'object', properties: { b: {} } } },
    },
    definitions: { d: { type: 'object', properties: { e: {} } } },
  }) as { properties: Record<string, Record<string, unknown>>; definitions: Record<string, Record<string, unknown>> };
  expect(Object.keys(out.properties)).toEqual(['properties', 'list']);
  expect(out.properties.properties!.additionalProperties).toBe(false);
  expect((out.properties.list!.items as Record<string, unknown>).additionalProperties).toBe(false);
  expect(out.definitions.d!.additionalProperties).toBe(false);
});

test('instances and conditions are left alone; the input is not changed', () => {
  const schema = {
    type: 'object',
    properties: { a: {} },
    examples: [{ a: 1, extra: 2 }],
    not: { properties: { b: {} } },
    if: { properties: { a: { const: 1 } } },
  };
  const copy = structuredClone(schema);
  const out = close(schema);
  expect(out.examples).toEqual(schema.examples);
  expect(out.not).toEqual(schema.not);
  expect(out.if).toEqual(schema.if);
  expect(schema).toEqual(copy);
});

test("the branches that only constrain a closed schema are closed with it, also under a synced file's own close", () => {
  for (const additionalProperties of [undefined, false]) {
    const out = close({
      type: 'object',
      properties: { url: {}, email: {} },
      anyOf: [{ required: ['url'] }, { required: ['email'] }],
      allOf: [{ if: { required: ['url'] }, then: { required: ['email'] } }],
      ...(additionalProperties === undefined ? {} : { additionalProperties }),
    }) as { anyOf: Array<Record<string, unknown>>; allOf: Array<Record<string, unknown>> };
    expect(out.anyOf.map((b) => b.additionalProperties)).toEqual([false, false]);
    expect(out.allOf[0]!.additionalProperties).toBe(false);
  }
  // A schema composed of other files' types closes its own part.
  expect(close({ type: 'object', allOf: [{ $ref: '/a.json' }], properties: {} }).additionalProperties).toBe(false);
});

test('siblingMembers: an open alternative declares what its siblings require, as unknown', () => {
  const [success, error, closed, referenced] = siblingMembers(
    [
      { type: 'object', properties: { verdict: {}, note: {} }, required: ['verdict'] },
      { type: 'object', properties: { errors: {} }, required: ['errors'], not: { required: ['verdict'] } },
      { type: 'object', properties: { c: {} }, required: ['c'], additionalProperties: false },
      { $ref: '/a.json' },
    ],
    resolve,
  ) as Array<Record<string, Record<string, unknown>>>;
  // Another arm's required members, not its optional ones (`note`), nor the arm's own.
  expect(success!.properties).toEqual({
    verdict: {},
    note: {},
    errors: { tsType: 'unknown' },
    c: { tsType: 'unknown' },
    a_id: { tsType: 'unknown' },
  });
  // Forbidden by the arm's own `not`: left to absentKeys (`never`).
  expect(Object.keys(error?.properties ?? {})).toEqual(['errors', 'c', 'a_id']);
  // A closed arm cannot carry them.
  expect(closed!.properties).toEqual({ c: {} });
  // A $ref is wrapped: its type, and beside it the siblings' members.
  expect(referenced).toEqual({
    allOf: [{ $ref: '/a.json' }],
    properties: { verdict: { tsType: 'unknown' }, errors: { tsType: 'unknown' }, c: { tsType: 'unknown' } },
  });
});

/** The one type module of a generated version folder. */
function typeModule(folder: string): string {
  return readFileSync(path.join(REPO_ROOT, 'src', 'generated', folder, 'types.ts'), 'utf8');
}

/** Each `[k: string]: unknown` that opens a type with named members: beside them, or intersected with them. */
function reopened(name: string, text: string): string[] {
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTypeLiteralNode(node) || ts.isInterfaceDeclaration(node)) {
      const open = node.members.some((m) => ts.isIndexSignatureDeclaration(m) && m.type.kind === ts.SyntaxKind.UnknownKeyword);
      let outer = node.parent;
      while (ts.isParenthesizedTypeNode(outer)) outer = outer.parent;
      if (open && (node.members.length > 1 || ts.isIntersectionTypeNode(outer)))
        found.push(`${name}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

test.each(Object.entries(versionFolders))('AdCP %s: no generated type lets a misspelt member compile', (_version, folder) => {
  const text = typeModule(folder);
  expect(text.match(/^export (?:type|interface) /gm)?.length).toBeGreaterThan(300);
  expect(reopened('types.ts', text)).toEqual([]);
  // The maps stay: a member the schemas leave free-form (ext, context) is still an index signature.
  expect(text).toMatch(/^export interface ExtensionObject \{\n\s*\[k: string\]: unknown/m);
});
