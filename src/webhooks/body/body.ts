/**
 * Turns a webhook's raw body into a parsed object the way the verifier checklist's step 14 and
 * decode's text path require: strict UTF-8, then the bounded, prototype-safe parse decode()
 * applies to JSON text, which refuses a repeated key, here with the spec's `webhook_body_malformed`.
 */
import type { Bounds } from '../../bounds/bounds.js';
import { DecodeError, describeValue } from '../../errors/errors.js';
import { WebhookError } from '../../errors/webhook-error.js';
import { type DuplicateKeys, shownKeys } from '../../json/duplicate-keys.js';
import { measureUtf8, type ParsedShape, parseJsonText } from '../../json/text.js';

/** A parsed webhook body and its measured size. */
export interface ParsedBody {
  readonly value: Record<string, unknown>;
  readonly shape: ParsedShape;
}

// ignoreBOM keeps a byte-order mark in the text, so the parse refuses it as decode() does.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes raw body bytes as strict UTF-8.
 *
 * @param bytes - The body as received.
 * @returns The text.
 * @throws {DecodeError} `INVALID_JSON` for bytes that are not UTF-8.
 * @example
 * bodyText(new TextEncoder().encode('{}')); // '{}'
 */
export function bodyText(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new DecodeError('INVALID_JSON', `expected a UTF-8 JSON body; got ${bytes.length} bytes that are not valid UTF-8`);
  }
}

/**
 * The refusal of a body over `maxBytes` (webhooks.mdx: before any digest or scan).
 *
 * @param bytes - Its size in UTF-8 bytes, or a lower bound when `exact` is false.
 * @param exact - Whether `bytes` is exact.
 * @param maxBytes - The bound.
 * @returns The error, to throw.
 * @throws Never.
 * @example
 * throw bodyTooLarge(2_000_000, true, 1_048_576);
 */
export function bodyTooLarge(bytes: number, exact: boolean, maxBytes: number): WebhookError {
  return new WebhookError(
    'webhook_body_too_large',
    `expected a body of at most ${maxBytes} bytes; got ${exact ? '' : 'more than '}${bytes}`,
  );
}

/** Step 14's refusal of a body that repeats a key: the sanitized names, at most four (step 14b). */
function malformedBody(found: DuplicateKeys): WebhookError {
  return new WebhookError('webhook_body_malformed', `expected unique object keys; the body repeats ${shownKeys(found)}`, {
    duplicateKeys: found.names,
  });
}

/**
 * Parses a webhook body: its size first (`webhook_body_too_large`, before anything scans it),
 * then decode's parse, whose duplicate-key refusal is step 14's `webhook_body_malformed` here.
 *
 * @param text - The body text.
 * @param bounds - decode's bounds; `maxBytes` is checked before parsing.
 * @returns The parsed object and its shape.
 * @throws {WebhookError} `webhook_body_malformed` for duplicate keys, `webhook_envelope_invalid` for a non-object.
 * @throws {DecodeError} `INVALID_JSON`, `UNSAFE_JSON`, or a LimitError `TOO_LARGE`.
 * @example
 * parseWebhookBody('{"task_id":"t"}', DEFAULT_BOUNDS).value.task_id; // 't'
 */
export function parseWebhookBody(text: string, bounds: Bounds): ParsedBody {
  const size = measureUtf8(text, bounds.maxBytes);
  if (!size.fits) throw bodyTooLarge(size.bytes, size.exact, bounds.maxBytes);
  const parsed = parseJsonText(text, bounds.maxBytes, '', undefined, malformedBody);
  if (!parsed.ok) {
    if (parsed.reason === 'too-large') throw bodyTooLarge(parsed.bytes, parsed.bytesExact === true, bounds.maxBytes);
    throw new DecodeError(
      'INVALID_JSON',
      `expected a JSON webhook body; got text that does not parse (${parsed.parseError ?? 'not JSON'})`,
    );
  }
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new WebhookError('webhook_envelope_invalid', `expected a JSON object body; got ${describeValue(value)}`);
  }
  return { value: value as Record<string, unknown>, shape: parsed.shape };
}
