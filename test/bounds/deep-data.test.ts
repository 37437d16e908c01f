/**
 * Deep data: Ajv's generated validators recurse (one function per `$ref`d schema, and
 * fast-deep-equal for `uniqueItems`, `enum` and `const`), so the depth bound has to hold before
 * any of them runs. This file shows that it does, and that it matters:
 *
 * 1. The pinned schemas have no recursive `$ref`s (the schema graph from every task response is
 *    acyclic), so a validator descends no deeper than its schema; the deepest instance path any
 *    of them can follow is computed and pinned. A schema update that adds recursion fails here.
 * 2. They do recurse with the data in one place: `uniqueItems` over object items compares items
 *    with fast-deep-equal, which recurses as deep as two equal items go. Two equal items nested
 *    100,000 levels overflow the stack of the raw (error-listing) validator; decode() refuses the
 *    same payload with TOO_DEEP before validation, from structuredContent and from text.
 * 3. A recursive schema (as a future AdCP version may add), compiled with Ajv the way the codegen
 *    does, overflows on a payload nested along its recursion; the bound decode() applies first
 *    (snapshot for structuredContent, checkTree for parsed text) refuses that payload with TOO_DEEP.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import AjvModule from 'ajv';
import { describe, expect, test } from 'vitest';
import { listFiles, readLockVersions, schemaDir } from '../../scripts/schema-paths.js';
import { DEFAULT_BOUNDS } from '../../src/bounds/bounds.js';
import { checkTree } from '../../src/bounds/check-tree.js';
import { snapshot } from '../../src/bounds/snapshot.js';
import { safeDecode, type TaskName } from '../../src/decode/decode.js';
import { LimitError } from '../../src/errors/errors.js';
import type { Version } from '../../src/schema/versions.js';
import { listIssues } from '../../src/validate/validators.js';

const Ajv = AjvModule.default;
type Schema = Record<string, unknown>;

const jsonFiles = (dir: string): string[] => listFiles(dir).filter((f) => f.endsWith('.json'));

/** A version's schemas by `$id`, and its manifest's task → response schema `$id`. */
function load(version: string): { byId: Map<string, Schema>; responses: Map<string, string> } {
  const byId = new Map<string, Schema>();
  for (const file of jsonFiles(schemaDir(version))) {
    const schema = JSON.parse(readFileSync(file, 'utf8')) as Schema;
    if (typeof schema['$id'] === 'string') byId.set(schema['$id'], schema);
  }
  const manifest = JSON.parse(readFileSync(path.join(schemaDir(version), 'manifest.json'), 'utf8')) as {
    tools: Record<string, { response_schema: string }>;
  };
  const responses = new Map(Object.entries(manifest.tools).map(([task, tool]) => [task, `/schemas/${version}/${tool.response_schema}`]));
  return { byId, responses };
}

/** A schema location: the `$id` of its file and a JSON Pointer inside it. */
interface At {
  readonly id: string;
  readonly pointer: string;
}

/** One step from a schema node: to another schema node, and the instance key it descends into (or none). */
interface Edge {
  readonly to: At;
  readonly key: string | null;
}

