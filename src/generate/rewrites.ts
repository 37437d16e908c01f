/**
 * The rewrites of Ajv's standalone output, as one table applied in order: where Ajv's code is
 * quadratic or unbounded (docs/robustness.md), its require() calls, which a bundler does not
 * follow, and the schema paths of the functions Ajv would have inlined. Each rewrite counts the
 * sites of its pattern in the code and the sites it recognised; a difference fails the build,
 * naming the rewrite, so a change in Ajv's output is never half rewritten. The helpers the
 * rewritten code calls are imported from src/validate/runtime/index.js.
 */
import * as runtime from '../validate/runtime/index.js';
import { derivedMessages, pathKeywords } from './derived-messages.js';
import { layoutImport } from './output.js';

/** Which validator module: `fast` (`<task>.js`, first error) or `listing` (`<task>.errors.js`, allErrors). */
export type ModuleKind = 'fast' | 'listing';

/** A helper of src/validate/runtime/index.js that rewritten code calls. */
type RuntimeName = keyof typeof runtime;

/** What a rewrite may need to know about the code besides its text. */
interface RewriteContext {
  /**
   * The validate functions of schemas without a `$ref` (which Ajv's default `inlineRefs` would
   * inline at each use), by name, each with the `$ref` that reaches it: see namedLeafPaths.
   */
  readonly leafPaths: ReadonlyMap<string, string>;
}

const NO_CONTEXT: RewriteContext = { leafPaths: new Map() };

/** What a rewrite made of a module's code. */
export interface Rewritten {
  /** The rewritten code. */
  readonly code: string;
  /** How many sites of the rewrite's pattern it recognised (and rewrote). */
  readonly found: number;
  /** How many sites of the pattern the code has. */
  readonly sites: number;
  /** The runtime helpers the rewritten code now calls. */
  readonly runtime?: readonly RuntimeName[];
}

/** One named rewrite of the table. */
export interface Rewrite {
  readonly name: string;
  /** Why, in one line. */
  readonly reason: string;
  /** The modules it applies to. */
  readonly kinds: readonly ModuleKind[];
  /** What its sites are, for the build error. */
  readonly site: string;
  readonly apply: (code: string, context: RewriteContext) => Rewritten;
}

/** The runtime module, as the module Ajv's code becomes (src/generated/<v>/validators/) imports it. */
export const RUNTIME_MODULE = layoutImport('v/validators/task.js', 'validatorRuntime');

/** How often `text` occurs in `code`. */
function count(code: string, text: string): number {
  return code.split(text).length - 1;
}

/**
 * Where the JavaScript token of Ajv's output that starts at `at` ends: a string, a comment (Ajv's
 * sourceURL comments) or an inlined ajv-formats regex, skipped whole; else at + 1. The scans of the
 * rewrites below walk Ajv's code with it, so that nothing inside a token is taken for code.
 */
export function tokenEnd(code: string, at: number, rewrite: string): number {
  const c = code[at];
  if (c === '"') {
    for (let i = at + 1; i < code.length; i++) {
      if (code[i] === '\\') i++;
      else if (code[i] === '"') return i + 1;
    }
    throw new Error(`generate: ${rewrite} met an unterminated string at ${at}; update it`);
  }
  if (c === '/' && code[at + 1] === '*') {
    const end = code.indexOf('*/', at + 2);
    if (end === -1) throw new Error(`generate: ${rewrite} met an unterminated comment at ${at}; update it`);
    return end + 2;
  }
  if (c === '/' && /const (formats\d+|f_\w+) = $/.test(code.slice(Math.max(0, at - 30), at))) {
    for (let inClass = false, i = at + 1; i < code.length && code[i] !== '\n'; i++) {
      if (code[i] === '\\') i++;
      else if (code[i] === '[') inClass = true;
      else if (code[i] === ']') inClass = false;
      else if (code[i] === '/' && !inClass) return i + 1;
    }
    throw new Error(`generate: ${rewrite} met an unterminated regex at ${at}; update it`);
  }
  return at + 1;
}

