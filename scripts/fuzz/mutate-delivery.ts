/**
 * The delivery mutators: what a network, a proxy or an attacker does to a signed webhook request
 * (its four signed headers, its body, its URL and method). Each mutation says whether it changes
 * a signed byte (`signed`: the receiver must refuse it) or may leave the delivery intact
 * (`neutral`: a header name's case, whitespace around a value, another host, a second signature
 * label; the receiver may accept it or refuse it, as the sender's fault).
 */
import { type Ctx, note } from './context.js';
import { contentDigest, type Delivery } from './webhook-seeds.js';

/** A request as handed to `receive()`; header values may be arrays (a repeated header, as Node gives it). */
export interface Req {
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  body: Uint8Array;
}

/** The headers the signature covers or carries. */
const SIGNED_HEADERS = ['signature-input', 'signature', 'content-digest', 'content-type'] as const;
type SignedHeader = (typeof SIGNED_HEADERS)[number];

/** What a mutation did to the delivery's signed bytes. */
export type Effect = 'signed' | 'neutral';

const DELIVERY_MUTATIONS = [
  [14, 'header:flip'],
  [6, 'header:truncate'],
  [6, 'header:dupParam'],
  [5, 'header:repeat'],
  [5, 'header:swap'],
  [6, 'header:huge'],
  [3, 'header:drop'],
  [6, 'header:splice'],
  [3, 'header:reorderParams'],
  [3, 'header:nameCase'],
  [3, 'header:ows'],
  [3, 'header:secondLabel'],
  [2, 'header:unrelated'],
  [10, 'body:flip'],
  [4, 'body:truncate'],
  [3, 'body:append'],
  [3, 'body:swap'],
  [4, 'body:redigest'],
  [1, 'body:huge'],
  [1, 'body:empty'],
  [5, 'url:path'],
  [2, 'url:host'],
  [2, 'url:relative'],
  [3, 'method'],
] as const;

export const cloneReq = (d: Delivery | Req): Req => ({
  method: 'method' in d ? d.method : 'POST',
  url: d.url,
  headers: { ...d.headers },
  body: d.body,
});

const text = (v: string | string[] | undefined): string => (Array.isArray(v) ? v.join(', ') : (v ?? ''));

function flipChars(ctx: Ctx, value: string, flips: number): string {
  let out = value;
  for (let i = 0; i < flips && out.length > 0; i++) {
    const j = ctx.rng.int(out.length);
    out = out.slice(0, j) + String.fromCharCode((out.charCodeAt(j) ^ (1 << ctx.rng.int(8))) & 0xffff) + out.slice(j + 1);
  }
  return out;
}

/** Pads a header value to exactly `target` characters the way its grammar allows a member or parameter. */
function pad(name: SignedHeader, value: string, target: number): string {
  const room = (head: string, tail: string): string =>
    head + 'a'.repeat(Math.max(0, target - value.length - head.length - tail.length)) + tail;
  switch (name) {
    case 'signature-input':
      return value + room(';x="', '"');
    case 'signature':
      return value + room(', sig2=:', ':');
    case 'content-digest':
      return value + room(', sha-512=:', ':');
    case 'content-type':
      return value + room('; p="', '"');
  }
}

