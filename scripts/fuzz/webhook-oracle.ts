/**
 * The webhook lane's oracle. A delivery: `receive()` resolves (a delivery or a delivered failed task)
 * for a genuine delivery, and refuses every forged one and every mutation of a signed byte; every
 * refusal is a typed DecodeError, never INTERNAL, and `webhookResponse()` answers a 4xx blaming the
 * delivery (never a 5xx blaming the receiver for a sender's bytes); of a delivery handed twice to
 * one receiver, exactly one is accepted. A poll: decodeTaskStatus() returns a fresh plain snapshot
 * (no object of the input, no prototype member, JSON data only) or throws a
 * DecodeError other than INTERNAL; an unmutated answer decodes. Prototypes stay as they were.
 */
import { decodeTaskStatus } from '../../src/decode/polling.js';
import { DecodeError, TaskFailedError } from '../../src/errors/errors.js';
import { createMemoryDedupStore } from '../../src/signatures/replay/dedup.js';
import { createMemoryReplayStore } from '../../src/signatures/replay/replay.js';
import { webhookResponse } from '../../src/webhooks/errors.js';
import type { WebhookOutcome } from '../../src/webhooks/receiver.js';
import type { Req } from './mutate-delivery.js';
import { type CaseResult, describeThrown, type Finding, pollutionSinceStart } from './oracle.js';
import type { DeliveryCase, PollCase, WebhookCase } from './webhook-case.js';
import { type Delivery, receiverFor } from './webhook-seeds.js';

type Found = (kind: Finding['kind'], detail: string) => void;

/** What one `receive()` gave. */
interface Attempt {
  readonly accepted: boolean;
  /** `accepted`, `task-failed`, the webhook code or the DecodeError code. */
  readonly label: string;
  readonly status: number;
  readonly blame: string;
  readonly detail: string;
}

async function attempt(receive: (r: Req) => Promise<WebhookOutcome>, req: Req, found: Found): Promise<Attempt> {
  try {
    const outcome = await receive(req);
    // A duplicate is not accepted again: it is counted as the dedup's answer, as when it was thrown.
    if (outcome.kind === 'duplicate') return { accepted: false, label: 'duplicate', ...webhookResponse(outcome), detail: '' };
    return { accepted: true, label: outcome.kind === 'task-failed' ? 'task-failed' : 'accepted', ...webhookResponse(outcome), detail: '' };
  } catch (error) {
    const answer = webhookResponse(error);
    if (!(error instanceof DecodeError)) {
      found('crash', `receive() threw ${describeThrown(error)}`);
      return { accepted: false, label: 'raw', ...answer, detail: describeThrown(error) };
    }
    const label = 'webhookCode' in error ? String(error.webhookCode) : error.code;
    if (error.code === 'INTERNAL') found('guarded-defect', `${error.message} (cause: ${describeThrown(error.cause)})`);
    return { accepted: false, label, ...answer, detail: error.message.slice(0, 200) };
  }
}

/** A header's value as a receiver reads it: names case-insensitive, repeats joined, OWS (SP, HTAB) trimmed. */
function field(headers: Req['headers'] | Delivery['headers'], name: string): string | undefined {
  const values = Object.entries(headers)
    .filter(([k]) => k.toLowerCase() === name)
    .map(([, v]) => (Array.isArray(v) ? v.join(', ') : String(v)));
  return values.length === 0 ? undefined : values.join(', ').replace(/^[ \t]+|[ \t]+$/g, '');
}

/**
 * The `sig1` member of Signature-Input, its skippable spaces (RFC 8941: inside the inner list, and
 * after a parameter's `;`) squeezed: the signature covers its serialization, not those spaces.
 */
function sig1Params(value: string | undefined): string | undefined {
  const m = /(?:^|,[ \t]*)sig1=\(([^()]*)\)([^,]*)/.exec(value ?? '');
  if (m === null) return undefined;
  return `(${(m[1] as string).replace(/^ +| +$/g, '').replace(/ {2,}/g, ' ')})${(m[2] as string).replace(/; +/g, ';')}`;
}

/** A percent-encoded unreserved character decoded, other escapes upper-cased: RFC 3986 §6.2.2 normalization, as @target-uri is canonicalized. */
const normalizedEscapes = (path: string): string =>
  path.replace(/%[0-9A-Fa-f]{2}/g, (pct) => {
    const char = String.fromCharCode(Number.parseInt(pct.slice(1), 16));
    return /^[A-Za-z0-9\-._~]$/.test(char) ? char : pct.toUpperCase();
  });

