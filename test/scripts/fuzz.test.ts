/**
 * The short, seeded fuzz pass CI runs: the same cases and oracle as `npm run fuzz`
 * (scripts/fuzz/), 2,000 of them with sizes capped (the `ci` profile), in-process. No
 * timing is asserted (the test timeout is the hang bound); a finding fails the test with the
 * command that reproduces it.
 */
import { describe, expect, test } from 'vitest';
import { makeA2aCase } from '../../scripts/fuzz/a2a-lane.js';
import { makeSdkCase } from '../../scripts/fuzz/a2a-sdk-case.js';
import { runSdkCase } from '../../scripts/fuzz/a2a-sdk-oracle.js';
import { makeStreamCase } from '../../scripts/fuzz/a2a-stream-case.js';
import { runStreamCase } from '../../scripts/fuzz/a2a-stream-oracle.js';
import { makeCase } from '../../scripts/fuzz/case.js';
import { type Finding, runCase } from '../../scripts/fuzz/oracle.js';
import { seeds } from '../../scripts/fuzz/seeds.js';

const SEED = 1;
const CASES = 2_000;

describe('seeded fuzz pass', () => {
  test(`${CASES} cases of seed ${SEED}: only DecodeErrors, no pollution, decode and safeDecode agree`, () => {
    const findings: Array<Finding & { reproduce: string }> = [];
    const outcomes = new Map<string, number>();
    for (let index = 0; index < CASES; index++) {
      const result = runCase(makeCase(SEED, index, 'ci'), Infinity);
      outcomes.set(result.outcome, (outcomes.get(result.outcome) ?? 0) + 1);
      for (const f of result.findings) findings.push({ ...f, reproduce: `npm run fuzz -- --seed ${SEED} --case ${index} --profile ci` });
    }
    expect(findings).toEqual([]);
    // The pass reaches every corner: decoded payloads and most error codes.
    for (const code of [
      'decoded',
      'SCHEMA_MISMATCH',
      'TASK_FAILED',
      'MALFORMED_ENVELOPE',
      'NO_PAYLOAD',
      'INVALID_JSON',
      'UNSAFE_JSON',
      'DUPLICATE_KEY',
      'TOO_LARGE',
      'TOO_DEEP',
    ]) {
      expect(outcomes.get(code) ?? 0, code).toBeGreaterThan(0);
    }
  }, 120_000);

  test('a case is a pure function of (seed, index)', () => {
    for (const index of [0, 1, 17, 999]) {
      const a = makeCase(SEED, index);
      const b = makeCase(SEED, index);
      expect(a.steps).toEqual(b.steps);
      expect(a.task).toEqual(b.task);
      expect(runCase(a, Infinity).outcome).toBe(runCase(b, Infinity).outcome);
    }
    expect(makeCase(SEED, 3).steps).not.toEqual(makeCase(SEED + 1, 3).steps);
    expect(seeds.length).toBeGreaterThan(50);
  });
});

describe('seeded fuzz pass of the A2A stream lane', () => {
  const STREAMS = 500;
  test(`${STREAMS} streams of seed ${SEED}: the fold throws only DecodeErrors, stays bounded, equals the reference fold`, () => {
    const findings: Array<Finding & { reproduce: string }> = [];
    const outcomes = new Map<string, number>();
    for (let index = 0; index < STREAMS; index++) {
      const result = runStreamCase(makeStreamCase(SEED, index, 'ci'), Infinity);
      outcomes.set(result.outcome, (outcomes.get(result.outcome) ?? 0) + 1);
      for (const f of result.findings)
        findings.push({ ...f, reproduce: `npm run fuzz -- --seed ${SEED} --case ${index} --profile ci --lane a2a-stream` });
    }
    expect(findings).toEqual([]);
    // Folded and decoded, refused by decode, and refused by the fold.
    for (const outcome of ['decoded', 'NO_PAYLOAD', 'fold MALFORMED_ENVELOPE', 'fold UNSAFE_JSON'])
      expect(outcomes.get(outcome) ?? 0, outcome).toBeGreaterThan(0);
  }, 120_000);

  test('a stream case is a pure function of (seed, index)', () => {
    for (const index of [0, 1, 17, 499]) {
      const [a, b] = [makeStreamCase(SEED, index, 'ci'), makeStreamCase(SEED, index, 'ci')];
      expect(a.steps).toEqual(b.steps);
      expect(JSON.stringify(a.events)).toBe(JSON.stringify(b.events));
    }
  });
});

describe("seeded fuzz pass of the A2A lane's SDK cases", () => {
  const CALLS = 600;
  test(`${CALLS} hostile answers of seed ${SEED} read by the real @a2a-js/sdk clients: safeCallTask resolves typed, bounded, as allowed`, async () => {
    const findings: Array<Finding & { reproduce: string }> = [];
    const outcomes = new Map<string, number>();
    const shapes = new Set<string>();
    for (let index = 0; index < CALLS; index++) {
      const c = makeSdkCase(SEED, index, 'ci');
      const result = await runSdkCase(c, Infinity);
      outcomes.set(result.outcome, (outcomes.get(result.outcome) ?? 0) + 1);
      shapes.add(`${c.shape} ${c.client}`);
      for (const f of result.findings) findings.push({ ...f, reproduce: `makeSdkCase(${SEED}, ${index}, 'ci')` });
    }
    expect(findings).toEqual([]);
    for (const outcome of ['sdk decoded', 'sdk MALFORMED_ENVELOPE', 'sdk TASK_FAILED', 'sdk TRANSPORT_FAILED', 'sdk NO_PAYLOAD'])
      expect(outcomes.get(outcome) ?? 0, outcome).toBeGreaterThan(0);
    // Every shape reaches every client.
    expect(shapes.size).toBe(12 * 3);
  }, 120_000);

  test('an SDK case is a pure function of (seed, index); the lane draws both kinds', () => {
    for (const index of [0, 1, 17, 599]) {
      const [a, b] = [makeSdkCase(SEED, index, 'ci'), makeSdkCase(SEED, index, 'ci')];
      expect(a.steps).toEqual(b.steps);
      expect(JSON.stringify(a.reply({ id: 3, params: undefined }))).toBe(JSON.stringify(b.reply({ id: 3, params: undefined })));
    }
    const kinds = new Set(Array.from({ length: 40 }, (_, index) => makeA2aCase(SEED, index, 'ci').kind));
    expect([...kinds].sort()).toEqual(['sdk-error', 'stream']);
  });
});