function resolve(byId: Map<string, Schema>, at: At): Schema | undefined {
  let node: unknown = byId.get(at.id);
  for (const part of at.pointer.split('/').slice(1)) node = (node as Schema | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return typeof node === 'object' && node !== null ? (node as Schema) : undefined;
}

function edges(byId: Map<string, Schema>, at: At): Edge[] {
  const node = resolve(byId, at);
  if (node === undefined) return [];
  const out: Edge[] = [];
  const child = (suffix: string, key: string | null): void => void out.push({ to: { id: at.id, pointer: `${at.pointer}/${suffix}` }, key });
  const ref = node['$ref'];
  if (typeof ref === 'string') {
    const [file, fragment = ''] = ref.split('#');
    out.push({ to: { id: file === '' ? at.id : (file as string), pointer: fragment }, key: null });
  }
  for (const [k, v] of Object.entries(node)) {
    if (typeof v !== 'object' || v === null) continue;
    if (k === 'properties' || k === 'patternProperties')
      for (const name of Object.keys(v)) child(`${k}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, k === 'properties' ? name : '*');
    else if (k === 'items' || k === 'additionalItems' || k === 'contains') {
      if (Array.isArray(v))
        v.forEach((_, i) => {
          child(`${k}/${i}`, String(i));
        });
      else child(k, '0');
    } else if (k === 'additionalProperties') child(k, '*');
    else if (k === 'allOf' || k === 'anyOf' || k === 'oneOf')
      (v as unknown[]).forEach((_, i) => {
        child(`${k}/${i}`, null);
      });
    else if (k === 'not' || k === 'if' || k === 'then' || k === 'else' || k === 'propertyNames') child(k, null);
  }
  return out;
}

const key = (at: At): string => `${at.id}#${at.pointer}`;

/** The schema nodes reachable from the task responses that lie on a cycle (recursive `$ref`s). */
function recursiveNodes(byId: Map<string, Schema>, roots: readonly string[]): string[] {
  // Iterative Tarjan over the reachable schema graph.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const nodes = new Map<string, At>();
  const out: string[] = [];
  let counter = 0;
  for (const root of roots) {
    const start: At = { id: root, pointer: '' };
    if (index.has(key(start))) continue;
    const work: Array<{ at: At; next: Edge[]; i: number }> = [];
    const open = (at: At): void => {
      const k = key(at);
      nodes.set(k, at);
      index.set(k, counter);
      low.set(k, counter++);
      stack.push(k);
      onStack.add(k);
      work.push({ at, next: edges(byId, at), i: 0 });
    };
    open(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const k = key(frame.at);
      if (frame.i < frame.next.length) {
        const to = frame.next[frame.i++]!.to;
        const tk = key(to);
        if (!index.has(tk)) open(to);
        else if (onStack.has(tk)) low.set(k, Math.min(low.get(k)!, index.get(tk)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = key(work[work.length - 1]!.at);
        low.set(parent, Math.min(low.get(parent)!, low.get(k)!));
      }
      if (low.get(k) === index.get(k)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== k);
        const selfLoop = edges(byId, frame.at).some((e) => key(e.to) === k);
        if (component.length > 1 || selfLoop) out.push(...component);
      }
    }
  }
  return out.sort();
}

/** The longest instance path a validator of an acyclic schema graph can follow from `at`. */
function deepest(byId: Map<string, Schema>, at: At, memo: Map<string, number>): number {
  const k = key(at);
  const known = memo.get(k);
  if (known !== undefined) return known;
  memo.set(k, 0);
  let best = 0;
  for (const e of edges(byId, at)) best = Math.max(best, (e.key === null ? 0 : 1) + deepest(byId, e.to, memo));
  memo.set(k, best);
  return best;
}

/** An instance path (keys) from a response to a `uniqueItems` array whose items may be objects. */
function uniqueObjectArray(byId: Map<string, Schema>, root: string): string[] | undefined {
  const seen = new Set<string>();
  const queue: Array<{ at: At; path: string[] }> = [{ at: { id: root, pointer: '' }, path: [] }];
  while (queue.length > 0) {
    const { at, path: keys } = queue.shift()!;
    if (seen.has(key(at))) continue;
    seen.add(key(at));
    const node = resolve(byId, at);
    if (node === undefined) continue;
    const items = node['items'];
    if (node['uniqueItems'] === true && typeof items === 'object' && items !== null && !Array.isArray(items)) {
      const type = (items as Schema)['type'];
      if (type === 'object' || type === undefined) return keys;
    }
    for (const e of edges(byId, at))
      if (e.key !== '*' && keys.length < 8) queue.push({ at: e.to, path: e.key === null ? keys : [...keys, e.key] });
  }
  return undefined;
}

function nest(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = { n: v };
  return v;
}

/** A payload whose `path` leads to an array of two equal items nested `depth` levels. */
function deepPayload(keys: readonly string[], depth: number): Record<string, unknown> {
  const items = [{ deep: nest(depth) }, { deep: nest(depth) }];
  let value: unknown = items;
  for (let i = keys.length - 1; i >= 0; i--) value = /^\d+$/.test(keys[i]!) ? [value] : { [keys[i]!]: value };
  return value as Record<string, unknown>;
}

const { versions } = readLockVersions();

describe.each(versions)('AdCP %s', (version) => {
  const { byId, responses } = load(version);

  test('no schema reachable from a task response is recursive', () => {
    const recursive = recursiveNodes(byId, [...responses.values()]);
    // A new recursive $ref needs a deep-payload case like the ones below: add it, then pin it here.
    expect(recursive).toEqual([]);
  });

  test('so no validator descends deeper than its schema: at most 20 levels, far inside maxDepth', () => {
    const memo = new Map<string, number>();
    const depth = Math.max(...[...responses.values()].map((id) => deepest(byId, { id, pointer: '' }, memo)));
    expect(depth).toBeLessThan(DEFAULT_BOUNDS.maxDepth);
    expect(depth).toBeLessThanOrEqual(20);
  });

  test('uniqueItems recursion: the raw validator overflows on 100,000 levels; decode() says TOO_DEEP first', () => {
    const found = [...responses.entries()]
      .map(([task, id]) => [task, uniqueObjectArray(byId, id)] as const)
      .find(([, p]) => p !== undefined);
    expect(found).toBeDefined();
    const [task, keys] = found as [string, string[]];
    const payload = deepPayload(keys, 100_000);
    // What validation would do without the bound: fast-deep-equal recurses 100,000 frames.
    expect(() => listIssues(version as Version, task, 'response', payload)).toThrow(RangeError);
    // What decode() does: the walk refuses the depth before any validator runs.
    const structured = safeDecode(task as TaskName, { content: [], structuredContent: payload }, { version: version as Version });
    expect(structured).toMatchObject({ success: false, error: { code: 'TOO_DEEP', unit: 'depth' } });
    const deep = `${'{"n":'.repeat(100_000)}"bottom"${'}'.repeat(100_000)}`;
    const json = keys.reduceRight(
      (inner, k) => (/^\d+$/.test(k) ? `[${inner}]` : `{${JSON.stringify(k)}:${inner}}`),
      `[{"deep":${deep}},{"deep":${deep}}]`,
    );
    const text = safeDecode(task as TaskName, { content: [{ type: 'text', text: json }] }, { version: version as Version });
    expect(text).toMatchObject({ success: false, error: { code: 'TOO_DEEP', unit: 'depth' } });
  });
});

describe('a recursive schema, as a future version may bring', () => {
  const schema = {
    $id: 'https://example.test/tree.json',
    type: 'object',
    properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
    additionalProperties: false,
  };

  function along(depth: number): Record<string, unknown> {
    let node: Record<string, unknown> = { name: 'leaf', children: [] };
    for (let i = 0; i < depth; i++) node = { name: 'node', children: [node] };
    return node;
  }

  test.each([false, true])(
    'compiled as the codegen does (allErrors %s), it overflows on a payload nested 100,000 levels along the recursion',
    (allErrors) => {
      const validate = new Ajv({ allErrors, strict: true, code: { source: true, esm: false, lines: false, optimize: true } }).compile(
        schema,
      );
      expect(validate(along(50))).toBe(true);
      expect(() => validate(along(100_000))).toThrow(RangeError);
    },
  );

  test('the bound decode() applies before validation refuses it with TOO_DEEP', () => {
    let error: unknown;
    try {
      snapshot(along(100_000), DEFAULT_BOUNDS, { what: 'structuredContent' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ code: 'TOO_DEEP', unit: 'depth', limit: 64, actual: 65 });
    // At any depth: the walk is iterative.
    expect(() => checkTree(along(1_000_000), DEFAULT_BOUNDS, { what: 'content[0].text' })).toThrow(LimitError);
  });
});
