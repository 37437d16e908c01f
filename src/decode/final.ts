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
 * True when `response` is the task's final response, false when it is an async progress payload
 * (`working`, `submitted`, `input-required`, for the tasks whose schemas define those). A type
 * guard: it narrows a decoded response to the final arms, where the task's fields are typed.
 *
 * For a value decode() returned this is the variant decode() judged it by: `status` absent or not
 * one of the task's async statuses (get_signals has no `input-required` schema, so there that
 * status is final), except that over A2A a payload without `status` sent in an interim task state
 * was judged as that async variant. For any other object (a copy, say) `status` alone decides:
 * absent, or not `working`, `submitted` or `input-required`. Never prefer `status === 'completed'`:
 * a final payload may leave `status` out.
 *
 * @param response A value decode() or safeDecode() returned.
 * @returns Whether it is the final response.
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
