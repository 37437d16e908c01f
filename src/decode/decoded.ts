/**
 * What decode() concluded of each payload it returned, in one side table: the variant that judged
 * it (the final response, or an async status's schema) and, for a `submitted` or `working` answer,
 * its task handle (`null` when it carried no `task_id`). isFinal and taskHandle read it; a copy of
 * a payload is not in it, so neither is fooled by an object decode() never judged.
 */
import type { TaskHandle } from './task-handle.js';

/** One payload's record. */
export interface DecodedRecord {
  /** `'response'` for the final response, else the async status whose schema judged it. */
  readonly variant: string;
  /** For an answer whose task goes on: its handle, or `null` without a `task_id`; `undefined` for any other answer. */
  readonly handle: TaskHandle | null | undefined;
}

const records = new WeakMap<object, DecodedRecord>();

/**
 * Records what decode() concluded of a payload it returns; the latest decode of the same object wins.
 *
 * @param payload - The object decode() returns.
 * @param record - Its variant and handle.
 * @throws Never.
 * @example
 * recordDecoded(found.payload, { variant: 'response', handle: undefined });
 */
export function recordDecoded(payload: object, record: DecodedRecord): void {
  records.set(payload, record);
}

/**
 * What decode() concluded of a value, if it returned it.
 *
 * @param value - Any object.
 * @returns Its record, or `undefined` for an object decode() did not return (a copy).
 * @throws Never.
 * @example
 * decodedRecord(answer)?.variant; // 'submitted'
 */
export function decodedRecord(value: object): DecodedRecord | undefined {
  return records.get(value);
}
