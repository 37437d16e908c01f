/**
 * RFC 8941 dictionaries as the AdCP RFC 9421 profiles read `Signature-Input`, `Signature` and
 * `Content-Digest`: the parsing algorithms of RFC 8941 §4.2, in one pass, with three profile
 * departures no RFC 8941 library offers (each collapses or conflates by the RFC's own rules):
 * a repeated dictionary key or parameter is refused, not collapsed last-wins (the profile: a
 * verifier MUST reject a duplicate `tag`); integers and decimals stay apart (`created=1.0` is not
 * the integer 1); byte sequences decode in the profile's alphabet (webhook v1: unpadded Base64URL).
 * Every step reads each character a bounded number of times: linear in the field's length.
 */
import { base64Decode, base64UrlDecode } from './base64.js';

/** A bare item, tagged with its RFC 8941 type. */
export type BareItem =
  | { readonly type: 'integer' | 'decimal'; readonly value: number }
  | { readonly type: 'string' | 'token'; readonly value: string }
  | { readonly type: 'bytes'; readonly value: Uint8Array; readonly text: string }
  | { readonly type: 'boolean'; readonly value: boolean };

/** Parameters, in order; keys are unique (a repeat is refused). */
export type Parameters = ReadonlyMap<string, BareItem>;

/** An item with its parameters. */
interface Item {
  readonly kind: 'item';
  readonly value: BareItem;
  readonly params: Parameters;
}

/** An inner list with its parameters. */
export interface InnerList {
  readonly kind: 'inner-list';
  readonly items: readonly Item[];
  readonly params: Parameters;
}

/** A dictionary, in order; keys are unique (a repeat is refused). */
export type Dictionary = ReadonlyMap<string, Item | InnerList>;

/**
 * The alphabet byte sequences are read in: RFC 8941's padded Base64 (the 3.2 request profile),
 * unpadded Base64URL (webhook v1), or either but one per token (Content-Digest, whose vectors
 * use Base64 while webhooks.mdx writes Base64URL).
 */
export type BinaryAlphabet = 'base64' | 'base64url' | 'either';

/** Why a field is not a dictionary of the profile; `offset` is where parsing stopped. */
export class StructuredFieldError extends Error {
  override readonly name = 'StructuredFieldError';
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(`${message} at offset ${offset}`);
    this.offset = offset;
  }
}

const SP = 0x20;
const TAB = 0x09;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isLcAlpha = (c: number): boolean => c >= 0x61 && c <= 0x7a;
const isAlpha = (c: number): boolean => isLcAlpha(c) || (c >= 0x41 && c <= 0x5a);
const isKeyChar = (c: number): boolean => isLcAlpha(c) || isDigit(c) || c === 0x5f || c === 0x2d || c === 0x2e || c === 0x2a;
/** RFC 9110 tchar, plus `:` and `/` (RFC 8941 sf-token). */
const TOKEN_CHARS = new Set([..."!#$%&'*+-.^_`|~:/"].map((c) => c.charCodeAt(0)));
const isTokenChar = (c: number): boolean => isAlpha(c) || isDigit(c) || TOKEN_CHARS.has(c);
/** Base64 and Base64URL characters and `=`: what a byte sequence may hold before its alphabet is judged. */
const isBinaryChar = (c: number): boolean => isAlpha(c) || isDigit(c) || c === 0x2b || c === 0x2f || c === 0x3d || c === 0x2d || c === 0x5f;

/** One parse over one field value. */
class Reader {
  private pos = 0;
  constructor(
    private readonly input: string,
    private readonly alphabet: BinaryAlphabet,
  ) {}

  private fail(message: string): never {
    throw new StructuredFieldError(message, this.pos);
  }

  private peek(): number {
    return this.pos < this.input.length ? this.input.charCodeAt(this.pos) : -1;
  }

  private skip(tabsToo: boolean): void {
    for (let c = this.peek(); c === SP || (tabsToo && c === TAB); c = this.peek()) this.pos++;
  }

