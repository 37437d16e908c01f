/**
 * The success both extraction algorithms (mcp-response-extraction.md, a2a-response-extraction.mdx)
 * share: the payload object found in the envelope; each transport's location adds where it was.
 */

/** A payload found: the object as read (once) from the envelope. */
export interface FoundPayload {
  readonly kind: 'payload';
  readonly value: Record<string, unknown>;
}
