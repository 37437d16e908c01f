/**
 * Which request an SSE stream resumed with `Last-Event-ID` continues: the event ids each request's
 * streams delivered, remembered in bounded memory, so a resumption draws on its request's budget.
 */
import type { createHash as CreateHash } from 'node:crypto';
import type { Ledger } from './exchange.js';

/** How many ledgers (requests) one instance remembers for resumption. */
const MAX_LEDGERS = 1024;
/** How many of a ledger's most recent event ids are remembered for resumption. */
const MAX_IDS_PER_LEDGER = 16;

let createHash: typeof CreateHash | undefined;

/**
 * The index key of an event id: a digest of the id as it comes back in a `Last-Event-ID` header (where
 * HTTP strips surrounding whitespace), so remembering an id costs 43 bytes however long the id is.
 */
function idKey(id: string): string {
  // node:crypto is slow to load and only SSE resumption needs it, so it loads on first use (by name,
  // not relative to this file, so the code may sit in a chunk shared with adcp-decode/mcp and /a2a).
  createHash ??= process.getBuiltinModule('node:crypto').createHash;
  return createHash('sha256').update(trimWhitespace(id)).digest('base64url');
}

/** `id` without surrounding tabs, line ends and spaces; a loop, as a regex here backtracked quadratically. */
function trimWhitespace(id: string): string {
  const blank = (unit: number): boolean => unit === 0x20 || unit === 0x09 || unit === 0x0a || unit === 0x0d;
  let start = 0;
  let end = id.length;
  while (start < end && blank(id.charCodeAt(start))) start++;
  while (end > start && blank(id.charCodeAt(end - 1))) end--;
  return id.slice(start, end);
}

/**
 * Event id → the ledgers whose streams delivered it, with bounded memory: the last {@link MAX_IDS_PER_LEDGER} ids of each
 * ledger, of {@link MAX_LEDGERS} ledgers, in two lists (every id, and the ids of events that carry data).
 * Why two lists, and which ids are recorded: docs/fetch.md, "Resuming an SSE stream".
 *
 * @example
 * const index = new EventIdIndex();
 * index.record('42', ledger, true);
 * index.lookup('42'); // ledger
 */
export class EventIdIndex {
  private readonly byKey = new Map<string, Set<Ledger>>();
  /** Ledgers in least-recently-recorded order. */
  private readonly ledgers = new Set<Ledger>();

  record(id: string, ledger: Ledger, withData: boolean): void {
    const key = idKey(id);
    this.ledgers.delete(ledger);
    this.ledgers.add(ledger);
    if (this.ledgers.size > MAX_LEDGERS) {
      const oldest = this.ledgers.values().next().value;
      if (oldest !== undefined) this.forget(oldest);
    }
    let holders = this.byKey.get(key);
    if (holders === undefined) {
      holders = new Set();
      this.byKey.set(key, holders);
    }
    holders.add(ledger);
    this.remember(ledger.ids, key, ledger);
    if (withData) this.remember(ledger.dataIds, key, ledger);
  }

  /** The ledger a resumption from `id` continues: a request ledger over a listening one, then the fullest. */
  lookup(id: string): Ledger | undefined {
    let best: Ledger | undefined;
    for (const ledger of this.byKey.get(idKey(id)) ?? []) {
      if (best === undefined) best = ledger;
      else if (ledger.kind !== best.kind) best = ledger.kind === 'request' ? ledger : best;
      else if (ledger.retained > best.retained) best = ledger;
    }
    return best;
  }

  private remember(list: string[], key: string, ledger: Ledger): void {
    list.push(key);
    if (list.length <= MAX_IDS_PER_LEDGER) return;
    const dropped = list.shift() as string;
    if (!ledger.ids.includes(dropped) && !ledger.dataIds.includes(dropped)) this.unlink(dropped, ledger);
  }

  private forget(ledger: Ledger): void {
    this.ledgers.delete(ledger);
    for (const key of new Set([...ledger.ids, ...ledger.dataIds])) this.unlink(key, ledger);
  }

  private unlink(key: string, ledger: Ledger): void {
    const holders = this.byKey.get(key);
    holders?.delete(ledger);
    if (holders?.size === 0) this.byKey.delete(key);
  }
}
