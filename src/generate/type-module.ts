/**
 * One declaration module per release (`types.ts`, or a release module's `types.d.ts`): the
 * per-schema modules types.ts writes, joined, each declaration under the name the release exports
 * it by. A consumer's tsc then reads one file of the release instead of one per schema (resolving
 * and opening ~540 files was a third of its cost above tsc's own), and hover shows the name a buyer
 * can import. The modules are json-schema-to-typescript's declarations, read token by token (no
 * TypeScript compiler: the generator runs beside whatever TypeScript a buyer has, or none).
 */
import path from 'node:path';
import { banner, type Stamp } from './output.js';

/** An import a type module starts with, as types.ts writes it. */
const IMPORT = /^import type \{ (\w+) as (\$\w+) \} from '([^']+)';$/;

/** A name in a declaration's text that names a type: not a member's name (`name:`, `name?:`), not after `.`. */
const IDENTIFIER = /[A-Za-z_$][\w$]*/y;

/** Where the token at `at` ends when it is a comment or a string, else undefined. */
function skipped(text: string, at: number, rel: string): number | undefined {
  if (text.startsWith('/*', at)) {
    const end = text.indexOf('*/', at + 2);
    if (end < 0) throw new Error(`types module: ${rel} has an unterminated comment`);
    return end + 2;
  }
  if (text.startsWith('//', at)) {
    const end = text.indexOf('\n', at);
    return end < 0 ? text.length : end;
  }
  const quote = text[at];
  if (quote === '`') throw new Error(`types module: ${rel} has a template literal, a shape it does not know`);
  if (quote !== '"' && quote !== "'") return undefined;
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i + 1;
  }
  throw new Error(`types module: ${rel} has an unterminated string`);
}

/** Whether the identifier ending at `end` names a member: followed by `:` or `?:`. */
function isMemberName(text: string, end: number): boolean {
  let i = end;
  while (text[i] === ' ' || text[i] === '\n' || text[i] === '\t' || text[i] === '\r') i++;
  if (text[i] === '?') i++;
  return text[i] === ':';
}

/**
 * One module's declarations (its text) with their names in the joined module: its imports
 * (`import type { Product as $Product } from '../core/product.js'`) dropped and their aliases
 * replaced by the exported name, its own declarations renamed as `names` says.
 */
function joinable(rel: string, text: string, names: ReadonlyMap<string, ReadonlyMap<string, string>>): string {
  const renames = new Map(names.get(rel));
  const lines = text.split('\n');
  let first = 0;
  for (; first < lines.length; first++) {
    const line = lines[first]!;
    if (!line.startsWith('import')) break;
    const m = IMPORT.exec(line);
    if (m === null) throw new Error(`types module: ${rel} has an import of a shape it does not know`);
    const target = path.posix.join(path.posix.dirname(rel), m[3]!).replace(/\.js$/, '.ts');
    const exported = names.get(target)?.get(m[1]!);
    if (exported === undefined) throw new Error(`types module: ${rel} imports ${m[1]}, which ${target} does not declare`);
    renames.set(m[2]!, exported);
  }
  const body = lines.slice(first).join('\n');
  let out = '';
  let from = 0;
  for (let i = 0; i < body.length; ) {
    const end = skipped(body, i, rel);
    if (end !== undefined) {
      i = end;
      continue;
    }
    IDENTIFIER.lastIndex = i;
    const m = IDENTIFIER.exec(body);
    if (m === null || (i > 0 && /[\w$]/.test(body[i - 1]!))) {
      i++;
      continue;
    }
    const name = m[0];
    const stop = i + name.length;
    const member = isMemberName(body, stop) || body[i - 1] === '.';
    const to = member ? undefined : renames.get(name);
    if (to !== undefined && to !== name) {
      out += body.slice(from, i) + to;
      from = stop;
    } else if (!member && to === undefined && name.startsWith('$'))
      throw new Error(`types module: ${rel} names ${name}, which it does not import`);
    i = stop;
  }
  return (out + body.slice(from)).trim();
}

/**
 * The joined declarations of a release: every type module's declarations under their exported
 * names, in module order, each group headed by the schema file it comes from; the banner first.
 *
 * @param stamp What the banner says.
 * @param version The AdCP version.
 * @param types Type module path (`types/core/product.ts`) → text, as generateTypes writes them.
 * @param exported Type module path → its `[declared, exported]` names (entries.ts pinnedNames).
 * @returns The module's text.
 * @throws Error for an import of a shape it does not know, or a name no module declares.
 * @example
 * typesModule(stamp, '3.1.19', types, pinnedNames(types, mainOf));
 */
export function typesModule(
  stamp: Stamp,
  version: string,
  types: ReadonlyMap<string, string>,
  exported: ReadonlyMap<string, ReadonlyArray<readonly [string, string]>>,
): string {
  const names = new Map([...exported].map(([rel, list]) => [rel, new Map(list)]));
  const parts = [...types.keys()].sort().map((rel) => {
    const schema = rel.replace(/^types\//, '').replace(/\.ts$/, '.json');
    return `// ${schema}\n\n${joinable(rel, types.get(rel)!, names)}\n`;
  });
  return `${banner(stamp, version)}\n${parts.join('\n')}`;
}
