/**
 * A minimal valid request for a task, found by asking its request schema: start from `{}`, encode
 * it, and repair the first thing the schema's validator refuses (a required member missing, a
 * wrong type, a value outside an enum, a list too short) with the simplest value that issue's
 * parameters allow, until encode accepts it. The request holds only what the schema requires,
 * every free string the same recognizable placeholder; what encode accepted is what is sent.
 */
import type { EncodedRequest } from '../encode/request.js';
import { type DecodeError, RequestError, type ValidationIssue } from '../errors/errors.js';
import { isObject } from '../json/own.js';
import type { Version } from '../schema/versions.js';
import { encodeNamed } from './named.js';

/** The string a probe puts where the schema asks for any string: a seller's logs say who sent it. */
const PLACEHOLDER = 'adcp-decode-probe';

/** Strings for the formats a request schema checks (RFC 2606 names, a fixed instant). */
const FORMATS: Readonly<Record<string, string>> = {
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  uri: 'https://buyer.example/',
  'uri-reference': 'https://buyer.example/',
  url: 'https://buyer.example/',
  email: 'probe@buyer.example',
  uuid: '00000000-0000-4000-8000-000000000000',
  hostname: 'buyer.example',
  ipv4: '192.0.2.1',
};

/** Repairs tried before giving up: the deepest request a bundled schema needs takes 25. */
const MAX_REPAIRS = 64;

/** Segments of a schema path that make a rule conditional: repaired only once every unconditional rule holds. */
const CONDITIONAL = /\/(if|then|else|anyOf|oneOf|not|dependentSchemas)(\/|$)/;

/** Keywords that report only that a sub-schema failed; the sub-schema's own issue says what to repair. */
const SUMMARY_KEYWORDS: ReadonlySet<string> = new Set(['anyOf', 'oneOf', 'if', 'not', 'allOf']);

/** The outcome: the encoded arguments, or why none was found (the last refusal). */
export type MinimalRequest = { readonly ok: true; readonly request: EncodedRequest } | { readonly ok: false; readonly why: string };

function segments(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at a JSON Pointer of our own draft (never seller data). */
function at(root: unknown, pointer: string): unknown {
  let node = root;
  for (const key of segments(pointer)) node = Array.isArray(node) ? node[Number(key)] : isObject(node) ? node[key] : undefined;
  return node;
}

/** The draft with `value` put at `pointer` below its root; `undefined` where no container holds that place. */
function put(root: Record<string, unknown>, pointer: string, value: unknown): Record<string, unknown> | undefined {
  const keys = segments(pointer);
  const last = keys.pop();
  if (last === undefined) return isObject(value) ? value : undefined;
  const parent = at(root, keys.map((k) => `/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''));
  if (Array.isArray(parent)) parent[Number(last)] = value;
  else if (isObject(parent)) parent[last] = value;
  else return undefined;
  return root;
}

function child(pointer: string, key: string): string {
  return `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** The simplest value of a JSON type. */
function ofType(type: unknown): unknown {
  const first = String(type).split(',')[0];
  if (first === 'object') return {};
  if (first === 'array') return [];
  if (first === 'integer' || first === 'number') return 1;
  if (first === 'boolean') return true;
  if (first === 'null') return null;
  return PLACEHOLDER;
}

/** The draft with one issue repaired, or `undefined` when the issue is none this search can repair. */
function repair(draft: Record<string, unknown>, issue: ValidationIssue): Record<string, unknown> | undefined {
  const { path, params } = issue;
  const limit = typeof params.limit === 'number' ? params.limit : undefined;
  switch (issue.keyword) {
    case 'required':
    case 'dependentRequired':
      return typeof params.missingProperty === 'string' ? put(draft, child(path, params.missingProperty), PLACEHOLDER) : undefined;
    case 'type':
      return put(draft, path, ofType(params.type));
    case 'enum':
      return Array.isArray(params.allowedValues) && params.allowedValues.length > 0 ? put(draft, path, params.allowedValues[0]) : undefined;
    case 'const':
      return 'allowedValue' in params ? put(draft, path, params.allowedValue) : undefined;
    case 'format':
      return typeof params.format === 'string' && FORMATS[params.format] !== undefined
        ? put(draft, path, FORMATS[params.format])
        : undefined;
    case 'minItems': {
      const list = at(draft, path);
      if (!Array.isArray(list)) return undefined;
      list.push(list.length > 0 ? structuredClone(list[0]) : PLACEHOLDER);
      return draft;
    }
    case 'minLength':
      return limit === undefined ? undefined : put(draft, path, PLACEHOLDER.padEnd(limit, '-'));
    case 'maxLength':
      return limit === undefined ? undefined : put(draft, path, PLACEHOLDER.slice(0, Math.max(1, limit)));
    case 'minimum':
    case 'maximum':
      return limit === undefined ? undefined : put(draft, path, limit);
    case 'exclusiveMinimum':
      return limit === undefined ? undefined : put(draft, path, Math.floor(limit) + 1);
    default:
      return undefined;
  }
}

/** The issue to repair first: an unconditional rule's, so that a discriminator is set before the branches it selects are judged. */
function pick(issues: readonly ValidationIssue[]): ValidationIssue | undefined {
  const concrete = issues.filter((issue) => !SUMMARY_KEYWORDS.has(issue.keyword));
  return concrete.find((issue) => !CONDITIONAL.test(issue.schemaPath)) ?? concrete[0];
}

function refusal(error: DecodeError): string {
  return error instanceof RequestError && error.fault === 'schema' && error.issues[0] !== undefined
    ? `${error.issues[0].message} at ${error.issues[0].path === '' ? '(root)' : error.issues[0].path}`
    : error.code;
}

/**
 * The smallest request the task's request schema accepts in `version`, found by repairing what
 * encode refuses, one issue at a time.
 *
 * @param task - A task of `version`.
 * @param version - The bundled version whose request schema judges.
 * @returns The request encode returned (stamped, frozen), or why the search stopped.
 * @throws Never.
 * @example
 * minimalRequest('get_products', '3.1.19'); // { ok: true, request: { task: 'get_products', args: { buying_mode: 'brief', adcp_version: '3.1', ... } } }
 */
export function minimalRequest(task: string, version: Version): MinimalRequest {
  let draft: Record<string, unknown> = {};
  for (let round = 0; round <= MAX_REPAIRS; round++) {
    const encoded = encodeNamed(task, draft, { version });
    if (encoded.success) return { ok: true, request: encoded.data };
    const error = encoded.error;
    const issue = error instanceof RequestError && error.fault === 'schema' ? pick(error.issues) : undefined;
    const repaired = issue === undefined ? undefined : repair(draft, issue);
    if (repaired === undefined || round === MAX_REPAIRS) return { ok: false, why: refusal(error) };
    draft = repaired;
  }
  return { ok: false, why: 'no repair left' };
}
