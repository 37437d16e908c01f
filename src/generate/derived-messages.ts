/**
 * What a recorded error's call need not carry, since recordError (src/validate/runtime/index.js)
 * derives it; two rewrites of the table of rewrites.ts. pathKeywords: the keyword, which Ajv puts
 * last in the schema path. derivedMessages: a recorded error whose message Ajv built
 * from its keyword and params alone drops the message, which recordError derives again at run time
 * from src/validate/runtime/messages.js. Codegen proves it per site: the message expression and the
 * params literal are evaluated (string and number literals, `+`; any other value stands for itself
 * by its text), and the message is dropped only when the table gives back the same string. A site
 * the proof cannot read keeps its literal: then the code is only bigger, never wrong.
 */
import { CHOOSING_PARAMS, errorMessage } from '../validate/runtime/messages.js';
import type { Rewritten } from './rewrites.js';

/** A value codegen cannot know (a variable, a schema literal's name): it stands for itself by its text. */
export class Opaque {
  constructor(readonly text: string) {}
  toString(): string {
    return `\u0000${this.text}\u0000`;
  }
}

export type Value = string | number | boolean | null | Opaque;

/** What derivedMessages made of a module, with the sites that keep their message. */
export interface DerivedMessages {
  readonly code: string;
  /** recordError calls read (every one, or the build fails). */
  readonly found: number;
  readonly sites: number;
  /** The calls that keep their message: `keyword` of each. */
  readonly kept: readonly string[];
}

/** The end (exclusive) of the double-quoted string that opens at `at`. */
function stringEnd(code: string, at: number): number {
  for (let i = at + 1; i < code.length; i++) {
    if (code[i] === '\\') i++;
    else if (code[i] === '"') return i + 1;
  }
  throw new Error(`generate: derivedMessages met an unterminated string at ${at}; update it`);
}

/**
 * The comma-separated parts of a call's arguments or a literal's fields, from `at` (just past the
 * opening bracket) to its closing bracket: their texts, trimmed, and where the closing bracket is.
 */
export function splitTopLevel(code: string, at: number): { parts: string[]; end: number } {
  const parts: string[] = [];
  let depth = 0;
  let start = at;
  for (let i = at; i < code.length; i++) {
    const c = code[i]!;
    if (c === '"') i = stringEnd(code, i) - 1;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c) && depth-- === 0) {
      if (code.slice(start, i).trim() !== '' || parts.length > 0) parts.push(code.slice(start, i).trim());
      return { parts, end: i };
    } else if (c === ',' && depth === 0) {
      parts.push(code.slice(start, i).trim());
      start = i + 1;
    }
  }
  throw new Error(`generate: derivedMessages met an unclosed bracket at ${at}; update it`);
}

