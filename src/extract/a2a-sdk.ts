/**
 * The in-memory objects of the @a2a-js/sdk 1.x client (protobuf-style: numeric `status.state` and
 * `role`, parts as `{ content: { $case, value } }`, stream events as `{ payload: { $case, value } }`)
 * read as the A2A 1.0 wire form (ProtoJSON) they stand for, so that decode() takes what the SDK
 * returns as it is. Only the members the extraction reads are rebuilt (ids, status, artifacts, the
 * stream event flags); DataPart `data` values are kept as they are, for decode() to copy and bound.
 * Nothing here imports the SDK: the shapes are recognised structurally.
 */
import { type ErrorContext, LimitError, NO_CONTEXT } from '../errors/errors.js';
import { isObject, own } from '../json/own.js';

/** The SDK's TaskState enum, by value (a2a.proto's `TaskState`). */
const TASK_STATES = [
  'TASK_STATE_UNSPECIFIED',
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
] as const;

/** The SDK's Role enum, by value. */
const ROLES = ['ROLE_UNSPECIFIED', 'ROLE_USER', 'ROLE_AGENT'] as const;

/** The `$case`s of the SDK's StreamResponse / SendMessageResponse `payload`. */
const PAYLOAD_CASES = ['task', 'message', 'statusUpdate', 'artifactUpdate'] as const;

/** Most parts, artifacts and messages rebuilt from one object: beyond it the object is refused, unread. */
const MAX_ITEMS = 100_000;

/** The count of items rebuilt so far, against {@link MAX_ITEMS}, and the call, for the error. */
interface Budget {
  used: number;
  readonly context: ErrorContext;
}

function spend(budget: Budget, count: number): void {
  budget.used += count;
  if (budget.used > MAX_ITEMS)
    throw new LimitError(
      'TOO_MANY_VALUES',
      `expected an @a2a-js/sdk object of at most ${MAX_ITEMS} parts, artifacts and messages; got more (refused unread)`,
      { unit: 'nodes', limit: MAX_ITEMS, actual: budget.used },
      budget.context,
    );
}

/**
 * Whether `input` is an in-memory @a2a-js/sdk 1.x object: a StreamResponse/SendMessageResponse
 * (`payload.$case`), or a Task, status update, artifact update or Message carrying the SDK's
 * numeric enums or `content.$case` parts. Wire-form objects (ProtoJSON, v0.3 JSON) answer false.
 *
 * @param input - Anything.
 * @returns True when {@link fromA2aSdk} rebuilds it.
 * @throws Whatever reading the input throws (a getter, a Proxy trap); decode() reports it.
 * @example
 * isA2aSdkObject({ id: 't', status: { state: 3 }, artifacts: [] }); // true
 */
function isA2aSdkObject(input: unknown): boolean {
  if (!isObject(input)) return false;
  const payload = own(input, 'payload');
  if (isObject(payload)) return (PAYLOAD_CASES as readonly unknown[]).includes(own(payload, '$case'));
  const status = own(input, 'status');
  if (isObject(status) && typeof own(status, 'state') === 'number') return true;
  if (typeof own(input, 'role') === 'number' && Array.isArray(own(input, 'parts'))) return true;
  const artifact = own(input, 'artifact');
  return isObject(artifact) && hasSdkParts(own(artifact, 'parts'));
}

function hasSdkParts(parts: unknown): boolean {
  if (!Array.isArray(parts) || parts.length === 0) return false;
  const first: unknown = parts[0];
  return isObject(first) && isObject(own(first, 'content'));
}

/**
 * The wire form (A2A 1.0 ProtoJSON) of an in-memory @a2a-js/sdk 1.x object; any other input as it is.
 *
 * @param input - What decode() was given.
 * @param context - The call it was given to (decode's task and version), for the error.
 * @returns A StreamResponse as its single-key envelope (`{ task }`, `{ statusUpdate }`, ...), a Task
 *   or event with string states and `{ data }` / `{ text }` parts; or `input` unchanged.
 * @throws {LimitError} `TOO_MANY_VALUES` (unit `nodes`) past {@link MAX_ITEMS} items; whatever reading the input throws.
 * @example
 * fromA2aSdk({ payload: { $case: 'statusUpdate', value: event } }); // { statusUpdate: { taskId, status: { state: 'TASK_STATE_WORKING', ... } } }
 */
export function fromA2aSdk(input: unknown, context: ErrorContext = NO_CONTEXT): unknown {
  if (!isA2aSdkObject(input) || !isObject(input)) return input;
  const budget: Budget = { used: 0, context };
  const payload = own(input, 'payload');
  if (isObject(payload)) {
    const which = own(payload, '$case') as (typeof PAYLOAD_CASES)[number];
    return { [which]: wireObject(own(payload, 'value'), budget) };
  }
  return wireObject(input, budget);
}

/** A Task, event or Message: its scalar members kept, its status, artifacts, history and parts rebuilt. */
function wireObject(value: unknown, budget: Budget): unknown {
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const member = own(value, key);
    // ProtoJSON leaves out a field at its default: unset, '', false, an empty list.
    if (member === undefined || member === '' || member === false || (Array.isArray(member) && member.length === 0)) continue;
    out[key] = wireMember(key, member, budget);
  }
  return out;
}

function wireMember(key: string, member: unknown, budget: Budget): unknown {
  switch (key) {
    case 'status':
      return wireStatus(member, budget);
    case 'artifact':
    case 'message':
      return wireObject(member, budget);
    case 'artifacts':
    case 'history':
      return wireList(member, budget, (item) => wireObject(item, budget));
    case 'parts':
      return wireList(member, budget, wirePart);
    case 'role':
      return typeof member === 'number' ? (ROLES[member] ?? member) : member;
    default:
      return member;
  }
}

function wireList(list: unknown, budget: Budget, each: (item: unknown) => unknown): unknown {
  if (!Array.isArray(list)) return list;
  spend(budget, list.length);
  return Array.from(list, each);
}

function wireStatus(status: unknown, budget: Budget): unknown {
  if (!isObject(status)) return status;
  const out = wireObject(status, budget) as Record<string, unknown>;
  const state = own(status, 'state');
  // A number outside the enum stays a number: decode() then says it is no known state.
  if (typeof state === 'number') out.state = TASK_STATES[state] ?? state;
  return out;
}

/** `{ content: { $case: 'data', value } }` as `{ data: value }` (and text, url, raw likewise), its other set members kept. */
function wirePart(part: unknown): unknown {
  if (!isObject(part)) return part;
  const content = own(part, 'content');
  if (!isObject(content)) return part;
  const which = own(content, '$case');
  const out: Record<string, unknown> = typeof which === 'string' ? { [which]: own(content, 'value') } : {};
  for (const key of ['metadata', 'filename', 'mediaType']) {
    const member = own(part, key);
    if (member !== undefined && member !== '') out[key] = member;
  }
  return out;
}