  /** RFC 8941 §4.2: leading and trailing SP discarded, a dictionary, nothing after it. */
  dictionary(): Dictionary {
    this.skip(false);
    const members = new Map<string, Item | InnerList>();
    while (this.pos < this.input.length) {
      const key = this.key();
      if (members.has(key)) this.fail(`repeated dictionary key "${key}" (RFC 8941 would keep only the last)`);
      if (this.peek() === 0x3d) {
        this.pos++;
        members.set(key, this.peek() === 0x28 ? this.innerList() : this.item());
      } else {
        members.set(key, { kind: 'item', value: { type: 'boolean', value: true }, params: this.parameters() });
      }
      this.skip(true);
      if (this.pos >= this.input.length) return members;
      if (this.peek() !== 0x2c) this.fail('expected "," between dictionary members');
      this.pos++;
      this.skip(true);
      if (this.pos >= this.input.length) this.fail('trailing ","');
    }
    return members;
  }

  private innerList(): InnerList {
    this.pos++;
    const items: Item[] = [];
    while (this.pos < this.input.length) {
      this.skip(false);
      if (this.peek() === 0x29) {
        this.pos++;
        return { kind: 'inner-list', items, params: this.parameters() };
      }
      items.push(this.item());
      const next = this.peek();
      if (next !== SP && next !== 0x29) this.fail('expected SP or ")" after an inner-list item');
    }
    return this.fail('unterminated inner list');
  }

  private item(): Item {
    return { kind: 'item', value: this.bareItem(), params: this.parameters() };
  }

  private parameters(): Parameters {
    const params = new Map<string, BareItem>();
    while (this.peek() === 0x3b) {
      this.pos++;
      this.skip(false);
      const key = this.key();
      if (params.has(key)) this.fail(`repeated parameter "${key}" (RFC 8941 would keep only the last)`);
      let value: BareItem = { type: 'boolean', value: true };
      if (this.peek() === 0x3d) {
        this.pos++;
        value = this.bareItem();
      }
      params.set(key, value);
    }
    return params;
  }

  private key(): string {
    const start = this.pos;
    const first = this.peek();
    if (!isLcAlpha(first) && first !== 0x2a) this.fail('expected a key (lowercase letter or "*")');
    this.pos++;
    while (isKeyChar(this.peek())) this.pos++;
    return this.input.slice(start, this.pos);
  }

  private bareItem(): BareItem {
    const c = this.peek();
    if (c === 0x2d || isDigit(c)) return this.number();
    if (c === 0x22) return this.string();
    if (isAlpha(c) || c === 0x2a) return this.token();
    if (c === 0x3a) return this.bytes();
    if (c === 0x3f) return this.boolean();
    return this.fail('expected a bare item');
  }

  /** RFC 8941 §4.2.4: at most 15 integer digits, or 12 + 3 around one `.`. */
  private number(): BareItem {
    const start = this.pos;
    if (this.peek() === 0x2d) this.pos++;
    if (!isDigit(this.peek())) this.fail('expected a digit');
    const digitsStart = this.pos;
    let dot = -1;
    for (let c = this.peek(); isDigit(c) || (c === 0x2e && dot === -1); c = this.peek()) {
      if (c === 0x2e) {
        if (this.pos - digitsStart > 12) this.fail('more than 12 digits before a decimal point');
        dot = this.pos;
      }
      this.pos++;
      if (dot === -1 && this.pos - digitsStart > 15) this.fail('more than 15 digits in an integer');
      if (dot !== -1 && this.pos - digitsStart > 16) this.fail('more than 16 characters in a decimal');
    }
    const text = this.input.slice(start, this.pos);
    if (dot === -1) return { type: 'integer', value: Number(text) };
    const fraction = this.pos - dot - 1;
    if (fraction === 0) this.fail('a decimal ends with "."');
    if (fraction > 3) this.fail('more than 3 digits after a decimal point');
    return { type: 'decimal', value: Number(text) };
  }