/** The bytes of the `sig1` member of Signature (RFC 8941 lets a parser accept non-zero pad bits). */
function sig1Bytes(value: string | undefined): string | undefined {
  const m = /(?:^|,[ \t]*)sig1=:([A-Za-z0-9+/_-]*={0,2}):(?=$|[ \t]*,)/.exec(value ?? '');
  return m === null ? undefined : Buffer.from(m[1] as string, 'base64url').toString('hex');
}

const pathOf = (url: string): string => {
  const u = new URL(url, 'https://buyer.example.com');
  return normalizedEscapes(`${u.pathname}${u.search}`);
};

/**
 * Whether every byte the signature covers is as signed, read as the receiver may read it: the
 * method, the path and query, the body, Content-Type and Content-Digest (trimmed), the `sig1`
 * member of Signature-Input (inner-list spaces squeezed) and the bytes of `sig1` in Signature.
 * A mutation that leaves them so (a second label, a header name's case, a swap with an equal
 * value, a dropped header put back) may be accepted.
 */
function signedIntact(req: Req, d: Delivery): boolean {
  const same = (name: string): boolean => field(req.headers, name) === field(d.headers, name);
  return (
    req.method === 'POST' &&
    pathOf(req.url) === pathOf(d.url) &&
    Buffer.from(req.body).equals(Buffer.from(d.body)) &&
    same('content-type') &&
    same('content-digest') &&
    sig1Params(field(req.headers, 'signature-input')) === sig1Params(field(d.headers, 'signature-input')) &&
    sig1Bytes(field(req.headers, 'signature')) === sig1Bytes(field(d.headers, 'signature'))
  );
}

function judgeRefusal(a: Attempt, what: string, found: Found): void {
  if (a.accepted || a.label === 'raw') return;
  if (a.status < 400 || a.status > 499 || a.blame !== 'delivery')
    found('wrong-blame', `${what} refused as ${a.label}: ${a.status} blaming ${a.blame} (${a.detail})`);
}

async function runDelivery(c: DeliveryCase, found: Found): Promise<string> {
  const receiver = receiverFor(c.delivery, {
    replayStore: createMemoryReplayStore(),
    ...(c.dedup ? { dedup: { store: createMemoryDedupStore() } } : {}),
  });
  const receive = (r: Req): Promise<WebhookOutcome> => receiver.receive(r);
  const results = c.concurrent
    ? await Promise.all(c.requests.map((r) => attempt(receive, r, found)))
    : await c.requests.reduce<Promise<Attempt[]>>(
        async (acc, r) => [...(await acc), await attempt(receive, r, found)],
        Promise.resolve([]),
      );
  const [first, second] = results as [Attempt, Attempt | undefined];
  if (c.kind === 'replay') {
    const accepted = results.filter((r) => r.accepted).length;
    if (accepted > 1) found('replay-accepted', `a delivery handed twice was accepted twice (${results.map((r) => r.label).join(', ')})`);
    if (accepted === 0) found('genuine-refused', `neither copy was accepted: ${results.map((r) => `${r.label} ${r.detail}`).join('; ')}`);
    for (const r of results) judgeRefusal(r, 'the replay', found);
    return `replay:${(c.concurrent ? results.find((r) => !r.accepted) : second)?.label ?? 'none-refused'}`;
  }
  if (c.kind === 'genuine' && !first.accepted) found('genuine-refused', `refused as ${first.label}: ${first.detail}`);
  if (c.effect === 'signed' && first.accepted) {
    const request = c.requests[0] as Req;
    if (signedIntact(request, c.delivery)) return 'accepted:signed-bytes-intact';
    found('accepted-mutation', `a delivery with a changed signed byte (or forged) was ${first.label}`);
  }
  if (c.kind !== 'genuine') judgeRefusal(first, 'the delivery', found);
  return first.label;
}

/** Every object reachable from a value (iteratively, capped); a member that throws when read is skipped. */
function objectsOf(root: unknown, cap = 2_000_000): Set<object> {
  const out = new Set<object>();
  const stack = [root];
  while (stack.length > 0 && out.size < cap) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || out.has(v) || ArrayBuffer.isView(v)) continue;
    out.add(v);
    try {
      for (const k of Reflect.ownKeys(v)) stack.push((v as Record<PropertyKey, unknown>)[k]);
    } catch {
      // a hostile value: what it holds cannot be listed
    }
  }
  return out;
}