/**
 * Ajv builds the JSON Pointer of every error under a map (`additionalProperties`,
 * `patternProperties`) by escaping the map key in place, `key0.replace(/~/g, "~0").replace(...)`,
 * once per error built, discarded ones (failing `oneOf` branches) and instance paths passed to
 * referenced validators included: a key of length L over N items under it costs L × N (a valid
 * 290 KB get_products took 9 s). This escapes each key at most once per visit of its member:
 * `let key0Ptr;` opens the body of `for(const key0 in data)` and every escape of `key0` becomes
 * `(key0Ptr ??= key0.replace(...))`; the pointers are the same strings, built once.
 * Ajv's code is scanned with its strings skipped and its blocks matched, so that every escape is
 * proven to sit inside the loop of its own key; anything the scan does not know fails the build.
 *
 * @param code Ajv standalone code, before the other rewrites.
 * @returns The code with each map key escaped at most once per visit; its sites are the code's replace() calls.
 * @throws Error when the code has a shape the scan does not know (the build fails).
 * @example
 * linearKeyPointers(standaloneCode(ajv, refs)).code;
 */
function linearKeyPointers(code: string): Rewritten {
  const loopBefore = /for\(const (key\d+) in [\w$.]+\)$/;
  const keyEscape = /(key\d+)\.replace\(\/~\/g, "~0"\)\.replace\(\/\\\/\/g, "~1"\)/y;
  const unknown = (at: number, what: string): Error =>
    new Error(`generate: linearKeyPointers met ${what} at ${at} (${JSON.stringify(code.slice(Math.max(0, at - 40), at + 40))}); update it`);
  if (/\w+Ptr\b/.test(code)) throw unknown(code.search(/\w+Ptr\b/), 'a name ending in Ptr');
  // Open blocks: the loop key a block is the body of, or '' for any other block.
  const blocks: { key: string; at: number; used: boolean }[] = [];
  const edits: { at: number; end: number; text: string }[] = [];
  let escapes = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    const end = tokenEnd(code, i, 'linearKeyPointers');
    if (end > i + 1) {
      i = end - 1; // a string, comment or format regex
    } else if (c === '{') {
      const loop = loopBefore.exec(code.slice(Math.max(0, i - 60), i));
      blocks.push({ key: loop?.[1] ?? '', at: i + 1, used: false });
    } else if (c === '}') {
      const block = blocks.pop();
      if (block === undefined) throw unknown(i, 'an unmatched }');
      if (block.used) edits.push({ at: block.at, end: block.at, text: `let ${block.key}Ptr;` });
    } else if (c === '/' || c === "'" || c === '`') {
      throw unknown(i, `${c} outside a string (a regex, comment or quote the scan does not know)`);
    } else if (c === 'k' && code.startsWith('key', i) && !/[\w$.]/.test(code[i - 1] ?? '')) {
      keyEscape.lastIndex = i;
      const m = keyEscape.exec(code);
      if (m === null) continue;
      const key = m[1]!;
      const loop = blocks.findLast((b) => b.key === key);
      if (loop === undefined) throw unknown(i, `an keyEscape of ${key} outside a loop over ${key}`);
      loop.used = true;
      escapes++;
      edits.push({ at: i, end: i + m[0].length, text: `(${key}Ptr ??= ${m[0]})` });
      i += m[0].length - 1;
    }
  }
  if (blocks.length > 0) throw unknown(code.length, 'an unclosed {');
  // An insertion after a `{` goes before an edit that starts at the same place.
  edits.sort((a, b) => a.at - b.at || a.end - a.at - (b.end - b.at));
  let out = '';
  let from = 0;
  for (const edit of edits) {
    out += code.slice(from, edit.at) + edit.text;
    from = edit.end;
  }
  // Each recognised escape holds two of the code's replace() calls; any other call is a site not recognised.
  return { code: out + code.slice(from), found: 2 * escapes, sites: count(code, '.replace(') };
}

