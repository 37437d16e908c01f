/**
 * Parses `Signature-Input`, `Signature` and `Content-Digest` as RFC 8941 structured fields with
 * `structured-headers`, under the webhook-v1 profile: `Signature` values are unpadded Base64URL,
 * which RFC 8941's sf-binary does not allow, so they are checked and re-encoded before parsing;
 * duplicated dictionary keys and parameters (which RFC 8941 collapses, last wins) are refused.
 */
import { parseDictionary, serializeInnerList, type BareItem, type Dictionary, type InnerList, type Parameters } from 'structured-headers';
import { base64Decode, base64Encode, base64UrlDecode } from './base64.js';
import { WebhookError } from '../errors.js';
import { shownText } from '../../errors/format.js';

/** The label a webhook verifier processes (security.mdx: the label named `sig1`, not the first one). */
export const SIGNATURE_LABEL = 'sig1';

/** One signature as `Signature-Input` and `Signature` carry it under the chosen label. */
export interface ParsedSignature {
  readonly label: string;
  /** The covered component identifiers, in order (`@method`, `content-digest`, ...). */
  readonly components: readonly string[];
  /** The signature parameters (`created`, `expires`, `nonce`, `keyid`, `alg`, `tag`, ...). */
  readonly params: ReadonlyMap<string, BareItem>;
  /** The `@signature-params` value: the inner list and its parameters, serialized per RFC 8941. */
  readonly paramsValue: string;
  /** The signature bytes. */
  readonly signature: Uint8Array;
}

function malformed(message: string): WebhookError {
  return new WebhookError('webhook_signature_header_malformed', message);
}

/** RFC 8941 key characters: lcalpha, DIGIT, `_`, `-`, `.`, `*`. */
function isKeyChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d || c === 0x2e || c === 0x2a;
}

/**
 * Lists the keys of every dictionary member and of each member's own parameters, in the raw
 * text of a field that already parsed, so that repeats RFC 8941 would collapse can be refused.
 */
function repeatedKey(raw: string): string | undefined {
  const members = new Set<string>();
  let params = new Set<string>();
  let depth = 0;
  let i = 0;
  const readKey = (): string => {
    while (raw[i] === ' ' || raw[i] === '\t') i++;
    const start = i;
    while (i < raw.length && isKeyChar(raw.charCodeAt(i))) i++;
    return raw.slice(start, i);
  };
  let key = readKey();
  if (members.has(key)) return key;
  members.add(key);
  while (i < raw.length) {
    const c = raw[i];
    if (c === '"') {
      i++;
      while (i < raw.length && raw[i] !== '"') i += raw[i] === '\\' ? 2 : 1;
    } else if (c === ':') {
      i = raw.indexOf(':', i + 1);
      if (i === -1) return undefined;
    } else if (c === '(') {
      depth++;
    } else if (c === ')') {
      depth--;
    } else if (c === ';' && depth === 0) {
      i++;
      key = readKey();
      if (params.has(key)) return `${[...members].pop() ?? ''};${key}`;
      params.add(key);
      continue;
    } else if (c === ',' && depth === 0) {
      i++;
      key = readKey();
      if (members.has(key)) return key;
      members.add(key);
      params = new Set();
      continue;
    }
    i++;
  }
  return undefined;
}

/**
 * Re-encodes the byte sequences of a field from the profile's alphabet to RFC 8941's padded
 * Base64, refusing a token in any other alphabet (a mix of both is the vectors' 021 case).
 */
