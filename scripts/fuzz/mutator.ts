/**
 * The skeleton the weighted mutators share: a table of named mutations with their weights, one
 * picked per call by the case's generator, in the table's order (so a seed picks what it did).
 */
import type { Ctx } from './context.js';

/** One mutation: its weight in its table, and what it does (the value it returns is the one to use). */
export type Mutation<V, D> = readonly [weight: number, apply: (ctx: Ctx, value: V, drawn: D) => V];

/**
 * A mutator over a table of weighted mutations.
 *
 * @param mutations - The mutations by name, in the order their weights are drawn over.
 * @param draw - What every mutation of the table is given, drawn after the pick and before it runs.
 * @returns The mutator: `(ctx, value)` applies one mutation, picked by weight.
 * @throws Never (the mutator throws what its mutation throws).
 * @example
 * export const mutateText = weightedMutator(TEXT_MUTATIONS, (ctx, text) => ctx.rng.int(text.length + 1));
 */
export function weightedMutator<V, D>(
  mutations: Readonly<Record<string, Mutation<V, D>>>,
  draw: (ctx: Ctx, value: V) => D,
): (ctx: Ctx, value: V) => V {
  const table = Object.values(mutations).map(([weight, apply]) => [weight, apply] as const);
  return (ctx, value) => {
    const apply = ctx.rng.weighted(table);
    return apply(ctx, value, draw(ctx, value));
  };
}