/**
 * Ajv's allErrors code merges a referenced schema's errors with
 * `vErrors = vErrors === null ? v.errors : vErrors.concat(v.errors)`, copying every error so far
 * on each call: quadratic in the number of errors (50,000 invalid items, a 2 MB payload, took 25 s).
 * Appending in place gives the same errors in the same order in linear time.
 *
 * @param code Ajv standalone code.
 * @returns The code with every merge appending in place; its sites are the code's concat() calls.
 * @example
 * linearErrors(code).code;
 */
function linearErrors(code: string): Rewritten {
  const concat = /vErrors = vErrors === null \? (\w+)\.errors : vErrors\.concat\(\1\.errors\);/g;
  let found = 0;
  const out = code.replace(concat, (_m, v: string) => {
    found++;
    return `if (vErrors === null) { vErrors = ${v}.errors; } else { for (const e of ${v}.errors) vErrors.push(e); }`;
  });
  return { code: out, found, sites: count(code, '.concat(') };
}

/**
 * An error listing is linear in the payload but not small: a 3-byte `{}` where an object with
 * ten required properties belongs yields ten errors, so a 4 MiB payload can yield millions of
 * error objects (3,000,003 for 300,000 empty products: 3.8 s and 730 MB). After each error is
 * recorded or merged, this stops the listing (`stopListing(vErrors)`, which throws `ListingStopped`
 * with the first error held) once a validator function holds more than LISTING_LIMIT errors; each
 * listing entry module re-exports `ListingStopped` and `listingLimit` (src/generate/chunks.ts),
 * so that the caller catches the very class it throws, and then reports that first error and says
 * the listing stopped.
 *
 * @param code Ajv's allErrors standalone code.
 * @returns The code with a check after every recorded or merged error; its sites are the code's error counts.
 * @example
 * boundedListing(code).code;
 */
function boundedListing(code: string): Rewritten {
  const records = (code.match(/vErrors = \[err\d+\];\}else \{vErrors\.push\(err\d+\);\}errors\+\+;/g) ?? []).length;
  const merges = (code.match(/for \(const e of \w+\.errors\) vErrors\.push\(e\); \}errors = vErrors\.length;/g) ?? []).length;
  const check = 'if(errors > LISTING_LIMIT){stopListing(vErrors);}';
  const out = code.replaceAll('errors++;', `errors++;${check}`).replaceAll('errors = vErrors.length;', `errors = vErrors.length;${check}`);
  return {
    code: out,
    found: records + merges,
    sites: count(code, 'errors++;') + count(code, 'errors = vErrors.length;'),
    runtime: ['LISTING_LIMIT', 'stopListing'],
  };
}

/**
 * Ajv checks `uniqueItems` over items of unknown or object type by comparing every pair
 * (`for (i) for (j < i) if (equal(data[i], data[j]))`): quadratic (16,000 strings took 29 s).
 * This replaces each such loop with a call of `uniquePair(data, equal)` (src/validate/runtime/index.js),
 * which reports the same pair Ajv would, in linear time past a few items.
 *
 * @param code Ajv standalone code.
 * @returns The code with every pairwise loop a uniquePair call; its sites are the code's `outer` loops.
 * @example
 * linearUniqueItems(code).code;
 */