function dupParam(ctx: Ctx, name: SignedHeader, value: string): string {
  if (name === 'signature-input') {
    const params = [...value.matchAll(/;[a-z]+=("[^"]*"|\d+)/g)].map((m) => m[0]);
    return value + (params.length > 0 ? ctx.rng.pick(params) : ';created=1');
  }
  if (name === 'content-type') return `${value}; charset=utf-8; charset=utf-8`;
  return `${value}, ${value}`; // a repeated dictionary key: sha-256 or sig1 twice
}

/** One header mutation; returns what it did to the signed bytes. */
function mutateHeader(ctx: Ctx, req: Req, op: string, others: readonly Delivery[]): Effect {
  const { rng } = ctx;
  const name = rng.pick(SIGNED_HEADERS);
  const value = text(req.headers[name]);
  let next: string | string[] | undefined = value;
  let effect: Effect = 'signed';
  switch (op) {
    case 'header:flip':
      next = flipChars(ctx, value, 1 + rng.int(4));
      break;
    case 'header:truncate':
      next = value.slice(0, rng.int(value.length));
      break;
    case 'header:dupParam':
      next = dupParam(ctx, name, value);
      break;
    case 'header:repeat':
      next = rng.chance(0.5) ? [value, value] : `${value},${value}`;
      break;
    case 'header:swap':
      next = rng.pick(others).headers[name];
      break;
    case 'header:huge':
      next = pad(name, value, rng.pick([4096, 8000, 8191, 8192, 8193, 9000, 65_536, 1_000_000]));
      break;
    case 'header:drop':
      next = undefined;
      break;
    case 'header:splice': {
      const at = rng.int(value.length + 1);
      const junk = rng.pick([
        ',',
        ';',
        '"',
        '=',
        ':',
        '(',
        ')',
        '\\',
        ' ',
        '\t',
        '\u0000',
        '\r\n',
        '\u00e9',
        '\u2028',
        '\ud800',
        '=:',
        ', sig1=',
      ]);
      next = value.slice(0, at) + junk + value.slice(at);
      break;
    }
    case 'header:reorderParams': {
      const [head, ...params] = value.split(';');
      next = [head, ...params.reverse()].join(';');
      break;
    }
    case 'header:nameCase':
      delete req.headers[name];
      req.headers[rng.pick([name.toUpperCase(), name.replace(/(^|-)([a-z])/g, (_m, d: string, c: string) => d + c.toUpperCase())])] = value;
      note(ctx, op, name);
      return 'neutral';
    case 'header:ows':
      next = `${rng.pick([' ', '\t', '  '])}${value}${rng.pick(['', ' ', '\t'])}`;
      effect = 'neutral';
      break;
    case 'header:secondLabel': {
      // Another genuine delivery's signature, under a second label, in both headers.
      const other = rng.pick(others);
      req.headers['signature-input'] =
        `${text(req.headers['signature-input'])}, ${text(other.headers['signature-input']).replace(/^sig1=/, 'sig2=')}`;
      req.headers['signature'] = `${text(req.headers['signature'])}, ${text(other.headers['signature']).replace(/^sig1=/, 'sig2=')}`;
      note(ctx, op, other.id);
      return 'neutral';
    }
    case 'header:unrelated':
      req.headers[rng.pick(['x-forwarded-for', 'content-length', 'authorization', 'x-adcp-sig'])] = rng.pick([
        '1.2.3.4',
        String(req.body.length),
        'Bearer x',
        '',
      ]);
      note(ctx, op, 'added');
      return 'neutral';
  }
  if (next === undefined) delete req.headers[name];
  else req.headers[name] = next;
  if (text(next) === value && next !== undefined) effect = 'neutral';
  note(ctx, op, `${name} (${effect})`);
  return effect;
}

function mutateBody(ctx: Ctx, req: Req, op: string, others: readonly Delivery[]): Effect {
  const { rng } = ctx;
  const before = req.body;
  let body: Uint8Array = Uint8Array.from(before);
  switch (op) {
    case 'body:flip':
    case 'body:redigest': {
      const flips = 1 + rng.int(4);
      for (let i = 0; i < flips && body.length > 0; i++) {
        const j = rng.int(body.length);
        body[j] = (body[j] as number) ^ (1 << rng.int(8));
      }
      break;
    }
    case 'body:truncate':
      body = body.slice(0, rng.int(body.length));
      break;
    case 'body:append':
      body = new Uint8Array([...body, ...new TextEncoder().encode(rng.pick([' ', '\n', '\r\n', '\u0000', ' {}', '\ufeff']))]);
      break;
    case 'body:swap':
      body = rng.pick(others).body;
      break;
    case 'body:huge':
      body = new Uint8Array(1_000_001).fill(0x20);
      body.set(before.slice(0, 1_000_001));
      break;
    case 'body:empty':
      body = new Uint8Array(0);
      break;
  }
  // The digest recomputed over the new body: only the signature can catch it.
  if (op === 'body:redigest') req.headers['content-digest'] = contentDigest(body);
  req.body = body;
  const same = body.length === before.length && body.every((b, i) => b === before[i]);
  note(ctx, op, `${before.length} → ${body.length} bytes${same ? ' (unchanged)' : ''}`);
  return same ? 'neutral' : 'signed';
}

function mutateTarget(ctx: Ctx, req: Req, op: string): Effect {
  const { rng } = ctx;
  // A relative URL (Node's req.url) after an earlier mutation: read against the registered origin.
  const url = new URL(req.url, 'https://buyer.example.com');
  if (op === 'method') {
    req.method = rng.pick(['GET', 'PUT', 'post', 'POST ', 'PATCH', '', 'P\u00d3ST']);
    note(ctx, op, JSON.stringify(req.method));
    return 'signed';
  }
  if (op === 'url:host') {
    url.host = rng.pick(['evil.example', 'buyer.example.com:8443', 'BUYER.example.com', '127.0.0.1']);
    req.url = url.href;
    note(ctx, op, url.host);
    return 'neutral';
  }
  if (op === 'url:relative') {
    req.url = `${url.pathname}${url.search}`;
    note(ctx, op, req.url);
    return 'neutral';
  }
  const path = url.pathname;
  const how = rng.pick(['flip', 'append', 'query', 'trailing', 'double-slash', 'percent', 'dot-segment', 'case']);
  const at = 1 + rng.int(path.length - 1);
  const changed: Record<string, string> = {
    flip: path.slice(0, at) + flipChars(ctx, path.slice(at, at + 1), 1) + path.slice(at + 1),
    append: `${path}/x`,
    query: `${path}?a=1`,
    trailing: path.slice(0, -1),
    'double-slash': `/${path}`,
    percent: path.replace('a', '%61'),
    'dot-segment': `/adcp/../${path.slice(1)}`,
    case: path.toUpperCase(),
  };
  req.url = rng.chance(0.5) ? `${url.origin}${changed[how]}` : (changed[how] as string);
  // Percent-encoding an unreserved character and dot segments may normalize to the signed target.
  const effect: Effect = how === 'percent' || how === 'dot-segment' ? 'neutral' : 'signed';
  note(ctx, `url:path:${how}`, `${req.url} (${effect})`);
  return effect;
}

/**
 * One random mutation of a delivery.
 *
 * @param ctx - The case's context.
 * @param req - The request, changed in place.
 * @param others - Other genuine deliveries (for swaps).
 * @returns Whether a signed byte changed (`signed`) or maybe not (`neutral`).
 * @throws Never.
 * @example
 * const effect = mutateDelivery(ctx, req, genuine);
 */
export function mutateDelivery(ctx: Ctx, req: Req, others: readonly Delivery[]): Effect {
  const op = ctx.rng.weighted(DELIVERY_MUTATIONS);
  if (op.startsWith('header:')) return mutateHeader(ctx, req, op, others);
  if (op.startsWith('body:')) return mutateBody(ctx, req, op, others);
  return mutateTarget(ctx, req, op);
}

/**
 * A neutral mutation only (for a replay's second delivery): a header name's case, whitespace, another host.
 *
 * @param ctx - The case's context.
 * @param req - The request, changed in place.
 * @throws Never.
 * @example
 * mutateNeutral(ctx, second);
 */
export function mutateNeutral(ctx: Ctx, req: Req): void {
  const op = ctx.rng.pick(['header:nameCase', 'header:ows', 'url:host', 'url:relative', 'header:unrelated']);
  if (op.startsWith('header:')) mutateHeader(ctx, req, op, []);
  else mutateTarget(ctx, req, op);
}