  private string(): BareItem {
    this.pos++;
    let out = '';
    let run = this.pos;
    for (let c = this.peek(); c !== -1; c = this.peek()) {
      if (c === 0x22 || c === 0x5c) {
        out += this.input.slice(run, this.pos);
        this.pos++;
        if (c === 0x22) return { type: 'string', value: out };
        const escaped = this.peek();
        if (escaped !== 0x22 && escaped !== 0x5c) this.fail('a "\\" in a string escapes only "\\" or a quote');
        out += String.fromCharCode(escaped);
        this.pos++;
        run = this.pos;
      } else if (c < 0x20 || c > 0x7e) {
        this.fail('a string holds a character outside printable ASCII');
      } else {
        this.pos++;
      }
    }
    return this.fail('unterminated string');
  }

  private token(): BareItem {
    const start = this.pos;
    this.pos++;
    while (isTokenChar(this.peek())) this.pos++;
    return { type: 'token', value: this.input.slice(start, this.pos) };
  }

  private bytes(): BareItem {
    this.pos++;
    const start = this.pos;
    while (isBinaryChar(this.peek())) this.pos++;
    if (this.peek() !== 0x3a) this.fail('a byte sequence holds a character outside Base64 or is unterminated');
    const text = this.input.slice(start, this.pos);
    this.pos++;
    const url = this.alphabet === 'base64' ? undefined : base64UrlDecode(text);
    const value = url ?? (this.alphabet === 'base64url' ? undefined : base64Decode(text));
    if (value === undefined) {
      const expected = { base64: 'padded Base64', base64url: 'unpadded Base64URL', either: 'Base64 or unpadded Base64URL' }[this.alphabet];
      this.fail(`a byte sequence is not ${expected}`);
    }
    return { type: 'bytes', value, text };
  }

  private boolean(): BareItem {
    this.pos++;
    const c = this.peek();
    if (c !== 0x30 && c !== 0x31) this.fail('expected ?0 or ?1');
    this.pos++;
    return { type: 'boolean', value: c === 0x31 };
  }
}

/**
 * Parses a field value as an RFC 8941 dictionary, refusing repeated keys and parameters.
 *
 * @param input - The field value.
 * @param alphabet - How byte sequences are encoded.
 * @returns The dictionary, in field order.
 * @throws {StructuredFieldError} At the first character that breaks the grammar or the profile.
 * @example
 * parseDictionary('sig1=("@method");created=1', 'base64url').get('sig1')?.kind; // 'inner-list'
 */
export function parseDictionary(input: string, alphabet: BinaryAlphabet): Dictionary {
  return new Reader(input, alphabet).dictionary();
}

function serializeBareItem(item: BareItem): string {
  switch (item.type) {
    case 'integer':
      return String(item.value);
    case 'decimal': {
      // RFC 8941 §4.1.5: at most three fraction digits, trailing zeros dropped, at least one kept.
      return item.value.toFixed(3).replace(/0{1,2}$/, '');
    }
    case 'string':
      return `"${item.value.replace(/[\\"]/g, '\\$&')}"`;
    case 'token':
      return item.value;
    case 'bytes':
      // The base repeats the bytes as the field wrote them: the profile fixes one alphabet per field.
      return `:${item.text}:`;
    case 'boolean':
      return item.value ? '?1' : '?0';
  }
}

function serializeParameters(params: Parameters): string {
  let out = '';
  for (const [key, value] of params) {
    out += `;${key}`;
    if (!(value.type === 'boolean' && value.value)) out += `=${serializeBareItem(value)}`;
  }
  return out;
}

/**
 * Serializes an inner list per RFC 8941 §4.1.1.1: the `@signature-params` value of RFC 9421 §2.3.
 *
 * @param list - The inner list.
 * @returns Its serialization.
 * @throws Never.
 * @example
 * serializeInnerList(parsed); // '("@method" "@target-uri");created=1618884473;keyid="k"'
 */
export function serializeInnerList(list: InnerList): string {
  const items = list.items.map((item) => serializeBareItem(item.value) + serializeParameters(item.params));
  return `(${items.join(' ')})${serializeParameters(list.params)}`;
}