function linearUniqueItems(code: string): Rewritten {
  const loop = /outer(\d+):for\(;(i\d+)--;\)\{for\((j\d+) = \2; \3--;\)\{if\((func\d+)\((\w+)\[\2\], \5\[\3\]\)\)\{/g;
  let found = 0;
  const out = code.replace(loop, (_m, n: string, i: string, j: string, equal: string, data: string) => {
    found++;
    return `outer${n}:for(const pair${n} = uniquePair(${data}, ${equal}); pair${n} !== null;){for(${i} = pair${n}[0], ${j} = pair${n}[1]; ;){if(true){`;
  });
  return { code: out, found, sites: (code.match(/outer\d+:for\(/g) ?? []).length, ...(found > 0 ? { runtime: ['uniquePair'] } : {}) };
}

/**
 * What Ajv's ESM output still `require()`s (ajv#2209): the identifier each require expression
 * becomes, a helper of src/validate/runtime/index.js. The equality and the formats are our own ESM
 * (the same answers as fast-deep-equal and ajv-formats' full formats, proven by differential
 * tests): importing those CommonJS packages cost Node's CommonJS loader at every cold start.
 * A format not listed here is a require() not recognised, and fails the build.
 */
const REQUIRE_REWRITES: ReadonlyArray<{ readonly expression: string; readonly name: RuntimeName }> = [
  { expression: 'require("ajv/dist/runtime/equal").default', name: 'jsonEqual' },
  { expression: 'require("ajv-formats/dist/formats").fullFormats.uri', name: 'isUri' },
  { expression: 'require("ajv-formats/dist/formats").fullFormats.date', name: 'dateFormat' },
  { expression: 'require("ajv-formats/dist/formats").fullFormats["date-time"]', name: 'dateTimeFormat' },
  // Ajv's maxLength counts code points: a surrogate pair is one character.
  { expression: 'require("ajv/dist/runtime/ucs2length").default', name: 'ucs2length' },
];

/**
 * Turns the require() calls of Ajv's ESM output into static imports, which a bundler follows.
 *
 * @param code Ajv standalone code.
 * @returns The code with imports for its require()s; its sites are the code's require() calls (one not in REQUIRE_REWRITES is not recognised).
 * @example
 * staticImports('const f = require("ajv/dist/runtime/equal").default;').code; // 'const f = jsonEqual;'
 */
export function staticImports(code: string): Rewritten {
  let out = code;
  let found = 0;
  const helpers: RuntimeName[] = [];
  for (const { expression, name } of REQUIRE_REWRITES) {
    const n = count(out, expression);
    if (n === 0) continue;
    found += n;
    out = out.replaceAll(expression, name);
    helpers.push(name);
  }
  return { code: out, found, sites: (code.match(/\brequire\s*\(/g) ?? []).length, runtime: helpers };
}

/** The signature Ajv gives every validate function; its options only carry error-reporting context. */
const SIGNATURE = /function (validate\d+)\(data, \{instancePath="", parentData, parentDataProperty, rootData=data\}=\{\}\)/g;

/** The end (exclusive) of the block or object literal that opens at `at`. */
function literalEnd(code: string, at: number, rewrite = 'verdictOnly'): number {
  let depth = 0;
  for (let i = at; i < code.length; ) {
    if (code[i] === '{') depth++;
    else if (code[i] === '}' && --depth === 0) return i + 1;
    i = tokenEnd(code, i, rewrite);
  }
  throw new Error(`generate: ${rewrite} met an unclosed { at ${at}; update it`);
}

/**
 * A fast module only gives the verdict (decode lists the issues with the task's listing module),
 * so this drops what Ajv builds for error reporting: every error object becomes one shared empty
 * object, and the instance paths and options objects passed to referenced validators go. A valid
 * payload built an error object and its instance path for every discarded `oneOf` branch (a 4 MiB
 * payload under a long map key spent most of its time there) and options for every call.
 *
 * @param code Ajv standalone code with allErrors off.
 * @returns The same verdicts from code that builds no error details; its sites are the code's
 *   validate functions and `{instancePath` literals.
 * @throws Error when a literal has a shape it does not know or the reporting context is still used.
 * @example
 * verdictOnly(code).code;
 */
function verdictOnly(code: string): Rewritten {
  const functions = count(code, 'function validate');
  let signatures = 0;
  const src = code.replace(SIGNATURE, (_m, name: string) => {
    signatures++;
    return `function ${name}(data)`;
  });
  let out = '';
  let from = 0;
  let literals = 0;
  let missed = false;
  for (let i = 0; i < src.length; ) {
    if (!src.startsWith('{instancePath', i)) {
      i = tokenEnd(src, i, 'verdictOnly');
      continue;
    }
    const end = literalEnd(src, i);
    const literal = src.slice(i, end);
    if (/^\{instancePath(:.*?)?,schemaPath:/s.test(literal)) {
      out += `${src.slice(from, i)}noDetail`;
    } else if (/^\{instancePath(:.*)?,parentData(:.*)?,parentDataProperty(:.*)?,rootData\}$/s.test(literal) && src.endsWith(', ', i)) {
      out += src.slice(from, i - 2);
    } else {
      missed = true; // not recognised: the count fails the build
      break;
    }
    literals++;
    from = end;
    i = end;
  }
  out += src.slice(from);
  // Every use of the reporting context is gone, or a shape was missed (an unrecognised literal fails the count instead).
  const left = missed ? null : /\b(instancePath|parentData|parentDataProperty|rootData)\b/.exec(out.replace(/"(?:[^"\\]|\\.)*"/g, '""'));
  if (left !== null) throw new Error(`generate: verdictOnly left ${left[1]} in use; update it`);
  return {
    code: out,
    found: signatures + literals,
    sites: functions + count(src, '{instancePath'), // the signatures hold one each, counted as functions
    runtime: ['noDetail'],
  };
}

/** The fields of an object literal (`{a:x,b,c:{d:1}}`), `key` → value text, split at its top-level commas; null if it is not one. */
function literalFields(literal: string, rewrite: string): Array<readonly [string, string]> | null {
  const fields: Array<readonly [string, string]> = [];
  let depth = 0;
  let start = 1;
  for (let i = 0; i < literal.length; ) {
    const c = literal[i]!;
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    if ((c === ',' && depth === 1) || (c === '}' && depth === 0)) {
      const field = /^(\w+)(?::([\s\S]*))?$/.exec(literal.slice(start, i));
      if (field === null) return null;
      fields.push([field[1]!, field[2] ?? field[1]!]);
      start = i + 1;
    }
    i = tokenEnd(literal, i, rewrite);
  }
  return fields;
}

/** The fields of Ajv's error objects, in its order (`propertyName` under `propertyNames` only). */
const ERROR_FIELDS = ['instancePath', 'schemaPath', 'keyword', 'params', 'message', 'propertyName'];

/**
 * Ajv's allErrors code records each error in five statements: the error object's literal, then
 * start or grow the list, count, and (boundedListing) check the limit; about half of a listing
 * module. Each becomes one call, `vErrors = recordError(vErrors, ++errors, instancePath,
 * schemaPath, keyword, params, message)` (src/validate/runtime/index.js), which builds the same
 * object (the same fields in the same order), records it the same way and stops the listing at
 * the same count: a listing module a third smaller, which is what a first failing decode loads.
 *
 * @param code Ajv's allErrors standalone code, after boundedListing.
 * @returns The code with every recorded error a call; its sites are the error literals.
 * @example
 * compactErrors(code).code;
 */
function compactErrors(code: string): Rewritten {
  const head = /const (err\d+) = \{instancePath/g;
  let out = '';
  let from = 0;
  let found = 0;
  for (const m of code.matchAll(head)) {
    const open = m.index + m[0].length - '{instancePath'.length;
    const end = literalEnd(code, open, 'compactErrors');
    const err = m[1]!;
    const tail = `;if(vErrors === null){vErrors = [${err}];}else {vErrors.push(${err});}errors++;if(errors > LISTING_LIMIT){stopListing(vErrors);}`;
    const fields = literalFields(code.slice(open, end), 'compactErrors');
    const known = (fields?.length ?? 0) >= 5 && fields?.every(([key], i) => key === ERROR_FIELDS[i]);
    if (fields === null || !known || !code.startsWith(tail, end) || m.index < from) continue; // not recognised: the count fails the build
    out += `${code.slice(from, m.index)}vErrors = recordError(vErrors, ++errors, ${fields.map(([, value]) => value).join(', ')});`;
    from = end + tail.length;
    found++;
  }
  return { code: out + code.slice(from), found, sites: count(code, '= {instancePath'), ...(found > 0 ? { runtime: ['recordError'] } : {}) };
}

/**
 * Ajv's allErrors code merges a referenced schema's errors in four statements (linearErrors'
 * append, count, boundedListing's check); each becomes `vErrors = mergeErrors(vErrors, v.errors);`
 * and the count (src/validate/runtime/index.js), with the same list, order and stop.
 *
 * @param code Ajv's allErrors standalone code, after linearErrors and boundedListing.
 * @returns The code with every merge a call; its sites are the merges' loops.
 * @example
 * compactMerges(code).code;
 */
function compactMerges(code: string): Rewritten {
  const merge =
    /if \(vErrors === null\) \{ vErrors = ([\w$]+)\.errors; \} else \{ for \(const e of \1\.errors\) vErrors\.push\(e\); \}errors = vErrors\.length;if\(errors > LISTING_LIMIT\)\{stopListing\(vErrors\);\}/g;
  let found = 0;
  const out = code.replace(merge, (_m, v: string) => {
    found++;
    return `vErrors = mergeErrors(vErrors, ${v}.errors);errors = vErrors.length;`;
  });
  return { code: out, found, sites: count(code, 'for (const e of '), ...(found > 0 ? { runtime: ['mergeErrors'] } : {}) };
}

/** The name of a top-level validate function whose body opens at the `{` that ends the match. */
const FUNCTION_HEAD = /(?:^|[;}\n])function (validate\d+)\([^)]*\)\{/g;

/**
 * Ajv compiles a `$ref` to a schema that holds no `$ref` of its own (a leaf: an enum, a small
 * object) inline at each use by default, and names its errors' `schemaPath` by the `$ref` it
 * was reached through (`/schemas/3.1.19/enums/channel.json/enum`); compiled once as a function of
 * its own (`inlineRefs: false`, one copy per release), its errors would say `#/enum`, which names
 * no schema file. In each leaf function (context.leafPaths: name → the `$ref` that reaches it:
 * the schema's `$id`, or `#/definitions/...` inside its own file) this puts the `$ref` in place
 * of the leading `#`, which gives exactly the paths Ajv's inlined code gives.
 *
 * @param code Ajv's allErrors standalone code, compiled with `inlineRefs: false`.
 * @param context The leaf functions and their `$ref`s.
 * @returns The code with the leaf functions' schema paths named; its sites are the schemaPath
 *   literals in leaf functions, and each leaf function the code lacks.
 * @example
 * namedLeafPaths(code, { leafPaths: new Map([['validate12', '/schemas/3.1.19/enums/channel.json']]) }).code;
 */
function namedLeafPaths(code: string, context: RewriteContext): Rewritten {
  const edits: Array<{ at: number; end: number; text: string }> = [];
  let sites = 0;
  let found = 0;
  const seen = new Set<string>();
  for (const m of code.matchAll(FUNCTION_HEAD)) {
    const ref = context.leafPaths.get(m[1]!);
    if (ref === undefined) continue;
    seen.add(m[1]!);
    const open = m.index + m[0].length - 1;
    const end = literalEnd(code, open, 'namedLeafPaths');
    const body = code.slice(open, end);
    sites += count(body, 'schemaPath:');
    for (const p of body.matchAll(/schemaPath:"#/g)) {
      found++;
      const at = open + p.index + 'schemaPath:"'.length;
      edits.push({ at, end: at + 1, text: JSON.stringify(ref).slice(1, -1) });
    }
  }
  sites += [...context.leafPaths.keys()].filter((name) => !seen.has(name)).length;
  let out = '';
  let from = 0;
  for (const edit of edits.sort((a, b) => a.at - b.at)) {
    out += code.slice(from, edit.at) + edit.text;
    from = edit.end;
  }
  return { code: out + code.slice(from), found, sites };
}

const BOTH: readonly ModuleKind[] = ['fast', 'listing'];

/** The rewrites, in the order they apply. */
export const REWRITES: readonly Rewrite[] = [
  {
    name: 'verdictOnly',
    reason: 'a fast module builds no error details: decode lists the issues with the listing module',
    kinds: ['fast'],
    site: 'validate function or error literal',
    apply: verdictOnly,
  },
  {
    name: 'linearKeyPointers',
    reason: 'a map key is escaped into a JSON Pointer once per visit, not once per error built under it (quadratic)',
    kinds: BOTH,
    site: 'replace() call',
    apply: linearKeyPointers,
  },
  {
    name: 'linearErrors',
    reason: "a referenced schema's errors are appended in place, not concatenated (quadratic)",
    kinds: BOTH,
    site: 'concat() call',
    apply: linearErrors,
  },
  {
    name: 'namedLeafPaths',
    reason: "a leaf schema compiled once names its errors' schema paths by its $ref, as Ajv's inlined copies did",
    kinds: ['listing'],
    site: 'schemaPath literal or leaf function',
    apply: namedLeafPaths,
  },
  {
    name: 'boundedListing',
    reason: 'the error listing stops past LISTING_LIMIT errors held at once (memory)',
    kinds: ['listing'],
    site: 'recorded or merged error',
    apply: boundedListing,
  },
  {
    name: 'compactErrors',
    reason: 'a recorded error is one call, not a literal and four statements (half a listing module: the first failure loads it)',
    kinds: ['listing'],
    site: 'error literal',
    apply: compactErrors,
  },
  {
    name: 'derivedMessages',
    reason:
      "a recorded error's message is rebuilt at run time from its keyword and params, as Ajv built it (0.5 MB of strings a first failure loaded)",
    kinds: ['listing'],
    site: 'recordError call',
    apply: derivedMessages,
  },
  {
    name: 'pathKeywords',
    reason: "a recorded error's keyword is read from its schema path's last segment, where Ajv puts it (a string less per error)",
    kinds: ['listing'],
    site: 'recordError call',
    apply: pathKeywords,
  },
  {
    name: 'compactMerges',
    reason: "a referenced schema's errors merge in one call, not four statements",
    kinds: ['listing'],
    site: 'error merge',
    apply: compactMerges,
  },
  {
    name: 'linearUniqueItems',
    reason: 'uniqueItems keys long arrays in one pass instead of comparing every pair (quadratic)',
    kinds: BOTH,
    site: 'uniqueItems loop',
    apply: linearUniqueItems,
  },
  {
    name: 'staticImports',
    reason: "the require()s of Ajv's ES module output become imports a bundler follows (ajv#2209)",
    kinds: BOTH,
    site: 'require() call',
    apply: staticImports,
  },
];

/**
 * Applies the rewrites of a module kind to Ajv's standalone code, in table order, and imports
 * the runtime helpers the result calls.
 *
 * @param code Ajv standalone code of one module.
 * @param kind The module's kind.
 * @param rewrites The table (the default is {@link REWRITES}).
 * @param context What the rewrites need to know besides the code (the leaf functions).
 * @returns The module's code.
 * @throws Error naming the rewrite when it recognised fewer or more sites than its pattern has.
 * @example
 * rewrite(standaloneCode(ajv, refs), 'fast');
 */
export function rewrite(code: string, kind: ModuleKind, rewrites: readonly Rewrite[] = REWRITES, context = NO_CONTEXT): string {
  let out = code;
  const helpers = new Set<RuntimeName>();
  for (const { name, kinds, site, apply } of rewrites) {
    if (!kinds.includes(kind)) continue;
    const result = apply(out, context);
    if (result.found !== result.sites) {
      throw new Error(
        `generate: the ${name} rewrite recognised ${result.found} of the ${result.sites} sites (${site}s) in a ${kind} module; update it`,
      );
    }
    out = result.code;
    for (const helper of result.runtime ?? []) helpers.add(helper);
  }
  if (helpers.size === 0) return out;
  for (const helper of helpers) if (!(helper in runtime)) throw new Error(`generate: src/validate/runtime/index.js lacks ${helper}`);
  return `import { ${[...helpers].sort().join(', ')} } from "${RUNTIME_MODULE}";\n${out}`;
}
