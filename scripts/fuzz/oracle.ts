/**
 * The fuzzer's oracle: decode() returns or throws a DecodeError; safeDecode() never throws and
 * agrees with decode(); the extractors throw nothing but DecodeErrors; whatever the caller receives,
 * merged into `{}` by spread, Object.assign or a naive recursive merge, leaves every prototype as
 * it was; and the case finishes within the slow bound (the hang bound is the worker watchdog's).
 */
import { decode, safeDecode } from '../../src/decode/decode.js';
import { DecodeError, SchemaMismatchError, TaskFailedError } from '../../src/errors/errors.js';
import { extractA2aResponse } from '../../src/extract/a2a.js';
import { extractA2aError, extractMcpError } from '../../src/extract/errors.js';
import { extractMcpResponse } from '../../src/extract/mcp.js';
import type { FuzzCase } from './case.js';
import type { Json } from './context.js';

/** What the oracle (of either lane), or the watchdog, found wrong. */
type FindingKind =
  | 'crash'
  | 'safe-decode-threw'
  | 'extractor-threw'
  /** decode()'s last-resort guard turned a non-DecodeError into MALFORMED_ENVELOPE: a defect it hid. */
  | 'guarded-defect'
  | 'inconsistent'
  | 'pollution'
  | 'slow'
  | 'hang'
  | 'out-of-memory'
  | 'worker-died'
  /** The webhook lane (webhook-oracle.ts): a forged or changed delivery accepted. */
  | 'accepted-mutation'
  | 'replay-accepted'
  | 'genuine-refused'
  /** A delivery's fault answered other than 4xx blaming the delivery. */
  | 'wrong-blame'
  | 'not-snapshot'
  /** The A2A stream lane (a2a-stream-oracle.ts): the fold differs from the naive reference, held past its bounds, or changed its input. */
  | 'reference-mismatch'
  | 'unbounded'
  | 'input-changed'
  /** The A2A lane's SDK cases (a2a-sdk-oracle.ts): an end the case does not allow, the seller's text shown raw or unbounded, a retry not made or made wrongly. */
  | 'unexpected-outcome'
  | 'raw-text'
  | 'retry-mismatch';

/** One finding, with the numbers that rebuild its case. */
export interface Finding {
  readonly kind: FindingKind;
  readonly seed: number;
  readonly index: number;
  readonly detail: string;
  readonly ms?: number;
}

/** What running one case under the oracle gave. */
export interface CaseResult {
  /** `decoded` or the DecodeError code. */
  readonly outcome: string;
  readonly ms: number;
  readonly findings: readonly Finding[];
}

const PROTOTYPES: ReadonlyArray<readonly [string, object]> = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
  ['Number.prototype', Number.prototype],
];
const PRISTINE = new Map(PROTOTYPES.map(([name, proto]) => [name, new Set(Reflect.ownKeys(proto))]));

/**
 * Names of prototype members added since start, removed again so that the run can go on.
 *
 * @returns The added members, e.g. `Object.prototype.polluted`.
 * @throws Never.
 * @example
 * if (pollutionSinceStart().length > 0) found('pollution', '...');
 */
export function pollutionSinceStart(): string[] {
  const added: string[] = [];
  for (const [name, proto] of PROTOTYPES) {
    const before = PRISTINE.get(name)!;
    for (const key of Reflect.ownKeys(proto)) {
      if (before.has(key)) continue;
      added.push(`${name}.${String(key)}`);
      delete (proto as Record<PropertyKey, unknown>)[key];
    }
  }
  return added;
}

/**
 * A thrown value in one line, for a finding; never throws, even on a value that throws when read.
 *
 * @param error - What was thrown.
 * @returns `Name: message` (message cut at 200 characters), or what kind of value it was.
 * @throws Never.
 * @example
 * describeThrown(new TypeError('x')); // 'TypeError: x'
 */
export function describeThrown(error: unknown): string {
  try {
    if (error instanceof Error) return `${error.name}: ${error.message.slice(0, 200)}`;
    return `${typeof error} thrown`;
  } catch {
    return 'an unreadable value thrown';
  }
}

/** The naive recursive merge applications write; bounded so the oracle itself cannot overflow. */
function deepMerge(target: Json, source: unknown, depth = 0): void {
  if (typeof source !== 'object' || source === null || depth > 200) return;
  for (const key in source as Json) {
    const value = (source as Json)[key];
    if (typeof value === 'object' && value !== null) {
      if (typeof target[key] !== 'object' && typeof target[key] !== 'function') target[key] = Array.isArray(value) ? [] : {};
      deepMerge(target[key] as Json, value, depth + 1);
    } else {
      target[key] = value;
    }
  }
}

