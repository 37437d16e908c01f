/**
 * A small backtracking regular-expression engine that counts its steps, for the regex audit
 * (scripts/regex-audit.ts, test/regex-audit.test.ts): timing V8 is noisy, counting the steps of a
 * backtracking matcher is not, and how the count grows with the input tells linear from
 * polynomial from exponential backtracking.
 *
 * It implements the subset of JavaScript regular expressions the AdCP schemas and ajv-formats'
 * regex formats use: literals, escapes (\d \w \s and their negations, \xHH, \uHHHH, \u{...},
 * identity escapes), classes with ranges, `.`, `^`, `$`, groups (capturing or not), alternation,
 * greedy and lazy quantifiers (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`), lookaheads, and the `u`
 * and `i` flags (ASCII case folding). Anything else (backreferences, lookbehinds, word
 * boundaries, a loop whose body can match the empty string) throws, so the audit fails loudly on a
 * pattern it cannot judge instead of judging it wrongly. The test checks the engine against V8 on
 * every string the audit generates.
 *
 * Matching is a backtracking VM (no recursion, any input length): each instruction executed is
 * one step, the way a backtracking engine such as V8's irregexp spends its time.
 */

/** Code point ranges, inclusive, and whether the set is their complement. */
export interface CharSet {
  readonly ranges: ReadonlyArray<readonly [number, number]>;
  readonly negate: boolean;
}

export type Node =
  | { readonly t: 'set'; readonly set: CharSet }
  | { readonly t: 'seq'; readonly items: readonly Node[] }
  | { readonly t: 'alt'; readonly options: readonly Node[] }
  | { readonly t: 'group'; readonly body: Node }
  | { readonly t: 'repeat'; readonly body: Node; readonly min: number; readonly max: number; readonly greedy: boolean }
  | { readonly t: 'start' }
  | { readonly t: 'end' }
  | { readonly t: 'look'; readonly negate: boolean; readonly body: Node };

const MAX_CP = 0x10ffff;
const DIGIT: CharSet = { ranges: [[0x30, 0x39]], negate: false };
const WORD: CharSet = { ranges: [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]], negate: false };
const SPACE: CharSet = {
  ranges: [[0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff]],
  negate: false,
};
const LINE_TERMINATORS: CharSet = { ranges: [[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]], negate: true };

export function contains(set: CharSet, cp: number): boolean {
  let inside = false;
  for (const [lo, hi] of set.ranges) {
    if (cp >= lo && cp <= hi) {
      inside = true;
      break;
    }
  }
  return inside !== set.negate;
}

/** The ranges of a set's complement, for a negated escape inside a class. */
function complement(ranges: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [lo, hi] of sorted) {
    if (lo > next) out.push([next, lo - 1]);
    next = Math.max(next, hi + 1);
  }
  if (next <= MAX_CP) out.push([next, MAX_CP]);
  return out;
}