/** JSON data only: finite numbers (-0 included: JSON.parse gives it), strings, booleans, null, dense arrays, string keys, data members. */
function notJson(node: object): string | undefined {
  if (Array.isArray(node) && Object.keys(node).length !== node.length) return 'a sparse array';
  for (const key of Reflect.ownKeys(node)) {
    if (typeof key === 'symbol') return 'a symbol key';
    const d = Object.getOwnPropertyDescriptor(node, key);
    if (d === undefined || !('value' in d)) return `an accessor at "${key.slice(0, 40)}"`;
    if (Array.isArray(node) && key === 'length') continue;
    const v: unknown = d.value;
    const leaf = v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
    if (!leaf && typeof v !== 'object') return `a ${typeof v} at "${key.slice(0, 40)}"`;
  }
  return undefined;
}

function snapshotFault(value: unknown, theirs: ReadonlySet<object>): string | undefined {
  for (const node of objectsOf(value)) {
    if (theirs.has(node)) return 'it holds an object of the input';
    if (Object.hasOwn(node, '__proto__')) return 'it holds a __proto__ member';
    const proto: unknown = Object.getPrototypeOf(node);
    if (proto !== Object.prototype && proto !== Array.prototype) return 'it holds an object of a foreign prototype';
    const ctor = Object.hasOwn(node, 'constructor') ? (node as Record<string, unknown>)['constructor'] : undefined;
    if (typeof ctor === 'object' && ctor !== null && Object.hasOwn(ctor, 'prototype')) return 'it holds constructor.prototype';
    const fault = notJson(node);
    if (fault !== undefined) return `it holds ${fault}`;
  }
  return undefined;
}

function runPoll(c: PollCase, found: Found): string {
  const hostile = c.classes.some((k) => k === 'payload:hostile');
  try {
    const task = decodeTaskStatus(c.input, c.options);
    const theirs = objectsOf(c.input);
    for (const [name, value] of [
      ['data', task.data],
      ['response', task.response],
    ] as const) {
      const fault = snapshotFault(value, theirs);
      if (fault !== undefined) found('not-snapshot', `decodeTaskStatus returned ${name} that is no plain snapshot: ${fault}`);
    }
    return 'decoded';
  } catch (error) {
    if (!(error instanceof DecodeError)) {
      found('crash', `decodeTaskStatus threw ${describeThrown(error)}`);
      return 'raw';
    }
    if (error.code === 'INTERNAL' || (!hostile && error.message.startsWith('input could not be decoded')))
      found('guarded-defect', `${error.message} (cause: ${describeThrown(error.cause)})`);
    if (c.pristine && !(error instanceof TaskFailedError)) found('genuine-refused', `an unmutated poll: ${error.message.slice(0, 200)}`);
    return error.code;
  }
}

/**
 * Runs one case of the webhook lane under the oracle.
 *
 * @param c - The case.
 * @param slowMs - Above this a case is reported `slow`.
 * @returns The outcome (accepted, a webhook code, a DecodeError code, `replay:<code>`), the time, the findings.
 * @throws Never (every failure is a finding).
 * @example
 * const { outcome, findings } = await runWebhookCase(makeWebhookCase(1, 0, seeds));
 */
export async function runWebhookCase(c: WebhookCase, slowMs = 2_000): Promise<CaseResult> {
  const findings: Finding[] = [];
  const found: Found = (kind, detail) => void findings.push({ kind, seed: c.seed, index: c.index, detail });
  const start = performance.now();
  let outcome: string;
  try {
    outcome = c.kind === 'poll' ? runPoll(c, found) : await runDelivery(c, found);
  } catch (error) {
    // The oracle's own reads of a hostile result: reported, never lost.
    found('crash', `the oracle failed: ${describeThrown(error)}`);
    outcome = 'oracle-failed';
  }
  const polluted = pollutionSinceStart();
  if (polluted.length > 0) found('pollution', `added ${polluted.join(', ')}`);
  const ms = performance.now() - start;
  if (ms > slowMs) findings.push({ kind: 'slow', seed: c.seed, index: c.index, detail: `the case took ${Math.round(ms)} ms`, ms });
  return { outcome, ms, findings };
}
