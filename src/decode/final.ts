/**
 * isFinal(): tells a task's final response from its async progress payloads. decode() records
 * which variant judged each payload it returns (the schema is picked by `status`, or by the A2A
 * task state when `status` is absent), so isFinal answers what decode() decided, not a guess.
 */
import { type AsyncStatus, isAsyncStatus } from '../schema/statuses.js';
import { decodedRecord } from './decoded.js';

/** The final arms of a decoded response: every union member whose `status` is not required to be an async one. */
export type Final<R> = Exclude<R, { readonly status: AsyncStatus }>;

/**
 * A type guard, true when `response` is the task's final response (narrowed to the final arms, where the task's fields are typed).
 * How it tells an async progress payload, and why not `status === 'completed'`: docs/decode.md, "isFinal(response)".
 *
 * @param response A value decode() or safeDecode() returned (for any other object, `status` alone decides).
 * @returns Whether it is the final response, as decode() judged it; false for an async progress payload.
 * @throws Never.
 * @example
 * const response = decode('get_products', result);
 * if (!isFinal(response)) return track(response.status);
 * show(response.products); // Product[]
 */
export function isFinal<R extends object>(response: R): response is Final<R>;
export function isFinal(response: unknown): boolean {
  if (typeof response !== 'object' || response === null) return false;
  const known = decodedRecord(response);
  if (known !== undefined) return known.variant === 'response';
  // A copy: read `status` as data only, never through a getter; a Proxy's throwing trap is "not final".
  try {
    const own = Object.getOwnPropertyDescriptor(response, 'status');
    return own === undefined || ('value' in own && !isAsyncStatus(own.value));
  } catch {
    return false;
  }
}
