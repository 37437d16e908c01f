/** Bounded serialization for the fuzzer's envelopes and steps. */
import { type Json, MiB } from './context.js';

/**
 * JSON.stringify, or a stand-in when the value cannot be serialized or would be huge (shared
 * references repeat a string thousands of times). Past 6 Mi characters of strings a text item is
 * refused unparsed anyway, so nothing is lost by stopping there; what is saved is seconds per case.
 *
 * @param value - Any value.
 * @returns The JSON text, or `{"fuzz":"unserializable"}`.
 * @throws Never.
 * @example
 * const item = { type: 'text', text: stringify(payload) };
 */
export function stringify(value: unknown): string {
  let values = 0;
  let chars = 0;
  // First count, without building anything (JSON.stringify would build the text as it goes).
  const stack: unknown[] = [value];
  try {
    while (stack.length > 0) {
      const v = stack.pop();
      if (typeof v === 'string' && (chars += v.length) > 6 * MiB) return '{"fuzz":"unserializable"}';
      if (typeof v !== 'object' || v === null) continue;
      const keys = Object.keys(v);
      // Counted when pushed, so that a value holding itself many times cannot grow the stack first.
      if ((values += keys.length) > 100_000) return '{"fuzz":"unserializable"}';
      for (const k of keys) stack.push((v as Json)[k]);
    }
  } catch {
    return '{"fuzz":"unserializable"}';
  }
  values = 0;
  chars = 0;
  try {
    return (
      JSON.stringify(value, (_key, v: unknown) => {
        if (++values > 100_000) throw new RangeError('too many values');
        if (typeof v === 'string' && (chars += v.length) > 6 * MiB) throw new RangeError('too long');
        return v;
      }) ?? 'null'
    );
  } catch {
    return '{"fuzz":"unserializable"}';
  }
}
