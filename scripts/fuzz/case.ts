/**
 * A fuzz case, a pure function of `(seed, index)`: a fixture payload (test/fixtures/payloads) is
 * mutated (mutate-payload.ts, mutate-cost.ts), wrapped in an envelope of some transport
 * (envelope.ts), serialized into text and damaged there (mutate-text.ts) when the envelope carries
 * text, the envelope itself mutated (mutate-envelope.ts), and run with default or random options.
 * `makeCase(seed, index)` rebuilds it exactly, which is how a finding is reproduced.
 */
import { type CaseRecord, type Ctx, type Json, MiB, note, type Profile } from './context.js';
import { envelope } from './envelope.js';
import { mutateCostClasses } from './mutate-cost.js';
import { mutateEnvelope } from './mutate-envelope.js';
import { mutatePayload } from './mutate-payload.js';
import { mutateText } from './mutate-text.js';
import { Rng } from './rng.js';
import { seeds, TASKS } from './seeds.js';
import { stringify } from './stringify.js';
import { OLDEST_FIRST, RELEASES } from './versions.js';

/** Options a case passes to decode(); `undefined` most of the time. */
type CaseOptions = Json | undefined;

/** One case: what decode() is called with, and how it was built. */
export interface FuzzCase extends CaseRecord {
  readonly task: unknown;
  readonly input: unknown;
  readonly options: CaseOptions;
}

function pickOptions(ctx: Ctx, transport: string | undefined): CaseOptions {
  const { rng } = ctx;
  const options: Json = {};
  if (transport !== undefined) options['transport'] = transport;
  if (rng.chance(0.15)) options['maxBytes'] = rng.pick([0, 10, 1_000, 100_000, 4 * MiB - 1, Infinity]);
  if (rng.chance(0.1)) options['maxDepth'] = rng.pick([0, 1, 3, 64, 65, 1_000, Infinity]);
  if (rng.chance(0.1)) options['maxNodes'] = rng.pick([0, 1, 50, 10_000, Infinity]);
  if (rng.chance(0.1)) options['version'] = rng.pick([...RELEASES, ...OLDEST_FIRST, 'auto', '9.9']);
  if (rng.chance(0.05)) options['transport'] = rng.pick(['mcp', 'a2a', 'payload', 'auto', 'smtp']);
  if (rng.chance(0.05)) options['unknownRecovery'] = rng.pick(['terminal', 'transient', 'manifest', 'never']);
  if (Object.keys(options).length === 0) return undefined;
  note(
    ctx,
    'options',
    JSON.stringify(options, (_k, v: unknown) => (v === Infinity ? 'Infinity' : v)),
  );
  return options;
}

/**
 * Builds case `index` of `seed`, deterministically.
 *
 * @param seed - The run's seed.
 * @param index - The case number.
 * @param profile - `full` (the fuzzer) or `ci` (sizes capped for a quick pass).
 * @returns The case: task, input, options and the steps that made it.
 * @throws Never.
 * @example
 * const c = makeCase(1, 42); runCase(c); // the same case every time
 */
export function makeCase(seed: number, index: number, profile: Profile = 'full'): FuzzCase {
  const rng = new Rng(seed, index);
  const ctx: Ctx = { rng, steps: [], classes: new Set(), profile };
  const s = rng.pick(seeds);
  ctx.steps.push(`fixture ${s.id}`);
  let task: unknown = s.task;
  if (rng.chance(0.03)) {
    task = rng.pick<unknown>([...TASKS, 'nope', '', '__proto__', 'constructor', 5, null, 'get_products '.repeat(50)]);
    note(ctx, 'task', stringify(task));
  }
  let payload = JSON.parse(s.text) as Json;
  const payloadMutations = rng.weighted<number>([
    [15, 0],
    [45, 1],
    [25, 2],
    [15, 3],
  ]);
  // A mutation may meet a hostile value an earlier one planted (a revoked Proxy cannot be
  // written to): it is then skipped, deterministically.
  const attempt = <T>(fn: () => T, fallback: T): T => {
    try {
      return fn();
    } catch {
      ctx.steps.push('(skipped: a hostile value was in the way)');
      return fallback;
    }
  };
  for (let i = 0; i < payloadMutations; i++) payload = attempt(() => mutatePayload(ctx, payload), payload);
  // Mutators added later draw from streams of their own: the cases of earlier runs stay as they were.
  const cost: Ctx = { ...ctx, rng: new Rng(seed ^ 0x11c0057, index) };
  if (cost.rng.chance(0.08)) payload = attempt(() => mutateCostClasses(cost, payload), payload);
  const env = attempt(() => envelope(ctx, payload), { kind: 'payload', input: payload, transport: 'payload', texts: [] });
  for (const { holder, key } of env.texts) {
    const textMutations = rng.weighted<number>([
      [40, 0],
      [40, 1],
      [15, 2],
      [5, 3],
    ]);
    let text = holder[key] as string;
    for (let i = 0; i < textMutations; i++) text = attempt(() => mutateText(ctx, text), text);
    holder[key] = text;
  }
  let input = env.input;
  const envelopeMutations = rng.weighted<number>([
    [75, 0],
    [20, 1],
    [5, 2],
  ]);
  for (let i = 0; i < envelopeMutations; i++) input = attempt(() => mutateEnvelope(ctx, input), input);
  const options = pickOptions(ctx, env.transport);
  if (ctx.classes.size === 0) ctx.classes.add('none');
  return { seed, index, task, input, options, steps: ctx.steps, classes: [...ctx.classes], envelope: env.kind };
}
