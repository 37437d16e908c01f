/** The cost-class mutators of issue 11: inputs that are cheap to send and may be dear to check. */
import { type Ctx, get, type Json, MiB, note, type Slot, set, size, slots } from './context.js';

/** Characters that must never reach a terminal or a log raw (security.mdx's log rule): bidi, C1, separators, zero-width, ESC. */
const CONTROL_CHARS = ['\u202E', '\u009B', '\u2028', '\u2029', '\u200B', '\u200D', '\uFEFF', '\u001B[2J', '\u0007'];

/**
 * Puts `value` under `key` in a random object of the payload, or (half the time) in a map the
 * schemas check member by member (get_products' filter_diagnostics.excluded_by), where a key's
 * JSON Pointer is built for every item under it.
 */
function addMember(ctx: Ctx, root: Json, objects: readonly Slot[], key: string, value: unknown): string {
  if (objects.length === 0 || ctx.rng.chance(0.5)) {
    root['filter_diagnostics'] = { excluded_by: { [key]: { count: 1, values: value } } };
    return '/filter_diagnostics/excluded_by';
  }
  const where = ctx.rng.pick(objects);
  Object.defineProperty(get(where) as Json, key, { value, enumerable: true, writable: true, configurable: true });
  return where.path;
}

const COST_MUTATIONS = ['longKey', 'idWhitespace', 'controlKey'] as const;

/**
 * Issue 11's cost classes: long keys of `~` and `/` runs over many items, long whitespace runs in
 * `*_id` values, control, bidi and zero-width characters in keys. They draw from a stream of their
 * own (see makeCase), so every case of earlier runs is generated as it was.
 *
 * @param ctx - The case's context (with the cost stream's generator).
 * @param root - The payload, changed in place.
 * @returns The payload.
 * @throws What a hostile value planted earlier throws (the case then skips this mutation).
 * @example
 * if (cost.rng.chance(0.08)) payload = mutateCostClasses(cost, payload);
 */
export function mutateCostClasses(ctx: Ctx, root: Json): Json {
  const { rng } = ctx;
  const all = slots(root);
  const objects = () =>
    all.filter((s) => {
      const v = get(s);
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    });
  const op = rng.pick(COST_MUTATIONS);
  switch (op) {
    case 'longKey': {
      // Issue 11: a long key of `~` and `/` runs (each escapes to two characters in a JSON Pointer)
      // over many items, so a validator that escapes the key per item is quadratic.
      const length = size(ctx, 2 * MiB);
      const unit = rng.pick(['~', '/', '~/', '~0', '~1', '/~1', 'a']);
      const key = unit.repeat(Math.max(1, Math.ceil(length / unit.length)));
      const items = size(ctx, 200_000);
      const item = rng.pick<unknown>(['a', 1, {}, null]);
      const where = addMember(
        ctx,
        root,
        objects(),
        key,
        Array.from({ length: items }, () => item),
      );
      note(ctx, 'payload:longKey', `${key.length} chars of ${JSON.stringify(unit)} over ${items} × ${JSON.stringify(item)} at ${where}`);
      break;
    }
    case 'idWhitespace': {
      // Long whitespace runs in identifiers, where a trimming regex could backtrack.
      const ids = all.filter((s) => typeof s.key === 'string' && s.key.endsWith('_id') && typeof get(s) === 'string');
      const where = ids.length > 0 ? rng.pick(ids) : { parent: root, key: 'media_buy_id', path: '/media_buy_id', depth: 1 };
      const space = rng.pick([' ', '\t', '\n', '\u00A0', '\u3000', '\u2028', ' \t']);
      const n = size(ctx, MiB);
      const value = rng.pick([`id${space.repeat(n)}x`, space.repeat(n), `${space.repeat(n)}id`, `id${space.repeat(n)}`]);
      set(where, value);
      note(ctx, 'payload:idWhitespace', `${n} × ${JSON.stringify(space)} at ${where.path}`);
      break;
    }
    default: {
      const chars = Array.from({ length: 1 + rng.int(4) }, () => rng.pick(CONTROL_CHARS)).join('');
      const key = rng.pick([chars, `a${chars}b`, `${chars}_id`, `${chars}/~`]);
      const where = addMember(ctx, root, objects(), key, rng.pick<unknown>([1, 'x', ['x', 1], { count: -1 }]));
      note(ctx, 'payload:controlKey', `${JSON.stringify(key)} at ${where}`);
      break;
    }
  }
  return root;
}
