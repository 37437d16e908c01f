/**
 * Ajv's standalone module of one release (all its entries' schemas, after the rewrites) read as
 * declarations: the runtime helpers it imports, its exports, and each top-level `const` and
 * `function` with the declarations and helpers it names. chunks.ts regroups them into shared
 * modules. Every top-level statement must have one of the shapes below, and every comment be
 * Ajv's sourceURL; anything else fails the build, so that code is never split where it is not known.
 */
import { RUNTIME_MODULE, tokenEnd } from './rewrites.js';

/** A top-level `const` or `function` of Ajv's module. */
export interface Declaration {
  /** Ajv's name for it: `validate12`, `schema31`, `pattern4`, `formats2`, `func0`. */
  readonly name: string;
  /** The statement, without Ajv's sourceURL comment. */
  readonly code: string;
  /** The other declarations it names, in order of first use. */
  readonly uses: readonly string[];
  /** The runtime helpers it names. */
  readonly runtime: readonly string[];
}

/** Ajv's module as declarations. */
export interface AjvModule {
  /** Export name → the validate function it exports. */
  readonly exports: ReadonlyMap<string, string>;
  /** Name → declaration, in Ajv's order. */
  readonly declarations: ReadonlyMap<string, Declaration>;
}

/** An identifier of the code (not a property name after `.`, not inside a string, comment or regex). */
interface Name {
  readonly at: number;
  readonly name: string;
}

const IDENTIFIER = /[A-Za-z_$][\w$]*/y;

/**
 * The identifiers of some code that are not property accesses, outside strings, comments and
 * format regexes (tokenEnd of rewrites.ts), with Ajv's sourceURL comments collected apart.
 *
 * @param code Ajv's code, or a statement of it.
 * @param where What is scanned, for the build error.
 * @returns The identifiers and the sourceURL comments' ranges.
 * @throws Error for a comment other than Ajv's sourceURL.
 * @example
 * identifiers('f(validate3.errors)', 'x').names; // [{ at: 0, name: 'f' }, { at: 2, name: 'validate3' }]
 */
export function identifiers(code: string, where: string): { names: Name[]; comments: Array<readonly [number, number]> } {
  const names: Name[] = [];
  const comments: Array<readonly [number, number]> = [];
  for (let i = 0; i < code.length; ) {
    const end = tokenEnd(code, i, 'declarations');
    if (end > i + 1) {
      if (code.startsWith('/*', i)) {
        if (!/^\/\*# sourceURL="[^"]*" \*\/$/.test(code.slice(i, end))) throw unknown(where, `a comment ${code.slice(i, i + 40)}`);
        comments.push([i, end]);
      }
      i = end;
      continue;
    }
    IDENTIFIER.lastIndex = i;
    const m = /[A-Za-z_$]/.test(code[i]!) && !/[\w$]/.test(code[i - 1] ?? '') ? IDENTIFIER.exec(code) : null;
    if (m === null) {
      i++;
      continue;
    }
    if (code[i - 1] !== '.') names.push({ at: i, name: m[0] });
    i += m[0].length;
  }
  return { names, comments };
}

function unknown(where: string, what: string): Error {
  return new Error(`generate: declarations met ${what} in ${where}; update src/generate/declarations.ts`);
}

/** Ajv's top-level statements: split at each `;` and at the end of each function, outside brackets. */
function statements(code: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < code.length; ) {
    const end = tokenEnd(code, i, 'declarations');
    if (end > i + 1) {
      i = end;
      continue;
    }
    const c = code[i]!;
    if ('({['.includes(c)) depth++;
    else if (')}]'.includes(c)) depth--;
    const endsFunction = c === '}' && depth === 0 && /^\s*function /.test(code.slice(start, start + 20));
    if (depth < 0) throw unknown('the module', `an unmatched ${c} at ${i}`);
    if ((c === ';' && depth === 0) || endsFunction) {
      out.push(code.slice(start, i + 1).trim());
      start = i + 1;
    }
    i++;
  }
  if (depth !== 0 || code.slice(start).trim() !== '') throw unknown('the module', 'an unterminated statement at its end');
  return out.filter((s) => s !== '');
}

/** A declaration's code without its sourceURL comment, and the names it uses. */
function declaration(name: string, statement: string, known: ReadonlySet<string>, runtime: ReadonlySet<string>): Declaration {
  const { names, comments } = identifiers(statement, name);
  let code = statement;
  for (const [from, to] of [...comments].reverse()) code = code.slice(0, from) + code.slice(to);
  const uses = new Set<string>();
  const helpers = new Set<string>();
  for (const n of names) {
    if (n.name !== name && known.has(n.name)) uses.add(n.name);
    else if (runtime.has(n.name)) helpers.add(n.name);
  }
  return { name, code, uses: [...uses], runtime: [...helpers].sort() };
}

/**
 * Reads Ajv's rewritten standalone module of a release as declarations.
 *
 * @param code The module: Ajv's standaloneCode of every exported schema, through rewrite().
 * @returns Its exports and declarations.
 * @throws Error for a statement of a shape it does not know (the build fails).
 * @example
 * declarations(rewrite(standaloneCode(ajv, refs), 'fast')).exports.get('x0'); // 'validate10'
 */
export function declarations(code: string): AjvModule {
  const exports = new Map<string, string>();
  const runtime = new Set<string>();
  const found: Array<readonly [string, string]> = [];
  for (const statement of statements(code)) {
    const imported = /^import \{ ([\w, ]+) \} from "([^"]+)";$/.exec(statement);
    const exported = /^export const (\w+) = (validate\d+);$/.exec(statement);
    const declared = /^const ((?:schema|pattern|formats|func)\d+) = /.exec(statement) ?? /^function (validate\d+)\(/.exec(statement);
    if (imported !== null && imported[2] === RUNTIME_MODULE) for (const n of imported[1]!.split(', ')) runtime.add(n);
    else if (exported !== null) exports.set(exported[1]!, exported[2]!);
    else if (declared !== null) found.push([declared[1]!, statement]);
    else if (statement !== '"use strict";') throw unknown('the module', `a statement ${JSON.stringify(statement.slice(0, 60))}`);
  }
  const known = new Set(found.map(([name]) => name));
  if (known.size !== found.length) throw unknown('the module', 'a name declared twice');
  const declared = new Map(found.map(([name, statement]) => [name, declaration(name, statement, known, runtime)]));
  for (const [name, fn] of exports) if (!declared.has(fn)) throw unknown('the module', `export ${name} of an undeclared ${fn}`);
  return { exports, declarations: declared };
}
