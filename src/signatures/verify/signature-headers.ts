/**
 * Reads `Signature-Input`, `Signature` and `Content-Digest` with the profile's RFC 8941 parser
 * (structured-fields.ts), once each: repeated labels and parameters are refused in that parse,
 * `Signature` byte sequences are read in the profile's alphabet (webhook v1: unpadded Base64URL),
 * and each field is bounded in length before it is read.
 */

import { shownText } from '../../errors/format.js';
import { WebhookError } from '../../errors/webhook-error.js';
// The label a verifier processes (security.mdx: the label named `sig1`, not the first one).
import { SIGNATURE_LABEL } from '../http/profile.js';
import {
  type BinaryAlphabet,
  type Dictionary,
  type Parameters,
  parseDictionary,
  StructuredFieldError,
  serializeInnerList,
} from '../http/structured-fields.js';

/** Default bound on each of `Signature-Input`, `Signature` and `Content-Digest`, in characters. */
export const DEFAULT_MAX_SIGNATURE_HEADER_BYTES = 8192;

/** One signature as `Signature-Input` and `Signature` carry it under the chosen label. */
export interface ParsedSignature {
  readonly label: string;
  /** The covered component identifiers, in order (`@method`, `content-digest`, ...). */
  readonly components: readonly string[];
  /** The signature parameters (`created`, `expires`, `nonce`, `keyid`, `alg`, `tag`, ...), typed. */
  readonly params: Parameters;
  /** The `@signature-params` value: the inner list and its parameters, serialized per RFC 8941. */
  readonly paramsValue: string;
  /** The signature bytes. */
  readonly signature: Uint8Array;
}

function malformed(message: string): WebhookError {
  return new WebhookError('webhook_signature_header_malformed', message);
}

/**
 * Refuses a signature field longer than the bound before any of it is parsed.
 *
 * @param field - The field's name, for the message.
 * @param value - The field value.
 * @param maxBytes - The bound (header values are ASCII: characters are bytes).
 * @throws {WebhookError} `webhook_signature_header_malformed`, naming the size and the bound.
 * @example
 * checkHeaderSize('Signature-Input', value, DEFAULT_MAX_SIGNATURE_HEADER_BYTES);
 */
export function checkHeaderSize(field: string, value: string, maxBytes: number): void {
  if (value.length > maxBytes)
    throw malformed(`${field} is ${value.length} bytes; this receiver reads at most ${maxBytes} (maxSignatureHeaderBytes)`);
}

function parseField(raw: string, field: string, alphabet: BinaryAlphabet): Dictionary {
  try {
    return parseDictionary(raw, alphabet);
  } catch (error) {
    if (!(error instanceof StructuredFieldError)) throw error;
    throw malformed(`${field} is not an RFC 8941 dictionary of this profile: ${shownText(error.message, 160)}`);
  }
}

/**
 * Parses the pair of signature headers and selects the `sig1` signature (RFC 9421 §4, verifier
 * checklist step 1); other labels are ignored, repeated ones refused.
 *
 * @param signatureInput - The `Signature-Input` field value.
 * @param signature - The `Signature` field value.
 * @param alphabet - The `Signature` byte-sequence alphabet: `'base64url'` for webhook v1 (default).
 * @returns The chosen signature's components, parameters and bytes.
 * @throws {WebhookError} `webhook_signature_header_malformed`.
 * @example
 * parseSignatureHeaders('sig1=("@method");created=1;keyid="k"', 'sig1=:AQID:').components; // ['@method']
 */
export function parseSignatureHeaders(signatureInput: string, signature: string, alphabet: BinaryAlphabet = 'base64url'): ParsedSignature {
  const input = parseField(signatureInput, 'Signature-Input', 'base64').get(SIGNATURE_LABEL);
  const value = parseField(signature, 'Signature', alphabet).get(SIGNATURE_LABEL);
  if (input === undefined || value === undefined) {
    throw malformed(
      `expected a ${SIGNATURE_LABEL} label in both Signature-Input and Signature; ${input === undefined ? 'Signature-Input' : 'Signature'} has none`,
    );
  }
  if (input.kind !== 'inner-list') throw malformed(`Signature-Input ${SIGNATURE_LABEL} must be an inner list of covered components`);
  const components = new Set<string>();
  for (const { value: item, params } of input.items) {
    if (item.type !== 'string' || params.size > 0) {
      throw malformed(`Signature-Input ${SIGNATURE_LABEL} covers a component that is not a plain string identifier`);
    }
    if (components.has(item.value)) throw malformed(`Signature-Input ${SIGNATURE_LABEL} covers "${shownText(item.value, 40)}" twice`);
    components.add(item.value);
  }
  if (value.kind !== 'item' || value.value.type !== 'bytes') throw malformed(`Signature ${SIGNATURE_LABEL} must be a byte sequence`);
  return {
    label: SIGNATURE_LABEL,
    components: [...components],
    params: input.params,
    paramsValue: serializeInnerList(input),
    signature: value.value.value,
  };
}

/** One `Content-Digest` entry: the algorithm and the digest bytes. */
export interface ContentDigestEntry {
  readonly algorithm: string;
  readonly digest: Uint8Array;
}

/**
 * Parses `Content-Digest` (RFC 9530): a dictionary of algorithm → byte sequence, each in RFC 8941
 * Base64 (the vectors) or unpadded Base64URL (webhooks.mdx's wording); a repeated algorithm is refused.
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
    if (member.kind !== 'item' || member.value.type !== 'bytes')
      throw malformed(`Content-Digest "${shownText(algorithm, 40)}" must be a byte sequence`);
    entries.push({ algorithm, digest: member.value.value });
  }
  return entries;
}
