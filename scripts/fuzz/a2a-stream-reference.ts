/**
 * The A2A stream lane's reference: the fold as A2A states it, written the naive way (a linear
 * search for each artifact, a new parts array on every append, a new task on every status update),
 * so that on small streams foldA2aStream can be checked against it. Quadratic: small inputs only.
 */
import { DEFAULT_BOUNDS } from '../../src/bounds/bounds.js';
import { snapshot } from '../../src/bounds/snapshot.js';
import { DecodeError } from '../../src/errors/errors.js';
import { fromA2aSdk } from '../../src/extract/a2a-sdk.js';
import type { Json } from './context.js';

const KINDS = ['task', 'statusUpdate', 'artifactUpdate', 'message'] as const;
const V03: Readonly<Record<string, (typeof KINDS)[number]>> = {
  task: 'task',
  'status-update': 'statusUpdate',
  'artifact-update': 'artifactUpdate',
  message: 'message',
};

const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const field = (o: Json, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined);
const refused = (code: string): DecodeError => new DecodeError(code as 'MALFORMED_ENVELOPE', `reference: ${code}`);

/** The event's kind and body: a one-key 1.0 envelope, or a v0.3 `kind`-tagged object. */
function classify(raw: unknown): { kind: (typeof KINDS)[number]; body: Json } {
  const wire = fromA2aSdk(raw);
  if (!isJson(wire)) throw refused('MALFORMED_ENVELOPE');
  const keys = Object.keys(wire);
  const key = keys[0];
  const inner = key === undefined ? undefined : field(wire, key);
  if (keys.length === 1 && KINDS.some((k) => k === key) && isJson(inner)) return { kind: key as (typeof KINDS)[number], body: inner };
  const kind = field(wire, 'kind');
  if (typeof kind === 'string' && Object.hasOwn(V03, kind)) return { kind: V03[kind]!, body: wire };
  throw refused('MALFORMED_ENVELOPE');
}

/**
 * The stream folded the naive way, then copied as foldA2aStream copies its result.
 *
 * @param events - The events.
 * @returns The folded task (or `{ message }`).
 * @throws {DecodeError} With the code foldA2aStream gives (a message of its own).
 * @example
 * referenceFold([{ task: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } } }]);
 */
export function referenceFold(events: readonly unknown[]): Json {
  if (events.length > 10_000) throw refused('TOO_MANY_VALUES');
  let task: Json | undefined;
  let artifacts: Json[] = [];
  let message: Json | undefined;
  for (const raw of events) {
    const { kind, body } = classify(raw);
    const named = kind === 'task' ? field(body, 'id') : field(body, 'taskId');
    const id = task === undefined ? undefined : field(task, 'id');
    if (id !== undefined && named !== undefined && named !== '' && named !== id) throw refused('MALFORMED_ENVELOPE');
    if (kind === 'message') message = body;
    if (kind === 'task') {
      task = { ...body };
      const listed = field(body, 'artifacts');
      artifacts = Array.isArray(listed) ? listed.filter(isJson).map((a) => ({ ...a })) : [];
    }
    if (kind === 'statusUpdate') task = { ...(task ?? { id: named, contextId: field(body, 'contextId') }), status: field(body, 'status') };
    if (kind === 'artifactUpdate') {
      task ??= { id: named, contextId: field(body, 'contextId') };
      const artifact = field(body, 'artifact');
      if (!isJson(artifact)) continue;
      const at = artifacts.findIndex((a) => field(a, 'artifactId') === field(artifact, 'artifactId'));
      const existing = artifacts[at];
      if (existing === undefined) artifacts.push({ ...artifact });
      else if (field(body, 'append') !== true) artifacts[at] = { ...artifact };
      else {
        const before = field(existing, 'parts');
        const added = field(artifact, 'parts');
        existing['parts'] = [...(Array.isArray(before) ? before : []), ...(Array.isArray(added) ? added : [])];
      }
    }
  }
  const result = task !== undefined ? { ...task, artifacts } : message !== undefined ? { message } : undefined;
  if (result === undefined) throw refused('NO_PAYLOAD');
  return snapshot(result, DEFAULT_BOUNDS, { what: 'the reference fold' }) as Json;
}
