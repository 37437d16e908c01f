/**
 * A case of the webhook lane, a pure function of `(seed, index)` and the lane's seeds
 * (webhook-seeds.ts): a genuine delivery as signed, a mutated one (mutate-delivery.ts), a forged
 * one, a replay (the same delivery twice to one receiver, in turn or at once, the second maybe
 * reshaped in ways that keep its signed bytes), or a polling answer (mutate-poll.ts).
 */

import { releaseOf } from '../../src/schema/versions.js';
import { type CaseRecord, type Ctx, type Json, note, type Profile } from './context.js';
import { cloneReq, type Effect, mutateDelivery, mutateNeutral, type Req } from './mutate-delivery.js';
import { mutatePoll } from './mutate-poll.js';
import { mutateText } from './mutate-text.js';
import { Rng } from './rng.js';
import { type Delivery, type PollSeed, pollCall } from './webhook-seeds.js';

/** The lane's seeds, built once per process. */
export interface LaneSeeds {
  readonly deliveries: readonly Delivery[];
  readonly polls: readonly PollSeed[];
}

/** A delivery case: the requests handed, in turn or at once, to one receiver. */
export interface DeliveryCase extends CaseRecord {
  readonly kind: 'genuine' | 'mutated' | 'forged' | 'replay';
  readonly delivery: Delivery;
  readonly requests: readonly Req[];
  /** `signed` when a mutation changed a signed byte (the first request must be refused). */
  readonly effect: Effect;
  readonly concurrent: boolean;
  /** With the receiver's `dedup` option (a memory store). */
  readonly dedup: boolean;
}

/** A polling case: decodeTaskStatus(input, options). */
export interface PollCase extends CaseRecord {
  readonly kind: 'poll';
  readonly pristine: boolean;
  readonly input: unknown;
  readonly options: Json;
}

export type WebhookCase = DeliveryCase | PollCase;

const KINDS = [
  [4, 'genuine'],
  [56, 'mutated'],
  [4, 'forged'],
  [10, 'replay'],
  [26, 'poll'],
] as const;

function deliveryCase(ctx: Ctx, seeds: LaneSeeds, kind: DeliveryCase['kind']): Omit<DeliveryCase, keyof CaseRecord> {
  const { rng } = ctx;
  const genuine = seeds.deliveries.filter((d) => d.forged === undefined);
  const pool = kind === 'forged' ? seeds.deliveries.filter((d) => d.forged !== undefined) : genuine;
  const delivery = rng.pick(pool);
  ctx.steps.push(`delivery ${delivery.id}`);
  const dedup = rng.chance(0.2);
  const first = cloneReq(delivery);
  let effect: Effect = kind === 'forged' ? 'signed' : 'neutral';
  if (kind === 'forged') note(ctx, `forged:${delivery.forged}`, delivery.id);
  if (kind === 'genuine') note(ctx, 'genuine', delivery.id);
  if (kind === 'mutated') {
    const n = rng.weighted<number>([
      [70, 1],
      [22, 2],
      [8, 3],
    ]);
    for (let i = 0; i < n; i++) {
      try {
        if (mutateDelivery(ctx, first, genuine) === 'signed') effect = 'signed';
      } catch (error) {
        // A fault of the fuzzer itself: counted in its own class, never a lost worker.
        note(ctx, 'fuzzer:skipped', error instanceof Error ? error.message.slice(0, 100) : 'a thrown value');
      }
    }
  }
  const requests = [first];
  let concurrent = false;
  if (kind === 'replay') {
    const second = cloneReq(delivery);
    concurrent = rng.chance(0.3);
    if (rng.chance(0.4)) mutateNeutral(ctx, second);
    note(ctx, concurrent ? 'replay:concurrent' : 'replay:sequential', `${requests.length + 1} deliveries`);
    requests.push(second);
  }
  return { kind, delivery, requests, effect, concurrent, dedup };
}

function pollCase(ctx: Ctx, seeds: LaneSeeds): Omit<PollCase, keyof CaseRecord> {
  const { rng } = ctx;
  const seed = rng.pick(seeds.polls);
  ctx.steps.push(`poll ${seed.id}`);
  let response = structuredClone(seed.response);
  const n = rng.weighted<number>([
    [8, 0],
    [55, 1],
    [27, 2],
    [10, 3],
  ]);
  for (let i = 0; i < n; i++) {
    try {
      response = mutatePoll(ctx, response);
    } catch {
      ctx.steps.push('(skipped: a hostile value was in the way)');
    }
  }
  const how = rng.pick(['wrapped', 'bare'] as const);
  const [input, options] = pollCall(seed.version, response, how);
  let damaged = false;
  // Now and then the MCP text itself is damaged (the structured content stays as mutated).
  if (releaseOf(seed.version) !== '3.0' && how === 'wrapped' && rng.chance(0.15)) {
    const content = (input as { content: Array<{ text: string }> }).content[0] as { text: string };
    content.text = mutateText(ctx, content.text);
    damaged = true;
    if (rng.chance(0.5)) delete (input as Json)['structuredContent'];
  }
  note(ctx, `poll:${how}`, seed.version);
  return { kind: 'poll', pristine: n === 0 && !damaged, input, options: options as Json };
}

/**
 * Builds case `index` of `seed` of the webhook lane, deterministically.
 *
 * @param seed - The run's seed.
 * @param index - The case number.
 * @param seeds - The lane's deliveries and polling answers.
 * @param profile - `full` or `ci` (the payload mutators cap their sizes).
 * @returns The case.
 * @throws Never.
 * @example
 * const c = makeWebhookCase(1, 42, await laneSeeds()); await runWebhookCase(c);
 */
export function makeWebhookCase(seed: number, index: number, seeds: LaneSeeds, profile: Profile = 'full'): WebhookCase {
  // Its own stream: the decode lane's cases stay as they were.
  const rng = new Rng(seed ^ 0x3eb400c, index);
  const ctx: Ctx = { rng, steps: [], classes: new Set(), profile };
  const kind = rng.weighted(KINDS);
  const body = kind === 'poll' ? pollCase(ctx, seeds) : deliveryCase(ctx, seeds, kind);
  const envelope =
    body.kind === 'poll' ? `poll ${ctx.steps[0]?.split('/')[0]?.slice(5)}` : `${body.delivery.format} ${body.delivery.version}`;
  if (ctx.classes.size === 0) ctx.classes.add(kind === 'poll' ? 'poll:pristine' : kind);
  return { seed, index, steps: ctx.steps, classes: [...ctx.classes], envelope, ...body } as WebhookCase;
}
