/**
 * The envelope checks: a value judged by a generated envelope module (the MCP webhook payload,
 * 3.0's `tasks/get` response; scripts/generate/envelopes.ts), and its first issue as a place and
 * a one-line reason, for the caller to raise as its own error (`webhook_envelope_invalid`,
 * `MALFORMED_ENVELOPE`).
 */
import { DecodeError, describeValue, type ValidationIssue } from '../errors/errors.js';
import { shownPointer, shownText } from '../errors/format.js';
import { isObject, own } from '../json/own.js';
import type { Version } from '../schema/versions.js';
import { fastValidator, listIssues } from '../validate/validators.js';

/** Where an envelope is wrong and why, in one line. */
export interface EnvelopeFault {
  /** JSON Pointer of the member at fault (a missing member's own place). */
  readonly path: string;
  readonly reason: string;
  /** The validator's issue. */
  readonly issue: ValidationIssue;
}

/**
 * Judges a value by an envelope module of a version: the fast verdict, then, only when it fails,
 * the listing's first issue.
 *
 * @param version The bundled version.
 * @param module The module's import map key, e.g. `mcp-webhook-payload`.
 * @param value A plain value (our own copy: the validator reads it).
 * @returns `undefined` when the value is valid, else its first fault.
 * @throws {DecodeError} `INTERNAL` when the module is missing or its two validators disagree.
 * @example
 * envelopeFault('3.1.19', 'mcp-webhook-payload', body)?.path; // '/timestamp'
 */
export function envelopeFault(version: Version, module: string, value: unknown): EnvelopeFault | undefined {
  const validate = fastValidator(version, module, 'response');
  if (validate === undefined) throw defect(version, module, 'has no validator');
  if (validate(value)) return undefined;
  const issue = listIssues(version, module, 'response', value).issues[0];
  if (issue === undefined) throw defect(version, module, 'has fast and listing validators that disagree on a value');
  return describeFault(issue, value);
}

function defect(version: Version, module: string, what: string): DecodeError {
  return new DecodeError(
    'INTERNAL',
    `adcp-decode's envelope module ${module} (${version}) ${what}: a defect in adcp-decode, not the seller's fault; regenerate with npm run generate`,
    { version },
  );
}

/** The value at a JSON Pointer of a plain value, own members only. */
function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = Array.isArray(node) ? node[Number(key)] : isObject(node) ? own(node, key) : undefined;
  }
  return node;
}

function shownValue(value: unknown): string {
  return typeof value === 'string' ? `"${shownText(value, 40)}"` : describeValue(value);
}

/** The schema file a referenced schema's issue comes from, e.g. `AdCP 3.1.19 enums/task-type.json`. */
function schemaFile(schemaPath: string): string | undefined {
  const match = /^\/schemas\/([^/]+)\/(.+?\.json)\//.exec(schemaPath);
  return match === null ? undefined : `AdCP ${match[1]} ${match[2]}`;
}

function describeFault(issue: ValidationIssue, root: unknown): EnvelopeFault {
  const missing = issue.keyword === 'required' ? issue.params.missingProperty : undefined;
  if (typeof missing === 'string') {
    const path = `${issue.path}/${missing.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    return { path, reason: `${shownPointer(path)} is missing`, issue };
  }
  const got = shownValue(valueAt(root, issue.path));
  const file = schemaFile(issue.schemaPath);
  const expected =
    issue.keyword === 'enum' && file !== undefined
      ? `to be one of the values of ${file}`
      : shownText(issue.message.replace(/^must /, 'to '), 120);
  return { path: issue.path, reason: `expected ${shownPointer(issue.path)} ${expected}; got ${got}`, issue };
}
