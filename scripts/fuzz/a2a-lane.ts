/**
 * The A2A lane's entry points for the CLI, the workers and the report: a case is a stream folded
 * (a2a-stream-case.ts) or, one in four, a hostile seller's answer read by a real @a2a-js/sdk client
 * (a2a-sdk-case.ts). Which is drawn by a generator of its own, so that a stream case is built as it
 * was before the SDK cases joined the lane.
 */
import { makeSdkCase, type SdkCase, sdkViewOf } from './a2a-sdk-case.js';
import { runSdkCase } from './a2a-sdk-oracle.js';
import { makeStreamCase, type StreamCase, streamViewOf } from './a2a-stream-case.js';
import { runStreamCase } from './a2a-stream-oracle.js';
import type { CaseView, Profile } from './context.js';
import type { CaseResult } from './oracle.js';
import { Rng } from './rng.js';

/** A case of the A2A lane. */
export type A2aCase = StreamCase | SdkCase;

/** The share of the lane's cases that are SDK cases. */
const SDK_SHARE = 0.25;

/**
 * Builds case `index` of `seed` of the A2A lane, deterministically.
 *
 * @param seed - The run's seed.
 * @param index - The case number.
 * @param profile - The size profile.
 * @returns A stream case or an SDK case.
 * @throws Never.
 * @example
 * const c = makeA2aCase(1, 42, 'ci'); await runA2aCase(c);
 */
export function makeA2aCase(seed: number, index: number, profile: Profile = 'full'): A2aCase {
  return new Rng(seed ^ 0x1a2e, index).chance(SDK_SHARE) ? makeSdkCase(seed, index, profile) : makeStreamCase(seed, index, profile);
}

/**
 * Runs a case of the A2A lane under its oracle.
 *
 * @param c - The case.
 * @param slowMs - Above this a case is reported `slow`.
 * @returns The outcome, the time and any findings.
 * @throws Never.
 * @example
 * const { findings } = await runA2aCase(makeA2aCase(1, 0));
 */
export async function runA2aCase(c: A2aCase, slowMs = 2_000): Promise<CaseResult> {
  return c.kind === 'stream' ? runStreamCase(c, slowMs) : runSdkCase(c, slowMs);
}

/**
 * A case as a finding's file shows it.
 *
 * @param c - The case.
 * @returns The view.
 * @throws Never.
 * @example
 * report.add(finding); // calls a2aViewOf(makeA2aCase(...))
 */
export function a2aViewOf(c: A2aCase): CaseView {
  return c.kind === 'stream' ? streamViewOf(c) : sdkViewOf(c);
}
