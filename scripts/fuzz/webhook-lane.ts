/**
 * The webhook lane's entry points for the CLI, the workers and the report: its seeds built once per
 * process, a case built from `(seed, index)`, and a case rendered for a finding's file.
 */
import type { CaseView, Profile } from './context.js';
import { type LaneSeeds, makeWebhookCase, type WebhookCase } from './webhook-case.js';
import { buildDeliveries, buildPolls } from './webhook-seeds.js';

let built: Promise<LaneSeeds> | undefined;

/**
 * The lane's seeds, signed and checked on first use (a few seconds), then shared.
 *
 * @returns The deliveries and polling answers.
 * @throws {Error} A seed that does not behave (see webhook-seeds.ts).
 * @example
 * const seeds = await laneSeeds();
 */
export function laneSeeds(): Promise<LaneSeeds> {
  built ??= buildDeliveries().then((deliveries) => ({ deliveries, polls: buildPolls() }));
  return built;
}

const preview = (body: Uint8Array): string => {
  const text = Buffer.from(body.subarray(0, 4_000)).toString('latin1');
  return body.length > 4_000 ? `${text}…(+${body.length - 4_000} bytes)` : text;
};

/**
 * A case as a finding's file shows it: the requests with their bodies as text (cut at 4,000 bytes),
 * or the poll's input.
 *
 * @param c - The case.
 * @returns The view.
 * @throws Never.
 * @example
 * report.add(finding); // calls viewOf(makeWebhookCase(...))
 */
export function viewOf(c: WebhookCase): CaseView {
  const input =
    c.kind === 'poll' ? c.input : c.requests.map((r) => ({ method: r.method, url: r.url, headers: r.headers, body: preview(r.body) }));
  const options = c.kind === 'poll' ? c.options : { dedup: c.dedup, concurrent: c.concurrent, effect: c.effect };
  return { task: c.kind, options, envelope: c.envelope, classes: c.classes, steps: c.steps, input };
}

/**
 * Builds a case of the lane once its seeds are ready.
 *
 * @param seed - The run's seed.
 * @param index - The case.
 * @param profile - The size profile.
 * @returns The case.
 * @throws {Error} When the seeds cannot be built.
 * @example
 * const c = await webhookCase(1, 42, 'full');
 */
export async function webhookCase(seed: number, index: number, profile: Profile): Promise<WebhookCase> {
  return makeWebhookCase(seed, index, await laneSeeds(), profile);
}