/** Everything the caller can reach from a result: the data, or the error's own data fields. */
function received(result: ReturnType<typeof safeDecode>): unknown[] {
  if (result.success) return [result.data];
  const e = result.error;
  const out: unknown[] = [{ ...e }];
  if (e instanceof TaskFailedError) out.push(e.adcpError, e.recovery);
  if (e instanceof SchemaMismatchError) out.push(...e.issues.slice(0, 100).map((i) => i.params));
  return out;
}

/**
 * Runs one case under the oracle.
 *
 * @param c - The case.
 * @param slowMs - Above this a case is reported `slow` (the watchdog reports a `hang`).
 * @returns The outcome code, the time taken, and any findings.
 * @throws Never (the oracle turns every failure into a finding).
 * @example
 * const { outcome, findings } = runCase(makeCase(7, 0));
 */
export function runCase(c: FuzzCase, slowMs = 2_000): CaseResult {
  const findings: Finding[] = [];
  const found = (kind: FindingKind, detail: string, ms?: number): void =>
    void findings.push({ kind, seed: c.seed, index: c.index, detail, ...(ms === undefined ? {} : { ms }) });
  const start = performance.now();
  let outcome = 'decoded';
  let safe: ReturnType<typeof safeDecode> | undefined;
  try {
    safe = safeDecode(c.task as 'get_products', c.input, c.options as never);
    outcome = safe.success ? 'decoded' : safe.error.code;
    if (!safe.success && !(safe.error instanceof DecodeError))
      found('crash', `safeDecode returned a non-DecodeError: ${describeThrown(safe.error)}`);
    // The guard's own message: something other than a DecodeError escaped the pipeline. Expected
    // only when the input itself throws (a hostile getter or Proxy read outside the extractors).
    if (
      !safe.success &&
      safe.error.message.startsWith('input could not be decoded') &&
      !c.classes.some((k) => k === 'payload:hostile' || k === 'stateful' || k === 'envelope:swapType')
    ) {
      found('guarded-defect', `${safe.error.message} (cause: ${describeThrown(safe.error.cause)})`);
    }
    // INTERNAL is adcp-decode's own defect, whatever the input.
    if (!safe.success && safe.error.code === 'INTERNAL')
      found('guarded-defect', `${safe.error.message} (cause: ${describeThrown(safe.error.cause)})`);
  } catch (error) {
    found('safe-decode-threw', describeThrown(error));
  }
  const decodeMs = performance.now() - start;
  // decode() runs the same pipeline as safeDecode() and only differs in how it reports; it is
  // checked on every fourth case, the extractors on every other one, to spend the time on cases.
  if (c.index % 4 === 0) {
    let thrown = 'decoded';
    try {
      decode(c.task as 'get_products', c.input, c.options as never);
    } catch (error) {
      if (error instanceof DecodeError) thrown = error.code;
      else found('crash', `decode threw ${describeThrown(error)}`);
    }
    if (safe !== undefined && thrown !== outcome && findings.length === 0 && !c.classes.includes('stateful'))
      found('inconsistent', `safeDecode said ${outcome}, decode said ${thrown}`);
  }
  if (c.index % 2 === 0) {
    for (const [name, extract] of [
      ['extractMcpResponse', extractMcpResponse],
      ['extractA2aResponse', extractA2aResponse],
      ['extractMcpError', extractMcpError],
      ['extractA2aError', extractA2aError],
    ] as const) {
      try {
        extract(c.input);
      } catch (error) {
        if (!(error instanceof DecodeError)) found('extractor-threw', `${name} threw ${describeThrown(error)}`);
      }
    }
  }
  if (safe !== undefined) {
    for (const got of received(safe)) {
      if (typeof got !== 'object' || got === null) continue;
      try {
        void { ...got };
        Object.assign({}, got);
        deepMerge({}, got);
      } catch {
        // a merge of a hostile object may throw; what matters is the prototypes
      }
    }
  }
  const polluted = pollutionSinceStart();
  if (polluted.length > 0) found('pollution', `added ${polluted.join(', ')}`);
  const ms = performance.now() - start;
  if (decodeMs > slowMs) found('slow', `safeDecode took ${Math.round(decodeMs)} ms`, decodeMs);
  return { outcome, ms, findings };
}
