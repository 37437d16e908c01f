/**
 * The webhook lane of the fuzzer (scripts/fuzz/webhook-*.ts), a short seeded pass in-process: the
 * same cases and oracle as `npm run fuzz -- --lane webhooks`, so the lane cannot rot. No timing is
 * asserted (the test timeout is the hang bound); a finding fails the test with the command that
 * reproduces it.
 */
import { describe, expect, test } from 'vitest';
import type { Finding } from '../../scripts/fuzz/oracle.js';
import { makeWebhookCase } from '../../scripts/fuzz/webhook-case.js';
import { laneSeeds } from '../../scripts/fuzz/webhook-lane.js';
import { runWebhookCase } from '../../scripts/fuzz/webhook-oracle.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';

const SEED = 1;
const CASES = 400;
const seeds = await laneSeeds();

describe('seeded fuzz pass, webhook lane', () => {
  test(`${CASES} cases of seed ${SEED}: no raw error, no INTERNAL, no accepted change of a signed byte, no replay, 4xx for the delivery's faults`, async () => {
    const findings: Array<Finding & { reproduce: string }> = [];
    const outcomes = new Map<string, number>();
    for (let index = 0; index < CASES; index++) {
      const result = await runWebhookCase(makeWebhookCase(SEED, index, seeds, 'ci'), Infinity);
      outcomes.set(result.outcome, (outcomes.get(result.outcome) ?? 0) + 1);
      for (const f of result.findings)
        findings.push({ ...f, reproduce: `npm run fuzz -- --lane webhooks --seed ${SEED} --case ${index} --profile ci` });
    }
    expect(findings).toEqual([]);
    // The pass reaches every corner: received deliveries, signature refusals, replays, polls decoded and refused.
    for (const outcome of [
      'accepted',
      'webhook_signature_invalid',
      'webhook_signature_header_malformed',
      'webhook_signature_digest_mismatch',
      'replay:webhook_signature_replayed',
      'decoded',
      'SCHEMA_MISMATCH',
      'MALFORMED_ENVELOPE',
    ]) {
      expect(outcomes.get(outcome) ?? 0, outcome).toBeGreaterThan(0);
    }
  }, 300_000);

  test('the seeds: every genuine delivery and poll was checked, forged ones too', () => {
    expect(seeds.deliveries.filter((d) => d.forged === undefined).length).toBeGreaterThanOrEqual(20);
    expect(new Set(seeds.deliveries.map((d) => `${d.format} ${d.version}`))).toEqual(
      new Set([`mcp ${V3_0}`, `mcp ${V3_1}`, `a2a ${V3_0}`, `a2a ${V3_1}`]),
    );
    expect(new Set(seeds.deliveries.map((d) => d.forged))).toEqual(
      new Set([undefined, 'wrong-purpose', 'request-tag', 'no-digest', 'expired']),
    );
    expect(new Set(seeds.polls.map((p) => p.version))).toEqual(new Set([V3_0, V3_1]));
  });

  test('a case is a pure function of (seed, index)', () => {
    for (const index of [0, 1, 17, 399]) {
      const a = makeWebhookCase(SEED, index, seeds);
      const b = makeWebhookCase(SEED, index, seeds);
      expect(a.steps).toEqual(b.steps);
      expect(a.kind).toBe(b.kind);
    }
    expect(makeWebhookCase(SEED, 3, seeds).steps).not.toEqual(makeWebhookCase(SEED + 1, 3, seeds).steps);
  });
});