function toSfBinary(raw: string, accept: 'base64url' | 'either', field: string): string {
  let out = '';
  let from = 0;
  const special = /[":]/g;
  for (let m = special.exec(raw); m !== null; m = special.exec(raw)) {
    const i = m.index;
    if (raw[i] === '"') {
      let end = i + 1;
      while (end < raw.length && raw[end] !== '"') end += raw[end] === '\\' ? 2 : 1;
      special.lastIndex = end + 1;
      continue;
    }
    const prev = i === 0 ? '' : raw[i - 1];
    // A byte sequence starts a value (after '=') or an inner-list item; ':' inside a token does not.
    if (prev !== '=' && prev !== '(' && prev !== ' ') continue;
    const end = raw.indexOf(':', i + 1);
    if (end === -1) throw malformed(`${field} has an unterminated byte sequence`);
    const token = raw.slice(i + 1, end);
    let bytes = base64UrlDecode(token);
    if (bytes === undefined && accept === 'either') bytes = base64Decode(token);
    if (bytes === undefined) {
      throw malformed(
        `${field} byte sequence is not ${accept === 'base64url' ? 'unpadded Base64URL (the webhook-v1 encoding)' : 'Base64 or unpadded Base64URL'}`,
      );
    }
    out += `${raw.slice(from, i)}:${base64Encode(bytes)}:`;
    from = end + 1;
    special.lastIndex = end + 1;
  }
  return out + raw.slice(from);
}

function parseField(raw: string, field: string, accept: 'base64url' | 'either' | 'none'): Dictionary {
  let dictionary: Dictionary;
  try {
    dictionary = parseDictionary(accept === 'none' ? raw : toSfBinary(raw, accept, field));
  } catch (error) {
    if (error instanceof WebhookError) throw error;
    throw malformed(`${field} is not an RFC 8941 dictionary (${error instanceof Error ? shownText(error.message, 120) : 'parse error'})`);
  }
  const repeated = repeatedKey(raw);
  if (repeated !== undefined) throw malformed(`${field} repeats "${shownText(repeated, 40)}"; RFC 8941 would keep only the last`);
  return dictionary;
}

function isInnerList(member: unknown): member is InnerList {
  return Array.isArray(member) && Array.isArray(member[0]);
}

/**
 * Parses the pair of signature headers and selects the `sig1` signature (RFC 9421 §4, verifier
 * checklist step 1); other labels are ignored.
 *
 * @param signatureInput - The `Signature-Input` field value.
 * @param signature - The `Signature` field value.
 * @returns The chosen signature's components, parameters and bytes.
 * @throws {WebhookError} `webhook_signature_header_malformed`.
 * @example
 * parseSignatureHeaders('sig1=("@method");created=1;keyid="k"', 'sig1=:AQID:').components; // ['@method']
 */
export function parseSignatureHeaders(signatureInput: string, signature: string): ParsedSignature {
  const inputs = parseField(signatureInput, 'Signature-Input', 'none');
  const signatures = parseField(signature, 'Signature', 'base64url');
  const input = inputs.get(SIGNATURE_LABEL);
  const value = signatures.get(SIGNATURE_LABEL);
  if (input === undefined || value === undefined) {
    throw malformed(
      `expected a ${SIGNATURE_LABEL} label in both Signature-Input and Signature; ${input === undefined ? 'Signature-Input' : 'Signature'} has none`,
    );
  }
  if (!isInnerList(input)) throw malformed(`Signature-Input ${SIGNATURE_LABEL} must be an inner list of covered components`);
  const components: string[] = [];
  for (const [item, itemParams] of input[0]) {
    if (typeof item !== 'string' || itemParams.size > 0) {
      throw malformed(`Signature-Input ${SIGNATURE_LABEL} covers a component that is not a plain string identifier`);
    }
    if (components.includes(item)) throw malformed(`Signature-Input ${SIGNATURE_LABEL} covers "${shownText(item, 40)}" twice`);
    components.push(item);
  }
  if (isInnerList(value) || !(value[0] instanceof ArrayBuffer)) throw malformed(`Signature ${SIGNATURE_LABEL} must be a byte sequence`);
  return {
    label: SIGNATURE_LABEL,
    components,
    params: input[1] as Parameters,
    paramsValue: serializeInnerList(input),
    signature: new Uint8Array(value[0]),
  };
}

/** One `Content-Digest` entry: the algorithm and the digest bytes. */
export interface ContentDigestEntry {
  readonly algorithm: string;
  readonly digest: Uint8Array;
}

/**
 * Parses `Content-Digest` (RFC 9530): a dictionary of algorithm → byte sequence, in RFC 8941
 * Base64 (the vectors) or unpadded Base64URL (webhooks.mdx's wording), never mixed.
 *
 * @param raw - The field value.
 * @returns The entries, in order.
 * @throws {WebhookError} `webhook_signature_header_malformed` when the field does not parse.
 * @example
 * parseContentDigest('sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:')[0]?.algorithm; // 'sha-256'
 */
export function parseContentDigest(raw: string): ContentDigestEntry[] {
  const entries: ContentDigestEntry[] = [];
  for (const [algorithm, member] of parseField(raw, 'Content-Digest', 'either')) {
    if (isInnerList(member) || !(member[0] instanceof ArrayBuffer))
      throw malformed(`Content-Digest "${shownText(algorithm, 40)}" must be a byte sequence`);
    entries.push({ algorithm, digest: new Uint8Array(member[0]) });
  }
  return entries;
}