/** ASCII case folding for the `i` flag. */
function fold(ranges: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = ranges.map(([lo, hi]) => [lo, hi]);
  for (const [lo, hi] of ranges) {
    const upper: [number, number] = [Math.max(lo, 0x41), Math.min(hi, 0x5a)];
    if (upper[0] <= upper[1]) out.push([upper[0] + 32, upper[1] + 32]);
    const lower: [number, number] = [Math.max(lo, 0x61), Math.min(hi, 0x7a)];
    if (lower[0] <= lower[1]) out.push([lower[0] - 32, lower[1] - 32]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Parsing

/** Thrown for syntax outside the supported subset: the audit must not judge what it cannot read. */
export class UnsupportedRegex extends Error {
  override readonly name = 'UnsupportedRegex';
}

/**
 * Parses a JavaScript regular expression source into a tree.
 *
 * @param source - The pattern, as in `new RegExp(source, flags)`.
 * @param flags - `u` and/or `i` (others are refused).
 * @returns The tree.
 * @throws {UnsupportedRegex} For syntax outside the supported subset.
 * @example
 * parse('^[a-z]+$', 'u'); // { t: 'seq', items: [{ t: 'start' }, { t: 'repeat', ... }, { t: 'end' }] }
 */
export function parse(source: string, flags: string): Node {
  for (const f of flags) if (f !== 'u' && f !== 'i') throw new UnsupportedRegex(`flag ${f}`);
  const unicode = flags.includes('u');
  const ignoreCase = flags.includes('i');
  const chars = unicode ? Array.from(source) : source.split('');
  let i = 0;
  const peek = (): string | undefined => chars[i];
  const eat = (c: string): boolean => {
    if (chars[i] === c) {
      i++;
      return true;
    }
    return false;
  };
  const fail = (what: string): never => {
    throw new UnsupportedRegex(`${what} at ${i} in /${source}/${flags}`);
  };
  const cp = (c: string): number => c.codePointAt(0) as number;
  const mkSet = (ranges: Array<[number, number]>, negate: boolean): CharSet => ({ ranges: ignoreCase ? fold(ranges) : ranges, negate });

  const hex = (n: number): number => {
    const digits = chars.slice(i, i + n).join('');
    if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== n) fail('bad hex escape');
    i += n;
    return parseInt(digits, 16);
  };

  /** An escape after `\`: a set (class escapes) or a single code point. */
  const escape = (inClass: boolean): { set?: Array<[number, number]>; negateSet?: boolean; cp?: number } => {
    const c = chars[i++];
    switch (c) {
      case 'd':
        return { set: DIGIT.ranges.map(([a, b]) => [a, b]), negateSet: false };
      case 'D':
        return { set: DIGIT.ranges.map(([a, b]) => [a, b]), negateSet: true };
      case 'w':
        return { set: WORD.ranges.map(([a, b]) => [a, b]), negateSet: false };
      case 'W':
        return { set: WORD.ranges.map(([a, b]) => [a, b]), negateSet: true };
      case 's':
        return { set: SPACE.ranges.map(([a, b]) => [a, b]), negateSet: false };
      case 'S':
        return { set: SPACE.ranges.map(([a, b]) => [a, b]), negateSet: true };
      case 't':
        return { cp: 0x09 };
      case 'n':
        return { cp: 0x0a };
      case 'r':
        return { cp: 0x0d };
      case 'f':
        return { cp: 0x0c };
      case 'v':
        return { cp: 0x0b };
      case '0':
        if (/[0-9]/.test(peek() ?? '')) fail('octal escape');
        return { cp: 0 };
      case 'x':
        return { cp: hex(2) };
      case 'u':
        if (unicode && eat('{')) {
          const start = i;
          while (peek() !== '}' && i < chars.length) i++;
          const value = parseInt(chars.slice(start, i).join(''), 16);
          if (!eat('}') || Number.isNaN(value)) fail('bad \\u{...}');
          return { cp: value };
        }
        return { cp: hex(4) };
      case 'b':
        if (inClass) return { cp: 0x08 };
        return fail('word boundary');
      case undefined:
        return fail('trailing backslash');
      default:
        if (/[1-9]/.test(c) || c === 'k') return fail('backreference');
        if (c === 'B' || c === 'c' || c === 'p' || c === 'P') return fail(`\\${c}`);
        if (unicode && !/[\^$\\.*+?()[\]{}|/-]/.test(c)) return fail(`identity escape \\${c} (invalid with u)`);
        return { cp: cp(c) };
    }
  };

  const charClass = (): Node => {
    const negate = eat('^');
    const ranges: Array<[number, number]> = [];
    const atom = (): number | Array<[number, number]> => {
      const c = chars[i++];
      if (c === undefined) fail('unterminated class');
      if (c !== '\\') return cp(c as string);
      const e = escape(true);
      if (e.set !== undefined) return e.negateSet === true ? complement(e.set) : e.set;
      return e.cp as number;
    };
    while (peek() !== ']') {
      if (i >= chars.length) fail('unterminated class');
      const lo = atom();
      if (peek() === '-' && chars[i + 1] !== ']' && chars[i + 1] !== undefined && typeof lo === 'number') {
        i++;
        const hi = atom();
        if (typeof hi !== 'number' || hi < lo) fail('bad class range');
        ranges.push([lo, hi as number]);
      } else if (typeof lo === 'number') {
        ranges.push([lo, lo]);
      } else {
        ranges.push(...lo);
      }
    }
    i++;
    return { t: 'set', set: mkSet(ranges, negate) };
  };

  const atom = (): Node => {
    const c = chars[i++] as string;
    switch (c) {
      case '^':
        return { t: 'start' };
      case '$':
        return { t: 'end' };
      case '.':
        return { t: 'set', set: LINE_TERMINATORS };
      case '[':
        return charClass();
      case '(': {
        if (eat('?')) {
          if (eat(':')) return group(false);
          if (eat('=')) return look(false);
          if (eat('!')) return look(true);
          return fail('lookbehind or named group');
        }
        return group(true);
      }
      case '\\': {
        const e = escape(false);
        if (e.set !== undefined) return { t: 'set', set: mkSet(e.set, e.negateSet === true) };
        return { t: 'set', set: mkSet([[e.cp as number, e.cp as number]], false) };
      }
      case ')':
      case '*':
      case '+':
      case '?':
      case '{':
      case '}':
      case ']':
      case '|':
        // Without the u flag a lone `{`, `}` or `]` is a literal (Annex B); with it, a syntax error.
        return unicode || (c !== '{' && c !== '}' && c !== ']') ? fail(`unexpected ${c}`) : { t: 'set', set: mkSet([[cp(c), cp(c)]], false) };
      default:
        return { t: 'set', set: mkSet([[cp(c), cp(c)]], false) };
    }
  };

  const group = (_capture: boolean): Node => {
    const body = alternation();
    if (!eat(')')) fail('unterminated group');
    return { t: 'group', body };
  };

  const look = (negate: boolean): Node => {
    const body = alternation();
    if (!eat(')')) fail('unterminated lookahead');
    return { t: 'look', negate, body };
  };

  const quantified = (node: Node): Node => {
    let min: number;
    let max: number;
    const c = peek();
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(chars.slice(i).join(''));
      if (m === null) return unicode ? fail('bad quantifier') : node;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      i += m[0].length - 1;
    } else return node;
    i++;
    const greedy = !eat('?');
    if (node.t === 'start' || node.t === 'end') fail('quantified assertion');
    return { t: 'repeat', body: node, min, max, greedy };
  };

  const sequence = (): Node => {
    const items: Node[] = [];
    while (i < chars.length && peek() !== '|' && peek() !== ')') items.push(quantified(atom()));
    return items.length === 1 ? (items[0] as Node) : { t: 'seq', items };
  };

  const alternation = (): Node => {
    const options = [sequence()];
    while (eat('|')) options.push(sequence());
    return options.length === 1 ? (options[0] as Node) : { t: 'alt', options };
  };

  const root = alternation();
  if (i < chars.length) fail('unbalanced )');
  return root;
}

/** Whether a node can match the empty string (lookaheads and assertions are zero-width). */
export function nullable(node: Node): boolean {
  switch (node.t) {
    case 'set':
      return false;
    case 'seq':
      return node.items.every(nullable);
    case 'alt':
      return node.options.some(nullable);
    case 'group':
      return nullable(node.body);
    case 'repeat':
      return node.min === 0 || nullable(node.body);
    default:
      return true;
  }
}

// ---------------------------------------------------------------------------------------------
// Compiling to a backtracking VM

type Inst =
  | { op: 'set'; set: CharSet }
  | { op: 'split'; x: number; y: number }
  | { op: 'jmp'; x: number }
  | { op: 'start' }
  | { op: 'end' }
  | { op: 'look'; negate: boolean; prog: Inst[] }
  | { op: 'match' };

const MAX_PROGRAM = 200_000;

function compileInto(node: Node, prog: Inst[]): void {
  if (prog.length > MAX_PROGRAM) throw new UnsupportedRegex('program too large');
  switch (node.t) {
    case 'set':
      prog.push({ op: 'set', set: node.set });
      return;
    case 'seq':
      for (const item of node.items) compileInto(item, prog);
      return;
    case 'group':
      compileInto(node.body, prog);
      return;
    case 'start':
      prog.push({ op: 'start' });
      return;
    case 'end':
      prog.push({ op: 'end' });
      return;
    case 'look':
      prog.push({ op: 'look', negate: node.negate, prog: compile(node.body) });
      return;
    case 'alt': {
      const jumps: Array<{ op: 'jmp'; x: number }> = [];
      node.options.forEach((option, k) => {
        if (k < node.options.length - 1) {
          const split = { op: 'split' as const, x: prog.length + 1, y: -1 };
          prog.push(split);
          compileInto(option, prog);
          const jmp = { op: 'jmp' as const, x: -1 };
          prog.push(jmp);
          jumps.push(jmp);
          split.y = prog.length;
        } else {
          compileInto(option, prog);
        }
      });
      for (const j of jumps) j.x = prog.length;
      return;
    }
    case 'repeat': {
      if (node.max === Infinity && nullable(node.body)) throw new UnsupportedRegex('a loop whose body can match the empty string');
      for (let k = 0; k < node.min; k++) compileInto(node.body, prog);
      if (node.max === Infinity) {
        const loop = prog.length;
        const split = { op: 'split' as const, x: -1, y: -1 };
        prog.push(split);
        compileInto(node.body, prog);
        prog.push({ op: 'jmp', x: loop });
        const [enter, leave] = [loop + 1, prog.length];
        Object.assign(split, node.greedy ? { x: enter, y: leave } : { x: leave, y: enter });
        return;
      }
      const splits: Array<{ op: 'split'; x: number; y: number }> = [];
      for (let k = node.min; k < node.max; k++) {
        const split = { op: 'split' as const, x: prog.length + 1, y: -1 };
        prog.push(split);
        splits.push(split);
        compileInto(node.body, prog);
      }
      const leave = prog.length;
      for (const split of splits) {
        const enter = split.x;
        Object.assign(split, node.greedy ? { x: enter, y: leave } : { x: leave, y: enter });
      }
      return;
    }
  }
}

function compile(node: Node): Inst[] {
  const prog: Inst[] = [];
  compileInto(node, prog);
  prog.push({ op: 'match' });
  return prog;
}

/** Whether every way through the pattern starts with `^`: then only position 0 is tried, as V8 does. */
function anchored(node: Node): boolean {
  switch (node.t) {
    case 'start':
      return true;
    case 'seq':
      return node.items.length > 0 && anchored(node.items[0] as Node);
    case 'alt':
      return node.options.every(anchored);
    case 'group':
      return anchored(node.body);
    default:
      return false;
  }
}

/** Counts steps; stops the run (throws) past its limit, so a catastrophic case ends. */
export class Steps {
  count = 0;
  constructor(readonly limit = Infinity) {}
}

export class StepLimit extends Error {
  override readonly name = 'StepLimit';
}

function execute(prog: readonly Inst[], input: readonly number[], start: number, steps: Steps): boolean {
  const pcs: number[] = [0];
  const positions: number[] = [start];
  while (pcs.length > 0) {
    let pc = pcs.pop() as number;
    let pos = positions.pop() as number;
    for (;;) {
      if (++steps.count > steps.limit) throw new StepLimit(`more than ${steps.limit} steps`);
      const inst = prog[pc] as Inst;
      if (inst.op === 'set') {
        if (pos < input.length && contains(inst.set, input[pos] as number)) {
          pos++;
          pc++;
          continue;
        }
        break;
      }
      if (inst.op === 'split') {
        pcs.push(inst.y);
        positions.push(pos);
        pc = inst.x;
        continue;
      }
      if (inst.op === 'jmp') {
        pc = inst.x;
        continue;
      }
      if (inst.op === 'start') {
        if (pos !== 0) break;
        pc++;
        continue;
      }
      if (inst.op === 'end') {
        if (pos !== input.length) break;
        pc++;
        continue;
      }
      if (inst.op === 'look') {
        if (execute(inst.prog, input, pos, steps) === inst.negate) break;
        pc++;
        continue;
      }
      return true;
    }
  }
  return false;
}

/** A compiled pattern: `test` as `RegExp.prototype.test`, counting steps. */
export interface Compiled {
  readonly source: string;
  readonly flags: string;
  readonly tree: Node;
  test(input: string, steps?: Steps): boolean;
}

/**
 * Compiles a pattern for step-counted matching.
 *
 * @param source - The pattern.
 * @param flags - `u` and/or `i`.
 * @returns `test(input, steps)`, which answers as `new RegExp(source, flags).test(input)` does.
 * @throws {UnsupportedRegex} For syntax outside the supported subset.
 * @example
 * const steps = new Steps();
 * compileRegex('^a+$', 'u').test('aaa!', steps); // false; steps.count says how hard it tried
 */
export function compileRegex(source: string, flags: string): Compiled {
  const tree = parse(source, flags);
  const prog = compile(tree);
  const onlyAtStart = anchored(tree);
  const unicode = flags.includes('u');
  return {
    source,
    flags,
    tree,
    test(input: string, steps = new Steps()): boolean {
      const units = unicode ? Array.from(input, (c) => c.codePointAt(0) as number) : Array.from({ length: input.length }, (_, k) => input.charCodeAt(k));
      const last = onlyAtStart ? 0 : units.length;
      for (let start = 0; start <= last; start++) if (execute(prog, units, start, steps)) return true;
      return false;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Attack strings

/** A character of the set: its first, last or a middle member, or one outside when negated. */
function member(set: CharSet, which: number): string | undefined {
  if (set.negate) {
    const candidates = ['a', 'Z', '0', '!', ' ', '-', '.', 'é', '~', '#', '\u00e9', '\u4e2d'];
    const inside = candidates.filter((c) => contains(set, c.codePointAt(0) as number));
    return inside[which % Math.max(1, inside.length)];
  }
  const ranges = set.ranges.filter(([lo, hi]) => hi >= lo && !(lo >= 0xd800 && hi <= 0xdfff));
  if (ranges.length === 0) return undefined;
  const [lo, hi] = ranges[which % ranges.length] as readonly [number, number];
  const picks = [lo, hi, lo + Math.floor((hi - lo) / 2)];
  const code = picks[Math.floor(which / ranges.length) % picks.length] as number;
  return String.fromCodePoint(code >= 0xd800 && code <= 0xdfff ? lo : code);
}

/** A short string the node matches (lookaheads ignored); `variant` picks other characters. */
export function sample(node: Node, variant = 0, loops = 1): string {
  switch (node.t) {
    case 'set':
      return member(node.set, variant) ?? '';
    case 'seq':
      return node.items.map((item) => sample(item, variant, loops)).join('');
    case 'alt':
      return sample(node.options[variant % node.options.length] as Node, variant, loops);
    case 'group':
      return sample(node.body, variant, loops);
    case 'repeat': {
      const times = Math.min(node.max, Math.max(node.min, loops));
      return Array.from({ length: times }, (_, k) => sample(node.body, variant + k, loops)).join('');
    }
    default:
      return '';
  }
}

/** Every quantifier that can repeat (max > 1), with the path of nodes leading to it. */
function loops(root: Node): Array<{ node: Extract<Node, { t: 'repeat' }>; path: Array<{ node: Node; child: number }> }> {
  const out: Array<{ node: Extract<Node, { t: 'repeat' }>; path: Array<{ node: Node; child: number }> }> = [];
  const visit = (node: Node, path: Array<{ node: Node; child: number }>): void => {
    const kids: Node[] = node.t === 'seq' ? [...node.items] : node.t === 'alt' ? [...node.options] : node.t === 'group' || node.t === 'repeat' || node.t === 'look' ? [node.body] : [];
    if (node.t === 'repeat' && node.max > 1) out.push({ node, path });
    kids.forEach((kid, k) => visit(kid, [...path, { node, child: k }]));
  };
  visit(root, []);
  return out;
}

/** What leads the match to a node: the shortest match of everything before it on its path. */
function prefixOf(path: ReadonlyArray<{ node: Node; child: number }>, variant: number): string {
  let out = '';
  for (const { node, child } of path) {
    if (node.t === 'seq') out += node.items.slice(0, child).map((n) => sample(n, variant, 1)).join('');
  }
  return out;
}

/** Characters that end a match attempt: outside most classes, line terminators, a lone surrogate. */
export const SUFFIXES: readonly string[] = ['', '!', '\n', '\u0000', ' ', '~', '@', '/', '.', ':', '-', '_', '#', 'é', '\uD800', 'A', 'a', '0', '%', '{', '}'];

export interface Attack {
  readonly prefix: string;
  readonly pump: string;
  readonly suffix: string;
}

/** The string of about `length` characters an attack describes. */
export function build(attack: Attack, length: number): string {
  const body = Math.max(1, Math.ceil((length - attack.prefix.length - attack.suffix.length) / Math.max(1, attack.pump.length)));
  return attack.prefix + attack.pump.repeat(body) + attack.suffix;
}

/**
 * Attack strings for a pattern: for each quantifier that can repeat, what leads to it, pumped
 * with strings its body matches (samples, single characters of its classes, and two-iteration
 * samples of inner loops), then a character that makes the match fail.
 *
 * @param tree - The parsed pattern.
 * @returns Distinct attacks (prefix, pump, suffix).
 * @throws Never.
 * @example
 * attacks(parse('^(a+)+$', 'u')); // includes { prefix: '', pump: 'a', suffix: '!' }
 */
export function attacks(tree: Node): Attack[] {
  const seen = new Set<string>();
  const out: Attack[] = [];
  for (const { node, path } of loops(tree)) {
    const pumps = new Set<string>();
    for (let v = 0; v < 6; v++) {
      pumps.add(sample(node.body, v, 1));
      pumps.add(sample(node.body, v, 2));
      const first = sample(node.body, v, 1).slice(0, 1);
      if (first !== '') pumps.add(first);
    }
    for (const prefixVariant of [0, 1]) {
      const prefix = prefixOf(path, prefixVariant);
      for (const pump of pumps) {
        if (pump === '') continue;
        for (const suffix of SUFFIXES) {
          const key = `${prefix}\u0001${pump}\u0001${suffix}`;
          if (seen.has(key)) continue;
          seen.add(key);
          out.push({ prefix, pump, suffix });
        }
      }
    }
  }
  return out;
}

export interface Audit {
  readonly source: string;
  readonly flags: string;
  /** The attack that cost the most steps. */
  readonly worst: Attack;
  /** Steps of the worst attack at each length. */
  readonly steps: ReadonlyArray<readonly [number, number]>;
  /** log2 of the step ratio between the two longest lengths: ~1 linear, ~2 quadratic, more is worse. */
  readonly growth: number;
  /** How many attacks were tried. */
  readonly tried: number;
}

/**
 * Finds the costliest attack on a pattern at a short length, then measures how its step count
 * grows as the input doubles.
 *
 * @param source - The pattern.
 * @param flags - `u` and/or `i`.
 * @param lengths - Input lengths, ascending; the first picks the worst attack.
 * @param limit - Steps per run after which an attack counts as catastrophic (`Infinity` steps).
 * @returns The audit of the pattern.
 * @throws {UnsupportedRegex} For syntax outside the supported subset.
 * @example
 * auditPattern('^[a-z]+$', 'u').growth; // about 1 (linear)
 */
export function auditPattern(source: string, flags: string, lengths: readonly number[] = [128, 256, 512, 1024], limit = 2e6): Audit {
  const compiled = compileRegex(source, flags);
  const candidates = attacks(compiled.tree);
  const costOf = (attack: Attack, length: number): number => {
    const steps = new Steps(limit);
    try {
      compiled.test(build(attack, length), steps);
    } catch (error) {
      if (error instanceof StepLimit) return Infinity;
      throw error;
    }
    return steps.count;
  };
  let worst: Attack = candidates[0] ?? { prefix: '', pump: 'a', suffix: '!' };
  let worstCost = -1;
  const pickLength = lengths[0] as number;
  for (const attack of candidates) {
    const cost = costOf(attack, pickLength);
    if (cost > worstCost) [worst, worstCost] = [attack, cost];
    if (cost === Infinity) break; // catastrophic already at the shortest length: no need to look further
  }
  const steps: Array<readonly [number, number]> = [];
  for (const length of lengths) {
    const cost = steps.length > 0 && steps[steps.length - 1]![1] === Infinity ? Infinity : costOf(worst, length);
    steps.push([length, cost]);
  }
  const [a, b] = [steps[steps.length - 2] as readonly [number, number], steps[steps.length - 1] as readonly [number, number]];
  const growth = Number.isFinite(b[1]) ? Math.log2(b[1] / Math.max(1, a[1])) / Math.log2(b[0] / a[0]) : Infinity;
  // A limit hit at any length is catastrophic whatever the ratio says.
  return { source, flags, worst, steps, growth, tried: candidates.length };
}
