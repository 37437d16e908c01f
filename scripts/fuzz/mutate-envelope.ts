/** The envelope mutators: what a broken or hostile transport layer sends. */
import { type Ctx, type Json, note, set, slots } from './context.js';
import { stringify } from './stringify.js';
import { anyValue, hostileValue } from './values.js';

const ENVELOPE_MUTATIONS = ['dropKey', 'swapType', 'addItems', 'isError', 'shareText'] as const;

/**
 * One random mutation of an envelope: a dropped key, a swapped type, extra content items, an odd
 * `isError`, or one text shared by many items.
 *
 * @param ctx - The case's context.
 * @param input - The envelope, changed in place.
 * @returns The envelope.
 * @throws What a hostile value planted earlier throws (the case then skips this mutation).
 * @example
 * input = mutateEnvelope(ctx, input);
 */
export function mutateEnvelope(ctx: Ctx, input: unknown): unknown {
  const { rng } = ctx;
  if (typeof input !== 'object' || input === null) return input;
  const all = slots(input, 200);
  if (all.length === 0) return input;
  const op = rng.pick(ENVELOPE_MUTATIONS);
  const slot = rng.pick(all.filter((s) => s.depth <= 4).concat(all.slice(0, 1)));
  switch (op) {
    case 'dropKey':
      if (!Array.isArray(slot.parent)) delete slot.parent[slot.key];
      note(ctx, 'envelope:dropKey', slot.path);
      break;
    case 'swapType': {
      const { value, kind } = rng.chance(0.1) ? hostileValue(ctx) : anyValue(ctx);
      set(slot, value);
      note(ctx, 'envelope:swapType', `${slot.path} → ${kind}`);
      break;
    }
    case 'addItems': {
      const content = (input as Json)['content'];
      if (Array.isArray(content)) {
        const extra = rng.pick<unknown>([
          1,
          null,
          'x',
          [],
          { type: 'text' },
          { type: 'text', text: 5 },
          { type: 'image', data: '' },
          { type: 'text', text: '[1,2]' },
          { type: 'text', text: '{"adcp_error":{"code":"X"}}' },
        ]);
        content.splice(rng.int(content.length + 1), 0, extra);
        note(ctx, 'envelope:addItems', stringify(extra).slice(0, 40));
      }
      break;
    }
    case 'isError': {
      const value = rng.pick<unknown>([true, false, 'false', '', 0, 1, null, {}, [], 'true']);
      (input as Json)['isError'] = value;
      note(ctx, 'envelope:isError', stringify(value));
      break;
    }
    default: {
      // One text shared by many items (an in-memory envelope; impossible on the wire).
      const content = (input as Json)['content'];
      if (Array.isArray(content) && content.length > 0) {
        const n =
          ctx.profile === 'ci'
            ? 50
            : rng.weighted<number>([
                [60, 10],
                [35, 100],
                [5, 1_000],
              ]);
        const item = content[content.length - 1];
        for (let i = 0; i < n; i++) content.unshift(item);
        note(ctx, 'envelope:shareText', `${n} copies`);
      }
    }
  }
  return input;
}
