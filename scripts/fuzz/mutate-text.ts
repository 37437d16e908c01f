/** The text mutators: what a broken or hostile server does to a JSON text. */
import { note } from './context.js';
import { type Mutation, weightedMutator } from './mutator.js';
import { anyValue } from './values.js';

/** What insertBytes puts into a text: JSON punctuation, escapes cut short, non-JSON literals. */
const JUNK = ['\u0000', '}', ']', '"', '\\', ',', ':', '{"a":', '\\u', '\\ud800', 'null', 'NaN', 'Infinity', '/*x*/', "'"];

/** Numbers past what a double holds, or spelled unusually. */
const HUGE_NUMBERS = ['1e400', '-1e400', '123456789012345678901234567890', '1e-400', '-0', '9007199254740993', '0.1e1', '1E+2'];

/** Prototype keys as a text may spell them: plain, escaped in parts, and `constructor.prototype`. */
const PROTO_KEYS = [
  '"__proto__"',
  '"\\u005f_proto__"',
  '"\\u005F\\u005Fproto\\u005F\\u005F"',
  '"__pr\\u006fto__"',
  '"constructor":{"prototype":{"polluted":true}},"x"',
];

/** The text mutations and their weights; each is given `at`, an offset into the text. */
const TEXT_MUTATIONS: Readonly<Record<string, Mutation<string, number>>> = {
  flipBits: [
    15,
    (ctx, text) => {
      const bytes = Buffer.from(text, 'utf8');
      const flips = 1 + ctx.rng.int(8);
      for (let i = 0; i < flips && bytes.length > 0; i++) {
        const j = ctx.rng.int(bytes.length);
        bytes[j] = (bytes[j] as number) ^ (1 << ctx.rng.int(8));
      }
      note(ctx, 'text:flipBits', `${flips} bits`);
      // Decoded as a lenient UTF-8 reader would (U+FFFD for broken sequences), or byte by byte.
      return ctx.rng.chance(0.7) ? bytes.toString('utf8') : bytes.toString('latin1');
    },
  ],
  truncate: [
    12,
    (ctx, text, at) => {
      note(ctx, 'text:truncate', `at ${at} of ${text.length}`);
      return text.slice(0, at);
    },
  ],
  splice: [
    8,
    (ctx, text, at) => {
      const from = ctx.rng.int(text.length);
      const len = ctx.rng.int(Math.min(200, text.length - from) + 1);
      note(ctx, 'text:splice', `copy ${len} chars from ${from} to ${at}`);
      return text.slice(0, at) + text.slice(from, from + len) + text.slice(at);
    },
  ],
  insertBytes: [
    8,
    (ctx, text, at) => {
      const junk = ctx.rng.pick(JUNK);
      note(ctx, 'text:insertBytes', `${JSON.stringify(junk)} at ${at}`);
      return text.slice(0, at) + junk + text.slice(at);
    },
  ],
  protoKey: [
    10,
    (ctx, text) => {
      const key = ctx.rng.pick(PROTO_KEYS);
      const braces = [...text.matchAll(/\{/g)].map((m) => m.index ?? 0);
      const where = braces.length > 0 ? ctx.rng.pick(braces) + 1 : 0;
      note(ctx, 'text:protoKey', `${key} after offset ${where}`);
      return `${text.slice(0, where)}${key}:{"polluted":true}${text[where] === '}' ? '' : ','}${text.slice(where)}`;
    },
  ],
  bom: [
    4,
    (ctx, text, at) => {
      const leading = ctx.rng.chance(0.5);
      note(ctx, 'text:bom', leading ? 'leading' : `at ${at}`);
      return leading ? `\uFEFF${text}` : text.slice(0, at) + '\uFEFF' + text.slice(at);
    },
  ],
  hugeNumber: [
    6,
    (ctx, text) => {
      const number = ctx.rng.pick(HUGE_NUMBERS);
      const numbers = [...text.matchAll(/(?<=[:[,])\s*-?\d[\d.eE+-]*/g)];
      if (numbers.length === 0) return text;
      const m = ctx.rng.pick(numbers);
      note(ctx, 'text:hugeNumber', `${m[0].trim()} → ${number}`);
      return text.slice(0, m.index) + number + text.slice((m.index ?? 0) + m[0].length);
    },
  ],
  deepBrackets: [
    6,
    (ctx, text) => {
      const depth = ctx.rng.weighted<number>([
        [40, 64],
        [40, 65],
        [15, 1_000],
        [4, ctx.profile === 'ci' ? 10_000 : 100_000],
        [1, ctx.profile === 'ci' ? 10_000 : 1_000_000],
      ]);
      const value = ctx.rng.chance(0.5) ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      const colons = [...text.matchAll(/":\s*(?=[[{"\dtfn-])/g)];
      if (colons.length === 0) return text;
      const m = ctx.rng.pick(colons);
      const start = (m.index ?? 0) + m[0].length;
      note(ctx, 'text:deepBrackets', `${depth} levels at offset ${start}`);
      return `${text.slice(0, start)}${value},"fuzz_rest":${text.slice(start)}`;
    },
  ],
  duplicateKey: [
    8,
    (ctx, text) => {
      const keys = [...text.matchAll(/"([a-z_]+)":/g)];
      if (keys.length === 0) return text;
      const m = ctx.rng.pick(keys);
      const { value } = anyValue(ctx);
      let json: string | undefined;
      try {
        json = JSON.stringify(value);
      } catch {
        json = undefined;
      }
      const end = text.lastIndexOf('}');
      note(ctx, 'text:duplicateKey', `${m[1]} again`);
      return end < 0 ? text : `${text.slice(0, end)},"${m[1]}":${json ?? 'null'}${text.slice(end)}`;
    },
  ],
  loneSurrogate: [
    5,
    (ctx, text) => {
      const s = ctx.rng.pick(['\uD800', '\\ud800', '\uDC00', '\\udfff', '\\ud83d\\ude00']);
      const quotes = [...text.matchAll(/"(?=[a-z])/g)];
      if (quotes.length === 0) return text;
      const where = (ctx.rng.pick(quotes).index ?? 0) + 1;
      note(ctx, 'text:loneSurrogate', `${JSON.stringify(s)} at ${where}`);
      return text.slice(0, where) + s + text.slice(where);
    },
  ],
  whitespace: [
    4,
    (ctx, text) => {
      const ws = ctx.rng.pick([' ', '\n', '\t', '\r', '\u00a0', '\u2028', '\u3000']);
      note(ctx, 'text:whitespace', JSON.stringify(ws));
      return ws.repeat(1 + ctx.rng.int(3)) + text + ws;
    },
  ],
};

/**
 * Damages a JSON text the way a broken or hostile server might (byte flips, truncation, splices,
 * BOMs, prototype keys in escaped spellings, 1e400, deep brackets, duplicate keys).
 *
 * @param ctx - The case's context.
 * @param text - The JSON text.
 * @returns The damaged text.
 * @throws Never.
 * @example
 * item.text = mutateText(ctx, item.text);
 */
export const mutateText = weightedMutator(TEXT_MUTATIONS, (ctx, text) => ctx.rng.int(text.length + 1));
