/**
 * The decode options every decoder takes, whatever its version. They live apart from decode.ts
 * so that a pinned import's declarations reach only its own version's types (decode.ts's reach
 * every bundled version, which would make a consumer's type-check load them all), and in options/,
 * the stage below both decode/ and encode/, which read them (test/layering.test.ts).
 */
import type { Recovery } from '../errors/errors.js';
import type { SentRequest } from './sent-request.js';

/** Where `decode` reads the payload from. */
export type Transport = 'auto' | 'mcp' | 'a2a' | 'payload';

/**
 * The bounds beside `maxBytes` that decode() puts on a seller's answer and encode() on a request:
 * the same limits, with the same defaults, declared once for both.
 */
export interface TreeBounds {
  /** Deepest nesting accepted (the root object is depth 1). Default 64. */
  readonly maxDepth?: number | undefined;
  /** Most JSON values accepted. Default 1,000,000. */
  readonly maxNodes?: number | undefined;
}

/** The options of decode, safeDecode and createDecoder but `version`. */
export interface CommonDecodeOptions extends TreeBounds {
  /** `'auto'` (default): the input's shape decides. `'payload'` takes a bare AdCP payload. */
  readonly transport?: Transport | undefined;
  /**
   * Largest payload, in UTF-8 bytes. Default 4 MiB. A text item is measured before it is parsed;
   * an already-parsed value (MCP `structuredContent`, A2A `data`, a bare payload) counts as the
   * UTF-8 bytes of its compact JSON, `JSON.stringify(value)`: the same value is TOO_LARGE at the
   * same limit whichever way it arrives.
   */
  readonly maxBytes?: number | undefined;
  /**
   * Recovery class for an error code that is not in the version's table and has no `recovery`:
   * `'manifest'` (default) follows the manifest's `error_code_policy` (`transient` in 3.0 and 3.1);
   * `'terminal'` follows the transport-errors page.
   */
  readonly unknownRecovery?: 'manifest' | Recovery | undefined;
  /**
   * The request this answer answers (what `encode` returned, or `{ task, args }` as sent); per
   * call only. With it: the task must be the request's; the answer's `context` must be the
   * request's echoed unchanged (`CONTEXT_MISMATCH`); its `adcp_version`, when present, must be one
   * the request's stamp allows (`VERSION_MISMATCH`), and when absent the stamped release judges it.
   */
  readonly request?: SentRequest | undefined;
}
