/**
 * The canonical payload fingerprint of the `idempotency_key` dedup (webhooks.mdx, "Reliability"):
 * SHA-256 of the payload's RFC 8785 (JCS) form, so a retry whose member order, whitespace or wire
 * bytes differ has the same fingerprint, and any changed member gives another.
 */
import type { WebhookCrypto } from '../types.js';

/** Literal text on the work stack of {@link canonicalJson}. */
class Text {
  constructor(readonly text: string) {}
}

const COMMA = new Text(',');

/** Pushes the parts of an array or object onto `work`, last first. */
function pushContainer(item: object, work: unknown[]): void {
  if (Array.isArray(item)) {
    work.push(new Text(']'));
    for (let i = item.length - 1; i >= 0; i--) {
      work.push(item[i]);
      if (i > 0) work.push(COMMA);
    }
    work.push(new Text('['));
    return;
  }
  // JCS sorts members by their names' UTF-16 code units, which is what the default sort compares.
  const keys = Object.keys(item).sort();
  work.push(new Text('}'));
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i] as string;
    work.push((item as Record<string, unknown>)[key], new Text(`${JSON.stringify(key)}:`));
    if (i > 0) work.push(COMMA);
  }
  work.push(new Text('{'));
}

/**
 * The RFC 8785 (JCS) serialization of a parsed JSON value: members sorted, no whitespace, numbers
 * and strings as ECMAScript's JSON.stringify writes them. Iterative, so nesting costs no stack.
 *
 * @param value - A value JSON.parse produced (no `undefined`, functions or non-finite numbers).
 * @returns The canonical text.
 * @throws Never for parsed JSON.
 * @example
 * canonicalJson({ b: 1, a: [true, null] }); // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  const work: unknown[] = [value];
  while (work.length > 0) {
    const item = work.pop();
    if (item instanceof Text) parts.push(item.text);
    else if (typeof item === 'object' && item !== null) pushContainer(item, work);
    else parts.push(JSON.stringify(item));
  }
  return parts.join('');
}

const encoder = new TextEncoder();

/**
 * The payload fingerprint: unpadded Base64URL of SHA-256 over the JCS form.
 *
 * @param payload - The parsed, authenticated webhook body.
 * @param subtle - WebCrypto (default `crypto.subtle`).
 * @returns 43 characters.
 * @throws What `subtle.digest` throws.
 * @example
 * await payloadFingerprint({ idempotency_key: 'whk_...', status: 'completed' });
 */
export async function payloadFingerprint(payload: unknown, subtle: Pick<WebhookCrypto, 'digest'> = crypto.subtle): Promise<string> {
  const digest = new Uint8Array(await subtle.digest('SHA-256', encoder.encode(canonicalJson(payload))));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  const base64 = btoa(binary);
  let end = base64.length;
  while (base64[end - 1] === '=') end--;
  return base64.slice(0, end).replaceAll('+', '-').replaceAll('/', '_');
}
