/**
 * The polling mutators: a valid get_task_status / tasks/get answer, damaged as a value (the payload
 * mutators: dropped and altered members, prototype keys, deep nesting, huge strings, wrong types,
 * hostile values) and by status contradictions (a completed task without its result, a failed one
 * with a result, an error beside a success, a task type or status the result does not match).
 */
import { type Json, note } from './context.js';
import { mutatePayload } from './mutate-payload.js';
import { type Mutation, weightedMutator } from './mutator.js';

const STATUSES = [
  'submitted',
  'working',
  'input-required',
  'completed',
  'failed',
  'rejected',
  'canceled',
  'auth-required',
  'unknown',
  'done',
  '',
];

/** The `task_type`s a status response is given: other tasks, a near-miss name, an unknown one, a prototype key. */
const TASK_TYPES = [
  'create_media_buy',
  'get_products',
  'sync_creatives',
  'media_buy_delivery',
  'get_media_buy_delivery',
  'nope',
  '__proto__',
];

/** What stands as `error` beside a result: a well-formed one, a non-string code, a string, null, a huge code. */
const ERRORS = [{ code: 'RATE_LIMITED', message: 'slow down' }, { code: 5 }, 'boom', null, { code: 'X'.repeat(100_000) }];

/** The status-response mutations and their weights. */
const POLL_MUTATIONS: Readonly<Record<string, Mutation<Json, undefined>>> = {
  payload: [70, mutatePayload],
  status: [
    12,
    (ctx, response) => {
      const status = ctx.rng.pick(STATUSES);
      response['status'] = status;
      if (ctx.rng.chance(0.5)) delete response['result'];
      note(ctx, 'poll:status', `${status}${'result' in response ? '' : ', result dropped'}`);
      return response;
    },
  ],
  taskType: [
    6,
    (ctx, response) => {
      const type = ctx.rng.pick(TASK_TYPES);
      response['task_type'] = type;
      note(ctx, 'poll:taskType', type);
      return response;
    },
  ],
  resultStatus: [
    6,
    (ctx, response) => {
      const result = response['result'];
      const status = ctx.rng.pick(STATUSES);
      if (typeof result === 'object' && result !== null && !Array.isArray(result)) (result as Json)['status'] = status;
      else response['result'] = { status };
      note(ctx, 'poll:resultStatus', status);
      return response;
    },
  ],
  errorBeside: [
    6,
    (ctx, response) => {
      // A copy: later mutations of the response change it in place, and the next case picks it again.
      response['error'] = structuredClone(ctx.rng.pick<unknown>(ERRORS));
      note(ctx, 'poll:errorBeside', String(response['status']));
      return response;
    },
  ],
};

/**
 * One random mutation of a status response.
 *
 * @param ctx - The case's context.
 * @param response - The response, changed in place (or replaced: the returned value is the one to use).
 * @returns The response.
 * @throws What a hostile value planted earlier throws (the case then skips this mutation).
 * @example
 * response = mutatePoll(ctx, response);
 */
export const mutatePoll = weightedMutator(POLL_MUTATIONS, () => undefined);
