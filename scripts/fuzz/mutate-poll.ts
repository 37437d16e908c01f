/**
 * The polling mutators: a valid get_task_status / tasks/get answer, damaged as a value (the payload
 * mutators: dropped and altered members, prototype keys, deep nesting, huge strings, wrong types,
 * hostile values) and by status contradictions (a completed task without its result, a failed one
 * with a result, an error beside a success, a task type or status the result does not match).
 */
import { type Ctx, type Json, note } from './context.js';
import { mutatePayload } from './mutate-payload.js';

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

const POLL_MUTATIONS = [
  [70, 'payload'],
  [12, 'status'],
  [6, 'taskType'],
  [6, 'resultStatus'],
  [6, 'errorBeside'],
] as const;

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
export function mutatePoll(ctx: Ctx, response: Json): Json {
  const { rng } = ctx;
  const op = rng.weighted(POLL_MUTATIONS);
  switch (op) {
    case 'payload':
      return mutatePayload(ctx, response);
    case 'status': {
      const status = rng.pick(STATUSES);
      response['status'] = status;
      if (rng.chance(0.5)) delete response['result'];
      note(ctx, 'poll:status', `${status}${'result' in response ? '' : ', result dropped'}`);
      return response;
    }
    case 'taskType': {
      const type = rng.pick([
        'create_media_buy',
        'get_products',
        'sync_creatives',
        'media_buy_delivery',
        'get_media_buy_delivery',
        'nope',
        '__proto__',
      ]);
      response['task_type'] = type;
      note(ctx, 'poll:taskType', type);
      return response;
    }
    case 'resultStatus': {
      const result = response['result'];
      const status = rng.pick(STATUSES);
      if (typeof result === 'object' && result !== null && !Array.isArray(result)) (result as Json)['status'] = status;
      else response['result'] = { status };
      note(ctx, 'poll:resultStatus', status);
      return response;
    }
    case 'errorBeside': {
      response['error'] = rng.pick<unknown>([
        { code: 'RATE_LIMITED', message: 'slow down' },
        { code: 5 },
        'boom',
        null,
        { code: 'X'.repeat(100_000) },
      ]);
      note(ctx, 'poll:errorBeside', String(response['status']));
      return response;
    }
  }
}
