/**
 * The A2A stream lane's oracle: foldA2aStream throws nothing but DecodeErrors; what it returns is
 * within its bounds (at most 10,000 events read, 1,000,000 artifacts and parts held); on a small
 * stream it equals the naive reference fold (a2a-stream-reference.ts), refusals by code, and leaves
 * the caller's events as they were; decode() of the folded task throws nothing but DecodeErrors;
 * no prototype is polluted; and the case finishes within the slow bound.
 */

import { foldA2aStream } from '../../src/a2a/fold-stream.js';
import { decode } from '../../src/decode/decode.js';
import { DecodeError } from '../../src/errors/errors.js';
import type { StreamCase } from './a2a-stream-case.js';
import { referenceFold } from './a2a-stream-reference.js';
import type { Json } from './context.js';
import { type CaseResult, describeThrown, type Finding, pollutionSinceStart } from './oracle.js';

/** Streams the reference (quadratic) folds too. */
const SMALL = { events: 300, parts: 5_000 };

/** `folded` or the DecodeError code, and the value; a non-DecodeError is returned as thrown. */
function attempt(run: () => Json): { code: string; value?: Json; thrown?: unknown } {
  try {
    return { code: 'folded', value: run() };
  } catch (error) {
    return error instanceof DecodeError ? { code: error.code } : { code: 'threw', thrown: error };
  }
}

/** Artifacts and parts the folded task holds (what the fold charges against its bound). */
function held(task: Json): number {
  const artifacts = task['artifacts'];
  if (!Array.isArray(artifacts)) return 0;
  return artifacts.reduce<number>((n, a: Json) => n + 1 + (Array.isArray(a['parts']) ? a['parts'].length : 0), 0);
}

function checkSmall(c: StreamCase, fold: ReturnType<typeof attempt>, found: (kind: Finding['kind'], detail: string) => void): void {
  const before = JSON.stringify(c.events);
  const ref = attempt(() => referenceFold(c.events));
  if (JSON.stringify(c.events) !== before) found('input-changed', 'the reference fold changed the events (a lane defect)');
  if (ref.code !== fold.code) found('reference-mismatch', `foldA2aStream said ${fold.code}, the reference fold ${ref.code}`);
  else if (fold.value !== undefined && JSON.stringify(fold.value) !== JSON.stringify(ref.value))
    found(
      'reference-mismatch',
      `the folded tasks differ: ${JSON.stringify(fold.value).slice(0, 300)} vs ${JSON.stringify(ref.value).slice(0, 300)}`,
    );
}

/**
 * Runs one case of the A2A stream lane under the oracle.
 *
 * @param c - The case.
 * @param slowMs - Above this a case is reported `slow` (the watchdog reports a `hang`).
 * @returns The outcome (`decoded`, the decode error's code, or `fold <code>`), the time, and any findings.
 * @throws Never (the oracle turns every failure into a finding).
 * @example
 * const { outcome, findings } = runStreamCase(makeStreamCase(1, 0));
 */
export function runStreamCase(c: StreamCase, slowMs = 2_000): CaseResult {
  const findings: Finding[] = [];
  const found = (kind: Finding['kind'], detail: string, ms?: number): void =>
    void findings.push({ kind, seed: c.seed, index: c.index, detail, ...(ms === undefined ? {} : { ms }) });
  const small = c.events.length <= SMALL.events && c.parts <= SMALL.parts;
  const before = small ? JSON.stringify(c.events) : undefined;
  const start = performance.now();
  const fold = attempt(() => foldA2aStream(c.events));
  const foldMs = performance.now() - start;
  if (fold.code === 'threw') found('crash', `foldA2aStream threw ${describeThrown(fold.thrown)}`);
  if (fold.value !== undefined && (c.events.length > 10_000 || held(fold.value) > 1_000_000))
    found('unbounded', `folded ${c.events.length} events into ${held(fold.value)} artifacts and parts`);
  if (before !== undefined) {
    if (JSON.stringify(c.events) !== before) found('input-changed', 'foldA2aStream changed the events it was given');
    checkSmall(c, fold, found);
  }
  let outcome = `fold ${fold.code}`;
  if (fold.value !== undefined) {
    outcome = 'decoded';
    try {
      decode('get_products', fold.value);
    } catch (error) {
      if (error instanceof DecodeError) outcome = error.code;
      else found('crash', `decode of the folded task threw ${describeThrown(error)}`);
    }
  }
  const polluted = pollutionSinceStart();
  if (polluted.length > 0) found('pollution', `added ${polluted.join(', ')}`);
  const ms = performance.now() - start;
  if (foldMs > slowMs) found('slow', `foldA2aStream took ${Math.round(foldMs)} ms`, foldMs);
  return { outcome, ms, findings };
}
