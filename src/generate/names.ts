/**
 * Names by content for the declarations of Ajv's modules: each declaration is renamed after a hash
 * of its code and its variant, in which the declarations it uses already carry their own content
 * names (a Merkle hash, over strongly connected groups where schemas recurse). Equal code of a
 * variant gets the same name in every release, so chunks.ts keeps one copy of it; a changed
 * schema renames only what reaches it. The variants share nothing (only a few regexes would
 * coincide), so that a failing decode's listing loads no verdict code and a passing one no listing.
 */
import { createHash } from 'node:crypto';
import { type AjvModule, type Declaration, identifiers } from './declarations.js';

/** A declaration under its content name, its code and uses renamed accordingly. */
export interface Named {
  readonly name: string;
  readonly code: string;
  readonly uses: readonly string[];
  readonly runtime: readonly string[];
}

/** The prefix of a content name, per Ajv's kind of declaration (short: the names recur in the code). */
const PREFIX: Readonly<Record<string, string>> = { validate: 'v', schema: 's', pattern: 'p', formats: 'f', func: 'u' };

/** A content name: the declaration's prefix and 10 base-36 digits (51 bits) of the hash. */
function contentName(ajvName: string, hash: Buffer): string {
  const prefix = PREFIX[/^[a-z]+/.exec(ajvName)?.[0] ?? ''];
  if (prefix === undefined) throw new Error(`generate: names met a declaration ${ajvName}; update src/generate/names.ts`);
  return `${prefix}_${hash.readBigUInt64BE(0).toString(36).padStart(13, '0').slice(0, 10)}`;
}

/**
 * Replaces the names of declarations in some code (never inside strings, comments or regexes,
 * never a property after `.`).
 *
 * @param code A declaration's code.
 * @param rename Old name → new name; names not in it stay.
 * @returns The code with the names replaced.
 * @example
 * renameIn('validate3(data)', new Map([['validate3', 'v_0abc']])); // 'v_0abc(data)'
 */
function renameIn(code: string, rename: ReadonlyMap<string, string>): string {
  let out = '';
  let from = 0;
  for (const { at, name } of identifiers(code, 'a declaration').names) {
    const to = rename.get(name);
    if (to === undefined) continue;
    out += code.slice(from, at) + to;
    from = at + name.length;
  }
  return out + code.slice(from);
}

/** The strongly connected groups of the declarations (Tarjan), each after the groups it uses. */
function groups(decls: ReadonlyMap<string, Declaration>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of decls.get(v)!.uses) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) {
      onStack.delete(w);
      group.push(w);
    }
    out.push(group.sort());
  };
  for (const v of decls.keys()) if (!index.has(v)) visit(v);
  return out;
}

/**
 * Every declaration of Ajv's module under its content name.
 *
 * @param module Ajv's module of one release and variant, as declarations.
 * @param variant The variant (`fast`, `listing`), hashed with the code.
 * @returns Ajv's name → the declaration renamed.
 * @example
 * contentNames(declarations(code), 'fast').get('validate10')?.name; // 'v_1k3j9x0a2b'
 */
export function contentNames(module: AjvModule, variant: string): Map<string, Named> {
  const rename = new Map<string, string>();
  const out = new Map<string, Named>();
  for (const group of groups(module.declarations)) {
    // Inside a group, members name each other by their place in it; outside, by content name.
    const local = new Map([...rename, ...group.map((n, i): [string, string] => [n, `\0${i}`])]);
    const base = createHash('sha256').update(`${variant}\0`);
    for (const n of group) base.update(`${n.replace(/\d+$/, '')}\0${renameIn(module.declarations.get(n)!.code, local)}\0`);
    const digest = base.digest();
    for (const [i, n] of group.entries()) {
      rename.set(n, contentName(n, group.length === 1 ? digest : createHash('sha256').update(digest).update(String(i)).digest()));
    }
    for (const n of group) {
      const d = module.declarations.get(n)!;
      out.set(n, { name: rename.get(n)!, code: renameIn(d.code, rename), uses: d.uses.map((u) => rename.get(u)!), runtime: d.runtime });
    }
  }
  return out;
}
