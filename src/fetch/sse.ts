/**
 * The SSE scanner of the bounded fetch: measures each event of a `text/event-stream` byte
 * stream and collects the ids of the events it completes, without holding event data.
 */
const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const BOM = [0xef, 0xbb, 0xbf] as const;

/** An event id seen in a chunk, and whether its event carried data (so the SDK's parser surfaces it). */
export interface ScannedId {
  readonly id: string;
  readonly withData: boolean;
}

/**
 * Splits an SSE byte stream into events (blank-line separated, CR / LF / CRLF line ends, a leading
 * BOM ignored, as the SSE spec and the SDK's parser do), measuring each event's bytes and collecting
 * each complete event's `id`. Holds no event data, only the bytes of an `id` value being read.
 */
export class SseScanner {
  /** Bytes of the event in progress (0 between events). */
  eventBytes = 0;
  /** `performance.now()` at the first byte of the event in progress. */
  eventStartedAt = 0;
  private lineLength = 0;
  private afterCR = false;
  private crEndedEvent = false;
  private bomIndex = 0;
  /** The field name read so far on this line (only `id` and `data` matter), while before the colon. */
  private name = '';
  private inName = true;
  private inIdValue = false;
  private skipSpace = false;
  private valueParts: Uint8Array[] = [];
  private eventId: string | undefined;
  private eventHasData = false;
  // ignoreBOM: a U+FEFF at the start of an id value is part of the id (the SDK's parser keeps it).
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });

  /**
   * Scans one chunk.
   *
   * @returns The largest event size reached in it (a partial event counts as far as it got), and the
   *   ids of the events it completed, in order.
   */
  scan(chunk: Uint8Array, now: number): { largest: number; ids: ScannedId[] } {
    let largest = 0;
    const ids: ScannedId[] = [];
    let valueFrom = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i] as number;
      if (this.afterCR) {
        this.afterCR = false;
        if (byte === LF) {
          // Second half of a CRLF: belongs to the line (or the blank line) the CR ended.
          if (!this.crEndedEvent) this.eventBytes += 1;
          continue;
        }
      }
      if (byte === CR || byte === LF) {
        largest = Math.max(largest, this.endLine(byte === CR, chunk.subarray(valueFrom, i), now, ids));
        continue;
      }
      if (this.eventBytes === 0) this.eventStartedAt = now;
      this.eventBytes += 1;
      if (this.bomIndex >= 0) {
        // A BOM at the very start of the stream is not part of the first line.
        if (byte === BOM[this.bomIndex]) {
          this.bomIndex = this.bomIndex === 2 ? -1 : this.bomIndex + 1;
          continue;
        }
        if (this.bomIndex > 0) {
          // A partial BOM: those bytes were line content, so this line is no field we track.
          this.lineLength += this.bomIndex;
          this.name = '\ufffd';
        }
        this.bomIndex = -1;
      }
      this.lineLength += 1;
      if (this.inName) {
        if (byte === COLON) {
          this.inName = false;
          if (this.name === 'id') {
            this.inIdValue = true;
            this.skipSpace = true;
            valueFrom = i + 1;
          } else if (this.name === 'data') this.eventHasData = true;
        } else if (this.name.length < 5) {
          // Five characters already rule out `id` and `data`; no need to read further.
          this.name += String.fromCharCode(byte);
        }
      } else if (this.inIdValue && this.skipSpace) {
        this.skipSpace = false;
        if (byte === SPACE) valueFrom = i + 1;
      }
    }
    if (this.inIdValue) this.valueParts.push(chunk.slice(valueFrom));
    return { largest: Math.max(largest, this.eventBytes), ids };
  }

  /**
   * A CR or LF: ends the line (its field read, an `id` value completed from `idTail`, the chunk's
   * bytes of it since `valueFrom`), and with a blank line the event, whose id joins `ids`.
   *
   * @returns The size of the event it completed, or 0.
   */
  private endLine(cr: boolean, idTail: Uint8Array, now: number, ids: ScannedId[]): number {
    if (this.bomIndex > 0) this.lineLength += this.bomIndex; // a partial BOM is line content
    this.bomIndex = -1;
    if (this.eventBytes === 0) this.eventStartedAt = now;
    this.eventBytes += 1;
    let completed = 0;
    if (this.lineLength === 0) {
      // A blank line: the event is complete.
      completed = this.eventBytes;
      if (this.eventId) ids.push({ id: this.eventId, withData: this.eventHasData });
      this.eventId = undefined;
      this.eventHasData = false;
      this.eventBytes = 0;
      this.crEndedEvent = true;
    } else {
      if (this.inName) {
        // A line without a colon is a field with an empty value.
        if (this.name === 'id') this.eventId = '';
        else if (this.name === 'data') this.eventHasData = true;
      } else if (this.inIdValue) {
        this.valueParts.push(idTail.slice());
        const value = this.decoder.decode(concat(this.valueParts));
        // Like the SDK's parser, an id holding U+0000 is ignored.
        if (!value.includes('\0')) this.eventId = value;
      }
      this.crEndedEvent = false;
    }
    this.afterCR = cr;
    this.lineLength = 0;
    this.name = '';
    this.inName = true;
    this.inIdValue = false;
    this.valueParts = [];
    return completed;
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
