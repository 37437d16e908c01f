/**
 * adcp-decode/fetch: the Node-only parts. A fetch that bounds what a seller agent may send
 * (bytes, time, SSE events across resumptions) before decode() sees it, for the MCP and A2A SDKs.
 */

export type { BoundedRequestInit, FetchBounds } from '../bounds/fetch-bounds.js';
export { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS, FETCH_BOUNDS } from '../bounds/fetch-bounds.js';
export type { BoundedFetch, BoundedFetchOptions, BoundsViolation } from './bounded-fetch.js';
export { boundedFetch, findBoundsError, withFetchBounds } from './bounded-fetch.js';