const TERM =
  /\s*(?:("(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|(true|false|null)\b|([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\])*))\s*/y;

/** The value of an expression of literals and names joined by `+`, as JavaScript computes it; undefined if it is anything else. */
export function evaluate(text: string): Value | undefined {
  let value: Value | undefined;
  for (let at = 0; ; ) {
    TERM.lastIndex = at;
    const m = TERM.exec(text);
    if (m === null) return undefined;
    const [, str, num, word, name] = m;
    let term: Value;
    if (str !== undefined) term = JSON.parse(str) as string;
    else if (num !== undefined) term = Number(num);
    else if (word !== undefined) term = word === 'null' ? null : word === 'true';
    else term = new Opaque(name!);
    // `+` on the terms in order, as the code would run it (a name concatenates by its text).
    value = value === undefined ? term : (value as string) + (term as string);
    at = TERM.lastIndex;
    if (at === text.length) return value;
    if (text[at] !== '+') return undefined;
    at++;
  }
}

/** The params of an error literal (`{limit: 1}`, `{missingProperty: missing0}`), each field's value evaluated or standing for its text. */
export function paramsOf(text: string): Record<string, Value> | undefined {
  if (!text.startsWith('{')) return undefined;
  const { parts, end } = splitTopLevel(text, 1);
  if (end !== text.length - 1) return undefined;
  const params: Record<string, Value> = {};
  for (const part of parts) {
    const field = /^(\w+)(?:\s*:\s*([\s\S]+))?$/.exec(part);
    if (field === null) return undefined;
    const expression = field[2] ?? field[1]!;
    params[field[1]!] = evaluate(expression) ?? new Opaque(expression);
  }
  return params;
}

/** Whether the runtime's table gives back exactly the message this site's code builds. */
function derivable(keyword: string, paramsText: string, messageText: string): boolean {
  const params = paramsOf(paramsText);
  const message = evaluate(messageText);
  if (params === undefined || typeof message !== 'string') return false;
  // A param that picks the words must be known here; one that is only printed may stand for itself.
  if (CHOOSING_PARAMS.some((name) => params[name] instanceof Opaque)) return false;
  return errorMessage(keyword, params) === message;
}

/**
 * Drops the message of every recordError call whose keyword and params give it (see the file's comment).
 *
 * @param code A listing module's code, after compactErrors.
 * @returns The code, its recordError calls (found, sites) and the keywords of those that keep their message.
 * @throws Error when a call's arguments are not bracketed as Ajv writes them.
 * @example
 * derivedMessages('vErrors = recordError(vErrors, ++errors, instancePath, "#/type", "type", {type: "string"}, "must be string");').code;
 * // 'vErrors = recordError(vErrors, ++errors, instancePath, "#/type", "type", {type: "string"});'
 */
export function derivedMessages(code: string): DerivedMessages {
  const kept: string[] = [];
  const rewritten = rewriteCalls(code, (parts) => {
    const [list, count, instancePath, schemaPath, keywordText, params, message] = parts;
    const keyword = keywordText === undefined ? undefined : evaluate(keywordText);
    if (parts.length < 7 || parts.length > 8 || typeof keyword !== 'string') return undefined;
    if (parts.length === 8 || !derivable(keyword, params!, message!)) {
      kept.push(keyword);
      return parts;
    }
    return [list!, count!, instancePath!, schemaPath!, keywordText!, params!];
  });
  return { ...rewritten, kept };
}

/**
 * Drops the keyword of every recordError call, after derivedMessages: Ajv's schema path of an
 * error ends in `/` and its keyword (errSchemaPath + "/" + keyword), and recordError takes it from there.
 *
 * @param code A listing module's code, after derivedMessages.
 * @returns The code; its sites are the recordError calls, each recognised when its schema path is a string ending in its keyword.
 * @throws Error when a call's arguments are not bracketed as Ajv writes them.
 * @example
 * pathKeywords('vErrors = recordError(vErrors, ++errors, instancePath, "#/type", "type", {type: "string"});').code;
 * // 'vErrors = recordError(vErrors, ++errors, instancePath, "#/type", {type: "string"});'
 */
export function pathKeywords(code: string): Rewritten {
  return rewriteCalls(code, (parts) => {
    const schemaPath = evaluate(parts[3] ?? '');
    const keyword = evaluate(parts[4] ?? '');
    if (typeof schemaPath !== 'string' || typeof keyword !== 'string' || !schemaPath.endsWith(`/${keyword}`)) return undefined;
    return [...parts.slice(0, 4), ...parts.slice(5)];
  });
}

/**
 * Rewrites the arguments of every recordError call of `code`, the one walk both rewrites share.
 *
 * @param code A listing module's code.
 * @param rewrite A call's arguments as written to its new ones; the same array keeps the call as it
 *   is; `undefined` leaves a call it does not recognise uncounted (the count fails the build).
 * @returns The code, the calls recognised (`found`) and all of them (`sites`).
 * @throws Error when a call's arguments are not bracketed as Ajv writes them.
 * @example
 * rewriteCalls(code, (parts) => parts).code === code; // true
 */
function rewriteCalls(code: string, rewrite: (parts: string[]) => readonly string[] | undefined): Rewritten {
  const call = 'recordError(';
  let out = '';
  let from = 0;
  let found = 0;
  let sites = 0;
  for (let at = code.indexOf(call); at !== -1; at = code.indexOf(call, at + 1)) {
    sites++;
    const { parts, end } = splitTopLevel(code, at + call.length);
    const next = rewrite(parts);
    if (next === undefined) continue;
    found++;
    if (next === parts) continue;
    out += `${code.slice(from, at)}${call}${next.join(', ')})`;
    from = end + 1;
  }
  return { code: out + code.slice(from), found, sites };
}
